//! The adapter protocol's own checks (`spec/adapter-protocol.json`, reported as
//! `adapter-protocol/<check>`): lines no request may hold, a blank line, the script
//! and response size limits, malformed ids. Each case runs on a fresh process of the
//! adapter command, so a case that ends or confuses the adapter fails alone: the case
//! sends its line, compares what comes back with its `expect`, then sends one
//! well-formed request (`sha256` of no bytes) that must be answered as usual.

use crate::adapter::AdapterProcess;
use crate::report::{CheckOutcome, Failure};
use bloomproof_wire::Hex;
use bloomproof_wire::adapter::{DocOp, FnvOp};
use bloomproof_wire::adapter_checks::{WireCase, WireExpect, WireFile, WireSend};
use bloomproof_wire::spec::DocumentedCheck;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The file's name in the spec folder.
pub const FILE: &str = "adapter-protocol.json";

/// The group name reports give these checks, in the place of a protocol.
pub const GROUP: &str = bloomproof_wire::report::ADAPTER_GROUP;

/// SHA-256 of no bytes: the answer to the request sent after every case.
const EMPTY_SHA256: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// Runs every check of `wire` whose full name contains `filter` (all when `None`)
/// against `command`, `timeout` per request; the outcomes in file order.
///
/// The cases are independent (each on a fresh process), so they run on every core
/// ([`std::thread::available_parallelism`]), each worker taking the next case not yet
/// taken; at most that many adapter processes run at once. A check's time is the sum
/// of its cases' times.
pub fn run(
    wire: &WireFile,
    command: &str,
    timeout: Duration,
    filter: Option<&str>,
) -> Vec<CheckOutcome> {
    let every: Vec<String> = crate::PROTOCOLS.iter().map(ToString::to_string).collect();
    run_listed(wire, command, timeout, filter, &every)
}

/// The protocol a case's request is of: a `session` script is `fnv1a-utf16-v1`'s, a
/// `lookup_many` `doc-membership-v1`'s, a line the protocol it names when that is one
/// this runner knows; `None` for a line of no known protocol (bytes that are not
/// UTF-8, a line that is not an object, a blank line, an unknown protocol), which any
/// adapter must handle whatever it implements.
pub fn case_protocol(case: &WireCase) -> Option<&'static str> {
    match &case.send {
        WireSend::Session { .. } => Some(crate::protocols::fnv1a_utf16_v1::NAME),
        WireSend::LookupMany { .. } => Some(crate::protocols::doc_membership_v1::NAME),
        WireSend::LineHex(_) => None,
        WireSend::Line(text) => {
            let value: Value = serde_json::from_str(text).ok()?;
            let named = value.get("protocol")?.as_str()?;
            crate::PROTOCOLS.iter().copied().find(|p| *p == named)
        }
    }
}

/// The checks of `wire` the filter selects whose every case is of a protocol `listed`
/// does not hold, so that none of them runs: (that protocol, how many checks).
pub fn unlisted_checks(
    wire: &WireFile,
    filter: Option<&str>,
    listed: &[String],
) -> Vec<(&'static str, usize)> {
    let mut unrun: Vec<(&'static str, usize)> = Vec::new();
    for check in selected(wire, filter) {
        let protocols: Vec<Option<&'static str>> = wire
            .cases
            .iter()
            .filter(|c| c.check == check.name)
            .map(case_protocol)
            .collect();
        if protocols.iter().any(|p| runs_on(*p, listed)) {
            continue;
        }
        if let Some(Some(protocol)) = protocols.first() {
            match unrun.iter_mut().find(|(p, _)| p == protocol) {
                Some((_, count)) => *count += 1,
                None => unrun.push((protocol, 1)),
            }
        }
    }
    unrun
}

/// Whether a case of `protocol` runs on an adapter whose handshake lists `listed`.
fn runs_on(protocol: Option<&str>, listed: &[String]) -> bool {
    protocol.is_none_or(|p| listed.iter().any(|l| l == p))
}

/// The checks of `wire` whose full name contains `filter` (all when `None`).
fn selected<'w>(wire: &'w WireFile, filter: Option<&str>) -> Vec<&'w DocumentedCheck> {
    wire.checks
        .iter()
        .filter(|check| filter.is_none_or(|f| format!("{GROUP}/{}", check.name).contains(f)))
        .collect()
}

