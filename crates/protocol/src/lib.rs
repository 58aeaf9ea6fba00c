//! The two hashing protocols that bloomproof pins down, byte for byte.
//!
//! * [`doc_membership_v1`]: SHA-256 over a length-framed message, positions
//!   `digest mod m` (seed document `000`); its tuned path is
//!   [`doc_membership_v1::fast`].
//! * [`fnv1a_utf16_v1`]: 32-bit FNV-1a over UTF-16 code units with double hashing
//!   computed without 32-bit wrap (seed document `002`).
//!
//! Both report a value outside their bounds as one [`BoundError`] shape.
//!
//! This crate only computes hashes and positions. Snapshots, sessions and their
//! contracts live in the crates built on top of it.

mod bound;
pub mod doc_membership_v1;
pub mod fnv1a_utf16_v1;

pub use bound::{BoundError, Field};
