//! `bloomproof adapter` speaks the adapter protocol well enough to pass the whole
//! named suite, and answers malformed requests with errors, not crashes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::load;
use bloomproof_conformance::run::{Subjects, run};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

#[test]
fn the_rust_adapter_passes_the_whole_suite() {
    let spec = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")).unwrap();
    let command = format!("'{BIN}' adapter");
    let mut subjects = Subjects::adapter(&command, Duration::from_secs(30)).unwrap();
    let report = run(&spec, &mut subjects, None);
    assert_eq!(report.failed, 0, "{}", report.render_text());
    assert_eq!(report.passed, spec.check_count());
}

#[test]
fn malformed_requests_get_error_responses() {
    let mut child = Command::new(BIN)
        .arg("adapter")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let requests = [
        "not json",
        "[1,2]",
        r#"{"id": 1}"#,
        r#"{"id": 2, "protocol": "sha1", "op": "positions"}"#,
        r#"{"id": 3, "protocol": "doc-membership-v1", "op": "explode"}"#,
        r#"{"id": 4, "protocol": "doc-membership-v1", "op": "positions", "m": 16, "k": 3, "seed": "6c6", "item": ""}"#,
        r#"{"id": 5, "protocol": "doc-membership-v1", "op": "positions", "m": 7, "k": 3, "seed": "", "item": ""}"#,
        r#"{"id": "six", "protocol": "doc-membership-v1", "op": "positions", "m": 16, "k": 3, "seed": "6c6162", "item": "646f632d3034", "extra": 1}"#,
        r#"{"id": 7, "protocol": "doc-membership-v1", "op": "positions", "m": 16, "k": 3, "seed": "6c6162", "item": "646f632d3034"}"#,
    ];
    let mut stdin = child.stdin.take().unwrap();
    for request in requests {
        writeln!(stdin, "{request}").unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), requests.len());
    let kinds: Vec<&str> = lines
        .iter()
        .map(|l| l["error"]["kind"].as_str().unwrap_or("ok"))
        .collect();
    assert_eq!(
        kinds,
        [
            "bad_request",
            "bad_request",
            "bad_request",
            "bad_request",
            "bad_request",
            "bad_request",
            "value",
            "bad_request",
            "ok"
        ]
    );
    assert_eq!(lines[6]["error"]["field"], "m");
    assert_eq!(lines[7]["id"], "six");
    assert_eq!(lines[8]["id"], 7);
    assert_eq!(lines[8]["result"]["positions"].as_array().unwrap().len(), 3);
}
