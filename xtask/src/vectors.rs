//! `cargo xtask vectors [--check]`: write the vector files of every built-in protocol
//! (`doc-membership-v1`'s by the writer of any doc-membership version,
//! `bloomproof_vectors_writer::doc_files`) and their JSON Schemas, or fail when the
//! files on disk are stale.
//!
//! The writer computes every value with the production crates and checks it against
//! the oracle first; on any disagreement nothing is written. Write mode also removes
//! files in the writer's folders that it no longer writes, so that `--check` passes
//! right after it.

use bloomproof_vectors_writer::fresh;
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
    let written = bloomproof_vectors_writer::files()?;
    if check {
        let stale = fresh::compare(&root, &written);
        return match fresh::report(&stale) {
            None => {
                println!("vectors are fresh: {} files", written.len());
                Ok(())
            }
            Some(report) => Err(report),
        };
    }
    for (path, text) in &written {
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
    for path in fresh::extra_files(&root, &written) {
        let file = root.join(&path);
        let removed = if file.is_dir() {
            std::fs::remove_dir_all(&file)
        } else {
            std::fs::remove_file(&file)
        };
        removed.map_err(|e| format!("{}: {e}", file.display()))?;
        println!("removed {path} (not written)");
    }
    println!("vectors: {} files up to date", written.len());
    Ok(())
}
