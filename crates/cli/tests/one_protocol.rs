//! An adapter that lists one protocol in its handshake (ADAPTER.md: an adapter can grow
//! one protocol at a time), correct for that protocol, passes: every adapter-protocol
//! case and probe it gets is of the protocol it lists (or of none), and the other
//! protocol is "not run" in the report, the JSON report, the matrix and its badge, and
//! in cross-reading (never a difference).

mod common;

use std::path::Path;

const DOC: &str = "doc-membership-v1";
const FNV: &str = "fnv1a-utf16-v1";

/// `bloomproof adapter` behind a proxy whose handshake lists `protocol` alone and which
/// refuses the other protocol's requests as an adapter of one protocol does.
fn one_protocol(protocol: &str) -> String {
    common::proxy("one_protocol.py", protocol)
}

fn conformance(command: &str, format: &str) -> (Option<i32>, String, String) {
    common::conformance_through(command, &["--format", format])
}

#[test]
fn an_adapter_of_one_protocol_passes_with_the_other_not_run() {
    for (listed, other) in [(DOC, FNV), (FNV, DOC)] {
        let command = one_protocol(listed);
        let (code, json, stderr) = conformance(&command, "json");
        assert_eq!(code, Some(0), "{listed} only:\n{json}\n{stderr}");
        let report: serde_json::Value = serde_json::from_str(&json).expect("a JSON report");
        let checks = report["checks"].as_array().expect("checks");
        // Nothing of the other protocol ran, and the adapter protocol's own checks did.
        assert!(
            checks.iter().all(|c| c["protocol"] != other),
            "{listed} only: a check of {other} ran"
        );
        assert!(
            checks
                .iter()
                .any(|c| c["protocol"] == "adapter-protocol" && c["class"] == "adapter"),
            "{listed} only: no adapter-protocol check ran"
        );
        for check in checks {
            assert_eq!(
                check["failures"],
                serde_json::json!([]),
                "{listed} only: {check}"
            );
        }
        let missing = report["not_implemented"]
            .as_array()
            .expect("not_implemented");
        assert_eq!(missing.len(), 1, "{listed} only: {missing:?}");
        assert_eq!(missing[0]["protocol"], other);
        // The other protocol's checks, and the adapter-protocol checks whose every case
        // is of it, are counted as not run.
        let (_, text, _) = conformance(&command, "text");
        let line = format!(
            "not run: {other} ({} checks): the adapter's handshake does not list it",
            missing[0]["checks"]
        );
        assert!(text.contains(&line), "{text}");
    }
}

/// The adapter-protocol checks whose cases are all of one protocol are not run against
/// an adapter of the other: `script_step_limit` is a `session` script. One whose cases
/// are of both runs against either, on its cases of that protocol: `response_size_limit`
/// (a `lookup_many`, and a `session` of emoji drafts).
#[test]
fn adapter_protocol_cases_are_drawn_from_the_listed_protocols() {
    let ran = |listed: &str| -> Vec<String> {
        let (_, json, _) = conformance(&one_protocol(listed), "json");
        let report: serde_json::Value = serde_json::from_str(&json).expect("a JSON report");
        report["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .filter(|c| c["protocol"] == "adapter-protocol")
            .filter_map(|c| c["name"].as_str().map(String::from))
            .collect()
    };
    let (doc, fnv) = (ran(DOC), ran(FNV));
    let has = |names: &[String], name: &str| names.iter().any(|n| n == name);
    assert!(
        !has(&doc, "script_step_limit") && has(&doc, "response_size_limit"),
        "{doc:?}"
    );
    assert!(
        has(&fnv, "script_step_limit") && has(&fnv, "response_size_limit"),
        "{fnv:?}"
    );
}

#[test]
fn the_matrix_shows_the_unlisted_protocol_as_not_run() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let args = [
        "--require".to_string(),
        "all".into(),
        "--impl".into(),
        format!("doc-only={}", one_protocol(DOC)),
        "--impl".into(),
        format!("fnv-only={}", one_protocol(FNV)),
    ];
    let (out, stdout) = common::matrix_in(dir.path(), &args);
    let badge = |name: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(out.join("badges").join(format!("{name}.json")))
            .expect("the badge is written");
        serde_json::from_str(&text).expect("JSON")
    };
    for (name, other) in [("doc-only", FNV), ("fnv-only", DOC)] {
        let badge = badge(name);
        let message = badge["message"].as_str().unwrap_or_default();
        assert!(message.starts_with("core "), "{message}");
        assert!(
            message.ends_with(&format!("; {other} not run")),
            "{message}"
        );
        assert_eq!(badge["color"], "brightgreen", "{badge}");
    }
    // spec/README.md shows the doc-only badge as its example: its counts are this run's.
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/README.md"))
            .expect("spec/README.md");
    let doc_only = badge("doc-only");
    let example = doc_only["message"].as_str().unwrap_or_default();
    assert!(
        readme
            .replace('\n', " ")
            .contains(&format!("(`{example}`)")),
        "spec/README.md's badge example is not a doc-only adapter's badge: {example}"
    );
    // Cross-reading: nobody reads or writes a protocol it does not list; never DIFFERS
    // (stdout is a short summary; summary.md has each grid).
    let summary = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    assert!(
        !stdout.contains("DIFFERS") && !summary.contains("DIFFERS"),
        "{summary}"
    );
    assert!(
        summary.contains(&format!(
            "Not run: fnv-only (the handshake does not list {DOC})."
        )),
        "{summary}"
    );
    assert!(
        summary.contains(&format!(
            "Not run: doc-only (the handshake does not list {FNV})."
        )),
        "{summary}"
    );
    let matrix: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("matrix.json")).expect("matrix.json"),
    )
    .expect("JSON");
    for grid in matrix["cross"].as_array().expect("grids") {
        assert_eq!(grid["not_run"].as_array().map(Vec::len), Some(1), "{grid}");
    }
}
