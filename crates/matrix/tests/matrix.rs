//! The matrix in process: judged, written and rendered, with the Rust implementation
//! only (no adapter, no browser).

use bloomproof_conformance::report::Class;
use bloomproof_matrix::cross::{Difference, Grid, GridCell};
use bloomproof_matrix::page::{Tally, failures_html, html, summary};
use bloomproof_matrix::{Cell, Implementations, Matrix, Options, Status, compute};
use std::path::PathBuf;
use std::time::Duration;

fn spec() -> (bloomproof_conformance::Spec, String) {
    let spec = bloomproof_conformance::load_embedded().expect("the embedded spec loads");
    (spec, bloomproof_conformance::embedded::embedded_version())
}

fn options(file: &str) -> Options {
    Options {
        implementations: Implementations::parse(file, "test")
            .expect("valid")
            .implementations,
        sessions: Vec::new(),
        timeout: Duration::from_secs(20),
        binary: PathBuf::from("unused"),
        require: Vec::new(),
        every_case: false,
    }
}

#[test]
fn a_stale_expected_failure_fails_the_matrix() {
    let (spec, version) = spec();
    let matrix = compute(
        &spec,
        version,
        &options(
            r#"{"implementations": [{"name": "rust",
               "expected_failures": [{"check": "doc-membership-v1/every_stage_pinned", "reason": "planted stale entry"}]}]}"#,
        ),
        &|_| {},
    );
    assert_eq!(
        matrix.errors,
        [
            "rust: doc-membership-v1/every_stage_pinned passed but is listed as an expected failure (\"planted stale entry\"): the list is stale, remove the entry"
        ]
    );
    let rust = &matrix.implementations[0];
    assert_eq!(
        rust.version,
        format!("bloomproof {}, in process", env!("CARGO_PKG_VERSION"))
    );
    let stale: Vec<&Cell> = rust
        .cells
        .iter()
        .filter(|c| c.status == Status::Stale)
        .collect();
    assert_eq!(stale.len(), 1);
    assert_eq!(rust.passed, rust.total);
    // Every check carries what it asserts and its source, as checks.json says.
    let check = matrix
        .checks
        .iter()
        .find(|c| c.name == "doc-membership-v1/every_stage_pinned")
        .expect("the check is a row");
    let documented = spec.protocols[0]
        .checks
        .iter()
        .find(|c| c.name == "every_stage_pinned")
        .expect("documented");
    assert_eq!(check.asserts, documented.asserts);
    assert_eq!(check.source, documented.source);
    // The page and the summary say so.
    let page = html(&matrix);
    assert!(page.contains(">STALE<span class=\"visually-hidden\">: rust on doc-membership-v1/every_stage_pinned</span>"));
    assert!(page.contains("Failed</span>: 1 error"));
    assert!(page.contains(&format!(
        "<span class=\"asserts\">{}</span>",
        documented.asserts.replace('"', "&quot;").replace('\'', "&#39;")
    )));
    assert!(summary(&matrix).contains("* rust: doc-membership-v1/every_stage_pinned: STALE"));
    // The failures page holds the stale row only.
    let failures = failures_html(&matrix);
    assert_eq!(failures.matches("data-cell=").count(), 1, "{failures}");
    // Cross-reading of the one implementation with itself is all equal.
    for grid in &matrix.cross {
        assert_eq!(grid.cells.len(), 1);
        assert!(grid.cells[0].passed, "{:?}", grid.cells[0]);
    }
}

#[test]
fn the_summary_counts_each_protocol_apart() {
    let (spec, version) = spec();
    let mut matrix = compute(
        &spec,
        version,
        &options(r#"{"implementations": [{"name": "rust"}]}"#),
        &|_| {},
    );
    assert_eq!(matrix.implementations[0].language, "Rust");
    // The rows of a protocol: its documented checks and the accumulated digest.
    let count = |p: &str, class: Class| {
        matrix
            .checks
            .iter()
            .filter(|c| c.name.starts_with(&format!("{p}/")) && c.class == class)
            .count()
    };
    let doc = count("doc-membership-v1", Class::Core);
    let doc_apart: usize = Class::OPTIONAL
        .iter()
        .map(|c| count("doc-membership-v1", *c))
        .sum();
    let fnv = count("fnv1a-utf16-v1", Class::Core);
    assert_eq!(doc, spec.protocols[0].checks.len() - doc_apart + 1);
    // The adapter protocol's own checks are rows, not run in process.
    assert_eq!(
        Tally::of(
            &matrix.implementations[0],
            &matrix.checks,
            "adapter-protocol",
            &[]
        )
        .text(),
        "not run (not answered by this implementation)"
    );
    let hardening = count("doc-membership-v1", Class::Hardening);
    assert!(hardening > 0, "doc-membership-v1 has a hardening check");
    let tally = |m: &Matrix, p: &str| Tally::of(&m.implementations[0], &m.checks, p, &[]);
    // The interop and hardening checks are counted apart, class by class.
    let apart = |p: &str| -> String {
        Class::OPTIONAL
            .iter()
            .map(|c| (c.name(), count(p, *c)))
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| format!(", {name} {n}/{n}"))
            .collect()
    };
    let recommended = apart("doc-membership-v1");
    assert!(recommended.contains(&format!(", hardening {hardening}/{hardening}")));
    assert_eq!(
        tally(&matrix, "doc-membership-v1").text(),
        format!("{doc}/{doc} passed{recommended}")
    );
    // A planted failure, an expected one and a missing cell are counted where they are.
    let cells = &mut matrix.implementations[0].cells;
    cells[0].status = Status::Unexpected;
    cells[1].status = Status::ExpectedFailure;
    cells.retain(|c| !c.check.ends_with("/query_counters"));
    assert_eq!(
        tally(&matrix, "doc-membership-v1").text(),
        format!(
            "{}/{doc} passed, 1 failed, 1 expected failure{recommended}",
            doc - 2
        )
    );
    assert_eq!(
        tally(&matrix, "fnv1a-utf16-v1").text(),
        format!(
            "{}/{} passed, 1 not run (not answered by this implementation){}",
            fnv - 1,
            fnv - 1,
            apart("fnv1a-utf16-v1")
        )
    );
    let text = summary(&matrix);
    let header = format!("| {} |", bloomproof_conformance::PROTOCOLS.join(" | "));
    assert!(text.contains(&header), "{text}");
}

