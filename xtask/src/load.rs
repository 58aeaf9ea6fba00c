//! `cargo xtask load [--quick]`: a load test of `bloomproof adapter` and `bloomproof
//! explore` on this machine, loopback only, bounded in count and in time.
//!
//! 1. Builds the binary: `cargo build --release -p bloomproof`.
//! 2. **adapter**: starts one `bloomproof adapter` process per client (JSON lines on
//!    stdin/stdout, `spec/ADAPTER.md`). Each client sends a fixed number of requests, one
//!    at a time, from a weighted mix (`adapter_kinds`): small ones (positions of both
//!    protocols, `lookup_many`) and large ones (a `build` of 64 records of 64 bytes, a
//!    `session` script of `SESSION_STEPS` steps at m = 1024, k = 12, `estimates` at
//!    m = 1024, k = 12, n = 1024). Every answer is checked (its id, no error, its shape).
//! 3. **explore**: starts `bloomproof explore --host 127.0.0.1 --port 0` and reads the
//!    URL it prints; then each client, on its own keep-alive connection, sends a fixed
//!    number of requests from a weighted mix (`explore_kinds`): the page's static files
//!    (the page runs its session model itself: there is no API), and two requests the
//!    server refuses (a POST, 405; an unknown path, 404). Requests look like the page's
//!    own: `Host: 127.0.0.1:<port>`, `Origin` on POSTs, `Sec-Fetch-Site: same-origin`
//!    (module `http`).
//! 4. Reads each subject's peak resident memory (`VmHWM` in `/proc/<pid>/status`) at the
//!    end of its phase, then prints one row per subject and per request kind: requests,
//!    concurrency, p50, p99 and max latency, errors, peak memory; the total time and the
//!    load average (`/proc/loadavg`, as `uptime` prints it) at the start and the end.
//!
//! A latency runs from the first byte of the request written to the last byte of its
//! answer read; percentiles are nearest-rank over the answered requests. Checking an
//! answer happens after its clock stops.
//!
//! Bounds: every client sends a fixed number of requests; every phase has a time limit
//! (`Plan::limit`): past it the clients stop sending, and a watchdog kills the subjects
//! `GRACE` later, which ends any request still waiting. The subjects are killed and
//! reaped when their phase ends, whatever happened. The task fails (non-zero exit) when a
//! request fails or gets an unexpected answer, or when a limit is hit.

mod http;

use bloomproof_format::adapter::{
    Built, DocOp, EstimatesAnswer, FnvHashes, FnvOp, PositionsResult, ScriptAnswer, ScriptOp,
    TextValue, TriplesResult,
};
use bloomproof_format::session::DraftField;
use bloomproof_format::{DocParams, Hex};
use http::{Caller, Client, Method, Request, shorten};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How much one run sends.
struct Plan {
    /// `quick` or `full`.
    name: &'static str,
    /// Adapter processes, one client each.
    adapter_clients: usize,
    /// Requests each adapter client sends.
    adapter_requests: usize,
    /// Concurrent HTTP clients of the explorer.
    explore_clients: usize,
    /// Requests each HTTP client sends.
    explore_requests: usize,
    /// The longest a phase may take; past it the run fails.
    limit: Duration,
}

/// `--quick`: a few seconds.
const QUICK: Plan = Plan {
    name: "quick",
    adapter_clients: 2,
    adapter_requests: 50,
    explore_clients: 2,
    explore_requests: 32,
    limit: Duration::from_secs(60),
};

/// The full run: under a minute on a quiet machine.
const FULL: Plan = Plan {
    name: "full",
    adapter_clients: 4,
    adapter_requests: 250,
    explore_clients: 4,
    explore_requests: 100,
    limit: Duration::from_secs(90),
};

/// After a phase's limit, how long the watchdog waits before killing its subjects.
const GRACE: Duration = Duration::from_secs(10);
/// How long `bloomproof explore` has to print its URL.
const STARTUP_LIMIT: Duration = Duration::from_secs(20);
/// Longest adapter answer line read, in bytes.
const MAX_LINE: u64 = 64 * 1024 * 1024;
/// Steps of the adapter's `session` script.
const SESSION_STEPS: usize = 250;
/// Distinct error messages kept per phase.
const ERRORS_SHOWN: usize = 5;

