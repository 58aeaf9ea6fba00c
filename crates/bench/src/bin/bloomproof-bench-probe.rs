//! Measurements that criterion does not take, for `cargo xtask bench`; each prints
//! `key=value` lines on stdout (written at the end, so a closed stdout is an error
//! message and a failing exit, not a panic).
//!
//! * `suite SPEC_DIR [RUNS [SEED]]`: runs the whole in-process conformance suite
//!   (`bloomproof_conformance::load` + `run`) RUNS times (default 5) in this process,
//!   every run on the generated inputs of one seed (SEED, default [`SUITE_SEED`]: the
//!   inputs' cost varies with the seed, and the fastest of runs at several seeds would
//!   pick the cheapest inputs), and prints the fastest and the median wall time and the process's peak resident
//!   memory (`VmHWM`) before and after.
//! * `snapshot`: the bytes a snapshot holds beyond its documents, for several m, and
//!   `BATCH_PARALLEL_MIN` (for the batch threshold's goal).
//! * `runner SPEC_DIR RUNS BLOOMPROOF`: the runner's own cost per request. Runs the
//!   suite's protocol checks RUNS times through one `BLOOMPROOF adapter` (a
//!   subprocess, started again only if it ends), and prints this process's CPU time
//!   (all its threads, user and system, `CLOCK_PROCESS_CPUTIME_ID`) during each run
//!   divided by the requests the run sent: sending, pipelining, reading, parsing and
//!   comparing, without the adapter's CPU, which is another process's. The spec is
//!   loaded before the clock starts. The requests are counted as the lines the
//!   adapter's stdin received (`tee -a` to a file in front of it), the handshake of
//!   each start included. The adapter protocol's own checks (`adapter-protocol.json`:
//!   one shared adapter process, one more for each line that is not UTF-8) are timed
//!   apart, per case, with the processes they started (`wire_` keys). The same suite in process
//!   (`Subjects::rust`) is timed the same way beside it. The system's share of the
//!   runner's CPU (kernel time, from `/proc/self/stat`) is printed beside it.
//! * `runner-once SPEC_DIR BLOOMPROOF [SEED [warm]]`: one run of the protocol checks
//!   through the adapter alone, for a profiler; of the inputs of SEED when given; with
//!   `warm`, after the same inputs in process with their expected values kept (as the
//!   second implementation of a matrix meets them).
//! * `fnv-input PATH`: writes the fnv benchmark strings and their Rust answers as
//!   JSON to PATH, for the Node timing script, and prints their checksum.

