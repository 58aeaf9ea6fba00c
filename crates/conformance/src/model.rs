//! The spec format, re-exported: every type of `checks.json` and `cases.json` is
//! [`bloomproof_format::spec`]'s, and the shared vocabulary (hex, typed values,
//! parameters, script ops) the format crate's too.

pub use bloomproof_format::adapter::{MutationAttempt, ScriptOp, TextValue, TypedCall};
pub use bloomproof_format::spec::*;
pub use bloomproof_format::{DocParams, ErrorKindName, Hex, RejectExpect, TypedValue};
