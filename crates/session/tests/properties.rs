//! Random operation sequences: no panic, failed ops change nothing, the
//! invariants hold, and export/import is the identity.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use bloomproof_session::{Op, Outcome, Session, Text};
use common::*;
use proptest::prelude::*;

fn text() -> impl Strategy<Value = Text> {
    prop_oneof![
        // Small alphabet so duplicates, true positives and false positives happen.
        prop::sample::select(vec!["a", "b", "c", "i", "a ", "é", "e\u{301}", "😀", "\n"])
            .prop_map(Text::from),
        prop::collection::vec(
            prop_oneof![Just(0xd800_u16), Just(0xdc00), Just(0x61), any::<u16>()],
            0..4
        )
        .prop_map(Text),
        (250usize..260).prop_map(|n| Text(vec![0x78; n])),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    ops(
        text,
        [3, 3, 1],
        vec!["8", "08", "9", "1", "2", "12", "13", "7", "", " 8", "x"],
    )
}

fn check_invariants(session: &Session) {
    let Some(params) = session.params() else {
        assert!(session.entries().is_empty() && session.history().is_empty());
        assert!(session.last_operation().is_none());
        assert_eq!(session.counters(), Default::default());
        return;
    };
    let (m, k) = (u32::from(params.m()), u32::from(params.k()));
    assert_eq!(bits(session), reference_bits(session.entries(), m, k));
    let entries = session.entries();
    for (i, entry) in entries.iter().enumerate() {
        assert!((1..=256).contains(&entry.len()));
        assert!(!entries[..i].contains(entry), "duplicate entry");
    }
    let counters = session.counters();
    assert!(counters.false_positives <= counters.negative_queries);
    if let Some(last) = last_agrees_with_history(session) {
        assert_reference_hashes(last, m, k);
        if last.outcome == Outcome::New {
            assert_eq!(counters, Default::default());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_sessions(ops in prop::collection::vec(op(), 0..60)) {
        let mut session = Session::new();
        for op in &ops {
            let before = session.clone();
            if session.apply(op).is_err() {
                prop_assert_eq!(&session, &before);
            }
            check_invariants(&session);
        }
        let text = session.export();
        prop_assert_eq!(Session::from_export(&text).unwrap(), session.clone());
        // The view serialises.
        serde_json::to_string(&session.view()).unwrap();
    }

    #[test]
    fn arbitrary_import_text_never_panics_and_keeps_the_session(text in ".{0,200}") {
        let mut session = Session::new();
        session.apply(&Op::Create {}).unwrap();
        session.apply(&Op::Insert { value: "a".into() }).unwrap();
        let before = session.clone();
        if session.import(&text).is_err() {
            prop_assert_eq!(session, before);
        }
    }

    #[test]
    fn mangled_exports_never_panic(cut in 0usize..2000, byte in any::<u8>()) {
        let mut source = created(16, 3);
        source.apply(&Op::InsertExample {}).unwrap();
        source.apply(&Op::Query { value: "zz".into() }).unwrap();
        let mut bytes = source.export().into_bytes();
        let len = bytes.len();
        bytes[cut % len] = byte;
        if let Ok(text) = String::from_utf8(bytes) {
            let mut session = Session::new();
            let before = session.clone();
            if session.import(&text).is_err() {
                prop_assert_eq!(session, before);
            }
        }
    }
}
