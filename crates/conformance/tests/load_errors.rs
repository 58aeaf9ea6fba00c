//! The runner guards itself: every malformed spec is a load error naming the file, the
//! case and what is wrong. Each test starts from a copy of the real `spec/` and breaks
//! one thing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::{LoadError, load};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const PROTOCOL: &str = "doc-membership-v1";

fn real_spec() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")
}

/// A temporary copy of the spec with `edit` applied to one protocol file.
fn broken(file: &str, edit: impl FnMut(&mut Value)) -> (tempfile::TempDir, Vec<LoadError>) {
    broken_written(file, edit, "")
}

/// [`broken`], with every string `"@literal@"` in the edited file's text replaced by
/// `literal` (a number serde_json cannot hold as written, such as 99999999999999999999).
fn broken_written(
    file: &str,
    mut edit: impl FnMut(&mut Value),
    literal: &str,
) -> (tempfile::TempDir, Vec<LoadError>) {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join(PROTOCOL);
    std::fs::create_dir_all(&target).unwrap();
    for name in ["checks.json", "cases.json"] {
        let text = std::fs::read_to_string(real_spec().join(PROTOCOL).join(name)).unwrap();
        let mut value: Value = serde_json::from_str(&text).unwrap();
        let mut text = serde_json::to_string_pretty(&value).unwrap();
        if name == file {
            edit(&mut value);
            text = serde_json::to_string_pretty(&value)
                .unwrap()
                .replace(&format!("\"@{literal}@\""), literal);
        }
        std::fs::write(target.join(name), text).unwrap();
    }
    let errors = load(dir.path()).expect_err("the broken spec must not load");
    (dir, errors)
}

fn assert_error(errors: &[LoadError], file: &str, case: Option<&str>, needle: &str) {
    let found = errors
        .iter()
        .any(|e| e.file.ends_with(file) && e.case.as_deref() == case && e.message.contains(needle));
    let listed: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        found,
        "no error in {file} for case {case:?} containing {needle:?}; got {listed:#?}"
    );
}

fn cases(value: &mut Value) -> &mut Vec<Value> {
    value["cases"].as_array_mut().unwrap()
}

#[test]
fn the_real_spec_loads() {
    let spec = load(&real_spec()).unwrap();
    assert!(spec.check_count() >= 14);
}

#[test]
fn documented_check_without_case() {
    let (_dir, errors) = broken("cases.json", |v| {
        cases(v).retain(|c| c["check"] != "snapshot_fields_are_immutable");
        let n = cases(v).len();
        v["case_count"] = json!(n);
    });
    assert_error(
        &errors,
        "cases.json",
        None,
        "`snapshot_fields_are_immutable` has no case",
    );
}

#[test]
fn case_naming_an_undocumented_check() {
    let (_dir, errors) = broken("cases.json", |v| {
        cases(v)[0]["check"] = json!("no_such_check");
    });
    let id = "01-empty/lab-16-3";
    assert_error(
        &errors,
        "cases.json",
        Some(id),
        "field `check`: \"no_such_check\" is not a check that checks.json documents",
    );
}

#[test]
fn duplicate_case_id() {
    let (_dir, errors) = broken("cases.json", |v| {
        let first = cases(v)[0].clone();
        cases(v).push(first);
        let n = cases(v).len();
        v["case_count"] = json!(n);
    });
    assert_error(
        &errors,
        "cases.json",
        Some("01-empty/lab-16-3"),
        "duplicate case id",
    );
}

#[test]
fn unknown_field_in_a_case() {
    let (_dir, errors) = broken("cases.json", |v| {
        cases(v)[0]["expect"]["bitz_set"] = json!(0);
    });
    assert_error(
        &errors,
        "cases.json",
        Some("01-empty/lab-16-3"),
        "unknown field `bitz_set`",
    );
}

#[test]
fn unknown_top_level_field() {
    let (_dir, errors) = broken("checks.json", |v| {
        v["extra"] = json!(true);
    });
    assert_error(&errors, "checks.json", None, "unknown field `extra`");
}

#[test]
fn bad_hex() {
    let (_dir, errors) = broken("cases.json", |v| {
        cases(v)[0]["input"]["params"]["seed_hex"] = json!("6c616");
    });
    assert_error(
        &errors,
        "cases.json",
        Some("01-empty/lab-16-3"),
        "bad hex \"6c616\"",
    );
}

