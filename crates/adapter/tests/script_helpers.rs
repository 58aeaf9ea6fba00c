//! The in-process subject's script helpers, judged from SESSION.md by hand. Both sides of
//! the in-process suite (the subject and the reference answers) run `RustFnv::step`, so
//! the suite cannot see a helper that builds the wrong input: these tests can.

#![allow(clippy::unwrap_used)]

use bloomproof_adapter::protocols::fnv1a_utf16_v1::RustFnv;
use bloomproof_wire::protocols::fnv1a_utf16_v1::{ScriptOp, StepAnswer};
use serde_json::json;

/// SESSION-2.11: `IMPORT_MAX_BYTES` is 2097152 UTF-8 bytes.
const TWO_MIB: usize = 2_097_152;

fn run(steps: serde_json::Value) -> Vec<StepAnswer> {
    let script: Vec<ScriptOp> = serde_json::from_value(steps).unwrap();
    let mut answers = Vec::new();
    RustFnv::run_script(&script, |answer| {
        answers.push(answer);
        Ok(())
    })
    .unwrap();
    answers
}

/// The sizes one after another on one thread, so that each is built where the one before
/// it was (the subject keeps that memory): larger after smaller and smaller after larger,
/// down to 4096 bytes (a one-entry session's export is well under that).
#[test]
fn import_padded_pads_the_export_to_exactly_the_bytes_asked() {
    for (bytes, refused) in [
        (TWO_MIB - 1, false),
        (TWO_MIB, false),
        (TWO_MIB + 1, true),
        (4096, false),
        (TWO_MIB + 1, true),
        (TWO_MIB, false),
    ] {
        let answers = run(json!([
            {"op": "create"},
            {"op": "insert", "value": "a"},
            {"op": "import_padded", "bytes": bytes},
        ]));
        let error = answers[2].error.as_ref().map(|error| error.kind.as_str());
        if refused {
            assert_eq!(error, Some("too_large"), "{bytes} bytes");
        } else {
            assert_eq!(error, None, "{bytes} bytes");
        }
        // Accepted or not, the session is the one exported (one entry).
        assert_eq!(answers[2].view, answers[1].view, "{bytes} bytes");
    }
}
