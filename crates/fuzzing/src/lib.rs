//! The logic of the fuzz targets, one function per target, taking arbitrary bytes.
//!
//! Each function must return normally on every input: a panic is a bug in the crate
//! under test (or a broken invariant, which the functions assert). The cargo-fuzz
//! targets under `fuzz/fuzz_targets/` only call these functions, so the same logic
//! runs on a stable toolchain in `crates/fuzzing/tests/corpus.rs`, over every file of
//! `fuzz/corpus/<target>/` and deterministic mutations of it, as part of
//! `cargo test --workspace`. Real fuzzing is `cargo xtask fuzz <target> --seconds N`
//! (nightly and cargo-fuzz).
//!
//! | target | function | what it drives |
//! |---|---|---|
//! | `spec_cases` | [`spec_cases`] | the spec loader (`load::parse_protocol`) on one spec file |
//! | `vectors` | [`vectors`] | `bloomproof_vectors::parse_bytes` |
//! | `session_import` | [`session_import`] | `Session::import` and `Session::from_export` |
//! | `adapter_request` | [`adapter_request`] | `bloomproof adapter`'s `parse_request`, then `answer` (`bloomproof_adapter::serve`) |

use bloomproof_adapter::serve::{self as adapter, Request};
use bloomproof_conformance::load::parse_protocol;
use bloomproof_conformance::{embedded, protocols::REGISTRY};
use bloomproof_session::{DraftField, Op, Session};
use std::sync::LazyLock;

/// What a target function did with one input. The fuzz targets ignore it; the corpus
/// test uses it to make sure the valid corpus files really get past the parsers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The input was read: a spec or vector file loaded, an import accepted, a request
    /// parsed and answered (with a result or with a typed error).
    Accepted,
    /// The input was refused with an error (never a panic).
    Rejected,
    /// The input was not run: an adapter request line that is not UTF-8 (the adapter
    /// reads lines of text) or one whose answer would be costly (see
    /// [`adapter_request`]).
    Skipped,
}

/// The names of the fuzz targets, as `fuzz/fuzz_targets/<name>.rs` and
/// `fuzz/corpus/<name>/`.
pub const TARGETS: [&str; 4] = ["spec_cases", "vectors", "session_import", "adapter_request"];

/// Runs the target called `name` on `data`; `None` for an unknown name.
pub fn run(name: &str, data: &[u8]) -> Option<Outcome> {
    Some(match name {
        "spec_cases" => spec_cases(data),
        "vectors" => vectors(data),
        "session_import" => session_import(data),
        "adapter_request" => adapter_request(data),
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------
// spec_cases

/// The spec files a [`spec_cases`] input can stand for, as `<protocol>/<file>`, each
/// with the real file of `spec/` it replaces: the `checks.json` and `cases.json` of
/// every registered protocol (`bloomproof_conformance::protocols::REGISTRY`), in its
/// order, as the runner embeds them.
pub static SPEC_FILES: LazyLock<Vec<(String, &'static str)>> = LazyLock::new(|| {
    let mut files = Vec::new();
    for entry in REGISTRY {
        for file in ["checks.json", "cases.json"] {
            let name = format!("{}/{file}", entry.name());
            let text = embedded::file(&name)
                .and_then(|bytes| std::str::from_utf8(bytes).ok())
                .unwrap_or_default();
            files.push((name, text));
        }
    }
    files
});

/// Splits a [`spec_cases`] input into the spec file it replaces and that file's
/// bytes: a first line naming one of [`SPEC_FILES`] picks it (the rest is the file),
/// anything else is all the first registered protocol's `cases.json`.
pub fn split_spec_input(data: &[u8]) -> (&'static str, &[u8]) {
    let files: &'static [(String, &'static str)] = &SPEC_FILES;
    if let Some(newline) = data.iter().position(|&b| b == b'\n') {
        let (first, rest) = data.split_at(newline);
        if let Some((name, _)) = files.iter().find(|(name, _)| name.as_bytes() == first) {
            return (name, rest.get(1..).unwrap_or_default());
        }
    }
    let first_cases = files
        .iter()
        .find(|(name, _)| name.ends_with("/cases.json"))
        .map_or("", |(name, _)| name.as_str());
    (first_cases, data)
}

