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
//!    checks and the four its figure hooks read, their generated cases as v1's, every
//!    other case with each expected value the oracle's under v2's domain, and v1's
//!    published figures' names with v2's values. [`derived`] writes it; a test holds
//!    the folder to it (`BLOOMPROOF_TOY_V2_WRITE=1` rewrites it).
//!
//! The folder is loaded by the spec loader and run by `run_with_threads`, so the report
//! names v2's checks and the figures the family's hooks observed in v2's run beside
//! v2's published ones; each check that hashes fails when v2's subject is v1's
//! implementation, and a wrong expected value in the folder fails its check.
//!
//! What a version carries besides: its typed contract's bounds (a narrower version,
//! [`NARROW`], is judged under its own), its vector files (written for it by the writer
//! of `vectors/`, v1's format under its name, read back under its bounds and run
//! through the run's registry) and its entry of `accumulated.json` (a name of the
//! loader's registry).

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_conformance::generated::GeneratorDomain;
use bloomproof_conformance::load::load_files_with;
use bloomproof_conformance::model::{Generator, Span};
use bloomproof_conformance::protocols::doc_membership_v1::{
    BYTES_GENERATORS, DocMembership, DocVersion, V1,
};
use bloomproof_conformance::protocols::fnv1a_utf16_v1::Fnv1aUtf16V1;
use bloomproof_conformance::protocols::{Protocol, Registry};
use bloomproof_conformance::run::{Subjects, run_with_threads};
use bloomproof_conformance::subjects::doc_membership_v1::RustDoc;
use bloomproof_conformance::{Report, Spec, load_with};
use bloomproof_oracle::contract::ContractBounds;
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_protocol::doc_membership::{Bounds, DocFamily};
use bloomproof_protocol::doc_membership_v1::BOUNDS;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const NAME: &str = "doc-membership-v2";

/// Step 1, production: v2 is v1's bounds and its own domain.
static FAMILY: DocFamily = DocFamily::new(NAME, b"doc-membership-v2\0", BOUNDS);

/// Step 1, the runner: v2 as plain values. The domain's hex is written out by hand
/// ("doc-membership-v2" and one zero byte), not derived from the production value.
static V2: DocVersion = V2_VALUES;

/// v2's contract: v1's table (PROTOCOL.md), written out.
const V2_CONTRACT: ContractBounds = ContractBounds {
    m: (8, 512),
    k: (1, 8),
    seed: 16,
    records: 64,
    item: 64,
};

const V2_VALUES: DocVersion = DocVersion {
    name: NAME,
    domain_hex: "646f632d6d656d626572736869702d763200",
    contract: V2_CONTRACT,
    generators: &[
        BYTES_GENERATORS[0],
        BYTES_GENERATORS[1],
        typed_generator(&[M, ("k", [1, 8])]),
    ],
    rust_subject: || Box::new(RustDoc::of(&FAMILY)),
};

const M: (&str, Span) = ("m", [8, 512]);

/// The generator of the typed contract over `ranges` (v1's, with a version's m and k).
const fn typed_generator(ranges: &'static [(&'static str, Span)]) -> GeneratorDomain {
    GeneratorDomain {
        generator: Generator::DocTyped,
        ranges,
        limits: &[],
        compares: &["typed", "typed_field"],
        reference: "oracle",
    }
}

/// Step 2: v2's registry line.
const ENTRY: DocMembership = DocMembership { version: &V2 };

/// The registry the loader and the run take: the built-in one and v2.
static REGISTRY: &[&dyn Protocol] = &[&DocMembership::V1, &ENTRY, &Fnv1aUtf16V1];

fn registry() -> Registry {
    Registry(REGISTRY)
}

/// The checks of v1 that v2 takes up, in v1's order: the four the family's figure
/// hooks read (their figures recorded from v2's own answers and compared with v2's
/// published ones), then the bytes operations (hashing and snapshots).
const CHECKS: [&str; 8] = [
    "empty_snapshot_definitely_absent",
    "finite_universe_false_positives_never_become_duplicates",
    "clearing_shared_bit_breaks_no_false_negative_contract",
    "all_small_subsets_independent_position_set_oracle",
    "every_stage_pinned",
    "generated_hashing_agrees_with_oracle",
    "generated_snapshots_agree_with_oracle",
    "generated_reads_agree_with_oracle",
];

