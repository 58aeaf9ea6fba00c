//! `doc-membership-v1`'s cases (`spec/doc-membership-v1/cases.json`), tagged by shape.

use crate::protocols::doc_membership_v1::{MutationAttempt, TypedCall};
use crate::spec::{Case, GeneratedExpect, GeneratedInput};
use crate::{ContractExpect, DocParams, Hex, RejectExpect};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
    /// The seed's own form, with no reader: the runner clears the bit in the
    /// implementation's own packed bits and finds the damaged member's `maybe_present`
    /// false from the implementation's own positions (a core check). Absent or false:
    /// the damaged snapshot is shown to the implementation's `read`, which must refuse it
    /// naming the damaged member (an interop check).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub without_reader: bool,
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
    TypedRejection(Case<TypedCall, ContractExpect>),
    /// Every subset of a base set against the oracle.
    Exhaustive(Case<ExhaustiveInput, ExhaustiveExpect>),
    /// Every stage of one item.
    Stages(Case<StagesInput, StagesExpect>),
    /// A snapshot read from its parts.
    Read(Case<ReadInput, ReadExpect>),
    /// Fresh inputs drawn from a domain, compared with the oracle.
    Generated(Case<GeneratedInput, GeneratedExpect>),
}

crate::spec::case_common!(DocCase {
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
