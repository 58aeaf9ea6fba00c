//! Through an adapter the protocol checks run on two processes of its command when
//! there are two cores: the first check on one, then the rest in two fixed lanes
//! (checks 1, 3, 5, ... and 2, 4, 6, ...), so each process meets the same checks in
//! the same order on every run. Counted, not timed: each start of the adapter appends
//! a line to a log.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::load;
use bloomproof_conformance::run::{Subjects, run_with_threads};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `command`, its starts logged in `log`.
fn logged(log: &Path, command: &str) -> String {
    format!("echo start >> '{}'; exec {command}", log.display())
}

fn starts(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .count()
}

/// The protocol checks (no adapter-protocol ones: `-v1/`) through `command` on
/// `threads` threads, generated inputs of seed 7, the starts logged to `log` (emptied
/// first): the report without times, its thread count, the starts logged.
fn protocol_checks(command: &str, log: &Path, threads: usize) -> (String, Option<usize>, usize) {
    let mut spec = load(&root().join("spec")).unwrap();
    spec.wire = None;
    let mut generation = spec.generation();
    generation.seed = 7;
    spec.set_generation(generation);
    let _ = std::fs::remove_file(log);
    let mut subjects = Subjects::adapter(&logged(log, command), Duration::from_secs(30)).unwrap();
    let report = run_with_threads(&spec, &mut subjects, Some("-v1/"), threads);
    drop(subjects);
    let threads = report.threads;
    (report.without_times().render_text(), threads, starts(log))
}

#[test]
fn a_second_process_runs_a_second_lane_and_the_report_is_the_same() {
    let python = format!(
        "python3 '{}'",
        root()
            .join("implementations/python/bloomproof_py/adapter.py")
            .display()
    );
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts.log");
    let (one, one_threads, one_starts) = protocol_checks(&python, &log, 1);
    let (two, two_threads, two_starts) = protocol_checks(&python, &log, 2);
    assert_eq!((one_threads, one_starts), (Some(1), 1));
    assert_eq!((two_threads, two_starts), (Some(2), 2));
    assert!(one.contains(" passed, 0 failed"), "{one}");
    assert_eq!(one, two);
}

/// A failing adapter that crashes on some requests (every `build` of two records or
/// more) and answers every other with `bad_request`: on two lanes its report is the
/// same on every run, restarts, request ids and where it stopped included, and each
/// crash costs one start.
#[test]
fn lanes_through_a_crashing_adapter_report_the_same_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("adapter.py");
    std::fs::write(
        &script,
        r#"
import json, sys
for line in sys.stdin:
    request = json.loads(line)
    if request.get("op") == "start":
        result = {"adapter_protocol": 2,
                  "implementation": {"name": "t", "language": "Python", "version": "0"},
                  "protocols": ["doc-membership-v1", "fnv1a-utf16-v1"]}
        print(json.dumps({"id": request["id"], "result": result}), flush=True)
        continue
    if request.get("op") == "build" and len(request.get("records", [])) >= 2:
        raise SystemExit("cannot build")
    error = {"kind": "bad_request", "message": "no"}
    print(json.dumps({"id": request.get("id"), "error": error}), flush=True)
"#,
    )
    .unwrap();
    let command = format!("python3 '{}'", script.display());
    let log = dir.path().join("starts.log");
    let (first, threads, first_starts) = protocol_checks(&command, &log, 2);
    let (second, _, second_starts) = protocol_checks(&command, &log, 2);
    assert_eq!(threads, Some(2));
    assert_eq!(first, second);
    // Two processes, and one start for each check the adapter ended in but the last
    // when the run stopped there (a process started again that ended before any
    // answer stops the run).
    let crashed: usize = first
        .split("crashes: the adapter ended during ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a count of crashes");
    assert!(crashed > 1, "{first}");
    let stopped = usize::from(first.contains("\nstopped: "));
    assert_eq!(
        (first_starts, second_starts),
        (2 + crashed - stopped, 2 + crashed - stopped)
    );
}