/// An integer too large for 64 bits is named as the file writes it, not as the float
/// serde_json read it as: in a case (the case is named) and in a file's header.
#[test]
fn huge_integers_are_named_as_written() {
    let huge = "99999999999999999999";
    let (_dir, errors) = broken_written(
        "cases.json",
        |v| cases(v)[0]["expect"]["bits_set"] = json!(format!("@{huge}@")),
        huge,
    );
    assert_error(
        &errors,
        "cases.json",
        Some("01-empty/lab-16-3"),
        "integer out of range: \"99999999999999999999\" does not fit in 64 bits",
    );
    assert!(
        !errors.iter().any(|e| e.message.contains("floating point")),
        "{errors:#?}"
    );
    let huge = "18446744073709551616";
    let (_dir, errors) = broken_written(
        "checks.json",
        |v| v["check_count"] = json!(format!("@{huge}@")),
        huge,
    );
    assert_error(
        &errors,
        "checks.json",
        None,
        "integer out of range: \"18446744073709551616\" does not fit in 64 bits",
    );
}

/// A case's input is held to the bounds of spec/README.md ("Bounds") wherever a bounded
/// name stands, in objects and in arrays, and each refusal names the path and the value
/// as the file writes it (a string's length in characters: one of them is two bytes);
/// a number that is not whole is left to the typed reading.
#[test]
fn case_inputs_are_held_to_their_bounds() {
    let id = Some("01-empty/lab-16-3");
    let huge = "99999999999999999999";
    let cases_with = |key: &str, value: Value| {
        let key = key.to_string();
        broken_written(
            "cases.json",
            move |v| cases(v)[0]["input"][&key] = value.clone(),
            huge,
        )
        .1
    };
    let number = |text: &str| -> Value { serde_json::from_str(text).unwrap() };
    for (key, value, needle) in [
        (
            "extra",
            json!({"m": 65_537}),
            "`input.extra.m` is 65537, beyond the bound of 65536 a case may give",
        ),
        (
            "extra",
            json!([{"n": 1}, {"count": 65_537}]),
            "`input.extra[1].count` is 65537, beyond the bound of 65536",
        ),
        (
            "extra",
            json!([[{"k": 257}]]),
            "`input.extra[0][0].k` is 257, beyond the bound of 256",
        ),
        (
            "extra",
            json!({"units": (16 << 20) + 1}),
            "`input.extra.units` is 16777217, beyond the bound of 16777216",
        ),
        (
            "extra",
            json!([{"bytes": format!("@{huge}@")}]),
            "`input.extra[0].bytes` is 99999999999999999999, beyond the bound of 16777216",
        ),
        (
            "extra",
            json!(vec![0; 65_537]),
            "`input.extra` has 65537 items, beyond the bound of 65536",
        ),
        (
            "extra",
            json!(format!("é{}", "a".repeat(4 << 20))),
            "`input.extra` is a string of 4194305 characters, beyond the bound of 4194304 characters",
        ),
    ] {
        assert_error(&cases_with(key, value), "cases.json", id, needle);
    }
    // At the bound, each loads as far as the bounds go (the unknown key is refused).
    for value in [
        json!([{"m": 65_536, "k": 256, "bytes": 16 << 20}]),
        json!(vec![0; 65_536]),
        json!(format!("é{}", "a".repeat((4 << 20) - 1))),
    ] {
        let errors = cases_with("extra", value);
        assert!(
            !errors
                .iter()
                .any(|e| e.message.contains("beyond the bound")),
            "{errors:#?}"
        );
    }
    // Not whole, or negative: the typed reading names the type.
    for (text, needle) in [("1.5", "floating point `1.5`"), ("-1", "integer `-1`")] {
        let (_dir, errors) = broken("cases.json", |v| {
            cases(v)[0]["input"]["params"]["m"] = number(text);
        });
        assert_error(&errors, "cases.json", id, needle);
    }
}

#[test]
fn declared_case_count_mismatch() {
    let (_dir, errors) = broken("cases.json", |v| {
        v["case_count"] = json!(1);
    });
    assert_error(
        &errors,
        "cases.json",
        None,
        "`case_count` says 1 but the file has",
    );
}

