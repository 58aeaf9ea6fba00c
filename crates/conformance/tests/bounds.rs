//! The table of bounds (`spec/bounds.json`): every bound's value is written in the text
//! of the rule it names, the rule has the bound's class and document, and every check
//! said to judge it exists, one of them of the bound's class.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;
use std::path::{Path, PathBuf};

fn spec() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(spec().join(name)).unwrap_or_else(|err| panic!("{name}: {err}"))
}

fn json(name: &str) -> Value {
    serde_json::from_str(&read(name)).unwrap()
}

/// The text of rule `id` in `document`: from its mark `**[id]**` to the next mark, the
/// end of its paragraph or the end of its table row.
fn rule_text(document: &str, id: &str) -> Option<String> {
    let mark = format!("**[{id}]**");
    let start = document.find(&mark)? + mark.len();
    let rest = &document[start..];
    let end = ["**[", "\n\n", "|\n"]
        .iter()
        .filter_map(|stop| rest.find(stop))
        .min()
        .unwrap_or(rest.len());
    Some(rest[..end].split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The whole numbers written in `text`.
fn numbers(text: &str) -> Vec<u64> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// The checks of every protocol and of the adapter protocol: `protocol/name` -> class.
fn checks() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for protocol in ["doc-membership-v1", "fnv1a-utf16-v1"] {
        for check in json(&format!("{protocol}/checks.json"))["checks"]
            .as_array()
            .unwrap()
        {
            out.push((
                format!("{protocol}/{}", check["name"].as_str().unwrap()),
                check["class"].as_str().unwrap().to_string(),
            ));
        }
    }
    for check in json("adapter-protocol.json")["checks"].as_array().unwrap() {
        out.push((
            format!("adapter-protocol/{}", check["name"].as_str().unwrap()),
            check["class"].as_str().unwrap().to_string(),
        ));
    }
    out
}

#[test]
fn every_bound_is_written_in_its_rule_and_judged_by_a_check_of_its_class() {
    let table = json("bounds.json");
    let bounds = table["bounds"].as_array().unwrap();
    assert_eq!(table["bound_count"].as_u64(), Some(bounds.len() as u64));
    assert!(bounds.len() >= 20, "{}", bounds.len());
    let rules = json("rules.json");
    let rules = rules["rules"].as_array().unwrap();
    let checks = checks();
    let mut ids = Vec::new();
    for bound in bounds {
        let id = bound["id"].as_str().unwrap();
        assert!(!ids.contains(&id), "{id} twice");
        ids.push(id);
        let rule = bound["rule"].as_str().unwrap();
        let class = bound["class"].as_str().unwrap();
        let document = bound["document"].as_str().unwrap();
        let entry = rules
            .iter()
            .find(|r| r["id"] == rule)
            .unwrap_or_else(|| panic!("{id}: rule {rule} is not in rules.json"));
        assert_eq!(entry["class"], class, "{id}: the class of {rule}");
        assert_eq!(entry["document"], document, "{id}: the document of {rule}");
        let text = rule_text(&read(document), rule)
            .unwrap_or_else(|| panic!("{id}: no mark of {rule} in {document}"));
        let spelled = bound["spelled"].as_str().unwrap();
        assert!(
            text.contains(spelled),
            "{id}: {rule}'s text does not write {spelled:?}: {text}"
        );
        // The value, as the rule writes it: every number of the spelling is a value of
        // the bound (its max, or its min), and the max is one of them.
        let max = bound["max"].as_u64().unwrap();
        let min = bound["min"].as_u64();
        let written = numbers(spelled);
        assert!(
            written.contains(&max),
            "{id}: {spelled:?} does not write {max}"
        );
        for n in &written {
            assert!(
                *n == max || Some(*n) == min,
                "{id}: {spelled:?} writes {n}, neither min {min:?} nor max {max}"
            );
        }
        if let Some(min) = min {
            assert!(
                written.contains(&min),
                "{id}: {spelled:?} does not write {min}"
            );
        }
        let judged: Vec<&str> = bound["judged_by"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert!(!judged.is_empty(), "{id}: judged by no check");
        for check in &judged {
            assert!(
                checks.iter().any(|(name, _)| name == check),
                "{id}: no check {check}"
            );
        }
        // A bound of a core rule may also be judged by interop checks (the field an
        // error names); at least one check judges it at its own class, except where
        // the table says which other class judges it for now.
        let own = judged
            .iter()
            .any(|check| checks.iter().any(|(name, c)| name == check && c == class));
        let apart = bound.get("judged_apart").and_then(Value::as_str);
        assert!(
            own || apart.is_some(),
            "{id}: no check of class {class} among {judged:?}"
        );
    }
}

#[test]
fn the_rule_text_of_a_mark_ends_at_the_next_mark_or_paragraph() {
    let doc = "a **[X-1]** *(core)* m is 8..=512.\n* **[X-2]** k\n\n| **[X-3]** | 64 |\n| b |";
    assert_eq!(rule_text(doc, "X-1").unwrap(), "*(core)* m is 8..=512. *");
    assert_eq!(rule_text(doc, "X-2").unwrap(), "k");
    assert_eq!(rule_text(doc, "X-3").unwrap(), "| 64");
    assert_eq!(rule_text(doc, "X-4"), None);
    assert_eq!(numbers("8..=512, 2 MiB"), [8, 512, 2]);
}
