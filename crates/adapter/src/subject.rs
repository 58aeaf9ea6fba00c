//! The implementation under test.
//!
//! Evaluators never call production code directly: they drive a subject. The
//! in-process subject ([`RustDoc`](crate::protocols::doc_membership_v1::RustDoc)) calls
//! the production crates; an adapter subject
//! drives any other implementation over stdin/stdout. Each method is one operation of
//! the adapter protocol (`spec/ADAPTER.md`).
//!
//! What every protocol shares is here ([`SubjectError`], [`Between`], [`Answer`], and
//! [`UnderTest`], what a run asks of any implementation whatever its protocol);
//! each protocol's subject trait, calls and in-process subject are its own
//! (`protocols/<protocol>/subject.rs`).

use bloomproof_filter::ContractError;
use std::fmt;

/// Why an operation gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubjectError {
    /// The implementation rejected the input (a contract error of the given kind).
    Rejected {
        /// `type` or `value`.
        kind: String,
        /// The field it named, when it named one.
        field: Option<String>,
        /// Its message.
        message: String,
    },
    /// The implementation could not be driven: it crashed, timed out or answered
    /// something malformed.
    Broken(String),
}

/// What a subject's `between_checks` found ([`UnderTest::between_checks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Between {
    /// The implementation is ready for the next check.
    Go,
    /// The implementation ended during the check (crashed, timed out or broke the
    /// adapter protocol, for this reason) and was started again for the next one.
    Restarted(String),
    /// The run cannot go on, for this reason (one paragraph).
    Stop(String),
}

impl fmt::Display for SubjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubjectError::Rejected {
                kind,
                field,
                message,
            } => match field {
                Some(field) => write!(f, "rejected: {kind} error in {field}: {message}"),
                None => write!(f, "rejected: {kind} error: {message}"),
            },
            SubjectError::Broken(why) => write!(f, "implementation failed: {why}"),
        }
    }
}

impl From<ContractError> for SubjectError {
    fn from(err: ContractError) -> Self {
        SubjectError::Rejected {
            kind: err.kind().as_str().to_string(),
            field: Some(err.field().to_string()),
            message: err.message().to_string(),
        }
    }
}

/// Result of a subject operation.
pub type Answer<T> = Result<T, SubjectError>;

/// What a run asks of an implementation under test beside its protocol's operations
/// (every protocol's subject trait builds on it): its name, and, behind an adapter, the
/// handshake, the state between checks, the closing diagnosis and the command. The
/// defaults are an in-process subject's.
pub trait UnderTest {
    /// A short name for reports.
    fn name(&self) -> String;

    /// What the implementation's handshake said (an adapter's; `None` in process):
    /// who answers and the protocols it implements.
    fn started(&self) -> Option<bloomproof_wire::adapter::Started> {
        None
    }

    /// Between two checks (and after the last): whether the run goes on. An adapter
    /// that ended during the check is started again ([`Between::Restarted`]); one that
    /// never answered, or whose run deadline passed, stops the run. In process: always
    /// [`Between::Go`].
    fn between_checks(&mut self) -> Between {
        Between::Go
    }

    /// At the end of a run: one paragraph when every answer pointed at one cause (an
    /// adapter that answered `bad_request` to everything), in place of its failures.
    fn closing_diagnosis(&mut self) -> Option<String> {
        None
    }

    /// The adapter command and the timeout per request, when this subject speaks the
    /// adapter protocol: the runner then also runs the adapter protocol's own checks
    /// (`bloomproof_conformance::adapter_checks`), on processes of their own. `None` (the
    /// default) in process.
    fn adapter(&self) -> Option<(String, std::time::Duration)> {
        None
    }
}
