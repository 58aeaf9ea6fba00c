//! What the tests of several files share: the matrix, and runs through a test adapter.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `bloomproof matrix` with `args` in `dir` (an empty folder), holds it to exit 0 and
/// returns the folder it wrote and its standard output.
#[allow(dead_code)] // not every test file uses every helper
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

/// The command that runs `bloomproof adapter` behind the test proxy `script` of
/// `tests/adapters/` (with `args` before its `--`).
#[allow(dead_code)] // not every test file uses every helper
pub fn proxy(script: &str, args: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/adapters")
        .join(script);
    let bin = env!("CARGO_BIN_EXE_bloomproof");
    format!("python3 '{}' {args} -- '{bin}' adapter", path.display())
}

/// `bloomproof conformance --impl command --no-times --seed 7` with `args` after: its
/// exit status, standard output and standard error.
#[allow(dead_code)] // not every test file uses every helper
pub fn conformance_through(command: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_bloomproof"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .args([
            "conformance",
            "--impl",
            command,
            "--no-times",
            "--seed",
            "7",
        ])
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
