//! The spec files: `spec/<protocol>/checks.json` and `spec/<protocol>/cases.json`.
//!
//! A case names its check as a plain string (`"check"`, which `checks.json` must
//! document) and its shape (`"shape"`), which picks how it is evaluated: the shape fixes
//! the form of `input` and `expect`, and every case states in `expect` all that it
//! asserts. Several checks share a shape; a check never needs a type of its own. Unknown
//! fields are refused at every depth. `spec/schemas/` is generated from these types.

use crate::adapter::{MutationAttempt, ScriptOp, TypedCall};
pub use crate::report::{Level, PublishedFigure};
use crate::{DocParams, Hex, RejectExpect};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The format version of the spec files this crate reads and writes.
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
    /// `required` (a rule of the source documents, or of the wire contract any adapter
    /// follows: counted in the verdict) or `recommended` (beyond the sources, such as
    /// tamper resistance: counted on its own).
    pub level: Level,
    /// The ids of the rules it enforces (`spec/rules.json`): every case of the check
    /// pins them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// What part of the check runs inside the implementation (its adapter), where the
    /// runner cannot watch it; the report prints it beside the check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inside_implementation: Option<String>,
}

/// `spec/rules.json`: every normative rule and worked example of the protocol
/// documents, by stable id.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    /// Path of the JSON Schema of this file, relative to the file.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// Spec format version; this runner reads version 1.
    pub format_version: u32,
    /// What the file is, for readers.
    pub comment: String,
    /// Number of entries in `rules`; a mismatch is a load error.
    pub rule_count: usize,
    /// The rules.
    pub rules: Vec<Rule>,
    /// Rules no case pins yet, each with the reason.
    pub known_gaps: Vec<KnownGap>,
}

/// One rule: its id and where it is stated.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable id (`DOC-HASH-MESSAGE`, `SESSION-5.1`, `ADAPTER-FRAMING`).
    pub id: String,
    /// The document that states it, relative to the spec folder.
    pub document: String,
    /// The section heading that states it, for documents that do not tag each rule
    /// with `[ID]` (SESSION.md, ADAPTER.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

/// A rule without a case, and why.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KnownGap {
    /// The rule's id.
    pub rule: String,
    /// Why no case pins it.
    pub reason: String,
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
    /// The cases, each tagged with its `shape`.
    pub cases: Vec<C>,
}

/// Fields every case has, whatever its shape: a stable `id`, unique in the file
/// (`<check number>-<group>/<name>`); the `check` it belongs to, a name `checks.json`
/// documents; optional `flags` from the file's `flags` table and a `comment` for
/// readers; the `input` the implementation is given, and in `expect` everything a
/// conforming implementation shows on it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(
    missing_docs,
    reason = "described together in the struct's documentation"
)]
pub struct Case<I, E> {
    pub id: String,
    pub check: String,
    /// Every rule id this case pins: its check's, then its own (spec/README.md,
    /// "Rule ids"); the loader fails a case that names none or leaves one of its
    /// check's out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    pub input: I,
    pub expect: E,
}

// ---------------------------------------------------------------------------------
// generated inputs (both protocols)

/// What a `generated` case draws and compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Generator {
    /// `doc-membership-v1`: one item under random parameters: `positions` and
    /// `frame` of every hash index, compared with the oracle.
    DocHashing,
    /// `doc-membership-v1`: a random record set and items: `build`, `lookup_many`,
    /// `read` of the honest snapshot and of a damaged one, compared with the oracle.
    DocSnapshots,
    /// `fnv1a-utf16-v1`: one string of code units of every class under random m and
    /// k: `positions`, compared with the oracle.
    FnvHashes,
    /// `fnv1a-utf16-v1`: `estimates` at a random (m, k, n), compared with the
    /// oracle's own computation.
    FnvEstimates,
    /// `fnv1a-utf16-v1`: a random session script, every step compared with the
    /// reference session model.
    FnvSessions,
}

/// An inclusive range `[min, max]`.
pub type Span = [u32; 2];

/// The domain a `generated` case draws from: fresh inputs on every run, from a seed
/// the report prints (`--seed N` replays them, `--random N` draws N instead of
/// `count`). Each range is inclusive; the generator reads the ones it needs (the
/// loader refuses a case that lacks one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneratedInput {
    /// What is drawn and compared.
    pub generator: Generator,
    /// Inputs drawn per run unless `--random N` asks for another number.
    pub count: u32,
    /// The filter size m.
    pub m: Span,
    /// The number of hash indices k.
    pub k: Span,
    /// `doc-membership-v1`: seed length in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_bytes: Option<Span>,
    /// `doc-membership-v1`: item and record length in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_bytes: Option<Span>,
    /// `doc-membership-v1`: records per snapshot (repeats included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<Span>,
    /// `fnv1a-utf16-v1`: string length in UTF-16 code units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<Span>,
    /// `fnv1a-utf16-v1` estimates: the number of distinct entries n.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<Span>,
    /// `fnv1a-utf16-v1` sessions: steps per script.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Span>,
}

