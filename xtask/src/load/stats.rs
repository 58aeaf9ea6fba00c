//! Statistics: percentiles, the request mix, the plan per phase, and the report.

use super::*;

/// The nearest-rank `p`-th percentile (`p` in 0..=100) of ascending `sorted` values:
/// the smallest value with at least `p`% of the values at or below it. `p = 0` gives
/// the smallest value, `p = 100` the largest; no values, `None`.
pub(super) fn percentile<T: Copy>(sorted: &[T], p: usize) -> Option<T> {
    let rank = (p.min(100) * sorted.len()).div_ceil(100).max(1);
    sorted.get(rank - 1).copied()
}

/// The order of one cycle of a weighted mix: kind `i` appears `weights[i]` times, spread
/// as evenly as possible (smooth weighted round-robin; ties go to the earlier kind).
pub(super) fn mix(weights: &[usize]) -> Vec<usize> {
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
pub(super) struct Sample {
    /// Index of its kind.
    pub(super) kind: usize,
    pub(super) latency: Duration,
    /// Why it failed, if it did.
    pub(super) error: Option<String>,
}

/// What one client did.
#[derive(Default)]
pub(super) struct ClientLog {
    pub(super) samples: Vec<Sample>,
    /// Requests never sent (the subject was gone or the time limit was reached).
    pub(super) unsent: usize,
    /// Stopped at the time limit.
    pub(super) limit_hit: bool,
    /// Why the client stopped early, if it did.
    pub(super) stopped: Option<String>,
}

impl Plan {
    pub(super) fn adapter(&self) -> PhasePlan {
        PhasePlan {
            subject: "adapter",
            clients: self.adapter_clients,
            requests: self.adapter_requests,
            limit: self.limit,
        }
    }

    pub(super) fn explore(&self) -> PhasePlan {
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
pub(super) struct PhasePlan {
    pub(super) subject: &'static str,
    pub(super) clients: usize,
    pub(super) requests: usize,
    pub(super) limit: Duration,
}

impl PhasePlan {
    /// The phase's report, from what was observed while it ran.
    pub(super) fn report(
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
pub(super) struct PhaseReport {
    pub(super) subject: &'static str,
    pub(super) clients: usize,
    pub(super) kinds: Vec<&'static str>,
    pub(super) planned: usize,
    pub(super) logs: Vec<ClientLog>,
    /// `VmHWM` of each process, in KiB.
    pub(super) memory: Vec<Option<u64>>,
    pub(super) wall: Duration,
    pub(super) limit: Duration,
    /// The watchdog killed the subjects.
    pub(super) killed: bool,
}

impl PhaseReport {
    pub(super) fn samples(&self) -> impl Iterator<Item = &Sample> {
        self.logs.iter().flat_map(|log| &log.samples)
    }

    pub(super) fn errors(&self) -> usize {
        self.samples().filter(|s| s.error.is_some()).count()
    }

    /// Every reason this phase fails the run.
    pub(super) fn failures(&self) -> Vec<String> {
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

    pub(super) fn memory_text(&self) -> String {
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
pub(super) struct Row {
    pub(super) subject: String,
    pub(super) request: String,
    pub(super) requests: String,
    pub(super) concurrency: String,
    pub(super) p50: String,
    pub(super) p99: String,
    pub(super) max: String,
    pub(super) errors: String,
    pub(super) memory: String,
}

pub(super) fn latency_text(latency: Option<Duration>) -> String {
    match latency {
        None => "-".to_string(),
        Some(d) if d < Duration::from_millis(10) => format!("{:.3} ms", d.as_secs_f64() * 1e3),
        Some(d) if d < Duration::from_secs(1) => format!("{:.1} ms", d.as_secs_f64() * 1e3),
        Some(d) => format!("{:.2} s", d.as_secs_f64()),
    }
}

/// The statistics of some samples: requests, p50, p99, max, errors.
pub(super) fn stats<'a>(samples: impl Iterator<Item = &'a Sample>) -> (usize, [String; 3], usize) {
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

pub(super) fn print_report(plan: &Plan, reports: &[PhaseReport]) {
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
