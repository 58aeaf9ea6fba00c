//! `bloomproof adapter` speaks the adapter protocol well enough to pass the whole
//! named suite, and answers malformed requests with errors, not crashes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::load;
use bloomproof_conformance::run::{Subjects, run};
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

#[test]
fn the_rust_adapter_passes_the_whole_suite() {
    let spec = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")).unwrap();
    let command = format!("'{BIN}' adapter");
    let mut subjects = Subjects::adapter(&command, Duration::from_secs(30)).unwrap();
    // Every class required: our own implementation passes them all.
    let report =
        run(&spec, &mut subjects, None).requiring(&bloomproof_conformance::report::Class::OPTIONAL);
    assert_eq!(report.failed, 0, "{}", report.render_text());
    let accumulated = spec.accumulated.as_ref().map_or(0, |a| a.protocols.len());
    let wire = spec.wire.as_ref().map_or(0, |w| w.checks.len());
    assert!(wire >= 7, "the adapter protocol's own checks ran too");
    assert_eq!(report.passed, spec.check_count() + wire + accumulated);
}

/// `bloomproof adapter`, started with piped input and output.
fn adapter() -> Child {
    Command::new(BIN)
        .arg("adapter")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn malformed_requests_get_error_responses() {
    let mut child = adapter();
    let requests = [
        "not json",
        "[1,2]",
        r#"{"id": 1}"#,
        r#"{"id": 2, "protocol": "sha1", "op": "positions"}"#,
        r#"{"id": 3, "protocol": "doc-membership-v1", "op": "explode"}"#,
        r#"{"id": 4, "protocol": "doc-membership-v1", "op": "positions", "params": {"m": 16, "k": 3, "seed_hex": "6c6"}, "item": ""}"#,
        r#"{"id": 5, "protocol": "doc-membership-v1", "op": "positions", "params": {"m": 7, "k": 3, "seed_hex": ""}, "item": ""}"#,
        r#"{"id": "six", "protocol": "doc-membership-v1", "op": "positions", "params": {"m": 16, "k": 3, "seed_hex": "6c6162"}, "item": "646f632d3034", "extra": 1}"#,
        r#"{"id": 7, "protocol": "doc-membership-v1", "op": "positions", "params": {"m": 16, "k": 3, "seed_hex": "6c6162"}, "item": "646f632d3034"}"#,
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

/// The message of an error response.
fn message(response: &serde_json::Value) -> &str {
    response["error"]["message"]
        .as_str()
        .expect("an error message")
}

/// A session request (id `id`) that creates a filter of m = 1024 and queries "a"
/// `queries` times.
fn queries(id: u64, queries: usize) -> Vec<u8> {
    let mut steps = vec![
        serde_json::json!({"op": "set_draft", "field": "m", "value": "1024"}),
        serde_json::json!({"op": "create"}),
    ];
    steps.extend(std::iter::repeat_n(
        serde_json::json!({"op": "query", "value": [97]}),
        queries,
    ));
    serde_json::json!({"id": id, "protocol": "fnv1a-utf16-v1", "op": "session", "script": steps})
        .to_string()
        .into_bytes()
}

/// Issue 12: bytes that are not UTF-8, a duplicate key, a script of 5000 steps and a
/// line over 16 MiB each get a `bad_request` answer, the next request is served, and
/// the adapter's memory stays bounded.
#[test]
fn hostile_requests_are_answered_in_bounded_memory() {
    use std::io::{BufRead, BufReader};
    let mut child = adapter();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |line: &[u8]| -> serde_json::Value {
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let mut response = String::new();
        stdout.read_line(&mut response).unwrap();
        serde_json::from_str(&response).unwrap()
    };
    let sha = br#"{"id":7,"protocol":"doc-membership-v1","op":"sha256","data":"6162"}"#;

    let r = ask(b"{\"id\":1,\"protocol\":\"\xff\xfe\"}");
    assert_eq!(r["id"], serde_json::Value::Null);
    assert_eq!(r["error"]["kind"], "bad_request");
    assert!(message(&r).contains("not UTF-8"), "{r}");
    assert_eq!(ask(sha)["id"], 7);

    let r =
        ask(br#"{"id":2,"protocol":"doc-membership-v1","op":"sha256","data":"61","data":"62"}"#);
    assert_eq!(r["id"], serde_json::Value::Null);
    assert_eq!(
        r["error"]["message"],
        "duplicate key \"data\" in the request"
    );

    let r = ask(&queries(3, 5000));
    assert_eq!(r["id"], 3);
    assert_eq!(r["error"]["kind"], "bad_request");
    assert!(message(&r).contains("a script has at most 1024"), "{r}");
    let r = ask(&queries(4, 1000));
    assert_eq!(r["id"], 4);
    assert!(
        message(&r).starts_with("the answer to this script would be longer than 1048576 bytes"),
        "{r}"
    );

    let long = vec![b'x'; 17 << 20];
    let r = ask(&long);
    assert_eq!(r["id"], serde_json::Value::Null);
    assert!(
        message(&r).starts_with("a request line is at most 16777216 bytes"),
        "{r}"
    );
    assert_eq!(ask(sha)["id"], 7);

    // The adapter's peak memory, read while it still runs (Linux).
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()));
    if let Ok(status) = status {
        let kib: u64 = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(kib < 200 * 1024, "adapter peak resident memory {kib} KiB");
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
}
