//! The adapter protocol's own checks start as few adapter processes as they need: one
//! shared process for every case whose line is text, started again only after a case
//! left it dead, and one process for each case whose line is not UTF-8. Counted, not
//! timed: each start of the fake adapter below appends a line to a log, and the
//! expected counts are read off `spec/adapter-protocol.json` by hand-written rules,
//! not by the scheduler's own.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::adapter_checks::{Starts, line, run_counted};
use bloomproof_conformance::load;
use bloomproof_wire::adapter_checks::{WireFile, WireSend};
use std::path::Path;
use std::time::{Duration, Instant};

/// A beginner's adapter in Python: it appends `start` to `LOG` when it starts, reads
/// its input as bytes, answers the handshake and `sha256` of no bytes, answers every other object
/// with a `bad_request` error carrying the request's id (or null when reading it
/// failed), and on a line that is not UTF-8 or not a JSON object does `ON_BAD`
/// (`crash`: raises, as the README's skeleton does, after creating the file `MARK`
/// names, if any, when the line is text; `skip`: answers nothing).
const ADAPTER: &str = r#"
import hashlib, json, os, sys
with open(os.environ["LOG"], "a") as log:
    log.write("start\n")
for raw in sys.stdin.buffer:
    if not raw.strip():
        continue
    try:
        text = raw.decode("utf-8")
        bad = not text.lstrip().startswith("{")
    except UnicodeDecodeError:
        text, bad = None, True
    if bad:
        if os.environ["ON_BAD"] == "crash":
            if text is not None and "MARK" in os.environ:
                open(os.environ["MARK"], "w").close()
            raise SystemExit("a line I cannot read")
        continue
    try:
        request = json.loads(text)
        rid = request.get("id")
    except Exception:
        request, rid = None, None
    if request and request.get("op") == "start":
        result = {"adapter_protocol": 2,
                  "implementation": {"name": "t", "language": "Python", "version": "0"},
                  "protocols": ["doc-membership-v1", "fnv1a-utf16-v1"]}
        response = {"id": rid, "result": result}
    elif request and request.get("op") == "sha256" and request.get("data") == "":
        digest = hashlib.sha256(b"").hexdigest()
        response = {"id": rid, "result": {"digest": digest}}
    else:
        response = {"id": rid, "error": {"kind": "bad_request", "message": "no"}}
    print(json.dumps(response), flush=True)
"#;

fn wire() -> WireFile {
    let spec = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")).unwrap();
    spec.wire.expect("the spec's adapter-protocol.json")
}

/// The lines of the file's cases, by kind: (not UTF-8, text that is not a JSON object
/// and not blank), and whether the last case is a plain one (so no restart is left
/// unused at the end).
fn kinds(wire: &WireFile) -> (usize, usize, bool) {
    let kind = |send: &WireSend| {
        let bytes = line(send);
        match std::str::from_utf8(&bytes) {
            Err(_) => 1,
            Ok(text) if !text.trim().is_empty() && !text.trim_start().starts_with('{') => 2,
            Ok(_) => 0,
        }
    };
    let not_text = wire.cases.iter().filter(|c| kind(&c.send) == 1).count();
    let not_object = wire.cases.iter().filter(|c| kind(&c.send) == 2).count();
    let last_plain = wire.cases.last().is_some_and(|c| kind(&c.send) == 0);
    (not_text, not_object, last_plain)
}

/// Runs every case against the fake adapter doing `on_bad`, with a timeout of 30 s:
/// the outcomes, the counts the scheduler gives, the starts the adapter logged, and
/// whether the run took less than one timeout (no deadline was waited out).
fn run_fake(
    on_bad: &str,
) -> (
    Vec<bloomproof_conformance::CheckOutcome>,
    Starts,
    usize,
    bool,
) {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("adapter.py");
    std::fs::write(&script, ADAPTER).unwrap();
    let log = dir.path().join("starts.log");
    let command = format!(
        "LOG='{}' ON_BAD={on_bad} python3 '{}'",
        log.display(),
        script.display()
    );
    let timeout = Duration::from_secs(30);
    let started = Instant::now();
    let (outcomes, starts) = run_counted(&wire(), &command, timeout, None);
    let within = started.elapsed() < timeout;
    let logged = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .count();
    (outcomes, starts, logged, within)
}

