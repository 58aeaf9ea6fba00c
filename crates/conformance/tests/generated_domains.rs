//! The loader refuses a `generated` case whose domain this runner cannot draw from
//! (`spec/README.md`, "Generated checks"): a range the generator reads but the case
//! lacks, a range it does not read, a range outside its bounds or upside down, a
//! `count` of 0 or past 65536, an `equal_to` or `compared` other than the generator's.
//! Each generated case of the real spec is edited one field at a time; the bounds are
//! written here from the protocol documents (m, k, seed, item and record bounds of
//! `doc-membership-v1`; m, k and 1 to 256 units of `fnv1a-utf16-v1`; the wire's whole
//! width for the estimates, which clamp; 1 to 64 steps), each checked at its edge: the
//! bound itself loads, one past it is refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::load::parse_protocol;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;

/// Every range a generated input may carry.
const RANGES: [&str; 8] = [
    "m",
    "k",
    "seed_bytes",
    "item_bytes",
    "records",
    "units",
    "n",
    "steps",
];

const WIRE: [u64; 2] = [0, u32::MAX as u64];

/// A generator: its protocol, the ranges it reads with their bounds, what it compares
/// with and what it compares.
struct Generator {
    name: &'static str,
    protocol: &'static str,
    ranges: Vec<(&'static str, [u64; 2])>,
    reference: &'static str,
    compared: Vec<&'static str>,
}

fn generator(
    name: &'static str,
    protocol: &'static str,
    ranges: Vec<(&'static str, [u64; 2])>,
    reference: &'static str,
    compared: Vec<&'static str>,
) -> Generator {
    Generator {
        name,
        protocol,
        ranges,
        reference,
        compared,
    }
}

/// Every generator, from `spec/README.md`'s table.
fn generators() -> Vec<Generator> {
    let doc = "doc-membership-v1";
    let fnv = "fnv1a-utf16-v1";
    let doc_mk = [
        ("m", [8, 512]),
        ("k", [1, 8]),
        ("seed_bytes", [0, 16]),
        ("item_bytes", [0, 64]),
    ];
    let fnv_mk = [("m", [8, 1024]), ("k", [1, 12])];
    vec![
        generator(
            "doc_hashing",
            doc,
            doc_mk.to_vec(),
            "oracle",
            vec!["positions", "frame"],
        ),
        generator(
            "doc_snapshots",
            doc,
            [doc_mk.as_slice(), &[("records", [0, 64])]].concat(),
            "oracle",
            vec!["build", "lookup_many", "read", "read_damaged"],
        ),
        // Its edges and draws come from spec/bounds.json; a case states m and k.
        generator(
            "doc_typed",
            doc,
            doc_mk[..2].to_vec(),
            "oracle",
            vec!["typed", "typed_field"],
        ),
        generator(
            "fnv_hashes",
            fnv,
            [fnv_mk.as_slice(), &[("units", [1, 256])]].concat(),
            "oracle",
            vec!["positions"],
        ),
        generator(
            "fnv_estimates",
            fnv,
            vec![("m", WIRE), ("k", WIRE), ("n", WIRE)],
            "oracle",
            vec!["estimates"],
        ),
        generator(
            "fnv_sessions",
            fnv,
            [fnv_mk.as_slice(), &[("steps", [1, 64])]].concat(),
            "session_model",
            vec!["view", "error", "save", "export"],
        ),
        generator(
            "fnv_save_fills",
            fnv,
            fnv_mk.to_vec(),
            "session_model",
            vec!["view", "error", "save", "export"],
        ),
    ]
}

fn text(protocol: &str, file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../spec")
        .join(protocol)
        .join(file);
    std::fs::read_to_string(path).unwrap()
}

/// The real files of `protocol` with the case at `index` of `cases.json` edited: the
/// errors the loader gives, each as `case: message`.
fn load_with(protocol: &str, index: usize, edit: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut cases: Value = serde_json::from_str(&text(protocol, "cases.json")).unwrap();
    edit(&mut cases["cases"][index]);
    match parse_protocol(protocol, &text(protocol, "checks.json"), &cases.to_string()) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .iter()
            .map(|e| format!("{}: {}", e.case.as_deref().unwrap_or("-"), e.message))
            .collect(),
    }
}

/// The generated cases of `protocol`: index in `cases.json`, id, generator.
fn generated_cases(protocol: &str) -> Vec<(usize, String, String)> {
    let cases: Value = serde_json::from_str(&text(protocol, "cases.json")).unwrap();
    cases["cases"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, case)| case["shape"] == "generated")
        .map(|(index, case)| {
            let generator = case["input"]["generator"].as_str().unwrap().to_string();
            (index, case["id"].as_str().unwrap().to_string(), generator)
        })
        .collect()
}

fn refused(errors: &[String], id: &str, needle: &str) {
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with(&format!("{id}: ")) && e.contains(needle)),
        "no error for {id} containing {needle:?}: {errors:#?}"
    );
}

