//! The evaluators of `doc-membership-v1`, one per case shape, whatever the check.
//!
//! Every evaluator drives the implementation through a [`DocSubject`] and compares
//! its answers with the spec's expectations. Where the spec pins a value (a packed
//! filter, a message, a false-positive list), the independent oracle must agree with
//! the spec too, so a wrong spec file fails as loudly as a wrong implementation. A
//! check's extras (its figures, a spec self-check) are its hook in `hooks.rs`.

use crate::hooks::{Seen, UniverseLookups, judge, plain};
use crate::model::{
    BuildExpect, BuildInput, DocCase, DocParams, EquivalentExpect, EquivalentInput, ErrorKindName,
    ExtensionExpect, ExtensionInput, Hex, MutationExpect, MutationInput, ReadExpect, ReadInput,
    RejectExpect, StagesExpect, StagesInput, TripleExpect, TypedCall, UniverseExpect,
    UniverseInput,
};
use crate::report::{Failure, Figures};
use crate::subject::{DocSubject, Observation, RawParams, SubjectError, Triple};
use crate::verdict::Verdict;
use bloomproof_oracle::doc_membership as oracle;
use std::collections::BTreeSet;

/// The protocol these checks belong to.
pub const PROTOCOL: &str = "doc-membership-v1";

fn raw(params: &DocParams) -> RawParams {
    RawParams {
        m: params.m,
        k: params.k,
        seed: params.seed_hex.0.clone(),
    }
}

fn bytes(list: &[Hex]) -> Vec<Vec<u8>> {
    list.iter().map(|h| h.0.clone()).collect()
}

fn narrow(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn oracle_occupied(params: &DocParams, records: &[Vec<u8>]) -> BTreeSet<u32> {
    oracle::occupied(
        records,
        narrow(params.m),
        narrow(params.k),
        &params.seed_hex.0,
    )
}

fn oracle_packed(params: &DocParams, records: &[Vec<u8>]) -> Vec<u8> {
    let packed = oracle::packed_hex(&oracle_occupied(params, records), narrow(params.m));
    bloomproof_format::decode_hex(&packed).unwrap_or_default()
}

fn oracle_maybe(params: &DocParams, occupied: &BTreeSet<u32>, item: &[u8]) -> bool {
    oracle::maybe_present(
        occupied,
        narrow(params.m),
        narrow(params.k),
        &params.seed_hex.0,
        item,
    )
}

/// The bytes as text when they are printable UTF-8, else as hex.
pub(crate) fn text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) if s.chars().all(|c| !c.is_control()) => s.to_string(),
        _ => bloomproof_format::encode_hex(bytes),
    }
}

fn ones(packed: &[u8]) -> u32 {
    packed.iter().map(|b| b.count_ones()).sum()
}

fn bit(packed: &[u8], position: u32) -> bool {
    packed
        .get((position / 8) as usize)
        .is_some_and(|byte| byte & (1 << (position % 8)) != 0)
}

fn triple_matches(expect: &TripleExpect, got: &Triple) -> bool {
    expect.maybe_present.is_none_or(|v| v == got.maybe_present)
        && expect.exact_checked.is_none_or(|v| v == got.exact_checked)
        && expect.duplicate.is_none_or(|v| v == got.duplicate)
}

fn legal(t: &Triple) -> bool {
    matches!(
        (t.maybe_present, t.exact_checked, t.duplicate),
        (false, false, false) | (true, true, false) | (true, true, true)
    )
}

/// Names the first stage at which the implementation's hashing of `candidates` (most
/// suspect first) differs from the oracle's, once per case (`crate::diagnose`).
fn diagnose<'a>(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    params: &RawParams,
    candidates: impl IntoIterator<Item = &'a Vec<u8>>,
) {
    let candidates: Vec<&[u8]> = candidates
        .into_iter()
        .map(Vec::as_slice)
        .take(crate::diagnose::SCREENED)
        .collect();
    v.diagnose(|| {
        Some(crate::diagnose::doc_first_difference(
            subject,
            params,
            &candidates,
        ))
    });
}