/// Runs the load test and prints the report.
pub fn run(quick: bool) -> Result<(), String> {
    let plan = if quick { &QUICK } else { &FULL };
    let root = super::root();
    let load_start = load_average();
    let build_started = Instant::now();
    let binary = build(&root)?;
    let build_time = build_started.elapsed();

    let started = Instant::now();
    println!(
        "==> adapter: {} processes, {} requests each",
        plan.adapter_clients, plan.adapter_requests
    );
    let adapter = adapter_phase(&binary, plan);
    println!(
        "==> explore: {} clients, {} requests each",
        plan.explore_clients, plan.explore_requests
    );
    let explore = explore_phase(&binary, plan);
    let total = started.elapsed();
    let load_end = load_average();

    let mut failures = Vec::new();
    let mut reports = Vec::new();
    for (subject, phase) in [("adapter", adapter), ("explore", explore)] {
        match phase {
            Ok(report) => {
                failures.extend(report.failures());
                reports.push(report);
            }
            Err(why) => failures.push(format!("{subject}: {why}")),
        }
    }
    print_report(plan, &reports);
    println!(
        "\ntotal: {:.1} s of load (the release build before it: {:.1} s)",
        total.as_secs_f64(),
        build_time.as_secs_f64()
    );
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!("load average at start: {load_start} (1, 5 and 15 min; {cores} cores)");
    println!("load average at end:   {load_end}");
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("load test failed:\n  {}", failures.join("\n  ")))
    }
}

// ---------------------------------------------------------------------------------
// Statistics.

/// The nearest-rank `p`-th percentile (`p` in 0..=100) of ascending `sorted` values:
/// the smallest value with at least `p`% of the values at or below it. `p = 0` gives
/// the smallest value, `p = 100` the largest; no values, `None`.
fn percentile<T: Copy>(sorted: &[T], p: usize) -> Option<T> {
    let rank = (p.min(100) * sorted.len()).div_ceil(100).max(1);
    sorted.get(rank - 1).copied()
}

/// The order of one cycle of a weighted mix: kind `i` appears `weights[i]` times, spread
/// as evenly as possible (smooth weighted round-robin; ties go to the earlier kind).
fn mix(weights: &[usize]) -> Vec<usize> {
    let total: usize = weights.iter().sum();
    let mut credit = vec![0_i64; weights.len()];
    let mut order = Vec::with_capacity(total);
    for _ in 0..total {
        for (credit, weight) in credit.iter_mut().zip(weights) {
            *credit += i64::try_from(*weight).unwrap_or(i64::MAX);
        }
        let mut pick = 0;
        for (i, value) in credit.iter().enumerate() {
            if *value > credit[pick] {
                pick = i;
            }
        }
        credit[pick] -= i64::try_from(total).unwrap_or(i64::MAX);
        order.push(pick);
    }
    order
}

/// One request's outcome.
struct Sample {
    /// Index of its kind.
    kind: usize,
    latency: Duration,
    /// Why it failed, if it did.
    error: Option<String>,
}

/// What one client did.
#[derive(Default)]
struct ClientLog {
    samples: Vec<Sample>,
    /// Requests never sent (the subject was gone or the time limit was reached).
    unsent: usize,
    /// Stopped at the time limit.
    limit_hit: bool,
    /// Why the client stopped early, if it did.
    stopped: Option<String>,
}

impl Plan {
    fn adapter(&self) -> PhasePlan {
        PhasePlan {
            subject: "adapter",
            clients: self.adapter_clients,
            requests: self.adapter_requests,
            limit: self.limit,
        }
    }

    fn explore(&self) -> PhasePlan {
        PhasePlan {
            subject: "explore",
            clients: self.explore_clients,
            requests: self.explore_requests,
            limit: self.limit,
        }
    }
}

/// One phase as planned: which subject, how many clients sending how many requests
/// each, and its time limit.
struct PhasePlan {
    subject: &'static str,
    clients: usize,
    requests: usize,
    limit: Duration,
}

impl PhasePlan {
    /// The phase's report, from what was observed while it ran.
    fn report(
        &self,
        kinds: Vec<&'static str>,
        logs: Vec<ClientLog>,
        memory: Vec<Option<u64>>,
        wall: Duration,
        killed: bool,
    ) -> PhaseReport {
        PhaseReport {
            subject: self.subject,
            clients: self.clients,
            kinds,
            planned: self.clients * self.requests,
            logs,
            memory,
            wall,
            limit: self.limit,
            killed,
        }
    }
}

/// One phase's results.
struct PhaseReport {
    subject: &'static str,
    clients: usize,
    kinds: Vec<&'static str>,
    planned: usize,
    logs: Vec<ClientLog>,
    /// `VmHWM` of each process, in KiB.
    memory: Vec<Option<u64>>,
    wall: Duration,
    limit: Duration,
    /// The watchdog killed the subjects.
    killed: bool,
}

impl PhaseReport {
    fn samples(&self) -> impl Iterator<Item = &Sample> {
        self.logs.iter().flat_map(|log| &log.samples)
    }

    fn errors(&self) -> usize {
        self.samples().filter(|s| s.error.is_some()).count()
    }

