//! The export file, version 1: what `Session::export` writes and `Session::import`
//! reads (`bloomproof-session`'s `persist` module holds the rules: layout, limits,
//! validation and migration).
//!
//! A parsed file of an older version is migrated to the newest before it is checked;
//! each version is its own type here (`FileV1`, then `FileV2`, ...), frozen once
//! published.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Counters, Drafts, OpKind, Outcome, Panels, ParamsView, PositionStep, Text};

/// The `format` value of an export.
pub const FORMAT: &str = "bloomproof-session";
/// The newest format version: the one exports are written in.
pub const FORMAT_VERSION: u64 = 1;

/// Version 1 of the file: one JSON object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileV1 {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always 1.
    pub version: u64,
    /// Always `fnv1a-utf16-v1`.
    pub protocol: String,
    /// The active filter's parameters; `null` when no filter is active (then
    /// `entries` and `history` are empty, `counters` zero and `last_operation` `null`).
    pub params: Option<ParamsView>,
    /// The four drafts, verbatim.
    pub drafts: Drafts,
    /// The distinct reference entries, in insertion order. No bits are stored:
    /// import recomputes them from the entries.
    pub entries: Vec<Text>,
    /// The query counters.
    pub counters: Counters,
    /// The first history item again, with its hashes, positions (bits before and
    /// after) and display form, for human readers; import checks them.
    pub last_operation: Option<LastOperationV1>,
    /// Newest first; its first item is the last operation.
    pub history: Vec<HistoryV1>,
    /// Which detail panels are open.
    pub panels: Panels,
}

/// The last operation in a version 1 file: a
/// [`LastOperation`](super::LastOperation) with its string as [`Text`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs, reason = "the fields are those of `LastOperation`")]
pub struct LastOperationV1 {
    pub kind: OpKind,
    pub value: Text,
    pub display: String,
    pub h1: u32,
    pub h2: u32,
    pub positions: Vec<PositionStep>,
    pub outcome: Outcome,
}

/// A history item in a version 1 file: a [`HistoryEntry`](super::HistoryEntry)
/// without its display form, the string as [`Text`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs, reason = "the fields are those of `HistoryEntry`")]
pub struct HistoryV1 {
    pub kind: OpKind,
    pub value: Text,
    pub outcome: Outcome,
}