/// Shared by every check whose case is a snapshot with expectations.
fn build_and_compare(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &BuildInput,
    expect: &BuildExpect,
) -> Option<Vec<u8>> {
    let params = raw(&input.params);
    let records = bytes(&input.records_hex);
    let built = v.answer("build", subject.build(&params, &records))?;
    let oracle_bits = oracle_packed(&input.params, &records);
    if !v.eq(
        "packed bits equal the oracle's",
        &oracle_bits,
        &built.packed_bits,
    ) {
        diagnose(v, subject, &params, &records);
    }
    v.eq(
        "packed length is ceil(m/8)",
        &(input.params.m.div_ceil(8) as usize),
        &built.packed_bits.len(),
    );
    if let Some(last) = built.packed_bits.last() {
        let used = input.params.m % 8;
        v.holds(
            "no bit at or above m",
            used == 0 || last >> used == 0,
            || format!("last byte {last:#04x} with m = {}", input.params.m),
        );
    }
    if let Some(bits_set) = expect.bits_set {
        v.eq("bits set", &bits_set, &ones(&built.packed_bits));
    }
    if let Some(packed) = &expect.packed_hex {
        v.eq(
            "packed bits (spec)",
            packed,
            &Hex(built.packed_bits.clone()),
        );
        v.eq(
            "oracle agrees with the spec's packed bits",
            packed,
            &Hex(oracle_bits),
        );
    }
    if let Some(len) = expect.packed_len {
        v.eq("packed length", &len, &built.packed_bits.len());
    }
    if let Some(documents) = expect.documents {
        v.eq("documents", &documents, &built.documents);
    }
    let distinct: BTreeSet<&Vec<u8>> = records.iter().collect();
    v.eq(
        "documents = distinct records",
        &distinct.len(),
        &built.documents,
    );
    if expect.records_are_duplicates == Some(true) || !expect.lookups.is_empty() {
        let mut items = Vec::new();
        if expect.records_are_duplicates == Some(true) {
            items.extend(records.iter().cloned());
        }
        items.extend(expect.lookups.iter().map(|l| l.item_hex.0.clone()));
        let answers = v.answer("lookup", subject.lookup(&params, &records, &items))?;
        if !v.eq("one answer per item", &items.len(), &answers.len()) {
            return Some(built.packed_bits);
        }
        let occupied = oracle_occupied(&input.params, &records);
        let (record_answers, lookup_answers) = answers.split_at(items.len() - expect.lookups.len());
        for (record, got) in records.iter().zip(record_answers) {
            if !v.eq(
                &format!("lookup({}) of a record", text(record)),
                &Triple {
                    maybe_present: true,
                    exact_checked: true,
                    duplicate: true,
                },
                got,
            ) {
                diagnose(v, subject, &params, std::iter::once(record).chain(&records));
            }
        }
        for (lookup, got) in expect.lookups.iter().zip(lookup_answers) {
            let item = &lookup.item_hex.0;
            if !triple_matches(&lookup.result, got) {
                v.fail(
                    format!("lookup({})", text(item)),
                    format!("{:?}", lookup.result),
                    format!("{got:?}"),
                );
            }
            let maybe = oracle_maybe(&input.params, &occupied, item);
            let oracle_triple = Triple {
                maybe_present: maybe,
                exact_checked: maybe,
                duplicate: maybe && distinct.contains(item),
            };
            if !v.eq(
                &format!("lookup({}) equals the oracle's", text(item)),
                &oracle_triple,
                got,
            ) {
                diagnose(v, subject, &params, std::iter::once(item).chain(&records));
            }
            if !triple_matches(&lookup.result, &oracle_triple) {
                v.fail(
                    format!("oracle agrees with the spec on lookup({})", text(item)),
                    format!("{:?}", lookup.result),
                    format!("{oracle_triple:?}"),
                );
            }
        }
    }
    Some(built.packed_bits)
}

/// Runs one case by its shape, then its check's hook; records mismatches and figures.
pub fn evaluate(
    case: &DocCase,
    subject: &mut dyn DocSubject,
    figures: &mut Figures,
) -> Vec<Failure> {
    match case {
        DocCase::Build(c) => judge(c, figures, |v| Seen::Build {
            input: &c.input,
            packed: build_and_compare(v, subject, &c.input, &c.expect),
        }),
        DocCase::Lookup(c) => plain(c, figures, |v| {
            every_record(v, subject, &c.input, &c.expect.every_record)
        }),
        DocCase::Universe(c) => judge(c, figures, |v| universe(v, subject, &c.input, &c.expect)),
        DocCase::Equivalent(c) => {
            plain(c, figures, |v| equivalent(v, subject, &c.input, &c.expect))
        }
        DocCase::Extension(c) => plain(c, figures, |v| extension(v, subject, &c.input, &c.expect)),
        DocCase::Framing(c) => plain(c, figures, |v| framing(v, subject, &c.input, &c.expect)),
        DocCase::Mutation(c) => plain(c, figures, |v| immutable(v, subject, &c.input, &c.expect)),
        DocCase::Fault(c) => judge(c, figures, |v| {
            shared_bit_fault(v, subject, &c.input, &c.expect)
        }),
        DocCase::TypedRejection(c) => plain(c, figures, |v| {
            typed_rejection(v, subject, &c.input, &c.expect)
        }),
        DocCase::Exhaustive(c) => judge(c, figures, |v| {
            exhaustive(v, subject, &c.input, &c.expect).map_or(
                Seen::Other,
                |(snapshots, queries)| Seen::Exhaustive { snapshots, queries },
            )
        }),
        DocCase::Stages(c) => plain(c, figures, |v| stages(v, subject, &c.input, &c.expect)),
        DocCase::Read(c) => plain(c, figures, |v| read(v, subject, &c.input, &c.expect)),
    }
}

