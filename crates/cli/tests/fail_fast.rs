//! `bloomproof conformance --fail-fast`: through an adapter with one flaw (fnv's h1 one
//! too high), the run stops after the first check that fails, exits 1, lists every
//! check before it as the whole run does, and names the check and counts the checks
//! not run in both report formats. `--fail-fast=fixed` stops at the same check (its
//! failures are of cases without generated inputs).

mod common;

use serde_json::Value;

fn wrong_h1() -> String {
    common::proxy("wrong_h1.py", "")
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("a JSON report")
}

fn names(report: &Value) -> Vec<String> {
    report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| format!("{}/{}", c["protocol"], c["name"]).replace('"', ""))
        .collect()
}

#[test]
fn a_fail_fast_run_stops_after_its_first_failed_check() {
    let command = wrong_h1();
    let (code, whole, stderr) = common::conformance_through(&command, &["--format", "json"]);
    assert_eq!(code, Some(1), "{stderr}");
    let whole = json(&whole);
    let all = names(&whole);
    let first = whole["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .position(|c| c["failures"] != serde_json::json!([]) && c["class"] == "core")
        .expect("a failed core check");
    assert_eq!(all[first], "fnv1a-utf16-v1/base_hashes_pinned");
    assert!(whole.get("failed_fast").is_none());
    for on in ["--fail-fast", "--fail-fast=any", "--fail-fast=fixed"] {
        let (code, fast, stderr) = common::conformance_through(&command, &["--format", "json", on]);
        assert_eq!(code, Some(1), "{on}: {stderr}");
        let fast = json(&fast);
        assert_eq!(names(&fast), all[..=first], "{on}");
        let before: Vec<Value> = whole["checks"].as_array().expect("checks")[..=first].to_vec();
        assert_eq!(fast["checks"], Value::Array(before), "{on}");
        assert_eq!(fast["failed_fast"]["check"], all[first].as_str(), "{on}");
        assert_eq!(
            fast["failed_fast"]["not_run"],
            all.len() - first - 1,
            "{on}"
        );
    }
    let (code, text, _) = common::conformance_through(&command, &["--fail-fast"]);
    assert_eq!(code, Some(1));
    let line = format!(
        "stopped at the first failed check (--fail-fast): {}; {} checks after it not run",
        all[first],
        all.len() - first - 1
    );
    assert!(text.contains(&line), "{text}");
}

#[test]
fn a_fail_fast_run_of_a_correct_adapter_runs_every_check() {
    let command = format!("'{}' adapter", env!("CARGO_BIN_EXE_bloomproof"));
    let (code, whole, _) = common::conformance_through(&command, &["--format", "json"]);
    let (fast_code, fast, _) =
        common::conformance_through(&command, &["--format", "json", "--fail-fast"]);
    assert_eq!((code, fast_code), (Some(0), Some(0)));
    assert_eq!(json(&fast), json(&whole));
}
