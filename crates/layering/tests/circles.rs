//! No circle of more than two files in any crate's import graph (ARCHITECTURE.md,
//! "Invariants"): within each crate, a file names another by a path that starts at
//! `crate::`, `super::` or `self::` (a `use`, or a path in code); the graph of those
//! names has no strongly connected part of three files or more. A module and its
//! parent may name each other (two files); anything longer is a layer that leans on
//! one above it.
//!
//! The reading is textual: comment lines and a trailing `#[cfg(test)] mod tests` are
//! left out (tests may reach anywhere), `crate::{a, b::c}` counts each name of the
//! group, and a path counts as naming the deepest file that its leading segments name.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module path inside a crate: `[]` is the crate root, `["protocols", "doc"]` ...
type Module = Vec<String>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a source file defines (`a/b.rs` and `a/b/mod.rs` are `a::b`).
fn module_of(src: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Module = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The source with comment lines and a trailing test module left out.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path of `code` that starts at `crate`, `super` or `self`, as its segments
/// (a group `crate::{a, b::c}` gives `crate::a` and `crate::b::c`).
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !is_ident(bytes[i - 1]);
        let rest: String = bytes[i..bytes.len().min(i + 7)].iter().collect();
        let head = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|h| rest.starts_with(h));
        let (Some(head), true) = (head, starts_word) else {
            i += 1;
            continue;
        };
        let mut segments = vec![head.trim_end_matches(':').to_owned()];
        let mut j = i + head.len();
        loop {
            let start = j;
            while j < bytes.len() && is_ident(bytes[j]) {
                j += 1;
            }
            if j > start {
                segments.push(bytes[start..j].iter().collect());
                if bytes[j..].starts_with(&[':', ':']) {
                    j += 2;
                    continue;
                }
                out.push(segments);
                break;
            }
            if j < bytes.len() && bytes[j] == '{' {
                let end = bytes[j..]
                    .iter()
                    .position(|&c| c == '}')
                    .map_or(bytes.len(), |p| j + p);
                let group: String = bytes[j + 1..end].iter().collect();
                for item in group.split(',') {
                    let mut path = segments.clone();
                    path.extend(
                        item.trim()
                            .split("::")
                            .map(|s| s.trim().trim_start_matches('{').to_owned())
                            .filter(|s| !s.is_empty() && s.chars().all(is_ident)),
                    );
                    out.push(path);
                }
                j = end;
            } else {
                out.push(segments);
            }
            break;
        }
        i = j.max(i + 1);
    }
    out
}

/// The file a path of `from` names: the deepest module its leading segments reach.
fn target(path: &[String], from: &Module, modules: &BTreeSet<Module>) -> Option<Module> {
    let mut resolved: Module = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        _ => from.clone(),
    };
    let mut rest = &path[1..];
    if path.first().map(String::as_str) == Some("super") {
        resolved.pop();
    }
    while rest.first().map(String::as_str) == Some("super") {
        resolved.pop();
        rest = &rest[1..];
    }
    let mut best = None;
    let mut walk = resolved.clone();
    if modules.contains(&walk) {
        best = Some(walk.clone());
    }
    for segment in rest {
        walk.push(segment.clone());
        if modules.contains(&walk) {
            best = Some(walk.clone());
        }
    }
    best.filter(|b| b != from)
}

/// The strongly connected parts of `graph` (Tarjan's algorithm).
fn strongly_connected(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'g> {
        graph: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'g Module, usize>,
        low: BTreeMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        on_stack: BTreeSet<&'g Module>,
        parts: Vec<Vec<Module>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut part = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                part.push(w.clone());
                if w == v {
                    break;
                }
            }
            s.parts.push(part);
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        parts: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.parts
}

/// The import graph of the crate whose sources are under `src`.
fn graph_of(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let from = module_of(src, file);
        let text = fs::read_to_string(file).unwrap();
        let named: BTreeSet<Module> = paths(&code(&text))
            .iter()
            .filter_map(|path| target(path, &from, &modules))
            .collect();
        graph.insert(from, named);
    }
    graph
}

fn circles_over_two(src: &Path) -> Vec<String> {
    strongly_connected(&graph_of(src))
        .into_iter()
        .filter(|part| part.len() > 2)
        .map(|mut part| {
            part.sort();
            let names: Vec<String> = part
                .iter()
                .map(|m| {
                    if m.is_empty() {
                        "(root)".to_owned()
                    } else {
                        m.join("::")
                    }
                })
                .collect();
            format!("{} files: {}", part.len(), names.join(", "))
        })
        .collect()
}

#[test]
fn no_import_circle_of_more_than_two_files() {
    let root = root();
    let mut sources: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    sources.push(root.join("xtask/src"));
    sources.sort();
    assert!(sources.len() > 10, "{sources:?}");
    let mut found = Vec::new();
    for src in &sources {
        for circle in circles_over_two(src) {
            found.push(format!("{}: {circle}", src.display()));
        }
    }
    assert!(
        found.is_empty(),
        "import circles of more than two files (move what they share into a module \
         that names none of them):\n{}",
        found.join("\n")
    );
}

/// The reading itself: a planted circle of three files is found, a parent and child
/// naming each other is not, and groups, `super` chains and comments are read as
/// the doc says.
#[test]
fn the_reading_finds_a_planted_circle() {
    let dir = std::env::temp_dir().join(format!("bloomproof-circles-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("p/q")).unwrap();
    let write = |name: &str, text: &str| fs::write(dir.join(name), text).unwrap();
    write("lib.rs", "mod a;\nmod b;\nmod p;\n// use crate::a::X;\n");
    write("a.rs", "use crate::{b::Y, p};\n");
    write("b.rs", "pub fn f() { crate::p::q::g(); }\n");
    write("p/mod.rs", "pub mod q;\nuse self::q::g;\n");
    write("p/q/mod.rs", "use super::super::a::Z;\nuse super::*;\n");
    let circles = circles_over_two(&dir);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(circles, ["4 files: a, b, p, p::q"]);
    assert_eq!(
        paths("use crate::{a, b::c};\nlet x = super::super::d::e(); self::f;"),
        [
            vec!["crate", "a"],
            vec!["crate", "b", "c"],
            vec!["super", "super", "d", "e"],
            vec!["self", "f"],
        ]
    );
}
