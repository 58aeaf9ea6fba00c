//! The loader's guards that the copied-spec tests of `load_errors.rs` do not reach:
//! the in-memory loaders (`parse_protocol`, `load_files`) and the published figures.
//! Each test is one a mutant of `load.rs` fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::LoadError;
use bloomproof_conformance::load::{load_files, parse_protocol};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const PROTOCOLS: [&str; 2] = ["doc-membership-v1", "fnv1a-utf16-v1"];

fn real_spec() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")
}

fn text(protocol: &str, file: &str) -> String {
    std::fs::read_to_string(real_spec().join(protocol).join(file)).unwrap()
}

/// `parse_protocol` on the real `cases.json` and the real `checks.json` with `edit`.
fn parse_with_checks(protocol: &str, edit: impl FnOnce(&mut Value)) -> Vec<LoadError> {
    let mut checks: Value = serde_json::from_str(&text(protocol, "checks.json")).unwrap();
    edit(&mut checks);
    parse_protocol(protocol, &checks.to_string(), &text(protocol, "cases.json"))
        .expect_err("the edited checks.json must not parse")
}

fn listed(errors: &[LoadError]) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

#[test]
fn parse_protocol_reads_each_real_protocol() {
    for protocol in PROTOCOLS {
        let spec = parse_protocol(
            protocol,
            &text(protocol, "checks.json"),
            &text(protocol, "cases.json"),
        )
        .unwrap_or_else(|errors| panic!("{protocol}: {:#?}", listed(&errors)));
        assert_eq!(spec.protocol, protocol);
        assert!(!spec.checks.is_empty());
    }
}

/// A protocol that parses whole but with an error is refused, not handed out.
#[test]
fn parse_protocol_refuses_a_protocol_with_an_error() {
    let errors = parse_with_checks("fnv1a-utf16-v1", |checks| {
        let n = checks["check_count"].as_u64().unwrap();
        checks["check_count"] = json!(n + 1);
    });
    assert_eq!(errors.len(), 1, "{:#?}", listed(&errors));
    assert!(
        errors[0].file.ends_with("fnv1a-utf16-v1/checks.json")
            && errors[0].message.contains("`check_count` says"),
        "{:#?}",
        listed(&errors)
    );
}

#[test]
fn a_published_figure_of_an_undocumented_check_is_refused() {
    for protocol in PROTOCOLS {
        let errors = parse_with_checks(protocol, |checks| {
            checks["published_figures"][0]["check"] = json!("no_such_check");
        });
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages.len(), 1, "{protocol}: {messages:#?}");
        assert!(
            messages[0].starts_with("published figure `")
                && messages[0].ends_with("names check `no_such_check`, which is not documented"),
            "{protocol}: {messages:#?}"
        );
    }
}

/// `load_files` never reads the disk: a file it was not given is missing, even when
/// the disk under its root has it.
#[test]
fn load_files_does_not_read_a_missing_file_from_the_disk() {
    let checks = text("fnv1a-utf16-v1", "checks.json");
    let errors = load_files(
        &real_spec(),
        &[("fnv1a-utf16-v1/checks.json", checks.as_bytes())],
    )
    .expect_err("cases.json was not given");
    assert_eq!(
        listed(&errors),
        [format!(
            "{}: cannot read: not in the spec files",
            real_spec()
                .join("fnv1a-utf16-v1")
                .join("cases.json")
                .display()
        )]
    );
}