/// The one check of [`CHECKS`] whose cases hash nothing (an empty snapshot answers
/// every lookup with `false` under any domain): v1's implementation passes it for v2.
const DOMAIN_FREE: &str = "empty_snapshot_definitely_absent";

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

/// m, k and the seed of a case's `params`.
fn params_of(params: &Value) -> (u32, u32, Vec<u8>) {
    let m = u32::try_from(params["m"].as_u64().unwrap()).unwrap();
    let k = u32::try_from(params["k"].as_u64().unwrap()).unwrap();
    (
        m,
        k,
        hex::decode(params["seed_hex"].as_str().unwrap()).unwrap(),
    )
}

/// The byte strings of a list of hex texts.
fn hexes(list: &Value) -> Vec<Vec<u8>> {
    let list = list.as_array().unwrap().iter();
    list.map(|h| hex::decode(h.as_str().unwrap()).unwrap())
        .collect()
}

/// The expectation of a `build` case (v1's input and lookups), every value the
/// oracle's under v2's domain: the bits, the document count and each lookup's triple.
fn build_expect(input: &Value, v1_expect: &Value) -> Value {
    let (m, k, seed) = params_of(&input["params"]);
    let records = hexes(&input["records_hex"]);
    let domain = V2.domain_hex;
    let occupied = oracle::occupied(domain, &records, m, k, &seed);
    let distinct: std::collections::BTreeSet<&Vec<u8>> = records.iter().collect();
    let lookups: Vec<Value> = v1_expect["lookups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|lookup| {
            let item = hex::decode(lookup["item_hex"].as_str().unwrap()).unwrap();
            let maybe = oracle::maybe_present(domain, &occupied, m, k, &seed, &item);
            json!({"item_hex": lookup["item_hex"], "result": {
                "maybe_present": maybe, "exact_checked": maybe,
                "duplicate": maybe && distinct.contains(&item)}})
        })
        .collect();
    json!({"bits_set": occupied.len(), "packed_hex": oracle::packed_hex(&occupied, m),
        "documents": distinct.len(), "lookups": lookups})
}

/// The expectation of the `universe` case: the members' bits and the non-members the
/// oracle's position-set test lets through (false positives), under v2's domain.
fn universe_expect(input: &Value) -> Value {
    let (m, k, seed) = params_of(&input["params"]);
    let domain = V2.domain_hex;
    let occupied = oracle::occupied(domain, &hexes(&input["records_hex"]), m, k, &seed);
    let positives: Vec<String> = hexes(&input["non_members_hex"])
        .into_iter()
        .filter(|item| oracle::maybe_present(domain, &occupied, m, k, &seed, item))
        .map(hex::encode)
        .collect();
    json!({"bits_set": occupied.len(), "packed_hex": oracle::packed_hex(&occupied, m),
        "false_positives_hex": positives, "false_duplicate_decisions": 0})
}

/// The expectation of a `fault` case: the first pair of records (in combination order)
/// whose oracle position sets under v2's domain intersect, and their smallest shared
/// position (the rule the check states).
fn fault_expect(input: &Value, v1_expect: &Value) -> Value {
    let (m, k, seed) = params_of(&input["params"]);
    let records = hexes(&input["records_hex"]);
    let sets: Vec<_> = records
        .iter()
        .map(|r| oracle::position_set(V2.domain_hex, m, k, &seed, r))
        .collect();
    let (i, j, bit) = (0..sets.len())
        .flat_map(|i| (i + 1..sets.len()).map(move |j| (i, j)))
        .find_map(|(i, j)| sets[i].intersection(&sets[j]).next().map(|&b| (i, j, b)))
        .unwrap();
    let mut expect = v1_expect.clone();
    expect["removed_hex"] = json!(hex::encode(&records[i]));
    expect["damaged_hex"] = json!(hex::encode(&records[j]));
    expect["cleared_bit"] = json!(bit);
    expect
}

