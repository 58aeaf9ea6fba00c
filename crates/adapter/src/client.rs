//! The runner's side of the adapter protocol (`spec/ADAPTER.md`): any implementation,
//! in any language, driven as a subprocess speaking JSON lines over stdin/stdout.
//!
//! One request per line: `{"id": 7, "protocol": "doc-membership-v1", "op": "positions",
//! "params": {"m": 16, "k": 3, "seed_hex": "6c6162"}, "item": "646f632d3034"}`. One
//! response per line, in order: `{"id": 7, "result": {"positions": [10, 4, 1]}}` or
//! `{"id": 7, "error": {"kind": "value", "field": "m", "message": "..."}}`.
//!
//! The request and result types are `bloomproof_wire`'s (`adapter` and each protocol's
//! own module), shared with the serving side (`bloomproof adapter`, in the `bloomproof`
//! crate): [`AdapterProcess`] runs the subprocess, shared by every protocol;
//! [`AdapterDoc`](crate::protocols::doc_membership_v1::AdapterDoc) and
//! [`AdapterFnv`](crate::protocols::fnv1a_utf16_v1::AdapterFnv) are the subjects built
//! on it (each protocol's own, `protocols/<protocol>/client.rs`).

use crate::subject::{Answer, SubjectError};
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

/// How a failure caused by the adapter's silence past `--timeout` begins its reason
/// ("no response within 20.0s to request #5 ..."): the gallery tells such a failure,
/// whose verdict depends on the machine's speed, from one that depends on the answers.
pub const NO_RESPONSE: &str = "no response within";

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

pub use crate::process::{AdapterProcess, IN_FLIGHT, LineAnswer, Reply, shorten};

/// An adapter process shared by the subjects of one run.
pub type Shared = Arc<Mutex<AdapterProcess>>;

/// The report's name of a subject behind the adapter `process`: its command.
pub(crate) fn name(process: &Shared) -> String {
    process
        .lock()
        .map(|p| format!("adapter `{}`", p.command()))
        .unwrap_or_default()
}

/// Sends `op` of `protocol` and reads its typed result.
pub(crate) fn call<T: for<'de> Deserialize<'de>>(
    process: &Shared,
    protocol: &str,
    op: &impl Serialize,
) -> Answer<T> {
    let mut guard = process
        .lock()
        .map_err(|_| SubjectError::Broken("adapter lock poisoned".into()))?;
    guard.request_typed(protocol, op)
}

/// The typed result of an answer to `op`, read as JSON ([`Reply::tree`]).
pub(crate) fn result<T: for<'de> Deserialize<'de>>(
    answer: Answer<Value>,
    op: &impl Serialize,
) -> Answer<T> {
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

/// Sends `ops` pipelined ([`AdapterProcess::requests`]) and reads each answer with
/// `read`, in order.
pub(crate) fn pipelined<T: Serialize, R>(
    process: &Shared,
    protocol: &str,
    ops: &[T],
    mut read: impl FnMut(&T, Reply<'_>) -> Answer<R>,
) -> Vec<Answer<R>> {
    let Ok(mut guard) = process.lock() else {
        return ops
            .iter()
            .map(|_| Err(SubjectError::Broken("adapter lock poisoned".into())))
            .collect();
    };
    let mut index = 0;
    guard.requests(protocol, ops, |reply| {
        let read = match ops.get(index) {
            Some(op) => read(op, reply),
            None => Err(SubjectError::Broken("an answer without a request".into())),
        };
        index += 1;
        read
    })
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
