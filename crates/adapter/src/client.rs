//! The runner's side of the adapter protocol (`spec/ADAPTER.md`): any implementation,
//! in any language, driven as a subprocess speaking JSON lines over stdin/stdout.
//!
//! One request per line: `{"id": 7, "protocol": "doc-membership-v1", "op": "positions",
//! "params": {"m": 16, "k": 3, "seed_hex": "6c6162"}, "item": "646f632d3034"}`. One
//! response per line, in order: `{"id": 7, "result": {"positions": [10, 4, 1]}}` or
//! `{"id": 7, "error": {"kind": "value", "field": "m", "message": "..."}}`.
//!
//! The request and result types are `bloomproof_wire::adapter`'s, shared with the
//! serving side (`bloomproof adapter`, in the `bloomproof` crate): [`AdapterProcess`]
//! runs the subprocess, [`AdapterDoc`] and [`AdapterFnv`] are the subjects built on it.

use crate::subject::{
    Answer, Between, Built, DocCall, DocReply, DocSubject, EstimatesAnswer, FnvCall, FnvHashes,
    FnvReply, FnvSubject, Framed, Mutation, Observation, RawParams, ScriptAnswer, SubjectError,
    Triple,
};
use crate::{DOC, FNV};
use bloomproof_wire::adapter::{
    DigestResult, MutateResult, PositionsResult, TriplesResult, TypedResult,
};
pub use bloomproof_wire::adapter::{DocOp, FnvOp, OtherSnapshot, TypedCall};
use bloomproof_wire::adapter::{MutationAttempt, ScriptOp};
use bloomproof_wire::{DocParams, Hex};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// The longest response line the runner reads from an adapter, and the longest
/// `bloomproof adapter` writes: 1 MiB. A longer response marks the adapter dead; the
/// spec's own answers stay far below it (the largest is about 140 KB).
pub const RESPONSE_MAX: usize = 1 << 20;

/// The most of an adapter's standard error the runner keeps: its last 1 MiB.
pub const STDERR_KEPT: usize = 1 << 20;

/// The default time an adapter has to answer one request.
pub const DEFAULT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// The shortest `--timeout`, in seconds.
pub const TIMEOUT_MIN_SECS: f64 = 0.1;

/// The longest `--timeout`, in seconds (an hour).
pub const TIMEOUT_MAX_SECS: f64 = 3600.0;

/// Reads a `--timeout`: a finite number of seconds from [`TIMEOUT_MIN_SECS`] to
/// [`TIMEOUT_MAX_SECS`] (`20`, `0.5`, `1e2`). Anything else (`-1`, `NaN`, `inf`,
/// `1e300`, `20s`) is an error naming the value and the range.
pub fn parse_timeout(text: &str) -> Result<std::time::Duration, String> {
    parse_seconds("--timeout", TIMEOUT_MIN_SECS, TIMEOUT_MAX_SECS, text)
}

/// The default time a whole run through an adapter may take: 15 minutes (a full run of
/// the spec through the slowest adapter here takes well under a minute).
pub const DEFAULT_DEADLINE: std::time::Duration = std::time::Duration::from_secs(900);

/// The shortest `--deadline`, in seconds.
pub const DEADLINE_MIN_SECS: f64 = 1.0;

/// The longest `--deadline`, in seconds (a day).
pub const DEADLINE_MAX_SECS: f64 = 86_400.0;

/// Reads a `--deadline`: a finite number of seconds from [`DEADLINE_MIN_SECS`] to
/// [`DEADLINE_MAX_SECS`], as [`parse_timeout`] reads its range.
pub fn parse_deadline(text: &str) -> Result<std::time::Duration, String> {
    parse_seconds("--deadline", DEADLINE_MIN_SECS, DEADLINE_MAX_SECS, text)
}

fn parse_seconds(
    flag: &str,
    min: f64,
    max: f64,
    text: &str,
) -> Result<std::time::Duration, String> {
    let range = format!("{flag} takes a number of seconds from {min} to {max}");
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{range}, got {}", crate::quote::prefix(text)))?;
    if !(secs.is_finite() && (min..=max).contains(&secs)) {
        return Err(format!("{range}, got {}", crate::quote::prefix(text)));
    }
    std::time::Duration::try_from_secs_f64(secs)
        .map_err(|err| format!("{range}, got {}: {err}", crate::quote::prefix(text)))
}

