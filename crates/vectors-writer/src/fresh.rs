//! Whether the files on disk are exactly what the writer writes.
//!
//! The writer owns a folder per protocol, `vectors/<protocol>/`, and
//! `vectors/schemas/` ([`owned_dirs`]). Every file in them must be a
//! file the writer writes, with its contents; nothing else may be there. (The rest
//! of `vectors/`, such as `README.md` and checkers in other languages, is not the
//! writer's.)

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

/// The folders the writer owns, relative to the repository root: each registered
/// protocol's `vectors/<protocol>`, then `vectors/schemas`.
pub fn owned_dirs() -> Vec<String> {
    crate::REGISTRY
        .iter()
        .map(|protocol| format!("vectors/{}", protocol.name))
        .chain(std::iter::once("vectors/schemas".to_string()))
        .collect()
}

/// What `cargo xtask vectors --check` prints when the files are stale.
pub const STALE_HINT: &str = "vectors are stale: run `cargo xtask vectors` and commit";

/// One way the files on disk differ from the writer's output.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Staleness {
    /// A file written is missing (path relative to the root).
    Missing(String),
    /// A file written has other contents.
    Differs(String),
    /// A file in an owned folder that the writer does not write.
    Extra(String),
}

impl fmt::Display for Staleness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Staleness::Missing(path) => write!(f, "missing: {path}"),
            Staleness::Differs(path) => write!(f, "differs: {path}"),
            Staleness::Extra(path) => write!(f, "not written: {path}"),
        }
    }
}

/// Compares `written` (as returned by [`crate::files`]) with the files under
/// `root`. An empty list means fresh.
pub fn compare(root: &Path, written: &[(String, String)]) -> Vec<Staleness> {
    let mut out = Vec::new();
    for (path, text) in written {
        match std::fs::read(root.join(path)) {
            Ok(bytes) if bytes == text.as_bytes() => {}
            Ok(_) => out.push(Staleness::Differs(path.clone())),
            Err(_) => out.push(Staleness::Missing(path.clone())),
        }
    }
    out.extend(extra_files(root, written).into_iter().map(Staleness::Extra));
    out.sort();
    out
}

/// Files (or folders) in the owned folders that the writer does not write, as
/// paths relative to `root`.
pub fn extra_files(root: &Path, written: &[(String, String)]) -> Vec<String> {
    let known: BTreeSet<&str> = written.iter().map(|(path, _)| path.as_str()).collect();
    let mut extra = Vec::new();
    for dir in owned_dirs() {
        let Ok(entries) = std::fs::read_dir(root.join(&dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = format!("{dir}/{}", entry.file_name().to_string_lossy());
            if !known.contains(path.as_str()) {
                extra.push(path);
            }
        }
    }
    extra.sort();
    extra
}

/// A report of stale files: [`STALE_HINT`], then one line per file; `None` when fresh.
pub fn report(stale: &[Staleness]) -> Option<String> {
    if stale.is_empty() {
        return None;
    }
    let mut text = String::from(STALE_HINT);
    for item in stale {
        text.push_str(&format!("\n  {item}"));
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_leads_with_the_hint_and_lists_each_file() {
        assert_eq!(report(&[]), None);
        let text = report(&[
            Staleness::Missing("vectors/a.json".into()),
            Staleness::Extra("vectors/schemas/b.json".into()),
        ])
        .unwrap();
        assert!(text.starts_with(STALE_HINT), "{text}");
        assert!(text.contains("missing: vectors/a.json"), "{text}");
        assert!(
            text.contains("not written: vectors/schemas/b.json"),
            "{text}"
        );
    }

    #[test]
    fn an_empty_root_is_missing_everything() {
        let dir = std::env::temp_dir().join("bloomproof-vectors-fresh-test-nonexistent");
        let written = vec![("vectors/schemas/x.json".to_string(), "{}".to_string())];
        assert_eq!(
            compare(&dir, &written),
            [Staleness::Missing("vectors/schemas/x.json".into())]
        );
    }
}
