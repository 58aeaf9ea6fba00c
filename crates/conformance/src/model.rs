//! The spec format: serde types for `checks.json` and `cases.json`, with unknown fields
//! rejected. JSON Schemas are generated from these types (`cargo xtask schemas`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use bloomproof_format::adapter::{DraftName, MutationAttempt, PanelName, ScriptOp, TextValue};
pub use bloomproof_format::report::PublishedFigure;
pub use bloomproof_format::{DocParams, ErrorKindName, Hex, RejectExpect, TypedValue};

/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// `checks.json`: the documented checks of one protocol.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChecksFile {
    /// Path of the JSON Schema of this file, relative to the file.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// The protocol, e.g. `doc-membership-v1`.
    pub protocol: String,
    /// Spec format version; this runner reads version 1.
    pub format_version: u32,
    /// Number of entries in `checks`; a mismatch is a load error.
    pub check_count: usize,
    /// The checks, each reported by name.
    pub checks: Vec<DocumentedCheck>,
    /// Figures the source document published. A run shows each beside the value the
    /// implementation gave and marks a difference.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub published_figures: Vec<PublishedFigure>,
}

/// One documented check.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentedCheck {
    /// Stable name, reported as `<protocol>/<name>`.
    pub name: String,
    /// What the check asserts, in one or two sentences.
    pub asserts: String,
    /// Where the rule comes from: the seed document and section, or `bloomproof`
    /// for checks this project adds to pin the protocol down.
    pub source: String,
    /// What part of the check runs inside the implementation (its adapter), where the
    /// runner cannot watch it; the report prints it beside the check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inside_implementation: Option<String>,
}

/// `cases.json`: every case of one protocol.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CasesFile<C> {
    /// Path of the JSON Schema of this file, relative to the file.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// The protocol, e.g. `doc-membership-v1`.
    pub protocol: String,
    /// Spec format version; this runner reads version 1.
    pub format_version: u32,
    /// Number of entries in `cases`; a mismatch is a load error.
    pub case_count: usize,
    /// Every flag a case may carry, with what it means.
    pub flags: BTreeMap<String, String>,
    /// The cases.
    pub cases: Vec<C>,
}

/// Fields every case has, whatever its check.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Case<I, E> {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// A note for readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The inputs.
    pub input: I,
    /// What a conforming implementation produces.
    pub expect: E,
}

/// Nothing is expected beyond what the check itself asserts.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Nothing {}

// ---------------------------------------------------------------------------------
// doc-membership-v1

/// A snapshot's inputs.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildInput {
    /// Parameters.
    pub params: DocParams,
    /// Records, in the order given to the constructor.
    pub records_hex: Vec<Hex>,
}

/// The three booleans of a lookup; an absent field is not compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TripleExpect {
    /// All k bits set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maybe_present: Option<bool>,
    /// The exact set was consulted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_checked: Option<bool>,
    /// Exact byte equality with a document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate: Option<bool>,
}

/// One expected lookup.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LookupExpect {
    /// The query.
    pub item_hex: Hex,
    /// Its expected result.
    pub result: TripleExpect,
}

/// What a built snapshot shows; absent fields are not compared.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildExpect {
    /// Number of set bits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits_set: Option<u32>,
    /// Packed little-endian bits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packed_hex: Option<Hex>,
    /// Number of packed bytes, `ceil(m/8)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packed_len: Option<usize>,
    /// Number of distinct documents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documents: Option<usize>,
    /// Every record looks up as `(true, true, true)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records_are_duplicates: Option<bool>,
    /// Lookups and their results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lookups: Vec<LookupExpect>,
}

/// A finite universe split into members and non-members.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UniverseInput {
    /// Parameters.
    pub params: DocParams,
    /// The members.
    pub records_hex: Vec<Hex>,
    /// Every non-member of the universe.
    pub non_members_hex: Vec<Hex>,
}

/// The realised false positives of a finite universe.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UniverseExpect {
    /// Set bits of the member snapshot.
    pub bits_set: u32,
    /// Its packed bits.
    pub packed_hex: Hex,
    /// The non-members that pass `maybe_present`, in universe order.
    pub false_positives_hex: Vec<Hex>,
    /// Non-members wrongly called duplicates (the contract says 0).
    pub false_duplicate_decisions: usize,
}