#[test]
fn declared_check_count_mismatch() {
    let (_dir, errors) = broken("checks.json", |v| {
        v["check_count"] = json!(99);
    });
    assert_error(&errors, "checks.json", None, "`check_count` says 99");
}

#[test]
fn undeclared_flag() {
    let (_dir, errors) = broken("cases.json", |v| {
        cases(v)[0]["flags"] = json!(["made-up"]);
    });
    assert_error(
        &errors,
        "cases.json",
        Some("01-empty/lab-16-3"),
        "flag \"made-up\" is not declared",
    );
}

#[test]
fn check_without_a_known_class() {
    let (_dir, errors) = broken("checks.json", |v| {
        v["checks"][0].as_object_mut().unwrap().remove("class");
    });
    assert_error(&errors, "checks.json", None, "missing field `class`");
    let (_dir, errors) = broken("checks.json", |v| {
        v["checks"][0]["class"] = json!("required")
    });
    assert_error(&errors, "checks.json", None, "unknown variant `required`");
    // `adapter` is the adapter protocol's own class, never a protocol check's.
    let (_dir, errors) = broken("checks.json", |v| {
        v["checks"][0]["class"] = json!("adapter")
    });
    assert_error(&errors, "checks.json", None, "has class `adapter`");
}

#[test]
fn check_listed_twice_or_without_case() {
    let (_dir, errors) = broken("checks.json", |v| {
        let checks = v["checks"].as_array_mut().unwrap();
        let first = checks[0].clone();
        checks.push(first);
        checks.push(json!({"name": "invented", "asserts": "x", "source": "y", "class": "core"}));
        let n = checks.len();
        v["check_count"] = json!(n);
    });
    assert_error(&errors, "checks.json", None, "listed twice");
    assert_error(&errors, "cases.json", None, "`invented` has no case");
}

#[test]
fn a_check_with_a_hook_must_be_documented() {
    let (_dir, errors) = broken("checks.json", |v| {
        v["checks"][0]["name"] = json!("empty_snapshot_renamed");
    });
    assert_error(
        &errors,
        "checks.json",
        None,
        "has a hook for `empty_snapshot_definitely_absent` but it is not documented",
    );
}

#[test]
fn expect_not_of_the_case_shape() {
    let (_dir, errors) = broken("cases.json", |v| {
        // A `build` case read as a `lookup` case: its expect has no `every_record`.
        cases(v)[0]["shape"] = json!("lookup");
    });
    assert_error(
        &errors,
        "cases.json",
        Some("01-empty/lab-16-3"),
        "unknown field `bits_set`, expected `every_record`",
    );
}

#[test]
fn unknown_or_missing_shape() {
    let (_dir, errors) = broken("cases.json", |v| {
        cases(v)[0]["shape"] = json!("snapshot");
        cases(v)[1].as_object_mut().unwrap().remove("shape");
    });
    assert_error(
        &errors,
        "cases.json",
        Some("01-empty/lab-16-3"),
        "unknown variant `snapshot`",
    );
    assert_error(
        &errors,
        "cases.json",
        Some("01-empty/m8-k1-no-seed"),
        "missing field `shape`",
    );
}

#[test]
fn wrong_protocol_and_version() {
    let (_dir, errors) = broken("cases.json", |v| {
        v["protocol"] = json!("fnv1a-utf16-v1");
        v["format_version"] = json!(2);
    });
    assert_error(
        &errors,
        "cases.json",
        None,
        "but the file is in the folder of",
    );
    assert_error(&errors, "cases.json", None, "`format_version` is 2");
}

#[test]
fn invalid_json_names_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join(PROTOCOL);
    std::fs::create_dir_all(&target).unwrap();
    std::fs::copy(
        real_spec().join(PROTOCOL).join("checks.json"),
        target.join("checks.json"),
    )
    .unwrap();
    std::fs::write(target.join("cases.json"), "{\n  \"protocol\": ,\n}").unwrap();
    let errors = load(dir.path()).unwrap_err();
    assert_error(&errors, "cases.json", None, "line 2 column");
}

#[test]
fn empty_spec_folder_is_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let errors = load(dir.path()).unwrap_err();
    assert!(
        errors[0].message.contains("an empty spec is a failure"),
        "{errors:?}"
    );
}

