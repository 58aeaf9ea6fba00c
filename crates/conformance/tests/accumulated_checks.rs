//! The accumulated digests are checks of the report (`<protocol>/accumulated`), in
//! process and through any subject; `accumulated.json` is part of the spec, bounded,
//! and a broken one is a load error.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_conformance::load;
use bloomproof_conformance::run::{Subjects, run};
use std::path::Path;

fn spec_copy() -> tempfile::TempDir {
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let dir = tempfile::tempdir().unwrap();
    for name in ["doc-membership-v1", "fnv1a-utf16-v1"] {
        std::fs::create_dir_all(dir.path().join(name)).unwrap();
        for file in ["checks.json", "cases.json"] {
            std::fs::copy(real.join(name).join(file), dir.path().join(name).join(file)).unwrap();
        }
    }
    std::fs::copy(
        real.join("accumulated.json"),
        dir.path().join("accumulated.json"),
    )
    .unwrap();
    dir
}

fn load_errors(dir: &Path) -> Vec<String> {
    match load(dir) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_broken_accumulated_file_is_a_load_error() {
    let dir = spec_copy();
    let path = dir.path().join("accumulated.json");
    std::fs::write(&path, "{\n").unwrap();
    let errors = load_errors(dir.path());
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!("{}: not an accumulated file", path.display())),
        "{errors:?}"
    );
}

#[test]
fn a_count_beyond_the_bound_is_a_load_error() {
    let dir = spec_copy();
    let path = dir.path().join("accumulated.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("\"count\": 4096", "\"count\": 1000000000000"),
    )
    .unwrap();
    let errors = load_errors(dir.path());
    assert_eq!(
        errors,
        [format!(
            "{}: doc-membership-v1: `checkpoint.count` is 1000000000000: it must be 1 to `count` (1048576)",
            path.display()
        )]
    );
}

#[test]
fn the_filter_accumulated_runs_the_digests_and_reports_them() {
    let spec = load(spec_copy().path()).unwrap();
    let report = run(&spec, &mut Subjects::rust(), Some("accumulated"));
    let names: Vec<String> = report.checks.iter().map(|c| c.full_name()).collect();
    assert_eq!(
        names,
        [
            "doc-membership-v1/accumulated",
            "fnv1a-utf16-v1/accumulated"
        ]
    );
    assert_eq!(report.failed, 0, "{}", report.render_text());
    let text = report.render_text();
    for digest in [
        "1e73bf2c70cd17fb519f44442bb7bc8ffb6eab1e0169fb4f7103fb42a011b2fa",
        "26b7c88dbbbf3c8a27d803508773f0dae93e08a165b1300cdfd983416e2306e4",
    ] {
        assert!(
            text.contains(&format!(
                "accumulated.checkpoint: \"{digest}\" (published \"{digest}\")"
            )),
            "{text}"
        );
    }
}

#[test]
fn a_wrong_published_digest_fails_the_check_naming_both_sides() {
    let dir = spec_copy();
    let path = dir.path().join("accumulated.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let wrong = text.replace(
        "1e73bf2c70cd17fb519f44442bb7bc8ffb6eab1e0169fb4f7103fb42a011b2fa",
        &"0".repeat(64),
    );
    std::fs::write(&path, wrong).unwrap();
    let spec = load(dir.path()).unwrap();
    let report = run(
        &spec,
        &mut Subjects::rust(),
        Some("doc-membership-v1/accumulated"),
    );
    assert_eq!(report.failed, 1);
    let whats: Vec<&str> = report.checks[0]
        .failures
        .iter()
        .map(|f| f.what.as_str())
        .collect();
    assert!(
        whats[0].starts_with("accumulated digest of the implementation's answers to 4096"),
        "{whats:?}"
    );
    assert!(
        whats[1].starts_with("the oracle's accumulated digest of 4096"),
        "{whats:?}"
    );
    assert!(report.render_text().contains("DIFFERS"));
}

#[test]
fn a_spec_without_the_file_runs_no_accumulated_check() {
    let dir = spec_copy();
    std::fs::remove_file(dir.path().join("accumulated.json")).unwrap();
    let spec = load(dir.path()).unwrap();
    let report = run(&spec, &mut Subjects::rust(), Some("accumulated"));
    assert!(report.checks.is_empty());
}
