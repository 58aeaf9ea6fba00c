//! How one implementation's report is judged against its expected failures.
//!
//! A check of an implementation is, in the matrix, exactly one of:
//! * **passed**: every case passed and the check is not listed;
//! * **expected failure**: it failed and the implementation lists it, with a reason;
//! * **stale**: it passed but the implementation lists it as an expected failure: an
//!   error (the list no longer says the truth; remove the entry);
//! * **unexpected failure**: it failed and is not listed: an error when the check is
//!   counted in the run's verdict (core, adapter protocol, and the classes `--require`
//!   names; another is shown and counted apart, as in a run's report).
//!
//! An entry naming a check the spec does not have is an error too.

use bloomproof_conformance::report::Report;
use bloomproof_wire::matrix::{Cell, Implementation, Implementations, Matrix, Status};
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
        let failures = outcome.failures.clone();
        match status {
            Status::Stale => errors.push(format!(
                "{name}: {check} passed but is listed as an expected failure ({:?}): the list is stale, remove the entry",
                listed.map(|e| e.reason.as_str()).unwrap_or_default()
            )),
            // A check of a class the run does not require (`--require`) is counted
            // apart and never fails the matrix, as it never fails the run.
            Status::Unexpected if report.counts(outcome.class) => {
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
            Status::Unexpected | Status::Passed | Status::ExpectedFailure => {}
        }
        cells.push(Cell {
            check,
            status,
            class: outcome.class,
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
/// `spec/schemas/` (so `bloomproof spec export` writes them too).
pub fn schemas() -> Vec<(&'static str, String)> {
    use bloomproof_conformance::schemas::render;
    vec![
        (
            "matrix-implementations.schema.json",
            render::<Implementations>(
                "bloomproof implementations of the results matrix (bloomproof matrix --implementations FILE)",
            ),
        ),
        (
            "matrix.schema.json",
            render::<Matrix>(
                "bloomproof results matrix (matrix.json, written by bloomproof matrix)",
            ),
        ),
        (
            "session-from.schema.json",
            render::<crate::cross::ExportedSession>(
                "a session exported by another producer (bloomproof matrix --session-from NAME=FILE)",
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use bloomproof_conformance::report::{CheckOutcome, Class, Failure};
    use bloomproof_wire::matrix::{ClassTally, ExpectedFailure, ImplementationResult};

    fn outcome(name: &str, failed: bool) -> CheckOutcome {
        CheckOutcome {
            protocol: "p".to_string(),
            name: name.to_string(),
            class: Class::Core,
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
            more_failures: 0,
            crashed: false,
            elapsed_ms: None,
        }
    }

    fn implementation(expected: &[&str]) -> Implementation {
        Implementation {
            name: "py".to_string(),
            command: Some("python3 adapter.py".to_string()),
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
    fn an_unlisted_failure_of_a_class_not_required_is_shown_but_fails_nothing() {
        let mut report = report();
        report.checks[1].class = Class::Interop;
        let (cells, errors) = judge(&implementation(&[]), &report, &checks());
        assert_eq!(cells[1].status, Status::Unexpected);
        assert_eq!(cells[1].class, Class::Interop);
        assert_eq!(errors, Vec::<String>::new());
        // Required, it fails the matrix.
        let report = report.requiring(&[Class::Interop]);
        let (_, errors) = judge(&implementation(&[]), &report, &checks());
        assert_eq!(errors.len(), 1, "{errors:?}");
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

    /// The matrix row of `report()` judged with `p/fails` listed (one pass, one expected
    /// failure), with `not_run` and `left_out`.
    fn judged(
        not_run: Vec<String>,
        left_out: Vec<bloomproof_wire::report::LeftOut>,
    ) -> ImplementationResult {
        let (cells, _) = judge(&implementation(&["p/fails"]), &report(), &checks());
        ImplementationResult {
            name: "py".to_string(),
            language: "Python".to_string(),
            command: None,
            version: String::new(),
            report_name: String::new(),
            passed: 1,
            total: 2,
            classes: vec![ClassTally {
                class: Class::Core,
                passed: 1,
                total: 2,
            }],
            not_run,
            left_out,
            cells,
            error: None,
        }
    }

    #[test]
    fn badges_say_passed_over_total_and_colour_by_status() {
        let mut result = judged(vec!["q".to_string()], Vec::new());
        assert_eq!(
            result.badge(),
            serde_json::json!({"schemaVersion": 1, "label": "bloomproof py", "message": "core 1/2; q not run", "color": "yellow"})
        );
        result.cells[1].status = Status::Unexpected;
        assert_eq!(result.badge()["color"], "red");
        result.cells.truncate(1);
        assert_eq!(result.badge()["color"], "brightgreen");
    }

    /// Cases the run left out (they need a later adapter protocol) are named on the badge
    /// and in the protocol's tally; a check left out whole is neither passed nor run.
    #[test]
    fn left_out_cases_and_checks_are_named_with_the_version_they_need() {
        use bloomproof_wire::matrix::MatrixCheck;
        use bloomproof_wire::report::LeftOut;
        let left = |check: &str, cases: &[&str], whole| LeftOut {
            check: check.to_string(),
            cases: cases.iter().map(ToString::to_string).collect(),
            whole,
            needs: 3,
        };
        let result = judged(
            Vec::new(),
            vec![
                left("p/passes", &["a", "b"], false),
                left("p/later", &["c"], true),
            ],
        );
        assert_eq!(
            result.badge()["message"],
            "core 1/2; 3 cases left out (adapter protocol 3)"
        );
        let check = |name: &str| MatrixCheck {
            name: name.to_string(),
            asserts: String::new(),
            source: String::new(),
            class: Class::Core,
        };
        let all = [check("p/passes"), check("p/fails"), check("p/later")];
        assert_eq!(
            crate::page::Tally::of(&result, &all, "p", &[]).text(),
            "1/2 passed, 1 expected failure, 1 check left out (they need adapter protocol 3), \
             2 cases left out (they need adapter protocol 3)"
        );
        let later = crate::page::Tally::of(&result, &all[2..], "p", &[]);
        assert_eq!(
            later.text(),
            "1 check left out (they need adapter protocol 3)"
        );
    }

    #[test]
    fn the_file_is_read_strictly() {
        let good = r#"{"implementations": [{"name": "rust"}]}"#;
        assert!(Implementations::parse(good, "f").is_ok());
        for (bad, why) in [
            (r#"{"implementations": []}"#, "no implementation"),
            (r#"{"implementations": [{"name": "Rust"}]}"#, "lowercase"),
            (
                r#"{"implementations": [{"name": "a"}, {"name": "a"}]}"#,
                "listed twice",
            ),
            (
                r#"{"implementations": [{"name": "a", "expected_failures": [{"check": "p/x", "reason": " "}]}]}"#,
                "reason is empty",
            ),
            (
                r#"{"implementations": [{"name": "a", "extra": 1}]}"#,
                "unknown field",
            ),
        ] {
            let err = Implementations::parse(bad, "f").err().unwrap_or_default();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }
}
