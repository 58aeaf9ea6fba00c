//! The report: every figure with its goal (PASS or MISS), read from what the steps
//! measured, and its rendering.

use super::measure::{Estimates, number};
use super::{harness, implementer};
use crate::process;
use std::collections::BTreeMap;
use std::path::Path;

/// Lookups per benchmark iteration (`bloomproof_bench::LOOKUPS_PER_ITER`).
const LOOKUPS_PER_ITER: f64 = 64.0;

/// Strings and units per fnv iteration (`FNV_STRINGS`, `FNV_UNITS`).
const FNV_STRINGS: f64 = 64.0;

const FNV_UNITS: f64 = 256.0;

/// The lookup variants, as the benchmark names them.
const VARIANTS: [&str; 4] = [
    "k3_item6_seed3",
    "k3_item64_seed16",
    "k8_item6_seed3",
    "k8_item64_seed16",
];

/// Batch sizes of the batch benchmark (`bloomproof_bench::BATCH_SIZES`).
const BATCH_SIZES: [usize; 6] = [32, 64, 128, 256, 4096, 65536];

/// The goal of `conformance_suite_ms`: the fastest run, in milliseconds (issue 28: 50 ms
/// with the generated checks, vectors and accumulated checkpoint in the default run).
const SUITE_MS_MAX: f64 = 50.0;

/// The goal of `runner_cpu_per_request`: microseconds of the runner's own CPU a request.
const RUNNER_US_MAX: f64 = 10.0;

/// The goal of every lookup's ratio to its SHA-256 floor, members and non-members.
const LOOKUP_VS_FLOOR_MAX: f64 = 1.15;

/// The goal of every batch speedup on 2 cores.
const BATCH_SPEEDUP_MIN: f64 = 1.8;

/// The smallest batch the 1.8x goal applies to.
const BATCH_SPEEDUP_FROM: usize = 4096;

/// Largest "small constant" of the snapshot-overhead goal, in bytes.
const OVERHEAD_CONSTANT_MAX: f64 = 64.0;

/// A goal on a figure.
#[derive(Clone, Copy)]
pub(super) enum Goal {
    AtMost(f64),
    AtLeast(f64),
    None,
}

struct Line {
    name: String,
    value: String,
    goal: String,
    verdict: &'static str,
    /// Printed as `name: value`, unaligned.
    raw: bool,
}

#[derive(Default)]
pub(super) struct Report {
    lines: Vec<Line>,
    notes: Vec<String>,
}

impl Report {
    fn figure(&mut self, name: impl Into<String>, value: String) {
        self.lines.push(Line {
            name: name.into(),
            value,
            goal: String::new(),
            verdict: "",
            raw: false,
        });
    }

    /// A figure that could not be taken, and why.
    fn skipped(&mut self, name: impl Into<String>, why: &str) {
        self.lines.push(Line {
            name: name.into(),
            value: format!("skipped ({why})"),
            goal: String::new(),
            verdict: "",
            raw: true,
        });
    }

    fn ratio(&mut self, name: impl Into<String>, value: f64, goal: Goal) {
        let (goal, verdict) = match goal {
            Goal::AtMost(max) => (
                format!("goal <= {max}"),
                if value <= max { "PASS" } else { "MISS" },
            ),
            Goal::AtLeast(min) => (
                format!("goal >= {min}"),
                if value >= min { "PASS" } else { "MISS" },
            ),
            Goal::None => ("no goal: reported".to_string(), ""),
        };
        self.lines.push(Line {
            name: name.into(),
            value: format!("{value:.3}"),
            goal,
            verdict,
            raw: false,
        });
    }

    pub(super) fn machine(&mut self, root: &Path) {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|line| line.starts_with("model name"))
                    .and_then(|line| line.split_once(':'))
                    .map(|(_, model)| model.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".to_string());
        let rustc = process::text(root, "rustc", &["-V"]);
        self.figure("machine.cores", cores.to_string());
        self.figure("machine.cpu", cpu);
        self.figure("machine.rustc", rustc);
    }