    /// Every reason this phase fails the run.
    fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        let failed = self.errors();
        if failed > 0 {
            out.push(format!(
                "{}: {failed} of {} requests failed",
                self.subject, self.planned
            ));
        }
        let unsent: usize = self.logs.iter().map(|log| log.unsent).sum();
        if unsent > 0 {
            out.push(format!(
                "{}: {unsent} requests were never sent",
                self.subject
            ));
        }
        if self.logs.iter().any(|log| log.limit_hit) || self.killed {
            out.push(format!(
                "{}: the time limit of {} s was hit{}",
                self.subject,
                self.limit.as_secs(),
                if self.killed {
                    " (the subjects were killed)"
                } else {
                    ""
                }
            ));
        }
        let mut seen = Vec::new();
        let messages = self
            .samples()
            .filter_map(|s| {
                s.error
                    .as_ref()
                    .map(|e| format!("{}: {e}", self.kinds[s.kind]))
            })
            .chain(self.logs.iter().filter_map(|log| log.stopped.clone()));
        for message in messages {
            if seen.len() < ERRORS_SHOWN && !seen.contains(&message) {
                seen.push(message);
            }
        }
        out.extend(
            seen.into_iter()
                .map(|message| format!("{}: {message}", self.subject)),
        );
        out
    }

    fn memory_text(&self) -> String {
        let known: Vec<u64> = self.memory.iter().flatten().copied().collect();
        let mib = |kib: u64| kib as f64 / 1024.0;
        match (known.iter().max(), self.memory.len()) {
            (None, _) => "unavailable".to_string(),
            (Some(max), 1) => format!("{:.1} MiB", mib(*max)),
            (Some(max), n) => format!(
                "{:.1} MiB per process (largest of {n}; sum {:.1} MiB{})",
                mib(*max),
                mib(known.iter().sum()),
                if known.len() < n {
                    format!(", {} unknown", n - known.len())
                } else {
                    String::new()
                }
            ),
        }
    }
}

/// One row of the table.
struct Row {
    subject: String,
    request: String,
    requests: String,
    concurrency: String,
    p50: String,
    p99: String,
    max: String,
    errors: String,
    memory: String,
}

fn latency_text(latency: Option<Duration>) -> String {
    match latency {
        None => "-".to_string(),
        Some(d) if d < Duration::from_millis(10) => format!("{:.3} ms", d.as_secs_f64() * 1e3),
        Some(d) if d < Duration::from_secs(1) => format!("{:.1} ms", d.as_secs_f64() * 1e3),
        Some(d) => format!("{:.2} s", d.as_secs_f64()),
    }
}

/// The statistics of some samples: requests, p50, p99, max, errors.
fn stats<'a>(samples: impl Iterator<Item = &'a Sample>) -> (usize, [String; 3], usize) {
    let mut count = 0;
    let mut errors = 0;
    let mut latencies = Vec::new();
    for sample in samples {
        count += 1;
        match sample.error {
            Some(_) => errors += 1,
            None => latencies.push(sample.latency),
        }
    }
    latencies.sort_unstable();
    let texts = [
        latency_text(percentile(&latencies, 50)),
        latency_text(percentile(&latencies, 99)),
        latency_text(latencies.last().copied()),
    ];
    (count, texts, errors)
}

fn print_report(plan: &Plan, reports: &[PhaseReport]) {
    let mut rows = vec![Row {
        subject: "subject".into(),
        request: "request".into(),
        requests: "requests".into(),
        concurrency: "concurrency".into(),
        p50: "p50".into(),
        p99: "p99".into(),
        max: "max".into(),
        errors: "errors".into(),
        memory: "peak memory (VmHWM)".into(),
    }];
    for report in reports {
        let (count, [p50, p99, max], _) = stats(report.samples());
        rows.push(Row {
            subject: report.subject.into(),
            request: "all".into(),
            requests: count.to_string(),
            concurrency: report.clients.to_string(),
            p50,
            p99,
            max,
            errors: report.errors().to_string(),
            memory: report.memory_text(),
        });
        for (index, kind) in report.kinds.iter().enumerate() {
            let (count, [p50, p99, max], errors) =
                stats(report.samples().filter(|s| s.kind == index));
            rows.push(Row {
                subject: String::new(),
                request: (*kind).into(),
                requests: count.to_string(),
                concurrency: String::new(),
                p50,
                p99,
                max,
                errors: errors.to_string(),
                memory: String::new(),
            });
        }
    }
    let width = |field: fn(&Row) -> &String| rows.iter().map(|r| field(r).len()).max().unwrap_or(0);
    let w = [
        width(|r| &r.subject),
        width(|r| &r.request),
        width(|r| &r.requests),
        width(|r| &r.concurrency),
        width(|r| &r.p50),
        width(|r| &r.p99),
        width(|r| &r.max),
        width(|r| &r.errors),
    ];
    println!(
        "\nbloomproof load test ({} run, release build, loopback; latency from the first byte sent to the last byte read)\n",
        plan.name
    );
    for r in &rows {
        let line = format!(
            "{:<w0$}  {:<w1$}  {:>w2$}  {:>w3$}  {:>w4$}  {:>w5$}  {:>w6$}  {:>w7$}  {}",
            r.subject,
            r.request,
            r.requests,
            r.concurrency,
            r.p50,
            r.p99,
            r.max,
            r.errors,
            r.memory,
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3],
            w4 = w[4],
            w5 = w[5],
            w6 = w[6],
            w7 = w[7],
        );
        println!("{}", line.trim_end());
    }
    println!();
    for report in reports {
        let count = report.samples().count();
        println!(
            "{}: {count} of {} requests in {:.2} s ({:.0} requests/s)",
            report.subject,
            report.planned,
            report.wall.as_secs_f64(),
            count as f64 / report.wall.as_secs_f64().max(1e-9)
        );
    }
}

