//! `fnv1a-utf16-v1` served by `bloomproof adapter`: its operations ([`FnvOp`])
//! answered by the in-process production subject ([`RustFnv`]).

use crate::client::RESPONSE_MAX;
use crate::protocols::fnv1a_utf16_v1::{FnvSubject, RustFnv, SCRIPT_HELPER_MAX};
use crate::serve::{SCRIPT_MAX, ServedOp, ServedProtocol, json, json_len, negative_m_k, too_large};
use crate::subject::Answer;
use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
use bloomproof_wire::protocols::fnv1a_utf16_v1::FnvOp;
use bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp;
use bloomproof_wire::protocols::fnv1a_utf16_v1::{ScriptAnswer, StepAnswer};
use serde_json::{Map, Value};

/// The serving side's registry entry of `fnv1a-utf16-v1`.
pub struct Fnv1aUtf16V1;

impl ServedProtocol for Fnv1aUtf16V1 {
    fn name(&self) -> &'static str {
        fnv::NAME
    }

    fn parse(&self, op: Value) -> Result<Box<dyn ServedOp>, serde_json::Error> {
        serde_json::from_value::<FnvOp>(op).map(|op| Box::new(op) as Box<dyn ServedOp>)
    }

    /// A negative `m`, `k` or `n` of `estimates` (ADAPTER.md, the error table), where
    /// the types that read the request would say `bad_request`; a negative `m` or `k`
    /// of `positions`.
    fn out_of_bounds(&self, op: &Map<String, Value>) -> Option<(String, String)> {
        let integer = |name: &str| op.get(name).filter(|v| v.is_i64() || v.is_u64());
        match op.get("op").and_then(Value::as_str) {
            Some("estimates") => ["m", "k", "n"].into_iter().find_map(|name| {
                let n = integer(name)?.as_i64().filter(|n| *n < 0)?;
                Some((
                    name.to_string(),
                    format!("{name} = {n} is out of bounds: estimates take integers from 0 (larger ones are clamped)"),
                ))
            }),
            Some("positions") => {
                negative_m_k(op, [(fnv::M_MIN, fnv::M_MAX), (fnv::K_MIN, fnv::K_MAX)])
            }
            _ => None,
        }
    }
}

impl ServedOp for FnvOp {
    fn refused(&self) -> Option<String> {
        match self {
            FnvOp::Session { script } => script_fits(script.len()).err(),
            _ => None,
        }
    }

    fn answer(&self) -> Answer<Value> {
        let mut fnv = RustFnv;
        match self {
            FnvOp::Positions { m, k, units } => json(fnv.positions(*m, *k, units)?),
            FnvOp::Session { script } => session_answer(script),
            FnvOp::Estimates { m, k, n } => json(fnv.estimates(*m, *k, *n)?),
        }
    }

    /// Cheap but for estimates of much work and long or heavy scripts.
    fn is_cheap(&self) -> bool {
        match self {
            FnvOp::Positions { .. } => true,
            FnvOp::Estimates { m, k, n } => {
                let m = u64::from((*m).clamp(fnv::M_MIN, fnv::M_MAX));
                let k = u64::from((*k).clamp(fnv::K_MIN, fnv::K_MAX));
                let n = u64::from(*n).min(bloomproof_session::MAX_ENTRIES as u64);
                k * n * m <= CHEAP_ESTIMATE_WORK
            }
            FnvOp::Session { script } => {
                script.len() <= CHEAP_SCRIPT_STEPS
                    && script.iter().all(|op| match op {
                        ScriptOp::InsertMany { count, .. } => *count <= CHEAP_INSERT_MANY,
                        ScriptOp::ImportPadded { bytes } => helper_size_is_cheap(*bytes),
                        ScriptOp::SaveLocal { units, .. } => helper_size_is_cheap(*units),
                        _ => true,
                    })
            }
        }
    }
}

/// Most steps of a [cheap](ServedOp::is_cheap) session script.
pub const CHEAP_SCRIPT_STEPS: usize = 16;
/// Largest `insert_many` count of a cheap script.
pub const CHEAP_INSERT_MANY: u32 = 64;
/// Largest `import_padded` size or `save_local` length of a cheap script, up to where
/// the subject refuses such a size without building it ([`SCRIPT_HELPER_MAX`]); beyond
/// that, the refusal is cheap again.
pub const CHEAP_HELPER_SIZE: usize = 1 << 20;
/// Largest `k * n * m` (after the estimates' own clamping) of cheap estimates: the
/// exact estimate costs about that many additions.
pub const CHEAP_ESTIMATE_WORK: u64 = 1 << 22;

fn helper_size_is_cheap(size: usize) -> bool {
    size <= CHEAP_HELPER_SIZE || size > SCRIPT_HELPER_MAX
}

fn script_fits(steps: usize) -> Result<(), String> {
    if steps > SCRIPT_MAX {
        return Err(format!(
            "`script` has {steps} steps: a script has at most {SCRIPT_MAX} (split it)"
        ));
    }
    Ok(())
}

/// Runs a script step by step, writing each step's answer down as it comes and
/// stopping as soon as the whole answer would be longer than [`RESPONSE_MAX`]: what
/// the answer holds stays bounded whatever the script.
fn session_answer(script: &[ScriptOp]) -> Answer<Value> {
    script_fits(script.len()).map_err(too_large)?;
    let total = script.len();
    let mut used = 64usize;
    let mut steps = Vec::new();
    let mut spend = |value: &Value, at: String| {
        used = used.saturating_add(json_len(value)).saturating_add(1);
        if used > RESPONSE_MAX {
            return Err(too_large(format!(
                "the answer to this script would be longer than {RESPONSE_MAX} bytes ({at} of {total}): split the script"
            )));
        }
        Ok(())
    };
    let initial = RustFnv::run_script(script, |step: StepAnswer| {
        spend(&json(&step)?, format!("at step {}", steps.len() + 1))?;
        steps.push(step);
        Ok(())
    })?;
    spend(&initial, "with the initial view".into())?;
    json(ScriptAnswer { initial, steps })
}