/// Every record looked up in the snapshot of the records, each compared with `want`.
fn every_record(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &BuildInput,
    want: &TripleExpect,
) {
    let params = raw(&input.params);
    let records = bytes(&input.records_hex);
    let Some(answers) = v.answer("lookup", subject.lookup(&params, &records, &records)) else {
        return;
    };
    v.eq("one answer per record", &records.len(), &answers.len());
    for (record, got) in records.iter().zip(&answers) {
        let held = match want {
            TripleExpect {
                maybe_present: Some(true),
                exact_checked: None,
                duplicate: None,
            } => v.holds(
                &format!("maybe_present({})", text(record)),
                got.maybe_present,
                || "false: a false negative".into(),
            ),
            _ if triple_matches(want, got) => true,
            _ => {
                v.fail(
                    format!("lookup({})", text(record)),
                    format!("{want:?}"),
                    format!("{got:?}"),
                );
                false
            }
        };
        if !held {
            diagnose(v, subject, &params, std::iter::once(record).chain(&records));
        }
    }
}

/// The member snapshot and the non-members' lookups: what the hook may turn into
/// figures.
fn universe(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &UniverseInput,
    expect: &UniverseExpect,
) -> Seen<'static> {
    let params = raw(&input.params);
    let records = bytes(&input.records_hex);
    let non_members = bytes(&input.non_members_hex);
    let mut packed = None;
    let mut lookups = None;
    if let Some(built) = v.answer("build", subject.build(&params, &records)) {
        let counted = v.eq("bits set", &expect.bits_set, &ones(&built.packed_bits));
        if !(v.eq(
            "packed bits",
            &expect.packed_hex,
            &Hex(built.packed_bits.clone()),
        ) && counted)
        {
            diagnose(v, subject, &params, &records);
        }
        packed = Some(built.packed_bits);
    }
    if let Some(answers) = v.answer("lookup", subject.lookup(&params, &records, &non_members)) {
        let positives: Vec<Hex> = non_members
            .iter()
            .zip(&answers)
            .filter(|(_, t)| t.maybe_present)
            .map(|(x, _)| Hex(x.clone()))
            .collect();
        if !v.eq("false positives", &expect.false_positives_hex, &positives) {
            let occupied = oracle_occupied(&input.params, &records);
            let suspects = non_members
                .iter()
                .zip(&answers)
                .filter(|(x, t)| t.maybe_present != oracle_maybe(&input.params, &occupied, x))
                .map(|(x, _)| x);
            diagnose(v, subject, &params, suspects.chain(&records));
        }
        v.holds(
            "at least one false positive exists",
            !positives.is_empty(),
            || "none".into(),
        );
        for (item, got) in non_members.iter().zip(&answers) {
            if got.maybe_present {
                v.eq(
                    &format!("lookup({}) of a false positive", text(item)),
                    &Triple {
                        maybe_present: true,
                        exact_checked: true,
                        duplicate: false,
                    },
                    got,
                );
            }
            v.holds(
                &format!("lookup({}) is a legal triple", text(item)),
                legal(got),
                || format!("{got:?}"),
            );
        }
        let false_duplicates = answers.iter().filter(|t| t.duplicate).count();
        v.eq(
            "false duplicate decisions",
            &expect.false_duplicate_decisions,
            &false_duplicates,
        );
        lookups = Some(UniverseLookups {
            tested: non_members.len(),
            positives,
            false_duplicates,
        });
    }
    let occupied = oracle_occupied(&input.params, &records);
    let oracle_positives: Vec<Hex> = non_members
        .iter()
        .filter(|x| oracle_maybe(&input.params, &occupied, x))
        .map(|x| Hex(x.clone()))
        .collect();
    v.eq(
        "oracle agrees with the spec's false positives",
        &expect.false_positives_hex,
        &oracle_positives,
    );
    Seen::Universe { packed, lookups }
}

fn equivalent(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &EquivalentInput,
    expect: &EquivalentExpect,
) {
    let params = raw(&input.params);
    let a = bytes(&input.records_hex);
    let b = bytes(&input.equivalent_hex);
    v.holds(
        "the two lists hold the same set",
        a.iter().collect::<BTreeSet<_>>() == b.iter().collect::<BTreeSet<_>>(),
        || "different sets".into(),
    );
    if let (Some(x), Some(y)) = (
        v.answer("build", subject.build(&params, &a)),
        v.answer("build", subject.build(&params, &b)),
    ) {
        if expect.same_snapshot {
            v.eq("same snapshot from either order", &x, &y);
        } else {
            v.holds("different snapshots", x != y, || format!("{x:?}"));
        }
    }
    if let Some(answers) = v.answer("lookup", subject.lookup(&params, &b, &a)) {
        v.holds(
            "every record is a duplicate of the reordered snapshot",
            answers.iter().all(|t| t.duplicate) == expect.records_are_duplicates,
            || format!("{answers:?}"),
        );
    }
}

