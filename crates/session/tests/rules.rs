//! The session rules of seed 002 / Protocol 2, one test per rule.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use bloomproof_session::{
    DraftField, ErrorKind, HISTORY_CAP, MAX_ENTRIES, Op, OpKind, Outcome, Panel, Panels, Rate,
    Session, SessionError, Text,
};
use common::*;

#[test]
fn new_session_defaults() {
    let session = Session::new();
    assert_eq!(session, Session::default());
    let view = session.view();
    assert_eq!(
        (
            view.drafts.m.as_str(),
            view.drafts.k.as_str(),
            view.drafts.insert.as_str(),
            view.drafts.query.as_str()
        ),
        ("64", "3", "", "")
    );
    assert!(!view.active);
    assert_eq!(view.params, None);
    assert_eq!(view.bits, None);
    assert_eq!(view.estimates, None);
    assert_eq!(view.rate, Rate::Undefined);
    assert_eq!(
        view.panels,
        Panels {
            positions: false,
            model: false
        }
    );
    assert!(view.last_operation.is_none() && view.history.is_empty());
}

#[test]
fn create_with_default_drafts_gives_an_empty_64_bit_filter() {
    let mut session = Session::new();
    ok(&mut session, &Op::Create {});
    let view = session.view();
    assert!(view.active);
    assert_eq!(view.params.map(|p| (p.m, p.k)), Some((64, 3)));
    assert_eq!(view.bits.as_deref(), Some("0".repeat(64).as_str()));
    assert_eq!((view.bits_set, view.distinct_entries), (0, 0));
}

#[test]
fn create_rejects_drafts_that_are_not_plain_digits() {
    for bad in [
        "", " 8", "8 ", "+8", "-8", "8.0", "1e3", "0x10", "\u{668}", "８", "8\n",
    ] {
        let mut session = Session::new();
        ok(&mut session, &set_draft(DraftField::M, bad));
        let error = rejected(&mut session, &Op::Create {});
        assert_eq!(error.kind(), ErrorKind::InvalidDraft, "{bad:?}");
        assert!(error.to_string().starts_with("m: draft "), "{error}");
        assert!(error.to_string().contains("ASCII digits"), "{error}");
        let mut session = Session::new();
        ok(&mut session, &set_draft(DraftField::K, bad));
        let error = rejected(&mut session, &Op::Create {});
        assert_eq!(
            error,
            SessionError::InvalidDraft {
                field: DraftField::K,
                value: bad.to_owned()
            }
        );
    }
}

#[test]
fn create_checks_bounds_m_8_to_1024_k_1_to_12() {
    for (m, k, good) in [
        ("8", "1", true),
        ("1024", "12", true),
        ("0008", "01", true),
        ("7", "1", false),
        ("1025", "1", false),
        ("0", "1", false),
        ("99999999999999999999999999", "1", false),
        ("8", "0", false),
        ("8", "13", false),
    ] {
        let mut session = Session::new();
        ok(&mut session, &set_draft(DraftField::M, m));
        ok(&mut session, &set_draft(DraftField::K, k));
        if good {
            ok(&mut session, &Op::Create {});
            let params = session.params().unwrap();
            assert_eq!(u64::from(params.m()), m.parse::<u64>().unwrap());
            assert_eq!(u64::from(params.k()), k.parse::<u64>().unwrap());
        } else {
            let error = rejected(&mut session, &Op::Create {});
            assert_eq!(error.kind(), ErrorKind::OutOfRange, "{m} {k}");
        }
    }
    let mut session = Session::new();
    ok(&mut session, &set_draft(DraftField::M, "1025"));
    assert_eq!(
        rejected(&mut session, &Op::Create {}).to_string(),
        "m = 1025 is out of range: must be an integer in 8..=1024"
    );
    ok(&mut session, &set_draft(DraftField::M, "8"));
    ok(&mut session, &set_draft(DraftField::K, "13"));
    assert_eq!(
        rejected(&mut session, &Op::Create {}).to_string(),
        "k = 13 is out of range: must be an integer in 1..=12"
    );
}

#[test]
fn create_again_gives_an_empty_filter() {
    let mut session = created(8, 1);
    ok(&mut session, &insert("a"));
    ok(&mut session, &query("b"));
    ok(&mut session, &Op::Create {});
    assert_eq!(session, created(8, 1));
    assert_eq!(bits(&session), "00000000");
    assert!(session.entries().is_empty() && session.history().is_empty());
}

