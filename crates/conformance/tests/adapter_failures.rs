//! A slow, crashing, silent or malformed adapter gives a clear failure naming the check
//! and the request, never a hang.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::run::{Subjects, run};
use bloomproof_conformance::{Report, load};
use std::path::Path;
use std::time::{Duration, Instant};

fn run_against(command: &str, filter: &str) -> (Report, Duration) {
    let spec = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")).unwrap();
    let started = Instant::now();
    let mut subjects = Subjects::adapter(command, Duration::from_millis(500)).unwrap();
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

#[test]
fn silent_adapter_times_out_per_request() {
    let (report, took) = run_against("sleep 30", "empty_snapshot");
    assert_eq!((report.passed, report.failed), (0, 1));
    let text = first_failure(&report);
    assert!(
        text.contains("doc-membership-v1/empty_snapshot_definitely_absent"),
        "{text}"
    );
    assert!(
        text.contains("no response within 0.5s to request #1"),
        "{text}"
    );
    assert!(text.contains("\"op\":\"build\""), "{text}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn crashing_adapter_names_the_exit_and_its_stderr() {
    let (report, _) = run_against("echo 'boom: out of cheese' >&2; exit 3", "positive_members");
    let text = first_failure(&report);
    assert!(
        text.contains("the adapter exited (exit status: 3)") && text.contains("request #1"),
        "{text}"
    );
    assert!(text.contains("boom: out of cheese"), "{text}");
}

#[test]
fn dead_adapter_fails_every_later_request_fast() {
    let (report, took) = run_against("exit 0", "doc-membership-v1");
    assert_eq!(report.passed, 0);
    assert!(report.failed >= 14);
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let text = report.render_text();
    assert!(text.contains("the adapter is no longer running"), "{text}");
}

#[test]
fn malformed_output_is_named() {
    let (report, _) = run_against(
        "while read line; do echo 'not json'; done",
        "empty_snapshot",
    );
    let text = first_failure(&report);
    assert!(text.contains("malformed response to request #1"), "{text}");
    assert!(text.contains("not JSON"), "{text}");
}

#[test]
fn wrong_id_is_named() {
    let (report, _) = run_against(
        "while read line; do echo '{\"id\": 999, \"result\": {}}'; done",
        "empty_snapshot",
    );
    let text = first_failure(&report);
    assert!(
        text.contains("its id is Some(Number(999)), expected 1"),
        "{text}"
    );
}

#[test]
fn wrong_result_shape_is_named() {
    let (report, _) = run_against(
        "n=0; while read line; do n=$((n+1)); echo \"{\\\"id\\\": $n, \\\"result\\\": {\\\"bits\\\": 1}}\"; done",
        "empty_snapshot",
    );
    let text = first_failure(&report);
    assert!(
        text.contains("unexpected result shape for `\"build\"`"),
        "{text}"
    );
}