/// Every generator has a case in the real spec, and every generated case's generator is
/// in the table above.
#[test]
fn the_table_covers_every_generated_case() {
    let table: BTreeSet<&str> = generators().iter().map(|g| g.name).collect();
    let mut seen = BTreeSet::new();
    for protocol in ["doc-membership-v1", "fnv1a-utf16-v1"] {
        for (_, id, generator) in generated_cases(protocol) {
            assert!(table.contains(generator.as_str()), "{id}: {generator}");
            seen.insert(generator);
        }
    }
    assert_eq!(
        seen.iter().map(String::as_str).collect::<BTreeSet<_>>(),
        table
    );
}

/// Calls `check` with every generator and each of the real spec's cases that draw from
/// it: the case's index in `cases.json` and its id.
fn each_case(mut check: impl FnMut(&Generator, usize, &str)) {
    for generator in generators() {
        for (index, id, name) in generated_cases(generator.protocol) {
            if name == generator.name {
                check(&generator, index, &id);
            }
        }
    }
}

/// Each range at its bounds loads; one past either bound, or upside down, is refused
/// with both bounds named.
#[test]
fn each_range_is_held_to_its_bounds_exactly() {
    each_case(|generator, index, id| {
        for &(name, [low, high]) in &generator.ranges {
            let set = |range: [u64; 2]| {
                load_with(generator.protocol, index, |case| {
                    case["input"][name] = json!(range)
                })
            };
            assert_eq!(
                set([low, high]),
                Vec::<String>::new(),
                "{id}: {name} at its bounds"
            );
            assert_eq!(
                set([low, low]),
                Vec::<String>::new(),
                "{id}: {name} one point"
            );
            let named = format!("`input.{name}` is [");
            let within = format!("it must be a range within [{low}, {high}]");
            if high < WIRE[1] {
                let errors = set([low, high + 1]);
                refused(&errors, id, &named);
                refused(&errors, id, &within);
            }
            if low > 0 {
                refused(&set([low - 1, high]), id, &within);
            }
            if low < high {
                refused(&set([high, low]), id, &within);
            }
        }
    });
}

/// A range the generator reads is required, and one it does not read is refused.
#[test]
fn a_range_read_is_required_and_one_not_read_is_refused() {
    each_case(|generator, index, id| {
        for name in RANGES {
            if generator.ranges.iter().any(|r| r.0 == name) {
                let errors = load_with(generator.protocol, index, |case| {
                    case["input"].as_object_mut().unwrap().remove(name);
                });
                if name == "m" || name == "k" {
                    // Every generated input carries m and k: serde refuses it.
                    refused(&errors, id, &format!("missing field `{name}`"));
                } else {
                    refused(&errors, id, &format!("`input.{name}` is required by"));
                }
            } else {
                let errors = load_with(generator.protocol, index, |case| {
                    case["input"][name] = json!([1, 1])
                });
                refused(&errors, id, &format!("`input.{name}` is not read by"));
            }
        }
    });
}

/// `count` is 1 to 100000; `equal_to` and `compared` are exactly the generator's.
#[test]
fn count_reference_and_compared_answers_are_the_generators() {
    each_case(|generator, index, id| {
        let protocol = generator.protocol;
        let count = |n: u64| load_with(protocol, index, |case| case["input"]["count"] = json!(n));
        assert_eq!(count(1), Vec::<String>::new());
        // Past 65536, the bound of every count in a case ("Bounds").
        assert_eq!(count(65_536), Vec::<String>::new());
        refused(&count(0), id, "`input.count` is 0: it must be 1 to 100000");
        refused(
            &count(65_537),
            id,
            "`input.count` is 65537, beyond the bound of 65536",
        );
        let reference = generator.reference;
        let other = if reference == "oracle" {
            "session_model"
        } else {
            "oracle"
        };
        let errors = load_with(protocol, index, |case| {
            case["expect"]["equal_to"] = json!(other)
        });
        refused(&errors, id, &format!("compares with {reference:?}"));
        // A part of what the generator compares, in its order, only where the
        // evaluator compares a part (doc_snapshots: the builds core, the reads interop;
        // doc_typed: the kinds core, the fields interop).
        let mut fewer = generator.compared.clone();
        fewer.pop();
        let errors = load_with(protocol, index, |case| {
            case["expect"]["compared"] = json!(fewer)
        });
        if generator.name == "doc_snapshots" || generator.name == "doc_typed" {
            assert_eq!(errors, Vec::<String>::new(), "{id}: {fewer:?}");
        } else {
            refused(&errors, id, "or a part of it in that order");
        }
        let errors = load_with(protocol, index, |case| {
            case["expect"]["compared"] = json!([])
        });
        refused(&errors, id, "or a part of it in that order");
        let mut reversed = generator.compared.clone();
        reversed.reverse();
        if reversed != generator.compared {
            let errors = load_with(protocol, index, |case| {
                case["expect"]["compared"] = json!(reversed)
            });
            refused(&errors, id, "or a part of it in that order");
        }
    });
}

/// A generator of the other protocol is refused, at each case that draws from it.
#[test]
fn a_generator_of_another_protocol_is_refused() {
    each_case(|generator, index, id| {
        let foreign = if generator.protocol == "doc-membership-v1" {
            "fnv_hashes"
        } else {
            "doc_hashing"
        };
        let errors = load_with(generator.protocol, index, |case| {
            case["input"]["generator"] = json!(foreign)
        });
        refused(&errors, id, "does not belong to");
    });
}
