//! The adapter protocol's messages (`spec/ADAPTER.md`): one type per request and per
//! result, used by both sides (the runner's client sends requests and reads results,
//! `bloomproof adapter` reads requests and writes results), and the JSON Schema of
//! `spec/schemas/adapter.schema.json` is generated from them ([`Messages`]).
//!
//! Every run opens with the handshake: a [`Start`] request (`{"id": 0, "op": "start",
//! "adapter_protocol": 2}`, no `protocol`), answered with [`Started`]. Then a request
//! line is a [`DocOp`] or [`FnvOp`] object (tagged by `op`) with `id` and `protocol`
//! added; a response line is `{"id", "result"}` with the op's result type below, or
//! `{"id", "error"}` with an [`ErrorBody`].

use crate::session::{DraftField, Op, Panel, Text};
use crate::{DocParams, Hex, TypedValue};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The version of the adapter protocol this crate speaks, which `start` carries
/// (`spec/ADAPTER.md`, "Changes", lists each version's changes).
pub const ADAPTER_PROTOCOL: u32 = 2;

/// The handshake's request, the first line of every run: `{"id": 0, "op": "start",
/// "adapter_protocol": 2}` (with `id`, and no `protocol`: it names none).
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
    /// The adapter protocol version the adapter speaks: it must equal the runner's.
    pub adapter_protocol: u32,
    /// Who answers.
    pub implementation: ImplementationInfo,
    /// The protocols it implements: a non-empty list of `doc-membership-v1` and
    /// `fnv1a-utf16-v1`, each at most once.
    pub protocols: Vec<String>,
}

/// A `doc-membership-v1` operation. The arguments are described in `spec/ADAPTER.md`;
/// a snapshot's parameters are one nested [`DocParams`] (`"params"`), its packed bits
/// `packed_hex`, as in the spec's cases.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "the arguments are documented in spec/ADAPTER.md"
)]
pub enum DocOp {
    /// SHA-256 of raw bytes -> `{"digest": hex}`.
    Sha256 { data: Hex },
    /// The framed message of hash index `index` -> `{"message": hex, "digest": hex}`.
    Frame {
        params: DocParams,
        index: u8,
        item: Hex,
    },
    /// The k positions -> `{"positions": [..]}`.
    Positions { params: DocParams, item: Hex },
    /// Builds a snapshot -> `{"packed_hex": hex, "documents": n}`.
    Build {
        params: DocParams,
        records: Vec<Hex>,
    },
    /// Builds, looks one item up -> `{"maybe_present", "exact_checked", "duplicate"}`.
    Lookup {
        params: DocParams,
        records: Vec<Hex>,
        item: Hex,
    },
    /// Builds, looks many items up -> `{"results": [triple, ..]}` in input order.
    LookupMany {
        params: DocParams,
        records: Vec<Hex>,
        items: Vec<Hex>,
    },
    /// Builds from typed values and, when `item` is given, looks it up ->
    /// `{"lookup": triple | null}`, or a `type` / `value` error naming the field.
    Typed(TypedCall),
    /// Reads a snapshot given as its parts, verifying it, and looks items up ->
    /// `{"results": [triple, ..]}`, or a `value` error naming `packed_bits` or
    /// `records[i]`.
    Read {
        params: DocParams,
        packed_hex: Hex,
        records: Vec<Hex>,
        items: Vec<Hex>,
    },
    /// Builds a snapshot, makes one named mutation attempt, observes the snapshot ->
    /// `{"outcome", "detail", "params", "packed_hex", "documents", "lookups"}`.
    Mutate {
        params: DocParams,
        records: Vec<Hex>,
        /// The values the attempt tries to put in.
        other: OtherSnapshot,
        attempt: MutationAttempt,
        /// Items looked up after the attempt.
        probes: Vec<Hex>,
    },
}