/// What a `generated` case asserts: each listed answer equals the reference's on
/// every drawn input (`oracle` or `session_model`), and every answer keeps the
/// invariants (k positions, each below m; `ceil(m/8)` packed bytes; no bit at or
/// above m).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneratedExpect {
    /// `oracle` (`crates/oracle`) or `session_model` (`crates/session`).
    pub equal_to: String,
    /// The answers compared, by operation (`positions`, `frame`, `build`,
    /// `lookup_many`, `read`, `read_damaged`, `estimates`, `view`, `error`, `save`,
    /// `export`).
    pub compared: Vec<String>,
}

// ---------------------------------------------------------------------------------
// doc-membership-v1

/// A snapshot's parameters and records, in the order given to the constructor.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct BuildInput {
    pub params: DocParams,
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

/// One expected lookup: the query and its result.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct LookupExpect {
    pub item_hex: Hex,
    pub result: TripleExpect,
}

/// What a built snapshot shows; absent fields are not compared. Its packed bits are
/// always compared with the oracle's, and its documents with the distinct records.
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

/// What every record of a snapshot looks up as, in the snapshot of those records.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EveryRecordExpect {
    /// The result each record must give (absent fields are not compared).
    pub every_record: TripleExpect,
}

/// A finite universe split into members (`records_hex`) and every non-member.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct UniverseInput {
    pub params: DocParams,
    pub records_hex: Vec<Hex>,
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

/// Two record lists holding the same set: `equivalent_hex` is `records_hex`
/// reordered and with repeats.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct EquivalentInput {
    pub params: DocParams,
    pub records_hex: Vec<Hex>,
    pub equivalent_hex: Vec<Hex>,
}

/// What the two equivalent lists give.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EquivalentExpect {
    /// Both lists build the same snapshot (parameters, bits, documents).
    pub same_snapshot: bool,
    /// Every record of `records_hex` is a duplicate in the snapshot of `equivalent_hex`.
    pub records_are_duplicates: bool,
}

/// A record list and a superset of it (`extended_hex`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct ExtensionInput {
    pub params: DocParams,
    pub records_hex: Vec<Hex>,
    pub extended_hex: Vec<Hex>,
}

/// What extending the records does.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtensionExpect {
    /// Every bit of the base snapshot is set in the extended one, of the same length.
    pub only_sets_bits: bool,
    /// Every base record passes `maybe_present` in the extended snapshot.
    pub base_records_maybe_present: bool,
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
    /// One framed message: hash `index` of `item_hex`.
    #[expect(missing_docs, reason = "the fields are named for what they hold")]
    Message {
        params: DocParams,
        index: u8,
        item_hex: Hex,
    },
    /// Two (seed, item) splits of the same concatenation, framed for hash `index`.
    #[expect(missing_docs, reason = "the fields are named for what they hold")]
    Distinct {
        m: u64,
        k: u64,
        index: u8,
        seed_a_hex: Hex,
        item_a_hex: Hex,
        seed_b_hex: Hex,
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
    /// Whether the two splits frame to different messages (for `distinct`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages_differ: Option<bool>,
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
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct MutationExpect {
    pub packed_hex: Hex,
    pub documents: usize,
}

/// A snapshot given as its parts (records in the order given, packed bits), read and
/// verified, then each of `items_hex` looked up.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct ReadInput {
    pub params: DocParams,
    pub records_hex: Vec<Hex>,
    pub packed_hex: Hex,
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

/// Every subset of a base set, under several parameter profiles.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExhaustiveInput {
    /// The base records (at most 16; every subset is built).
    pub base_hex: Vec<Hex>,
    /// Looked up in every snapshot.
    pub queries_hex: Vec<Hex>,
    /// Every subset is built under each of these.
    pub profiles: Vec<DocParams>,
}

/// Counts of the exhaustive oracle comparison: snapshots and queries compared.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct ExhaustiveExpect {
    pub snapshots: usize,
    pub queries: usize,
}

/// One item, for every stage of its hashing.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct StagesInput {
    pub params: DocParams,
    pub item_hex: Hex,
}

