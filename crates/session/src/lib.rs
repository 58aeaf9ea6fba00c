//! The `fnv1a-utf16-v1` interactive teaching filter as a session model: rules,
//! counters, estimates, export/import.
//!
//! A [`Session`] holds the four raw drafts (`m`, `k`, insert, query), the
//! active filter (parameters and bits), the reference entries (distinct
//! strings as UTF-16 code units, in insertion order), the query counters, the
//! last operation, the history (newest first) and which detail panels are
//! open. It changes only through [`Session::apply`] with an [`Op`] (a serde
//! enum, so scripts and HTTP bodies can carry operations) and through
//! [`Session::import`]; a rejected operation or import leaves it exactly as it
//! was. [`Session::view`] gives everything a page or a test reads as one
//! serialisable [`View`].
//!
//! Hashing is [`bloomproof_protocol::fnv1a_utf16_v1`]; this crate adds the
//! rules of the page (seed `002`, `spec/fnv1a-utf16-v1/PROTOCOL.md`). The types that
//! cross a wire ([`Op`], [`View`] and what it holds, the export file, [`ErrorKind`])
//! are [`bloomproof_wire::protocols::fnv1a_utf16_v1::session`]'s, re-exported here; this crate holds the rules.
//!
//! ```
//! use bloomproof_session::{DraftField, Op, Rate, Session};
//!
//! let mut session = Session::new();
//! session.apply(&Op::SetDraft { field: DraftField::M, value: "8".into() })?;
//! session.apply(&Op::SetDraft { field: DraftField::K, value: "1".into() })?;
//! session.apply(&Op::Create {})?;
//! session.apply(&Op::Insert { value: "a".into() })?;
//! for query in ["i", "a", "b"] {
//!     session.apply(&Op::Query { value: query.into() })?;
//! }
//! assert!(matches!(session.rate(), Rate::Defined { false_positives: 1, negative_queries: 2, .. }));
//! # Ok::<(), bloomproof_session::SessionError>(())
//! ```

mod error;
mod estimates;
mod model;
pub mod persist;

pub use bloomproof_wire::protocols::fnv1a_utf16_v1::session::{
    Counters, DraftField, Drafts, ErrorKind, Estimates, HistoryEntry, LastOperation, Op, OpKind,
    Outcome, Panel, Panels, ParamsView, PositionStep, Rate, Text, View, json_display,
};
pub use error::{ImportError, SessionError};
pub use estimates::estimates;
pub use model::{Session, units_len};
pub use persist::{
    FORMAT, FORMAT_VERSION, IMPORT_MAX_BYTES, LOCAL_SAVE_MAX_UNITS, SaveOutcome, save_local,
};

/// Longest insert or query string, in UTF-16 code units (the shortest is 1).
pub const MAX_UNITS: usize = 256;
/// Most distinct reference entries a filter keeps.
pub const MAX_ENTRIES: usize = 1024;
/// Most history items kept (oldest dropped).
///
/// 256 rather than 1024 so that every export stays under [`IMPORT_MAX_BYTES`]:
/// a worst-case string takes about 1.5 KB in JSON (256 escaped code units), so
/// 1024 entries take about 1.58 MB and 256 history items about 0.41 MB.
pub const HISTORY_CAP: usize = 256;
/// Longest draft, in UTF-16 code units (also bounds the size of an export).
pub const DRAFT_MAX_UNITS: usize = 1024;
/// The strings [`Op::InsertExample {}`] inserts, in order.
pub const EXAMPLE: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];