/// A construction, and optionally a lookup, with typed values: the `typed` call of the
/// adapter protocol and the input of the spec's typed rejection cases. Each argument is
/// a typed value, deliberately unchecked here: the implementation must refuse the wrong
/// types itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "the arguments are documented in spec/ADAPTER.md"
)]
pub struct TypedCall {
    pub records: TypedValue,
    pub m: TypedValue,
    pub k: TypedValue,
    pub seed: TypedValue,
    /// When given, the construction must succeed and this item is looked up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<TypedValue>,
}

/// The second snapshot of a `mutate` request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "the arguments are documented in spec/ADAPTER.md"
)]
pub struct OtherSnapshot {
    pub params: DocParams,
    pub records: Vec<Hex>,
}

/// A `fnv1a-utf16-v1` operation (arguments: `spec/ADAPTER.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "the arguments are documented in spec/ADAPTER.md"
)]
pub enum FnvOp {
    /// Hashes and positions -> `{"h1", "h2", "positions"}`.
    Positions {
        m: u64,
        k: u64,
        /// UTF-16 code units.
        units: Vec<u16>,
    },
    /// A session script -> `{"initial": view, "steps": [..]}` (`spec/fnv1a-utf16-v1/SESSION.md`).
    Session { script: Vec<ScriptOp> },
    /// The estimates -> `{"classic", "finite_m", "exact", "optimal_k"}`.
    Estimates { m: u32, k: u32, n: u32 },
}

/// A mutation attempt, named by the spec and made by the implementation (see
/// `spec/ADAPTER.md`, *Mutation attempts*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MutationAttempt {
    /// Assign every public field the other snapshot's value, delete each, add one, all
    /// through the language's ordinary assignment and deletion (normal use).
    AssignFields,
    /// Change in place every value handed out for the bits.
    MutateReturnedBits,
    /// Change in place what is handed out for the documents.
    MutateReturnedDocuments,
    /// Change in place every value a lookup returns.
    MutateReturnedLookup,
    /// Change the caller's records container and buffers after the build.
    MutateRecordsAfterBuild,
    /// Change the caller's seed buffer after the build.
    MutateSeedAfterBuild,
    /// Run the constructor again on the existing snapshot (deliberate tampering).
    Reconstruct,
    /// Copy the snapshot every way the language offers and assign the copies' fields.
    MutateCopy,
    /// Write the snapshot's state past the language's guards (reflection, descriptors,
    /// raw object writes, a swapped class or prototype), on it and on its copies
    /// (deliberate tampering).
    BypassGuards,
}

impl MutationAttempt {
    /// The name as the spec and the adapter protocol spell it (its serde name).
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// A string in a script as the case writes it: text, or UTF-16 code units (for lone
/// surrogates). The runner forwards it in the form written, so a case can test that
/// an implementation reads both forms; the session model reads either as one
/// [`Text`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TextValue {
    /// Text (encoded to UTF-16).
    Text(String),
    /// UTF-16 code units.
    Units(Vec<u16>),
}

/// One step of a session script. The first seven are the page's own operations;
/// the rest are script helpers every adapter implements (see `spec/README.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "a field that only names its value (the field, the string, the panel) has no doc"
)]
pub enum ScriptOp {
    /// Types into a field (raw text, kept verbatim).
    SetDraft {
        field: DraftField,
        /// The raw text.
        value: String,
    },
    /// Creates the filter from the m and k drafts.
    Create {},
    /// Inserts a string.
    Insert { value: TextValue },
    /// Queries a string.
    Query { value: TextValue },
    /// Inserts "a" to "h", in order.
    InsertExample {},
    /// Clears the filter, keeps the drafts.
    Reset {},
    /// Opens or closes a detail panel.
    SetPanel {
        panel: Panel,
        /// Open or closed.
        open: bool,
    },
    /// Inserts `prefix + i` for i in `0..count`, in order, as one step (all or nothing).
    InsertMany {
        /// The common prefix.
        prefix: String,
        /// How many strings.
        count: u32,
    },
    /// Exports the session, imports the text into a fresh session and continues with
    /// it. The view must equal the one before.
    Roundtrip {},
    /// Imports this JSON document (serialised compactly).
    Import { document: serde_json::Value },
    /// Imports this raw text.
    ImportText { text: String },
    /// Exports the session, pads it with trailing spaces to exactly `bytes` bytes and
    /// imports that.
    ImportPadded {
        /// Total size in bytes.
        bytes: usize,
    },
    /// Applies the local-save rule to a serialised state of exactly `units` UTF-16
    /// code units, with the current export as the previous copy.
    SaveLocal {
        /// Size of the state, in UTF-16 code units.
        units: usize,
    },
    /// Exports the session; the step's answer carries the export text as `export`.
    /// The session is unchanged. (Cross-reading hands the text to another
    /// implementation's `import_text`.)
    Export {},
}