/// [`run`] on an adapter whose handshake lists the protocols `listed`: only the cases
/// of those protocols run (and those of no protocol, [`case_protocol`]), the request
/// after each case is one of a listed protocol, and a check left without a case is not
/// in the outcomes ([`unlisted_checks`] counts them).
pub fn run_listed(
    wire: &WireFile,
    command: &str,
    timeout: Duration,
    filter: Option<&str>,
    listed: &[String],
) -> Vec<CheckOutcome> {
    let probe = Probe::for_listed(listed);
    let checks: Vec<_> = selected(wire, filter)
        .into_iter()
        .filter(|check| {
            wire.cases
                .iter()
                .any(|c| c.check == check.name && runs_on(case_protocol(c), listed))
        })
        .collect();
    let cases: Vec<(usize, &WireCase)> = checks
        .iter()
        .enumerate()
        .flat_map(|(index, check)| {
            wire.cases
                .iter()
                .filter(move |c| c.check == check.name && runs_on(case_protocol(c), listed))
                .map(move |c| (index, c))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(check, case)) = cases.get(index) else {
                break;
            };
            let started = Instant::now();
            let failures = run_case(case, command, timeout, probe);
            done.push((index, check, failures, started.elapsed()));
        }
        done
    };
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(cases.len())
        .max(1);
    let mut results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..workers).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for handle in handles {
            match handle.join() {
                Ok(done) => all.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    // Back in file order (each worker kept the cases it took).
    results.sort_by_key(|(index, ..)| *index);
    let mut outcomes: Vec<CheckOutcome> = checks
        .iter()
        .map(|check| CheckOutcome {
            protocol: GROUP.to_string(),
            name: check.name.clone(),
            class: check.class,
            cases: 0,
            inside_implementation: check.inside_implementation.clone(),
            failures: Vec::new(),
            more_failures: 0,
            crashed: false,
            elapsed_ms: Some(0.0),
        })
        .collect();
    for (_, check, failures, elapsed) in results {
        if let Some(outcome) = outcomes.get_mut(check) {
            outcome.cases += 1;
            outcome.add_failures(failures);
            if let Some(ms) = outcome.elapsed_ms.as_mut() {
                *ms += elapsed.as_secs_f64() * 1e3;
            }
        }
    }
    outcomes
}

/// The bytes of the line a case sends, without its newline.
pub fn line(send: &WireSend) -> Vec<u8> {
    match send {
        WireSend::Line(text) => text.clone().into_bytes(),
        WireSend::LineHex(hex) => hex.0.clone(),
        WireSend::Session { id, steps } => json!({
            "id": id, "protocol": crate::protocols::fnv1a_utf16_v1::NAME, "op": "session",
            "script": vec![json!({"op": "reset"}); *steps],
        })
        .to_string()
        .into_bytes(),
        WireSend::LookupMany { id, items } => json!({
            "id": id, "protocol": crate::protocols::doc_membership_v1::NAME, "op": "lookup_many",
            "params": {"m": 8, "k": 1, "seed_hex": ""}, "records": [],
            "items": vec![""; *items],
        })
        .to_string()
        .into_bytes(),
    }
}

/// The well-formed request sent after every case, of a protocol the adapter lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
    /// `doc-membership-v1` `sha256` of no bytes.
    DocSha256,
    /// `fnv1a-utf16-v1` `positions` of "a" at m 8, k 1: position 4 (PROTOCOL.md,
    /// FNV-EX-A-TO-H), for an adapter that does not list `doc-membership-v1`.
    FnvPositions,
}

