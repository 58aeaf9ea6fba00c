//! `fnv1a-utf16-v1`'s fingerprint for review: a change to the protocol shows up here as a
//! snapshot diff (accept it with `cargo insta review` only when the change is intended).
//! The snapshots are named explicitly; `fingerprints.rs` fails on a snapshot file no
//! test names, and CI accepts none.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
use bloomproof_session::{Op, Session};
use serde_json::{Value, json};

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

#[test]
fn protocol_fingerprint() {
    insta::assert_json_snapshot!("fnv1a-utf16-v1-fingerprint", fnv_fingerprint());
    insta::assert_snapshot!("fnv1a-utf16-v1-session-export", canonical_session());
}