/// The expectation of an `exhaustive` case: every subset of the base records under
/// every profile, each query on each.
fn exhaustive_expect(input: &Value) -> Value {
    let base = input["base_hex"].as_array().unwrap().len();
    let profiles = input["profiles"].as_array().unwrap().len();
    let snapshots = (1usize << base) * profiles;
    json!({"snapshots": snapshots, "queries": snapshots * input["queries_hex"].as_array().unwrap().len()})
}

/// The text of an item given as hex (the fixture's items are ASCII).
fn item_text(hex_text: &Value) -> Value {
    json!(String::from_utf8(hex::decode(hex_text.as_str().unwrap()).unwrap()).unwrap())
}

/// v2's published figures: v1's names, each value taken from v2's derived cases (the
/// oracle's under v2's domain), the value the family's hooks record from an
/// implementation that agrees with the oracle.
fn published_figures(v1_figures: &Value, cases: &[Value]) -> Value {
    let case_of = |check: &str| {
        let case = cases.iter().find(|c| c["check"] == check).unwrap();
        (&case["input"], &case["expect"])
    };
    let (universe, fixture) = case_of(CHECKS[1]);
    let (_, fault) = case_of(CHECKS[2]);
    let (_, exhaustive) = case_of(CHECKS[3]);
    let positives = fixture["false_positives_hex"].as_array().unwrap();
    let value = |name: &str| match name {
        "fixture.occupied_bits" => fixture["bits_set"].clone(),
        "fixture.packed_little_endian_hex" => fixture["packed_hex"].clone(),
        "fixture.tested_nonmembers" => json!(universe["non_members_hex"].as_array().unwrap().len()),
        "fixture.realized_false_positives" => json!(positives.len()),
        "fixture.false_positive_items" => {
            json!(positives.iter().map(item_text).collect::<Vec<_>>())
        }
        "fixture.false_duplicate_decisions" => fixture["false_duplicate_decisions"].clone(),
        "shared_bit_fault.removed_item" => item_text(&fault["removed_hex"]),
        "shared_bit_fault.damaged_member" => item_text(&fault["damaged_hex"]),
        "shared_bit_fault.cleared_bit" => fault["cleared_bit"].clone(),
        "independent_oracle_snapshot_count" => exhaustive["snapshots"].clone(),
        "independent_oracle_queries" => exhaustive["queries"].clone(),
        other => panic!("v1 publishes {other}, which v2's derivation does not know"),
    };
    let figures: Vec<Value> = v1_figures
        .as_array()
        .unwrap()
        .iter()
        .map(|figure| {
            let name = figure["name"].as_str().unwrap();
            json!({"name": name, "check": figure["check"], "value": value(name),
                "source": "derived with the oracle under doc-membership-v2's domain (crates/conformance/tests/toy_v2.rs)"})
        })
        .collect();
    Value::Array(figures)
}

/// The flags of v1 that say where its values came from (the seed's run, the Python
/// derivation): not v2's.
const V1_PROVENANCE: [&str; 3] = ["derived", "seed-check", "seed-figure"];