#[test]
fn seed_example_a_to_h_fills_m8_k1_then_every_new_string_is_a_false_positive() {
    let mut session = created(8, 1);
    let mut landed = Vec::new();
    for letter in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        ok(&mut session, &insert(letter));
        let last = session.last_operation().unwrap();
        assert_eq!(last.outcome, Outcome::New);
        landed.push(last.positions[0].position);
    }
    assert_eq!(landed, [4, 5, 2, 3, 0, 1, 6, 7]);
    assert_eq!(bits(&session), "11111111");
    // The InsertExample op does the same.
    let mut example = created(8, 1);
    ok(&mut example, &Op::InsertExample {});
    assert_eq!(example, session);

    for (n, new) in ["i", "zzz", "A", " ", "😀"].into_iter().enumerate() {
        ok(&mut session, &query(new));
        let last = session.last_operation().unwrap();
        assert_eq!(last.outcome, Outcome::FalsePositive, "{new}");
        assert!(last.outcome.maybe_present() && !last.outcome.truly_present());
        let n = n as u64 + 1;
        assert_eq!(
            session.rate(),
            Rate::Defined {
                false_positives: n,
                negative_queries: n,
                value: 1.0
            }
        );
    }
    assert_eq!(
        outcome(&mut session, &query(Text(vec![0xd800]))),
        Outcome::FalsePositive
    );
    // "i" lands on 4, as the seed says.
    ok(&mut session, &query("i"));
    assert_eq!(session.last_operation().unwrap().positions[0].position, 4);
}

#[test]
fn seed_example_insert_a_query_i_a_b_rate_one_half() {
    let mut session = created(8, 1);
    ok(&mut session, &insert("a"));
    assert_eq!(outcome(&mut session, &query("i")), Outcome::FalsePositive);
    assert_eq!(outcome(&mut session, &query("a")), Outcome::TrulyPresent);
    assert_eq!(
        outcome(&mut session, &query("b")),
        Outcome::DefinitelyAbsent
    );
    let rate = session.rate();
    assert_eq!(
        rate,
        Rate::Defined {
            false_positives: 1,
            negative_queries: 2,
            value: 0.5
        }
    );
    assert_eq!(
        serde_json::to_value(rate).unwrap(),
        serde_json::json!({"state": "defined", "false_positives": 1, "negative_queries": 2, "value": 0.5})
    );
}

#[test]
fn rate_is_undefined_without_a_negative_query() {
    let mut session = created(8, 1);
    assert_eq!(session.rate(), Rate::Undefined);
    ok(&mut session, &insert("a"));
    ok(&mut session, &query("a"));
    ok(&mut session, &query("a"));
    assert_eq!(session.rate(), Rate::Undefined);
    assert_eq!(session.counters().negative_queries, 0);
    assert_eq!(
        serde_json::to_value(session.view().rate).unwrap(),
        serde_json::json!({"state": "undefined"})
    );
    assert_eq!(Session::new().rate(), Rate::Undefined);
}

#[test]
fn truly_present_queries_count_nowhere_and_repeated_queries_count_again() {
    let mut session = created(8, 1);
    ok(&mut session, &insert("a"));
    ok(&mut session, &query("a"));
    assert_eq!(session.counters().negative_queries, 0);
    for n in 1..=3 {
        ok(&mut session, &query("b"));
        assert_eq!(session.counters().negative_queries, n);
        assert_eq!(session.counters().false_positives, 0);
    }
    for n in 1..=2 {
        ok(&mut session, &query("i"));
        assert_eq!(session.counters().false_positives, n);
    }
    assert_eq!(session.counters().negative_queries, 5);
}

