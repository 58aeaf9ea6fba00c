//! The input contract of `doc-membership-v1` as the source document's Python code
//! enforces it (seed 000, the constructor and the item check; PROTOCOL.md's contract
//! table), written from the table alone: a list of tests in the source's order, each
//! naming the argument it looks at, the Python type it wants or the bound it applies,
//! and the error it raises. The first failing test decides the error.
//!
//! Python's exact type tests (`type(x) is int`, `type(x) is bytes`, `type(x) is tuple`)
//! are modelled by [`PyValue::type_name`]: a `bool` is its own type (not `int`), a
//! `float` is never `int`, a `bytearray` or a `memoryview` is never `bytes`, a `list`
//! is never `tuple`.
//!
//! The source tests the types of m and k together and their bounds together (one
//! error each); which of the two a field then names (m before k) is bloomproof's
//! decision, kept apart here as [`Rejection::field`]: the kind of the first error is
//! the source's, the field is interop.

/// The Python types that hold bytes: only `bytes` is what the contract wants, the
/// other two fail its exact type test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferType {
    /// `bytes`.
    Bytes,
    /// `bytearray`.
    ByteArray,
    /// `memoryview`.
    MemoryView,
}

/// The Python sequence types: only `tuple` is what the contract wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SequenceType {
    /// `tuple`.
    Tuple,
    /// `list`.
    List,
}

/// A Python value as the contract sees it (the typed values of `spec/README.md`).
#[derive(Clone, Debug, PartialEq)]
pub enum PyValue {
    /// `bytes`, `bytearray` or `memoryview`, with its bytes.
    Buffer(BufferType, Vec<u8>),
    /// `str`.
    Str(String),
    /// `int`, of any size (within 128 bits here).
    Int(i128),
    /// `bool`.
    Bool(bool),
    /// `float`.
    Float(f64),
    /// `tuple` or `list`, with its items.
    Sequence(SequenceType, Vec<PyValue>),
}

impl PyValue {
    /// What Python's `type(x).__name__` says.
    pub fn type_name(&self) -> &'static str {
        match self {
            PyValue::Buffer(BufferType::Bytes, _) => "bytes",
            PyValue::Buffer(BufferType::ByteArray, _) => "bytearray",
            PyValue::Buffer(BufferType::MemoryView, _) => "memoryview",
            PyValue::Sequence(SequenceType::Tuple, _) => "tuple",
            PyValue::Sequence(SequenceType::List, _) => "list",
            PyValue::Str(_) => "str",
            PyValue::Int(_) => "int",
            PyValue::Bool(_) => "bool",
            PyValue::Float(_) => "float",
        }
    }

    /// Python's `len(x)` for the sized types the contract bounds (`bytes`, `tuple`).
    fn len(&self) -> Option<i128> {
        match self {
            PyValue::Buffer(BufferType::Bytes, b) => Some(b.len() as i128),
            PyValue::Sequence(SequenceType::Tuple, t) => Some(t.len() as i128),
            _ => None,
        }
    }

    /// The integer, when `type(x) is int`.
    fn int(&self) -> Option<i128> {
        match self {
            PyValue::Int(n) => Some(*n),
            _ => None,
        }
    }
}

/// `TypeError` or `ValueError`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// `TypeError`: the wrong kind of value.
    Type,
    /// `ValueError`: the right kind, out of bounds.
    Value,
}

impl ErrorClass {
    /// `"type"` or `"value"`, as the adapter protocol spells the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorClass::Type => "type",
            ErrorClass::Value => "value",
        }
    }
}

/// The error the contract raises: its class (the source's) and the argument it names
/// (bloomproof's: `m`, `k`, `seed`, `records`, `records[<i>]`, `item`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// Type or value error.
    pub class: ErrorClass,
    /// The argument at fault.
    pub field: String,
}

/// The bounds of the contract table (PROTOCOL.md), inclusive.
pub const M_BOUNDS: (i128, i128) = (8, 512);
/// k's bounds.
pub const K_BOUNDS: (i128, i128) = (1, 8);
/// The longest seed, in bytes.
pub const SEED_MAX: i128 = 16;
/// The most records, counted before de-duplication.
pub const RECORDS_MAX: i128 = 64;
/// The longest record or query, in bytes.
pub const ITEM_MAX: i128 = 64;

/// One test of the contract: the argument, and whether it passes.
struct Test<'a> {
    field: String,
    class: ErrorClass,
    passes: Box<dyn Fn() -> bool + 'a>,
}