// ---------------------------------------------------------------------------------
// The machine and the subjects.

/// `/proc/loadavg`'s three averages (what `uptime` prints), or `uptime`'s line.
fn load_average() -> String {
    if let Ok(text) = std::fs::read_to_string("/proc/loadavg") {
        let fields: Vec<&str> = text.split_whitespace().take(3).collect();
        if fields.len() == 3 {
            return fields.join(", ");
        }
    }
    Command::new("uptime")
        .output()
        .ok()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|text| !text.is_empty())
        .unwrap_or_else(|| "unavailable".to_string())
}

/// A process's peak resident set (`VmHWM`), in KiB.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// `cargo build --release -p bloomproof`; the path of the binary, as cargo reports it.
fn build(root: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["build", "--release", "-p", "bloomproof"])
        .arg("--message-format=json-render-diagnostics")
        .current_dir(root)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit());
    println!("==> cargo build --release -p bloomproof");
    let output = command
        .output()
        .map_err(|err| format!("{command:?}: {err}"))?;
    if !output.status.success() {
        return Err(format!("{command:?} failed: {}", output.status));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| {
            message["reason"] == "compiler-artifact" && message["target"]["name"] == "bloomproof"
        })
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo reported no bloomproof executable".to_string())
}

/// The processes under test: killed and reaped when dropped, whatever happened.
#[derive(Default)]
struct Fleet {
    children: Mutex<Vec<Child>>,
}

impl Fleet {
    /// Starts `command` with piped stdin and stdout; its pid and both pipes.
    fn spawn(&self, command: &mut Command) -> Result<(u32, ChildStdin, ChildStdout), String> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|err| format!("cannot start {command:?}: {err}"))?;
        let pid = child.id();
        let pipes = (child.stdin.take(), child.stdout.take());
        self.children
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(child);
        match pipes {
            (Some(stdin), Some(stdout)) => Ok((pid, stdin, stdout)),
            _ => Err(format!("{command:?}: no pipes")),
        }
    }

    fn kill_all(&self) {
        for child in self
            .children
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter_mut()
        {
            // An already exited child is fine.
            let _ = child.kill();
        }
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        let children = self
            .children
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        for child in children.iter_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Runs `work` while a watchdog kills `fleet` at `deadline`; also says whether it did.
fn with_watchdog<T>(fleet: &Fleet, deadline: Instant, work: impl FnOnce() -> T) -> (T, bool) {
    let (done, wait) = mpsc::channel::<()>();
    let fired = AtomicBool::new(false);
    let fired_ref = &fired;
    let out = std::thread::scope(|scope| {
        scope.spawn(move || {
            let left = deadline.saturating_duration_since(Instant::now());
            if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(left) {
                fired_ref.store(true, Ordering::SeqCst);
                fleet.kill_all();
            }
        });
        let out = work();
        drop(done);
        out
    });
    (out, fired.load(Ordering::SeqCst))
}

/// Runs one client per element of `states` in parallel and collects their logs; a
/// client that panicked counts all of its requests as unsent.
fn run_clients<S: Send>(
    states: &mut [S],
    count: usize,
    client: impl Fn(usize, &mut S) -> ClientLog + Sync,
) -> Vec<ClientLog> {
    let client = &client;
    std::thread::scope(|scope| {
        let handles: Vec<_> = states
            .iter_mut()
            .enumerate()
            .map(|(index, state)| scope.spawn(move || client(index, state)))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle.join().unwrap_or_else(|_| ClientLog {
                    unsent: count,
                    stopped: Some("a client thread panicked".to_string()),
                    ..ClientLog::default()
                })
            })
            .collect()
    })
}

/// The generic client loop: `count` requests from the mix `order`, starting at
/// `offset`, stopping at `soft`. `send(kind)` times and checks one request; a `Fatal`
/// outcome ends the loop (the subject is gone).
fn client_loop(
    order: &[usize],
    offset: usize,
    count: usize,
    soft: Instant,
    mut send: impl FnMut(usize) -> (Sample, bool),
) -> ClientLog {
    let mut log = ClientLog::default();
    if order.is_empty() {
        log.unsent = count;
        return log;
    }
    for i in 0..count {
        if Instant::now() >= soft {
            log.limit_hit = true;
            log.unsent = count - i;
            break;
        }
        let kind = order[(offset + i) % order.len()];
        let (sample, fatal) = send(kind);
        log.samples.push(sample);
        if fatal {
            log.unsent = count - i - 1;
            log.stopped = Some("the client stopped: its subject is gone".to_string());
            break;
        }
    }
    log
}