/// The folder's files as v1's derivation gives them for v2: (name under the spec
/// folder, text). `checks.json` holds v1's entries of [`CHECKS`] and v1's published
/// figures' names with v2's values ([`published_figures`]); `cases.json` v1's cases of
/// them, the generated ones as they are (their expected values are the oracle's under
/// the running version's domain), every other one with its expectation the oracle's
/// under v2's domain, v1's provenance flags and comments dropped and the flag `oracle`
/// added.
fn derived() -> Vec<(String, String)> {
    let v1_checks = v1_file("checks.json");
    let checks: Vec<Value> = v1_checks["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| CHECKS.contains(&c["name"].as_str().unwrap()))
        .cloned()
        .collect();
    let names: Vec<&str> = checks.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names, CHECKS,
        "v1 documents every check of CHECKS, in this order"
    );
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
            let (input, v1_expect) = (&case["input"], &case["expect"]);
            let expect = match case["shape"].as_str().unwrap() {
                "generated" => {
                    assert!(case.get("flags").is_none(), "{case}");
                    return case;
                }
                "stages" => stages_expect(input),
                "build" => build_expect(input, v1_expect),
                "universe" => universe_expect(input),
                "fault" => fault_expect(input, v1_expect),
                "exhaustive" => exhaustive_expect(input),
                other => panic!("no derivation of a `{other}` case for v2"),
            };
            case["expect"] = expect;
            case.as_object_mut().unwrap().remove("comment");
            let mut kept = vec![json!("oracle")];
            for flag in case["flags"].as_array().unwrap() {
                let name = flag.as_str().unwrap();
                if !V1_PROVENANCE.contains(&name) {
                    flags.insert(name.into(), v1_cases["flags"][name].clone());
                    kept.push(flag.clone());
                }
            }
            case["flags"] = Value::Array(kept);
            case
        })
        .collect();
    let checks = json!({
        "$schema": format!("{SCHEMAS}/checks.schema.json"),
        "protocol": NAME,
        "format_version": 1,
        "check_count": checks.len(),
        "published_figures": published_figures(&v1_checks["published_figures"], &cases),
        "checks": checks,
    });
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
    let v1_kinds: Vec<_> = V1.generators.iter().map(|g| g.generator).collect();
    assert_eq!(kinds, v1_kinds);
    assert_eq!(registry().names(), [V1.name, NAME, "fnv1a-utf16-v1"]);
}

/// The check of `report` named `name`.
fn check<'r>(report: &'r Report, name: &str) -> &'r bloomproof_conformance::CheckOutcome {
    report.checks.iter().find(|c| c.name == name).unwrap()
}

/// The figure lines of v2 in `report`: (name, observed, published, differs).
fn v2_figures(report: &Report) -> Vec<(String, Option<Value>, Option<Value>, bool)> {
    let (_, lines) = report.figures.iter().find(|(p, _)| p == NAME).unwrap();
    let line = |l: &bloomproof_wire::report::FigureLine| {
        (
            l.name.clone(),
            l.observed.clone(),
            l.published.clone(),
            l.differs,
        )
    };
    lines.iter().map(line).collect()
}

/// The folder on disk, through the loader of a spec folder: v2 alone, its checks named
/// in the report, each passing against v2's implementation with every case run, and
/// every figure v2 publishes observed by the family's hooks in v2's run, equal to the
/// published value (the oracle's under v2's domain).
#[test]
fn v2_folder_loads_and_passes_against_its_rust_implementation() {
    let spec = load_with(&folder(), registry()).unwrap();
    let names: Vec<&str> = spec.protocols.iter().map(|p| p.protocol.as_str()).collect();
    assert_eq!(names, [NAME]);
    let report = run(&spec, &mut Subjects::rust_of(registry()));
    let ran: Vec<String> = report.checks.iter().map(|c| c.full_name()).collect();
    let mut want: Vec<String> = CHECKS.iter().map(|c| format!("{NAME}/{c}")).collect();
    want.push(format!("{NAME}/accumulated"));
    assert_eq!(ran, want);
    for check in &report.checks {
        assert!(check.cases > 0, "{}", check.full_name());
        assert!(check.passed(), "{}", check.render_failures());
    }
    assert_eq!(report.failed, 0);
    assert_eq!(
        check(&report, "every_stage_pinned").cases,
        6,
        "v1's six stage cases, v2's values"
    );
    let figures = v2_figures(&report);
    let published = &spec.protocols[0].published_figures;
    assert_eq!(
        figures.len(),
        published.len() + 1,
        "v2's published figures and its accumulated checkpoint: {figures:?}"
    );
    assert!(figures.iter().all(|f| f.1.is_some() && !f.3), "{figures:?}");
    for figure in published {
        let line = figures.iter().find(|f| f.0 == figure.name).unwrap();
        assert_eq!(
            line.1.as_ref(),
            Some(&figure.value),
            "{} observed",
            figure.name
        );
        assert!(!line.3, "{}", figure.name);
    }
    let v1_published = v1_file("checks.json")["published_figures"].clone();
    let packed = |figures: &Value| {
        let list = figures.as_array().unwrap();
        let fixture = list
            .iter()
            .find(|f| f["name"] == "fixture.packed_little_endian_hex");
        fixture.unwrap()["value"].clone()
    };
    assert_ne!(
        json!(published),
        v1_published,
        "v2 publishes its own figures"
    );
    assert_ne!(packed(&json!(published)), packed(&v1_published));
}

