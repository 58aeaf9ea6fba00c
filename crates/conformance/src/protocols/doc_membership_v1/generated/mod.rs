//! Generated inputs of a doc-membership version: one item's hashing (`positions`, `frame`)
//! and whole snapshots (`build`, `lookup_many`, `read` of an honest and of a damaged
//! snapshot), each answer compared with the oracle.

pub(super) mod typed;

use crate::generated::{Generation, Inputs, Mismatch, drawn_then_edges, edges, failures, search};
use crate::generated::{memo, size, span};
use crate::model::Generator;
use crate::model::{GeneratedCase, GeneratedInput};
use crate::report::Failure;
use crate::subject::{Answer, SubjectError};
use crate::verdict::json;
use bloomproof_adapter::protocols::doc_membership_v1::{DocCall, DocReply, DocSubject, RawParams};
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_wire::encode_hex;
use bloomproof_wire::protocols::doc_membership_v1::Triple;
use proptest::prelude::*;
use proptest::sample::Index;
use std::collections::BTreeSet;

/// Bytes of a length in `bytes`: arbitrary ones, or the UTF-8 of arbitrary characters
/// (multi-byte sequences), cut to the range at a character boundary.
fn bytes_in(bytes: crate::model::Span) -> BoxedStrategy<Vec<u8>> {
    let max = bytes[1] as usize;
    let min = bytes[0] as usize;
    prop_oneof![
        3 => proptest::collection::vec(any::<u8>(), size(bytes)),
        1 => proptest::collection::vec(any::<char>(), 0..=max).prop_map(move |chars| {
            let mut out = Vec::new();
            for c in chars {
                let mut buffer = [0u8; 4];
                let encoded = c.encode_utf8(&mut buffer).as_bytes();
                if out.len() + encoded.len() > max {
                    break;
                }
                out.extend_from_slice(encoded);
            }
            out.resize(out.len().max(min), b'x');
            out
        }),
    ]
    .boxed()
}

/// One item under one set of parameters.
#[derive(Clone, Debug)]
pub(super) struct Hashing {
    params: RawParams,
    item: Vec<u8>,
}

fn params_strategy(input: &GeneratedInput) -> impl Strategy<Value = RawParams> + use<> {
    (
        span(input.m),
        span(input.k),
        bytes_in(input.seed_bytes.unwrap_or([0, 16])),
    )
        .prop_map(|(m, k, seed)| RawParams {
            m: u64::from(m),
            k: u64::from(k),
            seed,
        })
}

pub(super) fn hashing(input: &GeneratedInput) -> impl Strategy<Value = Hashing> + use<> {
    (
        params_strategy(input),
        bytes_in(input.item_bytes.unwrap_or([0, 64])),
    )
        .prop_map(|(params, item)| Hashing { params, item })
}

