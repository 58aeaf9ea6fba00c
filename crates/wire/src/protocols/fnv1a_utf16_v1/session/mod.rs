//! The session model's wire types (`fnv1a-utf16-v1`'s teaching filter): the
//! operations a script or an HTTP body carries ([`Op`]), the observable state
//! ([`View`] and what it holds), the export file ([`file`](mod@file)), the error kinds and the
//! local-save outcome.
//!
//! The rules live in `bloomproof-session`, which re-exports these types; this module
//! only reads, writes and names them, with the small pure accessors that belong to a
//! value (a rate from its counters, an outcome's kind).

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub mod file;
mod text;

pub use text::{Text, json_display};

/// One of the four text fields of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DraftField {
    /// The number of bits.
    M,
    /// The number of hash indices.
    K,
    /// The string to insert.
    Insert,
    /// The string to query.
    Query,
}

impl DraftField {
    /// The serde name: `m`, `k`, `insert` or `query`.
    pub fn as_str(&self) -> &'static str {
        match self {
            DraftField::M => "m",
            DraftField::K => "k",
            DraftField::Insert => "insert",
            DraftField::Query => "query",
        }
    }
}

impl fmt::Display for DraftField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A detail panel of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Panel {
    /// "Hash positions": each position with its before/after value.
    Positions,
    /// "Model and hashes": the ideal estimates and the two base hashes.
    Model,
}

/// The raw text of the four fields (one per [`DraftField`], named alike), kept
/// verbatim (never trimmed or normalised).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "each field is the draft of the page field of its name"
)]
pub struct Drafts {
    pub m: String,
    pub k: String,
    pub insert: String,
    pub query: String,
}

impl Default for Drafts {
    /// `m = "64"`, `k = "3"`, empty insert and query fields.
    fn default() -> Self {
        Drafts {
            m: "64".to_owned(),
            k: "3".to_owned(),
            insert: String::new(),
            query: String::new(),
        }
    }
}

/// Which detail panels are open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Panels {
    /// The "Hash positions" panel.
    pub positions: bool,
    /// The "Model and hashes" panel.
    pub model: bool,
}

/// The query counters since the last new distinct insertion (or creation, or reset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counters {
    /// Queries of strings truly absent from the reference entries.
    pub negative_queries: u64,
    /// Among those, the ones whose `k` bits were all set.
    pub false_positives: u64,
}

impl Counters {
    /// The observed false-positive rate.
    pub fn rate(&self) -> Rate {
        if self.negative_queries == 0 {
            Rate::Undefined
        } else {
            Rate::Defined {
                false_positives: self.false_positives,
                negative_queries: self.negative_queries,
                value: self.false_positives as f64 / self.negative_queries as f64,
            }
        }
    }
}

/// The observed false-positive rate: false positives / negative queries.
///
/// Serde: `{"state":"undefined"}` or
/// `{"state":"defined","false_positives":1,"negative_queries":2,"value":0.5}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "state", rename_all = "snake_case", deny_unknown_fields)]
pub enum Rate {
    /// No negative query yet: the rate is undefined (not 0, not NaN).
    Undefined,
    /// At least one negative query.
    Defined {
        /// Numerator.
        false_positives: u64,
        /// Denominator (at least 1).
        negative_queries: u64,
        /// `false_positives / negative_queries`.
        value: f64,
    },
}

/// The validated parameters of the active filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParamsView {
    /// Number of bits, 8..=1024.
    pub m: u32,
    /// Number of hash indices, 1..=12.
    pub k: u32,
}

/// Insertion or query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpKind {
    /// An insertion.
    Insert,
    /// A query.
    Query,
}

/// What an insertion or a query found.
///
/// | outcome | kind | answer | truly present | counted |
/// |---|---|---|---|---|
/// | `new` | insert | - | - | counters reset to 0 |
/// | `duplicate` | insert | - | - | nothing changes |
/// | `definitely_absent` | query | definitely absent (a bit is 0) | no | negative query |
/// | `false_positive` | query | maybe present (all k bits 1) | no | negative query and false positive |
/// | `truly_present` | query | maybe present (all k bits 1) | yes | nothing |
///
/// A truly present string always has all its bits set (no false negatives), so
/// these five are all the cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Insertion of a new distinct string.
    New,
    /// Insertion of a string already in the reference entries.
    Duplicate,
    /// Query: at least one of the k bits is 0.
    DefinitelyAbsent,
    /// Query: all k bits are 1, but the string is not a reference entry.
    FalsePositive,
    /// Query: the string is a reference entry (all k bits are 1).
    TrulyPresent,
}