#[test]
fn missing_spec_folder_is_a_failure() {
    let errors = load(Path::new("/nonexistent/bloomproof/spec")).unwrap_err();
    assert!(
        errors[0].message.contains("cannot read the spec folder"),
        "{errors:?}"
    );
}

#[test]
fn unknown_protocol_folder() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("sha1-v0");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(target.join("checks.json"), "{}").unwrap();
    let errors = load(dir.path()).unwrap_err();
    assert!(
        errors[0].message.contains("unknown protocol folder"),
        "{errors:?}"
    );
}

/// A temporary copy of the spec's `doc-membership-v1` files and its adapter-protocol
/// file, with `edit` applied to the adapter-protocol file; the load errors.
fn broken_wire(edit: impl FnOnce(&mut Value)) -> Vec<LoadError> {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join(PROTOCOL);
    std::fs::create_dir_all(&target).unwrap();
    for name in ["checks.json", "cases.json"] {
        std::fs::copy(real_spec().join(PROTOCOL).join(name), target.join(name)).unwrap();
    }
    let text = std::fs::read_to_string(real_spec().join("adapter-protocol.json")).unwrap();
    let mut value: Value = serde_json::from_str(&text).unwrap();
    edit(&mut value);
    std::fs::write(dir.path().join("adapter-protocol.json"), value.to_string()).unwrap();
    load(dir.path()).expect_err("the broken spec must not load")
}

/// The adapter-protocol file is held to the rules of a protocol's files: every case's
/// check is documented in it, every documented check has a case, ids are unique and
/// the declared counts are the counts.
#[test]
fn adapter_protocol_file_checks_and_cases_match() {
    let file = "adapter-protocol.json";
    let errors = broken_wire(|v| {
        let first = v["cases"][0]["id"].clone();
        v["cases"][1]["check"] = json!("no_such_check");
        v["cases"][2]["id"] = first;
    });
    let second = {
        let text = std::fs::read_to_string(real_spec().join(file)).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        value["cases"][1]["id"].as_str().unwrap().to_string()
    };
    assert_error(
        &errors,
        file,
        Some(&second),
        "check `no_such_check` is not documented in the file",
    );
    let first = errors
        .iter()
        .find(|e| e.message == "the case id is used twice")
        .and_then(|e| e.case.clone());
    assert!(first.is_some(), "{errors:#?}");
    let errors = broken_wire(|v| {
        let mut extra = v["checks"][0].clone();
        extra["name"] = json!("documented_only");
        v["checks"].as_array_mut().unwrap().push(extra);
    });
    assert_error(
        &errors,
        file,
        None,
        "documented check `documented_only` has no case",
    );
    assert_error(&errors, file, None, "`check_count` says");
}

/// An adapter-protocol check is never core: the sources say nothing of the wire (class
/// `adapter`, or `interop` where it judges bloomproof's decisions, such as field names).
#[test]
fn adapter_protocol_checks_have_the_adapter_class() {
    let errors = broken_wire(|v| v["checks"][0]["class"] = json!("core"));
    assert_error(
        &errors,
        "adapter-protocol.json",
        None,
        "an adapter-protocol check has class `adapter`",
    );
}

/// A row of the table of bounds that no edge generator drives does not load: every
/// bound is judged at its edges on every run.
#[test]
fn a_bound_without_an_edge_generator_does_not_load() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join(PROTOCOL);
    std::fs::create_dir_all(&target).unwrap();
    for name in ["checks.json", "cases.json"] {
        std::fs::copy(real_spec().join(PROTOCOL).join(name), target.join(name)).unwrap();
    }
    let text = std::fs::read_to_string(real_spec().join("bounds.json")).unwrap();
    let mut table: Value = serde_json::from_str(&text).unwrap();
    let rows = table["bounds"].as_array_mut().unwrap();
    let mut row = rows[0].clone();
    row["id"] = json!("doc.new-limit");
    rows.push(row);
    std::fs::write(dir.path().join("bounds.json"), table.to_string()).unwrap();
    let errors = load(dir.path()).expect_err("a bound without a driver must not load");
    assert_error(
        &errors,
        "bounds.json",
        None,
        "bound doc.new-limit has no edge generator",
    );
    // The table as it is loads.
    std::fs::copy(
        real_spec().join("bounds.json"),
        dir.path().join("bounds.json"),
    )
    .unwrap();
    load(dir.path()).unwrap();
}
