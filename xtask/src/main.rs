//! `cargo xtask <task>`: project automation.
//!
//! * `conformance [ARGS]`: every documented check, as `bloomproof conformance --spec spec/ ARGS`.
//! * `schemas [--check]`: write `spec/schemas/*.json`
//!   and the data files' schemas (`crates/*/data/*.schema.json`) from the Rust types,
//!   or fail when they are stale.
//! * `ci`: every test, lint and freshness check, in the order CI runs them.
//! * `gallery [python|js|faithful] [FILTER]`: every planted bug and lying adapter of
//!   `gallery/*/bugs.json` against the suite (fails when one survives), and every
//!   faithful variant of `gallery/python/faithful.json` (fails when one fails a core
//!   check or does not fail exactly the interop checks it lists).
//! * `matrix [...]`: the results matrix of every listed implementation, with
//!   cross-reading, in `target/matrix/`; fails on an unexpected failure, a stale
//!   expected failure or a cross-reading difference.
//! * `load [--quick]`: a load test of `bloomproof adapter` and `bloomproof explore` on
//!   loopback, bounded in count and time: p50/p99 latency and peak memory.

use clap::{Parser, Subcommand};
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
mod packages;
mod process;
mod vectors;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Project automation for bloomproof: `cargo xtask <TASK>`.
#[derive(Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "Project automation for bloomproof: tests, freshness checks, galleries, matrix, benchmarks."
)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Every documented check of spec/, in process or against an adapter command
    /// (spec/ADAPTER.md): `bloomproof conformance ARGS` on this checkout's spec/ and
    /// vectors/ (`cargo xtask conformance --help` prints the binary's flags)
    #[command(disable_help_flag = true)]
    Conformance {
        /// The binary's arguments, unchanged
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Write spec/schemas/ and crates/*/data/ schemas from the Rust types
    Schemas {
        /// Fail when one is stale instead of writing it
        #[arg(long)]
        check: bool,
    },
    /// Write vectors/ (computed by production, verified against the oracle)
    Vectors {
        /// Fail when a file is stale instead of writing it
        #[arg(long)]
        check: bool,
    },
    /// Fuzz a target of fuzz/ (nightly and cargo-fuzz)
    Fuzz {
        /// The target (`--list` names them)
        target: Option<String>,
        /// How long to fuzz, in seconds [default: 60]
        #[arg(long)]
        seconds: Option<u64>,
        /// List the targets
        #[arg(long)]
        list: bool,
    },
    /// Mutation-test protocol, filter, session (or the conformance runner); fails if any
    /// mutant is missed
    #[command(after_help = mutants::ABOUT)]
    Mutants {
        /// Mutate the conformance runner's logic instead of the core
        #[arg(long)]
        runner: bool,
        /// Arguments for cargo-mutants (after `--`)
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Planted bugs and lying adapters vs the suite (gallery/); fails if any survives
    Gallery {
        /// The whole suite for every entry, listing every check that catches it
        /// (default: each group of checks in turn until one catches it)
        #[arg(long)]
        every_check: bool,
        /// The seed of every run's generated inputs (0 to 2^53 - 1), to replay a
        /// gallery run [default: a fresh one, printed first]
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..1 << 53))]
        seed: Option<u64>,
        /// Sweep every entry caught by generated inputs alone over N seeds (the run's
        /// own first, the others derived from it and printed): an entry that passes at
        /// any of them fails the gallery (bug galleries only)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10000))]
        seeds: Option<u32>,
        /// `python`, `js` or `faithful` (default: all three), then a FILTER: only the
        /// entries whose id contains it
        #[arg(num_args = 0..=2, value_name = "[python|js|faithful] [FILTER]")]
        words: Vec<String>,
    },
    /// The explorer page in a real browser (installs what is missing)
    E2e,
    /// The suite against every implementation of implementations/matrix.json,
    /// cross-reading among them; writes target/matrix/ and tests the page
    Matrix {
        /// The implementations file
        #[arg(long, value_name = "FILE")]
        implementations: Option<PathBuf>,
        /// An extra session producer: NAME=FILE (a file of `{"export", "view"}`)
        #[arg(long, value_name = "NAME=FILE", value_parser = matrix::session_from)]
        session_from: Vec<(String, PathBuf)>,
        /// Seconds an adapter has per request
        #[arg(long, value_name = "SECS", value_parser = matrix::timeout)]
        timeout: Option<std::time::Duration>,
        /// Leave out the page test in Chromium
        #[arg(long)]
        no_browser: bool,
    },
    /// The Python and JavaScript implementations installed from this checkout (pip into a
    /// fresh venv, npm into a fresh project) and tested as installed
    Packages {
        /// Only this one
        #[arg(value_parser = ["python", "js"])]
        which: Option<String>,
    },
    /// Run the benchmarks once; print each figure, ratio and goal, with the load and the
    /// commit
    Bench {
        /// Fewer samples
        #[arg(long)]
        quick: bool,
        /// A full run written into BENCHMARKS.md as the run of record; refused at a
        /// 1-minute load average of 1 or more
        #[arg(long, conflicts_with = "quick")]
        record: bool,
    },
    /// Load-test `bloomproof adapter` and `explore` on loopback: p50/p99 latency, peak
    /// memory (BENCHMARKS.md)
    Load {
        /// A shorter plan
        #[arg(long)]
        quick: bool,
    },
    /// Every test, lint and freshness check, in the order CI runs them
    Ci,
}

fn main() -> ExitCode {
    let task = match Cli::try_parse() {
        Ok(cli) => cli.task,
        Err(error) => {
            let code = if error.use_stderr() { 2 } else { 0 };
            let _ = error.print();
            return ExitCode::from(code);
        }
    };
    let result = match task {
        Task::Conformance { args } => return conformance(&args),
        Task::Schemas { check } => schemas(check),
        Task::Vectors { check } => vectors::run(check),
        Task::Fuzz {
            target,
            seconds,
            list,
        } => fuzz::run(target, seconds, list),
        Task::Mutants { runner, args } => mutants::run(runner, &args),
        Task::Gallery {
            every_check,
            seed,
            seeds,
            words,
        } => gallery::run(every_check, seed, seeds, &words),
        Task::E2e => e2e::run(),
        Task::Matrix {
            implementations,
            session_from,
            timeout,
            no_browser,
        } => matrix::run(matrix::Options {
            implementations: implementations
                .unwrap_or_else(|| root().join(matrix::IMPLEMENTATIONS)),
            sessions: session_from,
            timeout: timeout.unwrap_or(bloomproof_conformance::adapter::DEFAULT_TIMEOUT),
            browser: !no_browser,
        }),
        Task::Packages { which } => packages::run(which.as_deref()),
        Task::Bench { quick, record } => bench::run(quick, record),
        Task::Load { quick } => load::run(quick),
        Task::Ci => ci::run(),
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
/// (cargo's progress and lock waits shown on stderr: a cold build takes minutes), on this
/// checkout's `spec/` unless ARGS name a `--spec`. The flags, the report and the exit
/// code are the binary's own (its clap definition, `bloomproof::front`): nothing is
/// parsed here.
fn conformance(args: &[String]) -> ExitCode {
    let root = root();
    match Command::new("cargo")
        .args(["build", "-p", "bloomproof", "--locked"])
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
    let binary = process::target_dir(&root).join("debug").join("bloomproof");
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
/// The schemas of the tools' data files: each registered protocol's hand-picked vector
/// data, and the matrix's cross-reading scripts.
fn data_schemas() -> Vec<(String, String)> {
    use bloomproof_conformance::schemas::render;
    use bloomproof_wire::cross::SessionsFile;
    let mut out = bloomproof_vectors_writer::schemas::hand_picked();
    out.push((
        "crates/matrix/data/cross-sessions.schema.json".to_owned(),
        render::<SessionsFile>(
            "bloomproof cross-reading session scripts (crates/matrix/data/cross-sessions.json)",
        ),
    ));
    out
}

fn schemas(check: bool) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Task, clap::Error> {
        Cli::try_parse_from(std::iter::once("cargo xtask").chain(line.split_whitespace()))
            .map(|cli| cli.task)
    }

    #[test]
    fn every_task_answers_help_with_success() {
        for task in [
            "schemas", "vectors", "fuzz", "mutants", "gallery", "e2e", "matrix", "packages",
            "bench", "load", "ci",
        ] {
            let error = parse(&format!("{task} --help")).err();
            assert!(
                error.as_ref().is_some_and(|e| !e.use_stderr()),
                "{task} --help: {error:?}"
            );
        }
        // conformance hands --help to the binary, which prints its own flags
        assert!(matches!(
            parse("conformance --help"),
            Ok(Task::Conformance { args }) if args == ["--help"]
        ));
    }

    #[test]
    fn matrix_arguments_are_read_strictly() {
        let Ok(Task::Matrix {
            session_from,
            no_browser,
            implementations,
            timeout,
        }) = parse("matrix --session-from page=/tmp/s.json --no-browser")
        else {
            panic!("valid arguments");
        };
        assert_eq!(
            session_from,
            [("page".to_string(), PathBuf::from("/tmp/s.json"))]
        );
        assert!(no_browser);
        assert!(implementations.is_none() && timeout.is_none());
        for bad in [
            "matrix --session-from page",
            "matrix --session-from =x",
            "matrix --implementations",
            "matrix --timeout 0",
            "matrix --what",
            "schemas --check --what",
            "gallery python doc extra",
            "packages ruby",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn mutants_arguments_after_the_separator_go_to_cargo_mutants() {
        assert!(matches!(
            parse("mutants --runner -- --list --jobs 2"),
            Ok(Task::Mutants { runner: true, args }) if args == ["--list", "--jobs", "2"]
        ));
    }
}