pub use crate::process::{AdapterProcess, IN_FLIGHT, shorten};

/// An adapter process shared by the subjects of one run.
pub type Shared = Arc<Mutex<AdapterProcess>>;

fn call<T: for<'de> Deserialize<'de>>(
    process: &Shared,
    protocol: &str,
    op: &impl Serialize,
) -> Answer<T> {
    let mut guard = process
        .lock()
        .map_err(|_| SubjectError::Broken("adapter lock poisoned".into()))?;
    let answer = guard.request(protocol, op);
    result(answer, op)
}

/// The typed result of an answer to `op`.
fn result<T: for<'de> Deserialize<'de>>(answer: Answer<Value>, op: &impl Serialize) -> Answer<T> {
    let value = answer?;
    // Read from the tree in place: a copy of it would cost as much as the reading.
    T::deserialize(&value).map_err(|err| {
        SubjectError::Broken(format!(
            "unexpected result shape for `{}`: {err}; the result was: {}",
            serde_json::to_value(op)
                .ok()
                .and_then(|v| v.get("op").cloned())
                .unwrap_or_default(),
            shorten(&value.to_string())
        ))
    })
}

/// The parameters as the wire spells them.
fn wire(p: &RawParams) -> DocParams {
    DocParams {
        m: p.m,
        k: p.k,
        seed_hex: Hex(p.seed.clone()),
    }
}

fn build_op(p: &RawParams, records: &[Vec<u8>]) -> DocOp {
    DocOp::Build {
        params: wire(p),
        records: hex_list(records),
    }
}

/// `lookup` for one item, `lookup_many` for any other number.
fn lookup_op(p: &RawParams, records: &[Vec<u8>], items: &[Vec<u8>]) -> DocOp {
    if let [item] = items {
        return DocOp::Lookup {
            params: wire(p),
            records: hex_list(records),
            item: Hex(item.clone()),
        };
    }
    DocOp::LookupMany {
        params: wire(p),
        records: hex_list(records),
        items: hex_list(items),
    }
}

fn built(answer: Answer<Value>, op: &DocOp) -> Answer<Built> {
    result(answer, op)
}

fn looked_up(answer: Answer<Value>, op: &DocOp) -> Answer<Vec<Triple>> {
    if matches!(op, DocOp::Lookup { .. }) {
        return Ok(vec![result(answer, op)?]);
    }
    let r: TriplesResult = result(answer, op)?;
    Ok(r.results)
}

/// The wire operation of one batched call.
fn doc_call_op(call: &DocCall) -> DocOp {
    match call {
        DocCall::Positions { params, item } => DocOp::Positions {
            params: wire(params),
            item: Hex(item.clone()),
        },
        DocCall::Frame {
            params,
            index,
            item,
        } => DocOp::Frame {
            params: wire(params),
            index: *index,
            item: Hex(item.clone()),
        },
        DocCall::Build { params, records } => build_op(params, records),
        DocCall::LookupMany {
            params,
            records,
            items,
        } => DocOp::LookupMany {
            params: wire(params),
            records: hex_list(records),
            items: hex_list(items),
        },
        DocCall::Read {
            params,
            records,
            packed_bits,
            items,
        } => DocOp::Read {
            params: wire(params),
            packed_hex: Hex(packed_bits.clone()),
            records: hex_list(records),
            items: hex_list(items),
        },
        DocCall::Typed(call) => DocOp::Typed(call.clone()),
    }
}

/// Sends `ops` pipelined ([`AdapterProcess::requests`]) and reads each answer with
/// `read`, in order.
fn pipelined<T: Serialize, R>(
    process: &Shared,
    protocol: &str,
    ops: &[T],
    mut read: impl FnMut(&T, Answer<Value>) -> Answer<R>,
) -> Vec<Answer<R>> {
    let Ok(mut guard) = process.lock() else {
        return ops
            .iter()
            .map(|_| Err(SubjectError::Broken("adapter lock poisoned".into())))
            .collect();
    };
    let mut index = 0;
    guard.requests(protocol, ops, |answer| {
        let read = match ops.get(index) {
            Some(op) => read(op, answer),
            None => Err(SubjectError::Broken("an answer without a request".into())),
        };
        index += 1;
        read
    })
}

