//! The evaluators of `doc-membership-v1`, one per case shape, whatever the check.
//!
//! Every evaluator drives the implementation through a [`DocSubject`] and compares
//! its answers with the spec's expectations. Where the spec pins a value (a packed
//! filter, a message, a false-positive list), the independent oracle must agree with
//! the spec too, so a wrong spec file fails as loudly as a wrong implementation. A
//! check's extras (its figures, a spec self-check) are its hook in `hooks.rs`.
//!
//! Here: the shared helpers and the evaluators of the snapshot shapes (`build`,
//! `lookup`, `universe`, `equivalent`, `extension`, `typed_rejection`); in submodules
//! the hashing pipeline (`stages`, `framing`), snapshots read from their parts (`read`,
//! `fault`), the mutation attempts and the exhaustive comparison.

use super::hooks::{Seen, UniverseLookups};
use crate::hooks::Judge;
use crate::model::{ContractExpect, DocParams, Hex};
use crate::report::{Failure, Figures};
use crate::subject::SubjectError;
use crate::verdict::{Verdict, json};
use bloomproof_adapter::protocols::doc_membership_v1::{DocSubject, RawParams};
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_wire::protocols::doc_membership_v1::Triple;
use bloomproof_wire::protocols::doc_membership_v1::{
    BuildExpect, BuildInput, DocCase, EquivalentExpect, EquivalentInput, ExtensionExpect,
    ExtensionInput, TripleExpect, TypedCall, UniverseExpect, UniverseInput,
};
use std::collections::BTreeSet;

mod exhaustive;
mod hashing;
mod mutation;
mod read;

use exhaustive::exhaustive;
use hashing::{framing, stages};
use mutation::immutable;
use read::{read, shared_bit_fault};

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

fn oracle_occupied(domain: &str, params: &DocParams, records: &[Vec<u8>]) -> BTreeSet<u32> {
    oracle::occupied(
        domain,
        records,
        narrow(params.m),
        narrow(params.k),
        &params.seed_hex.0,
    )
}

fn oracle_packed(domain: &str, params: &DocParams, records: &[Vec<u8>]) -> Vec<u8> {
    let packed = oracle::packed_hex(&oracle_occupied(domain, params, records), narrow(params.m));
    bloomproof_wire::decode_hex(&packed).unwrap_or_default()
}

fn oracle_maybe(domain: &str, params: &DocParams, occupied: &BTreeSet<u32>, item: &[u8]) -> bool {
    oracle::maybe_present(
        domain,
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
        _ => bloomproof_wire::encode_hex(bytes),
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
/// suspect first) differs from the oracle's, once per case (`super::diagnose`).
fn diagnose<'a>(
    domain: &str,
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    params: &RawParams,
    candidates: impl IntoIterator<Item = &'a Vec<u8>>,
) {
    let candidates: Vec<&[u8]> = candidates
        .into_iter()
        .map(Vec::as_slice)
        .take(super::diagnose::SCREENED)
        .collect();
    v.diagnose(|| {
        Some(super::diagnose::doc_first_difference(
            domain,
            subject,
            params,
            &candidates,
        ))
    });
}

/// Shared by every check whose case is a snapshot with expectations.
fn build_and_compare(
    domain: &str,
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &BuildInput,
    expect: &BuildExpect,
) -> Option<Vec<u8>> {
    let params = raw(&input.params);
    let records = bytes(&input.records_hex);
    let built = v.answer("build", subject.build(&params, &records))?;
    let oracle_bits = oracle_packed(domain, &input.params, &records);
    if !v.eq(
        "packed bits equal the oracle's",
        &Hex(oracle_bits.clone()),
        &Hex(built.packed_bits.clone()),
    ) {
        diagnose(domain, v, subject, &params, &records);
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
        let occupied = oracle_occupied(domain, &input.params, &records);
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
                diagnose(
                    domain,
                    v,
                    subject,
                    &params,
                    std::iter::once(record).chain(&records),
                );
            }
        }
        for (lookup, got) in expect.lookups.iter().zip(lookup_answers) {
            let item = &lookup.item_hex.0;
            if !triple_matches(&lookup.result, got) {
                v.fail(
                    format!("lookup({})", text(item)),
                    json(&lookup.result),
                    json(got),
                );
            }
            let maybe = oracle_maybe(domain, &input.params, &occupied, item);
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
                diagnose(
                    domain,
                    v,
                    subject,
                    &params,
                    std::iter::once(item).chain(&records),
                );
            }
            if !triple_matches(&lookup.result, &oracle_triple) {
                v.fail(
                    format!("oracle agrees with the spec on lookup({})", text(item)),
                    json(&lookup.result),
                    json(&oracle_triple),
                );
            }
        }
    }
    Some(built.packed_bits)
}

