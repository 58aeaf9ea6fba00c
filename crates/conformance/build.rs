//! Embeds the spec files into the crate (see `src/embedded.rs`): writes
//! `$OUT_DIR/embedded_spec.rs`, one `include_bytes!` per spec file of `../../spec`, and
//! asks to be rerun whenever anything under `spec/` changes.

use std::error::Error;
use std::path::{Path, PathBuf};

/// The spec files of `dir` by the rule of `src/embedded.rs`: every `.json` file
/// directly in the folder, in a protocol folder (one with a `checks.json`) or in
/// `schemas/`, as (relative name with `/`, path), in the byte order of the names.
fn spec_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, Box<dyn Error>> {
    let json_in = |folder: &Path, prefix: &str| -> Result<Vec<(String, PathBuf)>, Box<dyn Error>> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(folder)? {
            let path = entry?.path();
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if path.is_file() && name.ends_with(".json") {
                found.push((format!("{prefix}{name}"), path));
            }
        }
        Ok(found)
    };
    let mut files = json_in(dir, "")?;
    for entry in std::fs::read_dir(dir)? {
        let folder = entry?.path();
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if folder.is_dir() && (name == "schemas" || folder.join("checks.json").is_file()) {
            files.extend(json_in(&folder, &format!("{name}/"))?);
        }
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(files)
}

fn main() -> Result<(), Box<dyn Error>> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let spec = manifest.join("..").join("..").join("spec");
    println!("cargo::rerun-if-changed={}", spec.display());
    let mut out = String::from("&[\n");
    for (name, path) in spec_files(&spec)? {
        let path = path.canonicalize()?;
        out.push_str(&format!(
            "    ({name:?}, include_bytes!({:?})),\n",
            path.to_string_lossy()
        ));
    }
    out.push_str("]\n");
    let target = PathBuf::from(std::env::var("OUT_DIR")?).join("embedded_spec.rs");
    std::fs::write(target, out)?;
    Ok(())
}
