//! The protocols of the adapter crate, one folder each (`subject.rs`, `client.rs`,
//! `serve.rs`). This file is the one a new protocol touches here: its `mod`, its
//! re-exports and its served entry, in the order of `bloomproof_protocol::PROTOCOLS`.

pub mod doc_membership_v1;
pub mod fnv1a_utf16_v1;

/// Every protocol's subject trait, calls and in-process subject (re-exported by
/// [`crate::subject`]).
pub mod subjects {
    pub use super::doc_membership_v1::subject::*;
    pub use super::fnv1a_utf16_v1::subject::*;
}

/// Every protocol's subject behind an adapter (re-exported by [`crate::client`]).
pub mod clients {
    pub use super::doc_membership_v1::client::*;
    pub use super::fnv1a_utf16_v1::client::*;
}

/// Every protocol `bloomproof adapter` serves (`crate::serve::REGISTRY`).
pub static SERVED: &[&dyn crate::serve::ServedProtocol] = &[
    &doc_membership_v1::serve::DocMembershipV1,
    &fnv1a_utf16_v1::serve::Fnv1aUtf16V1,
];
