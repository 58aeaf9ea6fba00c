//! Details of the rules that the scenario tests do not pin down on their own:
//! the outcome table and the order and exact content of `Create` errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod common;

use bloomproof_session::{DraftField, Op, OpKind, Outcome, Session, SessionError};
use common::*;

#[test]
fn outcome_table_is_the_documented_one() {
    // outcome, name, kind, maybe present, truly present, false positive
    let table = [
        (Outcome::New, "new", OpKind::Insert, true, true, false),
        (
            Outcome::Duplicate,
            "duplicate",
            OpKind::Insert,
            true,
            true,
            false,
        ),
        (
            Outcome::DefinitelyAbsent,
            "definitely_absent",
            OpKind::Query,
            false,
            false,
            false,
        ),
        (
            Outcome::FalsePositive,
            "false_positive",
            OpKind::Query,
            true,
            false,
            true,
        ),
        (
            Outcome::TrulyPresent,
            "truly_present",
            OpKind::Query,
            true,
            true,
            false,
        ),
    ];
    for (outcome, name, kind, maybe, truly, false_positive) in table {
        assert_eq!(outcome.as_str(), name);
        assert_eq!(outcome.to_string(), name);
        assert_eq!(serde_json::to_value(outcome).unwrap(), name);
        assert_eq!(outcome.kind(), kind, "{name}");
        assert_eq!(outcome.maybe_present(), maybe, "{name}");
        assert_eq!(outcome.truly_present(), truly, "{name}");
        assert_eq!(outcome.false_positive(), false_positive, "{name}");
    }
}

#[test]
fn outcome_predicates_agree_with_the_operations_that_produce_them() {
    // m = 8, k = 1: "a".."h" fill every bit, so "i" is a false positive.
    let mut session = created(8, 1);
    ok(&mut session, &insert("a"));
    ok(&mut session, &query("i"));
    ok(&mut session, &query("a"));
    ok(&mut session, &insert("a"));
    for entry in session.history() {
        let outcome = entry.outcome;
        let expected = match outcome {
            Outcome::New | Outcome::Duplicate => (true, true, false),
            Outcome::TrulyPresent => (true, true, false),
            Outcome::FalsePositive => (true, false, true),
            Outcome::DefinitelyAbsent => (false, false, false),
        };
        assert_eq!(
            (
                outcome.maybe_present(),
                outcome.truly_present(),
                outcome.false_positive()
            ),
            expected
        );
    }
}

#[test]
fn create_reports_the_m_draft_verbatim_before_looking_at_k() {
    // m out of range is reported even though the k draft is not a number.
    let mut session = Session::new();
    ok(&mut session, &set_draft(DraftField::M, "7"));
    ok(&mut session, &set_draft(DraftField::K, "x"));
    assert_eq!(
        rejected(&mut session, &Op::Create {}),
        SessionError::OutOfRange {
            field: DraftField::M,
            value: "7".to_owned(),
            min: 8,
            max: 1024
        }
    );
    // The draft is quoted as typed, leading zeros included.
    for (m, k, field, value, min, max) in [
        ("0007", "3", DraftField::M, "0007", 8, 1024),
        ("01025", "3", DraftField::M, "01025", 8, 1024),
        ("8", "013", DraftField::K, "013", 1, 12),
        ("8", "00", DraftField::K, "00", 1, 12),
    ] {
        let mut session = Session::new();
        ok(&mut session, &set_draft(DraftField::M, m));
        ok(&mut session, &set_draft(DraftField::K, k));
        assert_eq!(
            rejected(&mut session, &Op::Create {}),
            SessionError::OutOfRange {
                field,
                value: value.to_owned(),
                min,
                max
            }
        );
    }
}
