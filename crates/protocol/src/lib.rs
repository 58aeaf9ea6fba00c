//! The two hashing protocols that bloomproof pins down, byte for byte.
//!
//! * [`doc_membership_v1`]: SHA-256 over a length-framed message, positions
//!   `digest mod m` (seed document `000`), the first version of the family
//!   [`doc_membership`] (a version is a [`doc_membership::DocFamily`] value); the
//!   family's tuned path is [`doc_membership::fast`].
//! * [`fnv1a_utf16_v1`]: 32-bit FNV-1a over UTF-16 code units with double hashing
//!   computed without 32-bit wrap (seed document `002`).
//!
//! Both report a value outside their bounds as one [`BoundError`] shape.
//!
//! This crate only computes hashes and positions. Snapshots, sessions and their
//! contracts live in the crates built on top of it.

mod bound;
pub mod doc_membership;
pub mod doc_membership_v1;
pub mod fnv1a_utf16_v1;

pub use bound::{BoundError, Field};

/// The registry of protocols: every protocol this workspace implements, by its name on
/// the wire (each defined once, as its module's `NAME`), in the order reports list them.
/// The loader's protocol folders, the adapter's handshake (both sides) and the vector
/// folders go by this list; `crates/conformance/tests/registry.rs` checks that each
/// protocol listed has every layer (spec folder, derivation, cases, accumulated stream,
/// vectors, subjects).
pub const PROTOCOLS: &[&str] = &[doc_membership_v1::NAME, fnv1a_utf16_v1::NAME];
