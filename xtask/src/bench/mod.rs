//! `cargo xtask bench [--quick | --record]`: runs every benchmark of `crates/bench`
//! once and prints each figure and each ratio with its goal, PASS or MISS, with the
//! 1-minute load average at the start and at the end and the commit. `--record` (a
//! full run) refuses to start when the load average is 1 or more, and writes the
//! report into BENCHMARKS.md between its record markers, as the run of record.
//!
//! Steps, all in one run so that every ratio compares figures measured together:
//!
//! 1. `cargo bench -p bloomproof-bench --features criterion --bench hot_paths` (criterion); the figures
//!    are the medians of criterion's `target/criterion/<group>/<bench>/new/estimates.json`.
//! 2. `bloomproof-bench-probe suite`: the whole in-process conformance suite in a
//!    child process (wall time, peak resident memory); `snapshot`: the bytes a
//!    snapshot holds beyond its documents; `fnv-input`: the fnv strings and Rust's
//!    answers for Node.
//! 3. `node crates/bench/js/fnv_timing.mjs`: the JavaScript implementation on the same
//!    strings, its answers checked against Rust's first.
//! 4. The seed's Python self-check (the program of the source document seed 000, which
//!    this project does not carry: the file `$BLOOMPROOF_SEED_000` names; written to
//!    `target/bench/seed_000_self_check.py`) and `bloomproof conformance`
//!    (release build), as whole processes, in pairs.
//! 5. `bloomproof-bench-probe runner`: the whole suite through `bloomproof adapter`
//!    (release build), and the runner process's own CPU time per request sent.
//! 6. The suite through the Python and JavaScript adapters beside each
//!    implementation's own replay of the same requests in one process: the harness's
//!    share (`harness.rs`), and the whole run (every check) against the protocol
//!    checks alone.
//! 7. The implementer's runs (`implementer.rs`): the suite through `bloomproof
//!    adapter` against in process, whole processes in pairs; the README's adapter
//!    skeleton run whole.
//!
//! `measure.rs` reads what the steps print (the probe's `key=value` lines, criterion's
//! estimates, Node's timing, the seed's Python in pairs); `report.rs` turns it into
//! figures with their goals. Goals are checked there, never in tests: timings vary from
//! machine to machine.

mod harness;
mod implementer;
mod measure;
mod report;

use crate::process;
use measure::{Estimates, key_values, node_timing, seed_python_vs_conformance};
use report::Report;
use std::collections::BTreeMap;
use std::process::Command;

/// The markers of the run-of-record section in BENCHMARKS.md, which `--record` rewrites.
const RECORD_START: &str = "<!-- bench:record:start (written by `cargo xtask bench --record`) -->";

const RECORD_END: &str = "<!-- bench:record:end -->";

/// The 1-minute load average at or above which a run is not a run of record.
const RECORD_LOAD_MAX: f64 = 1.0;

/// How the benchmarks are run.
#[derive(Debug, PartialEq)]
enum Mode {
    /// Criterion's defaults.
    Full,
    /// Fewer, shorter samples.
    Quick,
    /// A full run whose report replaces the run of record in BENCHMARKS.md.
    Record,
}

/// The mode of `--quick` and `--record`, which exclude each other.
fn mode(quick: bool, record: bool) -> Result<Mode, String> {
    match (quick, record) {
        (false, false) => Ok(Mode::Full),
        (true, false) => Ok(Mode::Quick),
        (false, true) => Ok(Mode::Record),
        (true, true) => {
            Err("bench takes --quick or --record, not both: a run of record is a full run".into())
        }
    }
}

/// The 1-minute load average (`/proc/loadavg`), where the system tells it.
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// The load average as a run states it.
fn shown_load(load: Option<f64>) -> String {
    load.map_or_else(|| "unknown".to_string(), |load| format!("{load:.2}"))
}

/// `text` (BENCHMARKS.md) with what lies between the record markers replaced by
/// `section`; an error when the markers are missing or out of order.
fn replace_record(text: &str, section: &str) -> Result<String, String> {
    let start = text
        .find(RECORD_START)
        .ok_or_else(|| format!("BENCHMARKS.md has no line {RECORD_START}"))?;
    let after_start = start + RECORD_START.len();
    let end = text[after_start..]
        .find(RECORD_END)
        .map(|at| after_start + at)
        .ok_or_else(|| format!("BENCHMARKS.md has no line {RECORD_END} after {RECORD_START}"))?;
    Ok(format!(
        "{}\n{}\n{}",
        &text[..after_start],
        section.trim_end(),
        &text[end..]
    ))
}