/// One hash index's stages: the framed message, its SHA-256, the digest mod m.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the fields are named for what they hold")]
pub struct Stage {
    pub message_hex: Hex,
    pub digest_hex: Hex,
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

/// A `doc-membership-v1` case, tagged by its shape.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum DocCase {
    /// A snapshot built and compared (bits, documents, lookups).
    Build(Case<BuildInput, BuildExpect>),
    /// Every record looked up in the snapshot of the records.
    Lookup(Case<BuildInput, EveryRecordExpect>),
    /// A finite universe's false positives.
    Universe(Case<UniverseInput, UniverseExpect>),
    /// Two equivalent record lists.
    Equivalent(Case<EquivalentInput, EquivalentExpect>),
    /// A record list and a superset.
    Extension(Case<ExtensionInput, ExtensionExpect>),
    /// One part of the framing and bit order.
    Framing(Case<FramingInput, FramingExpect>),
    /// Mutation attempts on a snapshot.
    Mutation(Case<MutationInput, MutationExpect>),
    /// The shared-bit fault injection.
    Fault(Case<BuildInput, FaultExpect>),
    /// A construction or lookup with typed values that must be rejected.
    TypedRejection(Case<TypedCall, RejectExpect>),
    /// Every subset of a base set against the oracle.
    Exhaustive(Case<ExhaustiveInput, ExhaustiveExpect>),
    /// Every stage of one item.
    Stages(Case<StagesInput, StagesExpect>),
    /// A snapshot read from its parts.
    Read(Case<ReadInput, ReadExpect>),
    /// Fresh inputs drawn from a domain, compared with the oracle.
    Generated(Case<GeneratedInput, GeneratedExpect>),
}

// ---------------------------------------------------------------------------------
// fnv1a-utf16-v1

/// Inputs of a hash-and-positions case.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvPositionsInput {
    #[expect(missing_docs, reason = "the protocol's own names")]
    pub m: u64,
    #[expect(missing_docs, reason = "the protocol's own names")]
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
    /// For `save_local`: the `stored_units` of the answer, the UTF-16 code units stored
    /// afterwards (for `kept`, the length of the current export).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored_units: Option<usize>,
    /// For `export`: the export text, byte for byte (SESSION.md section 9, "Layout").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<String>,
}

/// Expectations of a script, one per step.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptExpect {
    /// One entry per script step.
    pub steps: Vec<StepExpect>,
}

/// The parameters of the estimates: m bits, k hash indices, n distinct entries.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(missing_docs, reason = "the protocol's own names")]
pub struct EstimatesInput {
    pub m: u32,
    pub k: u32,
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

/// A `fnv1a-utf16-v1` case, tagged by its shape.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum FnvCase {
    /// The base hashes and positions of one string.
    Hashes(Case<FnvPositionsInput, FnvPositionsExpect>),
    /// A session script.
    Script(Case<ScriptInput, ScriptExpect>),
    /// The false-positive estimates.
    Estimates(Case<EstimatesInput, EstimatesExpect>),
    /// Fresh inputs drawn from a domain, compared with the oracle or the session
    /// model.
    Generated(Case<GeneratedInput, GeneratedExpect>),
}

macro_rules! case_common {
    ($ty:ident { $($variant:ident: $shape:literal),* $(,)? }) => {
        impl $ty {
            /// The case's id.
            pub fn id(&self) -> &str {
                match self { $($ty::$variant(case) => &case.id,)* }
            }

            /// The check the case belongs to.
            pub fn check(&self) -> &str {
                match self { $($ty::$variant(case) => &case.check,)* }
            }

            /// The rule ids the case pins beyond its check's.
            pub fn rules(&self) -> &[String] {
                match self { $($ty::$variant(case) => &case.rules,)* }
            }

            /// The case's flags.
            pub fn flags(&self) -> &[String] {
                match self { $($ty::$variant(case) => &case.flags,)* }
            }

            /// The case's shape: its `shape` tag in the data.
            pub fn shape(&self) -> &'static str {
                match self { $($ty::$variant(_) => $shape,)* }
            }
        }
    };
}

case_common!(DocCase {
    Build: "build",
    Lookup: "lookup",
    Universe: "universe",
    Equivalent: "equivalent",
    Extension: "extension",
    Framing: "framing",
    Mutation: "mutation",
    Fault: "fault",
    TypedRejection: "typed_rejection",
    Exhaustive: "exhaustive",
    Stages: "stages",
    Read: "read",
    Generated: "generated",
});

case_common!(FnvCase {
    Hashes: "hashes",
    Script: "script",
    Estimates: "estimates",
    Generated: "generated",
});