impl From<&TextValue> for Text {
    fn from(value: &TextValue) -> Self {
        match value {
            TextValue::Text(text) => Text::from(text.as_str()),
            TextValue::Units(units) => Text::from(units.as_slice()),
        }
    }
}

impl ScriptOp {
    /// The page's own operation this step is, or `None` for a script helper
    /// (`insert_many`, `roundtrip`, the imports, `save_local`, `export`).
    pub fn page_op(&self) -> Option<Op> {
        Some(match self {
            ScriptOp::SetDraft { field, value } => Op::SetDraft {
                field: *field,
                value: value.clone(),
            },
            ScriptOp::Create {} => Op::Create {},
            ScriptOp::Insert { value } => Op::Insert {
                value: value.into(),
            },
            ScriptOp::Query { value } => Op::Query {
                value: value.into(),
            },
            ScriptOp::InsertExample {} => Op::InsertExample {},
            ScriptOp::Reset {} => Op::Reset {},
            ScriptOp::SetPanel { panel, open } => Op::SetPanel {
                panel: *panel,
                open: *open,
            },
            ScriptOp::InsertMany { .. }
            | ScriptOp::Roundtrip {}
            | ScriptOp::Import { .. }
            | ScriptOp::ImportText { .. }
            | ScriptOp::ImportPadded { .. }
            | ScriptOp::SaveLocal { .. }
            | ScriptOp::Export {} => return None,
        })
    }
}

/// A lookup triple (the answer to `lookup`, and each entry of `results` and
/// `lookups`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Triple {
    /// All k bits set.
    pub maybe_present: bool,
    /// The exact set was consulted.
    pub exact_checked: bool,
    /// Exact byte equality.
    pub duplicate: bool,
}

/// The result of `sha256`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DigestResult {
    /// SHA-256 of the data.
    pub digest: Hex,
}

/// The result of `frame`: a framed message and its digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Framed {
    /// The message bytes.
    #[serde(with = "crate::hex::bytes")]
    #[schemars(with = "Hex")]
    pub message: Vec<u8>,
    /// SHA-256 of the message.
    #[serde(with = "crate::hex::bytes")]
    #[schemars(with = "Hex")]
    pub digest: Vec<u8>,
}

/// The result of `positions` (`doc-membership-v1`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionsResult {
    /// The k positions, in hash-index order.
    pub positions: Vec<u16>,
}

/// The result of `build`: a built snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Built {
    /// Packed little-endian bits, `ceil(m/8)` bytes; hex on the wire, named
    /// `packed_hex` as in the spec's cases.
    #[serde(rename = "packed_hex", with = "crate::hex::bytes")]
    #[schemars(with = "Hex")]
    pub packed_bits: Vec<u8>,
    /// Number of distinct documents.
    pub documents: usize,
}

/// The result of `lookup_many` and `read`: one triple per item, in input order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs, reason = "one triple per item, as the type says")]
pub struct TriplesResult {
    pub results: Vec<Triple>,
}