/// Runs the benchmarks and prints the report; with `--record`, on a quiet machine
/// only, writes it into BENCHMARKS.md as the run of record.
pub fn run(quick: bool, record: bool) -> Result<(), String> {
    let mode = mode(quick, record)?;
    let quick = mode == Mode::Quick;
    let root = super::root();
    let load_at_start = load_average();
    let started_at = process::text(&root, "date", &["-u", "+%Y-%m-%d %H:%M UTC"]);
    if mode == Mode::Record && load_at_start.is_none_or(|load| load >= RECORD_LOAD_MAX) {
        return Err(format!(
            "not a run of record: the 1-minute load average is {} (a record needs it under {RECORD_LOAD_MAX}); run `cargo xtask bench` for figures, or wait for a quiet machine",
            shown_load(load_at_start)
        ));
    }
    let target = process::target_dir(&root);

    let mut criterion_args = vec![
        "bench",
        "-p",
        "bloomproof-bench",
        "--features",
        "criterion",
        "--bench",
        "hot_paths",
    ];
    criterion_args.push("--");
    if quick {
        criterion_args.extend([
            "--warm-up-time",
            "0.5",
            "--measurement-time",
            "1",
            "--sample-size",
            "20",
            "--nresamples",
            "10000",
        ]);
    }
    println!("==> cargo {}", criterion_args.join(" "));
    process::run(
        Command::new("cargo")
            .args(&criterion_args)
            .current_dir(&root),
    )?;

    let probe = |args: &[&str]| -> Result<BTreeMap<String, String>, String> {
        let mut command = Command::new("cargo");
        command
            .args(["run", "-q", "--profile", "bench", "-p", "bloomproof-bench"])
            .args(["--bin", "bloomproof-bench-probe", "--"])
            .args(args)
            .current_dir(&root);
        println!("==> bloomproof-bench-probe {}", args.join(" "));
        Ok(key_values(&process::stdout(&mut command)?))
    };
    let spec = root.join("spec");
    let suite = probe(&[
        "suite",
        &spec.to_string_lossy(),
        if quick { "3" } else { "7" },
    ])?;
    let snapshot = probe(&["snapshot"])?;
    let fnv_input = target.join("bench").join("fnv_input.json");
    let fnv = probe(&["fnv-input", &fnv_input.to_string_lossy()])?;
    let js = node_timing(&root, &fnv_input, quick);
    let binary = process::build_bloomproof(&root, true)?;
    let seed = seed_python_vs_conformance(&root, &binary, &target, if quick { 5 } else { 15 });
    let runner = probe(&[
        "runner",
        &spec.to_string_lossy(),
        if quick { "3" } else { "7" },
        &binary.to_string_lossy(),
    ])?;
    let shares: Vec<_> = harness::HARNESSED
        .iter()
        .map(|subject| {
            let measured =
                harness::measure(&root, &binary, &target, subject, if quick { 3 } else { 7 });
            (subject.name, measured)
        })
        .collect();

    let implementer = implementer::measure(&root, &binary, &target, if quick { 3 } else { 7 });

    let estimates = Estimates {
        dir: target.join("criterion"),
    };
    let mut report = Report::default();
    report.machine(&root);
    report.doc_lookup(&estimates)?;
    report.doc_build(&estimates)?;
    let parallel_min = snapshot
        .get("batch_parallel_min")
        .and_then(|value| value.parse().ok())
        .ok_or("probe printed no batch_parallel_min")?;
    report.batch(&estimates, parallel_min)?;
    report.fnv(&estimates, &fnv, js)?;
    report.suite(&suite)?;
    report.seed_python(seed);
    report.runner(&runner)?;
    for (name, share) in shares {
        report.harness_share(name, share);
    }
    report.implementer(implementer);
    report.snapshot(&snapshot)?;
    let rendered = report.render();
    let load_at_end = load_average();
    let commit = process::text(&root, "git", &["rev-parse", "--short", "HEAD"]);
    let dirty = !process::text(
        &root,
        "git",
        &["status", "--porcelain", "--untracked-files=no"],
    )
    .is_empty();
    let ended_at = process::text(&root, "date", &["-u", "+%H:%M UTC"]);
    let header = format!(
        "`cargo xtask bench{}`, {started_at} to {ended_at}, 1-minute load average {} at the start and {} at the end (the run's own load raises it), commit {commit}{}",
        match mode {
            Mode::Full => "",
            Mode::Quick => " --quick",
            Mode::Record => " --record",
        },
        shown_load(load_at_start),
        shown_load(load_at_end),
        if dirty {
            " with uncommitted changes"
        } else {
            ""
        },
    );
    println!("{header}\n{rendered}");
    if mode == Mode::Record {
        let path = root.join("BENCHMARKS.md");
        let text =
            std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        let section = format!("{header}:\n\n```text\n{}\n```\n", rendered.trim());
        let updated = replace_record(&text, &section)?;
        std::fs::write(&path, updated).map_err(|err| format!("{}: {err}", path.display()))?;
        println!("wrote the run of record into {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_mode() {
        assert_eq!(mode(false, false), Ok(Mode::Full));
        assert_eq!(mode(true, false), Ok(Mode::Quick));
        assert_eq!(mode(false, true), Ok(Mode::Record));
        assert!(mode(true, true).is_err());
    }

    #[test]
    fn the_record_replaces_only_what_lies_between_its_markers() {
        let text = format!("# B\n\nbefore\n{RECORD_START}\nold run\nmore\n{RECORD_END}\nafter\n");
        assert_eq!(
            replace_record(&text, "new run\n").unwrap(),
            format!("# B\n\nbefore\n{RECORD_START}\nnew run\n{RECORD_END}\nafter\n")
        );
        assert!(replace_record("no markers", "x").is_err());
        assert!(replace_record(&format!("{RECORD_END}\n{RECORD_START}\n"), "x").is_err());
    }
}
