//! Every path of the binary that writes a file goes through the one checked writer
//! (`bloomproof_wire::export`: no symbolic link followed, nothing outside its folder
//! written or removed), and every path that reads a file the user names goes through
//! the one bounded reader (`bloomproof_wire::bounded`: regular files only, a size cap).
//! The tables below list them; a source scan of the binary's crates fails on a file
//! operation anywhere else, so a new writer or reader cannot bypass them unnoticed.

use std::path::{Path, PathBuf};

/// The crates the `bloomproof` binary is built from (its production code: `src/`).
const CRATES: [&str; 10] = [
    "adapter",
    "cli",
    "conformance",
    "explorer",
    "filter",
    "matrix",
    "protocol",
    "session",
    "vectors",
    "wire",
];

/// The two modules allowed to touch files directly.
const ALLOWED: [&str; 2] = ["crates/wire/src/export.rs", "crates/wire/src/bounded.rs"];

/// What touches a file's contents or the file system's entries; listing a folder
/// (`read_dir`) and reading metadata are not in it.
const FILE_OPERATIONS: [&str; 14] = [
    "fs::write",
    "fs::read(",
    "fs::read_to_string",
    "read_to_string(",
    "File::open",
    "File::create",
    "OpenOptions",
    "remove_file",
    "remove_dir",
    "create_dir",
    "fs::rename",
    "fs::copy",
    "set_permissions",
    "hard_link",
];

/// Every path that writes files, with the file that holds it and the call to the
/// checked writer it must make.
const WRITERS: [(&str, &str, &str); 3] = [
    (
        "bloomproof spec export DIR",
        "crates/conformance/src/embedded.rs",
        "bloomproof_wire::export::write_inside(",
    ),
    (
        "bloomproof explore --export DIR",
        "crates/explorer/src/site.rs",
        "bloomproof_wire::export::write_inside(",
    ),
    (
        "bloomproof matrix --out DIR",
        "crates/matrix/src/page.rs",
        "bloomproof_wire::export::write_inside(",
    ),
];

/// Every path that reads a file the user names, with the file that holds it and the
/// call to the bounded reader it must make.
const READERS: [(&str, &str, &str); 5] = [
    (
        "--spec DIR (conformance, matrix)",
        "crates/conformance/src/embedded.rs",
        "bloomproof_wire::bounded::read_file(",
    ),
    (
        "--vectors DIR (conformance, matrix)",
        "crates/vectors/src/load.rs",
        "bloomproof_wire::bounded::read_file(",
    ),
    (
        "matrix --implementations FILE",
        "crates/cli/src/matrix.rs",
        "bloomproof_wire::bounded::read_text(",
    ),
    (
        "matrix --session-from NAME=FILE",
        "crates/cli/src/matrix.rs",
        "bloomproof_wire::bounded::read_text(",
    ),
    (
        "the matrix's own marker in --out DIR",
        "crates/matrix/src/page.rs",
        "bloomproof_wire::bounded::read_text(",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a source folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's production code: what comes before its first test module.
fn production(text: &str) -> &str {
    let end = ["#[cfg(test)]", "#[cfg(all(test"]
        .iter()
        .filter_map(|marker| text.find(marker))
        .min()
        .unwrap_or(text.len());
    &text[..end]
}

/// Every `file:line: code` in the binary's production code that operates on files
/// outside [`ALLOWED`].
fn bypasses() -> Vec<String> {
    let root = root();
    let mut found = Vec::new();
    for krate in CRATES {
        let mut files = Vec::new();
        rust_files(&root.join("crates").join(krate).join("src"), &mut files);
        for file in files {
            let relative = file
                .strip_prefix(&root)
                .expect("inside the repository")
                .to_string_lossy()
                .replace('\\', "/");
            if ALLOWED.contains(&relative.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("a source file");
            for (number, line) in production(&text).lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                if FILE_OPERATIONS.iter().any(|op| code.contains(op)) {
                    found.push(format!("{relative}:{}: {}", number + 1, line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn no_file_is_written_or_read_outside_the_checked_writer_and_the_bounded_reader() {
    let found = bypasses();
    assert!(
        found.is_empty(),
        "file operations outside {ALLOWED:?} (write through bloomproof_wire::export, read a file the user names through bloomproof_wire::bounded):\n{}",
        found.join("\n")
    );
}

#[test]
fn every_listed_path_goes_through_the_writer_or_the_reader() {
    let root = root();
    for (what, file, call) in WRITERS.iter().chain(READERS.iter()) {
        let text = std::fs::read_to_string(root.join(file)).expect("the listed file exists");
        assert!(
            production(&text).contains(call),
            "{what}: {file} no longer calls {call}"
        );
    }
}

#[test]
fn the_scan_finds_a_planted_bypass() {
    // The scan's own check: a write and a read planted in production code are found,
    // the same in a test module are not.
    let planted = "fn f() { std::fs::write(p, b); let t = std::fs::read_to_string(q); }\n#[cfg(test)]\nmod tests { fn g() { std::fs::write(p, b); } }\n";
    let hits: Vec<&str> = production(planted)
        .lines()
        .filter(|line| FILE_OPERATIONS.iter().any(|op| line.contains(op)))
        .collect();
    assert_eq!(hits.len(), 1);
    assert!(hits[0].contains("fs::write") && hits[0].contains("read_to_string"));
    assert!(!production(planted).contains("mod tests"));
}
