//! The adapter protocol's own checks (`spec/adapter-protocol.json`, reported as
//! `adapter-protocol/<check>`): lines no request may hold, a blank line, the script
//! and response size limits, malformed ids. Each case writes its line and, behind it,
//! one well-formed request of a protocol the adapter lists (`sha256` of no
//! bytes, or fnv `positions` for an adapter that lists only `fnv1a-utf16-v1`) that must
//! be answered as usual, then compares what came back for the line with its `expect`.
//! Only the cases of the protocols the handshake lists run (and those of no protocol,
//! [`case_protocol`]).
//!
//! The cases run on as few processes as they need (spec/ADAPTER.md, "The adapter
//! protocol's own checks"): a case whose line is not text ([`fresh`]) gets a process of
//! its own; every other case runs on one shared process of the adapter command, one
//! after another, which is started again only when a case left it dead (a crash, a
//! timeout, a malformed or oversized answer), so a crash costs one start and is blamed
//! on the case that caused it. A shared process that cannot be started (again) is not
//! tried once more: the cases left fail at once, saying why.

use crate::adapter::{AdapterProcess, LineAnswer};
use crate::fail_fast::FailFast;
use crate::report::{CheckOutcome, Failure};
use crate::subject::Answer;
use bloomproof_wire::Hex;
use bloomproof_wire::adapter_checks::{WireCase, WireExpect, WireFile, WireSend};
use bloomproof_wire::protocols::doc_membership_v1::DocOp;
use bloomproof_wire::protocols::fnv1a_utf16_v1::FnvOp;
use bloomproof_wire::spec::DocumentedCheck;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The file's name in the spec folder.
pub const FILE: &str = "adapter-protocol.json";

/// The group name reports give these checks, in the place of a protocol.
pub const GROUP: &str = bloomproof_wire::report::ADAPTER_GROUP;

/// SHA-256 of no bytes: the answer to the request sent after every case.
const EMPTY_SHA256: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// The first id of the runner's own requests on a process of these checks: above
/// every id a case's line holds (all below 100), so that the answer to the request
/// written behind a line is never taken for the line's own.
pub const FIRST_REQUEST_ID: u64 = 1000;

/// Why a case needs a process of its own (`None`: it runs on the shared one).
///
/// A line that is not UTF-8 is not text: an adapter's decoder may keep or drop bytes
/// around it (Python's text-mode standard input raises on the whole chunk it read,
/// losing the lines that came with it), so what such a line leaves behind is not
/// the state a later case expects. Every other line is text a line reader reads
/// whole; what it does to the adapter shows in its answer and in the answer to the
/// request written behind it.
pub fn fresh(case: &WireCase) -> Option<&'static str> {
    match case.send {
        WireSend::LineHex(_) => Some("its line is not UTF-8"),
        WireSend::Line(_) | WireSend::Session { .. } | WireSend::LookupMany { .. } => None,
    }
}

/// The protocol a case's request is of: a `session` script is `fnv1a-utf16-v1`'s, a
/// `lookup_many` `doc-membership-v1`'s, a line the protocol it names when that is one
/// this runner knows; `None` for a line of no known protocol (bytes that are not
/// UTF-8, a line that is not an object, a blank line, an unknown protocol), which any
/// adapter must handle whatever it implements.
pub fn case_protocol(case: &WireCase) -> Option<&'static str> {
    match &case.send {
        WireSend::Session { .. } => Some(crate::subjects::fnv1a_utf16_v1::NAME),
        WireSend::LookupMany { .. } => Some(crate::subjects::doc_membership_v1::NAME),
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

/// The checks whose full name contains `filter` (all when `None`) and that have a case
/// running on an adapter listing `listed`, and those cases, in file order, each with
/// the index of its check in `checks`.
fn select<'w>(
    wire: &'w WireFile,
    filter: Option<&str>,
    listed: &[String],
) -> (Vec<&'w DocumentedCheck>, Vec<(usize, &'w WireCase)>) {
    let checks: Vec<_> = selected(wire, filter)
        .into_iter()
        .filter(|check| {
            wire.cases
                .iter()
                .any(|c| c.check == check.name && runs_on(case_protocol(c), listed))
        })
        .collect();
    let cases = checks
        .iter()
        .enumerate()
        .flat_map(|(index, check)| {
            wire.cases
                .iter()
                .filter(move |c| c.check == check.name && runs_on(case_protocol(c), listed))
                .map(move |c| (index, c))
        })
        .collect();
    (checks, cases)
}

