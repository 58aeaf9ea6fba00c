//! The report of a run: one outcome per documented check, the figures the
//! implementation gave beside the published ones, the totals. `cargo xtask schemas`
//! writes `spec/schemas/report.schema.json` from [`Report`]; `bloomproof conformance
//! --format json` prints one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// A figure the source document published.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishedFigure {
    /// The figure's name in the report.
    pub name: String,
    /// The check whose run observes it.
    pub check: String,
    /// The published value.
    pub value: serde_json::Value,
    /// Where it was published.
    pub source: String,
}

/// One mismatch, with everything needed to see why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Failure {
    /// The case id.
    pub case: String,
    /// What was compared.
    pub what: String,
    /// The case's inputs, as in the spec file.
    pub input: serde_json::Value,
    /// The expected value.
    pub expected: String,
    /// What the implementation (or the oracle) gave.
    pub actual: String,
}

/// The outcome of one documented check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckOutcome {
    /// The protocol.
    pub protocol: String,
    /// The check's name.
    pub name: String,
    /// Number of cases run.
    pub cases: usize,
    /// What part of the check runs inside the implementation, unseen by the runner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inside_implementation: Option<String>,
    /// Every mismatch; empty means the check passed.
    pub failures: Vec<Failure>,
    /// How long the check took, in milliseconds (wall time of its thread); `None` once
    /// [`Report::without_times`] removed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
}

impl CheckOutcome {
    /// Whether the check passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// `<protocol>/<name>`, the trial name.
    pub fn full_name(&self) -> String {
        format!("{}/{}", self.protocol, self.name)
    }

    /// Every failure, one block each, for a terminal.
    pub fn render_failures(&self) -> String {
        let mut out = String::new();
        for failure in &self.failures {
            let input = serde_json::to_string(&failure.input).unwrap_or_default();
            let _ = writeln!(out, "  case {}: {}", failure.case, failure.what);
            let _ = writeln!(out, "    input:    {input}");
            let _ = writeln!(out, "    expected: {}", failure.expected);
            let _ = writeln!(out, "    actual:   {}", failure.actual);
        }
        out
    }
}

/// Figures a run measured, in the order they were recorded (as the seed's report).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Figures(pub Vec<(String, serde_json::Value)>);

impl Figures {
    /// Records (or replaces) one figure.
    pub fn set(&mut self, name: &str, value: impl Serialize) {
        let value = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name.to_string(), value)),
        }
    }
}

/// One figure line of the report: what the implementation gave in this run, beside
/// what the source document published.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FigureLine {
    /// The figure's name.
    pub name: String,
    /// The value the implementation gave in this run; `None` when it gave none.
    pub observed: Option<serde_json::Value>,
    /// The published value, where the source document published one.
    pub published: Option<serde_json::Value>,
    /// Whether both exist and differ.
    pub differs: bool,
}

impl FigureLine {
    /// `name: observed (published p)`, with `DIFFERS` when they differ.
    pub fn render(&self) -> String {
        let observed = self
            .observed
            .as_ref()
            .map_or_else(|| "not observed".to_string(), ToString::to_string);
        match (&self.published, self.differs) {
            (Some(published), true) => {
                format!("{}: {observed} (published {published}) DIFFERS", self.name)
            }
            (Some(published), false) => {
                format!("{}: {observed} (published {published})", self.name)
            }
            (None, _) => format!("{}: {observed}", self.name),
        }
    }
}

/// A whole run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// The implementation that was run.
    pub implementation: String,
    /// The version of the spec that was run: the SHA-256 of its files, 64 hex digits
    /// (see `bloomproof_conformance::embedded`); empty when the run did not name one.
    pub spec_version: String,
    /// One outcome per documented check, in spec order.
    pub checks: Vec<CheckOutcome>,
    /// Figure lines per protocol: every value was given by the implementation in this
    /// run.
    pub figures: Vec<(String, Vec<FigureLine>)>,
    /// Number of checks passed.
    pub passed: usize,
    /// Number of checks failed.
    pub failed: usize,
    /// How long the whole run took, in milliseconds (wall time, checks run on
    /// [`Report::threads`] threads); `None` once [`Report::without_times`] removed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
    /// How many threads ran the checks (1 through an adapter); `None` once
    /// [`Report::without_times`] removed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// The seed of the generated checks' inputs (below 2^53): `--seed` with it draws
    /// the same inputs again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl Report {
    /// Adds an outcome, keeping the totals.
    pub fn push(&mut self, outcome: CheckOutcome) {
        if outcome.passed() {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        self.checks.push(outcome);
    }

    /// The same report without its times (the only part that differs between two
    /// runs of one implementation on one spec), to compare or snapshot reports.
    pub fn without_times(mut self) -> Self {
        self.elapsed_ms = None;
        self.threads = None;
        for check in &mut self.checks {
            check.elapsed_ms = None;
        }
        self
    }

    /// The text report: a line per check, failures, figures, the time (unless
    /// [`Report::without_times`] removed it) and `N passed, M failed`.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "implementation: {}", self.implementation);
        if !self.spec_version.is_empty() {
            let short = self.spec_version.get(..16).unwrap_or(&self.spec_version);
            let _ = writeln!(out, "spec version: {short}");
        }
        let width = self.checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let proto_width = self
            .checks
            .iter()
            .map(|c| c.protocol.len())
            .max()
            .unwrap_or(0);
        for check in &self.checks {
            let status = if check.passed() { "ok    " } else { "FAILED" };
            let plural = if check.cases == 1 { "case" } else { "cases" };
            let _ = writeln!(
                out,
                "{status} {:proto_width$}  {:width$}  {} {plural}",
                check.protocol, check.name, check.cases
            );
            if let Some(inside) = &check.inside_implementation {
                let _ = writeln!(out, "       (inside the implementation: {inside})");
            }
            if !check.passed() {
                out.push_str(&check.render_failures());
            }
        }
        for (protocol, figures) in &self.figures {
            if figures.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "\nfigures, {protocol} (as {} answered in this run):",
                self.implementation
            );
            for line in figures {
                let _ = writeln!(out, "  {}", line.render());
            }
        }
        out.push('\n');
        if let Some(elapsed) = self.elapsed_ms {
            let _ = write!(out, "time: {elapsed:.1} ms");
            if let Some(threads) = self.threads {
                let plural = if threads == 1 { "thread" } else { "threads" };
                let _ = write!(out, " on {threads} {plural}");
            }
            let slowest = self
                .checks
                .iter()
                .filter_map(|c| c.elapsed_ms.map(|ms| (ms, c)))
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((ms, check)) = slowest {
                let _ = write!(out, " (slowest check {} {ms:.1} ms)", check.full_name());
            }
            out.push('\n');
        }
        if let Some(seed) = self.seed {
            let _ = writeln!(
                out,
                "generated inputs: seed {seed} (replay with --seed {seed})"
            );
        }
        let _ = writeln!(out, "{} passed, {} failed", self.passed, self.failed);
        out
    }
}