#[test]
fn the_page_links_a_failing_cross_reading_cell_to_what_differed() {
    let cell = |producer: &str, reader: &str, passed: bool| GridCell {
        producer: producer.to_string(),
        reader: reader.to_string(),
        passed,
        compared: 3,
        differences: if passed {
            Vec::new()
        } else {
            vec![Difference {
                case: "seed-example".to_string(),
                what: "b's view after importing a's export".to_string(),
                expected: "a's view at the export".to_string(),
                actual: "view.counters.false_positives: missing".to_string(),
            }]
        },
        more: 0,
    };
    let matrix = Matrix {
        spec_version: "0".repeat(64),
        ran_at: "1970-01-01T00:00:00Z".to_string(),
        checks: Vec::new(),
        implementations: Vec::new(),
        cross: vec![Grid {
            protocol: "fnv1a-utf16-v1".to_string(),
            producers: vec!["a".to_string(), "b".to_string()],
            readers: vec!["a".to_string(), "b".to_string()],
            cells: vec![
                cell("a", "a", true),
                cell("a", "b", false),
                cell("b", "a", true),
                cell("b", "b", true),
            ],
            not_run: Vec::new(),
        }],
        errors: Vec::new(),
        require: Vec::new(),
    };
    let page = html(&matrix);
    assert!(page.contains(
        "<td class=\"differs\"><a href=\"#x-0-1\" data-cell=\"x-0-1\">differs (1)<span class=\"visually-hidden\">: a read by b</span></a></td>"
    ));
    assert!(page.contains("<section class=\"detail\" id=\"x-0-1\" tabindex=\"-1\"><h3><code>fnv1a-utf16-v1</code> written by a, read by b: differs</h3>"));
    assert!(
        page.contains(
            "<dt>actual</dt><dd><code>view.counters.false_positives: missing</code></dd>"
        )
    );
    assert_eq!(page.matches("class=\"equal\"").count(), 3);
    assert!(summary(&matrix).contains("| a | equal | DIFFERS |"));
    // The failures page keeps the grid (one pair differs) and that pair's details, open,
    // and no script.
    let failures = failures_html(&matrix);
    assert!(failures.contains("id=\"x-0-1\""));
    assert!(!failures.contains("id=\"x-0-0\""));
    assert!(failures.contains("<details id=\"cross-details-0\" open>"));
    assert!(!failures.contains("<script"));
}

#[test]
fn the_matrix_is_written_with_its_badges() {
    let (spec, version) = spec();
    let matrix = compute(
        &spec,
        version,
        &options(r#"{"implementations": [{"name": "rust"}]}"#),
        &|_| {},
    );
    let dir = tempfile::tempdir().expect("a temp dir");
    let out = dir.path().join("m");
    std::fs::create_dir_all(out.join("badges")).expect("made");
    // A previous matrix output: its marker lists the badge it wrote (and, planted, a
    // file outside the badges and a path out of the folder, which are never removed).
    std::fs::write(out.join("badges/old.json"), "{}").expect("written");
    std::fs::write(out.join("badges/mine.json"), "{}").expect("written");
    std::fs::write(out.join("notes.txt"), "mine").expect("written");
    std::fs::write(
        out.join(bloomproof_matrix::page::MARKER),
        "Written by `bloomproof matrix`\nbadges/old.json\nnotes.txt\nbadges/../notes.txt\n",
    )
    .expect("written");
    bloomproof_matrix::page::prepare(&out, false).expect("a previous output is replaced");
    bloomproof_matrix::page::write(&out, &matrix).expect("written");
    for file in [
        "index.html",
        "failures.html",
        "matrix.json",
        "summary.md",
        "badges/rust.json",
    ] {
        assert!(out.join(file).is_file(), "{file}");
    }
    assert!(!out.join("badges/old.json").exists(), "an old badge stays");
    assert!(
        out.join("badges/mine.json").is_file(),
        "a badge it did not write went"
    );
    assert!(
        out.join("notes.txt").is_file(),
        "a file it did not write went"
    );
    let marker = std::fs::read_to_string(out.join(bloomproof_matrix::page::MARKER)).expect("read");
    assert!(marker.lines().any(|l| l == "badges/rust.json"), "{marker}");
    let read: Matrix =
        serde_json::from_str(&std::fs::read_to_string(out.join("matrix.json")).expect("read"))
            .expect("matrix.json reads back");
    assert_eq!(read, matrix);
}