/// v1's implementation answering for v2: every check of v2 that hashes fails (the
/// empty snapshot's passes), each stage case; the figures the hooks record from its
/// answers differ from v2's published ones.
#[test]
fn v2_checks_fail_v1s_implementation() {
    let spec = load(&committed());
    let mut subjects = Subjects::rust_of(registry()).with(ENTRY.subject(Box::new(RustDoc::v1())));
    let report = run(&spec, &mut subjects);
    assert_eq!(report.checks.len(), CHECKS.len());
    for check in &report.checks {
        let domain_free = check.name == DOMAIN_FREE;
        assert_eq!(check.passed(), domain_free, "{}", check.full_name());
    }
    let differ: Vec<String> = v2_figures(&report)
        .into_iter()
        .filter(|f| f.3)
        .map(|f| f.0)
        .collect();
    for name in [
        "fixture.packed_little_endian_hex",
        "fixture.false_positive_items",
    ] {
        assert!(differ.iter().any(|d| d == name), "{name}: {differ:?}");
    }
    let stages = check(&report, "every_stage_pinned");
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
    let hashing: Vec<&str> = CHECKS.into_iter().filter(|c| *c != DOMAIN_FREE).collect();
    assert_eq!(failed, hashing);
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

/// A narrower v2 (issue 42, the typed contract as values of the version): v2's domain,
/// k at most 4 and items of at most 32 bytes, in production and as the runner's plain
/// numbers. It runs in a registry of its own, under v2's name.
static NARROW_FAMILY: DocFamily = DocFamily::new(
    NAME,
    b"doc-membership-v2\0",
    Bounds {
        k: [1, 4],
        item_max: 32,
        ..BOUNDS
    },
);

static NARROW: DocVersion = DocVersion {
    name: NAME,
    domain_hex: V2_VALUES.domain_hex,
    contract: ContractBounds {
        k: (1, 4),
        item: 32,
        ..V2_CONTRACT
    },
    generators: &[typed_generator(&[M, ("k", [1, 4])])],
    rust_subject: || Box::new(RustDoc::of(&NARROW_FAMILY)),
};

const NARROW_ENTRY: DocMembership = DocMembership { version: &NARROW };

static NARROW_REGISTRY: &[&dyn Protocol] = &[&NARROW_ENTRY];

/// v1's two typed checks (kinds, core; fields, interop) for v2, in memory: v1's entries
/// and generated cases, the cases' k range `k`.
fn typed_files(k: [u64; 2]) -> Vec<(String, String)> {
    let typed = |name: &str| name.starts_with("generated_typed_contract");
    let checks: Vec<Value> = v1_file("checks.json")["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| typed(c["name"].as_str().unwrap()))
        .cloned()
        .collect();
    let cases: Vec<Value> = v1_file("cases.json")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| typed(c["check"].as_str().unwrap()))
        .map(|c| {
            let mut c = c.clone();
            c["input"]["k"] = json!(k);
            c
        })
        .collect();
    assert_eq!((checks.len(), cases.len()), (2, 2));
    let checks = json!({
        "$schema": format!("{SCHEMAS}/checks.schema.json"),
        "protocol": NAME, "format_version": 1, "check_count": 2,
        "published_figures": [], "checks": checks,
    });
    let cases = json!({
        "$schema": format!("{SCHEMAS}/doc-membership-v1.cases.schema.json"),
        "protocol": NAME, "format_version": 1, "case_count": 2,
        "flags": {}, "cases": cases,
    });
    let text = |value: &Value| serde_json::to_string_pretty(value).unwrap();
    vec![
        (format!("{NAME}/checks.json"), text(&checks)),
        (format!("{NAME}/cases.json"), text(&cases)),
    ]
}

/// The typed checks of v2 (`wide`: v2's, v1's bounds; else the narrow one's), loaded in
/// that version's registry and run against `subject` answering for v2, seed 7.
fn typed_report(wide: bool, subject: RustDoc) -> Report {
    let (registry, k, entry) = match wide {
        true => (registry(), [1, 8], &ENTRY),
        false => (Registry(NARROW_REGISTRY), [1, 4], &NARROW_ENTRY),
    };
    let files = typed_files(k);
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(name, text)| (name.as_str(), text.as_bytes()))
        .collect();
    let mut spec = load_files_with(&folder(), &files, registry).unwrap();
    spec.set_generation(bloomproof_conformance::generated::Generation {
        seed: 7,
        count: None,
        shrink: false,
    });
    let mut subjects = Subjects::rust_of(registry).with(entry.subject(Box::new(subject)));
    run(&spec, &mut subjects)
}

