//! Regression tests from fuzzing `adapter::parse_request` + `adapter::answer`
//! (`fuzz/fuzz_targets/adapter_request.rs`): answering a request never panics.

use bloomproof_conformance::adapter::{answer, parse_request};
use bloomproof_conformance::subject::{SCRIPT_HELPER_MAX, SubjectError};

fn answer_line(line: &str) -> Result<serde_json::Value, SubjectError> {
    let (_, request) = parse_request(line).expect("the request parses");
    answer(&request)
}

fn script(step: &str) -> String {
    format!(r#"{{"id":1,"protocol":"fnv1a-utf16-v1","op":"session","script":[{step}]}}"#)
}

/// `save_local` with a length no string can have was `"x".repeat(units)`: a
/// capacity-overflow panic. It is refused as a helper the subject cannot run.
#[test]
fn save_local_of_an_impossible_length_is_refused_not_a_panic() {
    for units in [usize::MAX, usize::MAX / 2 + 1, SCRIPT_HELPER_MAX + 1] {
        let result = answer_line(&script(&format!(
            r#"{{"op":"save_local","units":{units}}}"#
        )));
        assert!(
            matches!(&result, Err(SubjectError::Broken(why)) if why.contains("save_local")),
            "{result:?}"
        );
    }
}

/// `import_padded` to a size no string can have reserved `bytes - export` more bytes:
/// a capacity-overflow panic. It is refused the same way.
#[test]
fn import_padded_to_an_impossible_size_is_refused_not_a_panic() {
    for bytes in [usize::MAX, usize::MAX / 2 + 1, SCRIPT_HELPER_MAX + 1] {
        let result = answer_line(&script(&format!(
            r#"{{"op":"import_padded","bytes":{bytes}}}"#
        )));
        assert!(
            matches!(&result, Err(SubjectError::Broken(why)) if why.contains("import_padded")),
            "{result:?}"
        );
    }
}