#[test]
fn duplicate_insertion_changes_no_bit_entry_or_counter_but_is_recorded() {
    let mut session = created(16, 3);
    ok(&mut session, &insert("a"));
    ok(&mut session, &insert("b"));
    for q in ["x", "y", "z", "w"] {
        ok(&mut session, &query(q));
    }
    let before = session.clone();
    ok(&mut session, &insert("a"));
    assert_eq!(session.bits(), before.bits());
    assert_eq!(session.entries(), before.entries());
    assert_eq!(session.counters(), before.counters());
    assert_eq!(session.counters().negative_queries, 4);
    let last = session.last_operation().unwrap();
    assert_eq!(
        (last.kind, last.outcome),
        (OpKind::Insert, Outcome::Duplicate)
    );
    assert!(last.positions.iter().all(|step| step.before && step.after));
    assert_eq!(session.history().len(), before.history().len() + 1);
    assert_eq!(session.history()[0].outcome, Outcome::Duplicate);
    assert_eq!(session.history()[0].display, "\"a\"");
}

#[test]
fn new_distinct_insertion_resets_both_counters() {
    let mut session = created(8, 1);
    ok(&mut session, &insert("a"));
    ok(&mut session, &query("i"));
    ok(&mut session, &query("b"));
    assert_eq!(
        (
            session.counters().negative_queries,
            session.counters().false_positives
        ),
        (2, 1)
    );
    // "i" shares "a"'s only bit, so no bit changes, but the reference set does.
    let bits_before = bits(&session);
    ok(&mut session, &insert("i"));
    assert_eq!(bits(&session), bits_before);
    assert_eq!(
        (
            session.counters().negative_queries,
            session.counters().false_positives
        ),
        (0, 0)
    );
    assert_eq!(session.rate(), Rate::Undefined);
    // "i" is now truly present.
    assert_eq!(outcome(&mut session, &query("i")), Outcome::TrulyPresent);
}

#[test]
fn reset_empties_the_filter_and_keeps_drafts_params_and_panels() {
    let mut session = created(8, 2);
    ok(&mut session, &set_draft(DraftField::Insert, " draft "));
    ok(&mut session, &set_draft(DraftField::Query, "q"));
    ok(
        &mut session,
        &Op::SetPanel {
            panel: Panel::Model,
            open: true,
        },
    );
    ok(&mut session, &Op::InsertExample {});
    ok(&mut session, &query("z"));
    let drafts = session.drafts().clone();
    ok(&mut session, &Op::Reset {});
    assert_eq!(session.drafts(), &drafts);
    assert_eq!(session.drafts().insert, " draft ");
    assert_eq!(session.params().map(|p| (p.m(), p.k())), Some((8, 2)));
    assert_eq!(bits(&session), "00000000");
    assert!(session.entries().is_empty());
    assert_eq!(session.counters(), Default::default());
    assert!(session.last_operation().is_none() && session.history().is_empty());
    assert!(session.panels().model);
    // Still active: inserting works without Create.
    ok(&mut session, &insert("a"));
}

#[test]
fn operations_without_an_active_filter_are_rejected() {
    let mut session = Session::new();
    for (op, name) in [
        (insert("a"), "insert"),
        (query("a"), "query"),
        (Op::InsertExample {}, "insert_example"),
        (Op::Reset {}, "reset"),
    ] {
        let error = rejected(&mut session, &op);
        assert_eq!(error, SessionError::NoActiveFilter { op: name });
        assert_eq!(error.kind(), ErrorKind::NoActiveFilter);
        assert_eq!(
            error.to_string(),
            format!("{name}: no active filter; create the filter first")
        );
    }
}

#[test]
fn changing_the_m_or_k_draft_discards_the_active_filter() {
    for field in [DraftField::M, DraftField::K] {
        let mut session = created(8, 1);
        ok(&mut session, &insert("a"));
        ok(&mut session, &query("b"));
        ok(&mut session, &set_draft(field, "9"));
        assert_eq!(session.params(), None);
        assert!(session.entries().is_empty() && session.history().is_empty());
        assert!(session.last_operation().is_none());
        assert_eq!(session.counters(), Default::default());
        rejected(&mut session, &insert("a"));
        // Changing it back does not bring the filter back.
        ok(
            &mut session,
            &set_draft(field, if field == DraftField::M { "8" } else { "1" }),
        );
        assert_eq!(session.params(), None);
    }
    // Rewriting the same value keeps it; so does "08"; "8 " does not.
    let mut session = created(8, 1);
    ok(&mut session, &insert("a"));
    let kept = session.clone();
    ok(&mut session, &set_draft(DraftField::M, "8"));
    assert_eq!(session, kept);
    ok(&mut session, &set_draft(DraftField::M, "08"));
    assert_eq!(session.entries(), kept.entries());
    ok(&mut session, &set_draft(DraftField::K, "1"));
    assert!(session.params().is_some());
    ok(&mut session, &set_draft(DraftField::M, "8 "));
    assert_eq!(session.params(), None);
    // The string drafts never discard.
    let mut session = created(8, 1);
    ok(&mut session, &insert("a"));
    ok(&mut session, &set_draft(DraftField::Insert, "zzz"));
    ok(&mut session, &set_draft(DraftField::Query, ""));
    assert_eq!(session.entries().len(), 1);
}

