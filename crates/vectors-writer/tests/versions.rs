//! The doc-membership writer is a function of the version ([`DocVersion`]): another
//! version's files are written under its name, with its domain's values (each checked
//! against the oracle under the domain the caller writes in hex) and within its bounds
//! (the strict loader reads them back under those bounds); figures the hand-picked data
//! names are compared only where the version publishes them.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_protocol::doc_membership::{Bounds, DocFamily};
use bloomproof_protocol::doc_membership_v1::BOUNDS;
use bloomproof_vectors::{DocBounds, VectorFile, Version, parse_named_in};
use bloomproof_vectors_writer::{DocVersion, doc_files};
use std::sync::OnceLock;

const NAME: &str = "doc-membership-v2";

/// v2: v1's bounds, its own domain.
static V2: DocFamily = DocFamily::new(NAME, b"doc-membership-v2\0", BOUNDS);

/// A narrow v2: k at most 4, items of at most 32 bytes, 16 records, m up to 300.
static NARROW: DocFamily = DocFamily::new(
    NAME,
    b"doc-membership-v2\0",
    Bounds {
        m: [8, 300],
        k: [1, 4],
        item_max: 32,
        records_max: 16,
        ..BOUNDS
    },
);

/// "doc-membership-v2" and one zero byte, written out by hand.
const V2_HEX: &str = "646f632d6d656d626572736869702d763200";

/// A checks file of v2 that publishes no figure.
const CHECKS: &str = r#"{"$schema": "s", "protocol": "doc-membership-v2", "format_version": 1,
    "check_count": 0, "checks": [], "published_figures": []}"#;

fn version(family: &'static DocFamily, domain_hex: &'static str) -> DocVersion<'static> {
    DocVersion {
        family,
        domain_hex,
        checks: ("spec/doc-membership-v2/checks.json", CHECKS),
    }
}

/// The files of `family`, each loaded under its bounds: (path, file).
fn written(family: &'static DocFamily) -> Vec<(String, VectorFile)> {
    let loaded = [Version {
        name: NAME,
        format: "doc-membership-v1",
        doc_bounds: Some(DocBounds::of(family)),
    }];
    doc_files(&version(family, V2_HEX))
        .unwrap()
        .into_iter()
        .map(|(path, text)| {
            let file = parse_named_in(&path, &text, &loaded).unwrap();
            (path, file)
        })
        .collect()
}

fn v1() -> &'static [(String, String)] {
    static V1: OnceLock<Vec<(String, String)>> = OnceLock::new();
    V1.get_or_init(|| doc_files(&DocVersion::V1).unwrap())
}

/// v2's three files: under its name, the same cases as v1's (v1's bounds: every
/// hand-picked case, no named figure compared since v2 publishes none), every digest
/// another.
#[test]
fn a_version_is_written_under_its_name_with_its_values() {
    let v2 = written(&V2);
    let paths: Vec<&str> = v2.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "vectors/doc-membership-v2/positions.json",
            "vectors/doc-membership-v2/snapshots.json",
            "vectors/doc-membership-v2/rejections.json"
        ]
    );
    for ((_, file), (_, v1_text)) in v2.iter().zip(v1()) {
        assert_eq!(file.protocol(), NAME);
        let v1_file = bloomproof_vectors::parse(v1_text).unwrap();
        assert_eq!(file.ids(), v1_file.ids(), "{}", file.file_kind());
    }
    let (VectorFile::DocPositions(v2_positions), VectorFile::DocPositions(v1_positions)) =
        (&v2[0].1, bloomproof_vectors::parse(&v1()[0].1).unwrap())
    else {
        panic!("positions first");
    };
    for (two, one) in v2_positions.cases.iter().zip(&v1_positions.cases) {
        for (a, b) in two.hashes.iter().zip(&one.hashes) {
            assert_ne!(a.digest_hex, b.digest_hex, "{}", two.id);
            assert!(a.message_hex.0.starts_with(b"doc-membership-v2\0"));
        }
    }
}

/// The oracle judges every value under the domain the caller writes: a production
/// family whose domain is not that one is refused, naming the file and the case.
#[test]
fn a_domain_production_does_not_hash_with_is_refused() {
    let v1_hex = bloomproof_oracle::doc_membership::DOMAIN_HEX;
    let err = doc_files(&version(&V2, v1_hex)).unwrap_err();
    assert!(
        err.starts_with("vectors/doc-membership-v2: case `published/m9-k2-seed-S-item-0041`: hash 0: message differs"),
        "{err}"
    );
}

/// A narrower version's files stay within its bounds (the loader, holding them to
/// those, reads them back): its edges are covered (k 4, 32-byte items, 16 records, m
/// 300), a v1 case beyond them is left out, and v1's hand-picked rejections (v1's
/// bound edges) are not taken.
#[test]
fn a_narrow_version_is_written_within_its_bounds() {
    let files = written(&NARROW);
    let [
        (_, VectorFile::DocPositions(positions)),
        (_, VectorFile::DocSnapshots(snapshots)),
        (_, VectorFile::DocRejections(rejections)),
    ] = files.as_slice()
    else {
        panic!("three files");
    };
    let has = |flags: &[String], flag: &str| flags.iter().any(|f| f == flag);
    let max_k = positions.cases.iter().map(|c| c.params.k).max();
    let max_m = positions.cases.iter().map(|c| c.params.m).max();
    assert_eq!((max_k, max_m), (Some(4), Some(300)));
    assert!(
        positions
            .cases
            .iter()
            .any(|c| c.item_hex.0.len() == 32 && has(&c.flags, "max-item"))
    );
    assert!(positions.cases.iter().any(|c| has(&c.flags, "max-k")));
    assert!(snapshots.cases.iter().any(|c| has(&c.flags, "max-records")));
    let ids = |file: &VectorFile| file.ids().len();
    let v1_positions = bloomproof_vectors::parse(&v1()[0].1).unwrap();
    assert!(
        positions.cases.len() < ids(&v1_positions),
        "v1's k 8 cases are left out"
    );
    assert!(
        !snapshots
            .cases
            .iter()
            .any(|c| c.id == "published/maximum-bounds-m512-k8"),
        "a hand-picked case beyond the bounds is left out"
    );
    assert!(rejections.cases.iter().all(|c| c.id.starts_with("sweep/")));
    assert!(rejections.cases.iter().any(|c| c.expect.field == "k"));
}

/// A figure the hand-picked data names is compared where the version publishes it: a
/// v2 publishing v1's `d291` under the fixture's name is refused (its fixture packs
/// other bits), naming the figure and the data file.
#[test]
fn a_named_figure_the_version_publishes_is_compared() {
    let checks = r#"{"$schema": "s", "protocol": "doc-membership-v2", "format_version": 1,
        "check_count": 0, "checks": [], "published_figures": [{"name":
        "fixture.packed_little_endian_hex", "check": "c", "value": "d291", "source": "v1"}]}"#;
    let err = doc_files(&DocVersion {
        checks: ("spec/doc-membership-v2/checks.json", checks),
        ..version(&V2, V2_HEX)
    })
    .unwrap_err();
    assert!(
        err.starts_with("vectors/doc-membership-v2: case `published/seed-figures-m16-k3-lab`: does not reproduce the figures of crates/vectors-writer/data/doc-membership-v1.hand-picked.json: packed_hex ")
            && err.ends_with(", not d291"),
        "{err}"
    );
}
