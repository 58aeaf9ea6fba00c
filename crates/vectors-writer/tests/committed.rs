//! The committed vector files: deterministic, fresh, and loadable.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_vectors::{FileKind, load_file};
use bloomproof_vectors_writer::{coverage, files, fresh};
use std::path::PathBuf;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One writing shared by the tests of this binary.
fn written() -> &'static [(String, String)] {
    static WRITTEN: OnceLock<Result<Vec<(String, String)>, String>> = OnceLock::new();
    match WRITTEN.get_or_init(files) {
        Ok(files) => files,
        Err(err) => panic!("writing failed:\n{err}"),
    }
}

#[test]
fn writing_is_deterministic() {
    let again = files().unwrap();
    let first = written();
    assert_eq!(first.len(), again.len());
    for ((path_a, text_a), (path_b, text_b)) in first.iter().zip(&again) {
        assert_eq!(path_a, path_b);
        assert!(text_a == text_b, "{path_a} differs between two runs");
    }
}

#[test]
fn committed_vectors_are_fresh() {
    let stale = fresh::compare(&root(), written());
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
fn every_file_and_schema_is_written_with_the_stated_shape() {
    let paths: Vec<&str> = written().iter().map(|(p, _)| p.as_str()).collect();
    for kind in FileKind::ALL {
        assert!(paths.contains(&kind.path().as_str()));
        let schema = format!("vectors/schemas/{}", kind.schema_file());
        assert!(paths.contains(&schema.as_str()));
    }
    assert_eq!(paths.len(), 2 * FileKind::ALL.len());
}

/// Every file written covers what its protocol's module says it must
/// (`bloomproof_vectors_writer::coverage`): its flags and its fewest cases.
#[test]
fn coverage_is_broad() {
    let stated: Vec<FileKind> = coverage().map(|c| c.kind).collect();
    assert_eq!(
        stated,
        FileKind::ALL,
        "every file kind states its coverage, once"
    );
    for (path, text) in written() {
        if path.starts_with("vectors/schemas/") {
            continue;
        }
        let file = bloomproof_vectors::parse_named(path, text).unwrap();
        let need = coverage()
            .find(|c| c.kind == file.file_kind())
            .unwrap_or_else(|| panic!("{path}: no coverage stated"));
        for flag in need.flags {
            assert!(
                file.flags().contains_key(*flag),
                "{path} has no {flag:?} case"
            );
        }
        assert!(
            file.case_count() >= need.min_cases,
            "{path}: {} cases, fewer than {}",
            file.case_count(),
            need.min_cases
        );
    }
}