fn extension(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &ExtensionInput,
    expect: &ExtensionExpect,
) {
    let params = raw(&input.params);
    let base = bytes(&input.records_hex);
    let extended = bytes(&input.extended_hex);
    v.holds(
        "extended is a superset",
        base.iter().all(|r| extended.contains(r)),
        || "not a superset".into(),
    );
    if let (Some(x), Some(y)) = (
        v.answer("build", subject.build(&params, &base)),
        v.answer("build", subject.build(&params, &extended)),
    ) {
        let kept = x
            .packed_bits
            .iter()
            .zip(&y.packed_bits)
            .all(|(a, b)| a & b == *a);
        v.holds(
            "every base bit is set in the extension",
            (kept && x.packed_bits.len() == y.packed_bits.len()) == expect.only_sets_bits,
            || {
                format!(
                    "base {} extended {}",
                    bloomproof_format::encode_hex(&x.packed_bits),
                    bloomproof_format::encode_hex(&y.packed_bits)
                )
            },
        );
    }
    if let Some(answers) = v.answer("lookup", subject.lookup(&params, &extended, &base)) {
        v.holds(
            "every base record passes maybe_present in the extension",
            answers.iter().all(|t| t.maybe_present) == expect.base_records_maybe_present,
            || format!("{answers:?}"),
        );
    }
}

fn typed_rejection(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    call: &TypedCall,
    expect: &RejectExpect,
) {
    let got = subject.typed(call);
    let want = expect.error.as_str();
    match got {
        Err(SubjectError::Rejected {
            kind,
            field,
            message,
        }) => {
            v.eq("error kind", &want.to_string(), &kind);
            match field {
                Some(field) => {
                    v.eq("field named by the error", &expect.field, &field);
                }
                None => v.fail(
                    "field named by the error",
                    format!("{:?}", expect.field),
                    "no field: every contract error must name its field",
                ),
            }
            v.holds(
                "the message is not empty",
                !message.trim().is_empty(),
                || "empty message".into(),
            );
        }
        Err(broken @ SubjectError::Broken(_)) => {
            v.fail("rejection", format!("a {want} error"), broken.to_string())
        }
        Ok(answer) => v.fail(
            "rejection",
            format!("a {want} error naming {}", expect.field),
            format!("accepted: {answer:?}"),
        ),
    }
}

fn stages(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &StagesInput,
    expect: &StagesExpect,
) {
    let p = &input.params;
    let params = raw(p);
    let item = &input.item_hex.0;
    v.eq(
        "one stage per hash index",
        &(p.k as usize),
        &expect.stages.len(),
    );
    let before = v.count();
    let positions = v
        .answer("positions", subject.positions(&params, item))
        .unwrap_or_default();
    for (index, stage) in expect.stages.iter().enumerate() {
        let i = index as u8;
        let oracle_message =
            oracle::message_hex(narrow(p.m), narrow(p.k), &p.seed_hex.0, u32::from(i), item);
        v.eq(
            &format!("oracle message[{index}] agrees with the spec"),
            &bloomproof_format::encode_hex(&stage.message_hex.0),
            &oracle_message,
        );
        let oracle_digest =
            oracle::digest_hex(narrow(p.m), narrow(p.k), &p.seed_hex.0, u32::from(i), item);
        v.eq(
            &format!("oracle digest[{index}] agrees with the spec"),
            &bloomproof_format::encode_hex(&stage.digest_hex.0),
            &oracle_digest,
        );
        let oracle_position = oracle::positions(narrow(p.m), narrow(p.k), &p.seed_hex.0, item)
            .get(index)
            .copied();
        v.eq(
            &format!("oracle position[{index}] agrees with the spec"),
            &Some(u32::from(stage.position)),
            &oracle_position,
        );
        if let Some(framed) = v.answer("frame", subject.frame(&params, i, item)) {
            v.eq(
                &format!("message[{index}]"),
                &stage.message_hex,
                &Hex(framed.message),
            );
            v.eq(
                &format!("digest[{index}]"),
                &stage.digest_hex,
                &Hex(framed.digest),
            );
        }
        v.eq(
            &format!("position[{index}]"),
            &Some(stage.position),
            &positions.get(index).copied(),
        );
    }
    if let Some(built) = v.answer("build", subject.build(&params, std::slice::from_ref(item))) {
        v.eq(
            "packed bits of the one-record snapshot",
            &expect.packed_hex,
            &Hex(built.packed_bits),
        );
    }
    if v.count() > before {
        diagnose(v, subject, &params, [item]);
    }
    v.eq(
        "oracle agrees with the spec's packed bits",
        &expect.packed_hex,
        &Hex(oracle_packed(p, std::slice::from_ref(item))),
    );
}

