//! The toy `doc-membership-v2` (issue 42 item 4): `doc-membership-v1` with another
//! domain, so that every hash changes, added exactly as CONTRIBUTING.md's recipe says
//! a version is added, and run as the runner runs any protocol. The recipe's three
//! steps are what this file touches:
//! 1. an impl: the production `DocFamily` value ([`FAMILY`]) and the runner's
//!    `DocVersion` value ([`V2`]: the oracle's domain, its generators, its production
//!    subject);
//! 2. a registry line: `DocMembership { version: &V2 }` in a registry beside v1 and
//!    fnv1a-utf16-v1 ([`REGISTRY`]), which the loader and the run take;
//! 3. a spec folder: `tests/toy_v2/spec/doc-membership-v2/` (`checks.json`,
//!    `cases.json`), v1's derivation with the version as a parameter: v1's bytes-only
//!    checks, their generated cases as v1's, and v1's stage cases with every expected
//!    value the oracle's under v2's domain. [`derived`] writes it; a test holds the
//!    folder to it (`BLOOMPROOF_TOY_V2_WRITE=1` rewrites it).
//!
//! The folder is loaded by the spec loader and run by `run_with_threads`, so the report
//! names v2's checks; each fails when v2's subject is v1's implementation, and a wrong
//! expected value in the folder fails its check.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_conformance::load::load_files_with;
use bloomproof_conformance::protocols::doc_membership_v1::{
    BYTES_GENERATORS, DocMembership, DocVersion, V1,
};
use bloomproof_conformance::protocols::fnv1a_utf16_v1::Fnv1aUtf16V1;
use bloomproof_conformance::protocols::{Protocol, Registry};
use bloomproof_conformance::run::{Subjects, run_with_threads};
use bloomproof_conformance::subjects::doc_membership_v1::RustDoc;
use bloomproof_conformance::{Report, Spec, load_with};
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_protocol::doc_membership::DocFamily;
use bloomproof_protocol::doc_membership_v1::BOUNDS;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const NAME: &str = "doc-membership-v2";

/// Step 1, production: v2 is v1's bounds and its own domain.
static FAMILY: DocFamily = DocFamily::new(NAME, b"doc-membership-v2\0", BOUNDS);

/// Step 1, the runner: v2 as plain values. The domain's hex is written out by hand
/// ("doc-membership-v2" and one zero byte), not derived from the production value.
static V2: DocVersion = DocVersion {
    name: NAME,
    domain_hex: "646f632d6d656d626572736869702d763200",
    generators: &BYTES_GENERATORS,
    rust_subject: || Box::new(RustDoc::of(&FAMILY)),
    hooks: false,
};

/// Step 2: v2's registry line.
const ENTRY: DocMembership = DocMembership { version: &V2 };

/// The registry the loader and the run take: the built-in one and v2.
static REGISTRY: &[&dyn Protocol] = &[&DocMembership::V1, &ENTRY, &Fnv1aUtf16V1];

fn registry() -> Registry {
    Registry(REGISTRY)
}

/// The checks of v1 that v2 takes up: the bytes operations (hashing and snapshots).
const CHECKS: [&str; 4] = [
    "every_stage_pinned",
    "generated_hashing_agrees_with_oracle",
    "generated_snapshots_agree_with_oracle",
    "generated_reads_agree_with_oracle",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Step 3: the spec folder of this test.
fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/toy_v2/spec")
}

