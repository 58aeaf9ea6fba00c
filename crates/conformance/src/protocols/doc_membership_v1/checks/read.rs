//! Snapshots given as their parts: reading and verifying them (`read`), and the seed's
//! shared-bit fault shown to the reader (`shared_bit_fault`).

use super::{
    bit, bytes, diagnose, narrow, oracle_occupied, oracle_triple, raw, text, triple_matches,
};
use crate::model::{DocParams, ErrorKindName, Hex};
use crate::protocols::doc_membership_v1::hooks::Seen;
use crate::subject::SubjectError;
use crate::verdict::{Verdict, json};
use bloomproof_adapter::protocols::doc_membership_v1::DocSubject;
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_wire::protocols::doc_membership_v1::{BuildInput, ReadExpect, ReadInput};
use std::collections::BTreeSet;

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
pub(super) fn shared_bit_fault(
    domain: &str,
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &BuildInput,
    expect: &bloomproof_wire::protocols::doc_membership_v1::FaultExpect,
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
        .map(|r| oracle::position_set(domain, narrow(p.m), narrow(p.k), &p.seed_hex.0, r))
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
        diagnose(domain, v, subject, &params, &records);
    }
    let Some(built) = v.answer("build", subject.build(&params, &records)) else {
        return seen(removed_item, cleared_bit, damaged_member);
    };
    v.holds(
        "the shared bit is set before the fault",
        bit(&built.packed_bits, cleared),
        || bloomproof_wire::encode_hex(&built.packed_bits),
    );
    if expect.without_reader {
        return without_reader(
            v,
            subject,
            (&params, &records),
            &built.packed_bits,
            (&sets, i, j, cleared),
            expect,
        );
    }
    if let Some(answers) = v.answer(
        "read the intact snapshot",
        subject.read(&params, &records, &built.packed_bits, &records),
    ) {
        v.holds(
            "every member passes maybe_present in the intact snapshot, read back",
            answers.len() == records.len() && answers.iter().all(|t| t.maybe_present),
            || json(&answers),
        );
    }
    let damaged_bits = without_bit(&built.packed_bits, cleared);
    let remaining: Vec<Vec<u8>> = records.iter().filter(|r| **r != removed).cloned().collect();
    // `cleared` is a position of both members by construction (`first_shared`), so the
    // damaged member's positions always include it: nothing to judge there. What the
    // implementation can get wrong is the pair, the bit and the reader's refusal.
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
                    json(&field),
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
                "accepted, answering {} (a reader that accepts it answers false negatives)",
                json(&answers)
            ),
        ),
    }
    seen(removed_item, cleared_bit, damaged_member)
}

/// The packed bits with the bit at `position` cleared, every other bit as it was (the
/// fault both forms of the check make); a position past the bits changes nothing.
fn without_bit(packed: &[u8], position: u32) -> Vec<u8> {
    let mut bits = packed.to_vec();
    if let Some(byte) = bits.get_mut((position / 8) as usize) {
        *byte &= !(1 << (position % 8));
    }
    bits
}

/// The seed's own form of the fault (its check 10), with no reader: every member is
/// `maybe_present` in the intact snapshot (the implementation's lookup); in a copy of the
/// implementation's packed bits with the shared bit cleared, the pair's second member,
/// by the implementation's own positions, is no longer `maybe_present`: a false
/// negative, the damage the seed demonstrates.
fn without_reader(
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    (params, records): (
        &bloomproof_adapter::protocols::doc_membership_v1::RawParams,
        &[Vec<u8>],
    ),
    packed: &[u8],
    (sets, i, j, cleared): (&[BTreeSet<u32>], usize, usize, u32),
    expect: &bloomproof_wire::protocols::doc_membership_v1::FaultExpect,
) -> Seen<'static> {
    if let Some(answers) = v.answer(
        "look every member up in the intact snapshot",
        subject.lookup(params, records, records),
    ) {
        v.holds(
            "every member passes maybe_present in the intact snapshot",
            answers.len() == records.len() && answers.iter().all(|t| t.maybe_present),
            || json(&answers),
        );
    }
    let damaged_bits = without_bit(packed, cleared);
    let maybe_present = |bits: &[u8], set: &BTreeSet<u32>| set.iter().all(|&q| bit(bits, q));
    v.holds(
        "before the fault, the second member's positions are all set in the implementation's bits",
        maybe_present(packed, &sets[j]),
        || json(&sets[j]),
    );
    let damaged = records[j].clone();
    // The seed's demonstration, shown as it runs it: `cleared` is a position of both
    // members (`first_shared`), so clearing it always makes this false negative; what
    // an implementation can get wrong here is judged above and by the damaged member.
    v.holds(
        "with the shared bit cleared, the second member fails maybe_present (a false negative)",
        !maybe_present(&damaged_bits, &sets[j]),
        || {
            format!(
                "positions {} in {}",
                json(&sets[j]),
                bloomproof_wire::encode_hex(&damaged_bits)
            )
        },
    );
    v.eq("damaged member", &expect.damaged_hex, &Hex(damaged.clone()));
    Seen::Fault {
        removed: Some(records[i].clone()),
        cleared: Some(cleared),
        damaged: Some(damaged),
    }
}

