//! The adapter protocol's messages (`spec/ADAPTER.md`): one type per request and per
//! result, used by both sides (the runner's client sends requests and reads results,
//! `bloomproof adapter` reads requests and writes results), and the JSON Schema of
//! `spec/schemas/adapter.schema.json` is written from them ([`Messages`]).
//!
//! Every run opens with the handshake: a [`Start`] request (`{"id": 0, "op": "start",
//! "adapter_protocol": 3}`, no `protocol`), answered with [`Started`]. Then a request
//! line is a [`DocOp`](crate::protocols::doc_membership_v1::DocOp) or
//! [`FnvOp`](crate::protocols::fnv1a_utf16_v1::FnvOp) object (tagged by `op`) with `id`
//! and `protocol` added; a response line is `{"id", "result"}` with the op's result type
//! (its protocol's), or `{"id", "error"}` with an [`ErrorBody`].
//!
//! Each protocol's own operations and results are defined in its module of [`crate::protocols`]
//! (`protocols/<protocol>/adapter.rs`) and read from there
//! (`bloomproof_wire::protocols::doc_membership_v1::<Type>`): this module holds only
//! what every protocol shares.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The version of the adapter protocol this crate speaks, which `start` carries
/// (`spec/ADAPTER.md`, "Changes", lists each version's changes).
pub const ADAPTER_PROTOCOL: u32 = 3;

/// The oldest adapter protocol version the runner still runs: an adapter answering
/// it passes every check it passed before, and the inputs that need a later version
/// (`save_local`'s `fill`, version 3) are left out of its run, the report says which
/// ([`crate::report::Report::left_out`]).
pub const ADAPTER_PROTOCOL_OLDEST: u32 = 2;

/// The handshake's request, the first line of every run: `{"id": 0, "op": "start",
/// "adapter_protocol": 3}` (with `id`, and no `protocol`: it names none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Start {
    /// Opens a run.
    Start {
        /// The adapter protocol version the runner speaks ([`ADAPTER_PROTOCOL`]).
        adapter_protocol: u32,
    },
}

/// Who answers: the implementation behind an adapter, as its handshake says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImplementationInfo {
    /// Its name (`bloomproof-py`, say): a non-empty text of at most 200 characters.
    pub name: String,
    /// The language it is written in (`Python`): likewise.
    pub language: String,
    /// Its version (`0.3.1`, a commit, a date): likewise.
    pub version: String,
}

/// The handshake's result: the version spoken, who answers, and the protocols it
/// implements (the runner runs only their checks, and says which it did not run).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Started {
    /// The adapter protocol version the adapter speaks: the runner's
    /// ([`ADAPTER_PROTOCOL`]) or an earlier one it still runs
    /// ([`ADAPTER_PROTOCOL_OLDEST`]).
    pub adapter_protocol: u32,
    /// Who answers.
    pub implementation: ImplementationInfo,
    /// The protocols it implements: a non-empty list of `doc-membership-v1` and
    /// `fnv1a-utf16-v1`, each at most once.
    pub protocols: Vec<String>,
}

/// The `error` of a response (fields in the order they are written).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorBody {
    /// The field it names, when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// `type`, `value`, `bad_request`, `internal`, ...
    pub kind: String,
    /// The message (quoting at most a short prefix of a bad value).
    pub message: String,
}

/// A response line: the request's `id` and exactly one of `result` (the op's result
/// type above) and `error`. Written in this field order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Response {
    /// Why the request got no result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
    /// The request's id; null when the line had no readable one.
    pub id: Value,
    /// The result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
}

pub use crate::protocols::Messages;
