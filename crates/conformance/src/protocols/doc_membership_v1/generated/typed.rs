//! Generated inputs of the `typed` contract of a doc-membership version (the constructor
//! and the lookup as a dynamic language calls them): every argument of every typed kind
//! the wire expresses (empty and nested forms too), integers and lengths at, next to and
//! far past every bound of the running version's contract (its `DocVersion::contract`;
//! `doc-membership-v1`'s are the rows of `spec/bounds.json`, a test holds them equal) (2^31, 2^32, 2^53, 2^63, 2^64 and beyond,
//! negative, and values that wrap into the bounds when cut to 8, 16, 32 or 64 bits),
//! one argument wrong or several, each answer compared with the oracle's contract
//! model (`bloomproof_oracle::contract`). The edge inputs are the same on every run;
//! the drawn ones come from the run's seed.
//!
//! Two parts are compared (a case's `expect.compared`): `typed`, what the source
//! defines (accepted or not, the kind of the first error in the source's order, the
//! lookup of an accepted call: a core check), and `typed_field`, the field the error
//! names (bloomproof's decision: an interop check).

use super::super::DocVersion;
use crate::generated::{Generation, Inputs, Mismatch, failures, search};
use crate::model::GeneratedCase;
use crate::report::Failure;
use crate::subject::{Answer, SubjectError};
use crate::verdict::json;
use bloomproof_adapter::protocols::doc_membership_v1::{DocCall, DocReply, DocSubject};
use bloomproof_oracle::contract::{
    self as model, BufferType, ContractBounds, PyValue, Rejection, SequenceType,
};
use bloomproof_wire::protocols::doc_membership_v1::{Triple, TypedCall};
use bloomproof_wire::{Hex, TypedValue};
use proptest::prelude::*;
use proptest::sample::select;

/// The contract's bounds, as the edges and draws use them: the running version's
/// ([`Bounds::of`]); `doc-membership-v1`'s are the table of bounds' (`spec/bounds.json`,
/// rows `doc.m`, `doc.k`, `doc.seed`, `doc.records`, `doc.record`, `doc.item`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    pub(super) m: (i128, i128),
    pub(super) k: (i128, i128),
    pub(super) seed: i128,
    pub(super) records: i128,
    pub(super) record: i128,
    pub(super) item: i128,
}

impl Bounds {
    /// The bounds of a version's contract (a record's longest is the item's).
    pub(super) fn of(contract: &ContractBounds) -> Bounds {
        Bounds {
            m: contract.m,
            k: contract.k,
            seed: contract.seed,
            records: contract.records,
            record: contract.item,
            item: contract.item,
        }
    }
}

/// The typed value as the oracle's model of Python sees it.
fn py(value: &TypedValue) -> PyValue {
    match value {
        TypedValue::Bytes(hex) => PyValue::Buffer(BufferType::Bytes, hex.0.clone()),
        TypedValue::Str(text) => PyValue::Str(text.clone()),
        TypedValue::Bytearray(hex) => PyValue::Buffer(BufferType::ByteArray, hex.0.clone()),
        TypedValue::Memoryview(hex) => PyValue::Buffer(BufferType::MemoryView, hex.0.clone()),
        TypedValue::Int(n) => PyValue::Int(*n),
        TypedValue::Bool(b) => PyValue::Bool(*b),
        TypedValue::Float(x) => PyValue::Float(*x),
        TypedValue::Tuple(items) => {
            PyValue::Sequence(SequenceType::Tuple, items.iter().map(py).collect())
        }
        TypedValue::List(items) => {
            PyValue::Sequence(SequenceType::List, items.iter().map(py).collect())
        }
    }
}

/// What the oracle's model says of a call under the version's bounds.
pub(super) fn expected(contract: &ContractBounds, call: &TypedCall) -> Result<(), Rejection> {
    model::typed_call(
        contract,
        &py(&call.records),
        &py(&call.m),
        &py(&call.k),
        &py(&call.seed),
        call.item.as_ref().map(py).as_ref(),
    )
}

fn bytes(n: usize, byte: u8) -> TypedValue {
    TypedValue::Bytes(Hex(vec![byte; n]))
}

fn int(n: i128) -> TypedValue {
    TypedValue::Int(n)
}

