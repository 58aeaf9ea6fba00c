//! The whole spec's outcome for review (the `conformance-report` snapshot), and the
//! rule over every snapshot of this crate's tests. Each protocol's fingerprint is a
//! test file of its own (`fingerprint_<protocol>.rs`).
//!
//! Every snapshot is named explicitly. CI runs with `INSTA_UPDATE=no` and `CI=true`, so
//! a mismatch fails and nothing is accepted; `every_snapshot_file_is_referenced` fails
//! when a snapshot file exists that no test names (the `--unreferenced=reject` rule).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::run::{Subjects, run};
use serde_json::{Value, json};
use std::path::Path;

fn report_summary() -> Value {
    let spec =
        bloomproof_conformance::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec"))
            .unwrap();
    let report = run(&spec, &mut Subjects::rust(), None);
    let checks: Vec<Value> = report
        .checks
        .iter()
        .map(|c| json!({"check": c.full_name(), "cases": c.cases, "passed": c.passed()}))
        .collect();
    let figures: serde_json::Map<String, Value> = report
        .figures
        .iter()
        .flat_map(|(protocol, figures)| {
            figures.iter().map(move |line| {
                (
                    format!("{protocol}/{}", line.name),
                    json!({"observed": line.observed, "published": line.published}),
                )
            })
        })
        .collect();
    json!({"checks": checks, "figures": figures, "passed": report.passed, "failed": report.failed})
}

#[test]
fn conformance_report() {
    insta::assert_json_snapshot!("conformance-report", report_summary());
}

/// Every snapshot the test files of this folder name, as the file insta writes for
/// it: `<test file>__<name>.snap`.
fn named_snapshots() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        for (at, needle) in text.match_indices("_snapshot!(\"") {
            let after = &text[at + needle.len()..];
            if let Some(end) = after.find('"') {
                names.push(format!("{stem}__{}.snap", &after[..end]));
            }
        }
    }
    names
}

#[test]
fn every_snapshot_file_is_referenced() {
    let named = named_snapshots();
    // The scan finds every snapshot of this crate's tests, this file's own among them.
    assert!(named.contains(&"fingerprints__conformance-report.snap".to_string()));
    assert!(named.len() >= 4, "{named:?}");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut unreferenced = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !named.contains(&name) {
            unreferenced.push(name);
        }
    }
    assert!(
        unreferenced.is_empty(),
        "snapshot files no test names (delete them, or a pending `.snap.new` awaits `cargo insta review`): {unreferenced:?}"
    );
}
