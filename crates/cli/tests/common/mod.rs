//! What the matrix tests share.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `bloomproof matrix` with `args` in `dir` (an empty folder), holds it to exit 0 and
/// returns the folder it wrote and its standard output.
pub fn matrix_in(dir: &Path, args: &[String]) -> (PathBuf, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_bloomproof"))
        .current_dir(dir)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .arg("matrix")
        .args(args)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    (dir.join("bloomproof-matrix"), stdout.into_owned())
}
