//! Every registered protocol (`bloomproof_protocol::PROTOCOLS`) provides every layer,
//! and nothing provides a layer for a protocol that is not registered: its spec folder
//! (checks and cases, read by the loader, on disk and embedded in the binary), its
//! derivation script, its fingerprint snapshot, its accumulated stream, its vector
//! folder and vector file kinds, and the handshake of `bloomproof adapter`.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_adapter::serve::{Request, answer, parse_request};
use bloomproof_protocol::PROTOCOLS;
use bloomproof_vectors::FileKind;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The folders of `dir` (by name) that hold a file `marker`.
fn folders_with(dir: &Path, marker: &str) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join(marker).is_file() || (marker.is_empty() && path.is_dir()))
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

fn registered() -> BTreeSet<String> {
    PROTOCOLS.iter().map(|name| name.to_string()).collect()
}

#[test]
fn the_spec_has_exactly_the_registered_protocols() {
    let spec = root().join("spec");
    assert_eq!(folders_with(&spec, "checks.json"), registered());
    assert_eq!(folders_with(&spec, "cases.json"), registered());
    let loaded = bloomproof_conformance::load(&spec).unwrap();
    let names: BTreeSet<String> = loaded
        .protocols
        .iter()
        .map(|p| p.protocol.clone())
        .collect();
    assert_eq!(names, registered());
    let embedded = bloomproof_conformance::load_embedded().unwrap();
    let names: BTreeSet<String> = embedded
        .protocols
        .iter()
        .map(|p| p.protocol.clone())
        .collect();
    assert_eq!(names, registered());
    for protocol in &loaded.protocols {
        assert!(
            !protocol.checks.is_empty(),
            "{} has no check",
            protocol.protocol
        );
    }
}

#[test]
fn every_registered_protocol_has_its_derivation_and_fingerprint() {
    for name in PROTOCOLS {
        let script = root()
            .join("spec/derive")
            .join(format!("{}.py", name.replace('-', "_")));
        assert!(script.is_file(), "{name}: no {}", script.display());
        let module = name.replace('-', "_");
        let test =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fingerprint_{module}.rs"));
        assert!(test.is_file(), "{name}: no {}", test.display());
        let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
            "tests/snapshots/fingerprint_{module}__{name}-fingerprint.snap"
        ));
        assert!(snapshot.is_file(), "{name}: no {}", snapshot.display());
    }
}

/// `spec/accumulated.json` has a stream of every registered protocol and of no other,
/// in name order.
#[test]
fn the_accumulated_streams_are_exactly_the_registered_protocols() {
    let text = fs::read_to_string(root().join("spec/accumulated.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let names: Vec<String> = file["protocols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["protocol"].as_str().unwrap().to_string())
        .collect();
    // `spec/derive/accumulated.py` takes the protocols from the spec's folders, in name
    // order (each one's stream is its derivation script's).
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "in name order");
    assert_eq!(names.into_iter().collect::<BTreeSet<_>>(), registered());
}

#[test]
fn the_vectors_are_exactly_the_registered_protocols() {
    let vectors = root().join("vectors");
    let mut folders = folders_with(&vectors, "");
    folders.remove("schemas");
    assert_eq!(folders, registered());
    let kinds: BTreeSet<String> = FileKind::ALL
        .iter()
        .map(|kind| kind.protocol().to_string())
        .collect();
    assert_eq!(kinds, registered());
    for kind in FileKind::ALL {
        let file = vectors
            .join(kind.protocol())
            .join(format!("{}.json", kind.kind()));
        assert!(file.is_file(), "no {}", file.display());
    }
}

#[test]
fn the_adapter_offers_exactly_the_registered_protocols() {
    let Ok((_, request)) = parse_request(r#"{"id":0,"op":"start","adapter_protocol":2}"#) else {
        panic!("the handshake request does not parse");
    };
    assert!(matches!(request, Request::Start(_)), "{request:?}");
    let started = answer(&request).unwrap();
    let listed: Vec<&str> = started["protocols"]
        .as_array()
        .unwrap_or_else(|| panic!("{started}"))
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(listed, PROTOCOLS.to_vec());
}

/// Each layer's registry, by the names of its entries.
fn layer_registries() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        (
            "the runner (bloomproof_conformance::protocols::REGISTRY)",
            bloomproof_conformance::protocols::REGISTRY
                .iter()
                .map(|entry| entry.name())
                .collect(),
        ),
        (
            "the serving side (bloomproof_adapter::serve::REGISTRY)",
            bloomproof_adapter::serve::REGISTRY
                .iter()
                .map(|entry| entry.name())
                .collect(),
        ),
    ]
}

/// Every layer's registry lists exactly the registered protocols, in their order: a
/// protocol added to `PROTOCOLS` without an entry in every layer (or an entry left for
/// one that is not registered) fails here.
#[test]
fn every_layer_registers_exactly_the_registered_protocols() {
    for (layer, names) in layer_registries() {
        assert_eq!(names, PROTOCOLS.to_vec(), "{layer}");
    }
}

/// Each entry of the runner's registry is its own protocol's: its in-process subject
/// answers for that protocol, it reads every case of that protocol's `cases.json`, and
/// it refuses some case of every other protocol's, by its case types or (for a protocol
/// whose cases have the same shapes) by the generators it owns, as the loader does.
#[test]
fn each_runner_entry_is_its_own_protocols() {
    let cases_of = |name: &str| -> Vec<serde_json::Value> {
        let text = fs::read_to_string(root().join("spec").join(name).join("cases.json")).unwrap();
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        file["cases"].as_array().unwrap().clone()
    };
    for entry in bloomproof_conformance::protocols::REGISTRY {
        assert_eq!(entry.rust_subject().protocol(), entry.name());
        let generators: Vec<serde_json::Value> = entry
            .generators()
            .iter()
            .map(|domain| serde_json::to_value(domain.generator).unwrap())
            .collect();
        let its_generator = |case: &serde_json::Value| {
            case["shape"] != "generated" || generators.contains(&case["input"]["generator"])
        };
        for &name in PROTOCOLS {
            let mut cases = entry.new_cases();
            let read = cases_of(name)
                .iter()
                .filter(|case| cases.push(case).is_ok() && its_generator(case))
                .count();
            let all = cases_of(name).len();
            if name == entry.name() {
                assert_eq!(read, all, "{} reads its own cases", entry.name());
            } else {
                assert!(read < all, "{} reads every case of {name}", entry.name());
            }
        }
    }
}

/// Every generator reads `m` and `k` (every generated input carries both), each once,
/// and every range it reads has bounds with the least first.
#[test]
fn every_generator_reads_m_and_k_and_bounds_each_range() {
    for entry in bloomproof_conformance::protocols::REGISTRY {
        for domain in entry.generators() {
            let names: Vec<&str> = domain.ranges.iter().map(|(name, _)| *name).collect();
            assert_eq!(names[..2], ["m", "k"], "{:?}", domain.generator);
            let distinct: BTreeSet<&str> = names.iter().copied().collect();
            assert_eq!(distinct.len(), names.len(), "{:?}", domain.generator);
            for (name, [min, max]) in domain.ranges {
                assert!(min <= max, "{:?}: {name}", domain.generator);
            }
        }
    }
}
