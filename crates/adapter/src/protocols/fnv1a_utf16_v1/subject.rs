//! `fnv1a-utf16-v1` as the evaluators drive it: [`FnvSubject`], its batched calls,
//! and the production session model in process ([`RustFnv`]).

use crate::subject::{Answer, SubjectError, UnderTest};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{
    EstimatesAnswer, FnvHashes, SaveAnswer, ScriptAnswer, StepAnswer, StepError,
};

/// One operation of [`FnvSubject::batch`], with its arguments.
#[derive(Clone, Debug, PartialEq)]
#[allow(
    missing_docs,
    reason = "the arguments of the subject's methods of the same name"
)]
pub enum FnvCall {
    Positions {
        m: u64,
        k: u64,
        units: Vec<u16>,
    },
    Estimates {
        m: u32,
        k: u32,
        n: u32,
    },
    Session {
        script: Vec<bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp>,
    },
}

/// The answer to one [`FnvCall`].
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs, reason = "the results of the subject's methods")]
pub enum FnvReply {
    Hashes(FnvHashes),
    Estimates(EstimatesAnswer),
    Script(ScriptAnswer),
}

// fnv1a-utf16-v1

/// A `fnv1a-utf16-v1` implementation, as the evaluators drive it (its name and life in
/// a run are [`UnderTest`]'s).
pub trait FnvSubject: UnderTest {
    /// h1, h2 and the k positions of a string of code units.
    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes>;
    /// Runs a script on a new session.
    fn session(
        &mut self,
        script: &[bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp],
    ) -> Answer<ScriptAnswer>;
    /// The estimates for (m, k, n).
    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer>;
    /// Answers each call of `calls`, in order: the same requests as calling the
    /// methods one by one (the default), but an implementation behind an adapter
    /// sends them without waiting for each answer (pipelining).
    fn batch(&mut self, calls: &[FnvCall]) -> Vec<Answer<FnvReply>> {
        calls
            .iter()
            .map(|call| match call {
                FnvCall::Positions { m, k, units } => {
                    self.positions(*m, *k, units).map(FnvReply::Hashes)
                }
                FnvCall::Estimates { m, k, n } => {
                    self.estimates(*m, *k, *n).map(FnvReply::Estimates)
                }
                FnvCall::Session { script } => self.session(script).map(FnvReply::Script),
            })
            .collect()
    }
    /// Another subject driving the same implementation, independent of this one, for
    /// running checks on other threads; `None` (the default) when checks must share
    /// this one and run one after the other.
    fn fork(&self) -> Option<Box<dyn FnvSubject + Send>> {
        None
    }
}

/// The production session model and protocol, in process.
#[derive(Clone, Copy, Debug, Default)]
pub struct RustFnv;

/// Largest `import_padded` size (bytes) or `save_local` length (code units) that
/// [`RustFnv`] builds: 8 times the import limit. A larger one is refused as
/// [`SubjectError::Broken`] before anything is allocated (it used to panic with a
/// capacity overflow, or exhaust memory).
pub const SCRIPT_HELPER_MAX: usize = 8 * bloomproof_session::IMPORT_MAX_BYTES;

/// The largest `import_padded` text a thread keeps for its next one (4 MiB).
const PADDED_KEPT_MAX: usize = 2 * bloomproof_session::IMPORT_MAX_BYTES;

