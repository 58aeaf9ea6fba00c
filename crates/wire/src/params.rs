//! The parameters of a snapshot, spelled one way in every file and message.

use crate::Hex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The parameters of a `doc-membership-v1` snapshot, always nested as `"params"`:
/// `{"m": 16, "k": 3, "seed_hex": "6c6162"}` in the spec's cases, the vector files and
/// the adapter's requests alike. The bounds (m in 8..=512, k in 1..=8, seed 0..=16
/// bytes) are not enforced here: cases and requests carry out-of-range values on
/// purpose, and the protocol is what refuses them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocParams {
    /// Number of bits, 8..=512.
    pub m: u64,
    /// Number of hash indices, 1..=8.
    pub k: u64,
    /// Seed bytes, 0..=16.
    pub seed_hex: Hex,
}
