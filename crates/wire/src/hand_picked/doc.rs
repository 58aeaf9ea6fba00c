//! `crates/vectors-writer/data/doc-membership-v1.hand-picked.json`: the published
//! positions, the published and empty snapshots, and the rejections.
//!
//! A position is parameters and an item; a snapshot is parameters, records and
//! queries, and optionally the figures it must reproduce (`expect`). Bytes are a
//! [`ByteString`]. A rejection is the file's valid `base` construction with some of its
//! inputs replaced, and the error the source document's check order says it must give;
//! its values are [`Value`]s: typed values, or shorthands for long inputs.

use super::Figure;
use crate::{DocParams, Hex, RejectExpect, TypedValue};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The whole file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandPickedFile {
    /// What the file is, for its readers.
    pub comment: String,
    /// The hand-picked position cases, in the order they are written.
    pub positions: Vec<PositionEntry>,
    /// The hand-picked snapshot cases, in the order they are written.
    pub snapshots: Vec<SnapshotEntry>,
    /// The valid construction every rejection starts from.
    pub base: Inputs,
    /// The hand-picked rejections, in the order they are written.
    pub rejections: Vec<RejectionEntry>,
}

/// A hand-picked position case: parameters and an item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionEntry {
    /// The case id.
    pub id: String,
    /// Flags given by hand (`published` or `boundary`); the writer adds the ones it
    /// derives from the content.
    pub flags: Vec<String>,
    /// The parameters.
    pub params: DocParams,
    /// The item.
    pub item: ByteString,
}

/// A hand-picked snapshot case: parameters, records and queries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotEntry {
    /// The case id.
    pub id: String,
    /// Flags given by hand; the writer adds the ones it derives.
    pub flags: Vec<String>,
    /// The parameters.
    pub params: DocParams,
    /// The records, in the order given to the constructor.
    pub records: Vec<ByteString>,
    /// Looked up after every distinct record (those already listed are skipped).
    pub queries: Vec<ByteString>,
    /// The figures the snapshot must reproduce.
    #[serde(default)]
    pub expect: SnapshotExpect,
}

/// Figures a hand-picked snapshot must reproduce (each one given is compared), each
/// a published figure by name or a value given by hand.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotExpect {
    /// The packed bits.
    pub packed_hex: Option<Figure<Hex>>,
    /// The number of set bits.
    pub bits_set: Option<Figure<u32>>,
    /// The number of distinct documents.
    pub documents: Option<Figure<usize>>,
    /// Non-members whose lookup is `(true, true, false)`.
    pub false_positives: Option<Figure<usize>>,
}

/// Bytes: `{"hex": "0041"}`, `{"text": "doc-00"}` (UTF-8) or
/// `{"bytes_repeat": {"hex": "73", "times": 16}}` (`hex` repeated).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ByteString {
    /// The bytes as hex.
    Hex(Hex),
    /// UTF-8 text.
    Text(String),
    /// `hex` repeated `times` times.
    BytesRepeat(BytesRepeat),
}

/// One bytes value written short: `hex` repeated `times` times.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BytesRepeat {
    /// The bytes repeated.
    pub hex: Hex,
    /// How many times.
    pub times: usize,
}

/// The base construction of the rejections: one value per constructor argument.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs, reason = "the constructor arguments of the same names")]
pub struct Inputs {
    pub records: Value,
    pub m: Value,
    pub k: Value,
    pub seed: Value,
}

/// A hand-picked rejection: the base construction with the arguments given replaced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RejectionEntry {
    /// The case id, unique among the rejections.
    pub id: String,
    /// Flags the writer cannot derive (`published`, `multiple-faults`).
    #[serde(default)]
    pub flags: Vec<String>,
    /// Replaces the base `records`.
    pub records: Option<Value>,
    /// Replaces the base `m`.
    pub m: Option<Value>,
    /// Replaces the base `k`.
    pub k: Option<Value>,
    /// Replaces the base `seed`.
    pub seed: Option<Value>,
    /// When given, the construction succeeds and this lookup must fail.
    pub item: Option<Value>,
    /// The error it must give.
    pub expect: RejectExpect,
}

/// A typed value, or a shorthand that expands to typed values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(
    untagged,
    expecting = "a typed value such as {\"int\": 16} or {\"bytes\": \"61\"} (lowercase hex), \
                 or {\"bytes_repeat\": {\"hex\", \"times\"}}, or inside a tuple or list \
                 {\"repeat\": {\"times\", \"value\"}}"
)]
pub enum Value {
    /// A typed value as in the vector files.
    Typed(TypedValue),
    /// A container holding shorthands, or a shorthand.
    Shorthand(Shorthand),
}

/// The values that are not plain typed values: containers holding shorthands, and
/// the shorthands themselves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Shorthand {
    /// A tuple whose elements may be shorthands.
    Tuple(Vec<Value>),
    /// A list whose elements may be shorthands.
    List(Vec<Value>),
    /// One bytes value: `hex` repeated `times` times.
    BytesRepeat(BytesRepeat),
    /// As an element of a tuple or list only: `times` copies of `value`.
    Repeat {
        /// How many copies.
        times: usize,
        /// The element copied.
        value: Box<Value>,
    },
}
