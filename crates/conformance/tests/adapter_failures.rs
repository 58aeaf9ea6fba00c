//! A slow, crashing, silent or malformed adapter gives a clear failure naming the check
//! and the request, never a hang.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::run::{Subjects, run};
use bloomproof_conformance::{Report, load};
use std::path::Path;
use std::time::{Duration, Instant};

/// A shell command's prefix that answers the adapter protocol's handshake (the first
/// line of every run) as an adapter of both protocols would, so that a fake adapter
/// written as a shell command misbehaves only after it: `format!("{HANDSHAKE} {cmd}")`.
const HANDSHAKE: &str = r#"read -r _; printf '%s\n' '{"id":0,"result":{"adapter_protocol":2,"implementation":{"name":"fake","language":"sh","version":"0"},"protocols":["doc-membership-v1","fnv1a-utf16-v1"]}}';"#;

/// A run against `command`, which answers the handshake first (every fake here
/// misbehaves after it).
fn run_against(command: &str, filter: &str) -> (Report, Duration) {
    let spec = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")).unwrap();
    let started = Instant::now();
    let command = format!("{HANDSHAKE} {command}");
    let mut subjects = Subjects::adapter(&command, Duration::from_millis(500)).unwrap();
    let report = run(&spec, &mut subjects, Some(filter));
    (report, started.elapsed())
}

fn first_failure(report: &Report) -> String {
    let check = report
        .checks
        .iter()
        .find(|c| !c.passed())
        .expect("a failed check");
    format!("{}: {}", check.full_name(), check.render_failures())
}

/// The first failure of a run against `command`, whatever the run took.
fn first_failure_against(command: &str, filter: &str) -> String {
    first_failure(&run_against(command, filter).0)
}

/// The failure of the one check `filter` selects, which fails within 10 s.
fn only_failure_against(command: &str, filter: &str) -> String {
    let (report, took) = run_against(command, filter);
    assert_eq!((report.passed, report.failed), (0, 1));
    assert!(took < Duration::from_secs(10), "took {took:?}");
    first_failure(&report)
}

/// The whole report of a run of every doc-membership-v1 check against an adapter that
/// is dead after its first request, before answering it: the first check fails, every
/// later request of it fails at once, and the run stops there (the adapter is not
/// started again: it never answered), within 10 s, saying why.
fn dead_after_one_request(command: &str) -> Report {
    let (report, took) = run_against(command, "doc-membership-v1");
    assert_eq!((report.passed, report.failed, report.crashed), (0, 1, 1));
    let stopped = report.stopped.clone().unwrap_or_default();
    assert_has(
        &stopped,
        &["did not answer its first request, so nothing was checked"],
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");
    report
}

/// Asserts that `text` contains every one of `parts`.
fn assert_has(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "missing {part:?} in {text}");
    }
}

#[test]
fn silent_adapter_times_out_per_request() {
    let text = only_failure_against("sleep 30", "empty_snapshot");
    assert_has(
        &text,
        &[
            "doc-membership-v1/empty_snapshot_definitely_absent",
            "no response within 0.5s to request #1",
            "\"op\":\"build\"",
        ],
    );
}

#[test]
fn crashing_adapter_names_the_exit_and_its_stderr() {
    let text = first_failure_against("echo 'boom: out of cheese' >&2; exit 3", "positive_members");
    assert_has(
        &text,
        &[
            "the adapter exited (exit status: 3)",
            "request #1",
            "boom: out of cheese",
        ],
    );
}

#[test]
fn dead_adapter_fails_every_later_request_fast() {
    let report = dead_after_one_request("exit 0");
    assert_has(&report.render_text(), &["the adapter is no longer running"]);
}

#[test]
fn malformed_output_is_named() {
    let text = first_failure_against(
        "while read line; do echo 'not json'; done",
        "empty_snapshot",
    );
    assert_has(&text, &["malformed response to request #1", "not JSON"]);
}

