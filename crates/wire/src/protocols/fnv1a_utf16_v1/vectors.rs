//! `fnv1a-utf16-v1`'s vector cases (`vectors/fnv1a-utf16-v1/`).

use crate::RejectExpect;
use crate::vectors::VectorFileOf;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `vectors/fnv1a-utf16-v1/positions.json`.
pub type FnvPositionsFile = VectorFileOf<FnvPositionCase>;
/// `vectors/fnv1a-utf16-v1/rejections.json`.
pub type FnvRejectionsFile = VectorFileOf<FnvRejectionCase>;

/// `fnv1a-utf16-v1/positions`: one string under one parameter set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvPositionCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// Number of bits, 8..=1024.
    pub m: u32,
    /// Number of hash indices, 1..=12.
    pub k: u32,
    /// The string's UTF-16 code units, 1..=256 of them (what is hashed).
    pub units: Vec<u16>,
    /// The string, present exactly when `units` is valid UTF-16 (no lone surrogate);
    /// its UTF-16 encoding is `units`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// FNV-1a over the units from 2166136261.
    pub h1: u32,
    /// FNV-1a over the units from 0xdeadbeef, forced odd.
    pub h2: u32,
    /// `(h1 + i*h2) mod m` for `i` in `0..k`, the sum exact (no 32-bit wrap).
    pub positions: Vec<u16>,
}

/// `fnv1a-utf16-v1/rejections`: parameters out of range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvRejectionCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// The m given (at most 2^53 - 1).
    pub m: u64,
    /// The k given (at most 2^53 - 1).
    pub k: u64,
    /// A valid string's code units.
    pub units: Vec<u16>,
    /// The expected error (always a `value` error).
    pub expect: RejectExpect,
}

crate::vectors::case_header!(FnvPositionCase, FnvRejectionCase);
