//! Property tests of the session rules against the independent oracle:
//! counters obey their rules through random operation sequences, export then
//! import gives back the same session, and a random mutation of a valid export
//! is either accepted as a valid session or rejected with the session untouched.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod common;

use bloomproof_oracle::fnv1a_utf16 as oracle;
use bloomproof_session::{
    Counters, DraftField, HISTORY_CAP, Op, OpKind, Outcome, Rate, Session, Text,
};
use common::{created, last_agrees_with_history, ops};
use proptest::prelude::*;

/// Strings from a small alphabet (duplicates, true and false positives happen),
/// with surrogates, and now and then an empty or over-long one (rejected).
fn text() -> impl Strategy<Value = Text> {
    prop_oneof![
        8 => prop::sample::select(vec!["a", "b", "c", "d", "i", "z", "é", "e\u{301}", "😀", " "])
            .prop_map(Text::from),
        3 => prop::collection::vec(
            prop_oneof![Just(0xd800_u16), Just(0xdfff), Just(0x61), any::<u16>()],
            1..4
        )
        .prop_map(Text),
        1 => Just(Text(Vec::new())),
        1 => (255usize..=258).prop_map(|n| Text(vec![0x62; n])),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    ops(
        text,
        [6, 8, 2],
        vec![
            "8", "008", "9", "16", "1", "2", "3", "12", "13", "0", "", "x", "8 ",
        ],
    )
}

fn small_params() -> impl Strategy<Value = (u32, u32)> {
    (
        prop_oneof![Just(8u32), Just(9), Just(16), 8u32..=64],
        1u32..=4,
    )
}

/// The oracle's positions of a string.
fn oracle_positions(session: &Session, units: &[u16]) -> Vec<u32> {
    let params = session.params().unwrap();
    oracle::positions(u32::from(params.m()), u32::from(params.k()), units)
}

/// The bits the oracle gives for the session's entries.
fn oracle_bits(session: &Session) -> Vec<bool> {
    let params = session.params().unwrap();
    let mut bits = vec![false; usize::from(params.m())];
    for entry in session.entries() {
        for p in oracle_positions(session, entry) {
            bits[p as usize] = true;
        }
    }
    bits
}

/// What every reachable (or accepted imported) session satisfies.
fn check_valid(session: &Session) {
    let counters = session.counters();
    assert!(counters.false_positives <= counters.negative_queries);
    match session.rate() {
        Rate::Undefined => assert_eq!(counters.negative_queries, 0),
        Rate::Defined {
            false_positives,
            negative_queries,
            value,
        } => {
            assert!(negative_queries > 0);
            assert_eq!(
                (false_positives, negative_queries),
                (counters.false_positives, counters.negative_queries)
            );
            assert_eq!(value, false_positives as f64 / negative_queries as f64);
        }
    }
    let view = session.view();
    assert_eq!(view.counters, counters);
    assert_eq!(view.distinct_entries as usize, session.entries().len());
    let Some(params) = session.params() else {
        assert!(session.entries().is_empty() && session.history().is_empty());
        assert!(session.last_operation().is_none() && session.bits().is_none());
        assert_eq!(counters, Counters::default());
        assert!(!view.active && view.bits.is_none() && view.estimates.is_none());
        return;
    };
    let bits = session.bits().unwrap();
    assert_eq!(bits, oracle_bits(session).as_slice());
    assert_eq!(view.bits_set as usize, bits.iter().filter(|&&b| b).count());
    assert_eq!(
        view.bits.unwrap(),
        bits.iter()
            .map(|&b| if b { '1' } else { '0' })
            .collect::<String>()
    );
    let entries = session.entries();
    for (index, entry) in entries.iter().enumerate() {
        assert!((1..=256).contains(&entry.len()));
        assert!(!entries[..index].contains(entry), "duplicate entry");
    }
    assert!(session.history().len() <= HISTORY_CAP);
    if let Some(last) = last_agrees_with_history(session) {
        assert_eq!(last.kind, last.outcome.kind());
        assert_eq!(
            (last.h1, last.h2),
            (oracle::h1(&last.units), oracle::h2(&last.units))
        );
        let positions: Vec<u32> = last
            .positions
            .iter()
            .map(|s| u32::from(s.position))
            .collect();
        assert_eq!(positions, oracle_positions(session, &last.units));
        assert_eq!(last.positions.len(), usize::from(params.k()));
        for (index, step) in last.positions.iter().enumerate() {
            assert_eq!(usize::from(step.index), index);
            // Nothing since the last operation changed a bit.
            assert_eq!(step.after, bits[usize::from(step.position)]);
        }
    }
}

/// Checks one successful operation against the rules, given the state before it.
fn check_step(before: &Session, op: &Op, after: &Session) {
    let unchanged_filter = |after: &Session| {
        assert_eq!(after.params(), before.params());
        assert_eq!(after.bits(), before.bits());
        assert_eq!(after.entries(), before.entries());
    };
    match op {
        Op::Query { value } => {
            unchanged_filter(after);
            let units = value.units();
            let present = before.entries().iter().any(|e| e.as_slice() == units);
            let all_set = oracle_positions(before, units)
                .iter()
                .all(|&p| before.bits().unwrap()[p as usize]);
            let (b, a) = (before.counters(), after.counters());
            let last = after.last_operation().unwrap();
            assert_eq!((last.kind, last.units.as_slice()), (OpKind::Query, units));
            if present {
                assert!(all_set, "a false negative");
                assert_eq!(a, b, "a query of a present string counts nowhere");
                assert_eq!(last.outcome, Outcome::TrulyPresent);
            } else {
                assert_eq!(a.negative_queries, b.negative_queries + 1);
                assert_eq!(a.false_positives, b.false_positives + u64::from(all_set));
                assert_eq!(
                    last.outcome,
                    if all_set {
                        Outcome::FalsePositive
                    } else {
                        Outcome::DefinitelyAbsent
                    }
                );
            }
            for step in &last.positions {
                assert_eq!(step.before, step.after);
                assert_eq!(
                    step.before,
                    before.bits().unwrap()[usize::from(step.position)]
                );
            }
        }
        Op::Insert { value } => {
            let units = value.units();
            let last = after.last_operation().unwrap();
            assert_eq!((last.kind, last.units.as_slice()), (OpKind::Insert, units));
            if before.entries().iter().any(|e| e.as_slice() == units) {
                unchanged_filter(after);
                assert_eq!(
                    after.counters(),
                    before.counters(),
                    "a duplicate insertion changes nothing"
                );
                assert_eq!(last.outcome, Outcome::Duplicate);
            } else {
                assert_eq!(
                    after.counters(),
                    Counters::default(),
                    "a new distinct insertion resets"
                );
                assert_eq!(last.outcome, Outcome::New);
                let mut entries = before.entries().to_vec();
                entries.push(units.to_vec());
                assert_eq!(after.entries(), entries.as_slice());
                // Only bits get set.
                let (old, new) = (before.bits().unwrap(), after.bits().unwrap());
                assert!(old.iter().zip(new).all(|(&o, &n)| !o || n));
                for step in &last.positions {
                    assert_eq!(step.before, old[usize::from(step.position)]);
                    assert!(step.after);
                }
            }
            let history_len = (before.history().len() + 1).min(HISTORY_CAP);
            assert_eq!(after.history().len(), history_len);
        }
        Op::InsertExample {} => {
            let new = bloomproof_session::EXAMPLE
                .iter()
                .filter(|s| !before.entries().contains(&s.encode_utf16().collect()))
                .count();
            assert_eq!(after.entries().len(), before.entries().len() + new);
            if new == 0 {
                assert_eq!(after.counters(), before.counters());
                assert_eq!(after.bits(), before.bits());
            } else {
                assert_eq!(after.counters(), Counters::default());
            }
        }
        Op::Create {} | Op::Reset {} => {
            assert!(after.entries().is_empty() && after.history().is_empty());
            assert_eq!(after.counters(), Counters::default());
            assert!(after.bits().unwrap().iter().all(|&b| !b));
            if matches!(op, Op::Reset {}) {
                assert_eq!(after.params(), before.params());
            }
        }
        Op::SetDraft { field, value } => {
            assert_eq!(after.panels(), before.panels());
            let kept = match (field, before.params()) {
                (_, None) => false,
                (DraftField::M, Some(p)) => value.trim_start_matches('0') == p.m().to_string(),
                (DraftField::K, Some(p)) => value.trim_start_matches('0') == p.k().to_string(),
                (_, Some(_)) => true,
            };
            if kept {
                unchanged_filter(after);
                assert_eq!(after.counters(), before.counters());
            } else {
                assert!(after.params().is_none());
            }
        }
        Op::SetPanel { .. } => {
            unchanged_filter(after);
            assert_eq!(after.counters(), before.counters());
            assert_eq!(after.history(), before.history());
        }
    }
    if !matches!(op, Op::SetDraft { .. }) {
        assert_eq!(after.drafts(), before.drafts());
    }
    // negative_queries only grows by queries of absent strings; any other
    // change is a reset to zero.
    let (b, a) = (before.counters(), after.counters());
    if a.negative_queries != b.negative_queries {
        assert!(a == Counters::default() || matches!(op, Op::Query { .. }));
    }
}

/// Runs ops, checking each step; returns the final session.
fn run(mut session: Session, ops: &[Op]) -> Session {
    check_valid(&session);
    for op in ops {
        let before = session.clone();
        match session.apply(op) {
            Ok(()) => check_step(&before, op, &session),
            Err(_) => assert_eq!(session, before, "{op:?} failed but changed the session"),
        }
        check_valid(&session);
    }
    session
}

/// One random edit of an export text.
#[derive(Clone, Debug)]
enum Mutation {
    FlipByte {
        at: prop::sample::Index,
        mask: u8,
    },
    InsertByte {
        at: prop::sample::Index,
        byte: u8,
    },
    DeleteBytes {
        at: prop::sample::Index,
        len: usize,
    },
    /// Adds a small delta to the n-th number of the JSON text (or replaces it).
    ChangeNumber {
        which: prop::sample::Index,
        delta: i64,
    },
    /// Removes a key at any depth.
    DropField {
        which: prop::sample::Index,
    },
    /// Swaps two elements of an array (entries, history, positions).
    SwapItems {
        which: prop::sample::Index,
        a: prop::sample::Index,
        b: prop::sample::Index,
    },
    /// Replaces a value by another JSON value.
    ReplaceValue {
        which: prop::sample::Index,
        with: serde_json::Value,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let json = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        (0u64..2000).prop_map(serde_json::Value::from),
        prop::sample::select(vec!["a", "z", "", "8", "new", "query", "fnv1a-utf16-v1"])
            .prop_map(serde_json::Value::from),
        Just(serde_json::json!([])),
        Just(serde_json::json!({})),
    ];
    prop_oneof![
        1 => (any::<prop::sample::Index>(), 1u8..=255).prop_map(|(at, mask)| Mutation::FlipByte { at, mask }),
        1 => (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(at, byte)| Mutation::InsertByte { at, byte }),
        1 => (any::<prop::sample::Index>(), 1usize..8).prop_map(|(at, len)| Mutation::DeleteBytes { at, len }),
        3 => (any::<prop::sample::Index>(), prop_oneof![-3i64..=3, any::<i64>()])
            .prop_map(|(which, delta)| Mutation::ChangeNumber { which, delta }),
        2 => any::<prop::sample::Index>().prop_map(|which| Mutation::DropField { which }),
        2 => (any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<prop::sample::Index>())
            .prop_map(|(which, a, b)| Mutation::SwapItems { which, a, b }),
        3 => (any::<prop::sample::Index>(), json).prop_map(|(which, with)| Mutation::ReplaceValue { which, with }),
    ]
}

/// Every value of a JSON tree, by a path of keys and indices, depth first.
fn paths(value: &serde_json::Value, at: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    out.push(at.clone());
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map {
                at.push(PathStep::Key(key.clone()));
                paths(child, at, out);
                at.pop();
            }
        }
        serde_json::Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                at.push(PathStep::Index(index));
                paths(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn get<'a>(value: &'a serde_json::Value, path: &[PathStep]) -> &'a serde_json::Value {
    path.iter().fold(value, |value, step| match step {
        PathStep::Key(key) => &value[key.as_str()],
        PathStep::Index(index) => &value[*index],
    })
}