// ---------------------------------------------------------------------------------
// The adapter.

/// Checks the `result` of an adapter's answer.
type AnswerCheck = fn(&Value) -> Result<(), String>;

/// One kind of adapter request.
struct AdapterKind {
    name: &'static str,
    weight: usize,
    /// The request, a JSON object without its `id`.
    request: String,
    /// Checks the `result` of the answer.
    check: AnswerCheck,
}

const DOC: &str = "doc-membership-v1";
const FNV: &str = "fnv1a-utf16-v1";

/// Record `i` of `len` bytes (distinct for distinct `i` < 256).
fn record(i: usize, len: usize) -> Vec<u8> {
    (0..len)
        .map(|j| {
            if j == 0 {
                (i % 256) as u8
            } else {
                ((i * 131 + j * 29 + 7) % 256) as u8
            }
        })
        .collect()
}

fn counted(key: &str, n: usize, want: usize) -> Result<(), String> {
    if n == want {
        Ok(())
    } else {
        Err(format!("{key} has {n} items, expected {want}"))
    }
}

/// The steps of the adapter's `session` script: m = 1024, k = 12, then insertions and
/// queries, with a roundtrip (export and import) and a reset in every 16 steps.
///
/// Each step's answer holds the whole view (the 1024 bits, the history); the resets keep
/// the history short so that the answer (about 770 KB) stays under the 1 MiB a
/// `bloomproof adapter` answer may take.
fn session_script() -> Vec<ScriptOp> {
    let draft = |field, value: &str| ScriptOp::SetDraft {
        field,
        value: value.to_string(),
    };
    let mut script = vec![
        draft(DraftField::M, "1024"),
        draft(DraftField::K, "12"),
        ScriptOp::Create {},
    ];
    for i in 0..SESSION_STEPS - script.len() {
        script.push(if i % 16 == 15 {
            ScriptOp::Reset {}
        } else if i % 16 == 7 {
            ScriptOp::Roundtrip {}
        } else if i % 2 == 0 {
            ScriptOp::Insert {
                value: TextValue::Text(format!("entry {i} é😀")),
            }
        } else {
            ScriptOp::Query {
                value: TextValue::Text(format!("probe {i}")),
            }
        });
    }
    script
}

/// A request line's object without its `id`: the op (a `format::adapter` request, so
/// that it is spelled as the adapter protocol defines it) and its protocol.
fn request(protocol: &str, op: &impl Serialize) -> Value {
    let mut value = serde_json::to_value(op).unwrap_or(Value::Null);
    if let Value::Object(object) = &mut value {
        object.insert("protocol".to_string(), Value::from(protocol));
    }
    value
}

/// A `doc-membership-v1` request.
fn doc(op: DocOp) -> Value {
    request(DOC, &op)
}

/// A `fnv1a-utf16-v1` request.
fn fnv(op: FnvOp) -> Value {
    request(FNV, &op)
}

/// An answer's `result` read as the adapter protocol's result type `T`.
fn result<T: DeserializeOwned>(result: &Value, what: &str) -> Result<T, String> {
    T::deserialize(result).map_err(|err| {
        format!(
            "not a {what} result ({err}): {}",
            shorten(&result.to_string())
        )
    })
}

