//! Export and import details: the exact text of a session with an empty
//! filter, and counters that a complete history fixes exactly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod common;

use bloomproof_session::{ErrorKind, ImportError, Session};
use common::*;

/// An empty filter: empty lists are written `[]` on their field's line.
#[test]
fn export_of_an_empty_filter_is_exact() {
    let text = created(8, 1).export();
    assert_eq!(
        text,
        r#"{
  "format": "bloomproof-session",
  "version": 1,
  "protocol": "fnv1a-utf16-v1",
  "params": {"m":8,"k":1},
  "drafts": {"m":"8","k":"1","insert":"","query":""},
  "entries": [],
  "counters": {"negative_queries":0,"false_positives":0},
  "last_operation": null,
  "history": [],
  "panels": {"positions":false,"model":false}
}
"#
    );
    assert_eq!(Session::from_export(&text).unwrap(), created(8, 1));
}

/// With a complete history (shorter than the cap) and no new insertion in it,
/// the counters were reset at creation: they must equal the replay exactly,
/// not merely include it.
#[test]
fn counters_beyond_a_complete_history_are_rejected() {
    let mut session = created(8, 1);
    ok(&mut session, &query("a"));
    for (negative, false_positive, valid) in [(1, 0, true), (2, 0, false), (2, 1, false)] {
        let text = session.export().replace(
            r#""counters": {"negative_queries":1,"false_positives":0}"#,
            &format!(
                r#""counters": {{"negative_queries":{negative},"false_positives":{false_positive}}}"#
            ),
        );
        let mut target = created(16, 2);
        let before = target.clone();
        match target.import(&text) {
            Ok(()) => {
                assert!(valid, "{negative} {false_positive} accepted");
                assert_eq!(target, session);
            }
            Err(error) => {
                assert!(!valid, "{negative} {false_positive}: {error}");
                assert_eq!(target, before);
                assert_eq!(error.kind(), ErrorKind::Invalid);
                match error {
                    ImportError::Invalid { path, .. } => assert_eq!(path, "counters"),
                    other => panic!("{other:?}"),
                }
            }
        }
    }
    // No history at all: the counters are those of a new filter.
    let text = created(8, 1)
        .export()
        .replace(r#""negative_queries":0"#, r#""negative_queries":1"#);
    let error = Session::from_export(&text).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Invalid, "{error}");
}
