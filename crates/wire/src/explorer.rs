//! The explorer's HTTP answers (`bloomproof explore`): every error it answers with.

use crate::adapter::ErrorBody;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The body of every error answer of the explorer's server:
/// `{"error": {"kind": ..., "message": ...}}`, the same error shape the adapter protocol
/// answers with. Its kinds: `not_found`, `method_not_allowed`, `host_not_allowed`,
/// `origin_not_allowed`, `too_large`, `request_timeout`, `invalid_request`; it names
/// no field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorAnswer {
    /// What went wrong, for a program (`kind`) and for a person (`message`).
    pub error: ErrorBody,
}
