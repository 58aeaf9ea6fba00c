//! `ServedOp::is_cheap` at the edges of each budget: the fuzz target of adapter
//! requests answers exactly the requests it calls cheap, so a budget that slips lets
//! the fuzzer spend seconds on one input, and one that shrinks hides requests from it.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_adapter::protocols::fnv1a_utf16_v1::SCRIPT_HELPER_MAX;
use bloomproof_adapter::serve::{Request, parse_request};
use serde_json::{Value, json};

fn cheap(op: Value) -> bool {
    let mut request = json!({"id": 1});
    request
        .as_object_mut()
        .unwrap()
        .extend(op.as_object().unwrap().clone());
    match parse_request(&request.to_string()).expect("the request parses") {
        (_, Request::Op(op)) => op.is_cheap(),
        (_, Request::Start(_)) => panic!("not an operation"),
    }
}

fn estimates(m: u32, k: u32, n: u32) -> bool {
    cheap(json!({"protocol": "fnv1a-utf16-v1", "op": "estimates", "m": m, "k": k, "n": n}))
}

fn script(steps: Vec<Value>) -> bool {
    cheap(json!({"protocol": "fnv1a-utf16-v1", "op": "session", "script": steps}))
}

#[test]
fn every_doc_membership_operation_is_cheap() {
    let params = json!({"m": 4096, "k": 16, "seed_hex": ""});
    for op in [
        json!({"op": "sha256", "data": "00"}),
        json!({"op": "positions", "params": params, "item": "00"}),
        json!({"op": "build", "params": params, "records": ["00"]}),
    ] {
        let mut op = op;
        op["protocol"] = json!("doc-membership-v1");
        assert!(cheap(op.clone()), "{op}");
    }
}

#[test]
fn estimates_are_cheap_up_to_a_work_of_two_to_the_22_after_clamping() {
    // 1024 * 4 * 1024 = 2^22.
    assert!(estimates(1024, 4, 1024));
    assert!(!estimates(1024, 5, 1024));
    assert!(!estimates(1024, 12, 1024));
    // Clamped first: m above 1024 counts as 1024, n above 1024 as 1024, k below 1 as 1.
    assert!(estimates(u32::MAX, 4, u32::MAX));
    assert!(!estimates(u32::MAX, 5, u32::MAX));
    assert!(estimates(0, 0, 0));
    assert!(estimates(1024, 0, 1024));
    // m below 8 counts as 8: 8 * 12 * 1024 is cheap.
    assert!(estimates(0, 12, 1024));
    assert!(cheap(
        json!({"protocol": "fnv1a-utf16-v1", "op": "positions", "m": 1024, "k": 12, "units": [0]})
    ));
}

#[test]
fn scripts_are_cheap_up_to_16_steps_and_bounded_helpers() {
    let reset = || json!({"op": "reset"});
    assert!(script(vec![reset(); 16]));
    assert!(!script(vec![reset(); 17]));
    let many = |count: u32| {
        script(vec![
            json!({"op": "insert_many", "prefix": "x", "count": count}),
        ])
    };
    assert!(many(64));
    assert!(!many(65));
    for op in ["import_padded", "save_local"] {
        let field = if op == "import_padded" {
            "bytes"
        } else {
            "units"
        };
        let helper = |size: usize| script(vec![json!({"op": op, field: size})]);
        assert!(helper(1 << 20), "{op}");
        assert!(!helper((1 << 20) + 1), "{op}");
        assert!(!helper(SCRIPT_HELPER_MAX), "{op}");
        // Beyond what the subject builds, the refusal is cheap again.
        assert!(helper(SCRIPT_HELPER_MAX + 1), "{op}");
    }
}
