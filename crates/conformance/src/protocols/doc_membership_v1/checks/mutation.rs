//! The mutation attempts on a snapshot, judged by what it shows afterwards.

use super::{bytes, oracle_occupied, oracle_packed, oracle_triple, raw, text};
use crate::model::{DocParams, Hex};
use crate::verdict::Verdict;
use bloomproof_adapter::protocols::doc_membership_v1::{DocSubject, Observation};
use bloomproof_wire::protocols::doc_membership_v1::{MutationExpect, MutationInput};
use std::collections::BTreeSet;

/// The bits the runner expects a snapshot to show, the number of its documents and
/// its lookups of `probes`, all from the oracle.
fn oracle_observation(
    domain: &str,
    p: &DocParams,
    records: &[Vec<u8>],
    probes: &[Vec<u8>],
) -> Observation {
    let occupied = oracle_occupied(domain, p, records);
    let documents: BTreeSet<&Vec<u8>> = records.iter().collect();
    Observation {
        m: p.m,
        k: p.k,
        seed: p.seed_hex.0.clone(),
        packed_bits: oracle_packed(domain, p, records),
        documents: documents.len(),
        lookups: probes
            .iter()
            .map(|q| oracle_triple(domain, p, &occupied, &documents, q))
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
pub(super) fn immutable(
    domain: &str,
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
    let want = oracle_observation(domain, p, &records, &probes);
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
