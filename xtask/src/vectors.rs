//! `cargo xtask vectors [--check]`: write the generated vector files and their JSON
//! Schemas, or fail when the files on disk are stale.
//!
//! Generation computes every value with the production crates and checks it against
//! the oracle first; on any disagreement nothing is written. Write mode also removes
//! files in the generator's folders that it no longer writes, so that `--check` passes
//! right after it.

use bloomproof_vectors_generate::fresh;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Writes the vector files, or (`check`) fails when they are stale.
pub fn run(check: bool) -> Result<(), String> {
    let root = root();
    let generated = bloomproof_vectors_generate::generate()?;
    if check {
        let stale = fresh::compare(&root, &generated);
        return match fresh::report(&stale) {
            None => {
                println!("vectors are fresh: {} files", generated.len());
                Ok(())
            }
            Some(report) => Err(report),
        };
    }
    for (path, text) in &generated {
        let file = root.join(path);
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let current = std::fs::read(&file).unwrap_or_default();
        if current == text.as_bytes() {
            continue;
        }
        std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
        println!("wrote {path} ({} bytes)", text.len());
    }
    for path in fresh::extra_files(&root, &generated) {
        let file = root.join(&path);
        let removed = if file.is_dir() {
            std::fs::remove_dir_all(&file)
        } else {
            std::fs::remove_file(&file)
        };
        removed.map_err(|e| format!("{}: {e}", file.display()))?;
        println!("removed {path} (not generated)");
    }
    println!("vectors: {} files up to date", generated.len());
    Ok(())
}
