//! # bloomproof-wire: the wire vocabulary
//!
//! The types every JSON file and message of bloomproof shares, defined once: the spec
//! files (`spec/<protocol>/cases.json`), the vector files (`vectors/`) and the adapter
//! protocol (`spec/ADAPTER.md`) all write bytes as [`Hex`], the values of a dynamic
//! language as [`TypedValue`], and an expected contract rejection as [`RejectExpect`]
//! (an [`ErrorKindName`] and a field). Each type derives both serde directions and
//! `JsonSchema`, so the JSON Schemas written from the files' types describe these the
//! same way everywhere.
//!
//! Beside those:
//! * [`DocParams`]: the one spelling of a snapshot's parameters;
//! * [`adapter`]: every request and result of the adapter protocol, both sides;
//! * [`report`]: the report of a run (`spec/schemas/report.schema.json`);
//! * [`matrix`] and [`cross`]: the results matrix across implementations, its
//!   cross-reading grids (`spec/schemas/matrix*.schema.json`) and the cross-reading session
//!   scripts (`crates/matrix/data/cross-sessions.json`);
//! * [`hand_picked`]: the vector writer's hand-picked inputs
//!   (`crates/vectors-writer/data/*.hand-picked.json`);
//! * [`accumulated`]: the published digests of the accumulated checks;
//! * [`explorer`]: the error answers of the explorer's server;
//! * [`vectors`]: the vector files of `vectors/` (header and case types);
//! * [`spec`]: the spec files (`checks.json`, and `cases.json`'s generic case);
//! * [`protocols`]: each protocol's own case, adapter and vector types, one namespace
//!   per protocol (`protocols::doc_membership_v1::DocCase`, `protocols::fnv1a_utf16_v1::session`
//!   for the teaching filter's session model: a path names the protocol;
//!   no module re-exports every protocol's types); its `mod.rs` holds the two types
//!   that name every protocol ([`spec::Generator`], [`adapter::Messages`]).
//! * [`adapter_checks`]: the adapter protocol's own checks (`spec/adapter-protocol.json`);
//! * [`schema`]: the one rendering of these types' JSON Schemas as file text.
//!
//! Dependencies: serde, `serde_json` (for the session views and import documents the
//! adapter messages carry as JSON values) and schemars; no workspace crate. The one
//! conversion of a [`TypedValue`] into the filter's dynamic value is
//! `bloomproof_adapter::ToDynamic`, above the filter.
//!
//! ## Hex: one rule
//!
//! [`Hex`] **writes lowercase** and **reads lowercase and uppercase** digits, two per
//! byte; anything else (an odd count, a sign, a prefix such as `0x`, spaces) is refused
//! with a message that quotes at most a short prefix of the text ([`quote_prefix`]).
//! The published documents decide it: `spec/ADAPTER.md` says bytes "are lowercase or
//! uppercase hex strings", so an adapter may answer in either case and the runner must
//! accept both; `vectors/README.md` and every file the tools write use lowercase. Every
//! committed spec and vector file is lowercase, and the writers and `--check` modes
//! compare files byte for byte, so accepting uppercase when reading changes nothing for
//! them; the one reader that refused uppercase (the vector loader, on files nobody
//! commits) now reads it as the same bytes.

pub mod accumulated;
pub mod adapter;
pub mod adapter_checks;
pub mod bounded;
pub mod cross;
pub mod explorer;
pub mod export;
pub mod hand_picked;
pub mod hex;
pub mod matrix;
mod params;
pub mod positions;
pub mod protocols;
pub mod report;
pub mod schema;
pub mod spec;
mod typed;
pub mod vectors;

pub use hex::{Hex, QUOTE_MAX, blank, decode_hex, encode_hex, hidden, quote_prefix, untrusted};
pub use params::DocParams;
pub use typed::{ContractExpect, ErrorKindName, RejectExpect, TypedValue};
