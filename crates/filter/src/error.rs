//! Contract errors: a kind (type or value), the field, and a message with the bound.

use bloomproof_protocol::doc_membership_v1::BoundError;
use core::fmt;

/// The two kinds of contract violation of the source document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A value of the wrong kind (a `str` where bytes are wanted, a bool for `m`, ...).
    Type,
    /// A value of the right kind outside its bounds.
    Value,
}

impl ErrorKind {
    /// `"type"` or `"value"`, as spec files and adapters spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Type => "type",
            ErrorKind::Value => "value",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A contract violation: which field, what kind, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractError {
    kind: ErrorKind,
    field: String,
    message: String,
}

impl ContractError {
    /// A new error for `field`.
    pub fn new(kind: ErrorKind, field: impl Into<String>, message: impl Into<String>) -> Self {
        ContractError {
            kind,
            field: field.into(),
            message: message.into(),
        }
    }

    /// Type or value error.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The offending field: `m`, `k`, `seed`, `records`, `records[3]` or `item`.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The message, naming the bound.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} error in {}: {}", self.kind, self.field, self.message)
    }
}

impl std::error::Error for ContractError {}

impl From<BoundError> for ContractError {
    /// A protocol bound becomes a value error naming the same field.
    fn from(err: BoundError) -> Self {
        ContractError::new(ErrorKind::Value, err.field.name(), err.to_string())
    }
}