/// The number of checks of `wire` whose full name contains `filter` (all when `None`)
/// that [`run_listed`] runs on an adapter whose handshake lists `listed`.
pub fn listed_checks(wire: &WireFile, filter: Option<&str>, listed: &[String]) -> usize {
    select(wire, filter, listed).0.len()
}

/// What running the cases took: adapter processes started, and how many of them were
/// started again after a case left the shared one dead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Starts {
    /// Every process started (the shared one, its restarts, one per [`fresh`] case).
    pub processes: usize,
    /// The shared process started again after a case left it dead.
    pub restarts: usize,
}

/// Runs every check of `wire` whose full name contains `filter` (all when `None`)
/// against `command`, `timeout` per request; the outcomes in file order.
pub fn run(
    wire: &WireFile,
    command: &str,
    timeout: Duration,
    filter: Option<&str>,
) -> Vec<CheckOutcome> {
    run_counted(wire, command, timeout, filter).0
}

/// [`run`], and the processes it started.
pub fn run_counted(
    wire: &WireFile,
    command: &str,
    timeout: Duration,
    filter: Option<&str>,
) -> (Vec<CheckOutcome>, Starts) {
    let every: Vec<String> = crate::PROTOCOLS.iter().map(ToString::to_string).collect();
    let (outcomes, starts, _) = run_listed(wire, command, timeout, filter, &every, None);
    (outcomes, starts)
}

