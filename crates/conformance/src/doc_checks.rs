//! One evaluator per documented check of `doc-membership-v1`.
//!
//! Every evaluator drives the implementation through a [`DocSubject`] and compares
//! its answers with the spec's expectations. Where the spec pins a value (a packed
//! filter, a message, a false-positive list), the independent oracle must agree with
//! the spec too, so a wrong spec file fails as loudly as a wrong implementation.

use crate::model::{BuildExpect, BuildInput, DocCase, DocParams, ErrorKindName, Hex, TripleExpect};
use crate::report::{Failure, Figures};
use crate::subject::{DocSubject, RawParams, SubjectError, Triple};
use crate::verdict::Verdict;
use bloomproof_oracle::doc_membership as oracle;
use std::collections::BTreeSet;

/// The protocol these checks belong to.
pub const PROTOCOL: &str = "doc-membership-v1";

/// Every check this module evaluates, in the seed's order, then this project's.
pub const CHECKS: &[&str] = &[
    "empty_snapshot_definitely_absent",
    "inserted_items_have_no_false_negatives",
    "positive_members_exactly_confirmed",
    "finite_universe_false_positives_never_become_duplicates",
    "order_and_duplicate_insertion_idempotent",
    "compatible_extension_only_sets_bits",
    "raw_bytes_empty_nul_and_unicode_forms_distinct",
    "hash_domain_framing_and_little_endian_bit_protocol",
    "snapshot_fields_are_immutable",
    "clearing_shared_bit_breaks_no_false_negative_contract",
    "parameter_types_and_limits_rejected",
    "record_and_query_contract_rejected",
    "all_small_subsets_independent_position_set_oracle",
    "maximum_declared_snapshot_bounds",
    "every_stage_pinned",
    "parameter_boundaries_pinned",
];

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
    hex::decode(packed).unwrap_or_default()
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

fn text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) if s.chars().all(|c| !c.is_control()) => s.to_string(),
        _ => hex::encode(bytes),
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
    v.eq(
        "packed bits equal the oracle's",
        &oracle_bits,
        &built.packed_bits,
    );
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
            v.eq(
                &format!("lookup({}) of a record", text(record)),
                &Triple {
                    maybe_present: true,
                    exact_checked: true,
                    duplicate: true,
                },
                got,
            );
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
            v.eq(
                &format!("lookup({}) equals the oracle's", text(item)),
                &oracle_triple,
                got,
            );
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