use bloomproof_bench::{FNV_K, FNV_M, fnv_checksum, fnv_params, fnv_strings};
use bloomproof_conformance::run::Subjects;
use bloomproof_filter::{DocumentPrefilter, Documents};
use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// The `bloomproof` binary's allocator, so that the suite is timed as that binary runs it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["suite", spec] => suite(Path::new(spec), 5, SUITE_SEED),
        ["suite", spec, runs] => match runs.parse() {
            Ok(runs) => suite(Path::new(spec), runs, SUITE_SEED),
            Err(err) => Err(format!("RUNS must be a number: {err}")),
        },
        ["suite", spec, runs, seed] => match (runs.parse(), seed.parse()) {
            (Ok(runs), Ok(seed)) => suite(Path::new(spec), runs, seed),
            _ => Err(format!("RUNS and SEED must be numbers: {runs:?} {seed:?}")),
        },
        ["snapshot"] => snapshot(),
        ["runner", spec, runs, bloomproof] => match runs.parse() {
            Ok(runs) => runner(Path::new(spec), runs, Path::new(bloomproof)),
            Err(err) => Err(format!("RUNS must be a number: {err}")),
        },
        ["runner-once", spec, bloomproof] => {
            runner_once(Path::new(spec), Path::new(bloomproof), None, false)
        }
        ["runner-once", spec, bloomproof, seed] | ["runner-once", spec, bloomproof, seed, "warm"] => {
            match seed.parse() {
                Ok(seed) => runner_once(
                    Path::new(spec),
                    Path::new(bloomproof),
                    Some(seed),
                    args.len() == 5,
                ),
                Err(err) => Err(format!("SEED must be a number: {err}")),
            }
        }
        ["fnv-input", path] => fnv_input(Path::new(path)),
        _ => Err(
            "usage: bloomproof-bench-probe suite SPEC_DIR [RUNS [SEED]] | snapshot | \
                  runner SPEC_DIR RUNS BLOOMPROOF | runner-once SPEC_DIR BLOOMPROOF [SEED [warm]] | \
                  fnv-input PATH"
                .to_string(),
        ),
    };
    let written = result.and_then(|lines| {
        std::io::stdout()
            .lock()
            .write_all(lines.as_bytes())
            .map_err(|err| format!("stdout: {err}"))
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Peak resident set size of this process, in KiB, where `/proc` tells it.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The seed of the suite's generated inputs in `suite`'s runs.
const SUITE_SEED: u64 = 1;

fn suite(spec_dir: &Path, runs: usize, seed: u64) -> Result<String, String> {
    let mut out = String::new();
    let before = peak_rss_kib();
    let mut times = Vec::new();
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let mut spec = load_spec(spec_dir)?;
        spec.set_generation(bloomproof_conformance::generated::Generation {
            seed,
            count: None,
            shrink: true,
        });
        let report = bloomproof_conformance::run::run(&spec, &mut Subjects::rust(), None);
        let elapsed = started.elapsed().as_secs_f64() * 1e3;
        if report.failed > 0 || report.passed == 0 {
            return Err(format!("the suite failed:\n{}", report.render_text()));
        }
        times.push(elapsed);
    }
    times.sort_by(f64::total_cmp);
    let _ = writeln!(out, "suite_runs={}", times.len());
    let _ = writeln!(out, "suite_ms_min={:.3}", times[0]);
    let _ = writeln!(out, "suite_ms_median={:.3}", times[times.len() / 2]);
    if let (Some(before), Some(after)) = (before, peak_rss_kib()) {
        let _ = writeln!(out, "peak_rss_kib_before={before}");
        let _ = writeln!(out, "peak_rss_kib={after}");
    }
    Ok(out)
}

/// CPU time of this process so far (every thread, user and system), in nanoseconds.
fn process_cpu_ns() -> f64 {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    now.tv_sec as f64 * 1e9 + now.tv_nsec as f64
}

/// User and system CPU time of this process so far (every thread), in clock ticks
/// (`/proc/self/stat`, fields 14 and 15), where `/proc` tells them.
fn user_and_system_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis, from field 3 (the state).
    let (_, after) = stat.rsplit_once(')')?;
    let mut fields = after.split_whitespace().skip(11);
    Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
}

/// Loads the spec; a spec that does not load is an error naming every problem.
fn load_spec(spec_dir: &Path) -> Result<bloomproof_conformance::Spec, String> {
    bloomproof_conformance::load(spec_dir).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("spec does not load:\n{}", lines.join("\n"))
    })
}

/// Quotes `text` for `sh`.
fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The `sh` command of the adapter with a `tee -a` of its stdin to `log` in front of it
/// (appending: a restarted adapter's requests add to the count).
fn counted_adapter(bloomproof: &Path, log: &Path) -> String {
    format!(
        "tee -a {} | {} adapter",
        sh_quote(&log.to_string_lossy()),
        sh_quote(&bloomproof.to_string_lossy())
    )
}

/// The log of the requests sent, for this process.
fn request_log() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("bloomproof-runner-{}.jsonl", std::process::id()))
}

/// The lines `log` holds (the requests sent), the log removed.
fn count_requests(log: &Path) -> Result<usize, String> {
    let sent = std::fs::read(log).map_err(|err| format!("{}: {err}", log.display()))?;
    let _ = std::fs::remove_file(log);
    Ok(sent.iter().filter(|&&byte| byte == b'\n').count())
}

