//! `doc-membership-v1` in the adapter crate: its subject trait and in-process subject
//! ([`subject`]), its subject behind an adapter ([`client`]), and its part of the serving
//! side of `bloomproof adapter` ([`serve`]).

pub mod client;
pub mod serve;
pub mod subject;

pub use client::*;
pub use subject::*;

/// The protocol's name on the wire.
pub const NAME: &str = bloomproof_protocol::doc_membership_v1::NAME;