/// Two record lists that must give the same snapshot.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EquivalentInput {
    /// Parameters.
    pub params: DocParams,
    /// The first record list.
    pub records_hex: Vec<Hex>,
    /// The same set, reordered and with repeats.
    pub equivalent_hex: Vec<Hex>,
}

/// A record list and a superset of it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtensionInput {
    /// Parameters.
    pub params: DocParams,
    /// The base records.
    pub records_hex: Vec<Hex>,
    /// A superset of the base records.
    pub extended_hex: Vec<Hex>,
}

/// One part of the framing and bit-order check.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum FramingInput {
    /// Plain SHA-256 of some bytes.
    Sha256 {
        /// The bytes to hash.
        data_hex: Hex,
    },
    /// One framed message.
    Message {
        /// Parameters.
        params: DocParams,
        /// Hash index.
        index: u8,
        /// The item.
        item_hex: Hex,
    },
    /// Two (seed, item) splits of the same concatenation.
    Distinct {
        /// m.
        m: u64,
        /// k.
        k: u64,
        /// Hash index.
        index: u8,
        /// First seed.
        seed_a_hex: Hex,
        /// First item.
        item_a_hex: Hex,
        /// Second seed.
        seed_b_hex: Hex,
        /// Second item.
        item_b_hex: Hex,
    },
    /// A snapshot whose packed bits must equal the oracle's, with no bit at or above m.
    Packing(BuildInput),
}

/// Expected results of a framing part; absent fields are not compared.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FramingExpect {
    /// SHA-256 digest (for `sha256` and `message`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest_hex: Option<Hex>,
    /// The exact message bytes (for `message`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_hex: Option<Hex>,
    /// The position (for `message`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u16>,
    /// The packed bits (for `packing`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packed_hex: Option<Hex>,
}

/// A snapshot, the mutation attempts to make on it, and what to observe afterwards.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MutationInput {
    /// The snapshot under attack.
    pub snapshot: BuildInput,
    /// A second, different snapshot whose values the attempts try to put into the first.
    pub other: BuildInput,
    /// Items looked up after each attempt, besides the records, the records XORed
    /// with `ff` and the other snapshot's records.
    pub probes_hex: Vec<Hex>,
    /// The attempts, each sent in its own request.
    pub attempts: Vec<MutationAttempt>,
}

/// What the snapshot must still show after every attempt (the lookups of the probes
/// are the oracle's).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MutationExpect {
    /// Its packed bits.
    pub packed_hex: Hex,
    /// Its number of documents.
    pub documents: usize,
}

/// A snapshot given as its parts, read and verified, then looked up.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadInput {
    /// Parameters.
    pub params: DocParams,
    /// The records, in the order given.
    pub records_hex: Vec<Hex>,
    /// The packed bits given with them.
    pub packed_hex: Hex,
    /// Items to look up once the snapshot is read.
    pub items_hex: Vec<Hex>,
}

/// Either the rejection, or one lookup result per item.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadExpect {
    /// The rejection, when the parts do not verify.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejected: Option<RejectExpect>,
    /// One full triple per item, when they do.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<TripleExpect>,
}

/// The shared-bit fault injection.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FaultExpect {
    /// The first member of the first intersecting pair.
    pub removed_hex: Hex,
    /// The member that then fails `maybe_present`.
    pub damaged_hex: Hex,
    /// The smallest shared position, cleared.
    pub cleared_bit: u16,
}

/// A construction, and optionally a lookup, with typed values.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypedInput {
    /// The records argument.
    pub records: TypedValue,
    /// The m argument.
    pub m: TypedValue,
    /// The k argument.
    pub k: TypedValue,
    /// The seed argument.
    pub seed: TypedValue,
    /// If present, the construction must succeed and this item is looked up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<TypedValue>,
}

/// Every subset of a base set, under several parameter profiles.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExhaustiveInput {
    /// The base records (at most 16; every subset is built).
    pub base_hex: Vec<Hex>,
    /// Queries for every snapshot.
    pub queries_hex: Vec<Hex>,
    /// Parameter profiles.
    pub profiles: Vec<DocParams>,
}

/// Counts of the exhaustive oracle comparison.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExhaustiveExpect {
    /// Snapshots compared.
    pub snapshots: usize,
    /// Queries compared.
    pub queries: usize,
}

/// One item's every stage.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StagesInput {
    /// Parameters.
    pub params: DocParams,
    /// The item.
    pub item_hex: Hex,
}

/// One hash index's stages.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// The framed message.
    pub message_hex: Hex,
    /// Its SHA-256.
    pub digest_hex: Hex,
    /// The digest mod m.
    pub position: u16,
}

