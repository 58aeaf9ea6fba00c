//! The loader's guards that the copied-spec tests of `load_errors.rs` do not reach:
//! the in-memory loaders (`parse_protocol`, `load_files`), the published figures and
//! the shapes of the hooks' cases.
//! Each test is one a mutant of `load.rs` fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::load::{load_files, parse_protocol};
use bloomproof_conformance::protocols::{doc_membership_v1, fnv1a_utf16_v1};
use bloomproof_conformance::{LoadError, PROTOCOLS};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

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
    for &protocol in PROTOCOLS {
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

/// `parse_protocol` on the real files of `protocol`, with `edit` applied to both (as
/// parsed JSON): `(checks.json, cases.json)`.
fn parse_edited(
    protocol: &str,
    edit: impl FnOnce(&mut Value, &mut Value),
) -> Result<bloomproof_conformance::load::ProtocolSpec, Vec<LoadError>> {
    let mut checks: Value = serde_json::from_str(&text(protocol, "checks.json")).unwrap();
    let mut cases: Value = serde_json::from_str(&text(protocol, "cases.json")).unwrap();
    edit(&mut checks, &mut cases);
    parse_protocol(protocol, &checks.to_string(), &cases.to_string())
}

/// The case `id` of a parsed `cases.json`.
fn case<'v>(cases: &'v mut Value, id: &str) -> &'v mut Value {
    cases["cases"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["id"] == id)
        .expect("the case is in the real spec")
}

/// A case moved to a check whose hook reads cases of another shape is refused, naming
/// the file, the case, the check, the hook's shape and the case's; the shapes a hook
/// passes over are named too.
#[test]
fn a_case_of_a_shape_its_checks_hook_does_not_read_is_refused() {
    let (doc, fnv) = (doc_membership_v1::NAME, fnv1a_utf16_v1::NAME);
    for (protocol, id, check, reads, shape) in [
        (
            doc,
            "02-tiny/m8-k8",
            "empty_snapshot_definitely_absent",
            "`build` cases",
            "lookup",
        ),
        (
            fnv,
            "22-m8-k1-n8",
            "observed_rate_one_half",
            "`script` cases",
            "estimates",
        ),
        (
            fnv,
            "22-m64-k3-n10",
            "positions_without_32_bit_wrap",
            "`hashes` cases (and passes over `script`)",
            "estimates",
        ),
    ] {
        let module = protocol.replace('-', "_");
        let message = format!(
            "check `{check}` has a hook (crates/conformance/src/protocols/{module}/hooks.rs) that reads {reads}, \
             but this case's shape is `{shape}`"
        );
        let errors = parse_edited(protocol, |_, cases| {
            case(cases, id)["check"] = json!(check);
        })
        .expect_err("the moved case must not load");
        assert_eq!(
            errors,
            [LoadError {
                file: Path::new(protocol).join("cases.json"),
                case: Some(id.to_string()),
                message,
            }],
            "{protocol} {id}"
        );
    }
}

/// A hook belongs to its protocol: a check of the other protocol that has its name,
/// with cases of another shape, loads (and the hook's own check still needs its shape).
#[test]
fn a_check_named_like_a_hooked_check_of_the_other_protocol_has_no_hook() {
    let spec = parse_edited("doc-membership-v1", |checks, cases| {
        let mut added = checks["checks"][0].clone();
        added["name"] = json!("base_hashes_pinned");
        checks["checks"].as_array_mut().unwrap().push(added);
        let n = checks["checks"].as_array().unwrap().len();
        checks["check_count"] = json!(n);
        case(cases, "16-boundary/m9-k2")["check"] = json!("base_hashes_pinned");
    })
    .unwrap_or_else(|errors| panic!("{:#?}", listed(&errors)));
    assert_eq!(spec.case_ids["base_hashes_pinned"], ["16-boundary/m9-k2"]);
}

/// The shape the loader hands the hooks is the case's `shape` tag, for every case of
/// the real spec (which has every shape).
#[test]
fn each_case_has_the_shape_its_data_names() {
    for protocol in PROTOCOLS {
        let raw: Value = serde_json::from_str(&text(protocol, "cases.json")).unwrap();
        let tags: Vec<&str> = raw["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["shape"].as_str().unwrap())
            .collect();
        let spec = parse_protocol(
            protocol,
            &text(protocol, "checks.json"),
            &text(protocol, "cases.json"),
        )
        .unwrap();
        let shapes: Vec<&str> = spec.cases.each().into_iter().map(|c| c.3).collect();
        assert_eq!(shapes, tags, "{protocol}");
    }
}