#[test]
fn drafts_are_kept_verbatim_and_bounded() {
    let mut session = Session::new();
    ok(
        &mut session,
        &set_draft(DraftField::Insert, "  e\u{301} \t"),
    );
    assert_eq!(session.drafts().insert, "  e\u{301} \t");
    ok(
        &mut session,
        &set_draft(DraftField::Query, &"x".repeat(1024)),
    );
    let error = rejected(
        &mut session,
        &set_draft(DraftField::Query, &"x".repeat(1025)),
    );
    assert_eq!(error.kind(), ErrorKind::TooLong);
    assert_eq!(
        error.to_string(),
        "query draft: 1025 UTF-16 code units, at most 1024"
    );
}

#[test]
fn string_length_is_1_to_256_utf16_code_units() {
    let mut session = created(64, 3);
    ok(&mut session, &insert("x".repeat(256).as_str()));
    ok(&mut session, &query("y".repeat(256).as_str()));
    for op in [
        insert("x".repeat(257).as_str()),
        query("y".repeat(257).as_str()),
    ] {
        let error = rejected(&mut session, &op);
        assert_eq!(error.kind(), ErrorKind::TooLong);
        assert_eq!(
            error.to_string(),
            format!("{}: 257 UTF-16 code units, at most 256", op.name())
        );
    }
    for op in [insert(""), query(""), insert(Text(vec![]))] {
        let error = rejected(&mut session, &op);
        assert_eq!(error.kind(), ErrorKind::EmptyString);
        assert!(
            error.to_string().contains("1..=256 UTF-16 code units"),
            "{error}"
        );
    }
}

#[test]
fn a_surrogate_pair_counts_two_code_units() {
    let mut session = created(64, 3);
    ok(&mut session, &insert("😀"));
    assert_eq!(session.entries()[0], vec![0xd83d, 0xde00]);
    ok(&mut session, &insert("😀".repeat(128).as_str()));
    let error = rejected(
        &mut session,
        &insert(format!("{}a", "😀".repeat(128)).as_str()),
    );
    assert_eq!(
        error,
        SessionError::TooLong {
            field: DraftField::Insert,
            units: 257,
            max: 256
        }
    );
    // A lone surrogate is one unit and a valid string.
    ok(&mut session, &insert(Text(vec![0xdc00])));
    assert_eq!(session.entries().len(), 3);
}

#[test]
fn comparison_is_exact_composed_and_decomposed_accents_differ() {
    let mut session = created(1024, 12);
    ok(&mut session, &insert("\u{e9}"));
    assert_ne!(
        outcome(&mut session, &query("e\u{301}")),
        Outcome::TrulyPresent
    );
    assert_eq!(session.counters().negative_queries, 1);
    assert_eq!(outcome(&mut session, &insert("e\u{301}")), Outcome::New);
    assert_eq!(session.entries().len(), 2);
    ok(&mut session, &insert("E\u{301}"));
    assert_eq!(session.entries().len(), 3, "case-sensitive");
}

#[test]
fn spaces_count_and_nothing_is_trimmed() {
    let mut session = created(1024, 12);
    ok(&mut session, &insert("a"));
    for spaced in [" a", "a ", "a\u{a0}", "\ta"] {
        assert_ne!(
            outcome(&mut session, &query(spaced)),
            Outcome::TrulyPresent,
            "{spaced:?}"
        );
    }
    ok(&mut session, &insert(" a"));
    ok(&mut session, &insert("a "));
    ok(&mut session, &insert(" "));
    assert_eq!(session.entries().len(), 4);
    assert_eq!(session.last_operation().unwrap().display, "\" \"");
}

