//! ARCHITECTURE.md stays a map: at most 300 lines (the how-to lives in CONTRIBUTING.md),
//! and every crate of `crates/` has its entry in the code map, so that a newcomer's
//! first read is whole and short.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::fs;
use std::path::Path;

/// The longest ARCHITECTURE.md may be, in lines.
const LINES_MAX: usize = 300;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn architecture_is_a_short_map_of_every_crate() {
    let text = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= LINES_MAX,
        "ARCHITECTURE.md has {lines} lines, over {LINES_MAX}: move how-to text to CONTRIBUTING.md"
    );
    let map = &text[text.find("## Code map").expect("a code map")..];
    let map = &map[..map.find("\n## ").unwrap_or(map.len())];
    let mut missing = Vec::new();
    for entry in fs::read_dir(root().join("crates")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().join("Cargo.toml").is_file() && !map.contains(&format!("`crates/{name}`")) {
            missing.push(name);
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "crates without a code map entry: {missing:?}"
    );
}