fn framing(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &crate::model::FramingInput,
    expect: &crate::model::FramingExpect,
) {
    use crate::model::FramingInput;
    match input {
        FramingInput::Sha256 { data_hex } => {
            let oracle_digest = bloomproof_oracle::sha256::hex_digest(&data_hex.0);
            if let Some(expected) = &expect.digest_hex {
                v.eq(
                    "oracle SHA-256 agrees with the spec",
                    &bloomproof_format::encode_hex(&expected.0),
                    &oracle_digest,
                );
                if let Some(got) = v.answer("sha256", subject.sha256(&data_hex.0)) {
                    v.eq("SHA-256", expected, &Hex(got));
                }
            } else {
                v.fail("spec", "a digest_hex expectation", "none");
            }
        }
        FramingInput::Message {
            params,
            index,
            item_hex,
        } => {
            let p = params;
            let before = v.count();
            let oracle_message = oracle::message_hex(
                narrow(p.m),
                narrow(p.k),
                &p.seed_hex.0,
                u32::from(*index),
                &item_hex.0,
            );
            if let Some(framed) =
                v.answer("frame", subject.frame(&raw(params), *index, &item_hex.0))
            {
                v.eq(
                    "message equals the oracle's hex framing",
                    &oracle_message,
                    &bloomproof_format::encode_hex(&framed.message),
                );
                if let Some(message) = &expect.message_hex {
                    v.eq("message bytes", message, &Hex(framed.message.clone()));
                    v.eq(
                        "oracle agrees with the spec's message",
                        &bloomproof_format::encode_hex(&message.0),
                        &oracle_message,
                    );
                }
                if let Some(digest) = &expect.digest_hex {
                    v.eq("digest", digest, &Hex(framed.digest));
                }
            }
            if let Some(position) = expect.position {
                let got = v.answer("positions", subject.positions(&raw(params), &item_hex.0));
                v.eq(
                    "position",
                    &Some(position),
                    &got.and_then(|p| p.get(usize::from(*index)).copied()),
                );
            }
            if v.count() > before {
                diagnose(v, subject, &raw(params), [&item_hex.0]);
            }
        }
        FramingInput::Distinct {
            m,
            k,
            index,
            seed_a_hex,
            item_a_hex,
            seed_b_hex,
            item_b_hex,
        } => {
            let a = RawParams {
                m: *m,
                k: *k,
                seed: seed_a_hex.0.clone(),
            };
            let b = RawParams {
                m: *m,
                k: *k,
                seed: seed_b_hex.0.clone(),
            };
            v.holds(
                "the splits concatenate to the same bytes",
                [&seed_a_hex.0[..], &item_a_hex.0[..]].concat()
                    == [&seed_b_hex.0[..], &item_b_hex.0[..]].concat(),
                || "different concatenations".into(),
            );
            let Some(differ) = expect.messages_differ else {
                v.fail("spec", "a messages_differ expectation", "none");
                return;
            };
            if let (Some(x), Some(y)) = (
                v.answer("frame a", subject.frame(&a, *index, &item_a_hex.0)),
                v.answer("frame b", subject.frame(&b, *index, &item_b_hex.0)),
            ) {
                let what = match differ {
                    true => "the two messages differ",
                    false => "the two messages are the same",
                };
                v.holds(what, (x.message != y.message) == differ, || {
                    bloomproof_format::encode_hex(&x.message)
                });
            }
        }
        FramingInput::Packing(build) => {
            let expect_build = BuildExpect {
                packed_hex: expect.packed_hex.clone(),
                ..BuildExpect::default()
            };
            build_and_compare(v, subject, build, &expect_build);
        }
    }
}

/// The oracle's lookup of `item` in the snapshot of `records`.
fn oracle_triple(
    params: &DocParams,
    occupied: &BTreeSet<u32>,
    documents: &BTreeSet<&Vec<u8>>,
    item: &Vec<u8>,
) -> Triple {
    let maybe = oracle_maybe(params, occupied, item);
    Triple {
        maybe_present: maybe,
        exact_checked: maybe,
        duplicate: maybe && documents.contains(item),
    }
}

/// The first pair of `records` in combination order whose position sets intersect,
/// with the smallest shared position.
fn first_shared(sets: &[BTreeSet<u32>]) -> Option<(usize, usize, u32)> {
    sets.iter().enumerate().find_map(|(i, a)| {
        sets.iter()
            .enumerate()
            .skip(i + 1)
            .find_map(|(j, b)| a.intersection(b).next().map(|&shared| (i, j, shared)))
    })
}

