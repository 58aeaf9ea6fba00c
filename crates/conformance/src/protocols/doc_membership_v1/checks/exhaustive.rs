//! Every subset of a base set under several profiles, against the oracle's position sets.

use super::{bytes, diagnose, narrow, raw, text};
use crate::model::DocParams;
use crate::verdict::{Verdict, json};
use bloomproof_adapter::protocols::doc_membership_v1::DocSubject;
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_wire::protocols::doc_membership_v1::Triple;
use std::collections::BTreeSet;

/// The oracle's position set of each item under one profile, computed once per item:
/// a subset's bits are the union of its records' sets and a lookup's `maybe_present`
/// is whether the query's set is a subset of them, exactly as
/// [`oracle::occupied`] and [`oracle::maybe_present`] define them, without asking the
/// oracle again for an item it has already hashed.
struct PositionMemo<'p> {
    domain: &'p str,
    profile: &'p DocParams,
    sets: std::collections::HashMap<Vec<u8>, BTreeSet<u32>>,
}

impl<'p> PositionMemo<'p> {
    fn new(domain: &'p str, profile: &'p DocParams) -> Self {
        PositionMemo {
            domain,
            profile,
            sets: std::collections::HashMap::new(),
        }
    }

    fn set(&mut self, item: &[u8]) -> &BTreeSet<u32> {
        let (domain, p) = (self.domain, self.profile);
        self.sets.entry(item.to_vec()).or_insert_with(|| {
            oracle::position_set(domain, narrow(p.m), narrow(p.k), &p.seed_hex.0, item)
        })
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

pub(super) fn exhaustive(
    domain: &str,
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &bloomproof_wire::protocols::doc_membership_v1::ExhaustiveInput,
    expect: &bloomproof_wire::protocols::doc_membership_v1::ExhaustiveExpect,
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
        let mut memo = PositionMemo::new(domain, profile);
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
                let expected_bits =
                    bloomproof_wire::decode_hex(&oracle::packed_hex(&occupied, narrow(profile.m)))
                        .unwrap_or_default();
                let built = v.answer("build", built)?;
                snapshots += 1;
                if built.packed_bits != expected_bits && mismatches < 20 {
                    mismatches += 1;
                    v.fail(
                        format!("bits of subset {mask:#06x} under {}", json(profile)),
                        bloomproof_wire::encode_hex(&expected_bits),
                        bloomproof_wire::encode_hex(&built.packed_bits),
                    );
                    diagnose(domain, v, subject, &params, subset);
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
                                "lookup({}) in subset {mask:#06x} under {}",
                                text(query),
                                json(profile)
                            ),
                            json(&want),
                            json(got),
                        );
                        diagnose(
                            domain,
                            v,
                            subject,
                            &params,
                            std::iter::once(query).chain(subset),
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
    }
    v.eq("snapshots compared", &expect.snapshots, &snapshots);
    v.eq("queries compared", &expect.queries, &compared);
    Some((snapshots, compared))
}
