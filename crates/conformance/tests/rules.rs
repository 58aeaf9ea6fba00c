//! Rule ids (`spec/rules.json`): every rule of the protocol documents is pinned by a
//! case or listed as a known gap, every id a check or case names is a rule, and the
//! documents state every rule the file lists.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_conformance::{LoadError, load};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn real_spec() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")
}

const FILES: [&str; 6] = [
    "doc-membership-v1/checks.json",
    "doc-membership-v1/cases.json",
    "fnv1a-utf16-v1/checks.json",
    "fnv1a-utf16-v1/cases.json",
    "adapter-protocol.json",
    "rules.json",
];

/// A copy of the spec's files with `edit` applied to `file`; the load errors.
fn load_with(file: &str, edit: impl FnOnce(&mut Value)) -> Vec<LoadError> {
    let dir = tempfile::tempdir().unwrap();
    let mut edit = Some(edit);
    for name in FILES {
        let mut value: Value =
            serde_json::from_str(&std::fs::read_to_string(real_spec().join(name)).unwrap())
                .unwrap();
        if name == file {
            (edit.take().unwrap())(&mut value);
        }
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, value.to_string()).unwrap();
    }
    match load(dir.path()) {
        Ok(_) => Vec::new(),
        Err(errors) => errors,
    }
}

fn messages(errors: &[LoadError]) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

#[test]
fn the_real_spec_pins_every_rule() {
    assert_eq!(
        messages(&load_with("rules.json", |_| {})),
        Vec::<String>::new()
    );
    let spec = load(&real_spec()).unwrap();
    let pinned = spec.rule_cases();
    assert!(pinned.len() >= 70, "{}", pinned.len());
    let gaps = spec.rules.as_ref().unwrap().known_gaps.clone();
    assert!(gaps.len() <= 2, "{gaps:?}");
    for (id, cases) in &pinned {
        let gap = gaps.iter().any(|g| &g.rule == id);
        assert_eq!(cases.is_empty(), gap, "{id}: {cases:?}");
    }
    let frame = pinned
        .iter()
        .find(|(id, _)| id == "DOC-HASH-MESSAGE")
        .unwrap();
    assert!(
        frame
            .1
            .iter()
            .any(|c| c.starts_with("doc-membership-v1/08-")),
        "{frame:?}"
    );
}

#[test]
fn a_rule_without_a_case_is_a_load_error_unless_a_known_gap() {
    let new_rule = json!({"id": "DOC-UNPINNED", "document": "doc-membership-v1/PROTOCOL.md",
                          "class": "interop", "decision": "a test's rule"});
    let errors = load_with("rules.json", |v| {
        v["rules"].as_array_mut().unwrap().push(new_rule.clone());
        v["rule_count"] = json!(v["rules"].as_array().unwrap().len());
    });
    assert!(
        messages(&errors)
            .iter()
            .any(|m| m.contains("rule `DOC-UNPINNED` has no case")),
        "{errors:?}"
    );
    let errors = load_with("rules.json", |v| {
        v["rules"].as_array_mut().unwrap().push(new_rule.clone());
        v["rule_count"] = json!(v["rules"].as_array().unwrap().len());
        v["known_gaps"]
            .as_array_mut()
            .unwrap()
            .push(json!({"rule": "DOC-UNPINNED", "reason": "no case can see it"}));
    });
    assert_eq!(messages(&errors), Vec::<String>::new());
    let errors = load_with("rules.json", |v| {
        v["known_gaps"]
            .as_array_mut()
            .unwrap()
            .push(json!({"rule": "DOC-HASH-MESSAGE", "reason": "stale"}));
    });
    assert!(
        messages(&errors)
            .iter()
            .any(|m| m.contains("known gap but cases pin it")),
        "{errors:?}"
    );
}