    pub(super) fn doc_lookup(&mut self, estimates: &Estimates) -> Result<(), String> {
        for variant in VARIANTS {
            let member = estimates.median_ns("doc_lookup", &format!("member_{variant}"))?;
            let floor = estimates.median_ns("doc_lookup", &format!("floor_member_{variant}"))?;
            self.figure(
                format!("doc_lookup.member.{variant}"),
                format!(
                    "{:.1} ns/lookup (floor {:.1} ns)",
                    member / LOOKUPS_PER_ITER,
                    floor / LOOKUPS_PER_ITER
                ),
            );
            self.ratio(
                format!("doc_lookup_vs_sha256_floor.{variant}"),
                member / floor,
                Goal::AtMost(LOOKUP_VS_FLOOR_MAX),
            );
        }
        for variant in VARIANTS {
            let lookup = estimates.median_ns("doc_lookup", &format!("nonmember_{variant}"))?;
            let floor = estimates.median_ns("doc_lookup", &format!("floor_nonmember_{variant}"))?;
            self.figure(
                format!("doc_lookup.nonmember.{variant}"),
                format!(
                    "{:.1} ns/lookup (floor {:.1} ns: hashes up to the first clear bit)",
                    lookup / LOOKUPS_PER_ITER,
                    floor / LOOKUPS_PER_ITER
                ),
            );
            self.ratio(
                format!("doc_lookup_nonmember_vs_sha256_floor.{variant}"),
                lookup / floor,
                Goal::AtMost(LOOKUP_VS_FLOOR_MAX),
            );
        }
        Ok(())
    }

    pub(super) fn doc_build(&mut self, estimates: &Estimates) -> Result<(), String> {
        let build = estimates.median_ns("doc_build", "max_snapshot")?;
        let floor = estimates.median_ns("doc_build", "floor")?;
        self.figure(
            "doc_build.max_snapshot",
            format!("{:.2} us (floor {:.2} us)", build / 1e3, floor / 1e3),
        );
        self.ratio(
            "doc_build_vs_sha256_floor",
            build / floor,
            Goal::AtMost(1.10),
        );
        Ok(())
    }

    pub(super) fn batch(
        &mut self,
        estimates: &Estimates,
        parallel_min: usize,
    ) -> Result<(), String> {
        let mut all_cores = Vec::new();
        for len in BATCH_SIZES {
            let batch = estimates.median_ns("batch_lookup", &format!("batch_{len}"))?;
            let parallel = estimates.median_ns("batch_lookup", &format!("parallel_{len}"))?;
            let one = estimates.median_ns("batch_lookup", &format!("one_core_{len}"))?;
            self.figure(
                format!("batch_lookup.q{len}"),
                format!(
                    "lookup_batch {:.3} ms, on all cores {:.3} ms, one core {:.3} ms",
                    batch / 1e6,
                    parallel / 1e6,
                    one / 1e6
                ),
            );
            // The 1.8x goal from 4096 queries up. Below, the goal is the threshold's
            // (`batch_parallel_min`): issue 28 asks for 1.8x at 256 or a measured size
            // below which one core is cheaper; handing work to a second thread costs
            // too much of a small batch for 1.8x (crates/bench/NOTES.md).
            let name = if len == 4096 {
                "batch_lookup_parallel_speedup".to_string()
            } else {
                format!("batch_lookup_parallel_speedup.q{len}")
            };
            let goal = if len >= BATCH_SPEEDUP_FROM {
                Goal::AtLeast(BATCH_SPEEDUP_MIN)
            } else {
                Goal::None
            };
            self.ratio(name, one / batch, goal);
            self.ratio(
                format!("batch_lookup_all_cores_speedup.q{len}"),
                one / parallel,
                Goal::None,
            );
            all_cores.push((len, one / parallel));
        }
        self.batch_threshold(parallel_min, &all_cores);
        Ok(())
    }

    /// `BATCH_PARALLEL_MIN` against the break-even measured: the smallest batch size
    /// from which all cores beat one core at every size measured. The goal: the
    /// threshold at that size or at most one doubling above it (`BATCH_SIZES` double
    /// up to 256), so that no measured batch stays on one core where all cores pay and
    /// none goes to all cores where one core is cheaper.
    fn batch_threshold(&mut self, parallel_min: usize, all_cores: &[(usize, f64)]) {
        let break_even = all_cores
            .iter()
            .enumerate()
            .find(|(at, _)| all_cores[*at..].iter().all(|(_, speedup)| *speedup > 1.0))
            .map(|(_, (len, _))| *len);
        let measured: Vec<String> = all_cores
            .iter()
            .filter(|(len, _)| *len <= parallel_min.max(256))
            .map(|(len, speedup)| format!("q{len} {speedup:.2}"))
            .collect();
        let (found, verdict) = match break_even {
            Some(len) => (
                format!("all cores faster than one core from q{len} up"),
                if len <= parallel_min && parallel_min <= 2 * len {
                    "PASS"
                } else {
                    "MISS"
                },
            ),
            None => (
                "all cores never faster than one core at every larger size".to_string(),
                "MISS",
            ),
        };
        self.lines.push(Line {
            name: "batch_parallel_min".to_string(),
            value: format!(
                "{parallel_min} queries (`BATCH_PARALLEL_MIN`); measured: {found} (one core / all cores: {})",
                measured.join(", ")
            ),
            goal: "goal: the break-even measured, or one doubling above it".to_string(),
            verdict,
            raw: false,
        });
    }

