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
    /// An exact integer (Python `int`), of any size the wire writes in digits: in files
    /// always within +-(2^53 - 1); the runner's generated contract inputs go far past the
    /// bounds (2^64 and beyond, negative), within +-(2^127 - 1).
    Int(
        #[serde(deserialize_with = "wide_int")]
        #[schemars(with = "i128")]
        i128,
    ),
    /// A boolean (Python `bool`, not an integer here).
    Bool(bool),
    /// A floating-point number, even one with an integral value (Python `float`).
    Float(f64),
    /// An exact tuple (the only accepted container of records).
    Tuple(Vec<TypedValue>),
    /// A list.
    List(Vec<TypedValue>),
}

/// An integer of a typed value, read from JSON digits. A reader of `serde_json::Value`
/// (the adapter's) holds integers past 64 bits as a float, so an integral float at or
/// past 2^63 in magnitude is read as that integer: only digits too wide for 64 bits come
/// so (`16.0`, `-0` and every float below 2^63 stay malformed, as ADAPTER-INTEGER says;
/// an exponent spelling of such a huge value, which no check sends, is read as the
/// integer too).
fn wide_int<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<i128, D::Error> {
    struct Wide;
    impl serde::de::Visitor<'_> for Wide {
        type Value = i128;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an integer")
        }
        fn visit_i64<E>(self, n: i64) -> Result<i128, E> {
            Ok(i128::from(n))
        }
        fn visit_u64<E>(self, n: u64) -> Result<i128, E> {
            Ok(i128::from(n))
        }
        fn visit_i128<E>(self, n: i128) -> Result<i128, E> {
            Ok(n)
        }
        fn visit_u128<E: serde::de::Error>(self, n: u128) -> Result<i128, E> {
            i128::try_from(n).map_err(|_| E::custom("integer past 2^127"))
        }
        fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<i128, E> {
            // 2^63 = 9223372036854775808.
            const WIDE: f64 = 9_223_372_036_854_775_808.0;
            if x.fract() == 0.0 && x.abs() >= WIDE && x.abs() < 1.7e38 {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "integral and below 2^127 in magnitude: exact"
                )]
                Ok(x as i128)
            } else {
                Err(E::invalid_type(serde::de::Unexpected::Float(x), &self))
            }
        }
    }
    deserializer.deserialize_any(Wide)
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