/// The result of `typed`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypedResult {
    /// The lookup of `item`; null when no item was given.
    pub lookup: Option<Triple>,
}

/// The account an implementation gives of a mutation attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MutationOutcome {
    /// The attempt raised an error.
    Raised,
    /// The attempt completed (and must have changed nothing).
    Done,
    /// The language offers no way to make it.
    Impossible,
}

impl MutationOutcome {
    /// `raised`, `done` or `impossible`.
    pub fn as_str(self) -> &'static str {
        match self {
            MutationOutcome::Raised => "raised",
            MutationOutcome::Done => "done",
            MutationOutcome::Impossible => "impossible",
        }
    }
}

/// The result of `mutate`: the account of the attempt, then the snapshot as its
/// ordinary operations show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MutateResult {
    /// The implementation's account.
    pub outcome: MutationOutcome,
    /// What was tried and what happened, in the implementation's words.
    pub detail: String,
    /// m, k and the seed, as the snapshot reports them.
    pub params: DocParams,
    /// The packed bits, as the snapshot hands them out.
    pub packed_hex: Hex,
    /// The number of documents.
    pub documents: usize,
    /// One lookup per probe, in order.
    pub lookups: Vec<Triple>,
}

/// The result of `positions` (`fnv1a-utf16-v1`): base hashes and positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvHashes {
    /// FNV-1a over the units from 2166136261.
    pub h1: u32,
    /// FNV-1a over the units from 0xdeadbeef, forced odd.
    pub h2: u32,
    /// The positions in order.
    pub positions: Vec<u16>,
}

/// The answer to a `save_local` step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveAnswer {
    /// `saved` or `kept`.
    pub outcome: String,
    /// Length of the stored copy, in UTF-16 code units.
    pub stored_units: usize,
    /// The warning, when the state was not saved (null otherwise).
    pub warning: Option<String>,
}

/// A step's rejection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepError {
    /// The error kind (`spec/fnv1a-utf16-v1/SESSION.md`).
    pub kind: String,
    /// The message, in the implementation's words.
    pub message: String,
}

/// The answer to one script step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepAnswer {
    /// The session's view after the step (after a rejected step: unchanged).
    pub view: Value,
    /// The rejection, if the step was rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<StepError>,
    /// For `save_local`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<SaveAnswer>,
    /// For `export`: the export text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<String>,
}

/// The result of `session`: the answer to a whole script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptAnswer {
    /// The view of the new session, before any step.
    pub initial: Value,
    /// One answer per step.
    pub steps: Vec<StepAnswer>,
}

/// The result of `estimates`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "the estimates are defined in spec/fnv1a-utf16-v1/SESSION.md"
)]
pub struct EstimatesAnswer {
    pub classic: f64,
    pub finite_m: f64,
    /// Exact under ideal uniform hashing.
    pub exact: f64,
    pub optimal_k: u32,
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

/// Every message of the protocol, for generating the adapter schema: each property
/// is one message type (the schema's `$defs` hold them all).
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct Messages {
    /// The handshake's request (without `id`).
    start_request: Start,
    /// The handshake's result.
    start: Started,
    /// A `doc-membership-v1` request (without `id` and `protocol`).
    doc_request: DocOp,
    /// A `fnv1a-utf16-v1` request (without `id` and `protocol`).
    fnv_request: FnvOp,
    sha256: DigestResult,
    frame: Framed,
    /// `positions` (`doc-membership-v1`).
    doc_positions: PositionsResult,
    build: Built,
    lookup: Triple,
    /// `lookup_many` and `read`.
    lookup_many: TriplesResult,
    typed: TypedResult,
    mutate: MutateResult,
    /// `positions` (`fnv1a-utf16-v1`).
    fnv_positions: FnvHashes,
    session: ScriptAnswer,
    estimates: EstimatesAnswer,
    /// A whole response line.
    response: Response,
}
