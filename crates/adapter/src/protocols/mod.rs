//! The protocols of the adapter crate, one folder each (`subject.rs`, `client.rs`,
//! `serve.rs`). This file is the one a new protocol touches here: its `mod` (a path names
//! the protocol: `bloomproof_adapter::protocols::doc_membership_v1::RustDoc`; no module
//! re-exports every protocol's types) and its served entry, in the order of
//! `bloomproof_protocol::PROTOCOLS`.

pub mod doc_membership_v1;
pub mod fnv1a_utf16_v1;

/// Every protocol `bloomproof adapter` serves (`crate::serve::REGISTRY`).
pub static SERVED: &[&dyn crate::serve::ServedProtocol] = &[
    &doc_membership_v1::serve::DocMembership::V1,
    &fnv1a_utf16_v1::serve::Fnv1aUtf16V1,
];