/// The runner's own verdict on reading these parts: `Ok` or the field to name.
fn expected_read(
    domain: &str,
    p: &DocParams,
    records: &[Vec<u8>],
    packed: &[u8],
) -> Result<(), String> {
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
        oracle::positions(domain, m, k, &p.seed_hex.0, r)
            .iter()
            .any(|&q| !bit(packed, q))
    }) {
        return Err(format!("records[{index}]"));
    }
    if bloomproof_wire::encode_hex(packed)
        != oracle::packed_hex(&oracle_occupied(domain, p, records), m)
    {
        return Err("packed_bits".into());
    }
    Ok(())
}

pub(super) fn read(
    domain: &str,
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &ReadInput,
    expect: &ReadExpect,
) {
    let p = &input.params;
    let records = bytes(&input.records_hex);
    let items = bytes(&input.items_hex);
    let packed = &input.packed_hex.0;
    let runner = expected_read(domain, p, &records, packed);
    let spec = match &expect.rejected {
        Some(rejection) => Err(rejection.field.clone()),
        None => Ok(()),
    };
    v.eq("the runner's verdict agrees with the spec", &spec, &runner);
    let occupied = oracle_occupied(domain, p, &records);
    let documents: BTreeSet<&Vec<u8>> = records.iter().collect();
    match (
        subject.read(&raw(p), &records, packed, &items),
        &expect.rejected,
    ) {
        (Ok(answers), None) => {
            if v.eq("one result per item", &items.len(), &answers.len()) {
                for ((item, want), got) in items.iter().zip(&expect.results).zip(&answers) {
                    if !triple_matches(want, got) {
                        v.fail(format!("lookup({})", text(item)), json(want), json(got));
                    }
                    if !v.eq(
                        &format!("lookup({}) equals the oracle's", text(item)),
                        &oracle_triple(domain, p, &occupied, &documents, item),
                        got,
                    ) {
                        diagnose(
                            domain,
                            v,
                            subject,
                            &raw(p),
                            std::iter::once(item).chain(&records),
                        );
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
            format!(
                "a {} error naming {}",
                rejection.error.as_str(),
                rejection.field
            ),
            format!("accepted, answering {}", json(&answers)),
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
                    format!(
                        "a {} error naming {}",
                        rejection.error.as_str(),
                        rejection.field
                    )
                }
                None => "an answer per item".to_string(),
            },
            err.to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: the published snapshot d291 less bit 4 (the seed's cleared bit) is c291;
    /// bit 15 is the last byte's high bit; a position past the bits changes nothing.
    #[test]
    fn without_bit_clears_that_bit_alone() {
        assert_eq!(without_bit(&[0xd2, 0x91], 4), [0xc2, 0x91]);
        assert_eq!(without_bit(&[0xd2, 0x91], 15), [0xd2, 0x11]);
        assert_eq!(without_bit(&[0xd2, 0x91], 5), [0xd2, 0x91]);
        assert_eq!(without_bit(&[0xd2, 0x91], 16), [0xd2, 0x91]);
    }
}