/// Every rule says where it comes from: a core rule the source passage it restates, any
/// other its reason; a rule without them, with both, or of no known class is a load
/// error naming the rule.
#[test]
fn every_rule_has_a_class_and_its_origin() {
    let edit_rule = |id: &'static str, edit: fn(&mut Value)| {
        load_with("rules.json", move |v| {
            let rule = v["rules"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .find(|r| r["id"] == id)
                .unwrap();
            edit(rule);
        })
    };
    assert_eq!(real_rule("DOC-IN-M")["class"], "core");
    assert_eq!(real_rule("SESSION-8.5")["class"], "interop");
    fn remove(rule: &mut Value, key: &str) {
        rule.as_object_mut().unwrap().remove(key);
    }
    /// A rule, an edit of it, and the load error the edit must give.
    type Refused = (&'static str, fn(&mut Value), &'static str);
    let edits: [Refused; 9] = [
        (
            "DOC-IN-M",
            |r| remove(r, "source"),
            "core rule `DOC-IN-M` names no source passage",
        ),
        (
            "DOC-IN-M",
            |r| r["source"]["says"] = json!(" "),
            "core rule `DOC-IN-M`: its source passage needs a `where` and what it `says`",
        ),
        (
            "DOC-IN-M",
            |r| r["decision"] = json!("a reason"),
            "core rule `DOC-IN-M` carries a `decision`",
        ),
        (
            "DOC-IN-M",
            |r| r["source"]["document"] = json!("seed 001"),
            "seed 001",
        ),
        (
            "SESSION-8.5",
            |r| remove(r, "decision"),
            "interop rule `SESSION-8.5` gives no `decision`",
        ),
        (
            "SESSION-8.5",
            |r| r["decision"] = json!(""),
            "interop rule `SESSION-8.5`: its `decision` is empty",
        ),
        (
            "SESSION-8.5",
            |r| r["source"] = json!({"document": "seed 002", "where": "paragraph 5", "says": "x"}),
            "interop rule `SESSION-8.5` names a source passage",
        ),
        (
            "ADAPTER-UTF8",
            |r| r["class"] = json!("profile"),
            "rule `ADAPTER-UTF8`: unknown class \"profile\"",
        ),
        (
            "ADAPTER-UTF8",
            |r| remove(r, "class"),
            "rule `ADAPTER-UTF8` has no `class`",
        ),
    ];
    for (id, edit, wanted) in edits {
        let errors = edit_rule(id, edit);
        assert!(
            messages(&errors).iter().any(|m| m.contains(wanted)),
            "{wanted:?} not in {errors:?}"
        );
    }
}