/// The spec loader on one file: the input replaces one file of one protocol (see
/// [`split_spec_input`]; bytes that are not UTF-8 become U+FFFD), the protocol's
/// other file is the real one from `spec/`, and
/// `bloomproof_conformance::load::parse_protocol` (every check `load` makes of a
/// protocol folder, without the disk) reads the pair.
///
/// Asserts that a refusal carries at least one error and that every error displays.
pub fn spec_cases(data: &[u8]) -> Outcome {
    let (target, bytes) = split_spec_input(data);
    let text = String::from_utf8_lossy(bytes);
    let protocol = target.split('/').next().unwrap_or_default();
    let file = |name: &str| {
        let path = format!("{protocol}/{name}");
        if path == target {
            &*text
        } else {
            SPEC_FILES
                .iter()
                .find(|(real, _)| *real == path)
                .map(|(_, real)| *real)
                .unwrap_or_default()
        }
    };
    match parse_protocol(protocol, file("checks.json"), file("cases.json")) {
        Ok(spec) => {
            assert_eq!(spec.protocol, protocol);
            Outcome::Accepted
        }
        Err(errors) => {
            assert!(!errors.is_empty(), "a refusal names at least one error");
            for error in &errors {
                assert!(!error.to_string().is_empty());
            }
            Outcome::Rejected
        }
    }
}

// ---------------------------------------------------------------------------------
// vectors

/// The vector loader: `bloomproof_vectors::parse_bytes` on the raw bytes.
///
/// Asserts that a refusal carries at least one problem and displays.
pub fn vectors(data: &[u8]) -> Outcome {
    match bloomproof_vectors::parse_bytes(data) {
        Ok(file) => {
            let _ = file.case_count();
            Outcome::Accepted
        }
        Err(error) => {
            assert!(!error.problems.is_empty(), "a refusal names a problem");
            assert!(!error.to_string().is_empty());
            Outcome::Rejected
        }
    }
}

// ---------------------------------------------------------------------------------
// session_import

/// A session with a filter, entries, counters and history, so that "unchanged"
/// means something.
fn busy_session() -> Session {
    let mut session = Session::new();
    for op in [
        Op::SetDraft {
            field: DraftField::M,
            value: "16".into(),
        },
        Op::SetDraft {
            field: DraftField::K,
            value: "2".into(),
        },
        Op::Create {},
        Op::Insert { value: "a".into() },
        Op::Query { value: "b".into() },
    ] {
        // A rejected op leaves the session as it was; the fixture only needs some state.
        let _ = session.apply(&op);
    }
    session
}

/// The session import on text (invalid UTF-8 replaced by U+FFFD): `Session::import`
/// into a session with state, and `Session::from_export`.
///
/// Asserts the import's contract: both agree; a refused import leaves the session
/// exactly as it was; an accepted one gives the same session as `from_export`, and
/// its export imports back to an equal session.
pub fn session_import(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let fresh = Session::from_export(&text);
    let mut session = busy_session();
    let before = session.clone();
    let imported = session.import(&text);
    assert_eq!(
        imported.is_ok(),
        fresh.is_ok(),
        "import and from_export disagree"
    );
    match fresh {
        Ok(fresh) => {
            assert_eq!(
                session, fresh,
                "import and from_export give different sessions"
            );
            let again = Session::from_export(&session.export());
            assert_eq!(
                again.as_ref().ok(),
                Some(&session),
                "an accepted import does not survive export then import: {again:?}"
            );
            Outcome::Accepted
        }
        Err(error) => {
            assert_eq!(session, before, "a refused import changed the session");
            assert!(!error.to_string().is_empty());
            let _ = error.kind();
            Outcome::Rejected
        }
    }
}

// ---------------------------------------------------------------------------------
// adapter_request

/// Whether answering `request` stays cheap (a few milliseconds at most).
pub fn is_cheap(request: &Request) -> bool {
    match request {
        Request::Start(_) => true,
        Request::Op(op) => op.is_cheap(),
    }
}

/// The adapter's request parser on one line, then, for a request that parses and
/// [is cheap](is_cheap), the in-process answer to it (as `bloomproof adapter` gives
/// it). Bytes that are not UTF-8 are skipped: the adapter reads lines of text.
///
/// Asserts that an accepted request has a usable id and that answers and errors
/// serialise.
pub fn adapter_request(data: &[u8]) -> Outcome {
    let Ok(line) = std::str::from_utf8(data) else {
        return Outcome::Skipped;
    };
    match adapter::parse_request(line) {
        Err(error) => {
            assert!(!error.message.is_empty());
            Outcome::Rejected
        }
        Ok((id, request)) => {
            assert!(id.is_u64() || id.is_string(), "accepted id {id}");
            if !is_cheap(&request) {
                return Outcome::Skipped;
            }
            match adapter::answer(&request) {
                Ok(result) => assert!(!result.to_string().is_empty()),
                Err(error) => assert!(!error.to_string().is_empty()),
            }
            Outcome::Accepted
        }
    }
}