fn narrow(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn params_json(params: &RawParams) -> serde_json::Value {
    serde_json::json!({"m": params.m, "k": params.k, "seed_hex": encode_hex(&params.seed)})
}

pub(super) fn show_hashing(value: &Hashing) -> serde_json::Value {
    serde_json::json!({"params": params_json(&value.params), "item_hex": encode_hex(&value.item)})
}

/// The invariants of every `positions` answer: k of them, each below m.
fn positions_invariants(params: &RawParams, got: &[u16]) -> Option<Mismatch> {
    if got.len() as u64 != params.k {
        return Some(Mismatch::new(
            "positions: k positions",
            format!("{} positions", params.k),
            format!("{} positions: {}", got.len(), json(&got)),
        ));
    }
    if let Some(p) = got.iter().find(|&&p| u64::from(p) >= params.m) {
        return Some(Mismatch::new(
            "positions: each below m",
            format!("below {}", params.m),
            format!("{p} in {}", json(&got)),
        ));
    }
    None
}

fn broken(what: &str, err: &SubjectError) -> Mismatch {
    Mismatch::new(what, "an answer", err.to_string())
}

pub(super) fn judge_hashing(
    domain: &str,
    subject: &mut dyn DocSubject,
    values: &[Hashing],
) -> Vec<Option<Mismatch>> {
    let mut calls = Vec::new();
    for value in values {
        calls.push(DocCall::Positions {
            params: value.params.clone(),
            item: value.item.clone(),
        });
        for index in 0..value.params.k {
            calls.push(DocCall::Frame {
                params: value.params.clone(),
                index: u8::try_from(index).unwrap_or(u8::MAX),
                item: value.item.clone(),
            });
        }
    }
    let mut answers = subject.batch(&calls).into_iter();
    values
        .iter()
        .map(|value| {
            let positions = answers.next();
            let frames: Vec<_> = answers.by_ref().take(value.params.k as usize).collect();
            hashing_verdict(domain, value, positions, frames)
        })
        .collect()
}

/// What the oracle says of one item's hashing: its positions, and each index's framed
/// message and digest (as hex).
struct HashingExpected {
    positions: Vec<u32>,
    frames: Vec<(String, String)>,
}

fn hashing_expected(domain: &str, value: &Hashing) -> HashingExpected {
    let (m, k, seed) = (
        narrow(value.params.m),
        narrow(value.params.k),
        &value.params.seed,
    );
    let frames: Vec<(String, String)> = (0..value.params.k)
        .map(|index| {
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            (
                oracle::message_hex(domain, m, k, seed, index, &value.item),
                oracle::digest_hex(domain, m, k, seed, index, &value.item),
            )
        })
        .collect();
    // The positions as `oracle::positions` makes them (each digest reduced mod m, none
    // when m = 0), from the digests just made rather than hashing every index again.
    let positions = if m == 0 {
        Vec::new()
    } else {
        frames
            .iter()
            .map(|(_, digest)| oracle::reduce_hex(digest, m).unwrap_or(0))
            .collect()
    };
    HashingExpected { positions, frames }
}

fn hashing_verdict(
    domain: &str,
    value: &Hashing,
    positions: Option<Answer<DocReply>>,
    frames: Vec<Answer<DocReply>>,
) -> Option<Mismatch> {
    let want = memo::get_or(
        "doc_hashing",
        || format!("{domain} {value:?}"),
        || hashing_expected(domain, value),
    );
    match positions {
        Some(Ok(DocReply::Positions(got))) => {
            if let Some(mismatch) = positions_invariants(&value.params, &got) {
                return Some(mismatch);
            }
            let want = &want.positions;
            let got32: Vec<u32> = got.iter().map(|&p| u32::from(p)).collect();
            if *want != got32 {
                return Some(Mismatch::new(
                    "positions equal the oracle's",
                    json(&want),
                    json(&got32),
                ));
            }
        }
        Some(Err(err)) => return Some(broken("positions", &err)),
        other => {
            return Some(Mismatch::new(
                "positions",
                "an answer",
                format!("{other:?}"),
            ));
        }
    }
    for (index, frame) in frames.into_iter().enumerate() {
        let Some((message, digest)) = want.frames.get(index).cloned() else {
            return Some(Mismatch::new("frame", "k frames", format!("frame {index}")));
        };
        match frame {
            Ok(DocReply::Framed(got)) => {
                if encode_hex(&got.message) != message {
                    return Some(Mismatch::new(
                        format!("frame index {index}: message equals the oracle's"),
                        message,
                        encode_hex(&got.message),
                    ));
                }
                if encode_hex(&got.digest) != digest {
                    return Some(Mismatch::new(
                        format!("frame index {index}: digest equals the oracle's"),
                        digest,
                        encode_hex(&got.digest),
                    ));
                }
            }
            Err(err) => return Some(broken(&format!("frame index {index}"), &err)),
            Ok(other) => {
                return Some(Mismatch::new(
                    "frame",
                    "a framed message",
                    format!("{other:?}"),
                ));
            }
        }
    }
    None
}

pub(super) fn diagnose_hashing(
    domain: &str,
    subject: &mut dyn DocSubject,
    value: &Hashing,
) -> String {
    super::diagnose::doc_first_difference(domain, subject, &value.params, &[&value.item])
}

/// How the runner damages the honest packed bits before a second `read`.
#[derive(Clone, Copy, Debug)]
enum Damage {
    /// Flip bit `i mod m`: a cleared member bit names the first record missing it,
    /// a set stray bit names `packed_bits`.
    Flip(Index),
    /// One byte short.
    Short,
    /// One zero byte too many.
    Long,
    /// Set the lowest bit at or above m (when m is not a multiple of 8; else `Long`).
    High,
}

/// A snapshot: parameters, records (repeats included), and items looked up in it.
#[derive(Clone, Debug)]
pub(super) struct Snapshot {
    params: RawParams,
    records: Vec<Vec<u8>>,
    /// Items besides the records.
    others: Vec<Vec<u8>>,
    damage: Damage,
}

impl Snapshot {
    /// Every lookup: each record, then the others.
    fn items(&self) -> Vec<Vec<u8>> {
        self.records.iter().chain(&self.others).cloned().collect()
    }
}

pub(super) fn snapshots(input: &GeneratedInput) -> impl Strategy<Value = Snapshot> + use<> {
    let item_bytes = input.item_bytes.unwrap_or([0, 64]);
    let item = bytes_in(item_bytes);
    let bounds = (item_bytes[0] as usize, item_bytes[1] as usize);
    let records = input.records.unwrap_or([0, 64]);
    let max = records[1] as usize;
    let damage = prop_oneof![
        4 => any::<Index>().prop_map(Damage::Flip),
        1 => Just(Damage::Short),
        1 => Just(Damage::Long),
        1 => Just(Damage::High),
    ];
    (
        params_strategy(input),
        proptest::collection::vec(item.clone(), size(records)),
        proptest::collection::vec(any::<(Index, Index)>(), 0..=8),
        proptest::collection::vec(item, 0..=6),
        damage,
        proptest::collection::vec(any::<(Index, Index, u8, bool)>(), 0..=6),
    )
        .prop_map(
            move |(params, mut records, repeats, mut others, damage, near)| {
                repeat(&mut records, &repeats, max);
                near_copies(&mut records, &mut others, &near, bounds, max);
                Snapshot {
                    params,
                    records,
                    others,
                    damage,
                }
            },
        )
}

/// Repeats: a copy of a record already drawn for each of `repeats` (the record copied,
/// the place it goes: before any record or after the last), while there are fewer than
/// `max`.
fn repeat(records: &mut Vec<Vec<u8>>, repeats: &[(Index, Index)], max: usize) {
    for (from, to) in repeats {
        if records.is_empty() || records.len() >= max {
            break;
        }
        let copy = records[from.index(records.len())].clone();
        let at = to.index(records.len() + 1);
        records.insert(at, copy);
    }
}

/// Near copies: for each of `near`, a record with one byte changed, one byte added or
/// one cut (`near_copy`), as a record (while there are fewer than `max`) or as an item
/// looked up. They tell apart records that share a prefix, a suffix or a length, which
/// an implementation keyed on less than the whole record would merge.
fn near_copies(
    records: &mut Vec<Vec<u8>>,
    others: &mut Vec<Vec<u8>>,
    near: &[(Index, Index, u8, bool)],
    bounds: (usize, usize),
    max: usize,
) {
    for &(from, place, byte, as_record) in near {
        let Some(original) = records.get(from.index(records.len().max(1))) else {
            break;
        };
        let copy = near_copy(original, place, byte, bounds);
        if as_record && records.len() < max {
            records.push(copy);
        } else {
            others.push(copy);
        }
    }
}

/// The strata of a run's drawn snapshots (`crate::generated::half_whole` picks one for
/// each drawn input: every even one the first): the whole
/// domain ([`snapshots`]), then [`confusable`] records with their partners looked up,
/// both ways round. The two confusable strata share m and k and differ in the seed, so
/// that consecutive snapshots of a run are built under the same m and k while the one
/// before is still being looked up: state kept from one snapshot (a cache keyed by less
/// than all of m, k, seed and the record) shows in the next one's answers.
pub(super) fn strata(domain: &'static str, input: &GeneratedInput) -> Vec<BoxedStrategy<Snapshot>> {
    vec![
        snapshots(input).boxed(),
        confusable(domain, input, false).boxed(),
        confusable(domain, input, true).boxed(),
    ]
}

/// Pairs of records that a lossy form merges: invalid UTF-8 against other invalid
/// bytes, U+FFFD's UTF-8 (what a lossy decoding writes) and an encoded surrogate;
/// an overlong NUL against NUL; NFC against NFD; case variants; a record against the
/// part before a NUL (where a C string ends); two 64-byte records equal in their first
/// 63 bytes; a record and its prefix.
fn confusable_pairs() -> Vec<(Vec<u8>, Vec<u8>)> {
    let long = b"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl".to_vec();
    let mut other = long.clone();
    other[63] = b'!';
    vec![
        (vec![0xFF], vec![0xFE]),
        (vec![0xFF, 0x61], vec![0xEF, 0xBF, 0xBD, 0x61]),
        (vec![0xED, 0xA0, 0x80], vec![0xEF, 0xBF, 0xBD]),
        (vec![0xC0, 0x80], vec![0x00]),
        (vec![0xC3, 0xA9], vec![0x65, 0xCC, 0x81]),
        (b"Doc".to_vec(), b"doc".to_vec()),
        (b"doc\x00a".to_vec(), b"doc".to_vec()),
        (long.clone(), other),
        (long[..63].to_vec(), long),
    ]
}

/// A snapshot of one side of each [`confusable_pairs`] pair (`swap`: the right side)
/// and records that set as many of the m bits as the record bound allows (so that the
/// other side, looked up, is maybe present and the exact set is asked), the other side
/// looked up; m and k the domain's least, the seed empty (`swap`: one byte). Records
/// and items are cut to the domain's bounds.
fn confusable(
    domain: &'static str,
    input: &GeneratedInput,
    swap: bool,
) -> impl Strategy<Value = Snapshot> + use<> {
    let (m, k) = (input.m[0], input.k[0]);
    let [bytes_min, bytes_max] = input.item_bytes.unwrap_or([0, 64]).map(|b| b as usize);
    let [records_min, records_max] = input.records.unwrap_or([0, 64]).map(|r| r as usize);
    let seed_max = input.seed_bytes.unwrap_or([0, 16])[1];
    let seed: Vec<u8> = if swap && seed_max > 0 {
        vec![b's']
    } else {
        Vec::new()
    };
    let fit = move |mut item: Vec<u8>| {
        item.truncate(bytes_max);
        item.resize(item.len().max(bytes_min), b'x');
        item
    };
    (any::<Index>(), any::<Index>()).prop_map(move |(damage, keep)| {
        let (mut records, mut others) = (Vec::new(), Vec::new());
        for (left, right) in confusable_pairs() {
            let (record, other) = if swap { (right, left) } else { (left, right) };
            records.push(fit(record));
            others.push(fit(other));
        }
        // Keep a drawn number of the pairs where the record bound is small.
        let room = records_max.saturating_sub(1).max(1);
        if records.len() > room {
            let keep = keep.index(room) + 1;
            records.truncate(keep);
            others.truncate(keep);
        }
        records.truncate(records_max);
        let mut set = oracle::occupied(domain, &records, m, k, &seed);
        let mut filler = 0u32;
        while set.len() < m as usize && records.len() < records_max && filler < 4 * m {
            let record = fit(format!("fill-{filler}").into_bytes());
            filler += 1;
            let positions = oracle::position_set(domain, m, k, &seed, &record);
            if !positions.is_subset(&set) {
                set.extend(positions);
                records.push(record);
            }
        }
        while records.len() < records_min {
            records.push(fit(format!("more-{}", records.len()).into_bytes()));
        }
        Snapshot {
            params: RawParams {
                m: u64::from(m),
                k: u64::from(k),
                seed: seed.clone(),
            },
            records,
            others,
            damage: Damage::Flip(damage),
        }
    })
}

/// `original` with `byte` added at the end (when `byte` is odd, or `original` is empty,
/// and it stays within the `(min, max)` byte bounds), with its last byte cut (when
/// `byte` is a multiple of 4, within the bounds), or else with one byte changed at
/// `place` (to `byte`, or to its complement when that is the byte already there): never
/// equal to `original` unless the bounds leave no other length and it is empty.
fn near_copy(original: &[u8], place: Index, byte: u8, (min, max): (usize, usize)) -> Vec<u8> {
    let mut copy = original.to_vec();
    let len = original.len();
    if (original.is_empty() || !byte.is_multiple_of(2)) && len < max {
        copy.push(byte);
    } else if byte.is_multiple_of(4) && len > min {
        copy.pop();
    } else if let Some(at) = (len > 0).then(|| place.index(len)) {
        copy[at] = if copy[at] == byte { !byte } else { byte };
    }
    // Else empty with no room to grow (bounds of 0..=0): the copy is the original.
    copy
}

pub(super) fn show_snapshot(value: &Snapshot) -> serde_json::Value {
    let hex = |list: &[Vec<u8>]| list.iter().map(|b| encode_hex(b)).collect::<Vec<_>>();
    serde_json::json!({
        "params": params_json(&value.params),
        "records_hex": hex(&value.records),
        "other_items_hex": hex(&value.others),
        "damage": format!("{:?}", value.damage),
    })
}

/// What the oracle says of a snapshot.
struct Expected {
    packed: Vec<u8>,
    documents: usize,
    triples: Vec<Triple>,
    damaged: Vec<u8>,
    /// The field the reader must name for the damaged bits.
    damaged_field: String,
}

fn expected(domain: &str, value: &Snapshot) -> Expected {
    let (m, k, seed) = (
        narrow(value.params.m),
        narrow(value.params.k),
        &value.params.seed,
    );
    let super::expected::OracleSnapshot {
        occupied,
        packed_hex,
        triples,
        record_positions,
    } = super::expected::snapshot(domain, &value.records, m, k, seed, &value.items());
    let packed = bloomproof_wire::decode_hex(&packed_hex).unwrap_or_default();
    let documents: BTreeSet<&Vec<u8>> = value.records.iter().collect();
    let mut damaged = packed.clone();
    let packed_bits = "packed_bits".to_string();
    let flip = |damaged: &mut Vec<u8>, bit: u32| {
        if let Some(byte) = damaged.get_mut((bit / 8) as usize) {
            *byte ^= 1 << (bit % 8);
        }
    };
    let damaged_field = match value.damage {
        Damage::Short => {
            damaged.pop();
            packed_bits
        }
        Damage::High if m % 8 != 0 => {
            flip(&mut damaged, m);
            packed_bits
        }
        Damage::Long | Damage::High => {
            damaged.push(0);
            packed_bits
        }
        Damage::Flip(index) => {
            let bit = narrow(index.index(m as usize) as u64);
            flip(&mut damaged, bit);
            if occupied.contains(&bit) {
                let first = record_positions
                    .iter()
                    .position(|set| set.contains(&bit))
                    .unwrap_or_default();
                format!("records[{first}]")
            } else {
                packed_bits
            }
        }
    };
    Expected {
        packed,
        documents: documents.len(),
        triples,
        damaged,
        damaged_field,
    }
}

/// What a `doc_snapshots` case compares (its `expect.compared`): `build` and
/// `lookup_many` (what the seed defines, a core check), `read` and `read_damaged`
/// (bloomproof's reader, an interop check), or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Compared {
    /// `build` and `lookup_many`.
    pub(super) builds: bool,
    /// `read` of the oracle's bits and of damaged bits.
    pub(super) reads: bool,
}

