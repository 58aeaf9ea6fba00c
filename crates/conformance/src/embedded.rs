//! The spec compiled into the binary, its version, and its export.
//!
//! The runner carries the spec files (every protocol's `checks.json` and `cases.json`,
//! the schemas under `spec/schemas/`, and any other spec file by the rule below) in its
//! binary, so `bloomproof conformance`
//! runs from any directory without the source tree; `bloomproof spec export DIR` writes
//! them out. A test keeps [`FILES`] equal to `spec/` on disk.
//!
//! # The spec files
//!
//! The spec files of a folder are, by one rule used for the embedded spec and for a
//! folder given with `--spec`: every regular file whose name ends in `.json` directly
//! in the spec folder, in a protocol folder (a folder with a `checks.json`) or in
//! `schemas/`, named by its path relative to the spec folder with `/` between
//! components (`doc-membership-v1/cases.json`, `schemas/checks.schema.json`). The
//! documentation (`*.md`) and the derivation scripts are not spec files.
//!
//! # The spec version
//!
//! [`version`] is a SHA-256 over the spec files, taken in the byte order of their
//! relative names; for each file it hashes the name's UTF-8 bytes, one zero byte, the
//! file's length in bytes as 8 bytes big-endian, then the file's bytes. Reports print
//! it (the first 16 hex digits in text, all 64 in JSON), so two reports name the exact
//! spec they ran.

use sha2::{Digest, Sha256};
use std::path::Path;

/// The spec files compiled into this binary: (relative name, bytes), in name order.
/// The build (`build.rs`) lists them by the rule above, so they are the files of
/// `spec/` when the crate was built.
pub const FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/embedded_spec.rs"));

/// The documents the suite enforces, built into the binary beside the spec files:
/// (name relative to the spec folder, text): every `.md` file directly in `spec/` or in
/// a protocol folder, in name order, listed by the build as it lists [`FILES`].
/// `spec export` writes them with the spec files and `spec show` prints one. They are
/// not spec files: the spec version covers the JSON only.
pub const DOCUMENTS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/embedded_documents.rs"));

/// One built-in document by its name (`ADAPTER.md`, `fnv1a-utf16-v1/SESSION.md`),
/// or by its file name alone when only one document has it (`SESSION.md`).
pub fn document(name: &str) -> Result<&'static str, String> {
    if let Some((_, text)) = DOCUMENTS.iter().find(|(n, _)| *n == name) {
        return Ok(text);
    }
    let by_file: Vec<_> = DOCUMENTS
        .iter()
        .filter(|(n, _)| n.rsplit('/').next() == Some(name))
        .collect();
    match by_file.as_slice() {
        [(_, text)] => Ok(text),
        _ => Err(format!(
            "no document {name:?} (one of: {})",
            DOCUMENTS
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The bytes of one embedded spec file, by its relative name.
pub fn file(name: &str) -> Option<&'static [u8]> {
    FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bytes)| *bytes)
}

/// The name errors give the embedded spec in place of a folder.
pub const LABEL: &str = "(embedded spec)";

/// The embedded spec's version (64 hex digits; see the module documentation).
pub fn embedded_version() -> String {
    version(FILES)
}

/// The version of a set of spec files: SHA-256, in the byte order of the names, over
/// each name, a zero byte, the length as 8 bytes big-endian and the bytes; as 64
/// lowercase hex digits.
pub fn version<N: AsRef<str>, B: AsRef<[u8]>>(files: &[(N, B)]) -> String {
    let mut sorted: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(name, bytes)| (name.as_ref(), bytes.as_ref()))
        .collect();
    sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut hasher = Sha256::new();
    for (name, bytes) in sorted {
        hasher.update(name.as_bytes());
        hasher.update([0u8]);
        hasher.update((bytes.len() as u64).to_be_bytes());
        hasher.update(bytes);
    }
    bloomproof_wire::encode_hex(&hasher.finalize())
}

/// The largest spec file read from a folder: 8 MiB (the largest file of the spec is
/// under 3 MB).
pub const FILE_MAX: u64 = bloomproof_wire::bounded::SPEC_FILE_MAX;

/// The most spec files read from a folder.
pub const FILES_MAX: usize = 1000;

/// The bytes of the spec file `path`, refused by name unless it is a regular file
/// (after symbolic links) of at most [`FILE_MAX`] bytes: a FIFO, a device such as
/// `/dev/zero` or a 2 GB sparse file is an error at once, never a hang or a read
/// without end ([`bloomproof_wire::bounded::read_file`]).
pub fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    bloomproof_wire::bounded::read_file(path, FILE_MAX, "a spec file")
}

/// The spec files of the folder `dir` (see the module documentation), in name order;
/// at most [`FILES_MAX`] of them, each read by [`read_file`].
pub fn files_in(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let read = |path: &Path| {
        std::fs::read_dir(path).map_err(|err| format!("{}: cannot read: {err}", path.display()))
    };
    let mut files = Vec::new();
    let mut folders = vec![(dir.to_path_buf(), String::new())];
    for entry in read(dir)? {
        let entry = entry.map_err(|err| format!("{}: cannot read: {err}", dir.display()))?;
        let folder = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if folder.is_dir() && (name == "schemas" || folder.join("checks.json").is_file()) {
            folders.push((folder, format!("{name}/")));
        }
    }
    for (folder, prefix) in folders {
        for inner in read(&folder)? {
            let inner = inner.map_err(|err| format!("{}: cannot read: {err}", folder.display()))?;
            let path = inner.path();
            let file = inner.file_name().to_string_lossy().into_owned();
            if !file.ends_with(".json") || !path.is_file() {
                continue;
            }
            if files.len() == FILES_MAX {
                return Err(format!(
                    "{}: more than {FILES_MAX} spec files, more than a spec folder may hold",
                    dir.display()
                ));
            }
            let bytes = read_file(&path).map_err(|err| format!("{}: {err}", path.display()))?;
            files.push((format!("{prefix}{file}"), bytes));
        }
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(files)
}

/// Writes the embedded spec files under `dir` (created if missing), returning how
/// many were written. A `dir` that exists and is not an empty folder is refused
/// unless `force` (then files of the same names are overwritten and others are left);
/// a symbolic link inside it is refused, never followed
/// ([`bloomproof_wire::export`]).
pub fn export(dir: &Path, force: bool) -> Result<usize, String> {
    bloomproof_wire::export::prepare_folder(dir, force)?;
    let documents = DOCUMENTS
        .iter()
        .map(|(name, text)| (*name, text.as_bytes()));
    for (name, bytes) in FILES.iter().copied().chain(documents) {
        bloomproof_wire::export::write_inside(dir, name, bytes)?;
    }
    Ok(FILES.len() + DOCUMENTS.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_frames_names_and_lengths() {
        let one = version(&[("a", b"bc".as_slice())]);
        let two = version(&[("ab", b"c".as_slice())]);
        assert_ne!(one, two);
        assert_eq!(one.len(), 64);
        // The order the files are given in does not matter.
        assert_eq!(
            version(&[("a", b"1".as_slice()), ("b", b"2".as_slice())]),
            version(&[("b", b"2".as_slice()), ("a", b"1".as_slice())])
        );
    }

    #[test]
    fn the_embedded_files_are_in_name_order_and_load() {
        let names: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
        assert!(crate::load_embedded().is_ok());
    }
}