    pub(super) fn fnv(
        &mut self,
        estimates: &Estimates,
        fnv: &BTreeMap<String, String>,
        js: Result<BTreeMap<String, String>, String>,
    ) -> Result<(), String> {
        let positions = estimates.median_ns("fnv", "positions_256")?;
        let floor = estimates.median_ns("fnv", "floor_chained_256")?;
        let per_string_chains = estimates.median_ns("fnv", "floor_256")?;
        let units = FNV_STRINGS * FNV_UNITS;
        self.figure(
            "fnv_ns_per_unit",
            format!(
                "{:.3} ns/unit (floor {:.3} ns/unit: the latency of one XOR and one multiply \
                 per unit, one dependent chain through every string; one chain per string, \
                 overlapping: {:.3} ns/unit)",
                positions / units,
                floor / units,
                per_string_chains / units
            ),
        );
        self.ratio(
            "fnv_ns_per_unit_vs_floor",
            positions / floor,
            Goal::AtMost(1.10),
        );
        self.ratio(
            "fnv_ns_per_unit_vs_one_chain_per_string",
            positions / per_string_chains,
            Goal::None,
        );
        let rust_per_string = positions / FNV_STRINGS;
        match js {
            Err(why) => self.skipped("fnv_rust_vs_js", &why),
            Ok(js) => {
                let rust_sum = fnv.get("fnv_checksum");
                if rust_sum != js.get("js_checksum") {
                    return Err(format!(
                        "JavaScript checksum {:?} differs from Rust's {rust_sum:?}",
                        js.get("js_checksum")
                    ));
                }
                let js_per_string = number(&js, "js_ns_per_string_median")?;
                self.figure(
                    "fnv_positions_per_string",
                    format!(
                        "Rust {rust_per_string:.1} ns, JavaScript {js_per_string:.1} ns (node {})",
                        js.get("js_node").map_or("?", String::as_str)
                    ),
                );
                self.ratio(
                    "fnv_rust_vs_js",
                    js_per_string / rust_per_string,
                    Goal::None,
                );
            }
        }
        Ok(())
    }

    pub(super) fn suite(&mut self, suite: &BTreeMap<String, String>) -> Result<(), String> {
        let min = number(suite, "suite_ms_min")?;
        let median = number(suite, "suite_ms_median")?;
        let runs = number(suite, "suite_runs")?;
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        self.lines.push(Line {
            name: "conformance_suite_ms".to_string(),
            value: format!(
                "{min:.1} ms fastest, {median:.1} ms median of {runs} runs, on {cores} cores"
            ),
            goal: format!("goal <= {SUITE_MS_MAX} ms fastest on 2 cores"),
            verdict: if min <= SUITE_MS_MAX { "PASS" } else { "MISS" },
            raw: false,
        });
        match (
            number(suite, "peak_rss_kib"),
            number(suite, "peak_rss_kib_before"),
        ) {
            (Ok(peak), Ok(before)) => self.figure(
                "conformance_suite_peak_memory",
                format!(
                    "{:.1} MiB peak resident (process before the suite: {:.1} MiB)",
                    peak / 1024.0,
                    before / 1024.0
                ),
            ),
            _ => self.figure(
                "conformance_suite_peak_memory",
                "unavailable (no /proc)".to_string(),
            ),
        }
        Ok(())
    }

    pub(super) fn seed_python(&mut self, seed: Result<(f64, f64, f64), String>) {
        match seed {
            Err(why) => self.skipped("conformance_suite_vs_seed_python", &why),
            Ok((python, ours, ratio)) => {
                self.figure(
                    "conformance_process",
                    format!(
                        "bloomproof conformance {:.1} ms, the seed's Python self-check {:.1} ms (whole processes, medians)",
                        ours * 1e3,
                        python * 1e3
                    ),
                );
                self.ratio(
                    "conformance_suite_vs_seed_python",
                    ratio,
                    Goal::AtLeast(15.0),
                );
            }
        }
    }