/// The adapter's request mix.
fn adapter_kinds() -> Vec<AdapterKind> {
    let params = DocParams {
        m: 512,
        k: 8,
        seed_hex: Hex(record(200, 16)),
    };
    let snapshot: Vec<Hex> = (0..64).map(|i| Hex(record(i, 64))).collect();
    let small: Vec<Hex> = (0..16).map(|i| Hex(record(i, 32))).collect();
    let probes: Vec<Hex> = small
        .iter()
        .cloned()
        .chain((100..116).map(|i| Hex(record(i, 32))))
        .collect();
    let units: Vec<u16> = (0..254)
        .map(|i| 0x61 + i % 26)
        .chain([0xd83d, 0xde00])
        .collect();
    let kinds: [(&str, usize, Value, AnswerCheck); 6] = [
        (
            "positions (doc)",
            12,
            doc(DocOp::Positions {
                params: params.clone(),
                item: snapshot[1].clone(),
            }),
            |r: &Value| {
                let answer: PositionsResult = result(r, "positions")?;
                counted("positions", answer.positions.len(), 8)
            },
        ),
        (
            "positions (fnv, 256 units)",
            12,
            fnv(FnvOp::Positions {
                m: 1024,
                k: 12,
                units,
            }),
            |r: &Value| {
                let answer: FnvHashes = result(r, "positions")?;
                counted("positions", answer.positions.len(), 12)
            },
        ),
        (
            "lookup_many (16 of 32 bytes, 32 items)",
            12,
            doc(DocOp::LookupMany {
                params: params.clone(),
                records: small,
                items: probes,
            }),
            |r: &Value| {
                let answer: TriplesResult = result(r, "lookup_many")?;
                counted("results", answer.results.len(), 32)?;
                if answer.results.iter().take(16).all(|t| t.duplicate) {
                    Ok(())
                } else {
                    Err("a member was not found as a duplicate".to_string())
                }
            },
        ),
        (
            "build (64 records of 64 bytes)",
            6,
            doc(DocOp::Build {
                params,
                records: snapshot,
            }),
            |r: &Value| {
                let answer: Built = result(r, "build")?;
                if answer.documents == 64 && answer.packed_bits.len() == 64 {
                    Ok(())
                } else {
                    Err(format!(
                        "unexpected build result {}",
                        shorten(&r.to_string())
                    ))
                }
            },
        ),
        (
            "estimates (m 1024, k 12, n 1024)",
            4,
            fnv(FnvOp::Estimates {
                m: 1024,
                k: 12,
                n: 1024,
            }),
            |r: &Value| {
                let answer: EstimatesAnswer = result(r, "estimates")?;
                if (0.0..=1.0).contains(&answer.exact) {
                    Ok(())
                } else {
                    Err(format!("unexpected estimates {}", shorten(&r.to_string())))
                }
            },
        ),
        (
            "session (250 steps, m 1024, k 12)",
            2,
            fnv(FnvOp::Session {
                script: session_script(),
            }),
            |r: &Value| {
                let answer: ScriptAnswer = result(r, "session")?;
                counted("steps", answer.steps.len(), SESSION_STEPS)?;
                match answer.steps.iter().position(|step| step.error.is_some()) {
                    None => Ok(()),
                    Some(i) => Err(format!(
                        "step {i} was rejected: {}",
                        shorten(&r["steps"][i]["error"].to_string())
                    )),
                }
            },
        ),
    ];
    kinds
        .into_iter()
        .map(|(name, weight, request, check)| AdapterKind {
            name,
            weight,
            request: request.to_string(),
            check,
        })
        .collect()
}

/// One adapter process, spoken to by one client.
struct AdapterConn {
    pid: u32,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl AdapterConn {
    /// Writes one request line and reads one answer line.
    fn exchange(&mut self, line: &str) -> Result<String, String> {
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|err| format!("writing the request: {err} (has the adapter exited?)"))?;
        let mut answer = String::new();
        let read = (&mut self.stdout)
            .take(MAX_LINE)
            .read_line(&mut answer)
            .map_err(|err| format!("reading the answer: {err}"))?;
        if read == 0 {
            return Err("the adapter closed its output (exited?)".to_string());
        }
        if !answer.ends_with('\n') {
            return Err(format!(
                "an answer line over {MAX_LINE} bytes, or cut short"
            ));
        }
        Ok(answer)
    }
}

/// Checks one answer line: its id, a `result` and the kind's check.
fn check_answer(answer: &str, id: u64, kind: &AdapterKind) -> Result<(), String> {
    let value: Value = serde_json::from_str(answer)
        .map_err(|err| format!("not JSON ({err}): {}", shorten(answer)))?;
    if value["id"] != id {
        return Err(format!("answer to id {} where {id} was sent", value["id"]));
    }
    if !value["error"].is_null() {
        return Err(format!(
            "an error answer: {}",
            shorten(&value["error"].to_string())
        ));
    }
    (kind.check)(&value["result"])
}

fn adapter_phase(binary: &Path, plan: &Plan) -> Result<PhaseReport, String> {
    let kinds = adapter_kinds();
    let order = mix(&kinds.iter().map(|k| k.weight).collect::<Vec<_>>());
    let fleet = Fleet::default();
    let mut conns = Vec::new();
    for _ in 0..plan.adapter_clients {
        let mut command = Command::new(binary);
        command.arg("adapter").stderr(Stdio::inherit());
        let (pid, stdin, stdout) = fleet.spawn(&mut command)?;
        conns.push(AdapterConn {
            pid,
            stdin,
            stdout: BufReader::new(stdout),
        });
    }
    let started = Instant::now();
    let setup = plan.adapter();
    let soft = started + setup.limit;
    let (count, clients) = (setup.requests, setup.clients);
    let (logs, killed) = with_watchdog(&fleet, soft + GRACE, || {
        run_clients(&mut conns, count, |index, conn| {
            let offset = index * order.len() / clients;
            let mut id = 0_u64;
            client_loop(&order, offset, count, soft, |k| {
                id += 1;
                let kind = &kinds[k];
                let body = kind.request.strip_prefix('{').unwrap_or_default();
                let line = format!("{{\"id\":{id},{body}\n");
                let start = Instant::now();
                let answer = conn.exchange(&line);
                let latency = start.elapsed();
                let fatal = answer.is_err();
                let error = answer.and_then(|a| check_answer(&a, id, kind)).err();
                (
                    Sample {
                        kind: k,
                        latency,
                        error,
                    },
                    fatal,
                )
            })
        })
    });
    let wall = started.elapsed();
    let memory = conns.iter().map(|conn| peak_rss_kib(conn.pid)).collect();
    drop(conns);
    drop(fleet);
    let kinds = kinds.iter().map(|k| k.name).collect();
    Ok(setup.report(kinds, logs, memory, wall, killed))
}