/// A `doc-membership-v1` subject behind an adapter.
pub struct AdapterDoc(pub Shared);

/// A `fnv1a-utf16-v1` subject behind an adapter.
pub struct AdapterFnv(pub Shared);

fn hex_list(list: &[Vec<u8>]) -> Vec<Hex> {
    list.iter().map(|b| Hex(b.clone())).collect()
}

impl DocSubject for AdapterDoc {
    fn name(&self) -> String {
        self.0
            .lock()
            .map(|p| format!("adapter `{}`", p.command()))
            .unwrap_or_default()
    }

    fn adapter(&self) -> Option<(String, std::time::Duration)> {
        self.0
            .lock()
            .ok()
            .map(|p| (p.command().to_string(), p.timeout()))
    }

    fn started(&self) -> Option<bloomproof_wire::adapter::Started> {
        self.0.lock().ok()?.started().cloned()
    }

    fn between_checks(&mut self) -> Between {
        match self.0.lock() {
            Ok(mut process) => process.between_checks(),
            Err(_) => Between::Stop("adapter lock poisoned".into()),
        }
    }

    fn closing_diagnosis(&mut self) -> Option<String> {
        self.0.lock().ok()?.closing_diagnosis()
    }

    fn sha256(&mut self, data: &[u8]) -> Answer<Vec<u8>> {
        let r: DigestResult = call(
            &self.0,
            DOC,
            &DocOp::Sha256 {
                data: Hex(data.to_vec()),
            },
        )?;
        Ok(r.digest.0)
    }

    fn frame(&mut self, p: &RawParams, index: u8, item: &[u8]) -> Answer<Framed> {
        let op = DocOp::Frame {
            params: wire(p),
            index,
            item: Hex(item.to_vec()),
        };
        call(&self.0, DOC, &op)
    }

    fn positions(&mut self, p: &RawParams, item: &[u8]) -> Answer<Vec<u16>> {
        let op = DocOp::Positions {
            params: wire(p),
            item: Hex(item.to_vec()),
        };
        let r: PositionsResult = call(&self.0, DOC, &op)?;
        Ok(r.positions)
    }

    fn build(&mut self, p: &RawParams, records: &[Vec<u8>]) -> Answer<Built> {
        let op = build_op(p, records);
        built(call(&self.0, DOC, &op), &op)
    }

    fn lookup(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let op = lookup_op(p, records, items);
        looked_up(call(&self.0, DOC, &op), &op)
    }

    fn build_and_lookup_each(
        &mut self,
        p: &RawParams,
        snapshots: &[Vec<Vec<u8>>],
        items: &[Vec<u8>],
    ) -> Vec<(Answer<Built>, Answer<Vec<Triple>>)> {
        let ops: Vec<DocOp> = snapshots
            .iter()
            .flat_map(|records| [build_op(p, records), lookup_op(p, records, items)])
            .collect();
        let mut guard = match self.0.lock() {
            Ok(guard) => guard,
            Err(_) => {
                let poisoned = || SubjectError::Broken("adapter lock poisoned".into());
                return snapshots
                    .iter()
                    .map(|_| (Err(poisoned()), Err(poisoned())))
                    .collect();
            }
        };
        let mut builds = Vec::with_capacity(snapshots.len());
        let mut lookups = Vec::with_capacity(snapshots.len());
        let mut index = 0;
        guard.requests(DOC, &ops, |answer| {
            if let Some(op) = ops.get(index) {
                if index % 2 == 0 {
                    builds.push(built(answer, op));
                } else {
                    lookups.push(looked_up(answer, op));
                }
            }
            index += 1;
        });
        builds.into_iter().zip(lookups).collect()
    }

    fn batch(&mut self, calls: &[DocCall]) -> Vec<Answer<DocReply>> {
        let ops: Vec<DocOp> = calls.iter().map(doc_call_op).collect();
        pipelined(&self.0, DOC, &ops, |op, answer| {
            Ok(match op {
                DocOp::Positions { .. } => {
                    DocReply::Positions(result::<PositionsResult>(answer, op)?.positions)
                }
                DocOp::Frame { .. } => DocReply::Framed(result(answer, op)?),
                DocOp::Build { .. } => DocReply::Built(built(answer, op)?),
                DocOp::Typed(_) => DocReply::Typed(result::<TypedResult>(answer, op)?.lookup),
                _ => DocReply::Triples(result::<TriplesResult>(answer, op)?.results),
            })
        })
    }