/// Runs one case, recording mismatches and figures.
pub fn evaluate(
    case: &DocCase,
    subject: &mut dyn DocSubject,
    figures: &mut Figures,
) -> Vec<Failure> {
    let mut failures = Vec::new();
    match case {
        DocCase::EmptySnapshot(c) => {
            let mut v = Verdict::new(c, &mut failures);
            v.holds(
                "the snapshot has no records",
                c.input.records_hex.is_empty(),
                || "records given".into(),
            );
            if let Some(packed) = build_and_compare(&mut v, subject, &c.input, &c.expect) {
                v.eq("bits set in an empty snapshot", &0, &ones(&packed));
            }
        }
        DocCase::NoFalseNegatives(c) | DocCase::MembersConfirmed(c) => {
            let confirm = matches!(case, DocCase::MembersConfirmed(_));
            let mut v = Verdict::new(c, &mut failures);
            let params = raw(&c.input.params);
            let records = bytes(&c.input.records_hex);
            if let Some(answers) = v.answer("lookup", subject.lookup(&params, &records, &records)) {
                v.eq("one answer per record", &records.len(), &answers.len());
                for (record, got) in records.iter().zip(&answers) {
                    if confirm {
                        v.eq(
                            &format!("lookup({})", text(record)),
                            &Triple {
                                maybe_present: true,
                                exact_checked: true,
                                duplicate: true,
                            },
                            got,
                        );
                    } else {
                        v.holds(
                            &format!("maybe_present({})", text(record)),
                            got.maybe_present,
                            || "false: a false negative".into(),
                        );
                    }
                }
            }
        }
        DocCase::FalsePositives(c) => {
            let mut v = Verdict::new(c, &mut failures);
            let params = raw(&c.input.params);
            let records = bytes(&c.input.records_hex);
            let non_members = bytes(&c.input.non_members_hex);
            if let Some(built) = v.answer("build", subject.build(&params, &records)) {
                v.eq("bits set", &c.expect.bits_set, &ones(&built.packed_bits));
                v.eq(
                    "packed bits",
                    &c.expect.packed_hex,
                    &Hex(built.packed_bits.clone()),
                );
                figures.set("fixture.occupied_bits", ones(&built.packed_bits));
                figures.set(
                    "fixture.packed_little_endian_hex",
                    hex::encode(&built.packed_bits),
                );
            }
            if let Some(answers) =
                v.answer("lookup", subject.lookup(&params, &records, &non_members))
            {
                let positives: Vec<Hex> = non_members
                    .iter()
                    .zip(&answers)
                    .filter(|(_, t)| t.maybe_present)
                    .map(|(x, _)| Hex(x.clone()))
                    .collect();
                v.eq("false positives", &c.expect.false_positives_hex, &positives);
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
                    &c.expect.false_duplicate_decisions,
                    &false_duplicates,
                );
                figures.set("fixture.tested_nonmembers", non_members.len());
                figures.set("fixture.realized_false_positives", positives.len());
                figures.set(
                    "fixture.false_positive_items",
                    positives.iter().map(|h| text(&h.0)).collect::<Vec<_>>(),
                );
                figures.set("fixture.false_duplicate_decisions", false_duplicates);
            }
            let occupied = oracle_occupied(&c.input.params, &records);
            let oracle_positives: Vec<Hex> = non_members
                .iter()
                .filter(|x| oracle_maybe(&c.input.params, &occupied, x))
                .map(|x| Hex(x.clone()))
                .collect();
            v.eq(
                "oracle agrees with the spec's false positives",
                &c.expect.false_positives_hex,
                &oracle_positives,
            );
        }
        DocCase::Idempotent(c) => {
            let mut v = Verdict::new(c, &mut failures);
            let params = raw(&c.input.params);
            let a = bytes(&c.input.records_hex);
            let b = bytes(&c.input.equivalent_hex);
            v.holds(
                "the two lists hold the same set",
                a.iter().collect::<BTreeSet<_>>() == b.iter().collect::<BTreeSet<_>>(),
                || "different sets".into(),
            );
            if let (Some(x), Some(y)) = (
                v.answer("build", subject.build(&params, &a)),
                v.answer("build", subject.build(&params, &b)),
            ) {
                v.eq("same snapshot from either order", &x, &y);
            }
            if let Some(answers) = v.answer("lookup", subject.lookup(&params, &b, &a)) {
                v.holds(
                    "every record is a duplicate of the reordered snapshot",
                    answers.iter().all(|t| t.duplicate),
                    || format!("{answers:?}"),
                );
            }
        }
        DocCase::Extension(c) => {
            let mut v = Verdict::new(c, &mut failures);
            let params = raw(&c.input.params);
            let base = bytes(&c.input.records_hex);
            let extended = bytes(&c.input.extended_hex);
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
                    kept && x.packed_bits.len() == y.packed_bits.len(),
                    || {
                        format!(
                            "base {} extended {}",
                            hex::encode(&x.packed_bits),
                            hex::encode(&y.packed_bits)
                        )
                    },
                );
            }
            if let Some(answers) = v.answer("lookup", subject.lookup(&params, &extended, &base)) {
                v.holds(
                    "every base record passes maybe_present in the extension",
                    answers.iter().all(|t| t.maybe_present),
                    || format!("{answers:?}"),
                );
            }
        }
        DocCase::RawForms(c) | DocCase::MaximumBounds(c) | DocCase::Boundaries(c) => {
            let mut v = Verdict::new(c, &mut failures);
            build_and_compare(&mut v, subject, &c.input, &c.expect);
        }
        DocCase::Framing(c) => {
            let mut v = Verdict::new(c, &mut failures);
            framing(&mut v, subject, &c.input, &c.expect);
        }
        DocCase::Immutable(c) => {
            let mut v = Verdict::new(c, &mut failures);
            let params = raw(&c.input.params);
            let records = bytes(&c.input.records_hex);
            if let Some(report) = v.answer(
                "immutability probe",
                subject.immutability_probe(&params, &records, &records),
            ) {
                v.holds(
                    "at least one mutation was attempted",
                    !report.attempts.is_empty(),
                    || "no attempt".into(),
                );
                for (attempt, unchanged) in report.attempts {
                    v.holds(
                        &format!("snapshot unchanged after: {attempt}"),
                        unchanged,
                        || "the snapshot changed".into(),
                    );
                }
            }
        }
        DocCase::SharedBitFault(c) => {
            let mut v = Verdict::new(c, &mut failures);
            shared_bit_fault(&mut v, subject, &c.input, &c.expect, figures);
        }
        DocCase::ParameterRejected(c) | DocCase::RecordRejected(c) => {
            let mut v = Verdict::new(c, &mut failures);
            let i = &c.input;
            let got = subject.typed(&i.records, &i.m, &i.k, &i.seed, i.item.as_ref());
            let want = match c.expect.error {
                ErrorKindName::Type => "type",
                ErrorKindName::Value => "value",
            };
            match got {
                Err(SubjectError::Rejected {
                    kind,
                    field,
                    message,
                }) => {
                    v.eq("error kind", &want.to_string(), &kind);
                    if let Some(field) = field {
                        v.eq("field named by the error", &c.expect.field, &field);
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
                    format!("a {want} error naming {}", c.expect.field),
                    format!("accepted: {answer:?}"),
                ),
            }
        }
        DocCase::Exhaustive(c) => {
            let mut v = Verdict::new(c, &mut failures);
            exhaustive(&mut v, subject, &c.input, &c.expect, figures);
        }
        DocCase::Stages(c) => {
            let mut v = Verdict::new(c, &mut failures);
            let p = &c.input.params;
            let params = raw(p);
            let item = &c.input.item_hex.0;
            v.eq(
                "one stage per hash index",
                &(p.k as usize),
                &c.expect.stages.len(),
            );
            let positions = v
                .answer("positions", subject.positions(&params, item))
                .unwrap_or_default();
            for (index, stage) in c.expect.stages.iter().enumerate() {
                let i = index as u8;
                let oracle_message = oracle::message_hex(
                    narrow(p.m),
                    narrow(p.k),
                    &p.seed_hex.0,
                    u32::from(i),
                    item,
                );
                v.eq(
                    &format!("oracle message[{index}] agrees with the spec"),
                    &hex::encode(&stage.message_hex.0),
                    &oracle_message,
                );
                let oracle_digest =
                    oracle::digest_hex(narrow(p.m), narrow(p.k), &p.seed_hex.0, u32::from(i), item);
                v.eq(
                    &format!("oracle digest[{index}] agrees with the spec"),
                    &hex::encode(&stage.digest_hex.0),
                    &oracle_digest,
                );
                let oracle_position =
                    oracle::positions(narrow(p.m), narrow(p.k), &p.seed_hex.0, item)
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
            if let Some(built) =
                v.answer("build", subject.build(&params, std::slice::from_ref(item)))
            {
                v.eq(
                    "packed bits of the one-record snapshot",
                    &c.expect.packed_hex,
                    &Hex(built.packed_bits),
                );
            }
            v.eq(
                "oracle agrees with the spec's packed bits",
                &c.expect.packed_hex,
                &Hex(oracle_packed(p, std::slice::from_ref(item))),
            );
        }
    }
    failures
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
                    &hex::encode(&expected.0),
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
                    &hex::encode(&framed.message),
                );
                if let Some(message) = &expect.message_hex {
                    v.eq("message bytes", message, &Hex(framed.message.clone()));
                    v.eq(
                        "oracle agrees with the spec's message",
                        &hex::encode(&message.0),
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
            if let (Some(x), Some(y)) = (
                v.answer("frame a", subject.frame(&a, *index, &item_a_hex.0)),
                v.answer("frame b", subject.frame(&b, *index, &item_b_hex.0)),
            ) {
                v.holds("the two messages differ", x.message != y.message, || {
                    hex::encode(&x.message)
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

fn shared_bit_fault(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &BuildInput,
    expect: &crate::model::FaultExpect,
    figures: &mut Figures,
) {
    let p = &input.params;
    let records = bytes(&input.records_hex);
    let set = |item: &[u8]| oracle::position_set(narrow(p.m), narrow(p.k), &p.seed_hex.0, item);
    // The first pair in combination order whose oracle position sets intersect.
    let mut pair = None;
    'search: for (i, a) in records.iter().enumerate() {
        for b in records.iter().skip(i + 1) {
            if let Some(&shared) = set(a).intersection(&set(b)).next() {
                pair = Some((a.clone(), b.clone(), shared));
                break 'search;
            }
        }
    }
    let Some((removed, damaged, cleared)) = pair else {
        v.fail("an intersecting pair of members", "a pair", "none");
        return;
    };
    v.eq(
        "oracle: removed item",
        &expect.removed_hex,
        &Hex(removed.clone()),
    );
    v.eq(
        "oracle: damaged member",
        &expect.damaged_hex,
        &Hex(damaged.clone()),
    );
    v.eq(
        "oracle: cleared bit",
        &Some(expect.cleared_bit),
        &u16::try_from(cleared).ok(),
    );
    figures.set("shared_bit_fault.removed_item", text(&removed));
    figures.set("shared_bit_fault.damaged_member", text(&damaged));
    figures.set("shared_bit_fault.cleared_bit", cleared);
    let params = raw(p);
    let Some(built) = v.answer("build", subject.build(&params, &records)) else {
        return;
    };
    v.holds(
        "the shared bit is set before the fault",
        bit(&built.packed_bits, cleared),
        || hex::encode(&built.packed_bits),
    );
    // Fault injection outside the public API: clear the bit in a local copy.
    let mut corrupted = built.packed_bits.clone();
    if let Some(byte) = corrupted.get_mut((cleared / 8) as usize) {
        *byte &= !(1 << (cleared % 8));
    }
    if let Some(positions) = v.answer("positions", subject.positions(&params, &damaged)) {
        let intact = positions
            .iter()
            .all(|&q| bit(&built.packed_bits, u32::from(q)));
        v.holds("the damaged member passes before the fault", intact, || {
            format!("{positions:?}")
        });
        let survives = positions.iter().all(|&q| bit(&corrupted, u32::from(q)));
        v.holds(
            "the damaged member fails maybe_present after the fault",
            !survives,
            || {
                format!(
                    "positions {positions:?} still all set in {}",
                    hex::encode(&corrupted)
                )
            },
        );
    }
}

fn exhaustive(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &crate::model::ExhaustiveInput,
    expect: &crate::model::ExhaustiveExpect,
    figures: &mut Figures,
) {
    let base = bytes(&input.base_hex);
    let queries = bytes(&input.queries_hex);
    if base.len() > 16 {
        v.fail("base size", "at most 16 records", base.len().to_string());
        return;
    }
    let (mut snapshots, mut compared) = (0usize, 0usize);
    let mut mismatches = 0usize;
    for profile in &input.profiles {
        let params = raw(profile);
        for mask in 0u32..(1 << base.len()) {
            let subset: Vec<Vec<u8>> = base
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, r)| r.clone())
                .collect();
            let occupied = oracle_occupied(profile, &subset);
            let expected_bits =
                hex::decode(oracle::packed_hex(&occupied, narrow(profile.m))).unwrap_or_default();
            let Some(built) = v.answer("build", subject.build(&params, &subset)) else {
                return;
            };
            snapshots += 1;
            if built.packed_bits != expected_bits && mismatches < 20 {
                mismatches += 1;
                v.fail(
                    format!("bits of subset {mask:#06x} under {profile:?}"),
                    hex::encode(&expected_bits),
                    hex::encode(&built.packed_bits),
                );
            }
            let Some(answers) = v.answer("lookup", subject.lookup(&params, &subset, &queries))
            else {
                return;
            };
            for (query, got) in queries.iter().zip(&answers) {
                compared += 1;
                let maybe = oracle_maybe(profile, &occupied, query);
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
    v.eq("snapshots compared", &expect.snapshots, &snapshots);
    v.eq("queries compared", &expect.queries, &compared);
    figures.set("independent_oracle_snapshot_count", snapshots);
    figures.set("independent_oracle_queries", compared);
}