/// The seed's fault injection, shown to the implementation: the runner picks the pair
/// and the bit from the implementation's own positions, clears that bit in the
/// implementation's own packed bits, and asks it to read the damaged snapshot (without
/// the removed record). The reader must refuse it, naming the damaged member.
fn shared_bit_fault(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &BuildInput,
    expect: &crate::model::FaultExpect,
) -> Seen<'static> {
    let mut removed_item = None;
    let mut cleared_bit = None;
    let mut damaged_member = None;
    let seen = |removed, cleared, damaged| Seen::Fault {
        removed,
        cleared,
        damaged,
    };
    let p = &input.params;
    let params = raw(p);
    let records = bytes(&input.records_hex);
    let oracle_sets: Vec<BTreeSet<u32>> = records
        .iter()
        .map(|r| oracle::position_set(narrow(p.m), narrow(p.k), &p.seed_hex.0, r))
        .collect();
    match first_shared(&oracle_sets) {
        Some((i, j, shared)) => {
            v.eq(
                "oracle agrees with the spec's removed item",
                &expect.removed_hex,
                &Hex(records[i].clone()),
            );
            v.eq(
                "oracle agrees with the spec's damaged member",
                &expect.damaged_hex,
                &Hex(records[j].clone()),
            );
            v.eq(
                "oracle agrees with the spec's cleared bit",
                &u32::from(expect.cleared_bit),
                &shared,
            );
        }
        None => v.fail("oracle: an intersecting pair of members", "a pair", "none"),
    }
    let mut sets = Vec::new();
    for record in &records {
        let Some(positions) = v.answer("positions", subject.positions(&params, record)) else {
            return seen(removed_item, cleared_bit, damaged_member);
        };
        sets.push(
            positions
                .iter()
                .map(|&q| u32::from(q))
                .collect::<BTreeSet<u32>>(),
        );
    }
    let Some((i, j, cleared)) = first_shared(&sets) else {
        v.fail(
            "an intersecting pair of members (implementation's positions)",
            "a pair",
            "none",
        );
        return seen(removed_item, cleared_bit, damaged_member);
    };
    let removed = records[i].clone();
    removed_item = Some(removed.clone());
    cleared_bit = Some(cleared);
    let removed_ok = v.eq("removed item", &expect.removed_hex, &Hex(removed.clone()));
    if !(v.eq("cleared bit", &u32::from(expect.cleared_bit), &cleared) && removed_ok) {
        diagnose(v, subject, &params, &records);
    }
    let Some(built) = v.answer("build", subject.build(&params, &records)) else {
        return seen(removed_item, cleared_bit, damaged_member);
    };
    v.holds(
        "the shared bit is set before the fault",
        bit(&built.packed_bits, cleared),
        || bloomproof_format::encode_hex(&built.packed_bits),
    );
    if let Some(answers) = v.answer(
        "read the intact snapshot",
        subject.read(&params, &records, &built.packed_bits, &records),
    ) {
        v.holds(
            "every member passes maybe_present in the intact snapshot, read back",
            answers.len() == records.len() && answers.iter().all(|t| t.maybe_present),
            || format!("{answers:?}"),
        );
    }
    let mut damaged_bits = built.packed_bits.clone();
    if let Some(byte) = damaged_bits.get_mut((cleared / 8) as usize) {
        *byte &= !(1 << (cleared % 8));
    }
    let remaining: Vec<Vec<u8>> = records.iter().filter(|r| **r != removed).cloned().collect();
    v.holds(
        "the damaged member's positions include the cleared bit",
        sets[j].contains(&cleared),
        || format!("{:?}", sets[j]),
    );
    let expected_field = remaining
        .iter()
        .position(|r| *r == records[j])
        .map(|index| format!("records[{index}]"))
        .unwrap_or_default();
    match subject.read(&params, &remaining, &damaged_bits, &remaining) {
        Err(SubjectError::Rejected { kind, field, .. }) => {
            v.eq(
                "reading the damaged snapshot: error kind",
                &"value".to_string(),
                &kind,
            );
            let named = field
                .as_deref()
                .and_then(|f| f.strip_prefix("records["))
                .and_then(|f| f.strip_suffix(']'))
                .and_then(|index| index.parse::<usize>().ok())
                .and_then(|index| remaining.get(index));
            match named {
                Some(damaged) => {
                    damaged_member = Some(damaged.clone());
                    v.eq("damaged member", &expect.damaged_hex, &Hex(damaged.clone()));
                }
                None => v.fail(
                    "reading the damaged snapshot: the error names the damaged member",
                    expected_field,
                    format!("{field:?}"),
                ),
            }
        }
        Err(broken @ SubjectError::Broken(_)) => v.fail(
            "reading the damaged snapshot",
            format!("a value error naming {expected_field}"),
            broken.to_string(),
        ),
        Ok(answers) => v.fail(
            "reading the damaged snapshot",
            format!(
                "a value error naming {expected_field}: its bits miss position {cleared} of {}",
                text(&records[j])
            ),
            format!(
                "accepted, answering {answers:?} (a reader that accepts it answers false negatives)"
            ),
        ),
    }
    seen(removed_item, cleared_bit, damaged_member)
}

/// The bits the runner expects a snapshot to show, the number of its documents and
/// its lookups of `probes`, all from the oracle.
fn oracle_observation(p: &DocParams, records: &[Vec<u8>], probes: &[Vec<u8>]) -> Observation {
    let occupied = oracle_occupied(p, records);
    let documents: BTreeSet<&Vec<u8>> = records.iter().collect();
    Observation {
        m: p.m,
        k: p.k,
        seed: p.seed_hex.0.clone(),
        packed_bits: oracle_packed(p, records),
        documents: documents.len(),
        lookups: probes
            .iter()
            .map(|q| oracle_triple(p, &occupied, &documents, q))
            .collect(),
    }
}