fn wants_type<'a>(field: &str, value: &'a PyValue, type_name: &'static str) -> Test<'a> {
    Test {
        field: field.to_string(),
        class: ErrorClass::Type,
        passes: Box::new(move || value.type_name() == type_name),
    }
}

/// `lo <= x <= hi` for an int, `len(x) <= hi` for a sized value; a value whose type
/// test failed never reaches its bound test (the type test comes first), so any other
/// value passes here.
fn within<'a>(field: &str, value: &'a PyValue, lo: i128, hi: i128, by_len: bool) -> Test<'a> {
    Test {
        field: field.to_string(),
        class: ErrorClass::Value,
        passes: Box::new(move || {
            let measured = if by_len { value.len() } else { value.int() };
            measured.is_none_or(|n| lo <= n && n <= hi)
        }),
    }
}

fn first_failure(tests: Vec<Test<'_>>) -> Result<(), Rejection> {
    for test in tests {
        if !(test.passes)() {
            return Err(Rejection {
                class: test.class,
                field: test.field,
            });
        }
    }
    Ok(())
}

/// The constructor `DocumentPrefilter(records, m, k, seed)`: `Ok` when it accepts,
/// else the first error in the source's order (m and k types, m and k bounds, seed
/// type, seed length, records type, records count before de-duplication, then each
/// record's type and length in index order).
pub fn construct(
    records: &PyValue,
    m: &PyValue,
    k: &PyValue,
    seed: &PyValue,
) -> Result<(), Rejection> {
    let tests = vec![
        wants_type("m", m, "int"),
        wants_type("k", k, "int"),
        within("m", m, M_BOUNDS.0, M_BOUNDS.1, false),
        within("k", k, K_BOUNDS.0, K_BOUNDS.1, false),
        wants_type("seed", seed, "bytes"),
        within("seed", seed, 0, SEED_MAX, true),
        wants_type("records", records, "tuple"),
        within("records", records, 0, RECORDS_MAX, true),
    ];
    first_failure(tests)?;
    // The records' own tests, once records is a tuple within its count (the tests above
    // fail first otherwise): each record's type, then its length, in index order.
    if let PyValue::Sequence(SequenceType::Tuple, list) = records {
        for (index, record) in list.iter().enumerate() {
            let field = format!("records[{index}]");
            first_failure(vec![
                wants_type(&field, record, "bytes"),
                within(&field, record, 0, ITEM_MAX, true),
            ])?;
        }
    }
    Ok(())
}

/// A lookup's item check: exact `bytes` of at most 64 bytes.
pub fn lookup_item(item: &PyValue) -> Result<(), Rejection> {
    first_failure(vec![
        wants_type("item", item, "bytes"),
        within("item", item, 0, ITEM_MAX, true),
    ])
}