/// The rule `id` of the real `rules.json`.
fn real_rule(id: &str) -> Value {
    let rules: Value =
        serde_json::from_str(&std::fs::read_to_string(real_spec().join("rules.json")).unwrap())
            .unwrap();
    rules["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn a_check_or_case_naming_an_unknown_rule_is_a_load_error() {
    let errors = load_with("doc-membership-v1/checks.json", |v| {
        v["checks"][0]["rules"] = json!(["DOC-INVENTED"]);
    });
    assert!(
        messages(&errors)
            .iter()
            .any(|m| m.contains("names rule `DOC-INVENTED`")),
        "{errors:?}"
    );
    // A case adds a rule of its own: data only, and checked the same way.
    let errors = load_with("doc-membership-v1/cases.json", |v| {
        v["cases"][0]["rules"]
            .as_array_mut()
            .unwrap()
            .push(json!("DOC-EX-FIXTURE"));
    });
    assert_eq!(messages(&errors), Vec::<String>::new());
    let errors = load_with("doc-membership-v1/cases.json", |v| {
        v["cases"][0]["rules"]
            .as_array_mut()
            .unwrap()
            .push(json!("NOPE"));
    });
    assert!(
        messages(&errors).iter().any(|m| m.contains("`NOPE`")),
        "{errors:?}"
    );
}

/// Every case names the rules it pins itself (as a test262 case names its section):
/// its check's rules, then its own. A case that leaves one of its check's out, or
/// names none, is a load error; and every case of the real spec names its rules.
#[test]
fn every_case_names_its_rules_its_checks_among_them() {
    let errors = load_with("doc-membership-v1/cases.json", |v| {
        v["cases"][0]["rules"] = json!(["DOC-EX-EMPTY"]);
    });
    assert!(
        messages(&errors)
            .iter()
            .any(|m| m.contains("leaves out rule `DOC-LOOKUP` of its check")),
        "{errors:?}"
    );
    let errors = load_with("adapter-protocol.json", |v| {
        v["cases"][0]["rules"] = json!([]);
    });
    assert!(
        messages(&errors)
            .iter()
            .any(|m| m.contains("names no rule")),
        "{errors:?}"
    );
    for file in [
        "doc-membership-v1/cases.json",
        "fnv1a-utf16-v1/cases.json",
        "adapter-protocol.json",
    ] {
        let value: Value =
            serde_json::from_str(&std::fs::read_to_string(real_spec().join(file)).unwrap())
                .unwrap();
        for case in value["cases"].as_array().unwrap() {
            let rules = case["rules"].as_array();
            assert!(
                rules.is_some_and(|r| !r.is_empty()),
                "{file}: case {} names no rule",
                case["id"]
            );
        }
    }
}

/// Every row of ADAPTER.md's error table has a rule id, and a case pins each one
/// (the loader's rule check makes that a load error otherwise).
#[test]
fn every_row_of_the_error_table_is_a_pinned_rule() {
    let text = std::fs::read_to_string(real_spec().join("ADAPTER.md")).unwrap();
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("| rule | op | condition"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert!(table.len() >= 20, "{}", table.len());
    let spec = load(&real_spec()).unwrap();
    let pinned = spec.rule_cases();
    for row in table {
        let id = row
            .split("**[")
            .nth(1)
            .and_then(|t| t.split("]**").next())
            .unwrap_or_else(|| panic!("a row of the error table without a rule id: {row}"));
        let (_, cases) = pinned
            .iter()
            .find(|(rule, _)| rule == id)
            .unwrap_or_else(|| panic!("{id} is not in rules.json"));
        assert!(!cases.is_empty(), "{id}: no case sends this row");
    }
}

#[test]
fn the_documents_state_every_rule_and_no_other() {
    let rules: Value =
        serde_json::from_str(&std::fs::read_to_string(real_spec().join("rules.json")).unwrap())
            .unwrap();
    let listed: Vec<&Value> = rules["rules"].as_array().unwrap().iter().collect();
    for rule in &listed {
        let document = rule["document"].as_str().unwrap();
        let text = std::fs::read_to_string(real_spec().join(document)).unwrap();
        match rule["section"].as_str() {
            Some(section) => assert!(
                text.lines()
                    .any(|l| l.trim_start_matches('#').trim() == section),
                "{document} has no section {section:?}"
            ),
            // A tagged rule is marked with its class right after its tag.
            None => {
                let (id, class) = (rule["id"].as_str(), rule["class"].as_str());
                let (id, class) = (id.unwrap(), class.unwrap());
                assert!(
                    text.contains(&format!("**[{id}]** *({class})*")),
                    "{document} does not state {id} marked *({class})*"
                );
            }
        }
    }
    // Every document of the spec (those built into the binary, as on disk) but
    // `README.md`, which explains the format and quotes tags as examples.
    let documents: Vec<&str> = bloomproof_conformance::embedded::DOCUMENTS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| *name != "README.md")
        .collect();
    for needed in [
        "doc-membership-v1/PROTOCOL.md",
        "fnv1a-utf16-v1/PROTOCOL.md",
        "fnv1a-utf16-v1/SESSION.md",
        "ADAPTER.md",
    ] {
        assert!(documents.contains(&needed), "{needed}: {documents:?}");
    }
    for document in documents {
        let text = std::fs::read_to_string(real_spec().join(document)).unwrap();
        for tagged in text.split("**[").skip(1) {
            let id = tagged.split("]**").next().unwrap();
            assert!(
                listed
                    .iter()
                    .any(|r| r["id"] == id && r["document"] == document),
                "{document} tags [{id}], which rules.json does not list for it"
            );
        }
    }
}

/// ADAPTER.md's "Changes" names every adapter-protocol check whose rule the text of
/// version 1 did not state (an adapter upgraded by reading that list alone must not
/// fail one), so a check added later must be listed there or here with its reason.
#[test]
fn the_adapter_changes_name_every_check_version_1_did_not_state() {
    // Stated in the version-1 text: a line not UTF-8, a duplicate key, a line that is
    // not an object (all bad_request, id null), a blank line, the 1024-step script.
    const STATED_IN_VERSION_1: [&str; 5] = [
        "line_not_utf8_refused",
        "duplicate_key_refused",
        "line_not_an_object_refused",
        "blank_line_unanswered",
        "script_step_limit",
    ];
    let text = std::fs::read_to_string(real_spec().join("ADAPTER.md")).unwrap();
    let changes = text.split("\n## Changes\n").nth(1).unwrap();
    let wire: Value = serde_json::from_str(
        &std::fs::read_to_string(real_spec().join("adapter-protocol.json")).unwrap(),
    )
    .unwrap();
    for check in wire["checks"].as_array().unwrap() {
        let name = check["name"].as_str().unwrap();
        let (listed, stated) = (
            changes.contains(&format!("`{name}`")),
            STATED_IN_VERSION_1.contains(&name),
        );
        assert!(
            listed != stated,
            "{name}: ADAPTER.md's Changes {} it, and the version-1 text {} its rule",
            if listed { "names" } else { "does not name" },
            if stated { "stated" } else { "did not state" }
        );
    }
    for needed in ["`-0`", "2^32", "`units`", "well-formed text"] {
        assert!(changes.contains(needed), "Changes does not say {needed}");
    }
}

/// Every rule a check names has the check's class (spec/README.md, "Classes"): a core
/// check names only core rules, so that a faithful implementation of the sources is
/// judged on nothing else; an interop or hardening check names a rule of its class
/// (beside the core rules it builds on, which it may exercise too). Adapter rules say
/// how a check reaches the implementation, not what it judges: they may stand in any
/// check, and an adapter check names only them.
#[test]
fn every_check_names_rules_of_its_class() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let read = |file: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(root.join(file)).unwrap()).unwrap()
    };
    let rules = read("rules.json");
    let class_of = |id: &str| -> String {
        rules["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .and_then(|r| r["class"].as_str())
            .unwrap_or("unknown")
            .to_string()
    };
    let classed = |ids: &[Value]| -> Vec<(String, String)> {
        ids.iter()
            .map(|r| {
                let id = r.as_str().unwrap().to_string();
                let class = class_of(&id);
                (id, class)
            })
            .collect()
    };
    let mut wrong = Vec::new();
    for (file, cases) in [
        (
            "doc-membership-v1/checks.json",
            "doc-membership-v1/cases.json",
        ),
        ("fnv1a-utf16-v1/checks.json", "fnv1a-utf16-v1/cases.json"),
        ("adapter-protocol.json", "adapter-protocol.json"),
    ] {
        let cases = read(cases);
        for check in read(file)["checks"].as_array().unwrap() {
            let class = check["class"].as_str().unwrap();
            let named = classed(check["rules"].as_array().unwrap());
            // What its cases pin besides (an interop check may pin its decision per case).
            let pinned: Vec<(String, String)> = cases["cases"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["check"] == check["name"])
                .flat_map(|c| classed(c["rules"].as_array().unwrap()))
                .collect();
            let ok = match class {
                "core" => named.iter().all(|(_, c)| c == "core" || c == "adapter"),
                "adapter" => named.iter().all(|(_, c)| c == "adapter"),
                other => named.iter().chain(&pinned).any(|(_, c)| c == other),
            };
            if !ok {
                wrong.push(format!(
                    "{file}: {} ({class}) names {named:?}",
                    check["name"]
                ));
            }
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
}
