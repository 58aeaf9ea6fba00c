//! `cargo xtask mutants [--runner] [ARGS]`: mutation testing with cargo-mutants
//! (installed when missing), of one part of the workspace at a time:
//!
//! * by default the core: the protocol, filter and session crates, and the session
//!   model's wire types in `bloomproof-wire` (`crates/wire/src/session/`);
//! * with `--runner`, the conformance runner's own logic: the loader, the hooks, the
//!   evaluators, the generated checks, the bound edges, the request spellings and
//!   cross-reading (its tests run the whole spec for every mutant).
//!
//! On 2 cores, beside other builds (2026-12-02), the core (729 mutants) took 52 minutes
//! and the runner went at about 3.4 mutants a minute, each running the conformance tests
//! (501 mutants, about 2.5 hours). With the generated checks, bound edges and request
//! spellings listed since (2026-12-06), `--list` gives 1652 runner mutants, about 8 hours:
//! `--shard K/N` runs a part in N pieces, and `--list` lists a part's mutants at once.
//!
//! Extra arguments go to cargo-mutants unchanged (`--jobs 2`, `--file
//! crates/session/src/model.rs`, `--re PATTERN`, `--list`, ...); a `--file` of your own
//! replaces the part's file list. The configuration, with every exclusion and why it
//! is equivalent, is `.cargo/mutants.toml`. The run fails when any mutant is missed.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// A part of the workspace that is mutated in one run: its packages and the files of
/// them that are mutated. Each mutant is tested with its own package's tests.
struct Part {
    packages: &'static [&'static str],
    files: &'static [&'static str],
}

/// The core: the protocol, filter and session crates, and the session model's wire
/// types in `bloomproof-wire` (their accessors and the `Text` codec; the format
/// crate's own unit tests must catch them).
const CORE: Part = Part {
    packages: &[
        "bloomproof-protocol",
        "bloomproof-filter",
        "bloomproof-session",
        "bloomproof-wire",
    ],
    files: &[
        "crates/protocol/src/**/*.rs",
        "crates/filter/src/**/*.rs",
        "crates/session/src/**/*.rs",
        "crates/wire/src/session/*.rs",
    ],
};

/// The runner's crate and the files of it that are mutated (the rest is plumbing:
/// subjects, the adapter client, the report).
const RUNNER: Part = Part {
    packages: &["bloomproof-conformance", "bloomproof-matrix"],
    files: &[
        "crates/conformance/src/hooks.rs",
        "crates/conformance/src/protocols/*/hooks.rs",
        "crates/conformance/src/load.rs",
        "crates/conformance/src/protocols/*/checks/*.rs",
        "crates/conformance/src/generated/*.rs",
        "crates/conformance/src/protocols/*/generated/*.rs",
        "crates/conformance/src/bound_edges.rs",
        "crates/conformance/src/spelled_requests.rs",
        "crates/matrix/src/cross.rs",
    ],
};

/// What `cargo xtask mutants --help` says after the options.
pub const ABOUT: &str = "By default it mutates the core: bloomproof-protocol, bloomproof-filter, \
bloomproof-session and bloomproof-wire's crates/wire/src/session/; --runner: the conformance \
runner (bloomproof-conformance's hooks.rs, load.rs, each protocol's hooks, evaluators and generated checks, the shared generation, the bound edges and request spellings, and bloomproof-matrix's cross.rs). \
A --file of your own replaces the part's list. On 2 cores the core takes about 50 minutes and the \
runner about 8 hours (`-- --shard K/N` runs a part in N pieces); \
`-- --list` lists the mutants without running them. Arguments after `--` go to cargo-mutants \
unchanged (`cargo mutants --help`); cargo-mutants is installed when it is missing, only when \
this task runs.";

/// The arguments given to `cargo mutants` for the xtask's `args`: the part's packages
/// and, unless `args` names files of its own, the part's files; `--no-shuffle`, then
/// `args` without `--runner`.
fn cargo_args(runner: bool, args: &[String]) -> Vec<String> {
    let part = if runner { &RUNNER } else { &CORE };
    let own_files = args
        .iter()
        .any(|arg| arg == "--file" || arg == "-f" || arg.starts_with("--file="));
    let mut out = Vec::new();
    for package in part.packages {
        out.extend(["--package".to_string(), package.to_string()]);
    }
    if !own_files {
        for file in part.files {
            out.extend(["--file".to_string(), file.to_string()]);
        }
    }
    out.push("--no-shuffle".to_string());
    out.extend(args.iter().cloned());
    out
}

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

/// Runs cargo-mutants over one part (the core, or the runner with `--runner`); fails
/// if any mutant is missed.
pub fn run(runner: bool, args: &[String]) -> Result<(), String> {
    ensure_installed()?;
    let root = super::root();
    let cargo_args = cargo_args(runner, args);
    let mut command = Command::new("cargo");
    command
        .arg("mutants")
        .arg("--dir")
        .arg(&root)
        .args(&cargo_args)
        .current_dir(&root);
    println!("==> cargo mutants {}", cargo_args.join(" "));
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

#[cfg(test)]
mod tests {
    use super::cargo_args;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_default_part_is_the_core() {
        assert_eq!(
            cargo_args(false, &args("--list")).join(" "),
            "--package bloomproof-protocol --package bloomproof-filter \
             --package bloomproof-session --package bloomproof-wire \
             --file crates/protocol/src/**/*.rs --file crates/filter/src/**/*.rs \
             --file crates/session/src/**/*.rs --file crates/wire/src/session/*.rs \
             --no-shuffle --list"
        );
    }

    #[test]
    fn runner_selects_the_runners_files_unless_given_some() {
        assert_eq!(
            cargo_args(true, &args("--list")).join(" "),
            "--package bloomproof-conformance --package bloomproof-matrix \
             --file crates/conformance/src/hooks.rs \
             --file crates/conformance/src/protocols/*/hooks.rs \
             --file crates/conformance/src/load.rs \
             --file crates/conformance/src/protocols/*/checks/*.rs \
             --file crates/conformance/src/generated/*.rs \
             --file crates/conformance/src/protocols/*/generated/*.rs \
             --file crates/conformance/src/bound_edges.rs \
             --file crates/conformance/src/spelled_requests.rs \
             --file crates/matrix/src/cross.rs \
             --no-shuffle --list"
        );
        assert_eq!(
            cargo_args(true, &args("--jobs 2 -f crates/conformance/src/load.rs")).join(" "),
            "--package bloomproof-conformance --package bloomproof-matrix --no-shuffle --jobs 2 \
             -f crates/conformance/src/load.rs"
        );
    }
}