/// Every stage of one item, and the packed bits of the one-record snapshot.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StagesExpect {
    /// One entry per hash index, in order.
    pub stages: Vec<Stage>,
    /// Packed bits of the snapshot holding just this item.
    pub packed_hex: Hex,
}

/// A `doc-membership-v1` case, tagged by the check it belongs to.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "check")]
#[allow(missing_docs)]
pub enum DocCase {
    #[serde(rename = "empty_snapshot_definitely_absent")]
    EmptySnapshot(Case<BuildInput, BuildExpect>),
    #[serde(rename = "inserted_items_have_no_false_negatives")]
    NoFalseNegatives(Case<BuildInput, Nothing>),
    #[serde(rename = "positive_members_exactly_confirmed")]
    MembersConfirmed(Case<BuildInput, Nothing>),
    #[serde(rename = "finite_universe_false_positives_never_become_duplicates")]
    FalsePositives(Case<UniverseInput, UniverseExpect>),
    #[serde(rename = "order_and_duplicate_insertion_idempotent")]
    Idempotent(Case<EquivalentInput, Nothing>),
    #[serde(rename = "compatible_extension_only_sets_bits")]
    Extension(Case<ExtensionInput, Nothing>),
    #[serde(rename = "raw_bytes_empty_nul_and_unicode_forms_distinct")]
    RawForms(Case<BuildInput, BuildExpect>),
    #[serde(rename = "hash_domain_framing_and_little_endian_bit_protocol")]
    Framing(Case<FramingInput, FramingExpect>),
    #[serde(rename = "snapshot_fields_are_immutable")]
    Immutable(Case<MutationInput, MutationExpect>),
    #[serde(rename = "clearing_shared_bit_breaks_no_false_negative_contract")]
    SharedBitFault(Case<BuildInput, FaultExpect>),
    #[serde(rename = "parameter_types_and_limits_rejected")]
    ParameterRejected(Case<TypedInput, RejectExpect>),
    #[serde(rename = "record_and_query_contract_rejected")]
    RecordRejected(Case<TypedInput, RejectExpect>),
    #[serde(rename = "all_small_subsets_independent_position_set_oracle")]
    Exhaustive(Case<ExhaustiveInput, ExhaustiveExpect>),
    #[serde(rename = "maximum_declared_snapshot_bounds")]
    MaximumBounds(Case<BuildInput, BuildExpect>),
    #[serde(rename = "every_stage_pinned")]
    Stages(Case<StagesInput, StagesExpect>),
    #[serde(rename = "parameter_boundaries_pinned")]
    Boundaries(Case<BuildInput, BuildExpect>),
    #[serde(rename = "read_snapshot_verifies_its_bits")]
    Read(Case<ReadInput, ReadExpect>),
}

macro_rules! case_common {
    ($ty:ident { $($variant:ident),* $(,)? }) => {
        impl $ty {
            /// The case's id.
            pub fn id(&self) -> &str {
                match self { $($ty::$variant(case) => &case.id,)* }
            }

            /// The case's flags.
            pub fn flags(&self) -> &[String] {
                match self { $($ty::$variant(case) => &case.flags,)* }
            }
        }
    };
}

case_common!(DocCase {
    EmptySnapshot,
    NoFalseNegatives,
    MembersConfirmed,
    FalsePositives,
    Idempotent,
    Extension,
    RawForms,
    Framing,
    Immutable,
    SharedBitFault,
    ParameterRejected,
    RecordRejected,
    Exhaustive,
    MaximumBounds,
    Stages,
    Boundaries,
    Read,
});

// ---------------------------------------------------------------------------------
// fnv1a-utf16-v1

/// Inputs of a hash-and-positions case.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvPositionsInput {
    /// Number of bits.
    pub m: u64,
    /// Number of hash indices.
    pub k: u64,
    /// The string as UTF-16 code units (lone surrogates allowed).
    pub units: Vec<u16>,
    /// The same string as text, when the units are valid UTF-16 (informative; the
    /// runner checks it encodes to `units`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// The two base hashes and the positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvPositionsExpect {
    /// FNV-1a from basis 2166136261.
    pub h1: u32,
    /// FNV-1a from basis 0xdeadbeef, forced odd.
    pub h2: u32,
    /// `(h1 + i*h2) mod m` for i in 0..k, in order.
    pub positions: Vec<u16>,
}