    pub(super) fn runner(&mut self, runner: &BTreeMap<String, String>) -> Result<(), String> {
        let min = number(runner, "runner_cpu_us_per_request_min")?;
        let median = number(runner, "runner_cpu_us_per_request_median")?;
        let requests = number(runner, "runner_requests")?;
        let runs = number(runner, "runner_runs")?;
        let in_process = number(runner, "in_process_cpu_ms_min")?;
        let kernel = number(runner, "runner_system_share_median")
            .map(|share| format!(", {:.0} % of it kernel time (median)", share * 100.0))
            .unwrap_or_default();
        self.lines.push(Line {
            name: "runner_cpu_per_request".to_string(),
            value: format!(
                "{min:.2} us least, {median:.2} us median of {runs} runs of {requests} requests \
                 through `bloomproof adapter` (the runner process's CPU, every thread{kernel}; the \
                 same suite in process: {in_process:.1} ms CPU)"
            ),
            goal: format!("goal <= {RUNNER_US_MAX} us"),
            verdict: if min <= RUNNER_US_MAX { "PASS" } else { "MISS" },
            raw: false,
        });
        if let (Ok(cases), Ok(per_case)) = (
            number(runner, "wire_cases"),
            number(runner, "wire_cpu_us_per_case_median"),
        ) {
            let processes = number(runner, "wire_processes")
                .map(|n| format!("{n} adapter processes"))
                .unwrap_or_else(|_| {
                    "one shared adapter process, one more for each line that is not UTF-8".into()
                });
            self.figure(
                "runner_cpu_per_wire_case",
                format!(
                    "{:.2} ms median over {cases} cases of the adapter protocol's own checks (counted apart: {processes})",
                    per_case / 1e3
                ),
            );
        }
        Ok(())
    }

    /// The implementer's runs (`implementer.rs`): the suite through `bloomproof adapter`
    /// against in process, and the README's skeleton run whole.
    pub(super) fn implementer(&mut self, measured: Result<implementer::Implementer, String>) {
        let measured = match measured {
            Ok(measured) => measured,
            Err(why) => {
                self.skipped("adapter_suite_vs_in_process", &why);
                return;
            }
        };
        self.figure(
            "adapter_suite",
            format!(
                "{:.1} ms through `bloomproof adapter` (every check, `--impl`), {:.1} ms in process, whole processes of the release binary, medians of {} pairs",
                measured.through_adapter_s * 1e3,
                measured.in_process_s * 1e3,
                measured.pairs,
            ),
        );
        self.ratio(
            "adapter_suite_vs_in_process",
            measured.ratio,
            Goal::AtMost(implementer::ADAPTER_VS_IN_PROCESS_MAX),
        );
        match measured.skeleton_s {
            Ok(seconds) => {
                let max = implementer::SKELETON_MAX_S;
                self.lines.push(Line {
                    name: "skeleton_whole_run".to_string(),
                    value: format!(
                        "{seconds:.2} s, the README's adapter skeleton as printed, every check (`--impl 'python3 skeleton.py'`: most fail, it crashes on lines it cannot read and is started again), median of {} runs",
                        measured.skeleton_runs
                    ),
                    goal: format!("goal <= {max} s"),
                    verdict: if seconds <= max { "PASS" } else { "MISS" },
                    raw: false,
                });
            }
            Err(why) => self.skipped("skeleton_whole_run", &why),
        }
    }

