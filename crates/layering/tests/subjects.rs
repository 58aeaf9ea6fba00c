//! Evaluators see implementations only through a subject: no file of
//! `crates/conformance/src` names a production crate (`bloomproof_protocol`,
//! `bloomproof_filter`, `bloomproof_session`) but for the uses listed in [`ALLOWED`],
//! none of which drives an implementation. The production subjects live in
//! `bloomproof-adapter` (`protocols/<protocol>/subject.rs`), which the in-process run and `bloomproof
//! adapter` share. (That conformance has no `bloomproof-filter` dependency at all is
//! `tests/layers.rs`'s to hold.)

#![allow(clippy::unwrap_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

const PRODUCTION: [&str; 3] = [
    "bloomproof_protocol",
    "bloomproof_filter",
    "bloomproof_session",
];

/// (file under `crates/conformance/src`, the exact path it may name, why).
/// Besides these, each protocol's `protocols/<module>/mod.rs` may name its own name,
/// `bloomproof_protocol::<module>::NAME` ([`own_name`]).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "lib.rs",
        "bloomproof_protocol::PROTOCOLS",
        "the registry of protocol names",
    ),
    (
        "accumulated.rs",
        "bloomproof_protocol::doc_membership_v1::sha256",
        "the production SHA-256 of the accumulated stream's in-process side, no evaluator",
    ),
    (
        "protocols/fnv1a_utf16_v1/generated/session.rs",
        "bloomproof_session::{IMPORT_MAX_BYTES, LOCAL_SAVE_MAX_UNITS, Session}",
        "the session model as the generated session checks' reference, beside the oracle",
    ),
    (
        "protocols/fnv1a_utf16_v1/generated/page.rs",
        "bloomproof_session::Session",
        "the session model says which imports it accepts and with which entries (the import format is bloomproof's); every other judgement of the page's rules is the oracle's",
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// Each use of a production crate in `text` (of `file`) that [`ALLOWED`] does not list:
/// the line number and the line.
fn unlisted(file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut rest = line.to_string();
        if let Some(name) = own_name(file) {
            rest = rest.replace(&name, "");
        }
        for &(allowed_file, path, _) in ALLOWED {
            if allowed_file == file {
                rest = rest.replace(path, "");
            }
        }
        if PRODUCTION.iter().any(|name| rest.contains(name)) {
            found.push(format!("{file}:{}: {}", number + 1, line.trim()));
        }
    }
    found
}

/// The protocol's name a protocol's own module may name: in
/// `protocols/<module>/mod.rs`, `bloomproof_protocol::<module>::NAME`.
fn own_name(file: &str) -> Option<String> {
    let module = file.strip_prefix("protocols/")?.strip_suffix("/mod.rs")?;
    (!module.contains('/')).then(|| format!("bloomproof_protocol::{module}::NAME"))
}

#[test]
fn conformance_names_production_only_where_listed() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 10, "too few files under {}", src.display());
    let mut found = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for path in files {
        let file = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = fs::read_to_string(&path).unwrap();
        for (i, &(allowed_file, allowed, _)) in ALLOWED.iter().enumerate() {
            used[i] |= allowed_file == file && text.contains(allowed);
        }
        found.extend(unlisted(&file, &text));
    }
    assert!(
        found.is_empty(),
        "an evaluator must reach an implementation through a subject \
         (bloomproof_conformance::subject), but:\n  {}",
        found.join("\n  ")
    );
    let stale: Vec<_> = ALLOWED
        .iter()
        .zip(used)
        .filter(|(_, used)| !used)
        .map(|((file, path, _), _)| format!("{file}: {path}"))
        .collect();
    assert!(stale.is_empty(), "allowed uses no longer there: {stale:?}");
}

#[test]
fn the_scan_catches_a_direct_call() {
    let evaluator = "let snapshot = bloomproof_filter::DocumentPrefilter::new(records);";
    assert_eq!(
        unlisted("protocols/doc_membership_v1/checks/read.rs", evaluator).len(),
        1
    );
    // Allowed in its own file only, and only the exact path.
    let name = "pub const NAME: &str = bloomproof_protocol::doc_membership_v1::NAME;";
    assert!(unlisted("protocols/doc_membership_v1/mod.rs", name).is_empty());
    assert_eq!(
        unlisted("protocols/doc_membership_v1/checks/read.rs", name).len(),
        1
    );
    assert_eq!(unlisted("protocols/fnv1a_utf16_v1/mod.rs", name).len(), 1);
    let more = "bloomproof_protocol::doc_membership_v1::positions(&params, item)";
    assert_eq!(
        unlisted("protocols/doc_membership_v1/mod.rs", more).len(),
        1
    );
}
