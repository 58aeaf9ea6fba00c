//! Details of the contract that the seed's checks leave open: what each error
//! says, the order of the record checks, the clamping of huge or negative
//! integers, and the equality and hash of the document set.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use bloomproof_filter::dynamic::{self, Value};
use bloomproof_filter::{ContractError, DocumentPrefilter, ErrorKind};

fn int(n: i128) -> Value {
    Value::Int(n)
}

fn bytes(b: &[u8]) -> Value {
    Value::Bytes(b.to_vec())
}

fn build(records: &Value, m: i128, k: i128) -> Result<DocumentPrefilter, ContractError> {
    dynamic::build(records, &int(m), &int(k), &bytes(b"lab"))
}

fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

#[test]
fn error_kinds_have_their_spec_names() {
    assert_eq!(ErrorKind::Type.as_str(), "type");
    assert_eq!(ErrorKind::Value.as_str(), "value");
    assert_eq!(ErrorKind::Type.to_string(), "type");
    assert_eq!(ErrorKind::Value.to_string(), "value");
}

#[test]
fn type_errors_name_the_wanted_and_the_given_type() {
    let snapshot = build(&Value::Tuple(vec![]), 16, 3).unwrap();
    let given = [
        (Value::Str("a".into()), "str"),
        (Value::ByteArray(b"a".to_vec()), "bytearray"),
        (Value::MemoryView(b"a".to_vec()), "memoryview"),
        (int(1), "int"),
        (Value::Bool(true), "bool"),
        (Value::Float(1.0), "float"),
        (Value::Tuple(vec![]), "tuple"),
        (Value::List(vec![]), "list"),
        (Value::None, "None"),
    ];
    for (value, name) in given {
        assert_eq!(value.type_name(), name);
        let err = dynamic::lookup(&snapshot, &value).unwrap_err();
        assert_eq!((err.kind(), err.field()), (ErrorKind::Type, "item"));
        let message = format!("must be exact bytes, got {name} (no implicit conversion)");
        assert_eq!(err.message(), message);
        assert_eq!(err.to_string(), format!("type error in item: {message}"));
    }
    assert_eq!(bytes(b"").type_name(), "bytes");
    let err = build(&Value::List(vec![]), 16, 3).unwrap_err();
    assert_eq!(
        err.message(),
        "must be exact tuple, got list (no implicit conversion)"
    );
    let err = dynamic::build(
        &Value::Tuple(vec![]),
        &Value::Float(16.0),
        &int(3),
        &bytes(b""),
    )
    .unwrap_err();
    assert_eq!(
        (err.field(), err.message()),
        ("m", "must be exact int, got float (no implicit conversion)")
    );
}

#[test]
fn value_errors_name_the_bound() {
    let err = build(&Value::Tuple(vec![bytes(&[0; 65])]), 16, 3).unwrap_err();
    assert_eq!(
        (err.kind(), err.field(), err.message()),
        (
            ErrorKind::Value,
            "records[0]",
            "record is 65 bytes long: must be 0..=64 bytes"
        )
    );
    let err = build(&Value::Tuple(vec![bytes(b"a"); 65]), 16, 3).unwrap_err();
    assert_eq!(
        (err.field(), err.message()),
        (
            "records",
            "65 records given: at most 64 are allowed (counted before de-duplication)"
        )
    );
    let snapshot = build(&Value::Tuple(vec![]), 16, 3).unwrap();
    let err = snapshot.lookup(&[0; 65]).unwrap_err();
    assert_eq!(
        err.message(),
        "query is 65 bytes long: must be 0..=64 bytes"
    );
    let err = build(&Value::Tuple(vec![]), 513, 3).unwrap_err();
    assert_eq!(
        (err.field(), err.message()),
        (
            "m",
            "m = 513 is out of bounds: must be an integer in 8..=512"
        )
    );
}

#[test]
fn integers_beyond_u64_are_clamped_to_the_nearest_end() {
    // A negative integer is reported as 0 (below every minimum), one too large
    // for 64 bits as u64::MAX (above every maximum).
    for (m, k, field, given) in [
        (-1, 3, "m", "0"),
        (-(1 << 100), 3, "m", "0"),
        (1 << 100, 3, "m", "18446744073709551615"),
        (16, -7, "k", "0"),
        (16, 1 << 70, "k", "18446744073709551615"),
    ] {
        let err = build(&Value::Tuple(vec![]), m, k).unwrap_err();
        assert_eq!((err.kind(), err.field()), (ErrorKind::Value, field));
        assert!(
            err.message()
                .starts_with(&format!("{field} = {given} is out of bounds")),
            "{m} {k}: {err}"
        );
    }
}

#[test]
fn the_record_count_is_checked_before_each_record() {
    // 64 records are allowed, even with repeats.
    let snapshot = build(&Value::Tuple(vec![bytes(b"a"); 64]), 16, 3).unwrap();
    assert_eq!(snapshot.documents().len(), 1);
    // 65 records fail on the count, before the str among them is looked at.
    let mut records = vec![bytes(b"a"); 65];
    records[3] = Value::Str("a".into());
    let err = build(&Value::Tuple(records.clone()), 16, 3).unwrap_err();
    assert_eq!((err.kind(), err.field()), (ErrorKind::Value, "records"));
    // With 64 the str is found.
    records.truncate(64);
    let err = build(&Value::Tuple(records), 16, 3).unwrap_err();
    assert_eq!((err.kind(), err.field()), (ErrorKind::Type, "records[3]"));
}

#[test]
fn document_sets_are_equal_exactly_when_they_hold_the_same_documents() {
    let sets: [&[&[u8]]; 7] = [
        &[],
        &[b""],
        &[b"a"],
        &[b"b"],
        &[b"ab"],
        &[b"a", b"b"],
        &[b"a", b"ab"],
    ];
    let snapshots: Vec<DocumentPrefilter> = sets
        .iter()
        .map(|records| DocumentPrefilter::new(records, 64, 2, b"").unwrap())
        .collect();
    for (i, a) in snapshots.iter().enumerate() {
        for (j, b) in snapshots.iter().enumerate() {
            assert_eq!(a.documents() == b.documents(), i == j, "{i} {j}");
            // Distinct sets hash apart (with the fixed-key default hasher).
            assert_eq!(
                hash_of(a.documents()) == hash_of(b.documents()),
                i == j,
                "{i} {j}"
            );
        }
    }
    // Order and repeats build an equal set with an equal hash.
    let again = DocumentPrefilter::new(&[b"b", b"a", b"b"], 64, 2, b"").unwrap();
    assert_eq!(again.documents(), snapshots[5].documents());
    assert_eq!(
        hash_of(again.documents()),
        hash_of(snapshots[5].documents())
    );
    assert_eq!(hash_of(&again), hash_of(&snapshots[5]));
}
