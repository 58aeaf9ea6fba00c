//! The layer table, pinned: every workspace crate, its layer, and exactly the workspace
//! crates it depends on (normal and build dependencies, then dev-dependencies), as
//! ARCHITECTURE.md lists them. A crate may depend only on crates of a lower layer; an
//! edge the table does not list, an edge the table lists that the manifests lack, a
//! crate missing from the table and an upward entry in the table are each an error.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// One row of the table: a crate (its package name without `bloomproof-`), its layer,
/// the crates it uses (normal and build dependencies) and those its tests add.
struct Row {
    name: &'static str,
    layer: u8,
    uses: &'static [&'static str],
    dev: &'static [&'static str],
}

const fn row(
    name: &'static str,
    layer: u8,
    uses: &'static [&'static str],
    dev: &'static [&'static str],
) -> Row {
    Row {
        name,
        layer,
        uses,
        dev,
    }
}

/// The table of ARCHITECTURE.md ("Layers"), lowest first.
const TABLE: &[Row] = &[
    // 0: what depends on nothing: the independent reference and the wire vocabulary.
    row("oracle", 0, &[], &[]),
    row("wire", 0, &[], &[]),
    // 1: the hashes.
    row("protocol", 1, &[], &["oracle"]),
    // 2: production models and readers on the hashes; the page's server.
    row("filter", 2, &["protocol"], &["oracle"]),
    row("session", 2, &["protocol", "wire"], &["oracle"]),
    row("vectors", 2, &["protocol", "wire"], &[]),
    row("explorer", 2, &["wire"], &[]),
    // 3: the subjects and the adapter protocol, both sides.
    row(
        "adapter",
        3,
        &["protocol", "filter", "session", "wire"],
        &[],
    ),
    row("filter-compile-fail", 3, &[], &["filter"]),
    // 4: the writer of the vector files.
    row(
        "vectors-writer",
        4,
        &["protocol", "filter", "wire", "oracle", "adapter", "vectors"],
        &[],
    ),
    // 5: the harness (its tests write a version's vector files through the writer).
    row(
        "conformance",
        5,
        &[
            "protocol", "session", "wire", "oracle", "adapter", "vectors",
        ],
        &["filter", "vectors-writer"],
    ),
    // 6: what runs the harness.
    row("matrix", 6, &["conformance", "wire"], &[]),
    row("bench", 6, &["protocol", "filter", "conformance"], &[]),
    row(
        "fuzzing",
        6,
        &["adapter", "conformance", "session", "vectors"],
        &[],
    ),
    // 7: the binary.
    row(
        "cli",
        7,
        &[
            "adapter",
            "conformance",
            "wire",
            "matrix",
            "protocol",
            "explorer",
        ],
        &["oracle"],
    ),
    // 8: the tools nothing depends on.
    row(
        "xtask",
        8,
        &["conformance", "wire", "matrix", "vectors-writer"],
        &[],
    ),
    row("layering", 8, &[], &[]),
];

/// The table's name of a package: `bloomproof` is `cli`, `bloomproof-x` is `x`.
fn short(package: &str) -> &str {
    match package {
        "bloomproof" => "cli",
        other => other.strip_prefix("bloomproof-").unwrap_or(other),
    }
}

/// The table's own errors: a row twice, an entry naming no row, an entry not below its
/// row's layer (an upward or sideways edge).
fn table_errors(table: &[Row]) -> Vec<String> {
    let mut found = Vec::new();
    let mut layer_of = BTreeMap::new();
    for row in table {
        if layer_of.insert(row.name, row.layer).is_some() {
            found.push(format!("the table lists `{}` twice", row.name));
        }
    }
    for row in table {
        for &dep in row.uses.iter().chain(row.dev) {
            match layer_of.get(dep) {
                None => found.push(format!("`{}` lists `{dep}`, which has no row", row.name)),
                Some(&layer) if layer >= row.layer => found.push(format!(
                    "`{}` (layer {}) lists `{dep}` (layer {layer}): not below it",
                    row.name, row.layer
                )),
                Some(_) => {}
            }
        }
    }
    found
}

/// The workspace crates each member declares, by kind (`uses`: normal and build; `dev`),
/// from `cargo metadata`: every declared dependency, optional and target-specific ones
/// included.
type Declared = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

fn declared(metadata: &Value) -> Result<Declared, String> {
    let members: BTreeSet<&str> = metadata["workspace_members"]
        .as_array()
        .ok_or("cargo metadata has no `workspace_members`")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let packages: Vec<&Value> = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata has no `packages`")?
        .iter()
        .filter(|p| p["id"].as_str().is_some_and(|id| members.contains(id)))
        .collect();
    let names: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut out = Declared::new();
    for package in packages {
        let name = short(package["name"].as_str().ok_or("a package without a name")?);
        let entry = out.entry(name.to_string()).or_default();
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let Some(dep_name) = dep["name"].as_str() else {
                continue;
            };
            if !names.contains(dep_name) {
                continue;
            }
            let set = if dep["kind"].as_str() == Some("dev") {
                &mut entry.1
            } else {
                &mut entry.0
            };
            set.insert(short(dep_name).to_string());
        }
    }
    Ok(out)
}