impl OpKind {
    /// The serde name: `insert` or `query`.
    pub fn as_str(&self) -> &'static str {
        match self {
            OpKind::Insert => "insert",
            OpKind::Query => "query",
        }
    }
}

impl fmt::Display for OpKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Outcome {
    /// The serde name (`new`, `duplicate`, `definitely_absent`, `false_positive`, `truly_present`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::New => "new",
            Outcome::Duplicate => "duplicate",
            Outcome::DefinitelyAbsent => "definitely_absent",
            Outcome::FalsePositive => "false_positive",
            Outcome::TrulyPresent => "truly_present",
        }
    }

    /// Whether it is an insertion or a query outcome.
    pub fn kind(&self) -> OpKind {
        match self {
            Outcome::New | Outcome::Duplicate => OpKind::Insert,
            Outcome::DefinitelyAbsent | Outcome::FalsePositive | Outcome::TrulyPresent => {
                OpKind::Query
            }
        }
    }

    /// The filter's answer after the operation: all k bits set (true for every insertion).
    pub fn maybe_present(&self) -> bool {
        !matches!(self, Outcome::DefinitelyAbsent)
    }

    /// Whether the string is (now) a reference entry (true for every insertion).
    pub fn truly_present(&self) -> bool {
        matches!(
            self,
            Outcome::New | Outcome::Duplicate | Outcome::TrulyPresent
        )
    }

    /// Whether the operation counted as a false positive.
    pub fn false_positive(&self) -> bool {
        matches!(self, Outcome::FalsePositive)
    }
}

/// One hash position of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionStep {
    /// The hash index `i` in `0..k`.
    pub index: u8,
    /// `(h1 + i·h2) mod m`.
    pub position: u16,
    /// The bit before the whole operation (a repeated position shows the same
    /// before value each time).
    pub before: bool,
    /// The bit after the whole operation (equal to `before` for a query).
    pub after: bool,
}

/// The last insertion or query, with everything the detail panels show.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LastOperation {
    /// Insertion or query.
    pub kind: OpKind,
    /// The string's UTF-16 code units.
    pub units: Vec<u16>,
    /// The string as `JSON.stringify` prints it (quotes and escapes), see
    /// [`json_display`].
    pub display: String,
    /// First base hash.
    pub h1: u32,
    /// Second base hash (odd).
    pub h2: u32,
    /// Every position in order, repeats included.
    pub positions: Vec<PositionStep>,
    /// What it found.
    pub outcome: Outcome,
}

/// One line of the history (newest first).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryEntry {
    /// Insertion or query.
    pub kind: OpKind,
    /// The string's UTF-16 code units.
    pub units: Vec<u16>,
    /// The string as `JSON.stringify` prints it.
    pub display: String,
    /// What it found.
    pub outcome: Outcome,
}

/// An operation on a session, as scripts and HTTP bodies carry it.
///
/// Serde: internally tagged by `"op"`, snake_case, unknown fields rejected:
/// `{"op":"set_draft","field":"m","value":"8"}`, `{"op":"create"}`,
/// `{"op":"insert","value":"a"}`, `{"op":"query","value":[55296]}`,
/// `{"op":"insert_example"}`, `{"op":"reset"}`,
/// `{"op":"set_panel","panel":"positions","open":true}`. The operations without
/// arguments are empty struct variants (`Create {}`), so that serde rejects unknown
/// fields on them too (an internally tagged unit variant ignores extra fields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "a field that only names its value (the field, the string, the panel) has no doc"
)]
pub enum Op {
    /// Sets a draft verbatim. Changing `m` or `k` to a value that does not
    /// denote the active filter's parameter discards the active filter.
    SetDraft {
        field: DraftField,
        /// The new raw text.
        value: String,
    },
    /// Parses the `m` and `k` drafts and creates an empty filter.
    Create {},
    /// Inserts a string into the active filter.
    Insert { value: Text },
    /// Queries a string against the active filter.
    Query { value: Text },
    /// Inserts `"a"` .. `"h"` in order, each as by `Insert` (all or nothing).
    InsertExample {},
    /// Empties the active filter, keeping its parameters and the drafts.
    Reset {},
    /// Opens or closes a detail panel.
    SetPanel {
        panel: Panel,
        /// Open (true) or closed (false).
        open: bool,
    },
}

