//! `cargo xtask matrix`: `bloomproof matrix` with this repository's implementations
//! (`implementations/matrix.json`, commands relative to the repository's root)
//! and the explorer's export, into `target/matrix/`; then the page in Chromium
//! (`xtask/matrix/matrix.test.mjs`), on that matrix and on one with a planted failure
//! (`target/matrix-failing/`: the Rust implementation beside a lying adapter), at
//! 375 and 1280 px, light and dark.
//!
//! Fails on what fails the matrix (an unexpected failure, a stale expected failure, an
//! implementation that cannot be run, a cross-reading cell that differs), on a planted
//! failure the matrix does not report, or on a page test that fails.

use crate::process;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The implementations file, relative to the repository's root.
pub const IMPLEMENTATIONS: &str = "implementations/matrix.json";

/// What `{target}` stands for in a `--session-from` file: the cargo target folder
/// (`target/`, or `$CARGO_TARGET_DIR`), where `cargo xtask e2e` writes the explorer's
/// export (`{target}/e2e/explorer-session.json`).
const TARGET_WORD: &str = "{target}";

/// The lying implementation of the failing matrix: the Rust adapter behind a proxy
/// that answers every lookup `duplicate: true`.
const LIAR: &str = "liar=python3 gallery/liar.py always_duplicate -- {bloomproof} adapter";

/// The options of one matrix run.
#[derive(Debug)]
pub struct Options {
    /// The implementations file.
    pub implementations: PathBuf,
    /// Extra session producers: (name, file of `{"export", "view"}`).
    pub sessions: Vec<(String, PathBuf)>,
    /// Per adapter request.
    pub timeout: Duration,
    /// Whether to test the page in Chromium.
    pub browser: bool,
}

/// `--session-from NAME=FILE`, for clap.
pub fn session_from(given: &str) -> Result<(String, PathBuf), String> {
    match given.split_once('=') {
        Some((name, file)) if !name.is_empty() && !file.is_empty() => {
            Ok((name.to_string(), PathBuf::from(file)))
        }
        _ => Err(format!("takes NAME=FILE, got {given:?}")),
    }
}

/// `--timeout SECS`, for clap: the runner's own rule.
pub fn timeout(given: &str) -> Result<Duration, String> {
    bloomproof_conformance::adapter::parse_timeout(given)
}

/// `bloomproof matrix` from the repository's root with `extra` arguments; its exit
/// status. `quiet`: its output is kept back, and shown only when it did not run (exit
/// status other than 0 or 1).
fn bloomproof_matrix(
    root: &Path,
    binary: &Path,
    options: &Options,
    extra: &[String],
    quiet: bool,
) -> Result<std::process::ExitStatus, String> {
    let mut command = Command::new(binary);
    command
        .arg("matrix")
        .args(["--spec", "spec"])
        .args(["--vectors", "vectors"])
        .args(["--timeout", &options.timeout.as_secs_f64().to_string()])
        // Our own implementations must pass every class, not only core.
        .args(["--require", "all"])
        .args(extra)
        .current_dir(root)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    println!("==> bloomproof matrix {}", extra.join(" "));
    if !quiet {
        return command
            .status()
            .map_err(|e| format!("cannot run {}: {e}", binary.display()));
    }
    let output = command
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    if !matches!(output.status.code(), Some(0 | 1)) {
        print!("{}", String::from_utf8_lossy(&output.stdout));
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(output.status)
}

/// Runs the matrix.
pub fn run(options: Options) -> Result<(), String> {
    let started = Instant::now();
    let root = super::root();
    let binary = process::build_runner(&root)?;
    let target = process::target_dir(&root);
    let out = target.join("matrix");
    let mut extra = vec![
        "--implementations".to_string(),
        options.implementations.display().to_string(),
        "--out".to_string(),
        out.display().to_string(),
    ];
    for (name, file) in &options.sessions {
        let file = file
            .to_string_lossy()
            .replace(TARGET_WORD, &target.display().to_string());
        extra.push("--session-from".to_string());
        extra.push(format!("{name}={file}"));
    }
    let status = bloomproof_matrix(&root, &binary, &options, &extra, false)?;
    // Exit 1 is a matrix that failed: its page is still written, and tested below.
    let failed = match status.code() {
        Some(0) => false,
        Some(1) => true,
        _ => return Err(format!("bloomproof matrix did not run ({status})")),
    };
    let failing = target.join("matrix-failing");
    if options.browser {
        let planted = bloomproof_matrix(
            &root,
            &binary,
            &options,
            &[
                "--impl".to_string(),
                LIAR.to_string(),
                "--out".to_string(),
                failing.display().to_string(),
            ],
            true,
        )?;
        if planted.code() != Some(1) {
            return Err(format!(
                "the matrix with a lying implementation should fail (exit 1), got {planted}"
            ));
        }
        page_test(&root, &[&out, &failing])?;
    }
    println!("matrix: in {:.0}s", started.elapsed().as_secs_f64());
    if failed {
        Err(format!(
            "the matrix failed: {} (summary above)",
            out.join("summary.md").display()
        ))
    } else {
        Ok(())
    }
}

// ------------------------------------------------------------------ the page in Chromium

/// Tests the page in Chromium with the Playwright install of `crates/explorer/e2e`
/// (`npm ci` there when it is missing, as `cargo xtask e2e` does); Chromium is
/// `$CHROMIUM` or Debian's `/usr/bin/chromium`, installed when missing.
fn page_test(root: &Path, folders: &[&Path]) -> Result<(), String> {
    let chromium = process::chromium("matrix")?;
    process::node("matrix")?;
    let playwright = process::playwright("matrix", root)?;
    println!("==> matrix: the page in Chromium (node --test xtask/matrix/matrix.test.mjs)");
    let status = Command::new("node")
        .args(["--test", "xtask/matrix/matrix.test.mjs"])
        .current_dir(root)
        .env("MATRIX_DIR", folders[0])
        .env("MATRIX_FAILING_DIR", folders.get(1).unwrap_or(&folders[0]))
        .env("PLAYWRIGHT_FROM", &playwright)
        .env("CHROMIUM", &chromium)
        .status()
        .map_err(|e| format!("cannot run node: {e}"))?;
    if status.success() {
        println!(
            "matrix: the page passed in Chromium; screenshots in {}",
            folders
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        );
        Ok(())
    } else {
        Err(format!(
            "the matrix page test failed in Chromium ({status})"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listed_implementations_file_is_valid() {
        let root = super::super::root();
        let file = root.join(IMPLEMENTATIONS);
        let text = std::fs::read_to_string(&file).expect("the file exists");
        let list = bloomproof_wire::matrix::Implementations::parse(&text, IMPLEMENTATIONS)
            .expect("it parses");
        let names: Vec<&str> = list
            .implementations
            .iter()
            .map(|i| i.name.as_str())
            .collect();
        assert_eq!(names, ["rust", "rust-adapter", "python", "javascript"]);
        assert_eq!(list.implementations[0].command, None);
    }
}
