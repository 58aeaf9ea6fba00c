//! `cargo xtask load [--quick]`: a load test of `bloomproof adapter` and `bloomproof
//! explore` on this machine, loopback only, bounded in count and in time.
//!
//! 1. Builds the binary: `cargo build --release -p bloomproof` (`process::build_bloomproof`).
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

mod adapter;
mod explore;
mod fleet;
mod http;
mod stats;

use adapter::*;
use explore::*;
use fleet::*;
use stats::*;

use bloomproof_wire::protocols::doc_membership_v1::{Built, DocOp, PositionsResult, TriplesResult};
use bloomproof_wire::protocols::fnv1a_utf16_v1::session::DraftField;
use bloomproof_wire::protocols::fnv1a_utf16_v1::{
    EstimatesAnswer, FnvHashes, FnvOp, ScriptAnswer, ScriptOp, TextValue,
};
use bloomproof_wire::{DocParams, Hex};
use http::{Caller, Client, Method, Request, shorten};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::path::Path;
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
    let binary = crate::process::build_bloomproof(&root, true)?;
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