/// Every kind of value the wire expresses, empty and nested forms included: the wrong
/// kinds of an argument are those of another kind than the one it wants.
fn every_kind() -> Vec<TypedValue> {
    let hex = |b: &[u8]| Hex(b.to_vec());
    vec![
        TypedValue::Bytes(hex(b"")),
        TypedValue::Bytes(hex(b"a")),
        TypedValue::Str(String::new()),
        TypedValue::Str("a".into()),
        TypedValue::Str("16".into()),
        TypedValue::Str("\u{e9}".into()),
        TypedValue::Bytearray(hex(b"")),
        TypedValue::Bytearray(hex(b"a")),
        TypedValue::Memoryview(hex(b"")),
        TypedValue::Memoryview(hex(b"a")),
        int(0),
        int(3),
        int(16),
        TypedValue::Bool(true),
        TypedValue::Bool(false),
        TypedValue::Float(0.0),
        TypedValue::Float(3.0),
        TypedValue::Float(16.0),
        TypedValue::Float(-0.0),
        TypedValue::Float(2.5),
        TypedValue::Tuple(vec![]),
        TypedValue::Tuple(vec![TypedValue::Bytes(hex(b"a"))]),
        TypedValue::Tuple(vec![int(16)]),
        TypedValue::Tuple(vec![TypedValue::Tuple(vec![])]),
        TypedValue::List(vec![]),
        TypedValue::List(vec![TypedValue::Bytes(hex(b"a"))]),
        TypedValue::List(vec![TypedValue::List(vec![])]),
    ]
}

/// The kind's tag, as the typed JSON spells it.
fn tag(value: &TypedValue) -> &'static str {
    match value {
        TypedValue::Bytes(_) => "bytes",
        TypedValue::Str(_) => "str",
        TypedValue::Bytearray(_) => "bytearray",
        TypedValue::Memoryview(_) => "memoryview",
        TypedValue::Int(_) => "int",
        TypedValue::Bool(_) => "bool",
        TypedValue::Float(_) => "float",
        TypedValue::Tuple(_) => "tuple",
        TypedValue::List(_) => "list",
    }
}

fn wrong_kinds(wanted: &str) -> Vec<TypedValue> {
    every_kind()
        .into_iter()
        .filter(|v| tag(v) != wanted)
        .collect()
}

/// The exponents of the far integers: 2^p and its neighbours, for widths an
/// implementation may read an integer into (8, 16, 32, 53, 64 bits, signed or not)
/// and beyond.
const FAR: [u32; 11] = [8, 15, 16, 31, 32, 53, 63, 64, 65, 100, 126];