impl Compared {
    fn of(compared: &[String]) -> Self {
        Compared {
            builds: compared.iter().any(|c| c == "build" || c == "lookup_many"),
            reads: compared.iter().any(|c| c == "read" || c == "read_damaged"),
        }
    }
}

pub(super) fn judge_snapshots(
    domain: &str,
    subject: &mut dyn DocSubject,
    values: &[Snapshot],
    compared: Compared,
) -> Vec<Option<Mismatch>> {
    let expectations: Vec<std::sync::Arc<Expected>> = values
        .iter()
        .map(|value| {
            memo::get_or(
                "doc_snapshot",
                || format!("{domain} {value:?}"),
                || expected(domain, value),
            )
        })
        .collect();
    let mut calls = Vec::new();
    for (value, want) in values.iter().zip(&expectations) {
        let params = value.params.clone();
        if compared.builds {
            calls.push(DocCall::Build {
                params: params.clone(),
                records: value.records.clone(),
            });
            calls.push(DocCall::LookupMany {
                params: params.clone(),
                records: value.records.clone(),
                items: value.items(),
            });
        }
        if compared.reads {
            for packed in [&want.packed, &want.damaged] {
                calls.push(DocCall::Read {
                    params: params.clone(),
                    records: value.records.clone(),
                    packed_bits: packed.clone(),
                    items: value.items(),
                });
            }
        }
    }
    let per_value = 2 * (usize::from(compared.builds) + usize::from(compared.reads));
    let mut answers = subject.batch(&calls).into_iter();
    values
        .iter()
        .zip(&expectations)
        .map(|(value, want)| {
            let answered: Vec<_> = answers.by_ref().take(per_value).collect();
            snapshot_verdict(value, want, answered, compared)
        })
        .collect()
}

