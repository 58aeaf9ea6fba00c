//! `cargo xtask fuzz`: real coverage-guided fuzzing of one target of `fuzz/` with
//! cargo-fuzz (libFuzzer) on a nightly toolchain.
//!
//! * `cargo xtask fuzz --list`: the targets (`fuzz/fuzz_targets/*.rs`).
//! * `cargo xtask fuzz <target> [--seconds N]`: runs
//!   `cargo +nightly fuzz run <target> <scratch> fuzz/corpus/<target> -- -max_total_time=N`.
//!   New inputs go to the scratch corpus `fuzz/target/corpus/<target>/` (the
//!   committed seeds are only read); a crash is saved under `fuzz/artifacts/<target>/`.
//!
//! Where nightly or cargo-fuzz is missing it says which and how to get it, and fails.
//! The stable-toolchain corpus test (`crates/fuzzing/tests/corpus.rs`) runs in
//! `cargo test` either way.

use std::path::Path;
use std::process::{Command, Stdio};

/// Seconds of fuzzing when `--seconds` is not given.
const DEFAULT_SECONDS: u64 = 60;

const USAGE: &str = "usage: cargo xtask fuzz --list
       cargo xtask fuzz <target> [--seconds N]";

/// The fuzz targets: the file stems of `fuzz/fuzz_targets/*.rs`, sorted.
fn targets(root: &Path) -> Result<Vec<String>, String> {
    let dir = root.join("fuzz/fuzz_targets");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .filter_map(|path| Some(path.file_stem()?.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    Ok(names)
}

/// Whether `cargo <args>` runs and exits 0 (output discarded).
fn cargo_succeeds(args: &[&str]) -> bool {
    Command::new("cargo")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// What is missing to fuzz, each with how to get it; empty when nothing is.
fn missing_tools() -> Vec<String> {
    let nightly = cargo_succeeds(&["+nightly", "--version"]);
    let fuzz = if nightly {
        cargo_succeeds(&["+nightly", "fuzz", "--version"])
    } else {
        cargo_succeeds(&["fuzz", "--version"])
    };
    let mut missing = Vec::new();
    if !nightly {
        missing.push(
            "a nightly Rust toolchain (libFuzzer needs -Z sanitizer flags): \
             `rustup toolchain install nightly`"
                .to_string(),
        );
    }
    if !fuzz {
        missing.push("cargo-fuzz: `cargo install cargo-fuzz`".to_string());
    }
    missing
}

/// Runs `cargo xtask fuzz`: `target` for `seconds` (the default when `None`), or
/// (`list`) prints the targets.
pub fn run(target: Option<String>, seconds: Option<u64>, list: bool) -> Result<(), String> {
    let root = super::root();
    let known = targets(&root)?;
    if list {
        for name in &known {
            println!("{name}");
        }
        return Ok(());
    }
    let seconds = seconds.unwrap_or(DEFAULT_SECONDS);
    if seconds == 0 {
        return Err(format!(
            "--seconds takes a positive whole number\n\n{USAGE}"
        ));
    }
    let Some(target) = target else {
        return Err(format!("name a target: {}\n\n{USAGE}", known.join(", ")));
    };
    if !known.contains(&target) {
        return Err(format!(
            "unknown fuzz target {target:?}; the targets are {}",
            known.join(", ")
        ));
    }

    let missing = missing_tools();
    if !missing.is_empty() {
        return Err(format!(
            "cannot fuzz here: missing {}.\n\
             The corpus test runs on stable without them: \
             `cargo test -p bloomproof-fuzzing --test corpus`.",
            missing.join("; and ")
        ));
    }

    let fuzz_dir = root.join("fuzz");
    let scratch = fuzz_dir.join("target/corpus").join(&target);
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let seeds = fuzz_dir.join("corpus").join(&target);
    let max_total_time = format!("-max_total_time={seconds}");
    println!(
        "fuzzing {target} for {seconds} s: new inputs in {}, crashes in {}",
        scratch.display(),
        fuzz_dir.join("artifacts").join(&target).display()
    );
    let status = Command::new("cargo")
        .current_dir(&root)
        .args(["+nightly", "fuzz", "run", &target])
        .arg(&scratch)
        .arg(&seeds)
        .args(["--", &max_total_time, "-timeout=10"])
        .status()
        .map_err(|e| format!("cannot run cargo +nightly fuzz: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "cargo fuzz failed ({status}): a build error (above), or a crash saved under \
             fuzz/artifacts/{target}/. Reproduce a crash with \
             `cargo +nightly fuzz run {target} fuzz/artifacts/{target}/<file>`, fix it, and \
             commit the input under fuzz/corpus/{target}/ so the corpus test keeps it"
        ))
    }
}
