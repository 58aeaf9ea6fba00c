//! The contract as a dynamically typed language sees it.
//!
//! The source document is a Python module: it rejects a `str`, `bytearray`,
//! `memoryview`, `int` or `bool` where exact `bytes` are wanted, a `list` where a
//! `tuple` is wanted, and a `bool` or `float` where an `int` is wanted, each with a
//! *type* error, before it checks any bound (a *value* error). [`Value`] models those
//! inputs so the same rejection cases run against Rust and against implementations in
//! other languages. The checks run in the source document's order: m and k types,
//! m and k bounds, seed type, seed length, records type, records count, then each
//! record.

use crate::{ContractError, DocumentPrefilter, ErrorKind, Lookup, Params};
use bloomproof_protocol::doc_membership::DocFamily;
use bloomproof_protocol::doc_membership_v1::FAMILY;

/// A value as a dynamic language would pass it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Exact immutable bytes.
    Bytes(Vec<u8>),
    /// A text string.
    Str(String),
    /// A mutable byte array.
    ByteArray(Vec<u8>),
    /// A memory view over bytes.
    MemoryView(Vec<u8>),
    /// An exact integer.
    Int(i128),
    /// A boolean (not an integer here, unlike Python's `bool <: int`).
    Bool(bool),
    /// A floating-point number, even one with an integral value.
    Float(f64),
    /// An exact tuple.
    Tuple(Vec<Value>),
    /// A list.
    List(Vec<Value>),
    /// No value.
    None,
}

impl Value {
    /// The name of the value's type, as an error message shows it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Bytes(_) => "bytes",
            Value::Str(_) => "str",
            Value::ByteArray(_) => "bytearray",
            Value::MemoryView(_) => "memoryview",
            Value::Int(_) => "int",
            Value::Bool(_) => "bool",
            Value::Float(_) => "float",
            Value::Tuple(_) => "tuple",
            Value::List(_) => "list",
            Value::None => "None",
        }
    }
}

fn type_error(field: &str, wanted: &str, got: &Value) -> ContractError {
    ContractError::new(
        ErrorKind::Type,
        field,
        format!(
            "must be exact {wanted}, got {} (no implicit conversion)",
            got.type_name()
        ),
    )
}

fn exact_int(field: &str, value: &Value) -> Result<i128, ContractError> {
    match value {
        Value::Int(n) => Ok(*n),
        other => Err(type_error(field, "int", other)),
    }
}

fn exact_bytes<'a>(field: &str, value: &'a Value) -> Result<&'a [u8], ContractError> {
    match value {
        Value::Bytes(bytes) => Ok(bytes),
        other => Err(type_error(field, "bytes", other)),
    }
}

/// Checks the parameters in the source document's order (`doc-membership-v1`'s: the
/// typed contract is the source document's).
pub fn params(m: &Value, k: &Value, seed: &Value) -> Result<Params, ContractError> {
    params_of(&FAMILY, m, k, seed)
}

/// [`params`] for the version `family`: the source document's order, the version's
/// bounds.
pub fn params_of(
    family: &'static DocFamily,
    m: &Value,
    k: &Value,
    seed: &Value,
) -> Result<Params, ContractError> {
    let m = exact_int("m", m)?;
    let k = exact_int("k", k)?;
    // Negative values read as 0 and huge ones as u64::MAX: both are out of bounds.
    let clamp = |n: i128| u64::try_from(n.max(0)).unwrap_or(u64::MAX);
    // Bounds of m and k come before the seed's type, as in the source document.
    Params::of(family, clamp(m), clamp(k), &[]).map_err(ContractError::from)?;
    let seed = exact_bytes("seed", seed)?;
    Params::of(family, clamp(m), clamp(k), seed).map_err(ContractError::from)
}

/// Builds a snapshot from dynamically typed inputs (`doc-membership-v1`).
pub fn build(
    records: &Value,
    m: &Value,
    k: &Value,
    seed: &Value,
) -> Result<DocumentPrefilter, ContractError> {
    build_of(&FAMILY, records, m, k, seed)
}

