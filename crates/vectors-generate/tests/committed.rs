//! The committed vector files: deterministic, fresh, and loadable.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_vectors::{FileKind, VectorFile, load_file};
use bloomproof_vectors_generate::{fresh, generate};
use std::path::PathBuf;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One generation shared by the tests of this binary.
fn generated() -> &'static [(String, String)] {
    static GENERATED: OnceLock<Result<Vec<(String, String)>, String>> = OnceLock::new();
    match GENERATED.get_or_init(generate) {
        Ok(files) => files,
        Err(err) => panic!("generation failed:\n{err}"),
    }
}

#[test]
fn generation_is_deterministic() {
    let again = generate().unwrap();
    let first = generated();
    assert_eq!(first.len(), again.len());
    for ((path_a, text_a), (path_b, text_b)) in first.iter().zip(&again) {
        assert_eq!(path_a, path_b);
        assert!(text_a == text_b, "{path_a} differs between two runs");
    }
}

#[test]
fn committed_vectors_are_fresh() {
    let stale = fresh::compare(&root(), generated());
    if let Some(report) = fresh::report(&stale) {
        panic!("{report}");
    }
}

#[test]
fn committed_vectors_load() {
    for kind in FileKind::ALL {
        let file =
            load_file(root().join(kind.path())).unwrap_or_else(|err| panic!("{kind}: {err}"));
        assert_eq!(file.file_kind(), kind);
        assert!(file.case_count() > 0, "{kind} has no case");
    }
}

#[test]
fn every_file_and_schema_is_generated_with_the_stated_shape() {
    let paths: Vec<&str> = generated().iter().map(|(p, _)| p.as_str()).collect();
    for kind in FileKind::ALL {
        assert!(paths.contains(&kind.path().as_str()));
        let schema = format!("vectors/schemas/{}", kind.schema_file());
        assert!(paths.contains(&schema.as_str()));
    }
    assert_eq!(paths.len(), 10);
}

#[test]
fn coverage_is_broad() {
    let mut counts = Vec::new();
    for (path, text) in generated() {
        if path.starts_with("vectors/schemas/") {
            continue;
        }
        let file = bloomproof_vectors::parse_named(path, text).unwrap();
        let flags = file.flags().clone();
        counts.push((file.file_kind(), file.case_count()));
        let need: &[&str] = match file {
            VectorFile::DocPositions(_) => &[
                "boundary",
                "sweep",
                "empty-item",
                "max-item",
                "empty-seed",
                "max-seed",
                "min-m",
                "max-m",
                "min-k",
                "max-k",
                "m-not-multiple-of-8",
                "repeated-position",
            ],
            VectorFile::DocSnapshots(_) => &[
                "repeated-record",
                "non-member",
                "false-positive",
                "member",
                "empty-snapshot",
                "max-records",
                "sweep",
            ],
            VectorFile::DocRejections(_) => &[
                "type-error",
                "value-error",
                "truncation-trap",
                "multiple-faults",
                "sweep",
            ],
            VectorFile::FnvPositions(_) => &[
                "surrogate-pair",
                "lone-surrogate",
                "wrap-would-differ",
                "repeated-position",
                "zero-unit",
                "max-unit",
                "min-length",
                "max-length",
                "min-m",
                "max-m",
                "min-k",
                "max-k",
                "sweep",
            ],
            VectorFile::FnvRejections(_) => &["value-error", "truncation-trap"],
        };
        for flag in need {
            assert!(flags.contains_key(*flag), "{path} has no {flag:?} case");
        }
    }
    let count = |kind| {
        counts
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(0, |(_, n)| *n)
    };
    assert!(count(FileKind::DocPositions) >= 2000);
    assert!(count(FileKind::DocSnapshots) >= 300);
    assert!(count(FileKind::FnvPositions) >= 3000);
}