    /// The suite through `name`'s adapter beside its own replay (`harness.rs`).
    pub(super) fn harness_share(&mut self, name: &str, share: Result<harness::Share, String>) {
        let share = match share {
            Err(why) => {
                self.skipped(format!("{name}_harness_share"), &why);
                return;
            }
            Ok(share) => share,
        };
        self.figure(
            format!("{name}_through_adapter"),
            format!(
                "{:.1} ms through the adapter (`bloomproof conformance --impl`, the protocol checks, whole process), \
                 {:.1} ms in its own process ({:.1} ms CPU: the adapter's line handler on the {} recorded requests, \
                 {} answers checked), medians of {} pairs",
                share.through_adapter_s * 1e3,
                share.replay_ms,
                share.replay_cpu_ms,
                share.requests,
                share.answers,
                share.runs,
            ),
        );
        self.ratio(
            format!("{name}_harness_share"),
            share.share,
            Goal::AtMost(harness::HARNESS_SHARE_MAX),
        );
        self.figure(
            format!("{name}_adapter_protocol_checks"),
            format!(
                "{:.1} ms, whole process (counted apart: one shared adapter process, one more for each line that is not UTF-8)",
                share.wire_s * 1e3
            ),
        );
        self.figure(
            format!("{name}_whole_run"),
            format!(
                "{:.1} ms, every check through the adapter (`bloomproof conformance --impl`, whole process), median of {} runs, each beside a run of the protocol checks alone",
                share.whole_s * 1e3,
                share.runs,
            ),
        );
        self.ratio(
            format!("{name}_whole_run_vs_protocol_checks"),
            share.whole_ratio,
            Goal::AtMost(harness::WHOLE_RUN_MAX),
        );
    }

    pub(super) fn snapshot(&mut self, snapshot: &BTreeMap<String, String>) -> Result<(), String> {
        let mut worst: f64 = 0.0;
        let mut parts = Vec::new();
        for m in [8, 16, 64, 65, 128, 256, 512] {
            let overhead = number(snapshot, &format!("overhead_m{m}"))?;
            let packed = number(snapshot, &format!("packed_m{m}"))?;
            worst = worst.max(overhead - packed);
            parts.push(format!("m={m}: {overhead} B"));
        }
        self.figure("snapshot_overhead_bytes", parts.join(", "));
        self.lines.push(Line {
            name: "snapshot_overhead_minus_ceil_m_over_8".to_string(),
            value: format!("{worst} B (largest over m)"),
            goal: format!("goal <= {OVERHEAD_CONSTANT_MAX} B"),
            verdict: if worst <= OVERHEAD_CONSTANT_MAX {
                "PASS"
            } else {
                "MISS"
            },
            raw: false,
        });
        if let Ok(index) = number(snapshot, "documents_index_bytes_64") {
            self.notes.push(format!(
                "the document set of 64 records also holds a {index} B probe index (counted with the documents)"
            ));
        }
        Ok(())
    }

