//! `doc-membership-v1`'s adapter operations and their results (`spec/ADAPTER.md`).

use crate::{DocParams, Hex, TypedValue};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
