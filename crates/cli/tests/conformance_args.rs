//! `bloomproof conformance --timeout`: a finite number of seconds from 0.1 to 3600;
//! anything else is a usage error (exit 2) naming the value, never a silent default.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

fn conformance(timeout: &str) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .args(["conformance", "--spec"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec"))
        .args(["--impl", "exit 0", "--timeout", timeout, "empty_snapshot"])
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
        // The adapter exits at once: the check fails (exit 1), the timeout was taken.
        assert_eq!(code, Some(1), "--timeout {good:?}: {stderr}");
    }
}
