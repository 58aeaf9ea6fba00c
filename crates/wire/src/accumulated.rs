//! `spec/accumulated.json`: the digests of the accumulated checks, as published. The
//! generator and the comparison are `bloomproof_conformance::accumulated`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `spec/accumulated.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AccumulatedFile {
    /// Always 1.
    pub format_version: u32,
    /// Free text.
    pub comment: String,
    /// One entry per protocol.
    pub protocols: Vec<Published>,
}

/// The published digests of one protocol.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// The protocol's name.
    pub protocol: String,
    /// The generator's name and version (`bloomproof accumulated v1`).
    pub generator: String,
    /// How many inputs were generated.
    pub count: u64,
    /// The running SHA-256 after `count` inputs, lowercase hex.
    pub digest: String,
    /// The running SHA-256 after fewer inputs.
    pub checkpoint: Checkpoint,
}

/// A digest after the first `count` inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// How many inputs.
    pub count: u64,
    /// The running SHA-256 after them, lowercase hex.
    pub digest: String,
}
