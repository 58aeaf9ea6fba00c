//! Collecting the mismatches of one case: shared by every evaluator.

use crate::model::Case;
use crate::report::Failure;
use crate::subject::Answer;
use serde::Serialize;

/// A value as a failure shows it: compact JSON, as on the wire, whatever the
/// implementation's language.
pub(crate) fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|err| format!("(not printable as JSON: {err})"))
}

/// The mismatches of one case, each recorded with the case id and its inputs.
pub(crate) struct Verdict<'a> {
    case: &'a str,
    input: serde_json::Value,
    failures: &'a mut Vec<Failure>,
    diagnosed: bool,
}

impl<'a> Verdict<'a> {
    /// A verdict on `case`, recording into `failures`.
    pub(crate) fn new<I: serde::Serialize, E>(
        case: &'a Case<I, E>,
        failures: &'a mut Vec<Failure>,
    ) -> Self {
        Verdict {
            case: &case.id,
            input: serde_json::to_value(&case.input).unwrap_or_default(),
            failures,
            diagnosed: false,
        }
    }

    /// The number of mismatches recorded so far (of every case sharing the list).
    pub(crate) fn count(&self) -> usize {
        self.failures.len()
    }

    /// Records the first difference `find` names, once per case: a later call does
    /// nothing, so the requests a diagnosis makes stay bounded (each protocol's `diagnose`).
    pub(crate) fn diagnose(&mut self, find: impl FnOnce() -> Option<String>) {
        if self.diagnosed {
            return;
        }
        self.diagnosed = true;
        if let Some(line) = find() {
            self.fail(
                "first difference (stages, asked of the implementation)",
                "every stage equal to the oracle's",
                line,
            );
        }
    }

    /// Records one mismatch.
    pub(crate) fn fail(
        &mut self,
        what: impl Into<String>,
        expected: impl Into<String>,
        actual: impl Into<String>,
    ) {
        self.failures.push(Failure::capped(
            self.case,
            what.into(),
            self.input.clone(),
            expected.into(),
            actual.into(),
        ));
    }

    /// Compares, recording a mismatch that shows both values as JSON ([`json`]).
    pub(crate) fn eq<T: PartialEq + Serialize>(
        &mut self,
        what: &str,
        expected: &T,
        actual: &T,
    ) -> bool {
        if expected == actual {
            return true;
        }
        self.fail(what, json(expected), json(actual));
        false
    }

    /// Records a mismatch when `condition` does not hold.
    pub(crate) fn holds(
        &mut self,
        what: &str,
        condition: bool,
        detail: impl FnOnce() -> String,
    ) -> bool {
        if !condition {
            self.fail(what, "true", detail());
        }
        condition
    }

    /// Unwraps an answer, recording a failure when there is none.
    pub(crate) fn answer<T>(&mut self, what: &str, answer: Answer<T>) -> Option<T> {
        match answer {
            Ok(value) => Some(value),
            Err(err) => {
                self.fail(what, "an answer", err.to_string());
                None
            }
        }
    }
}