/// Whether every check of `report` passed; when not, that one failure of each is an
/// acceptance where the oracle's contract model under the version's bounds wants a
/// value error (a bound the implementation does not hold).
fn typed_passed(report: &Report) -> bool {
    assert_eq!(report.checks.len(), 2);
    let passed = report.checks.iter().all(|c| c.passed());
    if !passed {
        for check in &report.checks {
            assert!(
                check
                    .failures
                    .iter()
                    .any(|f| f.expected == "a value error" && f.actual.starts_with("accepted")),
                "{}",
                check.render_failures()
            );
        }
    }
    passed
}

/// The typed contract is judged under the running version's bounds: the narrow v2's
/// typed checks pass against its own implementation and fail against v2's with v1's
/// bounds (same domain) and v1's; v2's pass against v2's and fail against the narrow
/// implementation (it refuses k 5 to 8 and items of 33 to 64 bytes, which v2 accepts).
#[test]
fn the_typed_contract_is_the_versions() {
    assert!(typed_passed(&typed_report(
        false,
        RustDoc::of(&NARROW_FAMILY)
    )));
    assert!(!typed_passed(&typed_report(false, RustDoc::of(&FAMILY))));
    assert!(!typed_passed(&typed_report(false, RustDoc::v1())));
    assert!(typed_passed(&typed_report(true, RustDoc::of(&FAMILY))));
    let report = typed_report(true, RustDoc::of(&NARROW_FAMILY));
    assert!(report.checks.iter().all(|c| !c.passed()));
}

/// The vector files of `family` (v2 or the narrow one), written by the writer of
/// `vectors/` (`cargo xtask vectors`'s) for that version: its production value, its
/// domain as this file writes it in hex (the oracle's judge of every value), and the
/// spec folder's `checks.json` (whose published figures the writer compares with its
/// fixture). (path under a vectors folder, text).
fn written(family: &'static DocFamily) -> Vec<(String, String)> {
    let checks = std::fs::read_to_string(folder().join(NAME).join("checks.json")).unwrap();
    let version = bloomproof_vectors_writer::DocVersion {
        family,
        domain_hex: V2.domain_hex,
        checks: (
            "crates/conformance/tests/toy_v2/spec/doc-membership-v2/checks.json",
            &checks,
        ),
    };
    bloomproof_vectors_writer::doc_files(&version)
        .unwrap()
        .into_iter()
        .map(|(path, text)| (path.trim_start_matches("vectors/").to_string(), text))
        .collect()
}

/// A vectors folder holding `files`.
fn vectors_folder(files: &[(String, String)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(NAME)).unwrap();
    for (path, text) in files {
        std::fs::write(dir.path().join(path), text).unwrap();
    }
    dir
}