fn get_mut<'a>(value: &'a mut serde_json::Value, path: &[PathStep]) -> &'a mut serde_json::Value {
    path.iter().fold(value, |value, step| match step {
        PathStep::Key(key) => &mut value[key.as_str()],
        PathStep::Index(index) => &mut value[*index],
    })
}

/// Applies a mutation (structural ones re-serialise the JSON, pretty-printed;
/// they leave a text that is no longer JSON as it is).
fn mutate(text: &str, mutation: &Mutation) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let structural = |edit: &dyn Fn(&mut serde_json::Value, &[Vec<PathStep>])| {
        // After an earlier byte edit the text may no longer be JSON: leave it.
        let Ok(mut value) = serde_json::from_str::<serde_json::Value>(text) else {
            return text.to_owned();
        };
        let mut all = Vec::new();
        paths(&value, &mut Vec::new(), &mut all);
        edit(&mut value, &all);
        serde_json::to_string_pretty(&value).unwrap()
    };
    match mutation {
        Mutation::FlipByte { at, mask } => {
            let at = at.index(bytes.len());
            bytes[at] ^= mask;
        }
        Mutation::InsertByte { at, byte } => {
            let at = at.index(bytes.len() + 1);
            bytes.insert(at, *byte);
        }
        Mutation::DeleteBytes { at, len } => {
            let at = at.index(bytes.len());
            let end = (at + len).min(bytes.len());
            bytes.drain(at..end);
        }
        Mutation::ChangeNumber { which, delta } => {
            return structural(&|value, all| {
                let numbers: Vec<&Vec<PathStep>> = all
                    .iter()
                    .filter(|path| get(value, path).is_number())
                    .collect();
                if numbers.is_empty() {
                    return;
                }
                let slot = get_mut(value, numbers[which.index(numbers.len())]);
                let old = slot.as_i64().unwrap_or(0);
                *slot = serde_json::Value::from(old.saturating_add(*delta));
            });
        }
        Mutation::DropField { which } => {
            return structural(&|value, all| {
                let keyed: Vec<&Vec<PathStep>> = all
                    .iter()
                    .filter(|path| matches!(path.last(), Some(PathStep::Key(_))))
                    .collect();
                if keyed.is_empty() {
                    return;
                }
                let path = keyed[which.index(keyed.len())];
                let (last, parent) = path.split_last().unwrap();
                if let (PathStep::Key(key), Some(map)) =
                    (last, get_mut(value, parent).as_object_mut())
                {
                    map.remove(key);
                }
            });
        }
        Mutation::SwapItems { which, a, b } => {
            return structural(&|value, all| {
                let arrays: Vec<&Vec<PathStep>> = all
                    .iter()
                    .filter(|path| get(value, path).as_array().is_some_and(|a| a.len() > 1))
                    .collect();
                if arrays.is_empty() {
                    return;
                }
                let items = get_mut(value, arrays[which.index(arrays.len())])
                    .as_array_mut()
                    .unwrap();
                let len = items.len();
                items.swap(a.index(len), b.index(len));
            });
        }
        Mutation::ReplaceValue { which, with } => {
            return structural(&|value, all| {
                let path = &all[which.index(all.len())];
                *get_mut(value, path) = with.clone();
            });
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Counters, bits, entries and outcomes follow the rules at every step.
    #[test]
    fn counters_obey_their_rules((m, k) in small_params(), ops in prop::collection::vec(op(), 0..80)) {
        run(created(m, k), &ops);
    }

    /// From a fresh session too (no active filter at first).
    #[test]
    fn rules_hold_from_a_fresh_session(ops in prop::collection::vec(op(), 0..60)) {
        run(Session::new(), &ops);
    }

    /// Export then import gives back the same session; exporting again gives the same text.
    #[test]
    fn export_then_import_is_the_identity((m, k) in small_params(), ops in prop::collection::vec(op(), 0..80)) {
        let session = run(created(m, k), &ops);
        let text = session.export();
        let back = Session::from_export(&text).unwrap();
        prop_assert_eq!(&back, &session);
        prop_assert_eq!(back.export(), text.clone());
        prop_assert_eq!(back.view(), session.view());
        let mut other = created(8, 1);
        other.apply(&Op::Insert { value: "q".into() }).unwrap();
        other.import(&text).unwrap();
        prop_assert_eq!(&other, &session);
        // A pretty-printed (re-formatted) export is the same session.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(Session::from_export(&serde_json::to_string(&value).unwrap()).unwrap(), session);
    }

    /// A random mutation of a valid export is either accepted as a valid
    /// session (which then round-trips) or rejected with the target untouched.
    #[test]
    fn mutated_exports_are_valid_or_rejected(
        (m, k) in small_params(),
        ops in prop::collection::vec(op(), 0..40),
        mutations in prop::collection::vec(mutation(), 1..3),
    ) {
        let source = run(created(m, k), &ops);
        let mut text = source.export();
        for mutation in &mutations {
            text = mutate(&text, mutation);
        }
        let mut target = created(16, 2);
        target.apply(&Op::Insert { value: "t".into() }).unwrap();
        target.apply(&Op::Query { value: "u".into() }).unwrap();
        let before = target.clone();
        match target.import(&text) {
            Ok(()) => {
                check_valid(&target);
                let again = target.export();
                prop_assert_eq!(&Session::from_export(&again).unwrap(), &target);
                // Operations keep working on the imported session.
                run(target, &ops);
            }
            Err(_) => prop_assert_eq!(&target, &before),
        }
    }
}