// ---------------------------------------------------------------------------------
// The explorer.

/// Checks the body of an answer.
type Check = Box<dyn Fn(&[u8]) -> Result<(), String> + Send + Sync>;

/// One kind of HTTP request.
struct HttpKind {
    name: &'static str,
    weight: usize,
    request: Request,
    /// The expected status.
    status: u16,
    /// Checks the body of an answer with that status.
    check: Check,
}

/// A POST of the page's script.
fn post(
    name: &'static str,
    weight: usize,
    path: &str,
    body: Vec<u8>,
    status: u16,
    check: Check,
) -> HttpKind {
    HttpKind {
        name,
        weight,
        request: Request {
            method: Method::Post,
            path: path.to_string(),
            from: Caller::Page,
            body,
        },
        status,
        check,
    }
}

/// A GET of one of the page's files, checked to hold `marker`.
fn page_file(
    name: &'static str,
    weight: usize,
    path: &str,
    caller: Caller,
    marker: &'static str,
) -> HttpKind {
    HttpKind {
        name,
        weight,
        request: Request {
            method: Method::Get,
            path: path.to_string(),
            from: caller,
            body: Vec::new(),
        },
        status: 200,
        check: Box::new(move |body: &[u8]| {
            if body.windows(marker.len()).any(|w| w == marker.as_bytes()) {
                Ok(())
            } else {
                Err(format!("the answer does not hold {marker:?}"))
            }
        }),
    }
}

/// An error answer of this `kind`.
fn error_kind(kind: &'static str) -> Check {
    Box::new(
        move |body: &[u8]| match serde_json::from_slice::<Value>(body) {
            Ok(value) if value["error"]["kind"] == kind => Ok(()),
            _ => Err(format!(
                "not the error {kind:?}: {}",
                shorten(&String::from_utf8_lossy(body))
            )),
        },
    )
}

/// The explorer's request mix: the page's files, and two requests it refuses.
fn explore_kinds() -> Vec<HttpKind> {
    vec![
        page_file("GET / (the page)", 2, "/", Caller::Navigation, "<html"),
        page_file(
            "GET /assets/app.js",
            2,
            "/assets/app.js",
            Caller::Page,
            "import",
        ),
        page_file(
            "GET /assets/style.css",
            1,
            "/assets/style.css",
            Caller::Page,
            ":root",
        ),
        page_file(
            "GET /assets/js/session.mjs",
            2,
            "/assets/js/session.mjs",
            Caller::Page,
            "export class Session",
        ),
        post(
            "POST / (refused: 405)",
            1,
            "/",
            b"{}".to_vec(),
            405,
            error_kind("method_not_allowed"),
        ),
        HttpKind {
            name: "GET /api/apply (no API: 404)",
            weight: 1,
            request: Request {
                method: Method::Get,
                path: "/api/apply".to_string(),
                from: Caller::Page,
                body: Vec::new(),
            },
            status: 404,
            check: error_kind("not_found"),
        },
    ]
}

/// Sends one request of `kind`: its latency and why it failed, if it did.
fn send_http(
    client: &mut Client,
    kind: &HttpKind,
    deadline: Instant,
) -> (Duration, Result<(), String>) {
    let start = Instant::now();
    let response = client.send(&kind.request, deadline);
    let latency = start.elapsed();
    let outcome = response.and_then(|response| {
        if response.status != kind.status {
            return Err(format!(
                "status {} (expected {}): {}",
                response.status,
                kind.status,
                shorten(&String::from_utf8_lossy(&response.body))
            ));
        }
        (kind.check)(&response.body)
    });
    (latency, outcome)
}

/// Waits for the URL `bloomproof explore` prints; keeps reading its output afterwards
/// (on a thread that ends when the server does) so that it never blocks on a full pipe.
fn read_address(stdout: ChildStdout) -> Result<SocketAddr, String> {
    let (lines, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            match line {
                Ok(line) => {
                    // The receiver stops listening once it has the URL.
                    let _ = lines.send(line);
                }
                Err(_) => break,
            }
        }
    });
    let deadline = Instant::now() + STARTUP_LIMIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = match receive.recv_timeout(left) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "bloomproof explore printed no URL within {} s",
                    STARTUP_LIMIT.as_secs()
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err("bloomproof explore exited before printing its URL".to_string());
            }
        };
        if let Some(at) = line.find("http://") {
            let rest = &line[at + "http://".len()..];
            let host = rest.split(['/', ' ']).next().unwrap_or_default();
            let addr: SocketAddr = host
                .parse()
                .map_err(|err| format!("cannot read the address in {line:?}: {err}"))?;
            if !addr.ip().is_loopback() {
                return Err(format!(
                    "bloomproof explore listens on {addr}, not loopback"
                ));
            }
            return Ok(addr);
        }
    }
}

