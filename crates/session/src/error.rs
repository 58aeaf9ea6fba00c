//! [`SessionError`], [`ImportError`] and their common [`ErrorKind`].

use std::fmt;

pub use bloomproof_wire::protocols::fnv1a_utf16_v1::session::ErrorKind;
use bloomproof_wire::protocols::fnv1a_utf16_v1::session::{DraftField, json_display};

/// A rejected [`Op`](crate::Op). The session is left exactly as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// `Create` with an `m` or `k` draft that is not one or more ASCII digits
    /// (no sign, whitespace, decimal point or exponent).
    InvalidDraft {
        /// `m` or `k`.
        field: DraftField,
        /// The draft, verbatim.
        value: String,
    },
    /// `Create` with a parameter outside its bounds.
    OutOfRange {
        /// `m` or `k`.
        field: DraftField,
        /// The draft (ASCII digits), verbatim.
        value: String,
        /// Smallest allowed value.
        min: u32,
        /// Largest allowed value.
        max: u32,
    },
    /// An operation that needs an active filter, with none.
    NoActiveFilter {
        /// The operation's serde name (`insert`, `query`, `insert_example`, `reset`).
        op: &'static str,
    },
    /// An empty insert or query string.
    EmptyString {
        /// `insert` or `query`.
        field: DraftField,
    },
    /// An insert or query string over 256 UTF-16 code units.
    TooLong {
        /// `insert` or `query`.
        field: DraftField,
        /// Its length in UTF-16 code units.
        units: usize,
        /// The bound (256).
        max: usize,
    },
    /// A draft over [`DRAFT_MAX_UNITS`](crate::DRAFT_MAX_UNITS) UTF-16 code units.
    DraftTooLong {
        /// Which draft.
        field: DraftField,
        /// Its length in UTF-16 code units.
        units: usize,
        /// The bound.
        max: usize,
    },
    /// A new distinct string when the filter already keeps the maximum.
    TooManyEntries {
        /// The bound (1024 distinct strings).
        max: usize,
    },
}

impl SessionError {
    /// The stable kind.
    pub fn kind(&self) -> ErrorKind {
        match self {
            SessionError::InvalidDraft { .. } => ErrorKind::InvalidDraft,
            SessionError::OutOfRange { .. } => ErrorKind::OutOfRange,
            SessionError::NoActiveFilter { .. } => ErrorKind::NoActiveFilter,
            SessionError::EmptyString { .. } => ErrorKind::EmptyString,
            SessionError::TooLong { .. } | SessionError::DraftTooLong { .. } => ErrorKind::TooLong,
            SessionError::TooManyEntries { .. } => ErrorKind::TooManyEntries,
        }
    }
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::InvalidDraft { field, value } => {
                let shown = json_display(&value.encode_utf16().collect::<Vec<_>>());
                write!(
                    f,
                    "{field}: draft {shown} is not a decimal integer (ASCII digits 0-9 only: no sign, spaces, decimal point or exponent)"
                )
            }
            SessionError::OutOfRange {
                field,
                value,
                min,
                max,
            } => write!(
                f,
                "{field} = {value} is out of range: must be an integer in {min}..={max}"
            ),
            SessionError::NoActiveFilter { op } => {
                write!(f, "{op}: no active filter; create the filter first")
            }
            SessionError::EmptyString { field } => write!(
                f,
                "{field}: empty string; strings have 1..={} UTF-16 code units",
                crate::MAX_UNITS
            ),
            SessionError::TooLong { field, units, max } => {
                write!(f, "{field}: {units} UTF-16 code units, at most {max}")
            }
            SessionError::DraftTooLong { field, units, max } => {
                write!(f, "{field} draft: {units} UTF-16 code units, at most {max}")
            }
            SessionError::TooManyEntries { max } => write!(
                f,
                "insert: the filter already keeps {max} distinct strings, at most {max}; a new distinct string is rejected (a duplicate is still accepted)"
            ),
        }
    }
}

impl std::error::Error for SessionError {}

/// A rejected [`Session::import`](crate::Session::import). The session is left exactly as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// The text is over [`IMPORT_MAX_BYTES`](crate::IMPORT_MAX_BYTES) (checked before parsing).
    TooLarge {
        /// Its length in bytes (UTF-8).
        bytes: usize,
        /// The bound (2 MiB = 2097152 bytes).
        max: usize,
    },
    /// The text is not JSON.
    Syntax {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The `version` is not one this crate reads.
    UnsupportedVersion {
        /// The version found.
        version: u64,
        /// The newest version this crate reads (and writes).
        latest: u64,
    },
    /// JSON, but not a valid session.
    Invalid {
        /// Where, as a path into the document (`entries[3]`, `last_operation.h1`,
        /// `(root)` for the whole document).
        path: String,
        /// Which rule: `invalid`, or a more specific kind such as `too_long`,
        /// `empty_string`, `too_many_entries`, `out_of_range`.
        kind: ErrorKind,
        /// What is wrong, with the bound when there is one.
        message: String,
    },
}

impl ImportError {
    /// The stable kind.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ImportError::TooLarge { .. } => ErrorKind::TooLarge,
            ImportError::Syntax { .. } => ErrorKind::Syntax,
            ImportError::UnsupportedVersion { .. } => ErrorKind::UnsupportedVersion,
            ImportError::Invalid { kind, .. } => *kind,
        }
    }

    pub(crate) fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        ImportError::Invalid {
            path: path.into(),
            kind: ErrorKind::Invalid,
            message: message.into(),
        }
    }

    pub(crate) fn with_kind(
        path: impl Into<String>,
        kind: ErrorKind,
        message: impl Into<String>,
    ) -> Self {
        ImportError::Invalid {
            path: path.into(),
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::TooLarge { bytes, max } => {
                write!(f, "file is {bytes} bytes, at most {max}")
            }
            ImportError::Syntax {
                line,
                column,
                message,
            } => {
                write!(
                    f,
                    "JSON syntax error at line {line}, column {column}: {message}"
                )
            }
            ImportError::UnsupportedVersion { version, latest } => write!(
                f,
                "version: unsupported session format version {version}; this reader knows versions 1..={latest}"
            ),
            ImportError::Invalid { path, message, .. } => write!(f, "{path}: {message}"),
        }
    }
}

impl std::error::Error for ImportError {}
