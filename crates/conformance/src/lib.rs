//! The conformance harness: the spec model, its loader, one evaluator per case shape,
//! the runner and its report.
//!
//! Data flows one way: [`load()`] reads `spec/<protocol>/checks.json` and
//! `spec/<protocol>/cases.json` into the typed [`model`], refusing anything
//! malformed; [`run()`] hands every case of each documented check to the evaluator of
//! its shape (then to the check's hook, if it has one), which drives an implementation
//! through a [`subject`] and compares what it answers with the spec's expectations and
//! with the independent oracle; the [`report`] prints one line per check, the figures the source documents published,
//! and `N passed, M failed`.

pub mod accumulated;
pub mod adapter_checks;
pub mod bound_edges;
pub mod embedded;
pub mod fail_fast;
pub mod generated;
mod hooks;
pub mod load;
pub mod model;
pub mod protocol;
pub mod protocols;
pub mod report;
pub mod run;
pub mod vectors;
mod verdict;

pub use load::{LoadError, Spec, load, load_embedded, load_with};
// The adapter protocol and the subjects are `bloomproof-adapter`'s, under the names this
// crate has always given them.
pub use bloomproof_adapter::client as adapter;
/// Each protocol's subjects, one module per protocol (`subjects::doc_membership_v1::RustDoc`):
/// `bloomproof_adapter`'s protocol modules.
pub use bloomproof_adapter::protocols as subjects;
pub use bloomproof_adapter::{lines, quote, scan, subject};
/// The registry of protocols, `bloomproof_protocol::PROTOCOLS`.
pub use bloomproof_protocol::PROTOCOLS;
pub use report::{CheckOutcome, Failure, Report};
pub use run::run;
pub mod schemas;
pub mod spelled_requests;
pub mod stream;
