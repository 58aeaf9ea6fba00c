//! `doc-membership-v1`'s fingerprint for review: a change to the protocol shows up here as a
//! snapshot diff (accept it with `cargo insta review` only when the change is intended).
//! The snapshots are named explicitly; `fingerprints.rs` fails on a snapshot file no
//! test names, and CI accepts none.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_filter::DocumentPrefilter;
use bloomproof_protocol::doc_membership_v1 as doc;
use serde_json::{Value, json};

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

#[test]
fn protocol_fingerprint() {
    insta::assert_json_snapshot!("doc-membership-v1-fingerprint", doc_fingerprint());
}
