//! Helpers shared by the integration tests.
#![allow(dead_code, clippy::unwrap_used, clippy::panic, missing_docs)]

use bloomproof_session::{DraftField, Op, Session, SessionError, Text};

/// A session with drafts m, k and a created (empty) filter.
pub fn created(m: u32, k: u32) -> Session {
    let mut session = Session::new();
    session
        .apply(&set_draft(DraftField::M, &m.to_string()))
        .unwrap();
    session
        .apply(&set_draft(DraftField::K, &k.to_string()))
        .unwrap();
    session.apply(&Op::Create).unwrap();
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