fn explore_phase(binary: &Path, plan: &Plan) -> Result<PhaseReport, String> {
    let fleet = Fleet::default();
    let mut command = Command::new(binary);
    command
        .args(["explore", "--host", "127.0.0.1", "--port", "0"])
        .stderr(Stdio::inherit());
    let (pid, stdin, stdout) = fleet.spawn(&mut command)?;
    drop(stdin);
    let addr = read_address(stdout)?;
    let started = Instant::now();
    let setup = plan.explore();
    let soft = started + setup.limit;
    let (count, clients) = (setup.requests, setup.clients);
    type Phase = (Vec<ClientLog>, Duration, Vec<&'static str>);
    let (phase, killed) = with_watchdog(&fleet, soft + GRACE, || -> Result<Phase, String> {
        let kinds = explore_kinds();
        let order = mix(&kinds.iter().map(|k| k.weight).collect::<Vec<_>>());
        let mut http_clients = (0..clients)
            .map(|_| Client::new(addr))
            .collect::<Result<Vec<_>, _>>()?;
        let timed = Instant::now();
        let logs = run_clients(&mut http_clients, count, |index, client| {
            let offset = index * order.len() / clients;
            client_loop(&order, offset, count, soft, |k| {
                let (latency, outcome) = send_http(client, &kinds[k], soft + GRACE);
                (
                    Sample {
                        kind: k,
                        latency,
                        error: outcome.err(),
                    },
                    false,
                )
            })
        });
        Ok((
            logs,
            timed.elapsed(),
            kinds.iter().map(|k| k.name).collect(),
        ))
    });
    let memory = vec![peak_rss_kib(pid)];
    drop(fleet);
    let (logs, wall, kinds) = phase?;
    Ok(setup.report(kinds, logs, memory, wall, killed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let hundred: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&hundred, 50), Some(50));
        assert_eq!(percentile(&hundred, 99), Some(99));
        assert_eq!(percentile(&hundred, 100), Some(100));
        assert_eq!(percentile(&hundred, 0), Some(1));
        assert_eq!(percentile(&hundred, 1), Some(1));

        let ten: Vec<u32> = (1..=10).collect();
        assert_eq!(percentile(&ten, 50), Some(5));
        assert_eq!(percentile(&ten, 51), Some(6));
        // With fewer than 100 values p99 is the largest.
        assert_eq!(percentile(&ten, 99), Some(10));

        assert_eq!(percentile(&[7], 50), Some(7));
        assert_eq!(percentile(&[7], 99), Some(7));
        assert_eq!(percentile::<u32>(&[], 50), None);
        assert_eq!(percentile(&[1, 2, 3], 500), Some(3));

        let latencies: Vec<Duration> = (1..=1000).map(Duration::from_micros).collect();
        assert_eq!(percentile(&latencies, 99), Some(Duration::from_micros(990)));
    }

    #[test]
    fn weighted_mix_spreads_each_kind() {
        // The smooth weighted round-robin of the classic example: a a b a c a a.
        assert_eq!(mix(&[5, 1, 1]), vec![0, 0, 1, 0, 2, 0, 0]);
        assert_eq!(mix(&[1, 1]), vec![0, 1]);
        assert_eq!(mix(&[]), Vec::<usize>::new());

        let weights: Vec<usize> = adapter_kinds().iter().map(|k| k.weight).collect();
        let order = mix(&weights);
        assert_eq!(order.len(), weights.iter().sum::<usize>());
        for (kind, weight) in weights.iter().enumerate() {
            assert_eq!(order.iter().filter(|k| **k == kind).count(), *weight);
        }
    }

    #[test]
    fn the_requests_are_as_large_as_documented() {
        assert_eq!(session_script().len(), SESSION_STEPS);
        let kinds = adapter_kinds();
        let steps = format!("session ({SESSION_STEPS} steps");
        assert!(kinds.iter().any(|k| k.name.starts_with(&steps)));
        assert!(kinds.iter().all(|k| k.request.starts_with('{')));
        let build = kinds.iter().find(|k| k.name.starts_with("build"));
        let records = build
            .and_then(|k| serde_json::from_str::<Value>(&k.request).ok())
            .and_then(|v| v["records"].as_array().cloned())
            .unwrap_or_default();
        assert_eq!(records.len(), 64);
        assert!(
            records
                .iter()
                .all(|r| r.as_str().map(str::len) == Some(128))
        );
        let distinct: std::collections::BTreeSet<_> =
            records.iter().filter_map(Value::as_str).collect();
        assert_eq!(distinct.len(), 64);

        let kinds = explore_kinds();
        assert!(
            kinds
                .iter()
                .any(|k| k.request.path == "/assets/js/session.mjs")
        );
        assert!(kinds.iter().all(|k| (k.check)(b"").is_err()));
    }

    #[test]
    fn reads_vm_hwm() {
        // This process's own status, on Linux.
        if Path::new("/proc/self/status").exists() {
            assert!(peak_rss_kib(std::process::id()).is_some_and(|kib| kib > 0));
        }
    }
}