impl Op {
    /// The serde name of the operation (`set_draft`, `create`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Op::SetDraft { .. } => "set_draft",
            Op::Create {} => "create",
            Op::Insert { .. } => "insert",
            Op::Query { .. } => "query",
            Op::InsertExample {} => "insert_example",
            Op::Reset {} => "reset",
            Op::SetPanel { .. } => "set_panel",
        }
    }
}

/// The whole observable state of a session (`Session::view`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// Whether a filter is active.
    pub active: bool,
    /// The active filter's parameters, `null` with none.
    pub params: Option<ParamsView>,
    /// The four drafts, verbatim.
    pub drafts: Drafts,
    /// The bits as `'0'`/`'1'` characters, bit 0 first, length m; `null` with no active filter.
    pub bits: Option<String>,
    /// Number of bits set.
    pub bits_set: u32,
    /// Number of distinct reference entries (`n`).
    pub distinct_entries: u32,
    /// The query counters.
    pub counters: Counters,
    /// The observed false-positive rate.
    pub rate: Rate,
    /// The last insertion or query, `null` with none.
    pub last_operation: Option<LastOperation>,
    /// History, newest first.
    pub history: Vec<HistoryEntry>,
    /// Which panels are open.
    pub panels: Panels,
    /// Ideal-model estimates for the current `n`, `null` with no active filter.
    pub estimates: Option<Estimates>,
}

/// The ideal-model estimates for `m` bits, `k` hash indices and `n` distinct entries.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Estimates {
    /// Number of bits used (after clamping to 8..=1024).
    pub m: u32,
    /// Number of hash indices used (after clamping to 1..=12).
    pub k: u32,
    /// Number of distinct entries used (after clamping to 0..=1024).
    pub n: u32,
    /// The classic approximation `(1 - e^(-k·n/m))^k` (Bloom 1970; the one the page shows).
    pub classic: f64,
    /// The finite-`m` form `(1 - (1 - 1/m)^(k·n))^k`: exact probability that one
    /// given bit is set, raised to the power `k` as if the query bits were independent.
    pub finite_m: f64,
    /// The exact expected false-positive rate under ideal hashing: `E[(X/m)^k]`
    /// where `X` is the number of set bits after `k·n` independent uniform throws
    /// into `m` bits (a query's `k` positions are independent uniform picks, each
    /// set with probability `X/m` given `X`). Computed by a dynamic program over
    /// the throws on the distribution of `X`, `O(k·n·m)` additions of
    /// non-negative terms (no cancellation).
    pub exact: f64,
    /// The integer `k` in 1..=12 that minimises the **classic** approximation for
    /// this `m` and `n`; on ties (to the last bit of `f64`) the smallest such `k`.
    /// With `n = 0` every `k` gives 0, so it is 1.
    pub optimal_k: u32,
}

/// The stable, machine-readable kind of a rejected operation or import (the
/// session crate's `SessionError` and `ImportError`), as step errors name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// An `m` or `k` draft that is not a plain decimal integer.
    InvalidDraft,
    /// A parameter outside its bounds (`m` 8..=1024, `k` 1..=12).
    OutOfRange,
    /// An insertion, query, example or reset with no active filter.
    NoActiveFilter,
    /// An empty string (strings have 1..=256 UTF-16 code units).
    EmptyString,
    /// A string or draft over its length bound.
    TooLong,
    /// A 1025th distinct entry.
    TooManyEntries,
    /// An import text over 2 MiB.
    TooLarge,
    /// An import text that is not JSON.
    Syntax,
    /// An import that is JSON but not a valid session.
    Invalid,
    /// An import whose format version is unknown.
    UnsupportedVersion,
}

