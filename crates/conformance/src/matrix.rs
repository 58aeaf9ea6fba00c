//! The results matrix: the list of implementations (`vectors/check/implementations.json`),
//! how one implementation's report is judged against its expected failures, and the
//! matrix document that `cargo xtask matrix` writes (`target/matrix/matrix.json`).
//!
//! A check of an implementation is, in the matrix, exactly one of:
//! * **passed**: every case passed and the check is not listed;
//! * **expected failure**: it failed and the implementation lists it, with a reason;
//! * **stale**: it passed but the implementation lists it as an expected failure: an
//!   error (the list no longer says the truth; remove the entry);
//! * **unexpected failure**: it failed and is not listed: an error.
//!
//! An entry naming a check the spec does not have is an error too.

use crate::report::Report;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The implementations file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Implementations {
    /// The schema of this file, for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Every implementation the matrix runs, in the order of its rows and columns.
    pub implementations: Vec<Implementation>,
}

/// One implementation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Implementation {
    /// A short unique name: lowercase ASCII letters, digits and `-`, starting with a
    /// letter or digit (it names the badge file and the page's anchors).
    pub name: String,
    /// The language it is written in.
    pub language: String,
    /// The adapter command (`spec/ADAPTER.md`), run with `sh -c` from the repository's
    /// root; `{bloomproof}` stands for the built `bloomproof` binary. Absent: the
    /// production Rust crates, in process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// A command (run like `command`) whose first line of standard output is the
    /// implementation's version.
    pub version: String,
    /// The checks this implementation is known to fail, each with the reason. A listed
    /// check that passes is an error (the list is stale).
    #[serde(default)]
    pub expected_failures: Vec<ExpectedFailure>,
}

/// A check an implementation is known to fail.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectedFailure {
    /// `<protocol>/<check>`, as the report names it.
    pub check: String,
    /// Why it fails, for the reader of the matrix (not empty).
    pub reason: String,
}

impl Implementations {
    /// Reads an implementations file's text, refusing unknown fields, an empty list,
    /// a bad or repeated name, an empty reason and a check listed twice; `origin`
    /// names the file in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self, String> {
        let list: Implementations =
            serde_json::from_str(text).map_err(|err| format!("{origin}: {err}"))?;
        if list.implementations.is_empty() {
            return Err(format!("{origin}: no implementation is listed"));
        }
        let mut names = std::collections::BTreeSet::new();
        for (index, implementation) in list.implementations.iter().enumerate() {
            let at = format!("{origin}: implementations[{index}]");
            let name = &implementation.name;
            let well_formed = name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !name.is_empty()
                && !name.starts_with('-');
            if !well_formed {
                return Err(format!(
                    "{at}: name {name:?}: lowercase ASCII letters, digits and `-`, not starting with `-`"
                ));
            }
            if !names.insert(name.as_str()) {
                return Err(format!("{at}: name {name:?} is listed twice"));
            }
            let mut checks = std::collections::BTreeSet::new();
            for (entry, expected) in implementation.expected_failures.iter().enumerate() {
                let at = format!("{at} ({name}): expected_failures[{entry}]");
                if expected.reason.trim().is_empty() {
                    return Err(format!("{at}: {}: the reason is empty", expected.check));
                }
                if !checks.insert(expected.check.as_str()) {
                    return Err(format!("{at}: {} is listed twice", expected.check));
                }
            }
        }
        Ok(list)
    }
}

/// Where a check of an implementation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every case passed; not listed.
    Passed,
    /// Failed, and listed as an expected failure.
    ExpectedFailure,
    /// Passed, but listed as an expected failure: an error.
    Stale,
    /// Failed, and not listed: an error.
    Unexpected,
}

impl Status {
    /// Whether this status fails the matrix.
    pub fn is_error(self) -> bool {
        matches!(self, Status::Stale | Status::Unexpected)
    }

    /// A word for the page and the summary.
    pub fn label(self) -> &'static str {
        match self {
            Status::Passed => "pass",
            Status::ExpectedFailure => "expected failure",
            Status::Stale => "STALE",
            Status::Unexpected => "FAIL",
        }
    }
}

/// One failing case, as the report gave it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CaseFailure {
    /// The case id.
    pub case: String,
    /// What was compared.
    pub what: String,
    /// The case's inputs, as in the spec file.
    pub input: serde_json::Value,
    /// The expected value.
    pub expected: String,
    /// What the implementation gave.
    pub actual: String,
}

/// One cell of the results table: one check of one implementation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Cell {
    /// `<protocol>/<check>`.
    pub check: String,
    /// Where it stands.
    pub status: Status,
    /// Number of cases run.
    pub cases: usize,
    /// The listed reason, for an expected failure or a stale entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Every failing case.
    pub failures: Vec<CaseFailure>,
}

