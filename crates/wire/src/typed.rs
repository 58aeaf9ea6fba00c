//! Values as a dynamically typed language passes them, and expected rejections.

use crate::Hex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A value as a dynamically typed language passes it: an object with exactly one key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TypedValue {
    /// Exact immutable bytes (Python `bytes`, JS `Uint8Array`), as hex.
    Bytes(Hex),
    /// A text string (Python `str`).
    Str(String),
    /// A mutable byte array (Python `bytearray`), as hex.
    Bytearray(Hex),
    /// A memory view over bytes (Python `memoryview`), as hex.
    Memoryview(Hex),
    /// An exact integer (Python `int`); in files always within +-(2^53 - 1).
    Int(i64),
    /// A boolean (Python `bool`, not an integer here).
    Bool(bool),
    /// A floating-point number, even one with an integral value (Python `float`).
    Float(f64),
    /// An exact tuple (the only accepted container of records).
    Tuple(Vec<TypedValue>),
    /// A list.
    List(Vec<TypedValue>),
}

/// The kind of contract error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKindName {
    /// A value of the wrong kind (Python `TypeError`).
    Type,
    /// A value of the right kind outside its bounds (Python `ValueError`).
    Value,
}

impl ErrorKindName {
    /// `"type"` or `"value"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKindName::Type => "type",
            ErrorKindName::Value => "value",
        }
    }
}

/// The expected rejection of a `typed_rejection` case of `cases.json`: its kind, and
/// the field it names when the case's check judges that (an interop check: the sources
/// name no field; `None` in a core check, where only the kind is compared).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContractExpect {
    /// Type or value error.
    pub error: ErrorKindName,
    /// The field the error names, when compared: `m`, `k`, `seed`, `records`,
    /// `records[<i>]` or `item`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// The expected rejection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RejectExpect {
    /// Type or value error.
    pub error: ErrorKindName,
    /// The field the error names: `m`, `k`, `seed`, `records`, `records[<i>]` or
    /// `item` (`doc-membership-v1`); `m` or `k` (`fnv1a-utf16-v1`).
    pub field: String,
}
