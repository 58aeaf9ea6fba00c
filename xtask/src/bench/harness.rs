//! The harness's share of the suite through the Python and JavaScript adapters
//! (`python_harness_share`, `js_harness_share`; issue 28 item 2).
//!
//! For each implementation: one run of the suite's protocol checks (every check but
//! the adapter protocol's own: filter `-v1/`) through its adapter with a `tee` on each
//! side records every request line the runner sent and every answer line, one pair of
//! files per adapter process (the runner starts two when its checks fork: their lines
//! interleave, so the replay pairs each process's answers with its own requests); then, in
//! pairs, the same run through the adapter alone (`bloomproof conformance --impl`,
//! release, the whole process's wall time) and the implementation's own replay of the
//! recorded requests in one process (`crates/bench/python/adapter_replay.py`,
//! `crates/bench/js/adapter_replay.mjs`: the adapter's own line handler, no pipe, each
//! answer checked against the recorded one), each pair's share
//! `1 - replay / through the adapter`. Beside each pair, the whole run (the protocol
//! checks and the adapter protocol's own, as an implementer runs it) against the
//! protocol checks alone (`{name}_whole_run_vs_protocol_checks`, issue 40's goal
//! 1.3x); the adapter protocol's own checks are also timed apart, as whole processes.

use super::measure::{median, number, timed};
use crate::process;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The goal of every harness share: at most half of the wall time through the adapter
/// is the harness's (issue 28 item 2).
pub const HARNESS_SHARE_MAX: f64 = 0.5;

/// The seed of the generated checks' inputs in every run here, so that each run sends
/// the requests recorded.
const SEED: &str = "1";
/// The filter of the protocol checks (both protocols' names end in `-v1`); the adapter
/// protocol's own checks are named `adapter-protocol/...`.
const PROTOCOL_CHECKS: &str = "-v1/";
const WIRE_CHECKS: &str = "adapter-protocol/";

/// The goal of the whole `--impl` run against the protocol checks alone: the adapter
/// protocol's own checks add at most 30 % (issue 40).
pub const WHOLE_RUN_MAX: f64 = 1.3;

/// An implementation measured behind its adapter.
pub struct Harnessed {
    /// The figure's prefix: `python`, `js`.
    pub name: &'static str,
    /// The adapter's command, run by `sh` from the repository's root.
    pub adapter: &'static str,
    /// The replay's program and the arguments before the two files.
    pub replay: &'static [&'static str],
}

/// The implementations measured.
pub const HARNESSED: [Harnessed; 2] = [
    Harnessed {
        name: "python",
        adapter: "python3 implementations/python/bloomproof_py/adapter.py",
        replay: &["python3", "crates/bench/python/adapter_replay.py"],
    },
    Harnessed {
        name: "js",
        adapter: "node implementations/js/adapter.mjs",
        replay: &[
            "node",
            "crates/bench/js/adapter_replay.mjs",
            "implementations/js/adapter.mjs",
        ],
    },
];

/// What one implementation measured: medians over the pairs.
pub struct Share {
    /// Request lines the runner sent in the recorded run, answers received.
    pub requests: usize,
    pub answers: usize,
    /// Seconds of the whole `bloomproof conformance --impl` process (protocol checks).
    pub through_adapter_s: f64,
    /// Milliseconds of the replay's handler calls, wall and CPU.
    pub replay_ms: f64,
    pub replay_cpu_ms: f64,
    /// The median of the pairs' shares.
    pub share: f64,
    /// Pairs taken.
    pub runs: usize,
    /// Seconds of the whole process running the adapter protocol's own checks.
    pub wire_s: f64,
    /// Seconds of the whole run (every check, no filter), and the median of its
    /// ratios to the protocol checks' run of the same pair.
    pub whole_s: f64,
    pub whole_ratio: f64,
}

/// Quotes `text` for `sh`.
fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// `bloomproof conformance` through `adapter` on the checks `filter` selects (every
/// check when `None`).
fn conformance(root: &Path, binary: &Path, adapter: &str, filter: Option<&str>) -> Command {
    let mut command = Command::new(binary);
    command
        .args(["conformance", "--spec", "spec", "--seed", SEED, "--impl"])
        .arg(adapter)
        .current_dir(root);
    if let Some(filter) = filter {
        command.args(["--", filter]);
    }
    command
}