/// One implementation's row of the matrix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ImplementationResult {
    /// Its name in the implementations file.
    pub name: String,
    /// Its language.
    pub language: String,
    /// Its adapter command as listed (`null`: in process).
    pub command: Option<String>,
    /// What its version command printed (or why it printed nothing).
    pub version: String,
    /// The name the report gave it.
    pub report_name: String,
    /// Checks passed.
    pub passed: usize,
    /// Checks run.
    pub total: usize,
    /// One cell per check, in spec order.
    pub cells: Vec<Cell>,
    /// Why the implementation could not be run at all, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ImplementationResult {
    /// The shields.io endpoint badge: `{"schemaVersion": 1, "label", "message",
    /// "color"}`: green when every check passed, yellow when only expected failures
    /// failed, red otherwise.
    pub fn badge(&self) -> serde_json::Value {
        let expected = self
            .cells
            .iter()
            .filter(|cell| cell.status == Status::ExpectedFailure)
            .count();
        let color = if self.error.is_some() || self.cells.iter().any(|c| c.status.is_error()) {
            "red"
        } else if expected > 0 {
            "yellow"
        } else {
            "brightgreen"
        };
        let message = if self.error.is_some() {
            "not run".to_string()
        } else {
            format!("{}/{}", self.passed, self.total)
        };
        serde_json::json!({
            "schemaVersion": 1,
            "label": format!("bloomproof {}", self.name),
            "message": message,
            "color": color,
        })
    }
}

/// The whole matrix, as `matrix.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Matrix {
    /// The spec version every implementation ran (64 hex digits).
    pub spec_version: String,
    /// When the matrix ran, RFC 3339 in UTC.
    pub ran_at: String,
    /// Every check, `<protocol>/<check>`, in spec order (the rows of the table).
    pub checks: Vec<String>,
    /// One entry per implementation, in the order of the implementations file.
    pub implementations: Vec<ImplementationResult>,
    /// Cross-reading: one grid per protocol (`crate::cross`).
    pub cross: Vec<crate::cross::Grid>,
    /// Everything that fails the matrix, one line each; empty when it passed.
    pub errors: Vec<String>,
}

/// How many failures of one check [`judge`] names in its error lines (the cells keep
/// them all).
pub const FAILURES_NAMED: usize = 3;

/// Judges one implementation's report against its expected failures: one cell per
/// check of the report, in order, and one error line per stale entry, unexpected
/// failure or entry naming a check the report does not have. `checks` is every
/// check of the spec (an entry for a check that exists but was filtered out of the
/// run is not an error).
pub fn judge(
    implementation: &Implementation,
    report: &Report,
    checks: &[String],
) -> (Vec<Cell>, Vec<String>) {
    let name = &implementation.name;
    let mut errors = Vec::new();
    let mut cells = Vec::new();
    for outcome in &report.checks {
        let check = outcome.full_name();
        let listed = implementation
            .expected_failures
            .iter()
            .find(|e| e.check == check);
        let status = match (outcome.passed(), listed) {
            (true, None) => Status::Passed,
            (false, Some(_)) => Status::ExpectedFailure,
            (true, Some(_)) => Status::Stale,
            (false, None) => Status::Unexpected,
        };
        let failures: Vec<CaseFailure> = outcome
            .failures
            .iter()
            .map(|f| CaseFailure {
                case: f.case.clone(),
                what: f.what.clone(),
                input: f.input.clone(),
                expected: f.expected.clone(),
                actual: f.actual.clone(),
            })
            .collect();
        match status {
            Status::Stale => errors.push(format!(
                "{name}: {check} passed but is listed as an expected failure ({:?}): the list is stale, remove the entry",
                listed.map(|e| e.reason.as_str()).unwrap_or_default()
            )),
            Status::Unexpected => {
                for failure in failures.iter().take(FAILURES_NAMED) {
                    errors.push(format!(
                        "{name}: {check} failed unexpectedly: case {}: {}: expected {}, got {}",
                        failure.case, failure.what, failure.expected, failure.actual
                    ));
                }
                if failures.len() > FAILURES_NAMED {
                    errors.push(format!(
                        "{name}: {check}: {} more failures (the page and matrix.json have them all)",
                        failures.len() - FAILURES_NAMED
                    ));
                }
            }
            Status::Passed | Status::ExpectedFailure => {}
        }
        cells.push(Cell {
            check,
            status,
            cases: outcome.cases,
            reason: listed.map(|e| e.reason.clone()),
            failures,
        });
    }
    for entry in &implementation.expected_failures {
        if !checks.contains(&entry.check) {
            errors.push(format!(
                "{name}: expected failure {:?} names no check of the spec",
                entry.check
            ));
        }
    }
    (cells, errors)
}