fn triples_verdict(
    what: &str,
    want: &[Triple],
    answer: Option<Answer<DocReply>>,
) -> Option<Mismatch> {
    match answer {
        Some(Ok(DocReply::Triples(got))) if got == want => None,
        Some(Ok(DocReply::Triples(got))) => {
            let at = (0..want.len().max(got.len()))
                .find(|&i| want.get(i) != got.get(i))
                .unwrap_or_default();
            Some(Mismatch::new(
                format!(
                    "{what}: answer {at} equals the oracle's ({} items)",
                    want.len()
                ),
                json(&want.get(at)),
                json(&got.get(at)),
            ))
        }
        Some(Err(err)) => Some(broken(what, &err)),
        other => Some(Mismatch::new(what, "triples", format!("{other:?}"))),
    }
}

fn snapshot_verdict(
    value: &Snapshot,
    want: &Expected,
    answers: Vec<Answer<DocReply>>,
    compared: Compared,
) -> Option<Mismatch> {
    let mut answers = answers.into_iter();
    if compared.builds
        && let Some(mismatch) = build_verdict(value, want, &mut answers)
    {
        return Some(mismatch);
    }
    if compared.reads {
        return read_verdict(value, want, &mut answers);
    }
    None
}

/// The verdict on `build` and `lookup_many`, the next two of `answers`.
fn build_verdict(
    value: &Snapshot,
    want: &Expected,
    answers: &mut impl Iterator<Item = Answer<DocReply>>,
) -> Option<Mismatch> {
    match answers.next() {
        Some(Ok(DocReply::Built(built))) => {
            let bytes = value.params.m.div_ceil(8) as usize;
            if built.packed_bits.len() != bytes {
                return Some(Mismatch::new(
                    "build: ceil(m/8) packed bytes",
                    format!("{bytes} bytes"),
                    format!("{} bytes", built.packed_bits.len()),
                ));
            }
            let high = (value.params.m..(bytes as u64) * 8)
                .find(|&bit| built.packed_bits[(bit / 8) as usize] & (1 << (bit % 8)) != 0);
            if let Some(bit) = high {
                return Some(Mismatch::new(
                    "build: no bit at or above m",
                    format!("bits below {}", value.params.m),
                    format!("bit {bit} set in {}", encode_hex(&built.packed_bits)),
                ));
            }
            if built.packed_bits != want.packed {
                return Some(Mismatch::new(
                    "build: packed bits equal the oracle's",
                    encode_hex(&want.packed),
                    encode_hex(&built.packed_bits),
                ));
            }
            if built.documents != want.documents {
                return Some(Mismatch::new(
                    "build: distinct documents",
                    want.documents.to_string(),
                    built.documents.to_string(),
                ));
            }
        }
        Some(Err(err)) => return Some(broken("build", &err)),
        other => return Some(Mismatch::new("build", "a snapshot", format!("{other:?}"))),
    }
    triples_verdict("lookup_many", &want.triples, answers.next())
}

/// The verdict on `read` of the oracle's bits and of damaged bits, the next two of
/// `answers`.
fn read_verdict(
    value: &Snapshot,
    want: &Expected,
    answers: &mut impl Iterator<Item = Answer<DocReply>>,
) -> Option<Mismatch> {
    if let Some(mismatch) = triples_verdict(
        "read of the oracle's packed bits",
        &want.triples,
        answers.next(),
    ) {
        return Some(mismatch);
    }
    let what = format!(
        "read of damaged packed bits {} ({:?}): rejected naming {}",
        encode_hex(&want.damaged),
        value.damage,
        want.damaged_field
    );
    match answers.next() {
        Some(Err(SubjectError::Rejected { kind, field, .. }))
            if kind == "value" && field.as_deref() == Some(want.damaged_field.as_str()) =>
        {
            None
        }
        Some(Err(SubjectError::Rejected {
            kind,
            field,
            message,
        })) => Some(Mismatch::new(
            what,
            format!("value error in {}", want.damaged_field),
            format!("{kind} error in {}: {message}", field.unwrap_or_default()),
        )),
        Some(Err(err)) => Some(broken(&what, &err)),
        Some(Ok(reply)) => Some(Mismatch::new(
            what,
            format!("value error in {}", want.damaged_field),
            format!("accepted: {reply:?}"),
        )),
        None => Some(Mismatch::new(what, "an answer", "none")),
    }
}

/// The first stage that differs for the items of a snapshot that differed, when its
/// hashing is at fault.
pub(super) fn diagnose_snapshot(
    domain: &str,
    subject: &mut dyn DocSubject,
    value: &Snapshot,
) -> Option<String> {
    let items = value.items();
    let candidates: Vec<&[u8]> = items.iter().map(Vec::as_slice).collect();
    let line = super::diagnose::doc_first_difference(domain, subject, &value.params, &candidates);
    Some(line)
}

/// Smaller hashing inputs: a smaller m or k, a shorter item or seed.
pub(super) fn reduce_hashing(value: &Hashing) -> Vec<Hashing> {
    let mut out = Vec::new();
    for params in reduce_params(&value.params) {
        out.push(Hashing {
            params,
            item: value.item.clone(),
        });
    }
    for item in crate::generated::shorter(&value.item) {
        out.push(Hashing {
            params: value.params.clone(),
            item,
        });
    }
    out
}

fn reduce_params(params: &RawParams) -> Vec<RawParams> {
    let mut out = Vec::new();
    for m in crate::generated::smaller(params.m, 8) {
        out.push(RawParams {
            m,
            ..params.clone()
        });
    }
    for k in crate::generated::smaller(params.k, 1) {
        out.push(RawParams {
            k,
            ..params.clone()
        });
    }
    for seed in crate::generated::shorter(&params.seed) {
        out.push(RawParams {
            seed,
            ..params.clone()
        });
    }
    out
}

/// Smaller snapshots: fewer records or other items, smaller parameters, shorter
/// records.
pub(super) fn reduce_snapshot(value: &Snapshot) -> Vec<Snapshot> {
    let with = |params: &RawParams, records: Vec<Vec<u8>>, others: Vec<Vec<u8>>| Snapshot {
        params: params.clone(),
        records,
        others,
        damage: value.damage,
    };
    let mut out = Vec::new();
    for records in crate::generated::shorter(&value.records) {
        out.push(with(&value.params, records, value.others.clone()));
    }
    for others in crate::generated::shorter(&value.others) {
        out.push(with(&value.params, value.records.clone(), others));
    }
    for params in reduce_params(&value.params) {
        out.push(with(&params, value.records.clone(), value.others.clone()));
    }
    for (i, record) in value.records.iter().enumerate() {
        for len in crate::generated::smaller(record.len() as u64, 0) {
            let mut records = value.records.clone();
            records[i].truncate(len as usize);
            out.push(with(&value.params, records, value.others.clone()));
        }
    }
    out
}