#[test]
fn a_crashing_adapter_costs_one_start_per_crash() {
    let wire = wire();
    let (not_text, not_object, last_plain) = kinds(&wire);
    // The file as it is: 3 lines that are not UTF-8, 5 that are not objects, and a
    // last case the fake answers (else the last restart would not happen).
    assert_eq!((not_text, not_object, last_plain), (3, 5, true));
    let (outcomes, starts, logged, within) = run_fake("crash");
    // One shared process, started again after each of the 5 crashes on it; one
    // process for each line that is not UTF-8 (where the fake crashes too).
    let expected = 1 + not_object + not_text;
    assert_eq!(logged, expected, "processes the adapter logged");
    assert_eq!(
        starts,
        Starts {
            processes: expected,
            restarts: not_object
        }
    );
    assert!(within, "a deadline was waited out");
    let crashed: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.crashed)
        .map(|o| o.name.as_str())
        .collect();
    assert_eq!(
        crashed,
        ["line_not_utf8_refused", "line_not_an_object_refused"]
    );
    // Each crash is blamed on its own case, and the cases after it pass again.
    let of = |name: &str| outcomes.iter().find(|o| o.name == name).unwrap();
    assert_eq!(
        of("line_not_an_object_refused").failures.len()
            + of("line_not_an_object_refused").more_failures,
        10
    );
    assert!(of("blank_line_unanswered").passed());
}

#[test]
fn a_line_left_unanswered_fails_at_once_without_a_restart() {
    let wire = wire();
    let (not_text, not_object, _) = kinds(&wire);
    let (outcomes, starts, logged, within) = run_fake("skip");
    // Nothing crashes: the shared process serves every text case, and each line that
    // is not UTF-8 has its process.
    assert_eq!(logged, 1 + not_text, "processes the adapter logged");
    assert_eq!(
        starts,
        Starts {
            processes: 1 + not_text,
            restarts: 0
        }
    );
    // The skipped lines are seen when the answer to the request behind them comes
    // first: no response, and no timeout waited for.
    assert!(within, "a deadline was waited out");
    assert!(outcomes.iter().all(|o| !o.crashed));
    let not_an_object = outcomes
        .iter()
        .find(|o| o.name == "line_not_an_object_refused")
        .unwrap();
    assert_eq!(
        not_an_object.failures.len() + not_an_object.more_failures,
        not_object
    );
    assert!(
        not_an_object
            .failures
            .iter()
            .all(|f| f.what == "no response" && f.actual == "no response"),
        "{:?}",
        not_an_object.failures
    );
}

/// An adapter that cannot start again once it crashed on a text line (a start that
/// finds the mark exits at once): the shared process's restart after its first crash
/// fails, and the cases left fail at once with that reason instead of each trying a
/// start of its own. (The cases of their own processes, run beside, crash on lines
/// that are not text and leave no mark, so the count does not depend on the order.)
#[test]
fn a_shared_process_that_cannot_start_again_is_not_tried_per_case() {
    let wire = wire();
    let (not_text, _, _) = kinds(&wire);
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("adapter.py");
    std::fs::write(&script, ADAPTER).unwrap();
    let log = dir.path().join("starts.log");
    let mark = dir.path().join("crashed");
    let command = format!(
        "[ -e '{mark}' ] && {{ echo start >> '{log}'; exit 3; }}; MARK='{mark}' LOG='{log}' ON_BAD=crash python3 '{script}'",
        mark = mark.display(),
        log = log.display(),
        script = script.display()
    );
    let (outcomes, starts) = run_counted(&wire, &command, Duration::from_secs(30), None);
    let logged = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .count();
    // The shared process, its one restart (which fails), and one process for each
    // case of its own (started, or refused once the mark is there: one line either way).
    assert_eq!(logged, 2 + not_text, "processes the adapter logged");
    assert_eq!(
        starts,
        Starts {
            processes: 2 + not_text,
            restarts: 1
        }
    );
    let unstarted = outcomes
        .iter()
        .flat_map(|o| &o.failures)
        .filter(|f| f.what == "start the adapter")
        .count();
    assert!(unstarted > 3, "{outcomes:?}");
}
