//! The toy `doc-membership-v2` (issue 42 item 4): `doc-membership-v1` with another
//! domain, so that every hash changes, built from the family as a new version would
//! be, and its checks run against the Rust implementation with expected values from
//! the oracle. It keeps the recipe honest: a version is a production `DocFamily`
//! value, a runner `DocVersion` value (the oracle's domain, its generators, its
//! production subject) and its registry entry `DocMembership { version }`; its cases
//! here are v1's derivation parameterised (v1's bytes-only generated cases, and a
//! stages case whose every expected value is the oracle's under v2's domain).

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_conformance::generated::Generation;
use bloomproof_conformance::protocols::doc_membership_v1::{
    BYTES_GENERATORS, DocMembership, DocVersion, V1,
};
use bloomproof_conformance::protocols::{Protocol, ProtocolSubject};
use bloomproof_conformance::subjects::doc_membership_v1::RustDoc;
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_protocol::doc_membership::DocFamily;
use bloomproof_protocol::doc_membership_v1::BOUNDS;
use bloomproof_wire::report::{Class, Figures};
use serde_json::{Value, json};
use std::path::Path;

const NAME: &str = "doc-membership-v2";

/// v2 in production: v1's bounds, its own domain.
static FAMILY: DocFamily = DocFamily::new(NAME, b"doc-membership-v2\0", BOUNDS);

/// v2 as the runner sees it. The domain's hex is written out by hand ("doc-membership-v2"
/// and one zero byte), not derived from the production value.
static V2: DocVersion = DocVersion {
    name: NAME,
    domain_hex: "646f632d6d656d626572736869702d763200",
    generators: &BYTES_GENERATORS,
    rust_subject: || Box::new(RustDoc::of(&FAMILY)),
};

/// v2's registry entry.
const ENTRY: DocMembership = DocMembership { version: &V2 };

/// v1's cases as its derivation wrote them (`spec/doc-membership-v1/cases.json`).
fn v1_cases() -> Vec<Value> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/doc-membership-v1/cases.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    file["cases"].as_array().unwrap().clone()
}

/// v2's cases: v1's generated cases of the bytes operations (their expected values are
/// the oracle's, under the running version's domain), and the stages of `doc-04` in the
/// seed's fixture (m 16, k 3, seed "lab"), every stage the oracle's under v2's domain.
fn v2_cases() -> Vec<Value> {
    let mut cases: Vec<Value> = v1_cases()
        .into_iter()
        .filter(|case| {
            case["shape"] == "generated"
                && ["doc_hashing", "doc_snapshots"]
                    .contains(&case["input"]["generator"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        cases.len(),
        3,
        "v1's hashing, snapshots and reads generated cases"
    );
    let (m, k, seed, item) = (16, 3, b"lab".as_slice(), b"doc-04".as_slice());
    let positions = oracle::positions(V2.domain_hex, m, k, seed, item);
    let stages: Vec<Value> = (0..k)
        .map(|index| {
            json!({
                "message_hex": oracle::message_hex(V2.domain_hex, m, k, seed, index, item),
                "digest_hex": oracle::digest_hex(V2.domain_hex, m, k, seed, index, item),
                "position": positions[index as usize],
            })
        })
        .collect();
    let occupied = oracle::position_set(V2.domain_hex, m, k, seed, item);
    cases.push(json!({
        "id": "v2-fixture/doc-04",
        "check": "every_stage_pinned",
        "shape": "stages",
        "rules": ["DOC-HASH-MESSAGE", "DOC-HASH-POSITION", "DOC-BITS-PACKED"],
        "input": {"params": {"m": m, "k": k, "seed_hex": "6c6162"}, "item_hex": "646f632d3034"},
        "expect": {"stages": stages, "packed_hex": oracle::packed_hex(&occupied, m)},
    }));
    cases
}

/// Runs `cases` as `entry`'s cases on `subject`: how many ran and the failures' texts.
fn run(
    entry: &DocMembership,
    cases: &[Value],
    mut subject: Box<dyn ProtocolSubject>,
) -> (usize, Vec<String>) {
    let mut list = entry.new_cases();
    let mut ids = Vec::new();
    for case in cases {
        list.push(case).unwrap();
        ids.push(case["id"].as_str().unwrap().to_string());
    }
    let generation = Generation {
        seed: 42,
        count: Some(24),
        shrink: false,
    };
    let (ran, failures) = list.run(
        &ids,
        Class::Core,
        subject.as_mut(),
        &generation,
        &mut Figures::default(),
    );
    (
        ran,
        failures
            .iter()
            .map(|f| format!("{}: {}", f.case, f.what))
            .collect(),
    )
}

#[test]
fn v2_is_a_version_of_the_family() {
    assert_eq!(ENTRY.name(), NAME);
    assert_eq!(FAMILY.name(), NAME);
    assert_eq!(
        bloomproof_oracle::hex::encode(FAMILY.domain()),
        V2.domain_hex
    );
    let kinds: Vec<_> = ENTRY.generators().iter().map(|g| g.generator).collect();
    assert_eq!(
        kinds,
        [V1.generators[0].generator, V1.generators[1].generator]
    );
}

#[test]
fn v2_checks_pass_against_its_rust_implementation() {
    let cases = v2_cases();
    let (ran, failures) = run(&ENTRY, &cases, ENTRY.rust_subject());
    assert_eq!(ran, cases.len());
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every hash changes with the domain: v2's checks fail v1's implementation, and v1's
/// fail v2's, each case of them.
#[test]
fn v1_and_v2_fail_each_others_checks() {
    let cases = v2_cases();
    let failed_each = |cases: &[Value], failures: &[String]| {
        for case in cases {
            let id = case["id"].as_str().unwrap();
            assert!(
                failures.iter().any(|f| f.starts_with(id)),
                "{id} passed: {failures:#?}"
            );
        }
    };
    let (ran, failures) = run(&ENTRY, &cases, DocMembership::V1.rust_subject());
    assert_eq!(ran, cases.len());
    failed_each(&cases, &failures);
    let generated: Vec<Value> = cases
        .iter()
        .filter(|c| c["shape"] == "generated")
        .cloned()
        .collect();
    let (ran, failures) = run(&DocMembership::V1, &generated, ENTRY.rust_subject());
    assert_eq!(ran, generated.len());
    failed_each(&generated, &failures);
}