/// v2's vector files (issue 42): written by the writer for v2, found by the loader of a
/// vectors folder through the registry it is given (the built-in one has no v2) and
/// read back by the strict loader, then run as `doc-membership-v2/vectors.<kind>`
/// against the subject answering for v2: v2's implementation passes every case of the
/// three files; v1's fails every position and snapshot file (other hashes) and passes
/// the rejections (the same bounds, so the same errors).
#[test]
fn v2s_vector_files_are_written_and_run() {
    let files = written(&FAMILY);
    let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    let kinds = ["positions", "snapshots", "rejections"];
    assert_eq!(names, kinds.map(|kind| format!("{NAME}/{kind}.json")));
    let dir = vectors_folder(&files);
    assert!(bloomproof_conformance::vectors::load(dir.path()).is_err());
    let loaded = bloomproof_conformance::vectors::load_with(dir.path(), registry()).unwrap();
    let named: Vec<(String, String)> = loaded
        .iter()
        .map(|l| (l.protocol().to_string(), l.check().to_string()))
        .collect();
    let want = kinds.map(|kind| (NAME.to_string(), format!("vectors.{kind}")));
    assert_eq!(named, want);
    let cases: Vec<usize> = loaded.iter().map(|l| l.file.case_count()).collect();
    let mut spec = load(&committed());
    spec.vectors = loaded;
    let vectors = |report: &Report| -> Vec<bloomproof_conformance::CheckOutcome> {
        report
            .checks
            .iter()
            .filter(|c| c.protocol == NAME && c.name.starts_with("vectors."))
            .cloned()
            .collect()
    };
    let own = vectors(&run(&spec, &mut Subjects::rust_of(registry())));
    assert_eq!(own.len(), 3);
    for (check, cases) in own.iter().zip(cases) {
        assert_eq!(check.cases, cases);
        assert!(cases > 300, "{}: {cases}", check.name);
        assert!(check.passed(), "{}", check.render_failures());
    }
    let mut v1_answers = Subjects::rust_of(registry()).with(ENTRY.subject(Box::new(RustDoc::v1())));
    let v1s = vectors(&run(&spec, &mut v1_answers));
    let passed: Vec<bool> = v1s.iter().map(|c| c.passed()).collect();
    assert_eq!(passed, [false, false, true]);
    assert!(
        v1s[0].failures.iter().any(|f| f.what == "positions"),
        "{}",
        v1s[0].render_failures()
    );
}

/// The loader holds a version's files to its bounds (the run's registry's version):
/// the narrow v2's files, written for it, load in its registry; v2's (v1's bounds) are
/// refused there, naming a case and the field past the narrow bound.
#[test]
fn the_vector_loader_holds_files_to_the_versions_bounds() {
    let narrow = vectors_folder(&written(&NARROW_FAMILY));
    let loaded =
        bloomproof_conformance::vectors::load_with(narrow.path(), Registry(NARROW_REGISTRY))
            .unwrap();
    assert_eq!(loaded.len(), 3);
    let wide = vectors_folder(&written(&FAMILY));
    let errors =
        match bloomproof_conformance::vectors::load_with(wide.path(), Registry(NARROW_REGISTRY)) {
            Ok(loaded) => panic!("v2's {} files loaded under the narrow bounds", loaded.len()),
            Err(errors) => errors,
        };
    let positions = &errors[0];
    assert!(
        positions.contains("positions.json: case `")
            && positions.contains("params.k = 8 is outside 1..=4"),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("is 64 bytes: at most 32 are allowed")),
        "{errors:?}"
    );
}

/// `accumulated.json` names protocols of the loader's registry: v2 is one in v2's
/// registry, not in the built-in one; an unknown name is refused naming the registry's
/// protocols.
#[test]
fn accumulated_names_the_registrys_protocols() {
    let file = |protocol: &str| placeholder_accumulated(protocol).1;
    use bloomproof_conformance::accumulated::{parse, parse_with};
    if let Err(err) = parse_with(&file(NAME), registry()) {
        panic!("{err}");
    }
    let err = parse(&file(NAME)).unwrap_err();
    assert!(
        err.contains("unknown protocol") && err.contains("doc-membership-v1, fnv1a-utf16-v1"),
        "{err}"
    );
    let err = parse_with(&file("doc-membership-v3"), registry()).unwrap_err();
    assert!(
        err.contains(&format!("doc-membership-v1, {NAME}, fnv1a-utf16-v1")),
        "{err}"
    );
}

/// v2's accumulated checkpoint (4096 inputs), derived by `spec/derive/accumulated.py`
/// (Python's hashlib, v2's domain and bounds) into the folder's `accumulated.json`: the
/// oracle under v2's domain and v2's implementation reproduce it; v1's implementation
/// answering for v2 differs from the oracle at the first input.
#[test]
fn v2s_accumulated_checkpoint_is_derived_for_it() {
    let spec = load_with(&folder(), registry()).unwrap();
    let entry = &spec.accumulated.as_ref().unwrap().protocols[0];
    assert_eq!((entry.protocol.as_str(), entry.count), (NAME, 4096));
    let own = accumulated_failures(&spec, &mut Subjects::rust_of(registry()));
    assert!(own.is_empty(), "{own:?}");
    v1s_answers_differ_at_once(&spec);
}