#[test]
fn at_most_1024_distinct_entries_and_duplicates_still_accepted() {
    let mut session = created(1024, 2);
    for i in 0..MAX_ENTRIES {
        ok(&mut session, &insert(format!("s{i}").as_str()));
    }
    assert_eq!(session.entries().len(), 1024);
    assert_eq!(session.view().distinct_entries, 1024);
    let error = rejected(&mut session, &insert("one more"));
    assert_eq!(error, SessionError::TooManyEntries { max: 1024 });
    assert_eq!(error.kind(), ErrorKind::TooManyEntries);
    assert!(error.to_string().contains("at most 1024"), "{error}");
    assert_eq!(outcome(&mut session, &insert("s17")), Outcome::Duplicate);
    rejected(&mut session, &Op::InsertExample {});
    // Queries still work at the bound.
    ok(&mut session, &query("one more"));
}

#[test]
fn insert_example_is_all_or_nothing_and_counts_only_new_strings() {
    let fill = |count: usize, with_a_to_d: bool| {
        let mut session = created(1024, 1);
        let mut inserted = 0;
        if with_a_to_d {
            for letter in ["a", "b", "c", "d"] {
                ok(&mut session, &insert(letter));
                inserted += 1;
            }
        }
        for i in inserted..count {
            ok(&mut session, &insert(format!("s{i}").as_str()));
        }
        session
    };
    let mut session = fill(1017, false);
    rejected(&mut session, &Op::InsertExample {});
    let mut session = fill(1016, false);
    ok(&mut session, &Op::InsertExample {});
    assert_eq!(session.entries().len(), 1024);
    // 1020 entries of which a..d: only e..h are new, so it fits.
    let mut session = fill(1020, true);
    ok(&mut session, &Op::InsertExample {});
    assert_eq!(session.entries().len(), 1024);
    let outcomes: Vec<Outcome> = session.history()[..8]
        .iter()
        .rev()
        .map(|h| h.outcome)
        .collect();
    assert_eq!(outcomes[..4], [Outcome::Duplicate; 4]);
    assert_eq!(outcomes[4..], [Outcome::New; 4]);
}