/// Measures `subject`: one recorded run, then `runs` pairs.
pub fn measure(
    root: &Path,
    binary: &Path,
    target: &Path,
    subject: &Harnessed,
    runs: usize,
) -> Result<Share, String> {
    let dir = target.join("bench");
    std::fs::create_dir_all(&dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    // One pair of logs per adapter process (`$$`, the pid of the `sh` that runs it):
    // the runner starts a second process for the checks that fork, and a restart
    // starts another, and their lines must not mix.
    let prefix = |side: &str| format!("{}_{side}.", subject.name);
    let logs = |dir: &Path| -> Result<Vec<(PathBuf, PathBuf)>, String> {
        let mut pairs = Vec::new();
        let entries = std::fs::read_dir(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(pid) = name
                .strip_prefix(&prefix("requests"))
                .and_then(|rest| rest.strip_suffix(".jsonl"))
            {
                pairs.push((
                    entry.path(),
                    dir.join(format!("{}{pid}.jsonl", prefix("answers"))),
                ));
            }
        }
        pairs.sort();
        Ok(pairs)
    };
    for (requests, answers) in logs(&dir)? {
        let _ = std::fs::remove_file(requests);
        let _ = std::fs::remove_file(answers);
    }
    let log = |side: &str| sh_quote(&dir.join(prefix(side)).to_string_lossy()) + "\"$$\".jsonl";
    let recorded = format!(
        "tee {} | {} | tee {}",
        log("requests"),
        subject.adapter,
        log("answers")
    );
    println!(
        "==> {} conformance through {} ({PROTOCOL_CHECKS}), recorded, then {runs} pairs with its replay",
        binary.display(),
        subject.adapter
    );
    timed(
        &mut conformance(root, binary, &recorded, Some(PROTOCOL_CHECKS)),
        None,
    )?;
    let pairs = logs(&dir)?;
    if pairs.is_empty() {
        return Err(format!(
            "the recorded run left no logs in {}",
            dir.display()
        ));
    }
    let replay = || {
        let mut command = Command::new(subject.replay[0]);
        command.args(&subject.replay[1..]).current_dir(root);
        for (requests, answers) in &pairs {
            command.arg(requests).arg(answers);
        }
        command
    };
    // One replay before the pairs: it checks every answer, and warms the caches as the
    // recorded run warmed the adapter's.
    let first = super::key_values(&process::stdout(&mut replay())?);
    let count = |key: &str| -> Result<usize, String> {
        first
            .get(key)
            .and_then(|value| value.parse().ok())
            .ok_or_else(|| format!("the replay printed no {key}"))
    };
    let (sent, answered) = (count("replay_requests")?, count("replay_answers")?);
    let (mut walls, mut replays, mut cpus, mut shares) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut wholes, mut whole_ratios) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        let wall = timed(
            &mut conformance(root, binary, subject.adapter, Some(PROTOCOL_CHECKS)),
            None,
        )?;
        // The whole run exits 0 on an implementation that passes every check.
        let whole = timed(&mut conformance(root, binary, subject.adapter, None), None)?;
        whole_ratios.push(whole / wall);
        wholes.push(whole);
        let replayed: BTreeMap<String, String> =
            super::key_values(&process::stdout(&mut replay())?);
        let ms = number(&replayed, "replay_ms")?;
        cpus.push(number(&replayed, "replay_cpu_ms")?);
        shares.push(1.0 - ms / 1e3 / wall);
        walls.push(wall);
        replays.push(ms);
    }
    let wire_s = timed(
        &mut conformance(root, binary, subject.adapter, Some(WIRE_CHECKS)),
        None,
    )?;
    Ok(Share {
        requests: sent,
        answers: answered,
        through_adapter_s: median(&mut walls),
        replay_ms: median(&mut replays),
        replay_cpu_ms: median(&mut cpus),
        share: median(&mut shares),
        runs: shares.len(),
        wire_s,
        whole_s: median(&mut wholes),
        whole_ratio: median(&mut whole_ratios),
    })
}
