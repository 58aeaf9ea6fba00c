//! The oracle must share no code with production: no crate of this
//! workspace may be among its dependencies, of any kind, directly or
//! transitively.

mod common;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::Value;

const ORACLE: &str = "bloomproof-oracle";

/// The string items of the JSON array at `value[key]` (empty if absent).
fn strings<'a>(value: &'a Value, key: &str) -> Vec<&'a str> {
    value[key]
        .as_array()
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Checks `cargo metadata --format-version 1` output. Returns one message per
/// violation: a declared dependency (any kind, optional or not) on a
/// workspace member, or a workspace member reachable from the oracle through
/// the `resolve` graph (any dependency kind).
fn violations(metadata: &Value) -> Result<Vec<String>, String> {
    let members: BTreeSet<&str> = strings(metadata, "workspace_members").into_iter().collect();
    let packages = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata has no `packages` array")?;
    let name_of: BTreeMap<&str, &str> = packages
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    let member_names: BTreeSet<&str> = members
        .iter()
        .filter_map(|id| name_of.get(id).copied())
        .collect();

    let oracle = packages
        .iter()
        .find(|p| p["name"] == ORACLE && members.contains(p["id"].as_str().unwrap_or("")))
        .ok_or(format!("package {ORACLE} is not a workspace member"))?;
    let oracle_id = oracle["id"].as_str().ok_or("oracle package has no id")?;

    let mut found = Vec::new();

    // 1. Declared dependencies, as written in Cargo.toml (all kinds, also
    //    optional and target-specific ones that the resolve may not show).
    for dep in oracle["dependencies"].as_array().into_iter().flatten() {
        let name = dep["name"].as_str().unwrap_or("?");
        let kind = dep["kind"].as_str().unwrap_or("normal");
        if member_names.contains(name) {
            found.push(format!(
                "{ORACLE} declares a {kind} dependency on workspace crate `{name}`"
            ));
        } else if let Some(path) = dep["path"].as_str() {
            // Not a member by name, but local source all the same.
            found.push(format!(
                "{ORACLE} declares a {kind} path dependency on `{name}` ({path})"
            ));
        } else if kind != "dev" {
            // The oracle's own code uses no crate at all; only tests may.
            found.push(format!(
                "{ORACLE} declares a {kind} dependency on `{name}`: only dev-dependencies are allowed"
            ));
        }
        if name == "sha2" {
            found.push(format!(
                "{ORACLE} declares a {kind} dependency on `sha2`: it must use its own SHA-256"
            ));
        }
    }

    // 2. The resolved graph, breadth first from the oracle, following every
    //    dependency edge whatever its kind, remembering how each node was
    //    reached so the message can show the path.
    let nodes = metadata["resolve"]["nodes"]
        .as_array()
        .ok_or("cargo metadata has no `resolve.nodes` (was --no-deps used?)")?;
    let edges: BTreeMap<&str, Vec<&str>> = nodes
        .iter()
        .filter_map(|node| {
            let id = node["id"].as_str()?;
            let deps = node["deps"]
                .as_array()
                .map(|deps| deps.iter().filter_map(|d| d["pkg"].as_str()).collect())
                .unwrap_or_default();
            Some((id, deps))
        })
        .collect();
    if !edges.contains_key(oracle_id) {
        return Err(format!("{ORACLE} is missing from the resolve graph"));
    }
    let mut reached_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([oracle_id]);
    while let Some(id) = queue.pop_front() {
        for &next in edges.get(id).into_iter().flatten() {
            if next == oracle_id || reached_from.contains_key(next) {
                continue;
            }
            reached_from.insert(next, id);
            queue.push_back(next);
        }
    }
    for (&id, _) in reached_from.iter() {
        if name_of.get(id) == Some(&"sha2") {
            found.push(format!(
                "{ORACLE} reaches `sha2` ({id}) in its dependency graph"
            ));
        }
    }
    for (&id, _) in reached_from.iter().filter(|(id, _)| members.contains(*id)) {
        let mut path = vec![name_of.get(id).copied().unwrap_or(id)];
        let mut at = id;
        while let Some(&parent) = reached_from.get(at) {
            path.push(name_of.get(parent).copied().unwrap_or(parent));
            at = parent;
        }
        path.push(ORACLE);
        path.reverse();
        path.dedup();
        found.push(format!(
            "{ORACLE} depends on workspace crate `{}` via {}",
            path.last().copied().unwrap_or("?"),
            path.join(" -> ")
        ));
    }
    Ok(found)
}

#[test]
fn oracle_depends_on_no_workspace_crate() {
    let metadata = common::cargo_metadata(true);

    let found = violations(&metadata).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        found.is_empty(),
        "the oracle must share no code with production, but:\n  {}",
        found.join("\n  ")
    );
}

/// A small synthetic `cargo metadata` document: the oracle depends (as a
/// dev-dependency) on an external crate that itself depends on a workspace
/// crate.
fn synthetic(oracle_deps: Value, helper_deps: Value) -> Value {
    serde_json::json!({
        "workspace_members": ["oracle 0.1.0", "protocol 0.1.0"],
        "packages": [
            {"id": "oracle 0.1.0", "name": "bloomproof-oracle", "dependencies": oracle_deps},
            {"id": "protocol 0.1.0", "name": "bloomproof-protocol", "dependencies": []},
            {"id": "helper 1.0.0", "name": "helper", "dependencies": []}
        ],
        "resolve": {"nodes": [
            {"id": "oracle 0.1.0", "deps": [
                {"name": "helper", "pkg": "helper 1.0.0", "dep_kinds": [{"kind": "dev"}]}
            ]},
            {"id": "helper 1.0.0", "deps": helper_deps},
            {"id": "protocol 0.1.0", "deps": []}
        ]}
    })
}

#[test]
fn checker_catches_transitive_and_declared_dependencies() {
    // Clean: the helper depends on nothing.
    let clean = synthetic(serde_json::json!([]), serde_json::json!([]));
    assert_eq!(violations(&clean), Ok(vec![]));

    // Transitive: oracle -> helper -> bloomproof-protocol.
    let transitive = synthetic(
        serde_json::json!([]),
        serde_json::json!([{"name": "bloomproof_protocol", "pkg": "protocol 0.1.0",
                            "dep_kinds": [{"kind": null}]}]),
    );
    let found = violations(&transitive).unwrap();
    assert_eq!(
        found,
        vec![
            "bloomproof-oracle depends on workspace crate `bloomproof-protocol` via \
             bloomproof-oracle -> helper -> bloomproof-protocol"
                .to_string()
        ]
    );

    // Declared (e.g. an optional build dependency the resolve does not show).
    let declared = synthetic(
        serde_json::json!([{"name": "bloomproof-protocol", "kind": "build", "optional": true}]),
        serde_json::json!([]),
    );
    let found = violations(&declared).unwrap();
    assert_eq!(found.len(), 1);
    assert!(found[0].contains("`bloomproof-protocol`"), "{found:?}");

    // Any normal dependency, even an external one, is refused.
    let external = synthetic(
        serde_json::json!([{"name": "sha2", "kind": null}]),
        serde_json::json!([]),
    );
    let found = violations(&external).unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().all(|f| f.contains("`sha2`")), "{found:?}");
}
