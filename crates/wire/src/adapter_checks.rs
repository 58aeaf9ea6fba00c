//! `spec/adapter-protocol.json`: the adapter protocol's own checks (`spec/ADAPTER.md`,
//! "Input no request may hold" and "Sizes and processes"), run against any adapter.
//!
//! Each case sends one line the way a case says (its exact text, its bytes in hex, or a
//! request the runner builds to a size), reads what the adapter answers, then sends one
//! well-formed request that must be answered as usual: an adapter that a bad line ends,
//! or that answers a line it must skip, fails the case.

use crate::Hex;
use crate::spec::DocumentedCheck;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The whole file.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireFile {
    /// Path of the JSON Schema of this file, relative to the file.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// Spec format version; this runner reads version 1.
    pub format_version: u32,
    /// Number of entries in `checks`; a mismatch is a load error.
    pub check_count: usize,
    /// The checks, reported as `adapter-protocol/<name>`.
    pub checks: Vec<DocumentedCheck>,
    /// Number of entries in `cases`; a mismatch is a load error.
    pub case_count: usize,
    /// The cases, each naming its check.
    pub cases: Vec<WireCase>,
}

/// One case: a line to send and what must come back.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireCase {
    /// Stable id, unique in the file.
    pub id: String,
    /// The check it belongs to.
    pub check: String,
    /// Every rule id it pins: its check's, then its own (spec/README.md, "Rule ids");
    /// the loader fails a case that names none or leaves one of its check's out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// For readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The line to send.
    pub send: WireSend,
    /// What the adapter must answer to it.
    pub expect: WireExpect,
}

/// The line a case sends (the runner adds the newline).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum WireSend {
    /// Exactly this text.
    Line(String),
    /// Exactly these bytes (for a line that is not UTF-8).
    LineHex(Hex),
    /// A `fnv1a-utf16-v1` `session` request with this id whose script is `steps`
    /// times `{"op": "reset"}`.
    Session {
        /// The request's id.
        id: u64,
        /// Number of steps.
        steps: usize,
    },
    /// A `doc-membership-v1` `lookup_many` request with this id on the empty snapshot
    /// (m 8, k 1, no seed, no records) of `items` empty items: its honest answer holds
    /// `items` triples.
    LookupMany {
        /// The request's id.
        id: u64,
        /// Number of items.
        items: usize,
    },
}

/// What must come back.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum WireExpect {
    /// No response at all (the next response answers the next request).
    NoAnswer,
    /// An error response of this kind, with this `id` (`null` when the line's id
    /// cannot be trusted).
    Error {
        /// The error's kind.
        kind: String,
        /// The response's id.
        id: serde_json::Value,
        /// The error's `field`, when the case pins one (a contract error).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        field: Option<String>,
    },
    /// A result response (any result) with this id.
    Result {
        /// The response's id.
        id: serde_json::Value,
    },
    /// A result response (any result) whose `id` is written with exactly the digits of
    /// the request's (an id read as a float past 2^53 comes back as another number), or
    /// a `bad_request` error with `id` null (an adapter that cannot hold the id exactly
    /// refuses it).
    EchoedOrRefused,
    /// A result response with this id whose `result` holds `result` (an object: each of
    /// its keys, compared recursively; arrays element by element, same length).
    Holds {
        /// The response's id.
        id: serde_json::Value,
        /// What the result must hold.
        result: serde_json::Value,
    },
    /// A result response with this id, or a `bad_request` error with this id: a point
    /// where the rule allows either (an answer that fits a response line, written or
    /// refused by a count of the adapter's own).
    ResultOrRefused {
        /// The response's id.
        id: serde_json::Value,
    },
}