fn shorten(text: &str) -> String {
    const MAX: usize = 160;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// Every named attempt, each in its own request; the verdict is the runner's
/// comparison of what the implementation then shows with what the oracle computes.
fn immutable(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &MutationInput,
    expect: &MutationExpect,
) {
    let p = &input.snapshot.params;
    let records = bytes(&input.snapshot.records_hex);
    let other_records = bytes(&input.other.records_hex);
    let mut probes = records.clone();
    probes.extend(
        records
            .iter()
            .map(|r| r.iter().map(|b| b ^ 0xff).collect::<Vec<u8>>()),
    );
    probes.extend(other_records.iter().cloned());
    probes.extend(bytes(&input.probes_hex));
    let want = oracle_observation(p, &records, &probes);
    v.eq(
        "oracle agrees with the spec's packed bits",
        &expect.packed_hex,
        &Hex(want.packed_bits.clone()),
    );
    v.eq(
        "oracle agrees with the spec's documents",
        &expect.documents,
        &want.documents,
    );
    v.holds(
        "the case names at least one attempt (spec)",
        !input.attempts.is_empty(),
        || "none".into(),
    );
    let other = raw(&input.other.params);
    for &attempt in &input.attempts {
        let name = attempt.name();
        let Some(mutation) = v.answer(
            &format!("mutate {name}"),
            subject.mutate(
                &raw(p),
                &records,
                (&other, &other_records),
                attempt,
                &probes,
            ),
        ) else {
            continue;
        };
        let seen = &mutation.observed;
        let after = format!(
            "after {name} (the implementation says {}: {})",
            mutation.outcome,
            shorten(&mutation.detail)
        );
        v.eq(&format!("{after}: m"), &want.m, &seen.m);
        v.eq(&format!("{after}: k"), &want.k, &seen.k);
        v.eq(
            &format!("{after}: seed"),
            &Hex(want.seed.clone()),
            &Hex(seen.seed.clone()),
        );
        v.eq(
            &format!("{after}: packed bits"),
            &Hex(want.packed_bits.clone()),
            &Hex(seen.packed_bits.clone()),
        );
        v.eq(
            &format!("{after}: documents"),
            &want.documents,
            &seen.documents,
        );
        if v.eq(
            &format!("{after}: one lookup per probe"),
            &want.lookups.len(),
            &seen.lookups.len(),
        ) {
            for ((probe, expected), got) in probes.iter().zip(&want.lookups).zip(&seen.lookups) {
                v.eq(&format!("{after}: lookup({})", text(probe)), expected, got);
            }
        }
    }
}

/// The runner's own verdict on reading these parts: `Ok` or the field to name.
fn expected_read(p: &DocParams, records: &[Vec<u8>], packed: &[u8]) -> Result<(), String> {
    let (m, k) = (narrow(p.m), narrow(p.k));
    if !(8..=512).contains(&m) {
        return Err("m".into());
    }
    if !(1..=8).contains(&k) {
        return Err("k".into());
    }
    if p.seed_hex.0.len() > 16 {
        return Err("seed".into());
    }
    if records.len() > 64 {
        return Err("records".into());
    }
    if let Some(index) = records.iter().position(|r| r.len() > 64) {
        return Err(format!("records[{index}]"));
    }
    if packed.len() != m.div_ceil(8) as usize
        || (m..packed.len() as u32 * 8).any(|q| bit(packed, q))
    {
        return Err("packed_bits".into());
    }
    if let Some(index) = records.iter().position(|r| {
        oracle::positions(m, k, &p.seed_hex.0, r)
            .iter()
            .any(|&q| !bit(packed, q))
    }) {
        return Err(format!("records[{index}]"));
    }
    if bloomproof_format::encode_hex(packed) != oracle::packed_hex(&oracle_occupied(p, records), m)
    {
        return Err("packed_bits".into());
    }
    Ok(())
}

fn read(v: &mut Verdict<'_>, subject: &mut dyn DocSubject, input: &ReadInput, expect: &ReadExpect) {
    let p = &input.params;
    let records = bytes(&input.records_hex);
    let items = bytes(&input.items_hex);
    let packed = &input.packed_hex.0;
    let runner = expected_read(p, &records, packed);
    let spec = match &expect.rejected {
        Some(rejection) => Err(rejection.field.clone()),
        None => Ok(()),
    };
    v.eq("the runner's verdict agrees with the spec", &spec, &runner);
    let occupied = oracle_occupied(p, &records);
    let documents: BTreeSet<&Vec<u8>> = records.iter().collect();
    match (
        subject.read(&raw(p), &records, packed, &items),
        &expect.rejected,
    ) {
        (Ok(answers), None) => {
            if v.eq("one result per item", &items.len(), &answers.len()) {
                for ((item, want), got) in items.iter().zip(&expect.results).zip(&answers) {
                    if !triple_matches(want, got) {
                        v.fail(
                            format!("lookup({})", text(item)),
                            format!("{want:?}"),
                            format!("{got:?}"),
                        );
                    }
                    if !v.eq(
                        &format!("lookup({}) equals the oracle's", text(item)),
                        &oracle_triple(p, &occupied, &documents, item),
                        got,
                    ) {
                        diagnose(v, subject, &raw(p), std::iter::once(item).chain(&records));
                    }
                }
            }
            v.eq(
                "one spec result per item (spec)",
                &items.len(),
                &expect.results.len(),
            );
        }
        (Ok(answers), Some(rejection)) => v.fail(
            "rejection",
            format!("a {:?} error naming {}", rejection.error, rejection.field),
            format!("accepted, answering {answers:?}"),
        ),
        (
            Err(SubjectError::Rejected {
                kind,
                field,
                message,
            }),
            Some(rejection),
        ) => {
            let want = match rejection.error {
                ErrorKindName::Type => "type",
                ErrorKindName::Value => "value",
            };
            v.eq("error kind", &want.to_string(), &kind);
            v.eq(
                "field named by the error",
                &Some(rejection.field.clone()),
                &field,
            );
            v.holds(
                "the message is not empty",
                !message.trim().is_empty(),
                || "empty message".into(),
            );
        }
        (Err(err), _) => v.fail(
            "read",
            match &expect.rejected {
                Some(rejection) => {
                    format!("a {:?} error naming {}", rejection.error, rejection.field)
                }
                None => "an answer per item".to_string(),
            },
            err.to_string(),
        ),
    }
}

/// The oracle's position set of each item under one profile, computed once per item:
/// a subset's bits are the union of its records' sets and a lookup's `maybe_present`
/// is whether the query's set is a subset of them, exactly as
/// [`oracle::occupied`] and [`oracle::maybe_present`] define them, without asking the
/// oracle again for an item it has already hashed.
struct PositionMemo<'p> {
    profile: &'p DocParams,
    sets: std::collections::HashMap<Vec<u8>, BTreeSet<u32>>,
}