impl Probe {
    fn for_listed(listed: &[String]) -> Self {
        let fnv_only = !listed
            .iter()
            .any(|p| p == crate::protocols::doc_membership_v1::NAME)
            && listed
                .iter()
                .any(|p| p == crate::protocols::fnv1a_utf16_v1::NAME);
        if fnv_only {
            Probe::FnvPositions
        } else {
            Probe::DocSha256
        }
    }

    /// What the probe asks, its answer's relevant part and the part expected.
    fn ask(self, process: &mut AdapterProcess) -> (&'static str, Result<Value, String>, Value) {
        match self {
            Probe::DocSha256 => (
                "the next request (sha256 of no bytes) is answered as usual",
                process
                    .request(
                        crate::protocols::doc_membership_v1::NAME,
                        &DocOp::Sha256 {
                            data: Hex(Vec::new()),
                        },
                    )
                    .map(|result| result.get("digest").cloned().unwrap_or(Value::Null))
                    .map_err(|err| err.to_string()),
                Value::String(EMPTY_SHA256.into()),
            ),
            Probe::FnvPositions => (
                "the next request (fnv1a-utf16-v1 positions of \"a\", m 8, k 1) is answered as usual",
                process
                    .request(
                        crate::protocols::fnv1a_utf16_v1::NAME,
                        &FnvOp::Positions {
                            m: 8,
                            k: 1,
                            units: vec![97],
                        },
                    )
                    .map(|result| result.get("positions").cloned().unwrap_or(Value::Null))
                    .map_err(|err| err.to_string()),
                json!([4]),
            ),
        }
    }
}

fn run_case(case: &WireCase, command: &str, timeout: Duration, probe: Probe) -> Vec<Failure> {
    let failure = |what: &str, expected: String, actual: String| Failure {
        case: case.id.clone(),
        what: what.to_string(),
        input: serde_json::to_value(&case.send).unwrap_or(Value::Null),
        expected,
        // A response quoted in a failure is bounded like every other (client::shorten).
        actual: crate::adapter::shorten(&actual),
    };
    let mut process = match AdapterProcess::start(command, timeout) {
        Ok(process) => process,
        Err(why) => return vec![failure("start the adapter", "running".into(), why)],
    };
    let answered = !matches!(case.expect, WireExpect::NoAnswer);
    let mut failures = Vec::new();
    match process.raw(&line(&case.send), answered) {
        Err(err) => failures.push(failure(
            "the response",
            expected(&case.expect),
            err.to_string(),
        )),
        Ok(response) => {
            if let Some(why) = judge(&case.expect, response.as_ref()) {
                let actual = response.map_or_else(|| "no response".to_string(), |r| r.to_string());
                failures.push(failure(&why, expected(&case.expect), actual));
            }
        }
    }
    let (what, answer, want) = probe.ask(&mut process);
    let key = match probe {
        Probe::DocSha256 => "digest",
        Probe::FnvPositions => "positions",
    };
    let equal = match (&answer, &want) {
        (Ok(Value::String(got)), Value::String(want)) => got.eq_ignore_ascii_case(want),
        (Ok(got), want) => got == want,
        (Err(_), _) => false,
    };
    if !equal {
        failures.push(failure(
            what,
            format!("{{\"{key}\":{want}}}"),
            match answer {
                Ok(value) => format!("{{\"{key}\":{value}}}"),
                Err(err) => err,
            },
        ));
    }
    failures
}

/// The expectation, as a failure prints it.
fn expected(expect: &WireExpect) -> String {
    match expect {
        WireExpect::NoAnswer => "no response".into(),
        WireExpect::Error { kind, id, field } => match field {
            Some(field) => format!(
                "{{\"id\":{id},\"error\":{{\"kind\":\"{kind}\",\"field\":\"{field}\",...}}}}"
            ),
            None => format!("{{\"id\":{id},\"error\":{{\"kind\":\"{kind}\",...}}}}"),
        },
        WireExpect::Result { id } => format!("{{\"id\":{id},\"result\":{{...}}}}"),
    }
}