#[test]
fn last_operation_records_hashes_positions_and_before_after() {
    let mut session = created(8, 3);
    ok(&mut session, &insert("a"));
    let last = session.last_operation().unwrap().clone();
    assert_eq!((last.h1, last.h2), (3_826_002_220, 428_013_963));
    assert_reference_hashes(&last, 8, 3);
    assert_eq!(
        last.positions.iter().map(|s| s.index).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    assert!(last.positions.iter().all(|s| !s.before && s.after));
    assert_eq!(
        (last.kind, last.display.as_str(), last.units.as_slice()),
        (OpKind::Insert, "\"a\"", &[0x61][..])
    );
    ok(&mut session, &query("a"));
    let last = session.last_operation().unwrap();
    assert_eq!(last.kind, OpKind::Query);
    assert!(last.positions.iter().all(|s| s.before && s.after));
    ok(&mut session, &query("b"));
    let last = session.last_operation().unwrap();
    assert!(last.positions.iter().all(|s| s.before == s.after));
    let expected: String = reference_bits(&[vec![0x61]], 8, 3);
    for step in &last.positions {
        assert_eq!(
            step.before,
            expected.as_bytes()[usize::from(step.position)] == b'1'
        );
    }
}

#[test]
fn repeated_positions_are_listed_in_order_with_whole_operation_before_after() {
    // m = 8 and k = 12: an odd step cycles through at most 8 positions, so
    // positions repeat.
    let mut session = created(8, 12);
    ok(&mut session, &insert("a"));
    let last = session.last_operation().unwrap();
    assert_eq!(last.positions.len(), 12);
    assert_reference_hashes(last, 8, 12);
    let first = last.positions[0].position;
    assert_eq!(last.positions[8].position, first, "period 8");
    assert!(!last.positions[8].before && last.positions[8].after);
    // m = 12 (not a power of two), k = 12: h2 odd need not cycle through all 12.
    let mut session = created(12, 12);
    ok(&mut session, &insert("a"));
    assert_reference_hashes(session.last_operation().unwrap(), 12, 12);
    assert_eq!(bits(&session), reference_bits(&[vec![0x61]], 12, 12));
}

#[test]
fn positions_are_computed_without_32_bit_wrap() {
    // Compare against independent u128 arithmetic for many strings and every k.
    for m in [8u32, 9, 100, 1000, 1023, 1024] {
        let mut session = created(m, 12);
        for i in 0..40 {
            let s = format!("w{i}é😀");
            ok(&mut session, &query(s.as_str()));
            let last = session.last_operation().unwrap();
            let units: Vec<u16> = s.encode_utf16().collect();
            assert_eq!(last.units, units);
            assert_reference_hashes(last, m, 12);
        }
    }
}

#[test]
fn display_is_json_with_quotes_and_escapes() {
    let mut session = created(64, 3);
    ok(&mut session, &insert("a \"b\"\n\u{1}\\"));
    assert_eq!(
        session.last_operation().unwrap().display,
        r#""a \"b\"\n\u0001\\""#
    );
    ok(&mut session, &query(Text(vec![0x61, 0xd800])));
    let last = session.last_operation().unwrap();
    assert_eq!(last.display, r#""a\ud800""#);
    assert_eq!(last.units, [0x61, 0xd800]);
    ok(&mut session, &query("😀"));
    assert_eq!(session.last_operation().unwrap().display, "\"😀\"");
}

#[test]
fn history_is_newest_first_and_capped() {
    let mut session = created(64, 3);
    ok(&mut session, &insert("first"));
    for i in 0..(HISTORY_CAP + 44) {
        ok(&mut session, &query(format!("q{i}").as_str()));
    }
    let history = session.history();
    assert_eq!(history.len(), HISTORY_CAP);
    assert_eq!(history[0].display, format!("\"q{}\"", HISTORY_CAP + 43));
    assert_eq!(history[0].units, session.last_operation().unwrap().units);
    assert_eq!(history[HISTORY_CAP - 1].display, "\"q44\"");
    assert!(history.iter().all(|h| h.kind == OpKind::Query));
}

#[test]
fn panels_open_and_close_with_or_without_a_filter_and_survive_discard() {
    let mut session = Session::new();
    ok(
        &mut session,
        &Op::SetPanel {
            panel: Panel::Positions,
            open: true,
        },
    );
    assert_eq!(
        session.panels(),
        Panels {
            positions: true,
            model: false
        }
    );
    ok(&mut session, &Op::Create {});
    ok(
        &mut session,
        &Op::SetPanel {
            panel: Panel::Model,
            open: true,
        },
    );
    ok(&mut session, &set_draft(DraftField::M, "9"));
    assert_eq!(
        session.panels(),
        Panels {
            positions: true,
            model: true
        }
    );
    ok(
        &mut session,
        &Op::SetPanel {
            panel: Panel::Positions,
            open: false,
        },
    );
    assert_eq!(
        session.panels(),
        Panels {
            positions: false,
            model: true
        }
    );
}

#[test]
fn ops_deserialize_from_json_and_reject_unknown_fields() {
    let ops: Vec<Op> = serde_json::from_str(
        r#"[
            {"op":"set_draft","field":"m","value":"8"},
            {"op":"set_draft","field":"k","value":"1"},
            {"op":"set_draft","field":"insert","value":" a"},
            {"op":"set_draft","field":"query","value":""},
            {"op":"create"},
            {"op":"insert","value":"a"},
            {"op":"insert","value":[55296,97]},
            {"op":"query","value":"i"},
            {"op":"insert_example"},
            {"op":"reset"},
            {"op":"set_panel","panel":"positions","open":true},
            {"op":"set_panel","panel":"model","open":false}
        ]"#,
    )
    .unwrap();
    assert_eq!(ops[6], insert(Text(vec![0xd800, 0x61])));
    let mut session = Session::new();
    session.apply_all(&ops).unwrap();
    assert!(session.panels().positions);
    // Round trip through serde.
    let again: Vec<Op> = serde_json::from_str(&serde_json::to_string(&ops).unwrap()).unwrap();
    assert_eq!(again, ops);
    for bad in [
        r#"{"op":"insert","value":"a","extra":1}"#,
        r#"{"op":"create","extra":1}"#,
        r#"{"op":"reset","extra":true}"#,
        r#"{"op":"delete","value":"a"}"#,
        r#"{"op":"insert"}"#,
        r#"{"op":"insert","value":[65536]}"#,
        r#"{"op":"insert","value":7}"#,
        r#"{"op":"set_draft","field":"n","value":"8"}"#,
        r#"{"op":"set_panel","panel":"positions","open":"yes"}"#,
        r#"{"value":"a"}"#,
    ] {
        assert!(
            serde_json::from_str::<Op>(bad).is_err(),
            "{bad} was accepted"
        );
    }
}

#[test]
fn apply_all_reports_the_index_of_the_failing_op() {
    let mut session = Session::new();
    let ops = [Op::Create {}, insert("a"), insert(""), insert("b")];
    let (index, error) = session.apply_all(&ops).unwrap_err();
    assert_eq!((index, error.kind()), (2, ErrorKind::EmptyString));
    assert_eq!(session.entries().len(), 1);
}

#[test]
fn error_kinds_have_stable_snake_case_names() {
    for (kind, name) in [
        (ErrorKind::InvalidDraft, "invalid_draft"),
        (ErrorKind::OutOfRange, "out_of_range"),
        (ErrorKind::NoActiveFilter, "no_active_filter"),
        (ErrorKind::EmptyString, "empty_string"),
        (ErrorKind::TooLong, "too_long"),
        (ErrorKind::TooManyEntries, "too_many_entries"),
        (ErrorKind::TooLarge, "too_large"),
        (ErrorKind::Syntax, "syntax"),
        (ErrorKind::Invalid, "invalid"),
        (ErrorKind::UnsupportedVersion, "unsupported_version"),
    ] {
        assert_eq!(serde_json::to_value(kind).unwrap(), serde_json::json!(name));
        assert_eq!(kind.as_str(), name);
        assert_eq!(kind.to_string(), name);
    }
}

#[test]
fn view_serialises_the_whole_state() {
    let mut session = created(8, 1);
    ok(&mut session, &insert("a"));
    ok(&mut session, &query("i"));
    ok(
        &mut session,
        &Op::SetPanel {
            panel: Panel::Positions,
            open: true,
        },
    );
    let view = serde_json::to_value(session.view()).unwrap();
    assert_eq!(view["active"], true);
    assert_eq!(view["params"], serde_json::json!({"m": 8, "k": 1}));
    assert_eq!(view["bits"], "00001000");
    assert_eq!(view["bits_set"], 1);
    assert_eq!(view["distinct_entries"], 1);
    assert_eq!(
        view["counters"],
        serde_json::json!({"negative_queries": 1, "false_positives": 1})
    );
    assert_eq!(view["rate"]["state"], "defined");
    assert_eq!(
        view["panels"],
        serde_json::json!({"positions": true, "model": false})
    );
    assert_eq!(
        view["last_operation"],
        serde_json::json!({
            "kind": "query", "units": [105], "display": "\"i\"",
            "h1": reference_positions(&[105], 8, 1).0, "h2": reference_positions(&[105], 8, 1).1,
            "positions": [{"index": 0, "position": 4, "before": true, "after": true}],
            "outcome": "false_positive"
        })
    );
    assert_eq!(
        view["history"],
        serde_json::json!([
            {"kind": "query", "units": [105], "display": "\"i\"", "outcome": "false_positive"},
            {"kind": "insert", "units": [97], "display": "\"a\"", "outcome": "new"}
        ])
    );
    assert_eq!(view["estimates"]["n"], 1);
    assert_eq!(view["estimates"]["optimal_k"], 6);
    let keys: Vec<&str> = view
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.len(), 12, "{keys:?}");
    // The view reads back (it is also Deserialize).
    let back: bloomproof_session::View = serde_json::from_value(view).unwrap();
    assert_eq!(back, session.view());
}

#[test]
fn json_schemas_describe_ops_and_the_view() {
    let op = serde_json::to_value(schemars::schema_for!(Op)).unwrap();
    let text = op.to_string();
    for name in [
        "set_draft",
        "create",
        "insert",
        "query",
        "insert_example",
        "reset",
        "set_panel",
    ] {
        assert!(
            text.contains(&format!("\"{name}\"")),
            "{name} missing from {text}"
        );
    }
    let view = serde_json::to_value(schemars::schema_for!(bloomproof_session::View)).unwrap();
    assert!(view.to_string().contains("optimal_k"));
}
