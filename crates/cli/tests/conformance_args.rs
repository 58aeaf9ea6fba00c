//! `bloomproof conformance --timeout`: a finite number of seconds from 0.1 to 3600;
//! anything else is a usage error (exit 2) naming the value, never a silent default.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

/// A shell command's prefix that answers the adapter protocol's handshake (the first
/// line of every run) as an adapter of both protocols would, so that a fake adapter
/// written as a shell command misbehaves only after it: `format!("{HANDSHAKE} {cmd}")`.
const HANDSHAKE: &str = r#"read -r _; printf '%s\n' '{"id":0,"result":{"adapter_protocol":2,"implementation":{"name":"fake","language":"sh","version":"0"},"protocols":["doc-membership-v1","fnv1a-utf16-v1"]}}';"#;

fn conformance(timeout: &str) -> (Option<i32>, String) {
    run_with("--timeout", timeout)
}

fn run_with(flag: &str, value: &str) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .args(["conformance", "--spec"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec"))
        .args([
            "--impl",
            &format!("{HANDSHAKE} exit 0"),
            flag,
            value,
            "empty_snapshot",
        ])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn timeouts_outside_the_range_are_usage_errors() {
    for bad in [
        "-1", "NaN", "nan", "inf", "-inf", "1e300", "0", "0.05", "3601", "20s", "",
    ] {
        let (code, stderr) = conformance(bad);
        assert_eq!(code, Some(2), "--timeout {bad:?}: {stderr}");
        assert!(
            stderr.contains("--timeout takes a number of seconds from 0.1 to 3600"),
            "--timeout {bad:?}: {stderr}"
        );
        assert!(stderr.contains(&format!("got {bad:?}")), "{stderr}");
    }
}

#[test]
fn timeouts_in_the_range_are_taken() {
    for good in ["0.1", "2", "1e1", "3600"] {
        let (code, stderr) = conformance(good);
        // The adapter exits at once, before answering: the run stops with one
        // paragraph (exit 2); the timeout was taken.
        assert_eq!(code, Some(2), "--timeout {good:?}: {stderr}");
        assert!(
            stderr.contains("did not answer its first request"),
            "{stderr}"
        );
    }
}

#[test]
fn deadlines_are_finite_seconds_from_1_to_86400() {
    for bad in ["-1", "NaN", "inf", "0.5", "86401", "1e300", "15m", ""] {
        let (code, stderr) = run_with("--deadline", bad);
        assert_eq!(code, Some(2), "--deadline {bad:?}: {stderr}");
        assert!(
            stderr.contains("--deadline takes a number of seconds from 1 to 86400"),
            "--deadline {bad:?}: {stderr}"
        );
    }
    for good in ["1", "900", "86400"] {
        let (code, stderr) = run_with("--deadline", good);
        assert_eq!(code, Some(2), "--deadline {good:?}: {stderr}");
        assert!(
            stderr.contains("did not answer its first request"),
            "{stderr}"
        );
    }
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN)
        .args(["conformance", "--spec"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn seeds_and_counts_outside_their_ranges_are_usage_errors() {
    for (flag, bad, says) in [
        (
            "--seed",
            "x1",
            "--seed takes an integer from 0 to 9007199254740991",
        ),
        (
            "--seed",
            "9007199254740992",
            "--seed takes an integer from 0 to 9007199254740991",
        ),
        (
            "--random",
            "0",
            "--random takes an integer from 1 to 100000",
        ),
        (
            "--random",
            "100001",
            "--random takes an integer from 1 to 100000",
        ),
    ] {
        let (code, _, stderr) = run(&[flag, bad, "empty_snapshot"]);
        assert_eq!(code, Some(2), "{flag} {bad}: {stderr}");
        assert!(stderr.contains(says), "{flag} {bad}: {stderr}");
    }
}

/// The filter `accumulated` runs the two accumulated checks (it used to match no
/// check), and the JSON report carries the seed and the digests.
#[test]
fn the_accumulated_filter_runs_the_digests_into_the_report() {
    let (code, stdout, stderr) = run(&["--seed", "12", "--format", "json", "accumulated"]);
    assert_eq!(code, Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["seed"], 12);
    let names: Vec<&str> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap_or_default())
        .collect();
    // One per protocol.
    assert_eq!(
        names,
        vec!["accumulated"; bloomproof_protocol::PROTOCOLS.len()]
    );
    assert!(stdout.contains("accumulated.checkpoint"), "{stdout}");
    assert!(!stderr.contains("accumulated"), "{stderr}");
}

/// `--skip` leaves out every check whose full name holds its text, of a protocol's
/// checks, the accumulated digests and the adapter protocol's own alike, and nothing
/// else; one that leaves nothing of the filter's checks is refused, starting nothing.
#[test]
fn skip_leaves_out_the_checks_that_hold_its_text() {
    let names = |stdout: &str| -> Vec<String> {
        let report: serde_json::Value = serde_json::from_str(stdout).unwrap();
        report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                format!(
                    "{}/{}",
                    c["protocol"].as_str().unwrap(),
                    c["name"].as_str().unwrap()
                )
            })
            .collect()
    };
    let (code, whole, stderr) = run(&["--seed", "3", "--format", "json", "fnv1a-utf16-v1/"]);
    assert_eq!(code, Some(0), "{stderr}");
    let whole = names(&whole);
    let args = [
        "--seed",
        "3",
        "--format",
        "json",
        "--skip",
        "/generated_",
        "--skip",
        "accumulated",
        "fnv1a-utf16-v1/",
    ];
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, Some(0), "{stderr}");
    let kept: Vec<String> = whole
        .iter()
        .filter(|n| !n.contains("/generated_") && !n.contains("accumulated"))
        .cloned()
        .collect();
    assert!(kept.len() + 5 <= whole.len(), "{whole:?}");
    assert_eq!(names(&stdout), kept);
    // Through an adapter, the adapter protocol's own checks too.
    let adapter = concat!(env!("CARGO_BIN_EXE_bloomproof"), " adapter");
    let (code, stdout, stderr) = run(&[
        "--impl",
        adapter,
        "--seed",
        "3",
        "--format",
        "json",
        "--skip",
        "response_size",
        "adapter-protocol/",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let ran = names(&stdout);
    assert!(
        ran.len() > 5 && ran.iter().all(|n| n.starts_with("adapter-protocol/")),
        "{ran:?}"
    );
    assert!(!ran.iter().any(|n| n.contains("response_size")), "{ran:?}");
    // Nothing left: refused, nothing run.
    for args in [
        &["--skip", "fnv1a", "fnv1a-utf16-v1/"][..],
        &["--skip", "/"][..],
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {stdout}");
        assert!(stderr.contains("leaves out every check"), "{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
    }
}

fn spec_dir() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec")
}

/// A filter that selects no check is refused before the adapter starts (the command
/// would leave a file behind), with the names it most likely meant, and no report.
#[test]
fn a_filter_with_no_match_suggests_names_and_starts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started");
    let out = Command::new(BIN)
        .args(["conformance", "--spec", spec_dir(), "--impl"])
        .arg(format!("touch '{}'; {HANDSHAKE} exit 0", marker.display()))
        .arg("every-stage")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr.contains("no check's name contains \"every-stage\": nothing was run and no adapter was started. Did you mean doc-membership-v1/every_stage_pinned?"),
        "{stderr}"
    );
    assert!(!marker.exists(), "the adapter was started");
    // A typo in a word of the name.
    let out = Command::new(BIN)
        .args(["conformance", "--spec", spec_dir(), "framng"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "Did you mean doc-membership-v1/hash_domain_framing_and_little_endian_bit_protocol"
        ),
        "{stderr}"
    );
}