/// What is wrong with `response` (`None`: nothing).
fn judge(expect: &WireExpect, response: Option<&Value>) -> Option<String> {
    let response = match (expect, response) {
        (WireExpect::NoAnswer, None) => return None,
        (WireExpect::NoAnswer, Some(_)) => {
            return Some("a response to a line that gets none".into());
        }
        (_, None) => return Some("no response".into()),
        (_, Some(response)) => response,
    };
    let Some(object) = response.as_object() else {
        return Some("the response is not a JSON object".into());
    };
    let (want_id, want_kind, want_field) = match expect {
        WireExpect::Error { kind, id, field } => (id, Some(kind), field.as_deref()),
        WireExpect::Result { id } => (id, None, None),
        WireExpect::NoAnswer => return None,
    };
    if object.get("id") != Some(want_id) {
        return Some("the response's id".into());
    }
    match (want_kind, object.get("result"), object.get("error")) {
        (Some(kind), None, Some(error)) => {
            if error.get("kind").and_then(Value::as_str) != Some(kind.as_str()) {
                Some("the error's kind".into())
            } else if want_field.is_some()
                && error.get("field").and_then(Value::as_str) != want_field
            {
                Some("the error's field".into())
            } else {
                None
            }
        }
        (None, Some(_), None) => None,
        (Some(_), _, _) => Some("an error response (and no result)".into()),
        (None, _, _) => Some("a result response (and no error)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_lines_have_the_counts_they_say() {
        let session = line(&WireSend::Session { id: 9, steps: 1025 });
        let value: Value = serde_json::from_slice(&session).unwrap_or_default();
        assert_eq!(value["script"].as_array().map(Vec::len), Some(1025));
        assert_eq!(value["id"], 9);
        let many = line(&WireSend::LookupMany {
            id: 3,
            items: 20000,
        });
        let value: Value = serde_json::from_slice(&many).unwrap_or_default();
        assert_eq!(value["items"].as_array().map(Vec::len), Some(20000));
        // the honest answer: 20000 triples of false, over 1 MiB
        let triple = r#"{"maybe_present":false,"exact_checked":false,"duplicate":false}"#;
        assert!(20000 * (triple.len() + 1) > 1 << 20);
        assert!(many.len() < 1 << 20);
    }

    #[test]
    fn judging_a_response() {
        let bad = WireExpect::Error {
            kind: "bad_request".into(),
            id: Value::Null,
            field: None,
        };
        let ok = json!({"id": null, "error": {"kind": "bad_request", "message": "x"}});
        assert_eq!(judge(&bad, Some(&ok)), None);
        let kept = json!({"id": 4, "error": {"kind": "bad_request", "message": "x"}});
        assert_eq!(
            judge(&bad, Some(&kept)).as_deref(),
            Some("the response's id")
        );
        let answered = json!({"id": null, "result": {"digest": EMPTY_SHA256}});
        assert!(judge(&bad, Some(&answered)).is_some());
        assert!(judge(&WireExpect::NoAnswer, Some(&ok)).is_some());
        assert_eq!(judge(&WireExpect::NoAnswer, None), None);
        assert!(
            judge(
                &WireExpect::Result { id: json!(9) },
                Some(&json!({"id": 9, "result": {}}))
            )
            .is_none()
        );
        let value_m = WireExpect::Error {
            kind: "value".into(),
            id: json!(3),
            field: Some("m".into()),
        };
        let wrong_field = json!({"id": 3, "error": {"kind": "value", "field": "k", "message": ""}});
        assert_eq!(
            judge(&value_m, Some(&wrong_field)).as_deref(),
            Some("the error's field")
        );
    }
}