fn v1_file(name: &str) -> Value {
    let path = root().join("spec/doc-membership-v1").join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Where the folder's files point for their schemas: the repository's.
const SCHEMAS: &str = "../../../../../../spec/schemas";

/// The expectation of a `stages` case of `input` (v1's), every value the oracle's
/// under v2's domain: each framed message, its digest and position, and the packed
/// bits of the one-record snapshot.
fn stages_expect(input: &Value) -> Value {
    let params = &input["params"];
    let m = u32::try_from(params["m"].as_u64().unwrap()).unwrap();
    let k = u32::try_from(params["k"].as_u64().unwrap()).unwrap();
    let seed = hex::decode(params["seed_hex"].as_str().unwrap()).unwrap();
    let item = hex::decode(input["item_hex"].as_str().unwrap()).unwrap();
    let domain = V2.domain_hex;
    let positions = oracle::positions(domain, m, k, &seed, &item);
    let stages: Vec<Value> = (0..k)
        .map(|index| {
            json!({
                "message_hex": oracle::message_hex(domain, m, k, &seed, index, &item),
                "digest_hex": oracle::digest_hex(domain, m, k, &seed, index, &item),
                "position": positions[index as usize],
            })
        })
        .collect();
    let occupied = oracle::position_set(domain, m, k, &seed, &item);
    json!({"stages": stages, "packed_hex": oracle::packed_hex(&occupied, m)})
}

/// The folder's files as v1's derivation gives them for v2: (name under the spec
/// folder, text). `checks.json` holds v1's entries of [`CHECKS`] (no published
/// figure: the family's figure hooks are v1's); `cases.json` v1's cases of them, the
/// generated ones as they are (their expected values are the oracle's under the running
/// version's domain), the stage cases with [`stages_expect`] and the flag `oracle`.
fn derived() -> Vec<(String, String)> {
    let v1_checks = v1_file("checks.json");
    let checks: Vec<Value> = v1_checks["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| CHECKS.contains(&c["name"].as_str().unwrap()))
        .cloned()
        .collect();
    assert_eq!(
        checks.len(),
        CHECKS.len(),
        "v1 documents every check of CHECKS"
    );
    let checks = json!({
        "$schema": format!("{SCHEMAS}/checks.schema.json"),
        "protocol": NAME,
        "format_version": 1,
        "check_count": checks.len(),
        "published_figures": [],
        "checks": checks,
    });
    let v1_cases = v1_file("cases.json");
    let mut flags = serde_json::Map::new();
    flags.insert(
        "oracle".into(),
        json!(
            "Pinned values are the independent oracle's under doc-membership-v2's domain, \
             written by crates/conformance/tests/toy_v2.rs and held to it."
        ),
    );
    let cases: Vec<Value> = v1_cases["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| CHECKS.contains(&c["check"].as_str().unwrap()))
        .map(|case| {
            let mut case = case.clone();
            if case["shape"] == "stages" {
                case["expect"] = stages_expect(&case["input"]);
                let mut kept = vec![json!("oracle")];
                for flag in case["flags"].as_array().unwrap() {
                    let name = flag.as_str().unwrap();
                    if name != "derived" {
                        flags.insert(name.into(), v1_cases["flags"][name].clone());
                        kept.push(flag.clone());
                    }
                }
                case["flags"] = Value::Array(kept);
            } else {
                assert_eq!(case["shape"], "generated", "{case}");
                assert!(case.get("flags").is_none(), "{case}");
            }
            case
        })
        .collect();
    let cases = json!({
        "$schema": format!("{SCHEMAS}/doc-membership-v1.cases.schema.json"),
        "protocol": NAME,
        "format_version": 1,
        "case_count": cases.len(),
        "flags": flags,
        "cases": cases,
    });
    let text = |value: &Value| serde_json::to_string_pretty(value).unwrap() + "\n";
    vec![
        (format!("{NAME}/checks.json"), text(&checks)),
        (format!("{NAME}/cases.json"), text(&cases)),
    ]
}

/// The folder's files as committed: (name under the spec folder, text).
fn committed() -> Vec<(String, String)> {
    ["checks.json", "cases.json"]
        .iter()
        .map(|file| {
            let name = format!("{NAME}/{file}");
            let text = std::fs::read_to_string(folder().join(&name)).unwrap_or_default();
            (name, text)
        })
        .collect()
}

/// v2's folder loaded with `files` (the committed ones, or edited copies), as the loader
/// reads any spec.
fn load(files: &[(String, String)]) -> Spec {
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(name, text)| (name.as_str(), text.as_bytes()))
        .collect();
    load_files_with(&folder(), &files, registry()).unwrap()
}

/// Runs every check of `spec` on `subjects`, on two threads, without times.
fn run(spec: &Spec, subjects: &mut Subjects) -> Report {
    run_with_threads(spec, subjects, None, 2).without_times()
}

#[test]
fn the_spec_folder_is_its_derivation() {
    let derived = derived();
    if std::env::var_os("BLOOMPROOF_TOY_V2_WRITE").is_some() {
        for (name, text) in &derived {
            let path = folder().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }
    for ((name, want), (_, got)) in derived.iter().zip(committed()) {
        assert!(
            *want == got,
            "tests/toy_v2/spec/{name} is not its derivation: rerun with BLOOMPROOF_TOY_V2_WRITE=1"
        );
    }
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
    assert_eq!(registry().names(), [V1.name, NAME, "fnv1a-utf16-v1"]);
}

/// The folder on disk, through the loader of a spec folder: v2 alone, its checks named
/// in the report, each passing against v2's implementation with every case run.
#[test]
fn v2_folder_loads_and_passes_against_its_rust_implementation() {
    let spec = load_with(&folder(), registry()).unwrap();
    let names: Vec<&str> = spec.protocols.iter().map(|p| p.protocol.as_str()).collect();
    assert_eq!(names, [NAME]);
    let report = run(&spec, &mut Subjects::rust_of(registry()));
    let ran: Vec<String> = report.checks.iter().map(|c| c.full_name()).collect();
    let want: Vec<String> = CHECKS.iter().map(|c| format!("{NAME}/{c}")).collect();
    assert_eq!(ran, want);
    for check in &report.checks {
        assert!(check.cases > 0, "{}", check.full_name());
        assert!(check.passed(), "{}", check.render_failures());
    }
    assert_eq!(report.failed, 0);
    assert_eq!(
        report.checks[0].cases, 6,
        "v1's six stage cases, v2's values"
    );
}

/// v1's implementation answering for v2: every check of v2 fails, each case of it.
#[test]
fn v2_checks_fail_v1s_implementation() {
    let spec = load(&committed());
    let mut subjects = Subjects::rust_of(registry()).with(ENTRY.subject(Box::new(RustDoc::v1())));
    let report = run(&spec, &mut subjects);
    assert_eq!(report.checks.len(), CHECKS.len());
    for check in &report.checks {
        assert!(!check.passed(), "{} passed", check.full_name());
    }
    let stages = &report.checks[0];
    let failed: std::collections::BTreeSet<&str> =
        stages.failures.iter().map(|f| f.case.as_str()).collect();
    assert_eq!(failed.len(), stages.cases, "{failed:?}");
}

/// One wrong expected value in v2's folder (a digest's last hex digit) fails its check,
/// naming the case, and only that check.
#[test]
fn a_wrong_expected_value_in_the_folder_fails_its_check() {
    let mut files = committed();
    let cases = &mut files[1].1;
    let digest = "\"digest_hex\": \"";
    let at = cases.find(digest).unwrap() + digest.len() + 63;
    let digit = if &cases[at..=at] == "0" { "1" } else { "0" };
    cases.replace_range(at..=at, digit);
    let report = run(&load(&files), &mut Subjects::rust_of(registry()));
    let failed: Vec<String> = report
        .checks
        .iter()
        .filter(|c| !c.passed())
        .map(|c| c.full_name())
        .collect();
    assert_eq!(failed, [format!("{NAME}/every_stage_pinned")]);
    let failures = &report.checks[0].failures;
    assert!(
        failures.iter().all(|f| f.case == "15-fixture/doc-04"),
        "{failures:#?}"
    );
}

/// v2 first: a subject looked up by its type rather than its protocol's name would
/// find v2's for a check of v1.
static BOTH: &[&dyn Protocol] = &[&ENTRY, &DocMembership::V1];

/// v1's whole spec folder, its accumulated digests and its vector files, and v2's
/// folder: one spec of two doc versions, its generated inputs drawn from seed 7 without
/// shrinking.
fn both() -> Spec {
    let read = |path: PathBuf| std::fs::read_to_string(path).unwrap();
    let mut files = committed();
    for file in ["checks.json", "cases.json"] {
        let path = root().join("spec/doc-membership-v1").join(file);
        files.push((format!("{}/{file}", V1.name), read(path)));
    }
    files.push((
        "accumulated.json".into(),
        read(root().join("spec/accumulated.json")),
    ));
    let mut spec = load(&files);
    spec.vectors = bloomproof_conformance::vectors::load(&root().join("vectors"))
        .unwrap()
        .into_iter()
        .filter(|v| v.protocol() == V1.name)
        .collect();
    spec.set_generation(bloomproof_conformance::generated::Generation {
        seed: 7,
        count: None,
        shrink: false,
    });
    spec
}

/// The checks of `report` of `protocol` that failed and that passed, by name.
fn outcomes(report: &Report, protocol: &str) -> (Vec<String>, Vec<String>) {
    let (failed, passed): (Vec<_>, Vec<_>) = report
        .checks
        .iter()
        .filter(|c| c.protocol == protocol)
        .partition(|c| !c.passed());
    let names = |checks: Vec<&bloomproof_conformance::CheckOutcome>| {
        checks.iter().map(|c| c.name.clone()).collect::<Vec<_>>()
    };
    (names(failed), names(passed))
}

/// Two doc versions in one run: each version's checks (v1's documented checks, its
/// accumulated digests and vector files; v2's) meet the subject that answers for that
/// version's name, and all pass. With the two implementations swapped, every check of
/// v2 fails, and so does every check of v1 that hashes (its stages, its generated
/// hashing, its accumulated digests and position vectors).
#[test]
fn v1_and_v2_in_one_run_each_meet_their_own_subject() {
    let spec = both();
    let names: Vec<&str> = spec.protocols.iter().map(|p| p.protocol.as_str()).collect();
    assert_eq!(names, [V1.name, NAME]);
    let report = run(&spec, &mut Subjects::rust_of(Registry(BOTH)));
    let (failed, passed) = outcomes(&report, V1.name);
    assert!(failed.is_empty(), "{}", report.render_text());
    for check in [
        "every_stage_pinned",
        "finite_universe_false_positives_never_become_duplicates",
        "accumulated",
        "vectors.positions",
        "vectors.snapshots",
    ] {
        assert!(passed.iter().any(|p| p == check), "{check}: {passed:?}");
    }
    let (failed, passed) = outcomes(&report, NAME);
    assert!(failed.is_empty(), "{}", report.render_text());
    assert_eq!(passed, CHECKS);

    let mut swapped = Subjects::rust_of(Registry(BOTH))
        .with(ENTRY.subject(Box::new(RustDoc::v1())))
        .with(DocMembership::V1.subject(Box::new(RustDoc::of(&FAMILY))));
    let report = run(&spec, &mut swapped);
    let (failed, _) = outcomes(&report, NAME);
    assert_eq!(failed, CHECKS);
    let (failed, _) = outcomes(&report, V1.name);
    for check in [
        "every_stage_pinned",
        "generated_hashing_agrees_with_oracle",
        "accumulated",
        "vectors.positions",
        "vectors.snapshots",
    ] {
        assert!(failed.iter().any(|f| f == check), "{check}: {failed:?}");
    }
}