/// The failures of `NAME/accumulated` with v1's implementation answering for v2, which
/// differs from the oracle under v2's domain at the stream's first input.
fn v1s_answers_differ_at_once(spec: &Spec) -> Vec<(String, String)> {
    let differs = "first accumulated input whose answer differs from the oracle's: #0";
    let v1s = accumulated_failures(
        spec,
        &mut Subjects::rust_of(registry()).with(ENTRY.subject(Box::new(RustDoc::v1()))),
    );
    assert!(
        v1s.iter().any(|(what, _)| what.starts_with(differs)),
        "{v1s:?}"
    );
    v1s
}

/// An `accumulated.json` of one entry, `protocol`'s, its 64-input digests placeholders
/// of zeros (no digest of a toy version is published).
fn placeholder_accumulated(protocol: &str) -> (String, String) {
    let file = json!({"format_version": 1, "comment": "toy v2", "protocols": [{
        "protocol": protocol, "generator": "bloomproof accumulated v1", "count": 64,
        "digest": "0".repeat(64), "checkpoint": {"count": 64, "digest": "0".repeat(64)},
    }]});
    ("accumulated.json".into(), file.to_string())
}

/// The failures (what, actual) of `NAME/accumulated` in a run of `spec`.
fn accumulated_failures(spec: &Spec, subjects: &mut Subjects) -> Vec<(String, String)> {
    let report = run(spec, subjects);
    let check = report
        .checks
        .iter()
        .find(|c| c.protocol == NAME && c.name == "accumulated")
        .unwrap();
    check
        .failures
        .iter()
        .map(|f| (f.what.clone(), f.actual.clone()))
        .collect()
}

/// Only the placeholder differs: the implementation's digest is the oracle's.
fn only_the_placeholder_differs(failures: &[(String, String)]) {
    let whats: Vec<&str> = failures.iter().map(|(what, _)| what.as_str()).collect();
    assert_eq!(
        whats,
        [
            "accumulated digest of the implementation's answers to 64 inputs equals the published one",
            "the oracle's accumulated digest of 64 inputs equals the published one (the spec file is wrong)",
        ]
    );
    assert_eq!(failures[0].1, failures[1].1);
    assert_ne!(failures[0].1, "0".repeat(64));
}

/// The accumulated stream of a registered version: v2's entry of `accumulated.json`
/// runs through the run as `doc-membership-v2/accumulated`, each input's answer
/// compared with the oracle's positions under v2's domain: v2's implementation differs
/// only in the placeholder digest, v1's answering for v2 differs from the oracle at the
/// first input too.
#[test]
fn v2s_accumulated_stream_is_judged_by_the_oracle_under_its_domain() {
    let mut files = committed();
    files.push(placeholder_accumulated(NAME));
    let spec = load(&files);
    let own = accumulated_failures(&spec, &mut Subjects::rust_of(registry()));
    only_the_placeholder_differs(&own);
    let v1s = v1s_answers_differ_at_once(&spec);
    assert_ne!(v1s[0].1, own[0].1, "v1's answers make another digest");
}

/// The stream draws within the version's bounds: the narrow v2 (k at most 4, items of
/// at most 32 bytes) answers every input of its stream, as the oracle does (drawn
/// within v1's bounds, it would refuse the first input of k above 4).
#[test]
fn the_accumulated_stream_draws_within_the_versions_bounds() {
    let mut files = typed_files([1, 4]);
    files.push(placeholder_accumulated(NAME));
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(name, text)| (name.as_str(), text.as_bytes()))
        .collect();
    let registry = Registry(NARROW_REGISTRY);
    let spec = load_files_with(&folder(), &files, registry).unwrap();
    only_the_placeholder_differs(&accumulated_failures(
        &spec,
        &mut Subjects::rust_of(registry),
    ));
}