impl ErrorKind {
    /// The snake_case name (the serde form).
    pub fn as_str(&self) -> &'static str {
        match self {
            ErrorKind::InvalidDraft => "invalid_draft",
            ErrorKind::OutOfRange => "out_of_range",
            ErrorKind::NoActiveFilter => "no_active_filter",
            ErrorKind::EmptyString => "empty_string",
            ErrorKind::TooLong => "too_long",
            ErrorKind::TooManyEntries => "too_many_entries",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::Syntax => "syntax",
            ErrorKind::Invalid => "invalid",
            ErrorKind::UnsupportedVersion => "unsupported_version",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The serde name of a value that serialises as a JSON string.
    fn serde_name(value: &impl Serialize) -> String {
        match serde_json::to_value(value) {
            Ok(serde_json::Value::String(name)) => name,
            other => panic!("not a string: {other:?}"),
        }
    }

    #[test]
    fn names_and_display_are_the_serde_names() {
        use DraftField as F;
        for field in [F::M, F::K, F::Insert, F::Query] {
            assert_eq!(field.as_str(), serde_name(&field));
            assert_eq!(field.to_string(), serde_name(&field));
        }
        for kind in [OpKind::Insert, OpKind::Query] {
            assert_eq!(kind.as_str(), serde_name(&kind));
            assert_eq!(kind.to_string(), serde_name(&kind));
        }
        use Outcome as O;
        for outcome in [
            O::New,
            O::Duplicate,
            O::DefinitelyAbsent,
            O::FalsePositive,
            O::TrulyPresent,
        ] {
            assert_eq!(outcome.as_str(), serde_name(&outcome));
            assert_eq!(outcome.to_string(), serde_name(&outcome));
        }
        use ErrorKind as E;
        for kind in [
            E::InvalidDraft,
            E::OutOfRange,
            E::NoActiveFilter,
            E::EmptyString,
            E::TooLong,
            E::TooManyEntries,
            E::TooLarge,
            E::Syntax,
            E::Invalid,
            E::UnsupportedVersion,
        ] {
            assert_eq!(kind.as_str(), serde_name(&kind));
            assert_eq!(kind.to_string(), serde_name(&kind));
        }
        let ops = [
            Op::SetDraft {
                field: DraftField::M,
                value: "8".into(),
            },
            Op::Create {},
            Op::Insert { value: "a".into() },
            Op::Query { value: "a".into() },
            Op::InsertExample {},
            Op::Reset {},
            Op::SetPanel {
                panel: Panel::Model,
                open: true,
            },
        ];
        for op in ops {
            let value = serde_json::to_value(&op).expect("an op serialises");
            assert_eq!(Some(op.name()), value["op"].as_str(), "{value}");
        }
    }

    #[test]
    fn outcomes_answer_as_their_table_says() {
        use Outcome as O;
        // (outcome, kind, maybe present, truly present, false positive)
        let table = [
            (O::New, OpKind::Insert, true, true, false),
            (O::Duplicate, OpKind::Insert, true, true, false),
            (O::DefinitelyAbsent, OpKind::Query, false, false, false),
            (O::FalsePositive, OpKind::Query, true, false, true),
            (O::TrulyPresent, OpKind::Query, true, true, false),
        ];
        for (outcome, kind, maybe, truly, false_positive) in table {
            assert_eq!(outcome.kind(), kind, "{outcome}");
            assert_eq!(outcome.maybe_present(), maybe, "{outcome}");
            assert_eq!(outcome.truly_present(), truly, "{outcome}");
            assert_eq!(outcome.false_positive(), false_positive, "{outcome}");
        }
    }

    #[test]
    fn the_rate_is_undefined_without_negative_queries() {
        assert_eq!(Counters::default().rate(), Rate::Undefined);
        let counters = Counters {
            negative_queries: 4,
            false_positives: 1,
        };
        assert_eq!(
            counters.rate(),
            Rate::Defined {
                false_positives: 1,
                negative_queries: 4,
                value: 0.25,
            }
        );
    }
}