thread_local! {
    /// The last `import_padded` text, kept so that the next one is written into the
    /// same memory: a fresh 2 MiB buffer a call cost the first touch of all its pages,
    /// most of the step's time (crates/bench/NOTES.md, 2026-12-08).
    static PADDED: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// 4096 spaces, the run `import_padded` pads with.
const SPACES: &str = match std::str::from_utf8(&[b' '; 4096]) {
    Ok(spaces) => spaces,
    Err(_) => " ",
};

/// Imports into `session` its own `export` followed by spaces up to `bytes` bytes
/// (`bytes` at least the export's length), in this thread's kept buffer.
fn import_padded(
    session: &mut bloomproof_session::Session,
    export: &str,
    bytes: usize,
) -> Result<(), bloomproof_session::ImportError> {
    PADDED.with_borrow_mut(|text| {
        text.clear();
        text.reserve(bytes);
        text.push_str(export);
        while text.len() < bytes {
            let run = (bytes - text.len()).min(SPACES.len());
            text.push_str(&SPACES[..run]);
        }
        let result = session.import(text);
        if text.capacity() > PADDED_KEPT_MAX {
            *text = String::new();
        }
        result
    })
}

fn view(session: &bloomproof_session::Session) -> serde_json::Value {
    serde_json::to_value(session.view()).unwrap_or(serde_json::Value::Null)
}

fn rejected(kind: &str, message: String) -> Option<StepError> {
    Some(StepError {
        kind: kind.to_string(),
        message,
    })
}

impl RustFnv {
    /// Runs `script` on a new session and hands each step's answer to `each` as soon as
    /// it is made, keeping none of them; returns the view of the new session. The first
    /// error, of a step or of `each`, ends the script. This is how `bloomproof adapter`
    /// bounds what one answer holds.
    pub fn run_script(
        script: &[bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp],
        mut each: impl FnMut(StepAnswer) -> Answer<()>,
    ) -> Answer<serde_json::Value> {
        let mut session = bloomproof_session::Session::new();
        let initial = view(&session);
        for op in script {
            each(Self::step(&mut session, op)?)?;
        }
        Ok(initial)
    }

    /// One step of a script on `session`, as [`RustFnv::run_script`] makes it: the
    /// reference answer the generated session checks compare with.
    pub fn step(
        session: &mut bloomproof_session::Session,
        op: &bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp,
    ) -> Answer<StepAnswer> {
        let mut answer = Self::step_unviewed(session, op)?;
        answer.view = view(session);
        Ok(answer)
    }

    /// [`RustFnv::step`] without the view (`view` is `null`), for a replay that reads
    /// only the errors, the exports and the session itself (each view built as JSON is
    /// about a third of a step's time in the generated session checks).
    pub fn step_unviewed(
        session: &mut bloomproof_session::Session,
        op: &bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp,
    ) -> Answer<StepAnswer> {
        use bloomproof_session::{Op, Session, Text};
        use bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp;
        let mut error = None;
        let mut save = None;
        let mut export = None;
        match op {
            ScriptOp::InsertMany { prefix, count } => {
                let before = session.clone();
                for i in 0..*count {
                    let value = Text::from(format!("{prefix}{i}").as_str());
                    if let Err(err) = session.apply(&Op::Insert { value }) {
                        *session = before;
                        error = rejected(err.kind().as_str(), format!("insert_many at {i}: {err}"));
                        break;
                    }
                }
            }
            ScriptOp::Roundtrip {} => match Session::from_export(&session.export()) {
                Ok(imported) => *session = imported,
                Err(err) => error = rejected(err.kind().as_str(), err.to_string()),
            },
            ScriptOp::Import { document } => {
                let text = serde_json::to_string(document).unwrap_or_default();
                if let Err(err) = session.import(&text) {
                    error = rejected(err.kind().as_str(), err.to_string());
                }
            }
            ScriptOp::ImportText { text } => {
                if let Err(err) = session.import(text) {
                    error = rejected(err.kind().as_str(), err.to_string());
                }
            }
            ScriptOp::ImportPadded { bytes } => {
                if *bytes > SCRIPT_HELPER_MAX {
                    return Err(SubjectError::Broken(format!(
                        "import_padded: {bytes} bytes is more than the {SCRIPT_HELPER_MAX} this subject builds"
                    )));
                }
                let text = session.export();
                if text.len() > *bytes {
                    return Err(SubjectError::Broken(format!(
                        "import_padded: the export is already {} bytes, more than {bytes}",
                        text.len()
                    )));
                }
                // The export, then spaces up to `bytes`, copied in runs: extending by one
                // `char` at a time cost a third of the session checks.
                if let Err(err) = import_padded(session, &text, *bytes) {
                    error = rejected(err.kind().as_str(), err.to_string());
                }
            }
            ScriptOp::SaveLocal { units, fill } => {
                if *units > SCRIPT_HELPER_MAX {
                    return Err(SubjectError::Broken(format!(
                        "save_local: {units} code units is more than the {SCRIPT_HELPER_MAX} this subject builds"
                    )));
                }
                let Some(state) =
                    bloomproof_wire::protocols::fnv1a_utf16_v1::save_state(*units, fill.as_deref())
                else {
                    return Err(SubjectError::Rejected {
                        kind: "bad_request".to_string(),
                        field: Some("fill".to_string()),
                        message: "save_local: `fill` is empty: it must hold at least one character"
                            .to_string(),
                    });
                };
                let previous = session.export();
                let outcome = bloomproof_session::save_local(&state, Some(&previous));
                let stored = outcome.stored().unwrap_or_default();
                save = Some(SaveAnswer {
                    outcome: if stored == state { "saved" } else { "kept" }.to_string(),
                    stored_units: bloomproof_session::units_len(stored),
                    warning: outcome.warning().map(str::to_string),
                });
            }
            ScriptOp::Export {} => export = Some(session.export()),
            ScriptOp::Insert { .. }
            | ScriptOp::Query { .. }
            | ScriptOp::SetDraft { .. }
            | ScriptOp::Create {}
            | ScriptOp::InsertExample {}
            | ScriptOp::Reset {}
            | ScriptOp::SetPanel { .. } => {
                if let Some(page_op) = op.page_op()
                    && let Err(err) = session.apply(&page_op)
                {
                    error = rejected(err.kind().as_str(), err.to_string());
                }
            }
        }
        Ok(StepAnswer {
            view: serde_json::Value::Null,
            error,
            save,
            export,
        })
    }
}

impl UnderTest for RustFnv {
    fn name(&self) -> String {
        "rust (in process)".to_string()
    }
}

impl FnvSubject for RustFnv {
    fn fork(&self) -> Option<Box<dyn FnvSubject + Send>> {
        Some(Box::new(RustFnv))
    }

    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
        // A contract error is `value`, as in every op's error table (ADAPTER.md);
        // `out_of_range` is a session step's error kind (SESSION.md), not this op's.
        let params = fnv::Params::new(m, k).map_err(|err| SubjectError::Rejected {
            kind: "value".to_string(),
            field: Some(err.field.to_string()),
            message: err.to_string(),
        })?;
        if !(1..=bloomproof_session::MAX_UNITS).contains(&units.len()) {
            return Err(SubjectError::Rejected {
                kind: "value".to_string(),
                field: Some("units".to_string()),
                message: format!(
                    "a string has 1..={} code units, got {}",
                    bloomproof_session::MAX_UNITS,
                    units.len()
                ),
            });
        }
        let hashes = fnv::base_hashes(units);
        Ok(FnvHashes {
            h1: hashes.h1,
            h2: hashes.h2,
            positions: fnv::positions(&params, hashes),
        })
    }

    fn session(
        &mut self,
        script: &[bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp],
    ) -> Answer<ScriptAnswer> {
        let mut steps = Vec::with_capacity(script.len());
        let initial = Self::run_script(script, |step| {
            steps.push(step);
            Ok(())
        })?;
        Ok(ScriptAnswer { initial, steps })
    }

    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        let e = bloomproof_session::estimates(m, k, n);
        Ok(EstimatesAnswer {
            classic: e.classic,
            finite_m: e.finite_m,
            exact: e.exact,
            optimal_k: e.optimal_k,
        })
    }
}
