//! Embeds the spec files and documents into the crate (see `src/embedded.rs`): writes
//! `$OUT_DIR/embedded_spec.rs`, one `include_bytes!` per spec file of `../../spec`, and
//! `$OUT_DIR/embedded_documents.rs`, one `include_str!` per document (every `.md` file
//! directly in the spec folder or in a protocol folder), and asks to be rerun whenever
//! anything under `spec/` changes.

use std::error::Error;
use std::path::{Path, PathBuf};

/// The files of `dir` whose names end in `extension`: those directly in the folder and
/// in a protocol folder (one with a `checks.json`), and in `schemas/` when `schemas`,
/// as (relative name with `/`, path), in the byte order of the names. The spec files
/// (the rule of `src/embedded.rs`) are the `.json` ones with `schemas/`; the documents
/// the `.md` ones without.
fn files(
    dir: &Path,
    extension: &str,
    schemas: bool,
) -> Result<Vec<(String, PathBuf)>, Box<dyn Error>> {
    let found_in =
        |folder: &Path, prefix: &str| -> Result<Vec<(String, PathBuf)>, Box<dyn Error>> {
            let mut found = Vec::new();
            for entry in std::fs::read_dir(folder)? {
                let path = entry?.path();
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if path.is_file() && name.ends_with(extension) {
                    found.push((format!("{prefix}{name}"), path));
                }
            }
            Ok(found)
        };
    let mut files = found_in(dir, "")?;
    for entry in std::fs::read_dir(dir)? {
        let folder = entry?.path();
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if folder.is_dir()
            && ((schemas && name == "schemas") || folder.join("checks.json").is_file())
        {
            files.extend(found_in(&folder, &format!("{name}/"))?);
        }
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(files)
}

/// The Rust source `&[(name, INCLUDE!(path)), ...]` of `files`, `INCLUDE` being `include`.
fn listing(files: Vec<(String, PathBuf)>, include: &str) -> Result<String, Box<dyn Error>> {
    let mut out = String::from("&[\n");
    for (name, path) in files {
        let path = path.canonicalize()?;
        out.push_str(&format!(
            "    ({name:?}, {include}!({:?})),\n",
            path.to_string_lossy()
        ));
    }
    out.push_str("]\n");
    Ok(out)
}

fn main() -> Result<(), Box<dyn Error>> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let spec = manifest.join("..").join("..").join("spec");
    println!("cargo::rerun-if-changed={}", spec.display());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out_dir.join("embedded_spec.rs"),
        listing(files(&spec, ".json", true)?, "include_bytes")?,
    )?;
    std::fs::write(
        out_dir.join("embedded_documents.rs"),
        listing(files(&spec, ".md", false)?, "include_str")?,
    )?;
    Ok(())
}