    /// The report as printed (and as `--record` writes it).
    pub(super) fn render(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let width = 1 + self.lines.iter().map(|l| l.name.len()).max().unwrap_or(0);
        let _ = writeln!(
            out,
            "\nbloomproof benchmarks (one run; medians of criterion's samples)\n"
        );
        for line in &self.lines {
            if line.raw {
                let _ = writeln!(out, "{}: {}", line.name, line.value);
                continue;
            }
            let tail = match (line.goal.is_empty(), line.verdict.is_empty()) {
                (true, _) => String::new(),
                (false, true) => format!("  [{}]", line.goal),
                (false, false) => format!("  [{}] {}", line.goal, line.verdict),
            };
            let _ = writeln!(
                out,
                "{:<width$}  {}{tail}",
                format!("{}:", line.name),
                line.value
            );
        }
        for note in &self.notes {
            let _ = writeln!(out, "note: {note}");
        }
        let missed = self.lines.iter().filter(|l| l.verdict == "MISS").count();
        let passed = self.lines.iter().filter(|l| l.verdict == "PASS").count();
        let _ = writeln!(
            out,
            "\ngoals: {passed} met, {missed} missed (see BENCHMARKS.md for what bounds each)"
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::measure::key_values;

    #[test]
    fn the_runner_line_holds_its_goal() {
        let probe = |least: &str| {
            key_values(&format!(
                "runner_runs=7\nrunner_requests=2325\nrunner_cpu_us_per_request_min={least}\n\
                 runner_cpu_us_per_request_median=12.5\nin_process_cpu_ms_min=40.0\n"
            ))
        };
        for (least, verdict) in [("9.99", "PASS"), ("10.0", "PASS"), ("10.01", "MISS")] {
            let mut report = Report::default();
            report.runner(&probe(least)).unwrap();
            let line = &report.lines[0];
            assert_eq!(
                (line.name.as_str(), line.verdict),
                ("runner_cpu_per_request", verdict)
            );
            assert!(line.value.contains("2325 requests"), "{}", line.value);
            assert_eq!(line.goal, "goal <= 10 us");
        }
        let mut with_kernel = probe("46.1");
        with_kernel.insert("runner_system_share_median".into(), "0.237".into());
        let mut report = Report::default();
        report.runner(&with_kernel).unwrap();
        assert!(
            report.lines[0].value.contains("24 % of it kernel time"),
            "{}",
            report.lines[0].value
        );
        let mut report = Report::default();
        assert!(report.runner(&key_values("runner_runs=7\n")).is_err());
    }

    #[test]
    fn the_harness_share_line_holds_its_goal() {
        let share = |share: f64| harness::Share {
            requests: 12521,
            answers: 12521,
            through_adapter_s: 2.5,
            replay_ms: 2500.0 * (1.0 - share),
            replay_cpu_ms: 1000.0,
            share,
            runs: 7,
            wire_s: 3.0,
            whole_s: 3.0,
            whole_ratio: 1.2,
        };
        for (value, verdict) in [(0.49, "PASS"), (0.5, "PASS"), (0.51, "MISS")] {
            let mut report = Report::default();
            report.harness_share("python", Ok(share(value)));
            let names: Vec<&str> = report.lines.iter().map(|l| l.name.as_str()).collect();
            assert_eq!(
                names,
                [
                    "python_through_adapter",
                    "python_harness_share",
                    "python_adapter_protocol_checks",
                    "python_whole_run",
                    "python_whole_run_vs_protocol_checks"
                ]
            );
            let whole = &report.lines[4];
            assert_eq!(
                (whole.goal.as_str(), whole.verdict),
                ("goal <= 1.3", "PASS")
            );
            let line = &report.lines[1];
            assert_eq!((line.goal.as_str(), line.verdict), ("goal <= 0.5", verdict));
            assert!(
                report.lines[0].value.contains("12521 recorded requests"),
                "{}",
                report.lines[0].value
            );
        }
        let mut report = Report::default();
        report.harness_share("js", Err("node missing".into()));
        assert_eq!(report.lines[0].name, "js_harness_share");
        assert!(report.lines[0].value.contains("skipped (node missing)"));
    }

    #[test]
    fn the_implementer_lines_hold_their_goals() {
        let measured = |ratio: f64, skeleton: f64| implementer::Implementer {
            through_adapter_s: 0.4,
            in_process_s: 0.2,
            ratio,
            pairs: 7,
            skeleton_s: Ok(skeleton),
            skeleton_runs: 7,
        };
        for (ratio, skeleton, verdicts) in
            [(2.0, 10.0, ["PASS", "PASS"]), (2.1, 10.5, ["MISS", "MISS"])]
        {
            let mut report = Report::default();
            report.implementer(Ok(measured(ratio, skeleton)));
            let lines: Vec<(&str, &str, &str)> = report
                .lines
                .iter()
                .map(|l| (l.name.as_str(), l.goal.as_str(), l.verdict))
                .collect();
            assert_eq!(
                lines,
                [
                    ("adapter_suite", "", ""),
                    ("adapter_suite_vs_in_process", "goal <= 2", verdicts[0]),
                    ("skeleton_whole_run", "goal <= 10 s", verdicts[1]),
                ]
            );
        }
    }

    #[test]
    fn the_batch_threshold_is_held_to_the_break_even_measured() {
        let verdict = |parallel_min: usize, speedups: [f64; 5]| {
            let sizes = [32, 64, 128, 256, 4096];
            let all_cores: Vec<(usize, f64)> = sizes.into_iter().zip(speedups).collect();
            let mut report = Report::default();
            report.batch_threshold(parallel_min, &all_cores);
            let line = &report.lines[0];
            assert_eq!(line.name, "batch_parallel_min");
            (line.verdict, line.value.clone())
        };
        // All cores pay from 64 up: 64 and 128 meet the goal, 32 and 256 do not.
        let pays_from_64 = [0.8, 1.1, 1.3, 1.5, 1.8];
        for (parallel_min, expected) in [(32, "MISS"), (64, "PASS"), (128, "PASS"), (256, "MISS")] {
            let (got, value) = verdict(parallel_min, pays_from_64);
            assert_eq!(got, expected, "{parallel_min}: {value}");
            assert!(value.contains("from q64 up"), "{value}");
        }
        // A dip below 1 at 128 moves the break-even to 256.
        let (got, value) = verdict(256, [1.1, 1.2, 0.9, 1.4, 1.8]);
        assert_eq!(got, "PASS", "{value}");
        assert!(value.contains("from q256 up"), "{value}");
        // Never paying at the largest size: no break-even.
        assert_eq!(verdict(256, [0.5, 0.6, 0.7, 0.8, 0.9]).0, "MISS");
    }
}
