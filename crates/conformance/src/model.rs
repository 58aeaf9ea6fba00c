//! The spec format, re-exported: every type of `checks.json` and `cases.json` is
//! [`bloomproof_wire::spec`]'s, and the shared vocabulary (hex, typed values,
//! parameters, script ops) the wire crate's too.

pub use bloomproof_wire::adapter::{MutationAttempt, ScriptOp, TextValue, TypedCall};
pub use bloomproof_wire::spec::*;
pub use bloomproof_wire::{
    ContractExpect, DocParams, ErrorKindName, Hex, RejectExpect, TypedValue,
};