/// The construction, then (when given) the lookup of `item`: the first error.
pub fn typed_call(
    records: &PyValue,
    m: &PyValue,
    k: &PyValue,
    seed: &PyValue,
    item: Option<&PyValue>,
) -> Result<(), Rejection> {
    construct(records, m, k, seed)?;
    match item {
        Some(item) => lookup_item(item),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(n: usize) -> PyValue {
        PyValue::Buffer(BufferType::Bytes, vec![b'x'; n])
    }

    fn err(class: ErrorClass, field: &str) -> Result<(), Rejection> {
        Err(Rejection {
            class,
            field: field.to_string(),
        })
    }

    /// The seed's own named cases (PROTOCOL.md, checks 11 and 12), written out by hand.
    #[test]
    fn the_seeds_rejections() {
        use ErrorClass::{Type, Value};
        let empty = PyValue::Sequence(SequenceType::Tuple, vec![]);
        let lab = PyValue::Buffer(BufferType::Bytes, b"lab".to_vec());
        let int = PyValue::Int;
        let call = |m: PyValue, k: PyValue, seed: PyValue| construct(&empty, &m, &k, &seed);
        assert_eq!(
            call(PyValue::Bool(true), int(3), lab.clone()),
            err(Type, "m")
        );
        assert_eq!(
            call(int(16), PyValue::Bool(false), lab.clone()),
            err(Type, "k")
        );
        assert_eq!(
            call(PyValue::Float(16.0), int(3), lab.clone()),
            err(Type, "m")
        );
        assert_eq!(
            call(int(16), int(3), PyValue::Str("lab".into())),
            err(Type, "seed")
        );
        assert_eq!(
            call(
                int(16),
                int(3),
                PyValue::Buffer(BufferType::ByteArray, b"lab".to_vec())
            ),
            err(Type, "seed")
        );
        assert_eq!(call(int(7), int(3), lab.clone()), err(Value, "m"));
        assert_eq!(call(int(513), int(3), lab.clone()), err(Value, "m"));
        assert_eq!(call(int(16), int(0), lab.clone()), err(Value, "k"));
        assert_eq!(call(int(16), int(9), lab.clone()), err(Value, "k"));
        assert_eq!(call(int(16), int(3), bytes(17)), err(Value, "seed"));
        assert_eq!(call(int(8), int(1), bytes(16)), Ok(()));
        assert_eq!(call(int(512), int(8), bytes(0)), Ok(()));
        let build = |records: PyValue| construct(&records, &int(16), &int(3), &lab);
        assert_eq!(
            build(PyValue::Sequence(SequenceType::List, vec![bytes(1)])),
            err(Type, "records")
        );
        assert_eq!(
            build(PyValue::Sequence(
                SequenceType::Tuple,
                vec![PyValue::Str("a".into())]
            )),
            err(Type, "records[0]")
        );
        assert_eq!(
            build(PyValue::Sequence(
                SequenceType::Tuple,
                vec![bytes(0), PyValue::Buffer(BufferType::MemoryView, vec![])]
            )),
            err(Type, "records[1]")
        );
        assert_eq!(
            build(PyValue::Sequence(
                SequenceType::Tuple,
                vec![PyValue::Int(1)]
            )),
            err(Type, "records[0]")
        );
        // 65 copies of one record: counted before de-duplication.
        assert_eq!(
            build(PyValue::Sequence(SequenceType::Tuple, vec![bytes(0); 65])),
            err(Value, "records")
        );
        assert_eq!(
            build(PyValue::Sequence(SequenceType::Tuple, vec![bytes(64); 64])),
            Ok(())
        );
        assert_eq!(
            build(PyValue::Sequence(SequenceType::Tuple, vec![bytes(65)])),
            err(Value, "records[0]")
        );
        // The count comes before any record's own test.
        assert_eq!(
            build(PyValue::Sequence(
                SequenceType::Tuple,
                vec![PyValue::Bool(true); 65]
            )),
            err(Value, "records")
        );
        assert_eq!(lookup_item(&PyValue::Str("a".into())), err(Type, "item"));
        assert_eq!(lookup_item(&bytes(65)), err(Value, "item"));
        assert_eq!(lookup_item(&bytes(64)), Ok(()));
    }

    /// Several arguments wrong at once: the first test in the order decides.
    #[test]
    fn the_first_failure_in_the_order_decides() {
        use ErrorClass::{Type, Value};
        let int = PyValue::Int;
        let seed = PyValue::Str(String::new());
        // m's bound before k's type? No: both types come before both bounds.
        assert_eq!(
            construct(
                &PyValue::Sequence(SequenceType::Tuple, vec![]),
                &int(7),
                &PyValue::Bool(true),
                &seed
            ),
            err(Type, "k")
        );
        assert_eq!(
            construct(
                &PyValue::Sequence(SequenceType::Tuple, vec![]),
                &int(16),
                &int(9),
                &seed
            ),
            err(Value, "k")
        );
        assert_eq!(
            construct(
                &PyValue::Sequence(SequenceType::List, vec![]),
                &int(16),
                &int(3),
                &bytes(17)
            ),
            err(Value, "seed")
        );
        // Integers far out of bounds, both signs, are value errors whatever their width.
        for n in [
            1i128 << 16 | 16,
            1 << 32 | 16,
            1 << 64 | 16,
            -(1 << 64) + 16,
            -1,
        ] {
            assert_eq!(
                construct(
                    &PyValue::Sequence(SequenceType::Tuple, vec![]),
                    &int(n),
                    &int(3),
                    &bytes(0)
                ),
                err(Value, "m"),
                "{n}"
            );
        }
        assert_eq!(
            typed_call(
                &PyValue::Sequence(SequenceType::Tuple, vec![]),
                &int(16),
                &int(3),
                &bytes(0),
                Some(&PyValue::Buffer(BufferType::ByteArray, vec![]))
            ),
            err(Type, "item")
        );
    }
}
