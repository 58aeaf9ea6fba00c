//! `doc-membership-v1/snapshots`: snapshots and lookups, compared with the oracle.

use super::{
    MS, SNAPSHOT_SEED, SNAPSHOT_SWEEP, io, item_flags, item64, params_flags, seed16, sweep_bytes,
    sweep_k, sweep_len, sweep_m,
};
use crate::prng::SplitMix64;
use crate::{Figures, FlagSet, hand_picked};
use bloomproof_filter::DocumentPrefilter;
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_protocol::doc_membership_v1 as protocol;
use bloomproof_wire::protocols::doc_membership_v1::Triple;
use bloomproof_wire::protocols::doc_membership_v1::{DocLookup, DocSnapshotCase};
use bloomproof_wire::{DocParams, Hex, encode_hex};
use std::collections::BTreeSet;

/// One snapshot case: production snapshot and lookups, each compared with the oracle.
/// Lookups: every distinct record (first-occurrence order), then `queries` that are
/// not already listed.
fn snapshot_case(
    id: String,
    mut case_flags: FlagSet,
    m: u32,
    k: u32,
    seed: &[u8],
    records: &[Vec<u8>],
    queries: &[Vec<u8>],
) -> Result<DocSnapshotCase, String> {
    let snapshot =
        DocumentPrefilter::new(records, m.into(), k.into(), seed).map_err(|e| io(&id, e))?;
    let packed = snapshot.packed_bits();
    let occupied = oracle::occupied(oracle::DOMAIN_HEX, records, m, k, seed);
    let oracle_packed = oracle::packed_hex(&occupied, m);
    if encode_hex(&packed) != oracle_packed {
        return Err(io(
            &id,
            format!(
                "packed bits differ: production {}, oracle {oracle_packed}",
                encode_hex(&packed)
            ),
        ));
    }
    if snapshot.bits_set() as usize != occupied.len() {
        return Err(io(
            &id,
            format!(
                "bits set differ: production {}, oracle {}",
                snapshot.bits_set(),
                occupied.len()
            ),
        ));
    }
    // The exact set, computed here independently of the filter crate.
    let distinct: BTreeSet<&[u8]> = records.iter().map(Vec::as_slice).collect();
    let production: BTreeSet<&[u8]> = snapshot.documents().iter().collect();
    if production != distinct {
        return Err(io(
            &id,
            "the document set differs from the distinct records",
        ));
    }
    let mut listed: Vec<&[u8]> = Vec::new();
    for item in records.iter().chain(queries) {
        if !listed.contains(&item.as_slice()) {
            listed.push(item);
        }
    }
    params_flags(&mut case_flags, m, k, seed);
    case_flags.set("empty-snapshot", records.is_empty());
    case_flags.set("max-records", records.len() == protocol::RECORDS_MAX);
    let mut lookups = Vec::new();
    for item in listed {
        let got = snapshot.lookup(item).map_err(|e| io(&id, e))?;
        let maybe = oracle::maybe_present(oracle::DOMAIN_HEX, &occupied, m, k, seed, item);
        let member = distinct.contains(item);
        let want = (maybe, maybe, maybe && member);
        if (got.maybe_present, got.exact_checked, got.duplicate) != want {
            return Err(io(
                &id,
                format!(
                    "lookup of {} differs: production {got:?}, oracle {want:?}",
                    encode_hex(item)
                ),
            ));
        }
        let mut flags = FlagSet::default();
        flags.set("member", member);
        flags.set("non-member", !member);
        flags.set(
            "repeated-record",
            records.iter().filter(|r| r.as_slice() == item).count() > 1,
        );
        flags.set("false-positive", !member && maybe);
        item_flags(&mut flags, item);
        let flags = flags.into_vec();
        case_flags.extend(&flags)?;
        lookups.push(DocLookup {
            item_hex: Hex(item.to_vec()),
            flags,
            expect: Triple {
                maybe_present: got.maybe_present,
                exact_checked: got.exact_checked,
                duplicate: got.duplicate,
            },
        });
    }
    for record in records {
        item_flags(&mut case_flags, record);
    }
    Ok(DocSnapshotCase {
        id,
        flags: case_flags.into_vec(),
        params: DocParams {
            m: m.into(),
            k: k.into(),
            seed_hex: Hex(seed.to_vec()),
        },
        records_hex: records.iter().map(|r| Hex(r.clone())).collect(),
        packed_hex: Hex(packed),
        bits_set: snapshot.bits_set(),
        documents: snapshot.documents().len(),
        lookups,
    })
}

/// Checks the figures a hand-picked snapshot states (`expect` in the data file).
fn reproduces(
    case: &DocSnapshotCase,
    expect: &bloomproof_wire::hand_picked::doc::SnapshotExpect,
) -> Result<(), String> {
    let false_positives = case
        .lookups
        .iter()
        .filter(|lookup| lookup.flags.iter().any(|flag| flag == "false-positive"))
        .count();
    let published = hand_picked::published()?;
    let mut figures = Figures::default();
    figures.compare_figure(
        "packed_hex",
        &published,
        expect.packed_hex.as_ref(),
        &case.packed_hex,
    );
    figures.compare_figure(
        "bits_set",
        &published,
        expect.bits_set.as_ref(),
        &case.bits_set,
    );
    figures.compare_figure(
        "documents",
        &published,
        expect.documents.as_ref(),
        &case.documents,
    );
    figures.compare_figure(
        "false positives",
        &published,
        expect.false_positives.as_ref(),
        &false_positives,
    );
    figures
        .verdict(hand_picked::PATH)
        .map_err(|err| io(&case.id, err))
}

