//! `cargo xtask mutants [ARGS]`: mutation testing of the protocol, filter and
//! session crates with cargo-mutants (installed when missing).
//!
//! Extra arguments go to cargo-mutants unchanged (`--jobs 2`, `--file
//! crates/session/src/model.rs`, `--re PATTERN`, `--list`, ...). The
//! configuration, with every exclusion and why it is equivalent, is
//! `.cargo/mutants.toml`. The run fails when any mutant is missed.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The crates whose mutants must all be caught.
const PACKAGES: [&str; 3] = [
    "bloomproof-protocol",
    "bloomproof-filter",
    "bloomproof-session",
];

/// The outcome files cargo-mutants writes into `mutants.out/`, one mutant a line.
const OUTCOMES: [&str; 4] = ["caught", "missed", "unviable", "timeout"];

/// Arguments after which cargo-mutants runs no mutant (nothing to count).
const NO_RUN: [&str; 6] = [
    "--list",
    "--list-files",
    "--help",
    "-h",
    "--version",
    "--check",
];

/// Whether cargo-mutants answers; installs it with `cargo install` otherwise.
fn ensure_installed() -> Result<(), String> {
    let present = Command::new("cargo")
        .args(["mutants", "--version"])
        .output()
        .is_ok_and(|output| output.status.success());
    if present {
        return Ok(());
    }
    println!("==> cargo-mutants is missing: cargo install cargo-mutants --locked");
    let status = Command::new("cargo")
        .args(["install", "cargo-mutants", "--locked"])
        .status()
        .map_err(|e| format!("cannot run cargo install: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`cargo install cargo-mutants --locked` failed ({status})"
        ))
    }
}

/// The directory cargo-mutants writes `mutants.out` into: `--output DIR` / `-o DIR`
/// when given, else the source tree.
fn output_parent(root: &Path, args: &[String]) -> std::path::PathBuf {
    let mut found = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "-o" || arg == "--output" {
            found = args.next().cloned();
        } else if let Some(dir) = arg.strip_prefix("--output=") {
            found = Some(dir.to_owned());
        }
    }
    found.map_or_else(|| root.to_path_buf(), |dir| root.join(dir))
}

/// The mutants listed in `mutants.out/<outcome>.txt` (missing file: none).
fn listed(out: &Path, outcome: &str) -> Vec<String> {
    std::fs::read_to_string(out.join(format!("{outcome}.txt")))
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// Runs cargo-mutants over the three crates; fails if any mutant is missed.
pub fn run(args: &[String]) -> Result<(), String> {
    ensure_installed()?;
    let root = super::root();
    let mut command = Command::new("cargo");
    command.arg("mutants").arg("--dir").arg(&root);
    for package in PACKAGES {
        command.args(["--package", package]);
    }
    command.arg("--no-shuffle").args(args).current_dir(&root);
    println!(
        "==> cargo mutants --package {} --no-shuffle {}",
        PACKAGES.join(" --package "),
        args.join(" ")
    );
    let started = Instant::now();
    let status = command
        .status()
        .map_err(|e| format!("cannot run cargo mutants: {e}"))?;
    let elapsed = started.elapsed().as_secs();
    if args.iter().any(|arg| NO_RUN.contains(&arg.as_str())) {
        return if status.success() {
            Ok(())
        } else {
            Err(format!("cargo mutants failed ({status})"))
        };
    }
    // Exit codes: 0 all caught, 2 some missed, 3 some timed out; anything else
    // (a failing baseline, bad arguments) means no trustworthy counts.
    let code = status.code();
    if !matches!(code, Some(0 | 2 | 3)) {
        return Err(format!(
            "cargo mutants did not complete ({status}); see mutants.out/debug.log"
        ));
    }
    let out = output_parent(&root, args).join("mutants.out");
    let counts: Vec<(&str, Vec<String>)> = OUTCOMES
        .iter()
        .map(|&outcome| (outcome, listed(&out, outcome)))
        .collect();
    let summary: Vec<String> = counts
        .iter()
        .map(|(outcome, mutants)| format!("{} {outcome}", mutants.len()))
        .collect();
    println!(
        "\nmutants: {} (total time {}m {:02}s)",
        summary.join(", "),
        elapsed / 60,
        elapsed % 60
    );
    let missed = counts
        .iter()
        .find(|(outcome, _)| *outcome == "missed")
        .map(|(_, mutants)| mutants.as_slice())
        .unwrap_or_default();
    if missed.is_empty() && code != Some(2) {
        Ok(())
    } else {
        Err(format!(
            "{} mutant(s) missed: add a test that catches each, or exclude a truly equivalent one in .cargo/mutants.toml with its reason\n  {}",
            missed.len(),
            missed.join("\n  ")
        ))
    }
}