/// [`build`] for the version `family` (its bounds; the lookup of the snapshot checks
/// the item against them too).
pub fn build_of(
    family: &'static DocFamily,
    records: &Value,
    m: &Value,
    k: &Value,
    seed: &Value,
) -> Result<DocumentPrefilter, ContractError> {
    let params = params_of(family, m, k, seed)?;
    let records = match records {
        Value::Tuple(items) => items,
        other => return Err(type_error("records", "tuple", other)),
    };
    let bounds = params.family().bounds();
    if records.len() > bounds.records_max {
        return Err(crate::too_many_records(records.len(), bounds.records_max));
    }
    let mut bytes = Vec::with_capacity(records.len());
    for (index, record) in records.iter().enumerate() {
        let field = format!("records[{index}]");
        let record = exact_bytes(&field, record)?;
        params
            .family()
            .check_item(record)
            .map_err(|err| crate::record_error(index, &err))?;
        bytes.push(record);
    }
    DocumentPrefilter::with_params(params, &bytes)
}

/// Looks up a dynamically typed item.
pub fn lookup(snapshot: &DocumentPrefilter, item: &Value) -> Result<Lookup, ContractError> {
    snapshot.lookup(exact_bytes("item", item)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(n: i128) -> Value {
        Value::Int(n)
    }

    fn seed() -> Value {
        Value::Bytes(b"lab".to_vec())
    }

    fn kind(result: Result<DocumentPrefilter, ContractError>) -> (ErrorKind, String) {
        let err = result.unwrap_err();
        (err.kind(), err.field().to_string())
    }

    #[test]
    fn seed_parameter_rejections() {
        let empty = Value::Tuple(vec![]);
        let cases = [
            (
                Value::Bool(true),
                int(3),
                Value::Bytes(vec![]),
                ErrorKind::Type,
                "m",
            ),
            (
                int(16),
                Value::Bool(false),
                Value::Bytes(vec![]),
                ErrorKind::Type,
                "k",
            ),
            (
                Value::Float(16.0),
                int(3),
                Value::Bytes(vec![]),
                ErrorKind::Type,
                "m",
            ),
            (
                int(16),
                int(3),
                Value::Str("lab".into()),
                ErrorKind::Type,
                "seed",
            ),
            (
                int(16),
                int(3),
                Value::ByteArray(b"lab".to_vec()),
                ErrorKind::Type,
                "seed",
            ),
            (int(7), int(3), Value::Bytes(vec![]), ErrorKind::Value, "m"),
            (
                int(513),
                int(3),
                Value::Bytes(vec![]),
                ErrorKind::Value,
                "m",
            ),
            (int(16), int(0), Value::Bytes(vec![]), ErrorKind::Value, "k"),
            (int(16), int(9), Value::Bytes(vec![]), ErrorKind::Value, "k"),
            (
                int(16),
                int(3),
                Value::Bytes(vec![b'x'; 17]),
                ErrorKind::Value,
                "seed",
            ),
            (int(-1), int(3), Value::Bytes(vec![]), ErrorKind::Value, "m"),
            (
                int(1 << 100),
                int(3),
                Value::Bytes(vec![]),
                ErrorKind::Value,
                "m",
            ),
        ];
        for (m, k, s, want, field) in cases {
            assert_eq!(kind(build(&empty, &m, &k, &s)), (want, field.to_string()));
        }
    }

    #[test]
    fn record_rejections() {
        let record = |v: Value| Value::Tuple(vec![v]);
        let build16 = |r: &Value| build(r, &int(16), &int(3), &seed());
        assert_eq!(
            kind(build16(&Value::List(vec![Value::Bytes(b"a".to_vec())]))),
            (ErrorKind::Type, "records".into())
        );
        for bad in [
            Value::Str("a".into()),
            Value::ByteArray(b"a".to_vec()),
            Value::MemoryView(b"a".to_vec()),
            int(1),
            Value::Bool(true),
        ] {
            assert_eq!(
                kind(build16(&record(bad))),
                (ErrorKind::Type, "records[0]".into())
            );
        }
        let many = Value::Tuple(vec![Value::Bytes(b"a".to_vec()); 65]);
        assert_eq!(kind(build16(&many)), (ErrorKind::Value, "records".into()));
        let long = record(Value::Bytes(vec![b'a'; 65]));
        assert_eq!(
            kind(build16(&long)),
            (ErrorKind::Value, "records[0]".into())
        );
        let snapshot = build16(&Value::Tuple(vec![])).unwrap();
        let err = lookup(&snapshot, &Value::Str("a".into())).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Type);
        let err = lookup(&snapshot, &Value::Bytes(vec![b'a'; 65])).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value);
    }
}