/// Every difference between the manifests and the table.
fn violations(metadata: &Value, table: &[Row]) -> Result<Vec<String>, String> {
    let mut found = table_errors(table);
    let actual = declared(metadata)?;
    let rows: BTreeMap<&str, &Row> = table.iter().map(|row| (row.name, row)).collect();
    for (name, (uses, dev)) in &actual {
        let Some(row) = rows.get(name.as_str()) else {
            found.push(format!(
                "`{name}` is a workspace crate without a row in the table"
            ));
            continue;
        };
        for (kind, actual, listed) in [("", uses, row.uses), ("dev-", dev, row.dev)] {
            let listed: BTreeSet<String> = listed.iter().map(|s| s.to_string()).collect();
            for extra in actual.difference(&listed) {
                let layer = rows.get(extra.as_str()).map_or(u8::MAX, |r| r.layer);
                let how = if layer >= row.layer {
                    " (an upward edge)"
                } else {
                    ""
                };
                found.push(format!(
                    "`{name}` (layer {}) has a {kind}dependency on `{extra}` (layer {layer}) \
                     that the table does not list{how}",
                    row.layer
                ));
            }
            for missing in listed.difference(actual) {
                found.push(format!(
                    "the table lists a {kind}dependency of `{name}` on `{missing}` that its \
                     Cargo.toml does not declare"
                ));
            }
        }
    }
    for row in table {
        if !actual.contains_key(row.name) {
            found.push(format!("the table's `{}` is no workspace crate", row.name));
        }
    }
    Ok(found)
}

#[test]
fn every_crate_depends_exactly_as_the_layer_table_says() {
    let metadata = common::cargo_metadata(false);
    let found = violations(&metadata, TABLE).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        found.is_empty(),
        "the manifests and the layer table (this file, ARCHITECTURE.md \"Layers\") differ:\n  {}",
        found.join("\n  ")
    );
}

/// A synthetic workspace of three crates: `bloomproof-protocol`, `bloomproof-filter` on
/// it, and whatever `extra` adds to the filter's dependencies.
fn synthetic(extra: Value) -> Value {
    let mut filter_deps = vec![serde_json::json!({"name": "bloomproof-protocol", "kind": null})];
    filter_deps.extend(extra.as_array().cloned().unwrap_or_default());
    serde_json::json!({
        "workspace_members": ["p", "f", "s"],
        "packages": [
            {"id": "p", "name": "bloomproof-protocol", "dependencies": [
                {"name": "sha2", "kind": null}
            ]},
            {"id": "f", "name": "bloomproof-filter", "dependencies": filter_deps},
            {"id": "s", "name": "bloomproof-session", "dependencies": []}
        ]
    })
}

const SMALL: &[Row] = &[
    row("protocol", 1, &[], &[]),
    row("filter", 2, &["protocol"], &[]),
    row("session", 2, &[], &[]),
];

#[test]
fn the_checker_catches_every_kind_of_difference() {
    // Clean: external dependencies are no concern of the table.
    assert_eq!(
        violations(&synthetic(serde_json::json!([])), SMALL),
        Ok(vec![])
    );

    // A sideways edge (same layer), declared as optional.
    let sideways = synthetic(serde_json::json!([
        {"name": "bloomproof-session", "kind": null, "optional": true}
    ]));
    let found = violations(&sideways, SMALL).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("`filter` (layer 2) has a dependency on `session` (layer 2)"));
    assert!(found[0].contains("upward"), "{found:?}");

    // A dev-dependency the table does not list.
    let dev = synthetic(serde_json::json!([{"name": "bloomproof-session", "kind": "dev"}]));
    let found = violations(&dev, SMALL).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("dev-dependency on `session`"),
        "{found:?}"
    );

    // A listed edge the manifests lack.
    let lacking: &[Row] = &[
        row("protocol", 1, &[], &[]),
        row("filter", 2, &["protocol"], &[]),
        row("session", 2, &["protocol"], &[]),
    ];
    let found = violations(&synthetic(serde_json::json!([])), lacking).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("does not declare"), "{found:?}");

    // An upward entry in the table itself, a crate without a row, a row without a crate.
    let upward: &[Row] = &[
        row("protocol", 1, &["filter"], &[]),
        row("filter", 2, &["protocol"], &[]),
        row("oracle", 0, &[], &[]),
    ];
    let found = violations(&synthetic(serde_json::json!([])), upward).unwrap();
    assert!(
        found
            .iter()
            .any(|f| f.contains("`protocol` (layer 1) lists `filter` (layer 2)")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|f| f.contains("`session` is a workspace crate without"))
    );
    assert!(
        found
            .iter()
            .any(|f| f.contains("`oracle` is no workspace crate"))
    );
}