/// One run of the suite's protocol checks (every check but the adapter protocol's
/// own) through one adapter: this process's CPU nanoseconds during it, the requests
/// it sent, and the system's share of that CPU time (kernel time: system calls,
/// wake-ups), where `/proc` tells it.
fn adapter_run(
    spec: &bloomproof_conformance::Spec,
    bloomproof: &Path,
) -> Result<(f64, usize, Option<f64>), String> {
    let log = request_log();
    let _ = std::fs::remove_file(&log);
    let command = counted_adapter(bloomproof, &log);
    let protocols_only = bloomproof_conformance::Spec {
        wire: None,
        ..spec.clone()
    };
    let mut subjects = Subjects::adapter(&command, std::time::Duration::from_secs(60))?;
    let ticks_before = user_and_system_ticks();
    let started = process_cpu_ns();
    let report = bloomproof_conformance::run::run(&protocols_only, &mut subjects, None);
    let cpu = process_cpu_ns() - started;
    let system_share = match (ticks_before, user_and_system_ticks()) {
        (Some((user0, system0)), Some((user1, system1))) => {
            let system = system1.saturating_sub(system0);
            let all = system + user1.saturating_sub(user0);
            (all > 0).then(|| system as f64 / all as f64)
        }
        _ => None,
    };
    // Ends the adapter (and tee) before the log is read.
    drop(subjects);
    if report.failed > 0 || report.passed == 0 {
        return Err(format!(
            "the suite failed through the adapter:\n{}",
            report.render_text()
        ));
    }
    let requests = count_requests(&log)?;
    if requests == 0 {
        return Err("the run through the adapter sent no requests".into());
    }
    Ok((cpu, requests, system_share))
}

/// The adapter protocol's own checks through the adapter (one shared process, one more
/// for each line that is not UTF-8): this process's CPU nanoseconds during them, the
/// cases, the lines sent and the adapter processes started.
fn wire_run(
    spec: &bloomproof_conformance::Spec,
    bloomproof: &Path,
) -> Result<(f64, usize, usize, usize), String> {
    let Some(wire) = &spec.wire else {
        return Ok((0.0, 0, 0, 0));
    };
    let log = request_log();
    let _ = std::fs::remove_file(&log);
    let command = counted_adapter(bloomproof, &log);
    let started = process_cpu_ns();
    let (outcomes, starts) = bloomproof_conformance::adapter_checks::run_counted(
        wire,
        &command,
        std::time::Duration::from_secs(60),
        None,
    );
    let cpu = process_cpu_ns() - started;
    if let Some(failed) = outcomes
        .iter()
        .find(|o| !o.failures.is_empty() || o.crashed)
    {
        return Err(format!(
            "the adapter protocol's check {} failed through the adapter",
            failed.name
        ));
    }
    let cases = outcomes.iter().map(|o| o.cases).sum();
    Ok((cpu, cases, count_requests(&log)?, starts.processes))
}

fn runner(spec_dir: &Path, runs: usize, bloomproof: &Path) -> Result<String, String> {
    let mut out = String::new();
    let spec = load_spec(spec_dir)?;
    let (mut per_request, mut in_process, mut requests) = (Vec::new(), Vec::new(), 0);
    let (mut wire_per_case, mut wire_cases, mut wire_lines, mut wire_processes) =
        (Vec::new(), 0, 0, 0);
    let mut system_shares = Vec::new();
    for _ in 0..runs.max(1) {
        let started = process_cpu_ns();
        let report = bloomproof_conformance::run::run(&spec, &mut Subjects::rust(), None);
        in_process.push((process_cpu_ns() - started) / 1e6);
        if report.failed > 0 || report.passed == 0 {
            return Err(format!("the suite failed:\n{}", report.render_text()));
        }
        let (cpu, sent, system_share) = adapter_run(&spec, bloomproof)?;
        requests = sent;
        system_shares.extend(system_share);
        per_request.push(cpu / 1e3 / sent as f64);
        let (cpu, cases, lines, processes) = wire_run(&spec, bloomproof)?;
        (wire_cases, wire_lines, wire_processes) = (cases, lines, processes);
        wire_per_case.push(cpu / 1e3 / cases.max(1) as f64);
    }
    wire_per_case.sort_by(f64::total_cmp);
    per_request.sort_by(f64::total_cmp);
    in_process.sort_by(f64::total_cmp);
    let _ = writeln!(out, "runner_runs={}", per_request.len());
    let _ = writeln!(out, "runner_requests={requests}");
    let _ = writeln!(out, "runner_cpu_us_per_request_min={:.3}", per_request[0]);
    let _ = writeln!(
        out,
        "runner_cpu_us_per_request_median={:.3}",
        per_request[per_request.len() / 2]
    );
    let _ = writeln!(out, "in_process_cpu_ms_min={:.3}", in_process[0]);
    if !system_shares.is_empty() {
        system_shares.sort_by(f64::total_cmp);
        let _ = writeln!(
            out,
            "runner_system_share_median={:.3}",
            system_shares[system_shares.len() / 2]
        );
    }
    let _ = writeln!(out, "wire_cases={wire_cases}");
    let _ = writeln!(out, "wire_lines={wire_lines}");
    let _ = writeln!(out, "wire_processes={wire_processes}");
    let _ = writeln!(
        out,
        "wire_cpu_us_per_case_median={:.3}",
        wire_per_case[wire_per_case.len() / 2]
    );
    Ok(out)
}