fn texts(items: &[&str]) -> Vec<Vec<u8>> {
    items.iter().map(|s| s.as_bytes().to_vec()).collect()
}

pub(crate) fn snapshots() -> Result<Vec<DocSnapshotCase>, String> {
    let mut cases = Vec::new();
    for case in hand_picked::read()?.snapshots {
        let hand_picked::Params { m, k, seed } = case.params;
        let flags = FlagSet::given(&case.flags).map_err(|err| io(&case.id, err))?;
        let built = snapshot_case(case.id, flags, m, k, &seed, &case.records, &case.queries)?;
        reproduces(&built, &case.expect)?;
        cases.push(built);
    }
    let boundary = ["boundary"];
    let grid_records = vec![
        Vec::new(),
        item64(),
        b"a".to_vec(),
        vec![0x00],
        vec![0xff; 64],
    ];
    let grid_queries = vec![
        b"b".to_vec(),
        vec![0x00, 0x00],
        vec![0xff; 63],
        b"A".to_vec(),
        vec![b'a'; 64],
        item64()[..63].to_vec(),
    ];
    for (n, m) in MS.into_iter().enumerate() {
        for k in [protocol::K_MIN, protocol::K_MAX] {
            let seed = if n % 2 == 0 { Vec::new() } else { seed16() };
            cases.push(snapshot_case(
                format!("boundary/m{m}-k{k}-seed{}", seed.len()),
                FlagSet::new(&boundary),
                m,
                k,
                &seed,
                &grid_records,
                &grid_queries,
            )?);
        }
    }
    cases.push(snapshot_case(
        "boundary/one-record-64-times-m64-k3".into(),
        FlagSet::new(&boundary),
        64,
        3,
        b"dup",
        &vec![b"dup".to_vec(); 64],
        &texts(&["dupe", "du", "DUP"]),
    )?);
    let saturating: Vec<Vec<u8>> = (0..64).map(|i| format!("r{i}").into_bytes()).collect();
    cases.push(snapshot_case(
        "boundary/saturated-m8-k8".into(),
        FlagSet::new(&boundary),
        8,
        8,
        b"",
        &saturating,
        &texts(&["r64", "x", ""]),
    )?);
    let mut rng = SplitMix64::new(SNAPSHOT_SEED);
    for n in 0..SNAPSHOT_SWEEP {
        let m = sweep_m(&mut rng);
        let k = sweep_k(&mut rng);
        let seed_len = sweep_len(&mut rng, protocol::SEED_MAX);
        let seed = sweep_bytes(&mut rng, seed_len);
        let count = match rng.below(10) {
            0..=4 => rng.range_usize(0, 8),
            5..=7 => rng.range_usize(9, 32),
            _ => rng.range_usize(33, protocol::RECORDS_MAX),
        };
        let mut records: Vec<Vec<u8>> = Vec::with_capacity(count);
        for _ in 0..count {
            if !records.is_empty() && rng.chance(15) {
                let again = rng.pick(&records).cloned().unwrap_or_default();
                records.push(again);
            } else {
                records.push(snapshot_item(&mut rng));
            }
        }
        let mut queries: Vec<Vec<u8>> = (0..4).map(|_| snapshot_item(&mut rng)).collect();
        for _ in 0..2 {
            if let Some(member) = rng.pick(&records).cloned() {
                queries.push(mutate(&mut rng, member));
            }
        }
        cases.push(snapshot_case(
            format!("sweep/{n:04}"),
            FlagSet::new(&["sweep"]),
            m,
            k,
            &seed,
            &records,
            &queries,
        )?);
    }
    Ok(cases)
}

/// A record or query for the snapshot sweep: mostly short, sometimes up to 64 bytes.
fn snapshot_item(rng: &mut SplitMix64) -> Vec<u8> {
    let len = match rng.below(10) {
        0..=4 => rng.range_usize(0, 6),
        5..=8 => rng.range_usize(0, 32),
        _ => rng.range_usize(33, protocol::ITEM_MAX),
    };
    sweep_bytes(rng, len)
}

/// A near miss of a member: one bit flipped, one byte dropped or one byte added.
fn mutate(rng: &mut SplitMix64, mut item: Vec<u8>) -> Vec<u8> {
    match (rng.below(3), item.is_empty()) {
        (0, false) => {
            let at = rng.range_usize(0, item.len() - 1);
            item[at] ^= 1 << rng.below(8);
        }
        (1, false) => {
            item.pop();
        }
        _ if item.len() < protocol::ITEM_MAX => item.push(rng.next_u64() as u8),
        _ => item[0] ^= 0x01,
    }
    item
}