/// A program that does not exist is said so in one sentence: no paragraph on adapter
/// protocol versions, no broken pipe.
#[test]
fn an_adapter_program_not_found_is_named_plainly() {
    let out = Command::new(BIN)
        .args(["conformance", "--impl", "bloomproof-no-such-program --flag"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the program `bloomproof-no-such-program` was not found"),
        "{stderr}"
    );
    for noise in ["adapter protocol version", "Broken pipe", "handshake"] {
        assert!(!stderr.contains(noise), "{noise}: {stderr}");
    }
}

/// `spec rules FILTER` selects by rule id or case name; a filter matching neither names
/// the closest rule ids.
#[test]
fn spec_rules_filters_by_rule_or_case() {
    let run = |filter: &str| {
        let out = Command::new(BIN)
            .args(["spec", "rules", filter])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = run("DOC-HASH-MESSAGE");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.starts_with("DOC-HASH-MESSAGE  [core]  ("),
        "{stdout}"
    );
    // One rule block (its id unindented), then the count line.
    assert_eq!(
        stdout.lines().filter(|l| !l.starts_with(' ')).count(),
        2,
        "{stdout}"
    );
    assert!(!stdout.contains("DOC-LOOKUP  ["), "{stdout}");
    let (code, stdout, _) = run("08-sha256/abc");
    assert_eq!(code, Some(0));
    assert!(stdout.contains("DOC-HASH-MESSAGE  [core]  ("), "{stdout}");
    let (code, _, stderr) = run("DOC-HSH-MESAGE");
    assert_eq!(code, Some(2));
    assert!(stderr.contains("Did you mean DOC-HASH-MESSAGE"), "{stderr}");
}