/// One run through the adapter alone, for a profiler (`valgrind --tool=callgrind`).
/// One run through the adapter, of the inputs of `seed` when given (else a fresh one);
/// when `warm`, after a run of the same inputs in process with the expected values
/// kept ([`bloomproof_conformance::generated::memo`]), as a second implementation of
/// `bloomproof matrix` meets them (a profiler then reads `adapter_run` apart).
fn runner_once(
    spec_dir: &Path,
    bloomproof: &Path,
    seed: Option<u64>,
    warm: bool,
) -> Result<String, String> {
    let mut spec = load_spec(spec_dir)?;
    if let Some(seed) = seed {
        spec.set_generation(bloomproof_conformance::generated::Generation {
            seed,
            count: None,
            shrink: true,
        });
    }
    let _memo = warm.then(bloomproof_conformance::generated::memo::scope);
    if warm {
        bloomproof_conformance::run::run(&spec, &mut Subjects::rust(), None);
    }
    let (cpu, requests, system_share) = adapter_run(&spec, bloomproof)?;
    let mut out = format!(
        "runner_requests={requests}\nrunner_cpu_us_per_request={:.3}\n",
        cpu / 1e3 / requests as f64
    );
    if let Some(share) = system_share {
        let _ = writeln!(out, "runner_system_share={share:.3}");
    }
    Ok(out)
}

fn snapshot() -> Result<String, String> {
    let mut out = String::new();
    let fixed = size_of::<DocumentPrefilter>() - size_of::<Documents>();
    let _ = writeln!(out, "size_of_snapshot={}", size_of::<DocumentPrefilter>());
    let _ = writeln!(out, "size_of_documents={}", size_of::<Documents>());
    let _ = writeln!(
        out,
        "batch_parallel_min={}",
        bloomproof_filter::BATCH_PARALLEL_MIN
    );
    for m in [8u64, 16, 64, 65, 128, 256, 512] {
        let records: Vec<Vec<u8>> = (0..64u8).map(|i| vec![i; 64]).collect();
        let snapshot =
            DocumentPrefilter::new(&records, m, 8, &[b's'; 16]).map_err(|e| e.to_string())?;
        let overhead = fixed + snapshot.heap_bytes_beyond_documents();
        let packed = m.div_ceil(8);
        let _ = writeln!(out, "overhead_m{m}={overhead}");
        let _ = writeln!(out, "packed_m{m}={packed}");
        if m == 512 {
            let _ = writeln!(
                out,
                "documents_index_bytes_64={}",
                snapshot.documents().index_bytes()
            );
        }
    }
    Ok(out)
}

fn fnv_input(path: &Path) -> Result<String, String> {
    let mut out = String::new();
    let strings = fnv_strings();
    let params = fnv_params();
    let cases: Vec<serde_json::Value> = strings
        .iter()
        .map(|units| {
            let (hashes, positions) = fnv::hashes_and_positions(&params, units);
            serde_json::json!({
                "units": units,
                "h1": hashes.h1,
                "h2": hashes.h2,
                "positions": positions.as_slice(),
            })
        })
        .collect();
    let document = serde_json::json!({ "m": FNV_M, "k": FNV_K, "cases": cases });
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, document.to_string()).map_err(|e| format!("{}: {e}", path.display()))?;
    let _ = writeln!(out, "fnv_strings={}", strings.len());
    let _ = writeln!(out, "fnv_checksum={}", fnv_checksum(&strings));
    Ok(out)
}