/// Runs one case by its shape, then its check's hook; records mismatches and figures.
pub fn evaluate(
    version: &super::DocVersion,
    case: &DocCase,
    subject: &mut dyn DocSubject,
    figures: &mut Figures,
) -> Vec<Failure> {
    let domain = version.domain_hex;
    let j = Judge::<super::DocMembership>::new(case.shape(), figures);
    match case {
        DocCase::Build(c) => j.judge(c, |v| Seen::Build {
            input: &c.input,
            packed: build_and_compare(domain, v, subject, &c.input, &c.expect),
        }),
        DocCase::Lookup(c) => j.plain(c, |v| {
            every_record(domain, v, subject, &c.input, &c.expect.every_record)
        }),
        DocCase::Universe(c) => j.judge(c, |v| universe(domain, v, subject, &c.input, &c.expect)),
        DocCase::Equivalent(c) => j.plain(c, |v| equivalent(v, subject, &c.input, &c.expect)),
        DocCase::Extension(c) => j.plain(c, |v| extension(v, subject, &c.input, &c.expect)),
        DocCase::Framing(c) => j.plain(c, |v| framing(domain, v, subject, &c.input, &c.expect)),
        DocCase::Mutation(c) => j.plain(c, |v| immutable(domain, v, subject, &c.input, &c.expect)),
        DocCase::Fault(c) => j.judge(c, |v| {
            shared_bit_fault(domain, v, subject, &c.input, &c.expect)
        }),
        DocCase::TypedRejection(c) => {
            j.plain(c, |v| typed_rejection(v, subject, &c.input, &c.expect))
        }
        DocCase::Exhaustive(c) => j.judge(c, |v| {
            exhaustive(domain, v, subject, &c.input, &c.expect).map_or(
                Seen::Other,
                |(snapshots, queries)| Seen::Exhaustive { snapshots, queries },
            )
        }),
        DocCase::Stages(c) => j.plain(c, |v| stages(domain, v, subject, &c.input, &c.expect)),
        DocCase::Read(c) => j.plain(c, |v| read(domain, v, subject, &c.input, &c.expect)),
        // Outside a run (which passes its own seed), a fresh one.
        DocCase::Generated(c) => {
            super::generated::evaluate(version, c, subject, &crate::generated::Generation::fresh())
        }
    }
}

/// Every record looked up in the snapshot of the records, each compared with `want`.
fn every_record(
    domain: &str,
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
                v.fail(format!("lookup({})", text(record)), json(want), json(got));
                false
            }
        };
        if !held {
            diagnose(
                domain,
                v,
                subject,
                &params,
                std::iter::once(record).chain(&records),
            );
        }
    }
}

/// The member snapshot and the non-members' lookups: what the hook may turn into
/// figures.
fn universe(
    domain: &str,
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
            diagnose(domain, v, subject, &params, &records);
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
            let occupied = oracle_occupied(domain, &input.params, &records);
            let suspects = non_members
                .iter()
                .zip(&answers)
                .filter(|(x, t)| {
                    t.maybe_present != oracle_maybe(domain, &input.params, &occupied, x)
                })
                .map(|(x, _)| x);
            diagnose(domain, v, subject, &params, suspects.chain(&records));
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
                || json(got),
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
    let occupied = oracle_occupied(domain, &input.params, &records);
    let oracle_positives: Vec<Hex> = non_members
        .iter()
        .filter(|x| oracle_maybe(domain, &input.params, &occupied, x))
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
            v.holds("different snapshots", x != y, || json(&x));
        }
    }
    if let Some(answers) = v.answer("lookup", subject.lookup(&params, &b, &a)) {
        v.holds(
            "every record is a duplicate of the reordered snapshot",
            answers.iter().all(|t| t.duplicate) == expect.records_are_duplicates,
            || json(&answers),
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
                    bloomproof_wire::encode_hex(&x.packed_bits),
                    bloomproof_wire::encode_hex(&y.packed_bits)
                )
            },
        );
    }
    if let Some(answers) = v.answer("lookup", subject.lookup(&params, &extended, &base)) {
        v.holds(
            "every base record passes maybe_present in the extension",
            answers.iter().all(|t| t.maybe_present) == expect.base_records_maybe_present,
            || json(&answers),
        );
    }
}

fn typed_rejection(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    call: &TypedCall,
    expect: &ContractExpect,
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
            // The field is compared only where the case states it (an interop check).
            match (&expect.field, field) {
                (None, _) => {}
                (Some(want), Some(field)) => {
                    v.eq("field named by the error", want, &field);
                }
                (Some(want), None) => v.fail(
                    "field named by the error",
                    json(want),
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
            match &expect.field {
                Some(field) => format!("a {want} error naming {field}"),
                None => format!("a {want} error"),
            },
            format!("accepted: {}", json(&answer)),
        ),
    }
}

/// The oracle's lookup of `item` in the snapshot of `records`.
fn oracle_triple(
    domain: &str,
    params: &DocParams,
    occupied: &BTreeSet<u32>,
    documents: &BTreeSet<&Vec<u8>>,
    item: &Vec<u8>,
) -> Triple {
    let maybe = oracle_maybe(domain, params, occupied, item);
    Triple {
        maybe_present: maybe,
        exact_checked: maybe,
        duplicate: maybe && documents.contains(item),
    }
}
