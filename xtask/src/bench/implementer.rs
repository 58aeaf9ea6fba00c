//! The implementer's runs (issue 40): the suite through `bloomproof adapter` against
//! the suite in process, and the README's beginner's skeleton run whole.
//!
//! * `adapter_suite_vs_in_process`: whole processes of the release `bloomproof
//!   conformance --spec spec --seed 1`, with `--impl '<binary> adapter'` and without,
//!   in pairs after one of each to warm up; the median of the pairs' ratios, goal 2x.
//! * `skeleton_whole_run`: the README's adapter skeleton ("Zero to green", the block
//!   `crates/cli/tests/readme_skeleton.rs` runs), written to a file as printed and run
//!   whole (`bloomproof conformance --impl 'python3 <file>'`: most checks fail, it
//!   crashes on lines it cannot read and is started again): seconds, median of the
//!   runs, goal 10 s.

use super::measure::{median, timed};
use std::path::Path;
use std::process::Command;

/// The goal of the suite through `bloomproof adapter` against in process.
pub const ADAPTER_VS_IN_PROCESS_MAX: f64 = 2.0;

/// The goal of the skeleton's whole run, in seconds.
pub const SKELETON_MAX_S: f64 = 10.0;

/// The README's marker before the skeleton's block.
const SKELETON_MARKER: &str =
    "<!-- skeleton: crates/cli/tests/readme_skeleton.rs runs this block -->\n```python\n";

/// What was measured.
pub struct Implementer {
    /// Median seconds of each whole process, and the median of the pairs' ratios.
    pub through_adapter_s: f64,
    pub in_process_s: f64,
    pub ratio: f64,
    pub pairs: usize,
    /// Median seconds of the skeleton's whole run, and the runs taken.
    pub skeleton_s: Result<f64, String>,
    pub skeleton_runs: usize,
}

/// `bloomproof conformance --spec spec --seed 1`, with `impl_command` when given.
fn conformance(root: &Path, binary: &Path, impl_command: Option<&str>) -> Command {
    let mut command = Command::new(binary);
    command
        .args(["conformance", "--spec", "spec", "--seed", "1"])
        .current_dir(root);
    if let Some(adapter) = impl_command {
        command.args(["--impl", adapter]);
    }
    command
}

/// The README's skeleton, as printed.
fn skeleton(root: &Path) -> Result<String, String> {
    let path = root.join("README.md");
    let readme =
        std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let start = readme
        .find(SKELETON_MARKER)
        .ok_or("README.md holds no skeleton block")?
        + SKELETON_MARKER.len();
    let rest = readme.get(start..).unwrap_or_default();
    let end = rest
        .find("```\n")
        .ok_or("the skeleton's block has no end")?;
    Ok(rest.get(..end).unwrap_or_default().to_string())
}

/// One whole run of the skeleton: seconds (it exits 1: most checks fail).
fn skeleton_run(root: &Path, binary: &Path, script: &Path) -> Result<f64, String> {
    let adapter = format!("python3 '{}'", script.display());
    let started = std::time::Instant::now();
    let output = conformance(root, binary, Some(&adapter))
        .output()
        .map_err(|err| format!("{}: {err}", binary.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    match output.status.code() {
        Some(1) => Ok(seconds),
        other => Err(format!(
            "the skeleton's run exited with {other:?}, not 1 (checks ran, most failed): {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )),
    }
}

/// Measures both, `runs` pairs and `runs` skeleton runs (at least one each).
pub fn measure(
    root: &Path,
    binary: &Path,
    target: &Path,
    runs: usize,
) -> Result<Implementer, String> {
    let adapter = format!("'{}' adapter", binary.display());
    println!(
        "==> {} conformance in process and through `bloomproof adapter`, {runs} pairs",
        binary.display()
    );
    timed(&mut conformance(root, binary, None), None)?;
    timed(&mut conformance(root, binary, Some(&adapter)), None)?;
    let (mut through, mut inside, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        let wire = timed(&mut conformance(root, binary, Some(&adapter)), None)?;
        let local = timed(&mut conformance(root, binary, None), None)?;
        ratios.push(wire / local);
        through.push(wire);
        inside.push(local);
    }
    let dir = target.join("bench");
    std::fs::create_dir_all(&dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    let script = dir.join("readme_skeleton.py");
    let skeleton_s = skeleton(root).and_then(|text| {
        std::fs::write(&script, text).map_err(|err| format!("{}: {err}", script.display()))?;
        println!("==> the README's skeleton, whole run, {} runs", runs.max(1));
        let mut seconds = Vec::new();
        for _ in 0..runs.max(1) {
            seconds.push(skeleton_run(root, binary, &script)?);
        }
        Ok(median(&mut seconds))
    });
    Ok(Implementer {
        through_adapter_s: median(&mut through),
        in_process_s: median(&mut inside),
        ratio: median(&mut ratios),
        pairs: ratios.len(),
        skeleton_s,
        skeleton_runs: runs.max(1),
    })
}