impl<'p> PositionMemo<'p> {
    fn new(profile: &'p DocParams) -> Self {
        PositionMemo {
            profile,
            sets: std::collections::HashMap::new(),
        }
    }

    fn set(&mut self, item: &[u8]) -> &BTreeSet<u32> {
        let p = self.profile;
        self.sets
            .entry(item.to_vec())
            .or_insert_with(|| oracle::position_set(narrow(p.m), narrow(p.k), &p.seed_hex.0, item))
    }

    fn occupied(&mut self, records: &[Vec<u8>]) -> BTreeSet<u32> {
        let mut bits = BTreeSet::new();
        for record in records {
            bits.extend(self.set(record).iter().copied());
        }
        bits
    }

    fn maybe_present(&mut self, occupied: &BTreeSet<u32>, item: &[u8]) -> bool {
        self.set(item).is_subset(occupied)
    }
}

/// Snapshots whose build and lookup requests go out together, without waiting for
/// each answer (`DocSubject::build_and_lookup_each`); their answers are held at once,
/// so this bounds the memory an adapter's answers can take (two requests per snapshot,
/// each answer at most a 1 MiB line).
const PIPELINED_SNAPSHOTS: usize = 8;

fn exhaustive(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &crate::model::ExhaustiveInput,
    expect: &crate::model::ExhaustiveExpect,
) -> Option<(usize, usize)> {
    let base = bytes(&input.base_hex);
    let queries = bytes(&input.queries_hex);
    if base.len() > 16 {
        v.fail("base size", "at most 16 records", base.len().to_string());
        return None;
    }
    let (mut snapshots, mut compared) = (0usize, 0usize);
    let mut mismatches = 0usize;
    let masks: Vec<u32> = (0u32..(1 << base.len())).collect();
    for profile in &input.profiles {
        let params = raw(profile);
        let mut memo = PositionMemo::new(profile);
        for chunk in masks.chunks(PIPELINED_SNAPSHOTS) {
            let subsets: Vec<Vec<Vec<u8>>> = chunk
                .iter()
                .map(|mask| {
                    base.iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, r)| r.clone())
                        .collect()
                })
                .collect();
            let answers = subject.build_and_lookup_each(&params, &subsets, &queries);
            for ((mask, subset), (built, looked_up)) in chunk.iter().zip(&subsets).zip(answers) {
                let occupied = memo.occupied(subset);
                let expected_bits = bloomproof_format::decode_hex(&oracle::packed_hex(
                    &occupied,
                    narrow(profile.m),
                ))
                .unwrap_or_default();
                let built = v.answer("build", built)?;
                snapshots += 1;
                if built.packed_bits != expected_bits && mismatches < 20 {
                    mismatches += 1;
                    v.fail(
                        format!("bits of subset {mask:#06x} under {profile:?}"),
                        bloomproof_format::encode_hex(&expected_bits),
                        bloomproof_format::encode_hex(&built.packed_bits),
                    );
                    diagnose(v, subject, &params, subset);
                }
                let answers = v.answer("lookup", looked_up)?;
                for (query, got) in queries.iter().zip(&answers) {
                    compared += 1;
                    let maybe = memo.maybe_present(&occupied, query);
                    let want = Triple {
                        maybe_present: maybe,
                        exact_checked: maybe,
                        duplicate: subset.contains(query),
                    };
                    if *got != want && mismatches < 20 {
                        mismatches += 1;
                        v.fail(
                            format!(
                                "lookup({}) in subset {mask:#06x} under {profile:?}",
                                text(query)
                            ),
                            format!("{want:?}"),
                            format!("{got:?}"),
                        );
                        diagnose(v, subject, &params, std::iter::once(query).chain(subset));
                    }
                }
                if answers.len() != queries.len() {
                    v.fail(
                        "one answer per query",
                        queries.len().to_string(),
                        answers.len().to_string(),
                    );
                }
            }
        }
    }
    v.eq("snapshots compared", &expect.snapshots, &snapshots);
    v.eq("queries compared", &expect.queries, &compared);
    Some((snapshots, compared))
}