/// A session script.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptInput {
    /// The steps, applied in order to a new session.
    pub script: Vec<ScriptOp>,
}

/// What one step must produce.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepExpect {
    /// A partial view: every key given must match (objects recursively, arrays
    /// element by element with the same length, numbers within 1e-9 relative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<serde_json::Value>,
    /// The step is rejected with this error kind (`*`: any kind), and the view stays
    /// exactly as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// For `save_local`: `saved` or `kept`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<String>,
}

/// Expectations of a script, one per step.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptExpect {
    /// One entry per script step.
    pub steps: Vec<StepExpect>,
}

/// Parameters of the estimates.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EstimatesInput {
    /// Number of bits.
    pub m: u32,
    /// Number of hash indices.
    pub k: u32,
    /// Number of distinct entries.
    pub n: u32,
}

/// The estimates, compared within 1e-9 relative.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EstimatesExpect {
    /// `(1 - e^(-kn/m))^k`.
    pub classic: f64,
    /// `(1 - (1 - 1/m)^(kn))^k`.
    pub finite_m: f64,
    /// The exact expected rate under ideal uniform hashing.
    pub exact: f64,
    /// The k in 1..=12 minimising the classic estimate (smallest on a tie).
    pub optimal_k: u32,
}

/// A `fnv1a-utf16-v1` case, tagged by the check it belongs to.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "check")]
#[allow(missing_docs)]
pub enum FnvCase {
    #[serde(rename = "base_hashes_pinned")]
    BaseHashes(Case<FnvPositionsInput, FnvPositionsExpect>),
    #[serde(rename = "positions_without_32_bit_wrap")]
    NoWrap(FnvCaseBody),
    #[serde(rename = "repeated_positions_kept_in_order")]
    RepeatedPositions(FnvCaseBody),
    #[serde(rename = "a_to_h_fill_every_bit")]
    AToH(FnvCaseBody),
    #[serde(rename = "observed_rate_one_half")]
    RateOneHalf(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "observed_rate_undefined_without_negative_query")]
    RateUndefined(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "query_counters")]
    QueryCounters(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "duplicate_insertion_changes_nothing")]
    DuplicateInsertion(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "new_distinct_insertion_resets_counters")]
    NewInsertionResets(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "string_length_in_code_units")]
    StringLength(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "exact_comparison_no_normalisation")]
    ExactComparison(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "distinct_entry_limit")]
    EntryLimit(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "parameter_bounds")]
    ParameterBounds(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "reset_keeps_drafts")]
    ResetKeepsDrafts(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "parameter_change_discards_filter")]
    ParameterChange(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "last_operation_and_history")]
    LastOperation(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "export_import_round_trip")]
    RoundTrip(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "import_size_limit")]
    ImportSize(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "invalid_import_keeps_state")]
    InvalidImport(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "legacy_saved_state_readable")]
    Legacy(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "local_save_limit")]
    LocalSave(Case<ScriptInput, ScriptExpect>),
    #[serde(rename = "estimates_pinned")]
    Estimates(Case<EstimatesInput, EstimatesExpect>),
}

/// A case that is either a hash-and-positions case or a session script.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FnvCaseBody {
    /// Hashes and positions.
    Positions(Case<FnvPositionsInput, FnvPositionsExpect>),
    /// A session script.
    Script(Case<ScriptInput, ScriptExpect>),
}

impl FnvCaseBody {
    /// The case's id.
    pub fn id(&self) -> &str {
        match self {
            FnvCaseBody::Positions(case) => &case.id,
            FnvCaseBody::Script(case) => &case.id,
        }
    }
}

impl FnvCase {
    /// The case's id.
    pub fn id(&self) -> &str {
        use FnvCase::*;
        match self {
            NoWrap(body) | RepeatedPositions(body) | AToH(body) => body.id(),
            BaseHashes(case) => &case.id,
            Estimates(case) => &case.id,
            RateOneHalf(case)
            | RateUndefined(case)
            | QueryCounters(case)
            | DuplicateInsertion(case)
            | NewInsertionResets(case)
            | StringLength(case)
            | ExactComparison(case)
            | EntryLimit(case)
            | ParameterBounds(case)
            | ResetKeepsDrafts(case)
            | ParameterChange(case)
            | LastOperation(case)
            | RoundTrip(case)
            | ImportSize(case)
            | InvalidImport(case)
            | Legacy(case)
            | LocalSave(case) => &case.id,
        }
    }
}