#[test]
fn wrong_id_is_named() {
    let text = first_failure_against(
        "while read line; do echo '{\"id\": 999, \"result\": {}}'; done",
        "empty_snapshot",
    );
    assert_has(&text, &["its id is 999, expected 1"]);
}

#[test]
fn wrong_result_shape_is_named() {
    let text = first_failure_against(
        "n=0; while read line; do n=$((n+1)); echo \"{\\\"id\\\": $n, \\\"result\\\": {\\\"bits\\\": 1}}\"; done",
        "empty_snapshot",
    );
    assert_has(&text, &["unexpected result shape for `\"build\"`"]);
}

/// The peak resident memory of this test process, in MiB (Linux), to show that what
/// an adapter writes is never queued without bound.
fn peak_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

fn assert_memory_bounded() {
    if let Some(peak) = peak_mib() {
        assert!(peak < 200, "peak resident memory {peak} MiB");
    }
}

/// The ids of live (not zombie) processes whose command line contains `marker`.
fn live_processes_with(marker: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(cmdline) = std::fs::read(path.join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let zombie = std::fs::read_to_string(path.join("stat"))
            .ok()
            .and_then(|stat| {
                stat.rsplit_once(')')
                    .map(|(_, rest)| rest.trim_start().starts_with('Z'))
            })
            .unwrap_or(true);
        if cmdline.contains(marker) && !zombie {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// Waits up to a second for the processes whose command line contains `marker` to be
/// gone (killed processes may take a moment), then asserts none is left (Linux).
fn assert_gone(marker: &str) {
    if !cfg!(target_os = "linux") {
        return;
    }
    let mut left = live_processes_with(marker);
    for _ in 0..50 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        left = live_processes_with(marker);
    }
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn garbage_writer_that_never_reads_is_dead_at_once() {
    let report = dead_after_one_request("yes garbage");
    assert_has(
        &first_failure(&report),
        &[
            "malformed response to request #1",
            "not JSON",
            "the response was: garbage",
        ],
    );
    assert_has(
        &report.render_text(),
        &[
            "request #2 not sent: the adapter is no longer running (malformed response to request #1",
        ],
    );
    assert_memory_bounded();
}

#[test]
fn malformed_response_marks_the_adapter_dead() {
    let report = dead_after_one_request("while read line; do echo '{\"id\": \"x\"}'; done");
    assert_has(
        &report.render_text(),
        &[
            "request #2 not sent: the adapter is no longer running (malformed response to request #1",
        ],
    );
}

#[test]
fn endless_response_line_is_cut_at_one_mib() {
    let text = only_failure_against("yes | tr -d '\\n'", "empty_snapshot");
    assert_has(
        &text,
        &[
            "doc-membership-v1/empty_snapshot_definitely_absent",
            "the response to request #1",
            "is longer than 1048576 bytes (1 MiB); it begins: yyyy",
        ],
    );
    assert_memory_bounded();
}

#[test]
fn endless_stderr_line_of_a_hung_adapter_keeps_a_bounded_tail() {
    let text = only_failure_against("yes | tr -d '\\n' >&2", "empty_snapshot");
    assert_has(
        &text,
        &[
            "no response within 0.5s to request #1",
            "its stderr ends: ...yyyy",
        ],
    );
    assert!(text.len() < 4000, "{} bytes", text.len());
    assert_memory_bounded();
}

#[test]
fn a_request_the_adapter_does_not_read_times_out_on_writing() {
    use bloomproof_conformance::adapter::AdapterProcess;
    use bloomproof_conformance::model::Hex;
    use bloomproof_conformance::subject::SubjectError;
    use bloomproof_wire::protocols::doc_membership_v1::DocOp;
    let started = Instant::now();
    let mut process =
        AdapterProcess::start(&format!("{HANDSHAKE} sleep 30"), Duration::from_millis(500))
            .unwrap();
    // 2 MB of hex: far more than a pipe holds, so the write blocks.
    let op = DocOp::Sha256 {
        data: Hex(vec![0xab; 1 << 20]),
    };
    let result = process.request("doc-membership-v1", &op);
    assert!(
        matches!(&result, Err(SubjectError::Broken(why))
            if why.contains("request #1 could not be written within 0.5s: the adapter does not read its input")),
        "{result:?}"
    );
    let again = process.request("doc-membership-v1", &op);
    assert!(
        matches!(&again, Err(SubjectError::Broken(why))
            if why.contains("request #2 not sent: the adapter is no longer running (request #1 could not be written")),
        "{again:?}"
    );
    assert!(process.dead().is_some());
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_hung_adapter_s_children_are_killed_with_it() {
    // A marker no other test uses, to find the processes afterwards.
    let marker = "sleep 299.25";
    let text = only_failure_against(&format!("{marker} | cat"), "empty_snapshot");
    assert_has(&text, &["no response within 0.5s to request #1"]);
    assert_gone(marker);
}

#[test]
fn stragglers_of_an_adapter_that_exits_are_killed_on_drop() {
    // The adapter answers nothing and exits when its input closes, leaving a child
    // behind in its group: dropping the process ends the child too.
    let marker = "sleep 298.75";
    {
        let process = bloomproof_conformance::adapter::AdapterProcess::start(
            &format!("{HANDSHAKE} {marker} & cat >/dev/null"),
            Duration::from_millis(500),
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(200));
        if cfg!(target_os = "linux") {
            assert!(!live_processes_with(marker).is_empty());
        }
        drop(process);
    }
    assert_gone(marker);
}

/// `all_small_subsets...` sends its requests without waiting for each answer: an
/// adapter that reads them and never answers gets at most 16 of them before the first
/// times out, and the run still ends, naming request #1.
#[test]
fn a_pipelined_batch_sends_at_most_16_requests_ahead_and_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("requests.log");
    let command = format!(
        "while read line; do echo \"$line\" >> '{}'; done",
        log.display()
    );
    let text = only_failure_against(&command, "all_small_subsets");
    assert_has(&text, &["no response within 0.5s to request #1"]);
    let received = std::fs::read_to_string(&log).unwrap_or_default();
    let lines = received.lines().count();
    assert!((2..=16).contains(&lines), "{lines} requests were sent");
    assert!(received.contains("\"op\":\"build\"") && received.contains("\"op\":\"lookup_many\""));
}

/// An adapter that dies in the middle of a pipelined batch fails the check at the
/// first request it left unanswered; the requests already sent behind it fail at once.
#[test]
fn an_adapter_that_dies_in_a_pipelined_batch_is_named() {
    let text = only_failure_against("read a; read b; exit 4", "all_small_subsets");
    assert_has(
        &text,
        &["the adapter exited (exit status: 4) without answering request #1"],
    );
}

/// The adapter protocol's cases run side by side, each on its own process: a check's
/// time is wall clock (its first case's start to its last case's end), never the sum
/// of its cases' times, so no check is reported slower than the run that held it.
/// Every case here waits out its 0.3 s timeout, on a silent adapter.
#[test]
fn an_adapter_check_is_never_slower_than_its_run() {
    let spec = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")).unwrap();
    let wire = spec.wire.as_ref().unwrap();
    let check = "line_not_an_object_refused";
    let cases = wire.cases.iter().filter(|c| c.check == check).count();
    assert!(cases >= 4, "{cases} cases");
    let command = format!("{HANDSHAKE} sleep 30");
    let started = Instant::now();
    let outcomes = bloomproof_conformance::adapter_checks::run(
        wire,
        &command,
        Duration::from_millis(300),
        Some(check),
    );
    let wall = started.elapsed().as_secs_f64() * 1e3;
    assert_eq!(outcomes.len(), 1);
    let ms = outcomes[0].elapsed_ms.unwrap();
    assert!(ms <= wall, "the check took {ms} ms of a {wall} ms run");
    assert!(ms >= 300.0, "{ms} ms: shorter than one case");
}
