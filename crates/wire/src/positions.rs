//! What `bloomproof positions` prints: one item's hashing, in the fields the spec's
//! cases use for the same values (`every_stage_pinned` for doc-membership-v1, the
//! `hashes` shape for fnv1a-utf16-v1), so that a printed answer reads like a case.

use crate::protocols::doc_membership_v1::Stage;
use crate::{DocParams, Hex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One `doc-membership-v1` item: every stage, the positions, and the packed bits of
/// the snapshot holding just this item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocPositions {
    /// `doc-membership-v1`.
    pub protocol: String,
    /// The snapshot's parameters.
    pub params: DocParams,
    /// The item, 0..=64 bytes.
    pub item_hex: Hex,
    /// One entry per hash index, in order: framed message, digest, position.
    pub stages: Vec<Stage>,
    /// The k positions in index order, repeats kept.
    pub positions: Vec<u16>,
    /// The one-item snapshot's bits, `ceil(m/8)` little-endian bytes.
    pub packed_hex: Hex,
}

/// One `fnv1a-utf16-v1` string: its two base hashes and its positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvPositions {
    /// `fnv1a-utf16-v1`.
    pub protocol: String,
    /// Number of bits, 8..=1024.
    pub m: u64,
    /// Number of hash indices, 1..=12.
    pub k: u64,
    /// The string as UTF-16 code units.
    pub units: Vec<u16>,
    /// FNV-1a from basis 2166136261.
    pub h1: u32,
    /// FNV-1a from basis 0xdeadbeef, forced odd.
    pub h2: u32,
    /// `(h1 + i*h2) mod m` for i in 0..k, without a 32-bit wrap.
    pub positions: Vec<u16>,
}
