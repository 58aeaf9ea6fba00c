//! `cargo xtask <task>`: project automation.
//!
//! * `conformance [ARGS]`: every documented check, as `bloomproof conformance --spec spec/ ARGS`.
//! * `schemas [--check]`: write `spec/schemas/*.json`, `vectors/check/*.schema.json`
//!   and the data files' schemas (`crates/*/data/*.schema.json`) from the Rust types,
//!   or fail when they are stale.
//! * `ci`: every test, lint and freshness check, in the order CI runs them.
//! * `gallery [FILTER]`: every planted bug and lying adapter of
//!   `vectors/check/gallery/bugs.json` against the suite; fails when one survives.
//! * `matrix [...]`: the results matrix of every listed implementation, with
//!   cross-reading, in `target/matrix/`; fails on an unexpected failure, a stale
//!   expected failure or a cross-reading difference.
//! * `load [--quick]`: a load test of `bloomproof adapter` and `bloomproof explore` on
//!   loopback, bounded in count and time: p50/p99 latency and peak memory.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod bench;
mod ci;
mod e2e;
mod fuzz;
mod gallery;
mod load;
mod matrix;
mod mutants;
mod vectors;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  conformance [--spec DIR] [--vectors DIR] [--format text|json] [--impl CMD] [--timeout SECS] [--seed N] [--random N] [--accumulated-full] [--no-times] [FILTER]
                                              run every documented check of spec/, in process
                                              or against an adapter command (spec/ADAPTER.md);
                                              --accumulated-full: the accumulated digests at
                                              their full count, not the checkpoint;
                                              --no-times: no times in the report
  schemas [--check]                           write spec/schemas/, vectors/check/ and crates/*/data/ schemas from the Rust types
  vectors [--check]                           write vectors/ (generated, oracle-verified) or check them
  fuzz <TARGET> [--seconds N] | --list        fuzz a target of fuzz/ (nightly and cargo-fuzz)
  mutants [--runner] [CARGO-MUTANTS ARGS]     mutation-test protocol, filter, session (--runner: the
                                              conformance runner's logic); fails if any is missed
  gallery [FILTER]                            planted bugs and lying adapters vs the suite; fails if any survives
  e2e                                         the explorer page in a real browser (installs what is missing)
  matrix [--implementations FILE] [--session-from NAME=FILE]... [--timeout SECS] [--no-browser]
                                              the suite against every implementation of
                                              vectors/check/implementations.json, cross-reading
                                              among them; writes target/matrix/ and tests the page
  bench [--quick|--record]                    run the benchmarks once; print each figure, ratio and goal (--record: into BENCHMARKS.md, quiet machine only)
  load [--quick]                              load-test `bloomproof adapter` and `explore` on loopback:
                                              p50/p99 latency, peak memory (BENCHMARKS.md)
  ci                                          run every test, lint and freshness check";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((task, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match task.as_str() {
        "conformance" => return conformance(rest),
        "schemas" => schemas(rest),
        "bench" => bench::run(rest),
        "load" => load::run(rest),
        "ci" => ci::run(rest),
        "e2e" => e2e::run(rest),
        "fuzz" => fuzz::run(rest),
        "vectors" => vectors::run(rest),
        "mutants" => mutants::run(rest),
        "gallery" => gallery::run(rest),
        "matrix" => matrix::run(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown task {other:?}\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo xtask conformance [ARGS]`: `bloomproof conformance ARGS`, the binary built first
/// (quietly), on this checkout's `spec/` unless ARGS name a `--spec`. The flags, the
/// report and the exit code are the binary's own (its clap definition,
/// `bloomproof::front`): nothing is parsed here.
fn conformance(args: &[String]) -> ExitCode {
    let root = root();
    match Command::new("cargo")
        .args(["build", "-q", "-p", "bloomproof", "--locked"])
        .current_dir(&root)
        .status()
    {
        Ok(status) if status.success() => {}
        Ok(status) => {
            eprintln!("error: cargo build -p bloomproof failed ({status})");
            return ExitCode::from(2);
        }
        Err(err) => {
            eprintln!("error: cannot run cargo build: {err}");
            return ExitCode::from(2);
        }
    }
    let binary = gallery::target_dir(&root).join("debug").join("bloomproof");
    let mut command = Command::new(&binary);
    command.arg("conformance");
    // Flags come before a `--`; after it, everything is the FILTER.
    let flags: Vec<&String> = args.iter().take_while(|arg| arg.as_str() != "--").collect();
    let given = |flag: &str| {
        flags
            .iter()
            .any(|arg| *arg == flag || arg.starts_with(&format!("{flag}=")))
    };
    if !given("--spec") {
        command.arg("--spec").arg(root.join("spec"));
    }
    // This checkout's vector files run as checks too, unless ARGS name others.
    if !given("--vectors") {
        command.arg("--vectors").arg(root.join("vectors"));
    }
    match command.args(args).status() {
        Ok(status) => ExitCode::from(
            status
                .code()
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(1),
        ),
        Err(err) => {
            eprintln!("error: cannot run {}: {err}", binary.display());
            ExitCode::from(2)
        }
    }
}

/// The schemas of the data files the crates read (not published: they describe the
/// inputs the generator and the cross-reading expand), each beside its file.
fn data_schemas() -> Vec<(&'static str, String)> {
    use bloomproof_conformance::schemas::render;
    use bloomproof_format::{cross::SessionsFile, hand_picked};
    vec![
        (
            "crates/vectors-generate/data/doc-membership-v1.hand-picked.schema.json",
            render::<hand_picked::doc::HandPickedFile>(
                "bloomproof hand-picked doc-membership-v1 vector cases (crates/vectors-generate/data/doc-membership-v1.hand-picked.json)",
            ),
        ),
        (
            "crates/vectors-generate/data/fnv1a-utf16-v1.hand-picked.schema.json",
            render::<hand_picked::fnv::HandPickedFile>(
                "bloomproof hand-picked fnv1a-utf16-v1 vector inputs (crates/vectors-generate/data/fnv1a-utf16-v1.hand-picked.json)",
            ),
        ),
        (
            "crates/conformance/data/cross-sessions.schema.json",
            render::<SessionsFile>(
                "bloomproof cross-reading session scripts (crates/conformance/data/cross-sessions.json)",
            ),
        ),
    ]
}

fn schemas(args: &[String]) -> Result<(), String> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        other => return Err(format!("schemas takes only --check, got {other:?}")),
    };
    let spec_schemas = root().join("spec/schemas");
    let files = bloomproof_conformance::schemas::all()
        .into_iter()
        .map(|(name, text)| (spec_schemas.join(name), text))
        .chain(
            bloomproof_matrix::judge::schemas()
                .into_iter()
                .map(|(name, text)| (spec_schemas.join(name), text)),
        )
        .chain(
            data_schemas()
                .into_iter()
                .map(|(path, text)| (root().join(path), text)),
        );
    let mut stale = Vec::new();
    for (path, text) in files {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            continue;
        }
        if check {
            stale.push(path.display().to_string());
        } else {
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "stale schemas: {}\nrun `cargo xtask schemas` and commit",
            stale.join(", ")
        ))
    }
}