/// Integers at, next to and far past `(lo, hi)`: each end and its neighbours, zero
/// and negatives, 2^p - 1, 2^p, 2^p + 1 for each of [`FAR`], and the values that wrap
/// into the bounds when cut to p bits (2^p + lo, 2^p + hi, -2^p + lo), each of which
/// a reader of too narrow an integer takes for a value within the bounds.
fn edge_ints((lo, hi): (i128, i128)) -> Vec<i128> {
    let mut out = vec![lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, 0, -1, -lo, -hi];
    for p in FAR {
        let power = 1i128 << p;
        out.extend([
            power - 1,
            power,
            power + 1,
            power + lo,
            power + hi,
            -power,
            -power + lo,
        ]);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Lengths at, next to and far past `max`: 0, 1, max - 1 to max + 2, twice and four
/// times max (the table of bounds' far past, `crate::bound_edges::points`), and the
/// lengths that wrap into the bound when a length is kept in one or two bytes (256 + 1,
/// 65536 + 1, ...).
fn edge_lengths(max: i128, wide: bool) -> Vec<usize> {
    let max = usize::try_from(max).unwrap_or(0);
    let mut out = vec![
        0,
        1,
        max.saturating_sub(1),
        max,
        max + 1,
        max + 2,
        2 * max,
        4 * max,
    ];
    out.extend([255, 256, 257, 256 + max]);
    if wide {
        out.extend([65535, 65536, 65537, 65536 + max]);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A valid call inside every bound, no argument at an edge: two records (`a`, `bb`), m
/// twice its least, k two above its least, a seed of three bytes, lookup of the first
/// record.
fn base(b: &Bounds) -> TypedCall {
    TypedCall {
        records: TypedValue::Tuple(vec![bytes(1, b'a'), bytes(2, b'b')]),
        m: int(b.m.0 * 2),
        k: int(b.k.0 + 2),
        seed: bytes(3, b's'),
        item: Some(bytes(1, b'a')),
    }
}

/// `count` records, all equal (`equal`), or distinct.
fn records_of(count: usize, equal: bool) -> TypedValue {
    TypedValue::Tuple(
        (0..count)
            .map(|i| {
                if equal {
                    bytes(0, 0)
                } else {
                    TypedValue::Bytes(Hex((i as u32).to_be_bytes()[1..].to_vec()))
                }
            })
            .collect(),
    )
}

/// The twelve rules of the contract's order, one way each to break it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Broken {
    MType,
    KType,
    MBound,
    KBound,
    SeedType,
    SeedLength,
    RecordsType,
    RecordsCount,
    RecordType,
    RecordLength,
    ItemType,
    ItemLength,
}

const ORDER: [Broken; 12] = [
    Broken::MType,
    Broken::KType,
    Broken::MBound,
    Broken::KBound,
    Broken::SeedType,
    Broken::SeedLength,
    Broken::RecordsType,
    Broken::RecordsCount,
    Broken::RecordType,
    Broken::RecordLength,
    Broken::ItemType,
    Broken::ItemLength,
];

impl Broken {
    /// The argument it breaks: two rules of one argument cannot both be broken.
    fn argument(self) -> u8 {
        match self {
            Broken::MType | Broken::MBound => 0,
            Broken::KType | Broken::KBound => 1,
            Broken::SeedType | Broken::SeedLength => 2,
            Broken::ItemType | Broken::ItemLength => 4,
            _ => 3,
        }
    }
}

/// `call` with every rule of `broken` broken (records: the count by records of the
/// empty string appended, the first record's type, the last record's length, then the
/// container).
fn break_all(b: &Bounds, mut call: TypedCall, broken: &[Broken]) -> TypedCall {
    let over = |n: i128| usize::try_from(n + 1).unwrap_or(0);
    for rule in broken {
        match rule {
            Broken::MType => call.m = TypedValue::Bool(true),
            Broken::KType => call.k = TypedValue::Float(3.0),
            Broken::MBound => call.m = int(b.m.1 + 1),
            Broken::KBound => call.k = int(b.k.0 - 1),
            Broken::SeedType => call.seed = TypedValue::Str("lab".into()),
            Broken::SeedLength => call.seed = bytes(over(b.seed), b's'),
            Broken::ItemType => call.item = Some(TypedValue::Memoryview(Hex(b"a".to_vec()))),
            Broken::ItemLength => call.item = Some(bytes(over(b.item), b'i')),
            _ => {}
        }
    }
    if let TypedValue::Tuple(records) = &mut call.records {
        if broken.contains(&Broken::RecordType) {
            records[0] = TypedValue::Str("a".into());
        }
        if broken.contains(&Broken::RecordLength) {
            let last = records.len() - 1;
            records[last] = bytes(over(b.record), b'r');
        }
        if broken.contains(&Broken::RecordsCount) {
            let more = over(b.records).saturating_sub(records.len());
            records.extend((0..more).map(|_| bytes(0, 0)));
        }
        if broken.contains(&Broken::RecordsType) {
            call.records = TypedValue::List(std::mem::take(records));
        }
    }
    call
}

/// The edge inputs, the same on every run: each argument at each of its edges (every
/// wrong kind, every edge integer or length) with the others valid; the record count
/// at its edges with equal and with distinct records, a record at each edge at the
/// first, a middle and the last place; every pair of rules of the order broken at once
/// (of different arguments), and all of them.
pub(super) fn edge_calls(b: &Bounds) -> Vec<TypedCall> {
    let base = base(b);
    let mut out = Vec::new();
    let with = |edit: &dyn Fn(&mut TypedCall)| {
        let mut call = base.clone();
        edit(&mut call);
        call
    };
    for value in wrong_kinds("int")
        .into_iter()
        .chain(edge_ints(b.m).into_iter().map(int))
    {
        out.push(with(&|c| c.m = value.clone()));
    }
    for value in wrong_kinds("int")
        .into_iter()
        .chain(edge_ints(b.k).into_iter().map(int))
    {
        out.push(with(&|c| c.k = value.clone()));
    }
    for value in wrong_kinds("bytes").into_iter().chain(
        edge_lengths(b.seed, false)
            .into_iter()
            .map(|n| bytes(n, b's')),
    ) {
        out.push(with(&|c| c.seed = value.clone()));
    }
    for value in wrong_kinds("tuple") {
        out.push(with(&|c| c.records = value.clone()));
    }
    // A call of many records looks nothing up: its lookup would cost the oracle a
    // snapshot of them, which generated_snapshots_agree_with_oracle judges already.
    for count in edge_lengths(b.records, false) {
        for equal in [true, false] {
            out.push(with(&|c| {
                c.records = records_of(count, equal);
                c.item = None;
            }));
        }
    }
    for value in wrong_kinds("bytes").into_iter().chain(
        edge_lengths(b.record, true)
            .into_iter()
            .map(|n| bytes(n, b'r')),
    ) {
        let full = usize::try_from(b.records).unwrap_or(0);
        // A record of 64 KiB or more is judged alone only (its length is what counts).
        let wide = matches!(&value, TypedValue::Bytes(hex) if hex.0.len() > 1024);
        for (count, at) in [(1, 0), (3, 1), (full, full.saturating_sub(1))] {
            if wide && count != 1 {
                continue;
            }
            let mut records = match records_of(count, false) {
                TypedValue::Tuple(records) => records,
                _ => Vec::new(),
            };
            if let Some(slot) = records.get_mut(at) {
                *slot = value.clone();
            }
            out.push(with(&|c| {
                c.records = TypedValue::Tuple(records.clone());
                if count > 3 {
                    c.item = None;
                }
            }));
        }
    }
    for value in wrong_kinds("bytes").into_iter().chain(
        edge_lengths(b.item, true)
            .into_iter()
            .map(|n| bytes(n, b'i')),
    ) {
        out.push(with(&|c| c.item = Some(value.clone())));
    }
    out.push(with(&|c| c.item = None));
    for (i, first) in ORDER.iter().enumerate() {
        for second in &ORDER[i + 1..] {
            if first.argument() != second.argument() || first.argument() == 3 {
                out.push(break_all(b, base.clone(), &[*first, *second]));
            }
        }
    }
    let last_of_each = [
        Broken::MBound,
        Broken::KBound,
        Broken::SeedLength,
        Broken::RecordsType,
        Broken::RecordsCount,
        Broken::RecordType,
        Broken::RecordLength,
        Broken::ItemLength,
    ];
    out.push(break_all(b, base.clone(), &last_of_each));
    out
}

/// One argument, drawn: valid mostly, else at or past a bound, else of a wrong kind.
fn int_arg(range: (i128, i128)) -> BoxedStrategy<TypedValue> {
    let (lo, hi) = range;
    prop_oneof![
        6 => (lo..=hi).prop_map(int),
        2 => select(edge_ints(range)).prop_map(int),
        1 => any::<i64>().prop_map(|n| int(i128::from(n))),
        2 => select(wrong_kinds("int")),
    ]
    .boxed()
}

fn bytes_arg(max: i128, byte: u8) -> BoxedStrategy<TypedValue> {
    let max = usize::try_from(max).unwrap_or(0);
    prop_oneof![
        6 => proptest::collection::vec(any::<u8>(), 0..=max).prop_map(|b| TypedValue::Bytes(Hex(b))),
        2 => select(vec![max + 1, max + 2, 2 * max, 256 + max, 257]).prop_map(move |n| bytes(n, byte)),
        2 => select(wrong_kinds("bytes")),
    ]
    .boxed()
}

/// A call drawn from the whole domain: every argument valid or not independently (so
/// that a third of the calls are valid, the rest break one rule or several), a few
/// records (a full count or one past it now and then).
pub(super) fn calls(b: &Bounds) -> BoxedStrategy<TypedCall> {
    let record = bytes_arg(b.record, b'r');
    let max = usize::try_from(b.records).unwrap_or(0);
    let records = prop_oneof![
        8 => proptest::collection::vec(
            prop_oneof![12 => proptest::collection::vec(any::<u8>(), 0..=4)
                .prop_map(|b| TypedValue::Bytes(Hex(b))), 1 => record.clone()],
            0..=4
        )
        .prop_map(TypedValue::Tuple),
        1 => (select(vec![max, max + 1]), any::<bool>())
            .prop_map(|(count, equal)| records_of(count, equal)),
        1 => proptest::collection::vec(record, 0..=2).prop_map(TypedValue::List),
        1 => select(wrong_kinds("tuple")),
    ];
    let item = prop_oneof![1 => Just(None), 3 => bytes_arg(b.item, b'i').prop_map(Some)];
    (
        records,
        int_arg(b.m),
        int_arg(b.k),
        bytes_arg(b.seed, b's'),
        item,
    )
        .prop_map(|(records, m, k, seed, item)| TypedCall {
            records,
            m,
            k,
            seed,
            item,
        })
        .boxed()
}

/// What a case compares: the outcome and error kind (`typed`, core), the field
/// (`typed_field`, interop), or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Compared {
    kinds: bool,
    fields: bool,
}

impl Compared {
    pub(super) fn of(compared: &[String]) -> Self {
        Compared {
            kinds: compared.iter().any(|c| c == "typed"),
            fields: compared.iter().any(|c| c == "typed_field"),
        }
    }
}

/// The oracle's triple for an accepted call's lookup (the model accepted every
/// argument, so each is of its kind and within its bounds).
fn oracle_triple(version: &DocVersion, call: &TypedCall) -> Option<Triple> {
    let as_u32 = |v: &TypedValue| match v {
        TypedValue::Int(n) => u32::try_from(*n).ok(),
        _ => None,
    };
    let as_bytes = |v: &TypedValue| match v {
        TypedValue::Bytes(hex) => Some(hex.0.clone()),
        _ => None,
    };
    let item = as_bytes(call.item.as_ref()?)?;
    let records: Vec<Vec<u8>> = match &call.records {
        TypedValue::Tuple(records) => records.iter().filter_map(as_bytes).collect(),
        _ => return None,
    };
    let snapshot = super::super::expected::snapshot(
        version.domain_hex,
        &records,
        as_u32(&call.m)?,
        as_u32(&call.k)?,
        &as_bytes(&call.seed)?,
        &[item],
    );
    snapshot.triples.into_iter().next()
}

pub(super) fn verdict(
    version: &DocVersion,
    call: &TypedCall,
    answer: Option<Answer<DocReply>>,
    compared: Compared,
) -> Option<Mismatch> {
    let want = expected(&version.contract, call);
    let Some(answer) = answer else {
        return Some(Mismatch::new("typed", "an answer", "none"));
    };
    match (&want, answer) {
        (Ok(()), Ok(DocReply::Typed(got))) => {
            let triple = oracle_triple(version, call);
            (compared.kinds && got != triple).then(|| {
                Mismatch::new(
                    "typed: accepted, and the lookup equals the oracle's",
                    json(&triple),
                    json(&got),
                )
            })
        }
        (
            Ok(()),
            Err(SubjectError::Rejected {
                kind,
                field,
                message,
            }),
        ) => compared.kinds.then(|| {
            Mismatch::new(
                "typed: every argument within the contract is accepted",
                "accepted",
                format!(
                    "{kind} error naming {}: {message}",
                    field.unwrap_or_else(|| "no field".into())
                ),
            )
        }),
        // A refusal the field check would judge that is missing or of another kind fails
        // it too (as in contract_errors_name_their_field): no field is named then.
        (Err(want), Ok(reply)) => Some(Mismatch::new(
            format!(
                "typed: refused with a {} error (the first rule broken in the source's order)",
                want.class.as_str()
            ),
            format!("a {} error", want.class.as_str()),
            format!("accepted: {reply:?}"),
        )),
        (
            Err(want),
            Err(SubjectError::Rejected {
                kind,
                field,
                message,
            }),
        ) => {
            if kind != want.class.as_str() {
                return Some(Mismatch::new(
                    "typed: the kind of the first error in the source's order",
                    format!("a {} error", want.class.as_str()),
                    format!("a {kind} error: {message}"),
                ));
            }
            if compared.kinds && message.trim().is_empty() {
                return Some(Mismatch::new("typed: the message", "a message", "empty"));
            }
            let named = field.as_deref() == Some(want.field.as_str());
            (compared.fields && !named).then(|| {
                Mismatch::new(
                    "typed: the field the first error in the documented order names",
                    format!("a {} error naming {}", want.class.as_str(), want.field),
                    format!(
                        "a {kind} error naming {}: {message}",
                        field.unwrap_or_else(|| "no field".into())
                    ),
                )
            })
        }
        (_, Err(err)) => Some(Mismatch::new("typed", "an answer", err.to_string())),
        (_, Ok(other)) => Some(Mismatch::new(
            "typed",
            "a typed answer",
            format!("{other:?}"),
        )),
    }
}

pub(super) fn judge(
    version: &DocVersion,
    subject: &mut dyn DocSubject,
    values: &[TypedCall],
    compared: Compared,
) -> Vec<Option<Mismatch>> {
    let calls: Vec<DocCall> = values.iter().cloned().map(DocCall::Typed).collect();
    let mut answers = subject.batch(&calls).into_iter();
    values
        .iter()
        .map(|call| verdict(version, call, answers.next(), compared))
        .collect()
}

/// The call as its request's arguments (as text: an integer past 64 bits is no
/// number of a JSON tree).
pub(super) fn show(call: &TypedCall) -> serde_json::Value {
    serde_json::Value::String(
        serde_json::to_string(call).unwrap_or_else(|err| format!("unprintable: {err}")),
    )
}

/// Smaller calls: one argument set back to the base call's (valid) value, fewer
/// records, a shorter byte string.
pub(super) fn reduce(b: &Bounds, call: &TypedCall) -> Vec<TypedCall> {
    let base = base(b);
    let mut out = Vec::new();
    let mut push = |candidate: TypedCall| {
        if &candidate != call {
            out.push(candidate);
        }
    };
    push(TypedCall {
        item: None,
        ..call.clone()
    });
    push(TypedCall {
        m: base.m.clone(),
        ..call.clone()
    });
    push(TypedCall {
        k: base.k.clone(),
        ..call.clone()
    });
    push(TypedCall {
        seed: base.seed.clone(),
        ..call.clone()
    });
    push(TypedCall {
        records: TypedValue::Tuple(vec![]),
        ..call.clone()
    });
    if let TypedValue::Tuple(records) | TypedValue::List(records) = &call.records {
        for shorter in crate::generated::shorter(records) {
            let records = match &call.records {
                TypedValue::List(_) => TypedValue::List(shorter),
                _ => TypedValue::Tuple(shorter),
            };
            push(TypedCall {
                records,
                ..call.clone()
            });
        }
    }
    out
}

/// Runs one generated case of the `typed` contract of `version`.
pub(crate) fn evaluate(
    version: &DocVersion,
    case: &GeneratedCase,
    subject: &mut dyn DocSubject,
    generation: &Generation,
) -> Vec<Failure> {
    let (id, input, compared) = (case.id.as_str(), &case.input, &case.expect.compared);
    let b = Bounds::of(&version.contract);
    let edges: Vec<BoxedStrategy<TypedCall>> = edge_calls(&b)
        .into_iter()
        .map(|c| Just(c).boxed())
        .collect();
    let inputs = Inputs {
        drawn: generation.count.unwrap_or(input.count),
        edges: edges.len() as u32,
    };
    let strategy = calls(&b);
    let compared = Compared::of(compared);
    let found = search(
        crate::generated::drawn_then_edges(inputs, |_| &strategy, &edges),
        inputs.total(),
        generation.rng(id),
        generation.shrink,
        |values| judge(version, subject, values, compared),
        |call| reduce(&b, call),
    );
    failures(id, generation, inputs, found, show, |_| None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bounds of the table the runner carries.
    fn bounds() -> Result<Bounds, String> {
        let bytes =
            crate::embedded::file("bounds.json").ok_or("the runner carries no spec/bounds.json")?;
        bounds_of(bytes)
    }

    fn bounds_of(bytes: &[u8]) -> Result<Bounds, String> {
        let table: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|err| format!("spec/bounds.json: {err}"))?;
        let row = |id: &str| -> Result<(i128, i128), String> {
            let row = table["bounds"]
                .as_array()
                .and_then(|rows| rows.iter().find(|r| r["id"] == id))
                .ok_or_else(|| format!("spec/bounds.json has no row {id}"))?;
            let max = row["max"]
                .as_u64()
                .ok_or_else(|| format!("spec/bounds.json: {id} has no max"))?;
            Ok((
                i128::from(row["min"].as_u64().unwrap_or(0)),
                i128::from(max),
            ))
        };
        Ok(Bounds {
            m: row("doc.m")?,
            k: row("doc.k")?,
            seed: row("doc.seed")?.1,
            records: row("doc.records")?.1,
            record: row("doc.record")?.1,
            item: row("doc.item")?.1,
        })
    }

    fn expected(call: &TypedCall) -> Result<(), Rejection> {
        super::expected(&ContractBounds::V1, call)
    }

    fn table() -> Bounds {
        let text = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/bounds.json"),
        )
        .unwrap_or_default();
        bounds_of(&text).unwrap_or_else(|err| panic!("{err}"))
    }

    /// The table's contract rows equal the oracle's `ContractBounds::V1`, written from
    /// PROTOCOL.md on their own, and v1's `DocVersion::contract`, which the run uses.
    #[test]
    fn the_table_holds_the_oracles_bounds() {
        let b = table();
        assert_eq!(b, Bounds::of(&ContractBounds::V1));
        assert_eq!(super::super::super::V1.contract, ContractBounds::V1);
        assert_eq!(bounds().ok(), Some(b), "the runner carries the same table");
    }

    /// Every point the table of bounds gives a contract row (`crate::bound_edges::points`:
    /// at, one past and far past the bound, at and below its min) is a value of that
    /// row's argument in some edge call: the rows drive these edges.
    #[test]
    fn every_point_of_the_contract_rows_is_an_edge() {
        use crate::bound_edges::{Driver, driver, points, rows_of};
        let text = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/bounds.json"),
        )
        .unwrap_or_default();
        let rows = rows_of(&text).unwrap_or_else(|err| panic!("{err}"));
        let edges = edge_calls(&table());
        let len = |v: &TypedValue| match v {
            TypedValue::Bytes(hex) => Some(hex.0.len() as i128),
            TypedValue::Tuple(items) => Some(items.len() as i128),
            _ => None,
        };
        let mut driven = 0;
        for row in rows
            .iter()
            .filter(|r| driver(&r.id) == Some(Driver::DocTyped))
        {
            for point in points(row) {
                let v = i128::from(point.value);
                let hit = edges.iter().any(|c| match row.id.as_str() {
                    "doc.m" => c.m == int(v),
                    "doc.k" => c.k == int(v),
                    "doc.seed" => len(&c.seed) == Some(v),
                    "doc.records" => len(&c.records) == Some(v),
                    "doc.record" => matches!(&c.records, TypedValue::Tuple(r) if r.iter().any(|r| len(r) == Some(v))),
                    "doc.item" => c.item.as_ref().and_then(len) == Some(v),
                    other => panic!("a contract row this test does not know: {other}"),
                });
                assert!(hit, "{}: no edge call at {}", row.id, point.value);
                driven += 1;
            }
        }
        assert_eq!(driven, 2 * 5 + 4 * 3, "six rows, two with a min");
    }

    /// The edges hold every bound, one past it and far past it, of every argument,
    /// and every kind; every rule of the order is broken alone and in pairs.
    #[test]
    fn the_edges_cover_every_bound_kind_and_pair() {
        let b = table();
        let edges = edge_calls(&b);
        let ms: Vec<&TypedValue> = edges.iter().map(|c| &c.m).collect();
        for n in [
            7,
            8,
            512,
            513,
            1 << 31,
            1 << 32,
            1 << 53,
            1 << 63,
            1 << 64,
            (1 << 64) + 8,
            (1 << 64) + 512,
            -(1 << 32) + 8,
            -1,
        ] {
            assert!(ms.contains(&&int(n)), "m = {n}");
        }
        for wrong in ["bool", "float", "str", "bytes", "tuple", "list"] {
            assert!(ms.iter().any(|m| tag(m) == wrong), "m of kind {wrong}");
        }
        let seeds: Vec<usize> = edges
            .iter()
            .filter_map(|c| match &c.seed {
                TypedValue::Bytes(h) => Some(h.0.len()),
                _ => None,
            })
            .collect();
        for n in [0, 16, 17, 256 + 16] {
            assert!(seeds.contains(&n), "seed of {n} bytes");
        }
        let counts: Vec<usize> = edges
            .iter()
            .filter_map(|c| match &c.records {
                TypedValue::Tuple(r) => Some(r.len()),
                _ => None,
            })
            .collect();
        for n in [0, 64, 65, 256 + 64] {
            assert!(counts.contains(&n), "{n} records");
        }
        // Every pair of rules of different arguments, and of records' own rules.
        let mut pairs = 0;
        for (i, a) in ORDER.iter().enumerate() {
            for c in &ORDER[i + 1..] {
                let call = break_all(&b, base(&b), &[*a, *c]);
                let want = expected(&call).unwrap_err();
                let alone = expected(&break_all(&b, base(&b), &[*a])).unwrap_err();
                if a.argument() != c.argument() || a.argument() == 3 {
                    assert!(edges.contains(&call), "{a:?} with {c:?}");
                    assert_eq!(want, alone, "{a:?} decides over {c:?}");
                    pairs += 1;
                }
            }
        }
        // 12 rules on 5 arguments: 66 pairs, less the 4 within m, k, seed and item.
        assert_eq!(pairs, 62);
        assert!(expected(&base(&b)).is_ok());
        // The cost: a few hundred calls a run, 8 of them of 64 KiB.
        assert_eq!(edges.len(), 507);
    }

    /// Lengths by hand: around 64 (the records' count), and around 100 with the
    /// two-byte wraps (a bound that is no power of two, so that 65536 + max and twice
    /// or four times max differ).
    #[test]
    fn edge_lengths_by_hand() {
        assert_eq!(
            edge_lengths(64, false),
            [0, 1, 63, 64, 65, 66, 128, 255, 256, 257, 320]
        );
        assert_eq!(
            edge_lengths(100, true),
            [
                0, 1, 99, 100, 101, 102, 200, 255, 256, 257, 356, 400, 65535, 65536, 65537, 65636
            ]
        );
    }

    /// The base call by hand (v1: m from 8, k from 1): valid, and every one of its
    /// arguments one step either way still valid (no argument at an edge).
    #[test]
    fn the_base_call_is_valid_and_inside_every_bound() {
        let b = table();
        let call = base(&b);
        assert_eq!(
            (&call.m, &call.k, &call.seed, &call.records, &call.item),
            (
                &int(16),
                &int(3),
                &bytes(3, b's'),
                &TypedValue::Tuple(vec![bytes(1, b'a'), bytes(2, b'b')]),
                &Some(bytes(1, b'a'))
            )
        );
        assert!(expected(&call).is_ok());
        for step in [-1, 1] {
            let mut near = call.clone();
            near.m = int(16 + step);
            near.k = int(3 + step);
            assert!(expected(&near).is_ok(), "{step}");
        }
    }

    /// Each rule broken alone is refused for its own argument: none leaves the base call
    /// as it was.
    #[test]
    fn every_rule_broken_alone_is_refused_for_its_argument() {
        let b = table();
        let fields = ["m", "k", "seed", "records", "item"];
        for rule in ORDER {
            let call = break_all(&b, base(&b), &[rule]);
            let refused = expected(&call).expect_err("refused");
            let field = fields[usize::from(rule.argument())];
            assert!(refused.field.starts_with(field), "{rule:?}: {refused:?}");
        }
    }

    /// A call of a valid count of records above three looks nothing up (the oracle's
    /// lookup would cost a snapshot of them); the calls of three records that place a
    /// record at an edge in the middle do.
    #[test]
    fn only_calls_of_few_records_look_an_item_up() {
        let b = table();
        let edges = edge_calls(&b);
        let count = |c: &TypedCall| match &c.records {
            TypedValue::Tuple(r) => Some(r.len()),
            _ => None,
        };
        for call in &edges {
            if count(call).is_some_and(|n| (4..=64).contains(&n)) {
                assert!(call.item.is_none(), "{:?} records", count(call));
            }
        }
        assert!(
            edges
                .iter()
                .any(|c| count(c) == Some(3) && c.item.is_some())
        );
    }

    /// What a case compares, by hand: `typed` the outcome and kind (core) alone,
    /// `typed_field` the field (interop) alone, both when both are named.
    #[test]
    fn a_case_compares_what_it_names() {
        let of = |names: &[&str]| {
            let c = Compared::of(&names.iter().map(ToString::to_string).collect::<Vec<_>>());
            (c.kinds, c.fields)
        };
        assert_eq!(of(&["typed"]), (true, false));
        assert_eq!(of(&["typed_field"]), (false, true));
        assert_eq!(of(&["typed", "typed_field"]), (true, true));
        assert_eq!(of(&[]), (false, false));
    }

    /// The shown call is its request's arguments as text, which read back to the call
    /// (an integer past 64 bits too).
    #[test]
    fn a_shown_call_reads_back() {
        let b = table();
        for m in [int(16), int(1 << 100), int(-(1 << 70))] {
            let call = TypedCall { m, ..base(&b) };
            let shown = show(&call);
            let text = shown.as_str().expect("text");
            let back: TypedCall = serde_json::from_str(text).expect("reads back");
            assert_eq!(back, call);
        }
    }

    /// Smaller calls by hand, of the base call with m 7 (below its least): without the
    /// lookup, m back to the base's, no records, then the records' prefixes and each
    /// without one; an argument already the base's gives no candidate.
    #[test]
    fn smaller_calls_by_hand() {
        let b = table();
        let call = TypedCall {
            m: int(7),
            ..base(&b)
        };
        let with = |edit: &dyn Fn(&mut TypedCall)| {
            let mut c = call.clone();
            edit(&mut c);
            c
        };
        let records = |r: Vec<TypedValue>| TypedValue::Tuple(r);
        let (a, bb) = (bytes(1, b'a'), bytes(2, b'b'));
        assert_eq!(
            reduce(&b, &call),
            [
                with(&|c| c.item = None),
                with(&|c| c.m = int(16)),
                with(&|c| c.records = records(vec![])),
                with(&|c| c.records = records(vec![])),
                with(&|c| c.records = records(vec![a.clone()])),
                with(&|c| c.records = records(vec![bb.clone()])),
                with(&|c| c.records = records(vec![a.clone()])),
            ]
        );
        // k and seed off the base, no lookup, one record: k and seed back, no records,
        // then the one prefix and the one removal (both none).
        let call = TypedCall {
            k: int(0),
            seed: bytes(20, b's'),
            item: None,
            records: records(vec![a.clone()]),
            ..base(&b)
        };
        let with = |edit: &dyn Fn(&mut TypedCall)| {
            let mut c = call.clone();
            edit(&mut c);
            c
        };
        assert_eq!(
            reduce(&b, &call),
            [
                with(&|c| c.k = int(3)),
                with(&|c| c.seed = bytes(3, b's')),
                with(&|c| c.records = records(vec![])),
                with(&|c| c.records = records(vec![])),
                with(&|c| c.records = records(vec![])),
            ]
        );
        // Records given as a list (a wrong kind) shrink as lists: the kind stays wrong.
        let call = TypedCall {
            records: TypedValue::List(vec![a.clone(), bb.clone()]),
            ..base(&b)
        };
        let shrunk: Vec<TypedValue> = reduce(&b, &call)
            .into_iter()
            .map(|c| c.records)
            .filter(|r| r != &call.records)
            .collect();
        let list = TypedValue::List;
        assert_eq!(
            shrunk,
            [
                records(vec![]),
                list(vec![]),
                list(vec![a.clone()]),
                list(vec![bb.clone()]),
                list(vec![a.clone()]),
            ]
        );
    }
}
