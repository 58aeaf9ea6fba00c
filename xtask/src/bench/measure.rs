//! What the steps measure, and how their outputs are read: the probe's `key=value`
//! lines, criterion's estimates, Node's timing of the JavaScript implementation, and the
//! seed's Python self-check beside `bloomproof conformance` in pairs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The JavaScript implementation the ratio is taken against.
const JS_MODULE: &str = "implementations/js/fnv1a_utf16_v1.mjs";

/// `key=value` lines.
pub(super) fn key_values(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| line.split_once('='))
        .map(|(key, value)| (key.trim().to_string(), value.trim().to_string()))
        .collect()
}

pub(super) fn number(map: &BTreeMap<String, String>, key: &str) -> Result<f64, String> {
    map.get(key)
        .ok_or_else(|| format!("probe printed no {key}"))?
        .parse()
        .map_err(|err| format!("{key}: {err}"))
}

/// The JavaScript timing, or why it was skipped.
pub(super) fn node_timing(
    root: &Path,
    input: &Path,
    quick: bool,
) -> Result<BTreeMap<String, String>, String> {
    let module = root.join(JS_MODULE);
    if !module.exists() {
        return Err(format!("{JS_MODULE} missing"));
    }
    let script = root.join("crates/bench/js/fnv_timing.mjs");
    let mut command = Command::new("node");
    command
        .arg(&script)
        .arg(input)
        .arg(&module)
        .arg(if quick { "11" } else { "31" });
    println!("==> node {}", script.display());
    match command.output() {
        Err(err) => Err(format!("node could not start: {err}")),
        Ok(output) if !output.status.success() => Err(format!(
            "node failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )),
        Ok(output) => Ok(key_values(&String::from_utf8_lossy(&output.stdout))),
    }
}

/// The variable naming the file of the source document seed 000, whose Python
/// self-check the benchmark runs against `bloomproof conformance`.
const SEED_VARIABLE: &str = "BLOOMPROOF_SEED_000";

/// The start of the seed 000 program, as `implementations/python/tests/test_seed_self_check.py`
/// finds it.
const SEED_PROGRAM_START: &str = "\"\"\"Offline immutable byte-membership prefilter";

/// The line that runs the seed 000 program's self-check.
const SEED_PROGRAM_MAIN: &str = "if __name__ == '__main__':";

/// The Python program of seed 000 (the file `$BLOOMPROOF_SEED_000` names): from its
/// module docstring to the end of its `if __name__ == '__main__':` block.
fn seed_program(_root: &Path) -> Result<String, String> {
    let path = std::env::var_os(SEED_VARIABLE).map(PathBuf::from).ok_or_else(|| {
        format!("{SEED_VARIABLE} must name the file of the source document seed 000, whose self-check is measured")
    })?;
    let text = std::fs::read_to_string(&path)
        .map_err(|err| format!("{SEED_VARIABLE}={}: cannot read: {err}", path.display()))?;
    extract_program(&text).map_err(|why| format!("{}: {why}", path.display()))
}

/// The program in a seed document's text: from [`SEED_PROGRAM_START`] to the end of
/// the indented block under [`SEED_PROGRAM_MAIN`].
fn extract_program(text: &str) -> Result<String, String> {
    let start = text
        .find(SEED_PROGRAM_START)
        .ok_or_else(|| format!("no program starting {SEED_PROGRAM_START}"))?;
    let main = text[start..]
        .find(SEED_PROGRAM_MAIN)
        .map(|at| start + at)
        .ok_or_else(|| format!("no `{SEED_PROGRAM_MAIN}`"))?;
    // The main block: its line, then every indented line after it.
    let mut end = main;
    for line in text[main..].split_inclusive('\n') {
        if end > main && !line.starts_with([' ', '\t']) {
            break;
        }
        end += line.len();
    }
    Ok(text[start..end].to_string())
}

/// The whole-process time of one run of `command`, which must succeed (and print
/// `expect` on stdout, when given).
pub(super) fn timed(command: &mut Command, expect: Option<&str>) -> Result<f64, String> {
    let started = std::time::Instant::now();
    let output = command
        .output()
        .map_err(|err| format!("{command:?}: {err}"))?;
    let elapsed = started.elapsed().as_secs_f64();
    if !output.status.success() {
        return Err(format!("{command:?} failed: {}", output.status));
    }
    if let Some(expect) = expect
        && !String::from_utf8_lossy(&output.stdout).contains(expect)
    {
        return Err(format!("{command:?} did not print {expect:?}"));
    }
    Ok(elapsed)
}

/// The median of `values` (sorted here).
pub(super) fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The seed's Python self-check against `bloomproof conformance` (release build), as
/// whole processes: `runs` pairs, one of each, after one of each to warm up. Returns
/// the median seconds of each and the median of the pairs' ratios.
pub(super) fn seed_python_vs_conformance(
    root: &Path,
    binary: &Path,
    target: &Path,
    runs: usize,
) -> Result<(f64, f64, f64), String> {
    let program = seed_program(root)?;
    let dir = target.join("bench");
    std::fs::create_dir_all(&dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    let script = dir.join("seed_000_self_check.py");
    std::fs::write(&script, program).map_err(|err| format!("{}: {err}", script.display()))?;
    let python = || {
        let mut command = Command::new("python3");
        command.arg(&script).current_dir(root);
        command
    };
    let conformance = || {
        let mut command = Command::new(binary);
        command.arg("conformance").current_dir(root);
        command
    };
    println!(
        "==> python3 {} and {} conformance, {runs} pairs",
        script.display(),
        binary.display()
    );
    let all_passed = Some("\"all_passed\": true");
    timed(&mut python(), all_passed)?;
    timed(&mut conformance(), None)?;
    let (mut seeds, mut ours, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        let seed = timed(&mut python(), all_passed)?;
        let own = timed(&mut conformance(), None)?;
        seeds.push(seed);
        ours.push(own);
        ratios.push(seed / own);
    }
    Ok((median(&mut seeds), median(&mut ours), median(&mut ratios)))
}

/// Criterion's estimates.
pub(super) struct Estimates {
    pub(super) dir: PathBuf,
}

impl Estimates {
    /// The median time of one iteration of `group/bench`, in nanoseconds.
    pub(super) fn median_ns(&self, group: &str, bench: &str) -> Result<f64, String> {
        let path = self
            .dir
            .join(group)
            .join(bench)
            .join("new")
            .join("estimates.json");
        let text = std::fs::read_to_string(&path).map_err(|err| {
            format!(
                "{}: {err} (did `cargo bench -p bloomproof-bench --features criterion` run?)",
                path.display()
            )
        })?;
        point_estimate(&text, "median")
            .ok_or_else(|| format!("{}: no median point_estimate", path.display()))
    }
}

/// `estimates.json`'s `"<statistic>": {..., "point_estimate": X, ...}`.
fn point_estimate(json: &str, statistic: &str) -> Option<f64> {
    let value: serde_json::Value = serde_json::from_str(json).ok()?;
    value.get(statistic)?.get("point_estimate")?.as_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_criterion_point_estimates() {
        let json = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":3.0,"upper_bound":4.0},"point_estimate":3.25e2,"standard_error":0.2},"slope":null}"#;
        assert_eq!(point_estimate(json, "mean"), Some(1.5));
        assert_eq!(point_estimate(json, "median"), Some(325.0));
        assert_eq!(point_estimate(json, "std_dev"), None);
    }

    #[test]
    fn extracts_the_seed_program_to_the_end_of_its_main_block() {
        let text = "prose\n\"\"\"Offline immutable byte-membership prefilter.\"\"\"\nimport json\n\n\nif __name__ == '__main__':\n    print(1)\n\tprint(2)\nmore prose\n{\n";
        assert_eq!(
            extract_program(text).unwrap(),
            "\"\"\"Offline immutable byte-membership prefilter.\"\"\"\nimport json\n\n\nif __name__ == '__main__':\n    print(1)\n\tprint(2)\n"
        );
        assert!(extract_program("no program here").is_err());
        assert!(
            extract_program("\"\"\"Offline immutable byte-membership prefilter\"\"\"\n").is_err()
        );
    }

    #[test]
    fn reads_key_values() {
        let map = key_values("a=1\nnot a pair\n b = 2.5 \n");
        assert_eq!(number(&map, "a"), Ok(1.0));
        assert_eq!(number(&map, "b"), Ok(2.5));
        assert!(number(&map, "c").is_err());
    }
}
