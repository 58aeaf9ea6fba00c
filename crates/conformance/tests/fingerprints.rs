//! Protocol fingerprints for review: a protocol change shows up here as a snapshot
//! diff (accept it with `cargo insta review` only when the change is intended).
//!
//! Every snapshot is named explicitly. CI runs with `INSTA_UPDATE=no` and `CI=true`, so
//! a mismatch fails and nothing is accepted; `every_snapshot_file_is_referenced` fails
//! when a snapshot file exists that no test names (the `--unreferenced=reject` rule).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::run::{Subjects, run};
use bloomproof_filter::DocumentPrefilter;
use bloomproof_protocol::doc_membership_v1 as doc;
use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
use bloomproof_session::{Op, Session};
use serde_json::{Value, json};
use std::path::Path;

/// Every snapshot this file writes, by name.
const SNAPSHOTS: &[&str] = &[
    "doc-membership-v1-fingerprint",
    "fnv1a-utf16-v1-fingerprint",
    "fnv1a-utf16-v1-session-export",
    "conformance-report",
];

fn doc_fingerprint() -> Value {
    let inputs: [(u64, u64, &[u8], &[u8]); 6] = [
        (16, 3, b"lab", b"doc-04"),
        (9, 2, b"S", b"\x00A"),
        (8, 1, b"", b""),
        (31, 4, b"\x00", "\u{e9}".as_bytes()),
        (512, 8, b"ssssssssssssssss", &[0xab; 64]),
        (100, 5, b"\xff", b"e\xcc\x81"),
    ];
    let stages: Vec<Value> = inputs
        .iter()
        .map(|&(m, k, seed, item)| {
            let params = doc::Params::new(m, k, seed).unwrap();
            let per_index: Vec<Value> = (0..params.k())
                .map(|i| {
                    json!({
                        "message": hex::encode(doc::message(&params, i, item).unwrap().as_bytes()),
                        "digest": hex::encode(doc::digest(&params, i, item).unwrap()),
                        "position": doc::position(&params, i, item).unwrap(),
                    })
                })
                .collect();
            json!({"m": m, "k": k, "seed": hex::encode(seed), "item": hex::encode(item), "stages": per_index})
        })
        .collect();
    let universe: Vec<Vec<u8>> = (0..64)
        .map(|i| format!("doc-{i:02}").into_bytes())
        .collect();
    let snapshots: Vec<Value> = [(16u64, 3u64, &b"lab"[..], 4usize), (9, 2, b"S", 8), (512, 8, b"s", 64), (100, 5, b"", 20)]
        .iter()
        .map(|&(m, k, seed, n)| {
            let snapshot = DocumentPrefilter::new(&universe[..n], m, k, seed).unwrap();
            json!({"m": m, "k": k, "seed": hex::encode(seed), "records": format!("doc-00..doc-{:02}", n - 1),
                   "packed_bits": hex::encode(snapshot.packed_bits()), "bits_set": snapshot.bits_set()})
        })
        .collect();
    json!({"protocol": doc::NAME, "domain": hex::encode(doc::DOMAIN), "stages": stages, "snapshots": snapshots})
}

fn fnv_fingerprint() -> Value {
    let strings: Vec<(String, Vec<u16>)> = [
        "a",
        "b",
        "h",
        "i",
        "hello",
        "\u{e9}",
        "e\u{301}",
        "\u{1F600}",
        " a ",
        "doc-04",
    ]
    .iter()
    .map(|s| (format!("{s:?}"), fnv::units(s)))
    .chain([
        ("lone d800".to_string(), vec![0xd800]),
        ("0000 ffff".to_string(), vec![0, 0xffff]),
    ])
    .collect();
    let rows: Vec<Value> = strings
        .iter()
        .map(|(label, units)| {
            let h = fnv::base_hashes(units);
            let m8 = fnv::positions(&fnv::Params::new(8, 1).unwrap(), h);
            let m1000 = fnv::positions(&fnv::Params::new(1000, 12).unwrap(), h);
            json!({"string": label, "units": units, "h1": h.h1, "h2": h.h2, "m8_k1": m8, "m1000_k12": m1000})
        })
        .collect();
    json!({"protocol": fnv::NAME, "basis_h1": fnv::BASIS_H1, "basis_h2": fnv::BASIS_H2, "prime": fnv::PRIME, "strings": rows})
}

fn canonical_session() -> String {
    let mut session = Session::new();
    let ops = [
        json!({"op": "set_draft", "field": "m", "value": "16"}),
        json!({"op": "set_draft", "field": "k", "value": "3"}),
        json!({"op": "create"}),
        json!({"op": "insert_example"}),
        json!({"op": "insert", "value": "\u{1F600} \u{e9}"}),
        json!({"op": "insert", "value": [0xd800]}),
        json!({"op": "query", "value": "zz"}),
        json!({"op": "query", "value": "a"}),
        json!({"op": "set_panel", "panel": "model", "open": true}),
        json!({"op": "set_draft", "field": "query", "value": "half"}),
    ];
    for op in ops {
        let op: Op = serde_json::from_value(op).unwrap();
        session.apply(&op).unwrap();
    }
    session.export()
}

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
fn protocol_fingerprints() {
    insta::assert_json_snapshot!("doc-membership-v1-fingerprint", doc_fingerprint());
    insta::assert_json_snapshot!("fnv1a-utf16-v1-fingerprint", fnv_fingerprint());
    insta::assert_snapshot!("fnv1a-utf16-v1-session-export", canonical_session());
}

#[test]
fn conformance_report() {
    insta::assert_json_snapshot!("conformance-report", report_summary());
}

#[test]
fn every_snapshot_file_is_referenced() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut unreferenced = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let referenced = SNAPSHOTS
            .iter()
            .any(|s| name == format!("fingerprints__{s}.snap"));
        if !referenced {
            unreferenced.push(name);
        }
    }
    assert!(
        unreferenced.is_empty(),
        "snapshot files no test names (delete them, or a pending `.snap.new` awaits `cargo insta review`): {unreferenced:?}"
    );
}