/// Runs one generated case of `doc-membership-v1`.
pub(crate) fn evaluate(
    version: &super::DocVersion,
    case: &GeneratedCase,
    subject: &mut dyn DocSubject,
    generation: &Generation,
) -> Vec<Failure> {
    let (id, input, compared) = (case.id.as_str(), &case.input, &case.expect.compared);
    let domain = version.domain_hex;
    let edges = edges(input, version.generators);
    let inputs = Inputs {
        drawn: generation.count.unwrap_or(input.count),
        edges: edges.len() as u32,
    };
    let rng = generation.rng(id);
    match input.generator {
        Generator::DocHashing => {
            let pinned: Vec<_> = edges.iter().map(hashing).collect();
            let strategy = hashing(input);
            let found = search(
                drawn_then_edges(inputs, |_| &strategy, &pinned),
                inputs.total(),
                rng,
                generation.shrink,
                |values| judge_hashing(domain, subject, values),
                reduce_hashing,
            );
            failures(id, generation, inputs, found, show_hashing, |v| {
                Some(diagnose_hashing(domain, subject, v))
            })
        }
        Generator::DocSnapshots => {
            let pinned: Vec<_> = edges.iter().map(|e| snapshots(e).boxed()).collect();
            let strata = strata(domain, input);
            let found = search(
                drawn_then_edges(
                    inputs,
                    |i| &strata[crate::generated::half_whole(i, strata.len())],
                    &pinned,
                ),
                inputs.total(),
                rng,
                generation.shrink,
                |values| judge_snapshots(domain, subject, values, Compared::of(compared)),
                reduce_snapshot,
            );
            failures(id, generation, inputs, found, show_snapshot, |v| {
                diagnose_snapshot(domain, subject, v)
            })
        }
        other => vec![crate::generated::not_this_protocol(id, other)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// The positions taken from the frames' digests are `oracle::positions`.
    #[test]
    fn positions_from_the_frames_are_the_oracles() {
        let domain = oracle::DOMAIN_HEX;
        for (m, k, seed, item) in [
            (16u64, 3u64, &b"lab"[..], &b"doc-04"[..]),
            (8, 1, b"", b""),
            (512, 8, b"0123456789abcdef", &[0xff; 64][..]),
            (0, 2, b"", b"x"),
        ] {
            let value = Hashing {
                params: RawParams {
                    m,
                    k,
                    seed: seed.to_vec(),
                },
                item: item.to_vec(),
            };
            let want = hashing_expected(domain, &value);
            let (m32, k32) = (narrow(m), narrow(k));
            assert_eq!(
                want.positions,
                oracle::positions(domain, m32, k32, seed, item)
            );
            assert_eq!(want.frames.len() as u64, k);
        }
    }

    /// A `positions` answer outside its invariants is named by the invariant it breaks
    /// (k of them; each below m), before it is compared with the oracle's: the
    /// implementer reads why, not only that the list differs.
    #[test]
    fn positions_outside_their_invariants_are_named_by_the_invariant() {
        let domain = oracle::DOMAIN_HEX;
        let value = Hashing {
            params: RawParams {
                m: 16,
                k: 3,
                seed: b"lab".to_vec(),
            },
            item: b"doc-04".to_vec(),
        };
        let verdict = |got: Vec<u16>| {
            hashing_verdict(
                domain,
                &value,
                Some(Ok(DocReply::Positions(got))),
                Vec::new(),
            )
        };
        let own: Vec<u16> = oracle::positions(domain, 16, 3, b"lab", b"doc-04")
            .iter()
            .map(|&p| u16::try_from(p).unwrap_or(u16::MAX))
            .collect();
        assert!(verdict(own.clone()).is_none(), "{own:?}");
        let mut four = own.clone();
        four.push(own[0]);
        let mismatch = verdict(four).unwrap_or_else(|| Mismatch::new("none", "", ""));
        assert_eq!(
            (mismatch.what.as_str(), mismatch.expected.as_str()),
            ("positions: k positions", "3 positions")
        );
        let mismatch =
            verdict(vec![own[0], own[1], 16]).unwrap_or_else(|| Mismatch::new("none", "", ""));
        assert_eq!(
            (mismatch.what.as_str(), mismatch.expected.as_str()),
            ("positions: each below m", "below 16")
        );
        assert!(mismatch.actual.starts_with("16 in "), "{}", mismatch.actual);
    }

    /// A repeat copies any record to any place, after the last one too, and stops at
    /// the bound.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn repeats_copy_any_record_to_any_place_within_the_bound() {
        let original = vec![vec![1u8], vec![2], vec![3]];
        let mut runner = TestRunner::deterministic();
        let mut reached = std::collections::BTreeSet::new();
        for _ in 0..400 {
            let pair = any::<(Index, Index)>()
                .new_tree(&mut runner)
                .unwrap()
                .current();
            let mut records = original.clone();
            repeat(&mut records, &[pair], 64);
            assert_eq!(records.len(), 4);
            // The place of the copy: the one whose removal gives back the original.
            let places: Vec<usize> = (0..4)
                .filter(|&at| {
                    let mut without = records.clone();
                    without.remove(at);
                    without == original
                })
                .collect();
            assert!(!places.is_empty(), "{records:?}");
            // A copy next to its record stands at either place: count the last.
            reached.insert((records[3].clone(), *places.last().unwrap_or(&0)));
        }
        // Each record copied after the last one.
        for record in &original {
            assert!(reached.contains(&(record.clone(), 3)), "{reached:?}");
        }
        let mut records = original.clone();
        let pairs = vec![
            any::<(Index, Index)>()
                .new_tree(&mut runner)
                .unwrap()
                .current();
            8
        ];
        repeat(&mut records, &pairs, 5);
        assert_eq!(records.len(), 5);
        let mut none = Vec::new();
        repeat(&mut none, &pairs, 5);
        assert!(none.is_empty());
    }

    /// A near copy goes where it is drawn to, a record or an item looked up, and to the
    /// items once the records are at their bound; none without a record to copy.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn near_copies_are_records_or_items_as_drawn_within_the_bound() {
        let mut runner = TestRunner::deterministic();
        let mut index = || any::<Index>().new_tree(&mut runner).unwrap().current();
        let near: Vec<(Index, Index, u8, bool)> = [true, false, true, true]
            .into_iter()
            .map(|as_record| (index(), index(), 7, as_record))
            .collect();
        let (mut records, mut others) = (vec![vec![1u8, 2, 3]], Vec::new());
        near_copies(&mut records, &mut others, &near, (0, 64), 3);
        // The first near copy a record, the second an item, the third a record (3 in
        // all), the fourth an item: the records are at their bound.
        assert_eq!(
            (records.len(), others.len()),
            (3, 2),
            "{records:?} {others:?}"
        );
        for copy in records[1..].iter().chain(&others) {
            assert_ne!(copy, &records[0]);
        }
        let (mut none, mut looked_up) = (Vec::new(), Vec::new());
        near_copies(&mut none, &mut looked_up, &near, (0, 64), 3);
        assert!(none.is_empty() && looked_up.is_empty());
    }

    /// A near copy, by hand: an odd byte (or any byte after an empty record) added, a
    /// multiple of 4 cutting the last byte, another even byte written at the drawn place
    /// (its complement where it is already there), each within the byte bounds.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn near_copies_by_hand() {
        let mut runner = TestRunner::deterministic();
        let place = any::<Index>().new_tree(&mut runner).unwrap().current();
        let at = place.index(3);
        let changed = |to: u8| {
            let mut copy = vec![1u8, 2, 3];
            copy[at] = to;
            copy
        };
        let wide = (0, 64);
        assert_eq!(near_copy(&[1, 2, 3], place, 7, wide), [1, 2, 3, 7]);
        assert_eq!(near_copy(&[1, 2, 3], place, 8, wide), [1, 2]);
        assert_eq!(near_copy(&[1, 2, 3], place, 6, wide), changed(6));
        assert_eq!(near_copy(&[], place, 8, wide), [8]);
        assert_eq!(near_copy(&[], place, 7, wide), [7]);
        // Already there: the complement.
        assert_eq!(near_copy(&[6, 6, 6], place, 6, wide), {
            let mut copy = vec![6u8, 6, 6];
            copy[at] = !6;
            copy
        });
        // No room to add, none to cut: a byte changed instead.
        assert_eq!(near_copy(&[1, 2, 3], place, 7, (3, 3)), changed(7));
        assert_eq!(near_copy(&[1, 2, 3], place, 8, (3, 3)), changed(8));
        // Empty with no other length allowed: the original.
        assert_eq!(near_copy(&[], place, 7, (0, 0)), Vec::<u8>::new());
    }

    /// Sixteen confusable snapshots of `input`'s domain, one side or the other.
    #[allow(clippy::unwrap_used)]
    fn confusable_draws(
        input: &GeneratedInput,
        swap: bool,
        runner: &mut TestRunner,
    ) -> Vec<Snapshot> {
        (0..16)
            .map(|_| {
                confusable(oracle::DOMAIN_HEX, input, swap)
                    .new_tree(runner)
                    .unwrap()
                    .current()
            })
            .collect()
    }

    /// The confusable snapshots keep every pair whole (a record and its partner looked
    /// up) while the record bound leaves room for all nine and the filler: at 10 records
    /// all nine, at 5 a drawn number of them, never a partner without its record; the
    /// seed stays within its bound (none at a bound of 0 bytes, both ways round); the
    /// filling stops at the record bound when the bits are not all set by then.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn confusable_snapshots_keep_each_pair_whole_within_the_bounds() {
        let pairs = confusable_pairs();
        let mut runner = TestRunner::deterministic();
        // At m 64 and k 1 the nine pairs and twelve records set fewer than the 64 bits:
        // the filling stops at the record bound.
        for (m, records, seed_bytes, kept) in [
            (8, [0, 10], [0, 16], 9..=9),
            (8, [4, 5], [0, 0], 1..=4),
            (64, [0, 12], [0, 16], 9..=9),
            (64, [12, 12], [0, 16], 9..=9),
        ] {
            let input = GeneratedInput {
                m: [m, 512],
                records: Some(records),
                seed_bytes: Some(seed_bytes),
                ..snapshots_input()
            };
            for swap in [false, true] {
                for s in confusable_draws(&input, swap, &mut runner) {
                    assert!(
                        kept.contains(&s.others.len()),
                        "{records:?}: {:?}",
                        s.others
                    );
                    for (i, other) in s.others.iter().enumerate() {
                        let (left, right) = &pairs[i];
                        let want = if swap { (right, left) } else { (left, right) };
                        assert_eq!((&s.records[i], other), want, "{records:?}");
                    }
                    assert!(s.records.len() <= records[1] as usize, "{records:?}");
                    if m == 64 {
                        assert_eq!(s.records.len(), 12, "{:?}", s.records);
                    }
                    let seed_max = seed_bytes[1] as usize;
                    assert!(s.params.seed.len() <= seed_max, "{:?}", s.params.seed);
                }
            }
        }
    }

    /// The filling tries 4m names at most: at m 16 and k 1 with the seed `s`, the nine
    /// records and nine fillers (the last `fill-26`) leave one of the 16 bits unset, no
    /// name up to `fill-63` sets it, and `fill-64`, the first name past the cap, would:
    /// it is not a record.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn the_confusable_filling_tries_4m_names_at_most() {
        let domain = oracle::DOMAIN_HEX;
        let input = GeneratedInput {
            m: [16, 512],
            ..snapshots_input()
        };
        let mut runner = TestRunner::deterministic();
        for s in confusable_draws(&input, true, &mut runner) {
            assert_eq!(s.params.seed, b"s");
            assert_eq!(s.records.len(), 18, "{:?}", s.records);
            assert_eq!(s.records.last().unwrap(), b"fill-26".as_slice());
            let set = oracle::occupied(domain, &s.records, 16, 1, b"s");
            assert_eq!(set.len(), 15);
            let sets_a_bit = |i: u32| {
                let name = format!("fill-{i}");
                !oracle::position_set(domain, 16, 1, b"s", name.as_bytes()).is_subset(&set)
            };
            assert!((27..64).all(|i| !sets_a_bit(i)));
            assert!(sets_a_bit(64));
        }
    }

    /// A snapshot at m, k 1 and no seed.
    fn at_k1(m: u64, records: Vec<Vec<u8>>, others: Vec<Vec<u8>>, damage: Damage) -> Snapshot {
        Snapshot {
            params: RawParams {
                m,
                k: 1,
                seed: Vec::new(),
            },
            records,
            others,
            damage,
        }
    }

    /// The damage `High` sets the lowest bit above m in the last byte where m leaves
    /// room there (m 12, no record: 0000 becomes 0010, the same two bytes) and adds a
    /// zero byte where it does not (m 16: three bytes); `Short` and `Long` cut and add a
    /// byte. Each names `packed_bits`.
    #[test]
    fn damage_to_the_bits_by_hand() {
        let snapshot = |m: u64, damage: Damage| at_k1(m, Vec::new(), Vec::new(), damage);
        for (m, damage, packed, damaged) in [
            (12, Damage::High, vec![0, 0], vec![0x00, 0x10]),
            (13, Damage::High, vec![0, 0], vec![0x00, 0x20]),
            (16, Damage::High, vec![0, 0], vec![0, 0, 0]),
            (12, Damage::Long, vec![0, 0], vec![0, 0, 0]),
            (12, Damage::Short, vec![0, 0], vec![0]),
        ] {
            let want = expected(oracle::DOMAIN_HEX, &snapshot(m, damage));
            assert_eq!(want.packed, packed, "m {m}, {damage:?}");
            assert_eq!(want.damaged, damaged, "m {m}, {damage:?}");
            assert_eq!(want.damaged_field, "packed_bits");
        }
    }

    /// What a snapshots case compares, by hand: `build` or `lookup_many` the builds
    /// (core), `read` or `read_damaged` the reads (interop), each alone or together.
    #[test]
    fn a_snapshots_case_compares_what_it_names() {
        let of = |names: &[&str]| {
            let c = Compared::of(&names.iter().map(ToString::to_string).collect::<Vec<_>>());
            (c.builds, c.reads)
        };
        assert_eq!(of(&["build"]), (true, false));
        assert_eq!(of(&["lookup_many"]), (true, false));
        assert_eq!(of(&["build", "lookup_many"]), (true, false));
        assert_eq!(of(&["read"]), (false, true));
        assert_eq!(of(&["read_damaged"]), (false, true));
        assert_eq!(of(&["read", "read_damaged"]), (false, true));
        assert_eq!(of(&["lookup_many", "read"]), (true, true));
        assert_eq!(of(&[]), (false, false));
    }

    /// A case that names both the builds and the reads (the schema allows it; no
    /// case of the spec does yet) judges each snapshot on its own four answers: the
    /// production crates pass every one of several snapshots, of every stratum.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn a_case_comparing_builds_and_reads_judges_each_snapshot_on_its_four_answers() {
        let domain = oracle::DOMAIN_HEX;
        let mut runner = TestRunner::deterministic();
        let values: Vec<Snapshot> = strata(domain, &snapshots_input())
            .iter()
            .flat_map(|stratum| {
                (0..2)
                    .map(|_| stratum.new_tree(&mut runner).unwrap().current())
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut subject = bloomproof_adapter::protocols::doc_membership_v1::RustDoc::v1();
        for compared in [
            Compared {
                builds: true,
                reads: true,
            },
            Compared {
                builds: true,
                reads: false,
            },
            Compared {
                builds: false,
                reads: true,
            },
        ] {
            let verdicts = judge_snapshots(domain, &mut subject, &values, compared);
            assert_eq!(verdicts.len(), values.len());
            assert!(
                verdicts.iter().all(Option::is_none),
                "{compared:?}: {verdicts:?}"
            );
        }
    }

    /// A lookup answer list that differs is named at its first differing answer, with
    /// the oracle's triple and the subject's (none past the end of a short list).
    #[test]
    fn triples_differ_at_their_first_differing_answer() {
        let t = |maybe_present: bool, duplicate: bool| Triple {
            maybe_present,
            exact_checked: maybe_present,
            duplicate,
        };
        let want = [t(false, false), t(true, true), t(true, false)];
        let reply = |got: &[Triple]| Some(Ok(DocReply::Triples(got.to_vec())));
        assert!(triples_verdict("lookup_many", &want, reply(&want)).is_none());
        let at_1 = triples_verdict("lookup_many", &want, reply(&[want[0], want[2], want[2]]));
        let at_1 = at_1.expect("a mismatch");
        assert_eq!(
            at_1.what,
            "lookup_many: answer 1 equals the oracle's (3 items)"
        );
        assert_eq!(
            at_1.expected,
            r#"{"maybe_present":true,"exact_checked":true,"duplicate":true}"#
        );
        assert_eq!(
            at_1.actual,
            r#"{"maybe_present":true,"exact_checked":true,"duplicate":false}"#
        );
        let short = triples_verdict("read", &want, reply(&want[..2])).expect("a mismatch");
        assert_eq!(short.what, "read: answer 2 equals the oracle's (3 items)");
        assert_eq!(short.actual, "null");
    }

    /// A build is judged in order, each fault named by its rule, by hand: the byte
    /// count, then a bit at or above m (the lowest, in the last byte: m 12 with bit 12
    /// or bit 15 set, m 13 with bit 13), then the bits against the oracle's, then the
    /// distinct documents; a build that passes goes on to the lookups.
    #[test]
    fn a_build_is_named_by_the_first_rule_it_breaks() {
        use bloomproof_wire::protocols::doc_membership_v1::Built;
        let snapshot = |m: u64, records: Vec<Vec<u8>>| at_k1(m, records, Vec::new(), Damage::Long);
        let judge = |value: &Snapshot, packed_bits: Vec<u8>, documents: usize| {
            let want = expected(oracle::DOMAIN_HEX, value);
            let answers = vec![
                Ok(DocReply::Built(Built {
                    packed_bits,
                    documents,
                })),
                Ok(DocReply::Triples(want.triples.clone())),
            ];
            build_verdict(value, &want, &mut answers.into_iter())
                .map(|m| (m.what, m.expected, m.actual))
        };
        let empty = |m| snapshot(m, Vec::new());
        let owned = |(what, expected, actual): (&str, &str, &str)| {
            Some((what.to_owned(), expected.to_owned(), actual.to_owned()))
        };
        assert_eq!(judge(&empty(12), vec![0, 0], 0), None);
        assert_eq!(
            judge(&empty(12), vec![0], 0),
            owned(("build: ceil(m/8) packed bytes", "2 bytes", "1 bytes"))
        );
        assert_eq!(
            judge(&empty(12), vec![0, 0, 0], 0),
            owned(("build: ceil(m/8) packed bytes", "2 bytes", "3 bytes"))
        );
        for (m, packed, bit) in [
            (12, [0x00, 0x10], 12),
            (12, [0x00, 0x80], 15),
            (12, [0x01, 0x90], 12),
            (13, [0x00, 0x20], 13),
        ] {
            assert_eq!(
                judge(&empty(m), packed.to_vec(), 0),
                owned((
                    "build: no bit at or above m",
                    &format!("bits below {m}"),
                    &format!("bit {bit} set in {}", encode_hex(&packed)),
                )),
                "m {m}, {packed:?}"
            );
        }
        assert_eq!(
            judge(&empty(12), vec![0x00, 0x08], 0),
            owned(("build: packed bits equal the oracle's", "0000", "0008"))
        );
        let one = snapshot(12, vec![b"a".to_vec(), b"a".to_vec()]);
        let packed = expected(oracle::DOMAIN_HEX, &one).packed;
        assert_eq!(judge(&one, packed.clone(), 1), None);
        assert_eq!(
            judge(&one, packed, 2),
            owned(("build: distinct documents", "1", "2"))
        );
    }

    /// A read of damaged bits passes only as a value error naming the damaged field
    /// (m 12, bit 12 set: `packed_bits`), by hand: another field, another kind, no
    /// field, an acceptance or no answer each fail, named with the damage.
    #[test]
    fn a_damaged_read_passes_only_as_a_value_error_naming_its_field() {
        let value = at_k1(12, Vec::new(), vec![b"x".to_vec()], Damage::High);
        let want = expected(oracle::DOMAIN_HEX, &value);
        let rejected = |kind: &str, field: Option<&str>| {
            Some(Err(SubjectError::Rejected {
                kind: kind.to_owned(),
                field: field.map(str::to_owned),
                message: "no".to_owned(),
            }))
        };
        let judge = |second: Option<Answer<DocReply>>| {
            let first = Ok(DocReply::Triples(want.triples.clone()));
            let answers: Vec<_> = std::iter::once(first).chain(second).collect();
            read_verdict(&value, &want, &mut answers.into_iter())
                .map(|m| (m.what, m.expected, m.actual))
        };
        assert_eq!(judge(rejected("value", Some("packed_bits"))), None);
        let what = "read of damaged packed bits 0010 (High): rejected naming packed_bits";
        let wanted = "value error in packed_bits";
        for (second, actual) in [
            (
                rejected("value", Some("records[0]")),
                "value error in records[0]: no",
            ),
            (
                rejected("type", Some("packed_bits")),
                "type error in packed_bits: no",
            ),
            (rejected("value", None), "value error in : no"),
        ] {
            assert_eq!(
                judge(second),
                Some((what.to_owned(), wanted.to_owned(), actual.to_owned()))
            );
        }
        let accepted = judge(Some(Ok(DocReply::Triples(want.triples.clone()))));
        assert!(
            accepted
                .as_ref()
                .is_some_and(|(w, e, a)| w == what && e == wanted && a.starts_with("accepted: ")),
            "{accepted:?}"
        );
        assert_eq!(
            judge(None),
            Some((what.to_owned(), "an answer".to_owned(), "none".to_owned()))
        );
    }

    /// The shrinking's candidates, by hand: each parameter alone made smaller (m toward
    /// 8, k toward 1: the least, half way, one less; the seed's prefixes, then the seed
    /// without one byte), then, for hashing, the item shorter; for a snapshot, fewer
    /// records, fewer other items, smaller parameters, then each record shorter.
    #[test]
    fn smaller_inputs_by_hand() {
        let raw = |m: u64, k: u64, seed: &[u8]| RawParams {
            m,
            k,
            seed: seed.to_vec(),
        };
        let params = raw(64, 3, &[1, 2]);
        let by_params = vec![
            raw(8, 3, &[1, 2]),
            raw(36, 3, &[1, 2]),
            raw(63, 3, &[1, 2]),
            raw(64, 1, &[1, 2]),
            raw(64, 2, &[1, 2]),
            raw(64, 3, &[]),
            raw(64, 3, &[1]),
            raw(64, 3, &[2]),
            raw(64, 3, &[1]),
        ];
        assert_eq!(reduce_params(&params), by_params);
        let hashing = Hashing {
            params: params.clone(),
            item: vec![7, 8],
        };
        let got: Vec<(RawParams, Vec<u8>)> = reduce_hashing(&hashing)
            .into_iter()
            .map(|h| (h.params, h.item))
            .collect();
        let mut want: Vec<(RawParams, Vec<u8>)> =
            by_params.into_iter().map(|p| (p, vec![7, 8])).collect();
        for item in [vec![], vec![7], vec![8], vec![7]] {
            want.push((params.clone(), item));
        }
        assert_eq!(got, want);
        let snapshot = at_k1(16, vec![vec![1, 2]], vec![vec![9]], Damage::Short);
        // The parameters, records and other items of each candidate.
        type Parts = (RawParams, Vec<Vec<u8>>, Vec<Vec<u8>>);
        let got: Vec<Parts> = reduce_snapshot(&snapshot)
            .into_iter()
            .map(|s| (s.params, s.records, s.others))
            .collect();
        let (eight, twelve, fifteen) = (raw(8, 1, &[]), raw(12, 1, &[]), raw(15, 1, &[]));
        let same = raw(16, 1, &[]);
        let want = vec![
            (same.clone(), vec![], vec![vec![9]]),
            (same.clone(), vec![], vec![vec![9]]),
            (same.clone(), vec![vec![1, 2]], vec![]),
            (same.clone(), vec![vec![1, 2]], vec![]),
            (eight, vec![vec![1, 2]], vec![vec![9]]),
            (twelve, vec![vec![1, 2]], vec![vec![9]]),
            (fifteen, vec![vec![1, 2]], vec![vec![9]]),
            (same.clone(), vec![vec![]], vec![vec![9]]),
            (same, vec![vec![1]], vec![vec![9]]),
        ];
        assert_eq!(got, want);
    }

    fn snapshots_input() -> GeneratedInput {
        GeneratedInput {
            generator: Generator::DocSnapshots,
            count: 48,
            m: [8, 512],
            k: [1, 8],
            seed_bytes: Some([0, 16]),
            item_bytes: Some([0, 64]),
            records: Some([0, 64]),
            units: None,
            n: None,
            steps: None,
        }
    }

    /// The two confusable strata: the same m and k (the domain's least), seeds that
    /// differ; one side of each pair a record and the other looked up, swapped in the
    /// second; every one of the m bits set (so every item looked up is maybe present
    /// and the exact set decides its `duplicate`); within the record bound.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn confusable_snapshots_look_up_each_partner_with_every_bit_set() {
        let domain = oracle::DOMAIN_HEX;
        let input = snapshots_input();
        let strata = strata(domain, &input);
        assert_eq!(strata.len(), 3);
        let mut runner = TestRunner::deterministic();
        let left = strata[1].new_tree(&mut runner).unwrap().current();
        let right = strata[2].new_tree(&mut runner).unwrap().current();
        assert_eq!((left.params.m, left.params.k), (8, 1));
        assert_eq!((right.params.m, right.params.k), (8, 1));
        assert_ne!(left.params.seed, right.params.seed);
        let pairs = confusable_pairs();
        for (i, (a, b)) in pairs.iter().enumerate() {
            assert_eq!((&left.records[i], &left.others[i]), (a, b));
            assert_eq!((&right.records[i], &right.others[i]), (b, a));
        }
        for snapshot in [&left, &right] {
            assert!(snapshot.records.len() <= 64);
            let occupied = oracle::occupied(domain, &snapshot.records, 8, 1, &snapshot.params.seed);
            assert_eq!(occupied.len(), 8, "{:?}", snapshot.records);
        }
        // The lossy forms that merge each pair, as `confusable_pairs` says.
        let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        for (a, b) in &pairs[..2] {
            assert_eq!(lossy(a), lossy(b));
        }
        assert_eq!(lossy(&pairs[3].0), "\u{FFFD}\u{FFFD}");
        assert!(pairs[5].0.eq_ignore_ascii_case(&pairs[5].1));
        assert_eq!(pairs[6].0.split(|&b| b == 0).next(), Some(&pairs[6].1[..]));
        assert_eq!(pairs[7].0[..63], pairs[7].1[..63]);
        assert_eq!(pairs[7].0.len(), 64);
        assert!(pairs[8].1.starts_with(&pairs[8].0));
    }

    /// A narrower domain cuts the confusable snapshots to it: items to its byte bounds,
    /// records to its count bounds.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn confusable_snapshots_keep_to_a_narrow_domain() {
        let input = GeneratedInput {
            item_bytes: Some([2, 3]),
            records: Some([4, 5]),
            m: [100, 512],
            ..snapshots_input()
        };
        let mut runner = TestRunner::deterministic();
        for swap in [false, true] {
            for s in confusable_draws(&input, swap, &mut runner) {
                assert_eq!(s.params.m, 100);
                assert!((4..=5).contains(&s.records.len()), "{:?}", s.records);
                for item in s.items() {
                    assert!((2..=3).contains(&item.len()), "{item:?}");
                }
            }
        }
    }
}