/// [`run`] on an adapter whose handshake lists the protocols `listed`: only the cases
/// of those protocols run (and those of no protocol, [`case_protocol`]), the request
/// after each case is one of a listed protocol (the probe), and a check left without a
/// case is not in the outcomes ([`unlisted_checks`] counts them). With `fail_fast`
/// (`--fail-fast`, [`crate::load::Spec::fail_fast`], with the ids of the cases that draw
/// generated inputs) the run stops after the first check whose failure stops
/// it ([`FailFast::stops`]), every case of it run: the outcomes end with that check.
///
/// The cases that share a process run on one thread, one after another; the
/// [`fresh`] ones on a second thread beside them when there is a second core. A
/// check's time is wall clock time, from the start of its first case to the end of
/// its last (a sum of its cases' times, which may run side by side, made a check
/// slower than the whole run), and it is marked crashed when one of its cases left
/// its process dead. Under `fail_fast` the check a case of which fails so that the run
/// stops runs to its end, and no case of a later check runs on either thread (none
/// that did is kept): the outcomes are a single thread's. Besides the outcomes: the
/// processes started, and the number of checks not run after the one that stopped it.
pub fn run_listed(
    wire: &WireFile,
    command: &str,
    timeout: Duration,
    filter: Option<&str>,
    listed: &[String],
    fail_fast: Option<(&FailFast, &BTreeSet<String>)>,
) -> (Vec<CheckOutcome>, Starts, usize) {
    let probe = Probe::for_listed(listed);
    let (checks, cases) = select(wire, filter, listed);
    // The index (into `checks`) of the first check a case of which failed so that
    // `fail_fast` stops: its other cases still run, no case of a later check does.
    let first_failed = AtomicUsize::new(usize::MAX);
    let after_failure = |check: usize| check > first_failed.load(Ordering::Relaxed);
    // A case's result kept in `done`, a failure that stops the run noted.
    let record = |done: &mut Vec<Ran>,
                  (index, check): (usize, usize),
                  failures: Vec<Failure>,
                  crashed: bool,
                  started: Instant| {
        let class = checks.get(check).map(|c| c.class).unwrap_or_default();
        if fail_fast.is_some_and(|(f, drawn)| f.stops(class, &failures, |id| drawn.contains(id))) {
            first_failed.fetch_min(check, Ordering::Relaxed);
        }
        done.push((index, check, failures, crashed, (started, Instant::now())));
    };
    // The cases before a stop.
    let before_stop = |&&(_, &(check, _)): &&(usize, &(usize, &WireCase))| !after_failure(check);
    let (own, shared): (Vec<_>, Vec<_>) = cases
        .iter()
        .enumerate()
        .partition(|(_, (_, case))| fresh(case).is_some());
    let on_shared = || {
        let mut process: Option<AdapterProcess> = None;
        // Why the shared process could not be started: it is not tried again, the
        // cases left fail at once with the reason.
        let mut unstartable: Option<String> = None;
        let mut starts = Starts::default();
        let mut done = Vec::new();
        for &(index, &(check, case)) in shared.iter().take_while(before_stop) {
            let started = Instant::now();
            if unstartable.is_none() {
                if process.as_ref().is_some_and(|p| p.dead().is_some()) {
                    process = None;
                    starts.restarts += 1;
                }
                if process.is_none() {
                    starts.processes += 1;
                    match start(command, timeout) {
                        Ok(fresh) => process = Some(fresh),
                        Err(why) => unstartable = Some(why),
                    }
                }
            }
            if let Some(why) = &unstartable {
                let failures = start_failed(case, why.clone());
                record(&mut done, (index, check), failures, false, started);
                continue;
            }
            let Some(running) = process.as_mut() else {
                continue;
            };
            let failures = run_case(case, running, probe);
            let crashed = running.dead().is_some();
            record(&mut done, (index, check), failures, crashed, started);
        }
        (done, starts)
    };
    let on_own = || {
        let mut starts = Starts::default();
        let mut done = Vec::new();
        for &(index, &(check, case)) in own.iter().take_while(before_stop) {
            let started = Instant::now();
            starts.processes += 1;
            let (failures, crashed) = match start(command, timeout) {
                Ok(mut process) => {
                    let failures = run_case(case, &mut process, probe);
                    (failures, process.dead().is_some())
                }
                Err(why) => (start_failed(case, why), false),
            };
            record(&mut done, (index, check), failures, crashed, started);
        }
        (done, starts)
    };
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let ((mut results, a), (more, b)) = if cores > 1 && !own.is_empty() && !shared.is_empty() {
        std::thread::scope(|scope| {
            let beside = scope.spawn(on_own);
            let shared = on_shared();
            match beside.join() {
                Ok(own) => (shared, own),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    } else {
        (on_shared(), on_own())
    };
    results.extend(more);
    let starts = Starts {
        processes: a.processes + b.processes,
        restarts: a.restarts + b.restarts,
    };
    // Back in file order, without the checks after one `fail_fast` stops at.
    let first_failed = first_failed.into_inner();
    results.retain(|(_, check, ..)| *check <= first_failed);
    results.sort_by_key(|(index, ..)| *index);
    let ran = first_failed.saturating_add(1).min(checks.len());
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
    let mut spans: Vec<Option<(Instant, Instant)>> = vec![None; outcomes.len()];
    for (_, check, failures, crashed, (start, end)) in results {
        if let Some(outcome) = outcomes.get_mut(check) {
            outcome.cases += 1;
            outcome.crashed |= crashed;
            outcome.add_failures(failures);
        }
        if let Some(span) = spans.get_mut(check) {
            *span = Some(match *span {
                None => (start, end),
                Some((first, last)) => (first.min(start), last.max(end)),
            });
        }
    }
    for (outcome, span) in outcomes.iter_mut().zip(spans) {
        if let Some((first, last)) = span {
            outcome.elapsed_ms = Some((last - first).as_secs_f64() * 1e3);
        }
    }
    let not_run = outcomes.len() - ran;
    outcomes.truncate(ran);
    (outcomes, starts, not_run)
}

/// One case run: its index, its check's, its failures, whether its process ended
/// during it, and when it started and ended.
type Ran = (usize, usize, Vec<Failure>, bool, (Instant, Instant));

/// Starts a process of `command` for these checks: its request ids from
/// [`FIRST_REQUEST_ID`].
fn start(command: &str, timeout: Duration) -> Result<AdapterProcess, String> {
    let mut process = AdapterProcess::start(command, timeout)?;
    process.skip_ids_to(FIRST_REQUEST_ID);
    Ok(process)
}

/// A case's failure when its process could not be started.
fn start_failed(case: &WireCase, why: String) -> Vec<Failure> {
    vec![failure(case, "start the adapter", "running".into(), why)]
}

/// A failure of `case`.
fn failure(case: &WireCase, what: &str, expected: String, actual: String) -> Failure {
    Failure {
        case: case.id.clone(),
        what: what.to_string(),
        input: serde_json::to_value(&case.send).unwrap_or(Value::Null),
        expected,
        // A response quoted in a failure is bounded like every other (client::shorten).
        actual: crate::adapter::shorten(&actual),
    }
}

/// The bytes of the line a case sends, without its newline.
pub fn line(send: &WireSend) -> Vec<u8> {
    match send {
        WireSend::Line(text) => text.clone().into_bytes(),
        WireSend::LineHex(hex) => hex.0.clone(),
        WireSend::Session { id, steps } => json!({
            "id": id, "protocol": crate::subjects::fnv1a_utf16_v1::NAME, "op": "session",
            "script": vec![json!({"op": "reset"}); *steps],
        })
        .to_string()
        .into_bytes(),
        WireSend::LookupMany { id, items } => json!({
            "id": id, "protocol": crate::subjects::doc_membership_v1::NAME, "op": "lookup_many",
            "params": {"m": 8, "k": 1, "seed_hex": ""}, "records": [],
            "items": vec![""; *items],
        })
        .to_string()
        .into_bytes(),
    }
}

/// The well-formed request written behind every case, of a protocol the adapter lists.
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
        let lists = |name: &str| listed.iter().any(|p| p == name);
        if !lists(crate::subjects::doc_membership_v1::NAME)
            && lists(crate::subjects::fnv1a_utf16_v1::NAME)
        {
            Probe::FnvPositions
        } else {
            Probe::DocSha256
        }
    }

    /// Writes `bytes` as one line and the probe behind it: what came back for each.
    fn behind(self, bytes: &[u8], process: &mut AdapterProcess) -> (LineAnswer, Answer<Value>) {
        match self {
            Probe::DocSha256 => process.raw_then_request(
                bytes,
                crate::subjects::doc_membership_v1::NAME,
                &DocOp::Sha256 {
                    data: Hex(Vec::new()),
                },
            ),
            Probe::FnvPositions => process.raw_then_request(
                bytes,
                crate::subjects::fnv1a_utf16_v1::NAME,
                &FnvOp::Positions {
                    m: 8,
                    k: 1,
                    units: vec![97],
                },
            ),
        }
    }

    /// What the probe asks, the key of its result compared, and the value expected.
    fn expects(self) -> (&'static str, &'static str, Value) {
        match self {
            Probe::DocSha256 => (
                "the next request (sha256 of no bytes) is answered as usual",
                "digest",
                Value::String(EMPTY_SHA256.into()),
            ),
            Probe::FnvPositions => (
                "the next request (fnv1a-utf16-v1 positions of \"a\", m 8, k 1) is answered as usual",
                "positions",
                json!([4]),
            ),
        }
    }
}

/// Runs `case` on `process`: its line and the probe request behind it, written
/// together; what came back for each, judged.
fn run_case(case: &WireCase, process: &mut AdapterProcess, probe: Probe) -> Vec<Failure> {
    let (response, answer) = probe.behind(&line(&case.send), process);
    let mut failures = Vec::new();
    match response {
        Err(err) => failures.push(failure(
            case,
            "the response",
            expected(&case.expect),
            err.to_string(),
        )),
        Ok(response) => {
            let why = match &case.expect {
                WireExpect::EchoedOrRefused => echoed_or_refused(
                    &line(&case.send),
                    response.as_ref().map(|(_, t)| t.as_str()),
                ),
                expect => judge(expect, response.as_ref().map(|(value, _)| value)),
            };
            if let Some(why) = why {
                let actual = response
                    .map_or_else(|| "no response".to_string(), |(value, _)| value.to_string());
                failures.push(failure(case, &why, expected(&case.expect), actual));
            }
        }
    }
    let (what, key, want) = probe.expects();
    let answer = answer.map(|result| result.get(key).cloned().unwrap_or(Value::Null));
    let equal = match (&answer, &want) {
        (Ok(Value::String(got)), Value::String(want)) => got.eq_ignore_ascii_case(want),
        (Ok(got), want) => got == want,
        (Err(_), _) => false,
    };
    if !equal {
        failures.push(failure(
            case,
            what,
            format!("{{\"{key}\":{want}}}"),
            match answer {
                Ok(value) => format!("{{\"{key}\":{value}}}"),
                Err(err) => err.to_string(),
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
        WireExpect::EchoedOrRefused => "a result with the request's id, digit for digit, or {\"id\":null,\"error\":{\"kind\":\"bad_request\",...}}".into(),
        WireExpect::Holds { id, result } => {
            format!("{{\"id\":{id},\"result\":{result} (these keys, others free)}}")
        }
        WireExpect::ResultOrRefused { id } => format!(
            "{{\"id\":{id},\"result\":{{...}}}} or {{\"id\":{id},\"error\":{{\"kind\":\"bad_request\",...}}}}"
        ),
    }
}

/// The text of the `id` member of the JSON object `text`, as written (`None`: no
/// such member, or not an object).
fn id_text(text: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Id<'a> {
        #[serde(borrow)]
        id: Option<&'a serde_json::value::RawValue>,
    }
    let id: Id<'_> = serde_json::from_slice(text).ok()?;
    id.id.map(|raw| raw.get().to_string())
}

/// What is wrong with `response` to `request` for [`WireExpect::EchoedOrRefused`]
/// (`None`: nothing): its id is compared as text, since two integers past 2^64 can
/// read as one float.
fn echoed_or_refused(request: &[u8], response: Option<&str>) -> Option<String> {
    let Some(response) = response else {
        return Some("no response".into());
    };
    let Ok(value) = serde_json::from_str::<Value>(response) else {
        return Some("the response is not JSON".into());
    };
    if value.get("error").is_some() {
        return judge(
            &WireExpect::Error {
                kind: "bad_request".into(),
                id: Value::Null,
                field: None,
            },
            Some(&value),
        );
    }
    let want = id_text(request);
    if want.is_none() || id_text(response.as_bytes()) != want {
        return Some("the response's id (its digits must be the request's)".into());
    }
    judge(
        &WireExpect::Result {
            id: value["id"].clone(),
        },
        Some(&value),
    )
}

/// What is wrong with `response` (`None`: nothing).
pub(crate) fn judge(expect: &WireExpect, response: Option<&Value>) -> Option<String> {
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
        WireExpect::Holds { id, result } => {
            if object.get("id") != Some(id) {
                return Some("the response's id".into());
            }
            return match object.get("result") {
                Some(got) if holds(got, result) => None,
                Some(_) => Some("the result (the canonical request's answer)".into()),
                None => Some("a result response (and no error)".into()),
            };
        }
        WireExpect::ResultOrRefused { id } => {
            if object.get("id") != Some(id) {
                return Some("the response's id".into());
            }
            let refused = object
                .get("error")
                .and_then(|e| e.get("kind"))
                .and_then(Value::as_str)
                == Some("bad_request");
            return match (object.get("result"), refused) {
                (Some(_), false) | (None, true) => None,
                _ => Some("a result, or a bad_request error".into()),
            };
        }
        WireExpect::NoAnswer | WireExpect::EchoedOrRefused => return None,
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

/// Whether `got` holds `want`: every key of an object of `want` in `got`'s, holding its
/// value; arrays element by element with the same length; anything else equal (a
/// string of hex digits equal in either case).
fn holds(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(got), Value::Object(want)) => want
            .iter()
            .all(|(key, value)| got.get(key).is_some_and(|g| holds(g, value))),
        (Value::Array(got), Value::Array(want)) => {
            got.len() == want.len() && got.iter().zip(want).all(|(g, w)| holds(g, w))
        }
        (Value::String(got), Value::String(want)) => {
            got.eq_ignore_ascii_case(want)
                && (got == want || want.bytes().all(|b| b.is_ascii_hexdigit()))
        }
        (got, want) => got == want,
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

    /// A result that must hold values: each key given, recursively, arrays of the same
    /// length, hex in either case; a result or a refusal with the request's id.
    #[test]
    fn judging_what_a_result_holds() {
        let want = WireExpect::Holds {
            id: json!("s"),
            result: json!({"digest": "aB", "steps": [{}, {"drafts": {"q": "x\u{e9}"}}]}),
        };
        let got = |digest: &str, q: &str, id: Value| {
            json!({"id": id, "result": {"digest": digest, "more": 1,
                "steps": [{"a": 1}, {"drafts": {"q": q, "m": ""}}]}})
        };
        assert_eq!(judge(&want, Some(&got("Ab", "x\u{e9}", json!("s")))), None);
        assert!(judge(&want, Some(&got("Ab", "X\u{e9}", json!("s")))).is_some());
        assert!(judge(&want, Some(&got("ac", "x\u{e9}", json!("s")))).is_some());
        assert!(judge(&want, Some(&got("Ab", "x\u{e9}", json!(1)))).is_some());
        let short = json!({"id": "s", "result": {"digest": "ab", "steps": [{}]}});
        assert!(judge(&want, Some(&short)).is_some());
        let either = WireExpect::ResultOrRefused { id: json!(7) };
        assert_eq!(judge(&either, Some(&json!({"id": 7, "result": {}}))), None);
        let refused = json!({"id": 7, "error": {"kind": "bad_request", "message": "x"}});
        assert_eq!(judge(&either, Some(&refused)), None);
        let value = json!({"id": 7, "error": {"kind": "value", "message": "x"}});
        assert!(judge(&either, Some(&value)).is_some());
        assert!(judge(&either, Some(&json!({"id": null, "result": {}}))).is_some());
    }

    #[test]
    fn an_id_is_judged_on_its_digits() {
        let request = br#"{"id":18446744073709551616,"op":"sha256","data":""}"#;
        let answer = |id: &str| format!(r#"{{"id":{id},"result":{{"digest":""}}}}"#);
        assert_eq!(
            echoed_or_refused(request, Some(&answer("18446744073709551616"))),
            None
        );
        // As floats these two are one number: only the text tells them apart.
        assert_eq!(
            echoed_or_refused(request, Some(&answer("18446744073709552000"))).as_deref(),
            Some("the response's id (its digits must be the request's)")
        );
        let refused = r#"{"id":null,"error":{"kind":"bad_request","message":"no"}}"#;
        assert_eq!(echoed_or_refused(request, Some(refused)), None);
        let kept = r#"{"id":18446744073709551616,"error":{"kind":"bad_request","message":"no"}}"#;
        assert_eq!(
            echoed_or_refused(request, Some(kept)).as_deref(),
            Some("the response's id")
        );
        assert_eq!(
            echoed_or_refused(request, None).as_deref(),
            Some("no response")
        );
    }
}
