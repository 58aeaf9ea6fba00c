//! The report: one outcome per documented check, the published figures, the totals.

use serde::Serialize;
use std::fmt::Write as _;

/// One mismatch, with everything needed to see why.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckOutcome {
    /// The protocol.
    pub protocol: String,
    /// The check's name.
    pub name: String,
    /// Number of cases run.
    pub cases: usize,
    /// Every mismatch; empty means the check passed.
    pub failures: Vec<Failure>,
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
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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

/// A whole run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    /// The implementation that was run.
    pub implementation: String,
    /// One outcome per documented check, in spec order.
    pub checks: Vec<CheckOutcome>,
    /// Figures per protocol.
    pub figures: Vec<(String, Figures)>,
    /// Number of checks passed.
    pub passed: usize,
    /// Number of checks failed.
    pub failed: usize,
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

    /// The text report: a line per check, failures, figures, and `N passed, M failed`.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "implementation: {}", self.implementation);
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
            if !check.passed() {
                out.push_str(&check.render_failures());
            }
        }
        for (protocol, figures) in &self.figures {
            if figures.0.is_empty() {
                continue;
            }
            let _ = writeln!(out, "\nfigures, {protocol}:");
            for (name, value) in &figures.0 {
                let _ = writeln!(out, "  {name}: {value}");
            }
        }
        let _ = writeln!(out, "\n{} passed, {} failed", self.passed, self.failed);
        out
    }
}
