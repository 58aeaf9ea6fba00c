//! `fnv1a-utf16-v1`'s cases (`spec/fnv1a-utf16-v1/cases.json`), tagged by shape.

use crate::protocols::fnv1a_utf16_v1::ScriptOp;
use crate::spec::{Case, GeneratedExpect, GeneratedInput};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
    /// `(1 - e^(-kn/m))^k`: what seed 002 gives.
    pub classic: f64,
    /// `(1 - (1 - 1/m)^(kn))^k`, SESSION.md's; absent in a core case (not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finite_m: Option<f64>,
    /// The exact expected rate under ideal uniform hashing, SESSION.md's; absent in a
    /// core case (not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<f64>,
    /// The k in 1..=12 minimising the classic estimate (smallest on a tie, SESSION.md's
    /// decision); absent in a core case (not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimal_k: Option<u32>,
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

crate::spec::case_common!(FnvCase {
    Hashes: "hashes",
    Script: "script",
    Estimates: "estimates",
    Generated: "generated",
});
