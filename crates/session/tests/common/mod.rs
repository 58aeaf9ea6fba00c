//! Helpers shared by the integration tests.
#![allow(dead_code, clippy::unwrap_used, clippy::panic, missing_docs)]

use bloomproof_session::{
    DraftField, LastOperation, Op, Outcome, Panel, Session, SessionError, Text,
};
use proptest::prelude::*;

/// A session with drafts m, k and a created (empty) filter.
pub fn created(m: u32, k: u32) -> Session {
    let mut session = Session::new();
    session
        .apply(&set_draft(DraftField::M, &m.to_string()))
        .unwrap();
    session
        .apply(&set_draft(DraftField::K, &k.to_string()))
        .unwrap();
    session.apply(&Op::Create {}).unwrap();
    session
}

pub fn set_draft(field: DraftField, value: &str) -> Op {
    Op::SetDraft {
        field,
        value: value.to_owned(),
    }
}

pub fn insert(value: impl Into<Text>) -> Op {
    Op::Insert {
        value: value.into(),
    }
}

pub fn query(value: impl Into<Text>) -> Op {
    Op::Query {
        value: value.into(),
    }
}

/// Applies an op that must succeed.
pub fn ok(session: &mut Session, op: &Op) {
    if let Err(error) = session.apply(op) {
        panic!("{op:?} failed: {error}");
    }
}

/// Applies an op that must succeed and returns the outcome it records.
pub fn outcome(session: &mut Session, op: &Op) -> Outcome {
    ok(session, op);
    session.last_operation().unwrap().outcome
}

/// Applies an op that must fail, checks the session is exactly unchanged, returns the error.
pub fn rejected(session: &mut Session, op: &Op) -> SessionError {
    let before = session.clone();
    let error = match session.apply(op) {
        Ok(()) => panic!("{op:?} was accepted"),
        Err(error) => error,
    };
    assert_eq!(
        *session, before,
        "{op:?} changed the session although it failed"
    );
    error
}

/// The bits as a '0'/'1' string.
pub fn bits(session: &Session) -> String {
    session
        .bits()
        .unwrap()
        .iter()
        .map(|&b| if b { '1' } else { '0' })
        .collect()
}

/// Independent positions: (h1 + i*h2) mod m with u128 arithmetic and an
/// FNV-1a written out here, not the protocol crate's.
pub fn reference_positions(units: &[u16], m: u32, k: u32) -> (u32, u32, Vec<u16>) {
    let fnv = |basis: u32| {
        units.iter().fold(basis, |h, &u| {
            ((u128::from(h ^ u32::from(u)) * 16_777_619) % (1u128 << 32)) as u32
        })
    };
    let h1 = fnv(2_166_136_261);
    let h2 = fnv(0xdead_beef) | 1;
    let positions = (0..k)
        .map(|i| ((u128::from(h1) + u128::from(i) * u128::from(h2)) % u128::from(m)) as u16)
        .collect();
    (h1, h2, positions)
}

/// Asserts that an operation's h1, h2 and positions are those of
/// [`reference_positions`] for its code units.
pub fn assert_reference_hashes(last: &LastOperation, m: u32, k: u32) {
    let (h1, h2, positions) = reference_positions(&last.units, m, k);
    assert_eq!((last.h1, last.h2), (h1, h2), "{}", last.display);
    let got: Vec<u16> = last.positions.iter().map(|s| s.position).collect();
    assert_eq!(got, positions, "{}", last.display);
}

/// The bits an ideal recomputation gives for these entries.
pub fn reference_bits(entries: &[Vec<u16>], m: u32, k: u32) -> String {
    let mut bits = vec!['0'; m as usize];
    for entry in entries {
        for p in reference_positions(entry, m, k).2 {
            bits[usize::from(p)] = '1';
        }
    }
    bits.into_iter().collect()
}

/// Asserts that the last operation and the newest history entry agree (both absent,
/// or the same kind, string and outcome) and returns the last operation.
pub fn last_agrees_with_history(session: &Session) -> Option<&LastOperation> {
    match (session.last_operation(), session.history().first()) {
        (None, None) => None,
        (Some(last), Some(first)) => {
            assert_eq!(
                (last.kind, &last.units, &last.display, last.outcome),
                (first.kind, &first.units, &first.display, first.outcome)
            );
            Some(last)
        }
        other => panic!("last operation and history disagree: {other:?}"),
    }
}

/// Random operations of every kind: inserts and queries of strings from `text`, drafts
/// set to one of `drafts`, panels opened and closed. `[insert, query, draft]` weigh the
/// inserts, the queries and the draft edits; every other kind weighs 1.
pub fn ops<S: Strategy<Value = Text> + 'static>(
    text: fn() -> S,
    [insert, query, draft]: [u32; 3],
    drafts: Vec<&'static str>,
) -> impl Strategy<Value = Op> {
    prop_oneof![
        insert => text().prop_map(|value| Op::Insert { value }),
        query => text().prop_map(|value| Op::Query { value }),
        1 => Just(Op::Create {}),
        1 => Just(Op::Reset {}),
        1 => Just(Op::InsertExample {}),
        draft => (
            prop::sample::select(vec![DraftField::M, DraftField::K, DraftField::Insert, DraftField::Query]),
            prop::sample::select(drafts),
        )
            .prop_map(|(field, value)| Op::SetDraft { field, value: value.to_owned() }),
        1 => (prop::sample::select(vec![Panel::Positions, Panel::Model]), any::<bool>())
            .prop_map(|(panel, open)| Op::SetPanel { panel, open }),
    ]
}