/// The JSON Schemas of the implementations file, of `matrix.json` and of a
/// `--session-from` file: (file name, text), as `cargo xtask schemas` writes them to
/// `vectors/check/`.
pub fn schemas() -> Vec<(&'static str, String)> {
    use crate::schemas::render;
    vec![
        (
            "implementations.schema.json",
            render::<Implementations>(
                "bloomproof implementations of the results matrix (vectors/check/implementations.json)",
            ),
        ),
        (
            "matrix.schema.json",
            render::<Matrix>("bloomproof results matrix (target/matrix/matrix.json)"),
        ),
        (
            "session-from.schema.json",
            render::<crate::cross::ExportedSession>(
                "a session exported by another producer (cargo xtask matrix --session-from NAME=FILE)",
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{CheckOutcome, Failure};

    fn outcome(name: &str, failed: bool) -> CheckOutcome {
        CheckOutcome {
            protocol: "p".to_string(),
            name: name.to_string(),
            cases: 2,
            inside_implementation: None,
            failures: if failed {
                vec![Failure {
                    case: format!("{name}/case-1"),
                    what: "positions".to_string(),
                    input: serde_json::json!({"m": 16}),
                    expected: "[4, 7, 7]".to_string(),
                    actual: "[4, 7, 8]".to_string(),
                }]
            } else {
                Vec::new()
            },
            elapsed_ms: None,
        }
    }

    fn implementation(expected: &[&str]) -> Implementation {
        Implementation {
            name: "py".to_string(),
            language: "Python".to_string(),
            command: Some("python3 adapter.py".to_string()),
            version: "python3 --version".to_string(),
            expected_failures: expected
                .iter()
                .map(|check| ExpectedFailure {
                    check: (*check).to_string(),
                    reason: "known".to_string(),
                })
                .collect(),
        }
    }

    fn report() -> Report {
        let mut report = Report::default();
        report.push(outcome("passes", false));
        report.push(outcome("fails", true));
        report
    }

    fn checks() -> Vec<String> {
        vec!["p/passes".to_string(), "p/fails".to_string()]
    }

    #[test]
    fn a_pass_and_a_listed_failure_are_no_error() {
        let (cells, errors) = judge(&implementation(&["p/fails"]), &report(), &checks());
        assert_eq!(errors, Vec::<String>::new());
        let statuses: Vec<Status> = cells.iter().map(|c| c.status).collect();
        assert_eq!(statuses, [Status::Passed, Status::ExpectedFailure]);
        assert_eq!(cells[1].reason.as_deref(), Some("known"));
        assert_eq!(cells[1].failures[0].case, "fails/case-1");
    }

    #[test]
    fn an_unlisted_failure_is_an_error_naming_the_case() {
        let (cells, errors) = judge(&implementation(&[]), &report(), &checks());
        assert_eq!(cells[1].status, Status::Unexpected);
        assert_eq!(
            errors,
            [
                "py: p/fails failed unexpectedly: case fails/case-1: positions: expected [4, 7, 7], got [4, 7, 8]"
            ]
        );
    }

    #[test]
    fn a_listed_check_that_passes_is_stale() {
        let (cells, errors) = judge(
            &implementation(&["p/fails", "p/passes"]),
            &report(),
            &checks(),
        );
        assert_eq!(cells[0].status, Status::Stale);
        assert_eq!(cells[1].status, Status::ExpectedFailure);
        assert_eq!(
            errors,
            [
                "py: p/passes passed but is listed as an expected failure (\"known\"): the list is stale, remove the entry"
            ]
        );
    }

    #[test]
    fn an_entry_for_no_check_is_an_error() {
        let (_, errors) = judge(
            &implementation(&["p/fails", "p/nothing"]),
            &report(),
            &checks(),
        );
        assert_eq!(
            errors,
            ["py: expected failure \"p/nothing\" names no check of the spec"]
        );
    }

    #[test]
    fn badges_say_passed_over_total_and_colour_by_status() {
        let (cells, _) = judge(&implementation(&["p/fails"]), &report(), &checks());
        let mut result = ImplementationResult {
            name: "py".to_string(),
            language: "Python".to_string(),
            command: None,
            version: String::new(),
            report_name: String::new(),
            passed: 1,
            total: 2,
            cells,
            error: None,
        };
        assert_eq!(
            result.badge(),
            serde_json::json!({"schemaVersion": 1, "label": "bloomproof py", "message": "1/2", "color": "yellow"})
        );
        result.cells[1].status = Status::Unexpected;
        assert_eq!(result.badge()["color"], "red");
        result.cells.truncate(1);
        assert_eq!(result.badge()["color"], "brightgreen");
    }

    #[test]
    fn the_file_is_read_strictly() {
        let good = r#"{"implementations": [{"name": "rust", "language": "Rust", "version": "v"}]}"#;
        assert!(Implementations::parse(good, "f").is_ok());
        for (bad, why) in [
            (r#"{"implementations": []}"#, "no implementation"),
            (
                r#"{"implementations": [{"name": "Rust", "language": "R", "version": "v"}]}"#,
                "lowercase",
            ),
            (
                r#"{"implementations": [{"name": "a", "language": "R", "version": "v"}, {"name": "a", "language": "R", "version": "v"}]}"#,
                "listed twice",
            ),
            (
                r#"{"implementations": [{"name": "a", "language": "R", "version": "v", "expected_failures": [{"check": "p/x", "reason": " "}]}]}"#,
                "reason is empty",
            ),
            (
                r#"{"implementations": [{"name": "a", "language": "R", "version": "v", "extra": 1}]}"#,
                "unknown field",
            ),
        ] {
            let err = Implementations::parse(bad, "f").err().unwrap_or_default();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }
}
