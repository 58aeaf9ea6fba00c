//! `doc-membership-v1`'s vector cases (`vectors/doc-membership-v1/`).

use crate::protocols::doc_membership_v1::{Triple, TypedCall};
use crate::vectors::VectorFileOf;
use crate::{DocParams, Hex, RejectExpect};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `vectors/doc-membership-v1/positions.json`.
pub type DocPositionsFile = VectorFileOf<DocPositionCase>;
/// `vectors/doc-membership-v1/snapshots.json`.
pub type DocSnapshotsFile = VectorFileOf<DocSnapshotCase>;
/// `vectors/doc-membership-v1/rejections.json`.
pub type DocRejectionsFile = VectorFileOf<DocRejectionCase>;

/// One hash index of a `doc-membership-v1` position case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocHash {
    /// The hash index `i`, `0..k`; entry `i` of `hashes` has index `i`.
    pub index: u8,
    /// The framed message: domain, m (2 bytes), k, len(seed), seed, i, len(item)
    /// (2 bytes), item; integers big-endian.
    pub message_hex: Hex,
    /// SHA-256 of the message (32 bytes).
    pub digest_hex: Hex,
    /// The digest read as a big-endian integer, mod m.
    pub position: u16,
}

/// `doc-membership-v1/positions`: one item under one parameter set, every stage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocPositionCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// The parameters: m in 8..=512, k in 1..=8, a seed of 0..=16 bytes.
    pub params: DocParams,
    /// The item, 0..=64 bytes.
    pub item_hex: Hex,
    /// One entry per hash index, in index order (`k` entries).
    pub hashes: Vec<DocHash>,
    /// The `k` positions in index order, repeats kept (equal to `hashes[i].position`).
    pub positions: Vec<u16>,
}

/// One lookup in a snapshot case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocLookup {
    /// The query, 0..=64 bytes.
    pub item_hex: Hex,
    /// Flags from the file's `flags` table: `member` or `non-member`, and
    /// `repeated-record`, `false-positive`, `empty-item`, `max-item` where they apply.
    pub flags: Vec<String>,
    /// The lookup's answer, the adapter protocol's triple: `maybe_present` (all k bits
    /// of the item are set), `exact_checked` (the exact set was consulted: always equal
    /// to `maybe_present`), `duplicate` (the exact set holds these bytes; only ever true
    /// when checked).
    pub expect: Triple,
}

/// `doc-membership-v1/snapshots`: one snapshot built from all its records at once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocSnapshotCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// The parameters: m in 8..=512, k in 1..=8, a seed of 0..=16 bytes.
    pub params: DocParams,
    /// The records in the order given to the constructor (0..=64, repeats allowed).
    pub records_hex: Vec<Hex>,
    /// The filter as `ceil(m/8)` little-endian bytes: bit `p` is bit `p % 8` of byte
    /// `p / 8`; unused high bits zero.
    pub packed_hex: Hex,
    /// Number of set bits.
    pub bits_set: u32,
    /// Number of distinct documents (records after de-duplication by exact bytes).
    pub documents: usize,
    /// Lookups and their three booleans: every distinct record, then non-members.
    pub lookups: Vec<DocLookup>,
}

/// `doc-membership-v1/rejections`: a construction (and, when `input.item` is present,
/// a lookup) with typed values that must be rejected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocRejectionCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// The constructor's arguments as typed values of any kind (a wrong kind or an
    /// out-of-range value is the fault), and when `item` is given, the construction
    /// succeeds and the lookup of `item` is what must be rejected: the adapter
    /// protocol's `typed` call and the spec's `typed_rejection` input.
    pub input: TypedCall,
    /// The expected error.
    pub expect: RejectExpect,
}

crate::vectors::case_header!(DocPositionCase, DocSnapshotCase, DocRejectionCase);
