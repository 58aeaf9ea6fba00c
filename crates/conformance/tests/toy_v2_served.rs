//! The toy `doc-membership-v2` (issue 42) on the serving side: `bloomproof adapter`'s
//! entry for a doc-membership version is a value of the family
//! (`DocMembership::of(&family)`), so a new version is served under its name, hashing
//! with its domain and refusing at its bounds, with no code of its own. Expected values
//! are the oracle's under v2's domain (written out by hand as hex).

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_adapter::protocols::doc_membership_v1::serve::DocMembership;
use bloomproof_adapter::serve::ServedProtocol;
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_protocol::doc_membership::DocFamily;
use bloomproof_protocol::doc_membership_v1::BOUNDS;
use serde_json::{Value, json};

/// v2 in production: v1's bounds, its own domain.
static FAMILY: DocFamily = DocFamily::new("doc-membership-v2", b"doc-membership-v2\0", BOUNDS);

/// "doc-membership-v2" and one zero byte.
const DOMAIN_HEX: &str = "646f632d6d656d626572736869702d763200";

/// The served answer to `op` (a request without `id` and `protocol`).
fn answer(entry: &DocMembership, op: Value) -> Result<Value, String> {
    let op = entry.parse(op).map_err(|e| e.to_string())?;
    op.answer().map_err(|e| format!("{e:?}"))
}

#[test]
fn a_version_is_served_under_its_name_with_its_domain_and_bounds() {
    let v2 = DocMembership::of(&FAMILY);
    assert_eq!(v2.name(), "doc-membership-v2");
    let (m, k, seed, item) = (16, 3, b"lab".as_slice(), b"doc-04".as_slice());
    let params = json!({"m": m, "k": k, "seed_hex": "6c6162"});
    let positions = json!({"op": "positions", "params": params, "item": "646f632d3034"});
    let got = answer(&v2, positions.clone()).unwrap();
    assert_eq!(
        got["positions"],
        json!(oracle::positions(DOMAIN_HEX, m, k, seed, item))
    );
    // v1's entry answers the same request with v1's hashes.
    assert_ne!(answer(&DocMembership::V1, positions).unwrap(), got);
    for index in 0..k {
        let frame =
            json!({"op": "frame", "params": params, "index": index, "item": "646f632d3034"});
        let framed = answer(&v2, frame).unwrap();
        assert_eq!(
            framed["message"],
            json!(oracle::message_hex(DOMAIN_HEX, m, k, seed, index, item)),
            "index {index}"
        );
        assert_eq!(
            framed["digest"],
            json!(oracle::digest_hex(DOMAIN_HEX, m, k, seed, index, item)),
            "index {index}"
        );
    }
    // The version's bounds: one past m's largest is refused, naming m.
    let past = json!({"op": "positions", "params": {"m": BOUNDS.m[1] + 1, "k": 1, "seed_hex": ""}, "item": ""});
    let refused = answer(&v2, past).unwrap_err();
    assert!(refused.contains("\"m\""), "{refused}");
}