    fn typed(&mut self, args: &TypedCall) -> Answer<Option<Triple>> {
        let op = DocOp::Typed(args.clone());
        let r: TypedResult = call(&self.0, DOC, &op)?;
        Ok(r.lookup)
    }

    fn read(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        packed_bits: &[u8],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let op = DocOp::Read {
            params: wire(p),
            packed_hex: Hex(packed_bits.to_vec()),
            records: hex_list(records),
            items: hex_list(items),
        };
        let r: TriplesResult = call(&self.0, DOC, &op)?;
        Ok(r.results)
    }

    fn mutate(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        other: (&RawParams, &[Vec<u8>]),
        attempt: MutationAttempt,
        probes: &[Vec<u8>],
    ) -> Answer<Mutation> {
        let op = DocOp::Mutate {
            params: wire(p),
            records: hex_list(records),
            other: OtherSnapshot {
                params: wire(other.0),
                records: hex_list(other.1),
            },
            attempt,
            probes: hex_list(probes),
        };
        let r: MutateResult = call(&self.0, DOC, &op)?;
        Ok(Mutation {
            outcome: r.outcome.as_str().to_string(),
            detail: r.detail,
            observed: Observation {
                m: r.params.m,
                k: r.params.k,
                seed: r.params.seed_hex.0,
                packed_bits: r.packed_hex.0,
                documents: r.documents,
                lookups: r.lookups,
            },
        })
    }
}

impl FnvSubject for AdapterFnv {
    fn name(&self) -> String {
        self.0
            .lock()
            .map(|p| format!("adapter `{}`", p.command()))
            .unwrap_or_default()
    }

    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        let op = FnvOp::Positions {
            m,
            k,
            units: units.to_vec(),
        };
        call(&self.0, FNV, &op)
    }

    fn session(&mut self, script: &[ScriptOp]) -> Answer<ScriptAnswer> {
        let op = FnvOp::Session {
            script: script.to_vec(),
        };
        call(&self.0, FNV, &op)
    }

    fn batch(&mut self, calls: &[FnvCall]) -> Vec<Answer<FnvReply>> {
        let ops: Vec<FnvOp> = calls
            .iter()
            .map(|call| match call {
                FnvCall::Positions { m, k, units } => FnvOp::Positions {
                    m: *m,
                    k: *k,
                    units: units.clone(),
                },
                FnvCall::Estimates { m, k, n } => FnvOp::Estimates {
                    m: *m,
                    k: *k,
                    n: *n,
                },
                FnvCall::Session { script } => FnvOp::Session {
                    script: script.clone(),
                },
            })
            .collect();
        pipelined(&self.0, FNV, &ops, |op, answer| {
            Ok(match op {
                FnvOp::Positions { .. } => FnvReply::Hashes(result(answer, op)?),
                FnvOp::Estimates { .. } => FnvReply::Estimates(result(answer, op)?),
                _ => FnvReply::Script(result(answer, op)?),
            })
        })
    }

    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        call(&self.0, FNV, &FnvOp::Estimates { m, k, n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timeouts_are_finite_seconds_in_range() {
        assert_eq!(parse_timeout("20"), Ok(Duration::from_secs(20)));
        assert_eq!(parse_timeout("0.1"), Ok(Duration::from_millis(100)));
        assert_eq!(parse_timeout("3600"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_timeout(" 1e1 "), Ok(Duration::from_secs(10)));
        for bad in [
            "-1", "NaN", "inf", "-inf", "1e300", "0", "0.09", "3600.5", "20s", "",
        ] {
            let err = parse_timeout(bad).err().unwrap_or_default();
            assert_eq!(
                err,
                format!("--timeout takes a number of seconds from 0.1 to 3600, got {bad:?}")
            );
        }
        let long = "9".repeat(10_000);
        assert!(parse_timeout(&long).err().unwrap_or_default().len() < 200);
    }
}
