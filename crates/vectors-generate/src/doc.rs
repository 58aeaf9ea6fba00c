//! `doc-membership-v1` vectors: positions, snapshots, rejections.
//!
//! Values come from `bloomproof-protocol` and `bloomproof-filter`; each is compared with
//! `bloomproof-oracle` (its own SHA-256, hex-text framing, digit-by-digit reduction)
//! before it is kept.

use super::{FlagSet, has_repeat, param_flags};
use crate::hand_picked;
use crate::prng::SplitMix64;
use bloomproof_filter::dynamic;
use bloomproof_filter::{DocumentPrefilter, ErrorKind};
use bloomproof_format::vectors::{
    DocHash, DocLookup, DocPositionCase, DocRejectionCase, DocSnapshotCase,
};
use bloomproof_format::{DocParams, ErrorKindName, Hex, RejectExpect, TypedValue, encode_hex};
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_protocol::doc_membership_v1::{self as protocol, Params};
use std::collections::BTreeSet;

/// The m values every boundary grid covers.
const MS: [u32; 14] = [8, 9, 15, 16, 17, 31, 63, 64, 65, 100, 255, 256, 511, 512];
/// Sweep sizes.
const POSITION_SWEEP: usize = 2000;
const SNAPSHOT_SWEEP: usize = 300;
const REJECTION_SWEEP: usize = 300;
/// Fixed PRNG seeds, one per file.
const POSITION_SEED: u64 = 0x646f_632d_706f_7331; // "doc-pos1"
const SNAPSHOT_SEED: u64 = 0x646f_632d_736e_6131; // "doc-sna1"
const REJECTION_SEED: u64 = 0x646f_632d_7265_6a31; // "doc-rej1"

/// A 16-byte seed with every byte distinct.
fn seed16() -> Vec<u8> {
    (0..16u8).map(|i| 0xf0 ^ i.wrapping_mul(7)).collect()
}

/// A 64-byte item with varied bytes.
fn item64() -> Vec<u8> {
    (0..64u8)
        .map(|i| i.wrapping_mul(37).wrapping_add(5))
        .collect()
}

fn io(id: &str, what: impl std::fmt::Display) -> String {
    format!("vectors/doc-membership-v1: case `{id}`: {what}")
}

fn item_flags(flags: &mut FlagSet, item: &[u8]) {
    flags.set("empty-item", item.is_empty());
    flags.set("max-item", item.len() == protocol::ITEM_MAX);
}

fn params_flags(flags: &mut FlagSet, m: u32, k: u32, seed: &[u8]) {
    param_flags(
        flags,
        (m, protocol::M_MIN, protocol::M_MAX),
        (k, protocol::K_MIN, protocol::K_MAX),
    );
    flags.set("empty-seed", seed.is_empty());
    flags.set("max-seed", seed.len() == protocol::SEED_MAX);
}

// ---------------------------------------------------------------------------------
// Positions

/// One position case: production stages, each compared with the oracle.
fn position_case(
    id: String,
    extra: &[&'static str],
    m: u32,
    k: u32,
    seed: &[u8],
    item: &[u8],
) -> Result<DocPositionCase, String> {
    let params = Params::new(m.into(), k.into(), seed).map_err(|e| io(&id, e))?;
    let mut hashes = Vec::new();
    for index in 0..params.k() {
        let message = protocol::message(&params, index, item).map_err(|e| io(&id, e))?;
        let digest = protocol::digest(&params, index, item).map_err(|e| io(&id, e))?;
        let position = protocol::reduce(&digest, params.m());
        let message_hex = encode_hex(message.as_bytes());
        let oracle_message = oracle::message_hex(m, k, seed, index.into(), item);
        if message_hex != oracle_message {
            return Err(io(
                &id,
                format!(
                    "hash {index}: message differs: production {message_hex}, oracle {oracle_message}"
                ),
            ));
        }
        let digest_hex = encode_hex(&digest);
        let oracle_digest = oracle::digest_hex(m, k, seed, index.into(), item);
        if digest_hex != oracle_digest {
            return Err(io(
                &id,
                format!(
                    "hash {index}: digest differs: production {digest_hex}, oracle {oracle_digest}"
                ),
            ));
        }
        let oracle_position = oracle::reduce_hex(&oracle_digest, m).map_err(|e| io(&id, e))?;
        if u32::from(position) != oracle_position {
            return Err(io(
                &id,
                format!(
                    "hash {index}: position differs: production {position}, oracle {oracle_position}"
                ),
            ));
        }
        hashes.push(DocHash {
            index,
            message_hex: Hex(message.as_bytes().to_vec()),
            digest_hex: Hex(digest.to_vec()),
            position,
        });
    }
    let positions = protocol::positions(&params, item)
        .map_err(|e| io(&id, e))?
        .as_slice()
        .to_vec();
    let staged: Vec<u16> = hashes.iter().map(|h| h.position).collect();
    let oracle_positions = oracle::positions(m, k, seed, item);
    let widened: Vec<u32> = positions.iter().map(|&p| u32::from(p)).collect();
    if positions != staged || widened != oracle_positions {
        return Err(io(
            &id,
            format!(
                "positions differ: production {positions:?}, per hash {staged:?}, oracle {oracle_positions:?}"
            ),
        ));
    }
    let mut flags = FlagSet::new(extra);
    params_flags(&mut flags, m, k, seed);
    item_flags(&mut flags, item);
    flags.set("repeated-position", has_repeat(&positions));
    Ok(DocPositionCase {
        id,
        flags: flags.into_vec(),
        params: DocParams {
            m: m.into(),
            k: k.into(),
            seed_hex: Hex(seed.to_vec()),
        },
        item_hex: Hex(item.to_vec()),
        hashes,
        positions,
    })
}

/// A sweep length: the bounds more often than their share, else uniform.
fn sweep_len(rng: &mut SplitMix64, max: usize) -> usize {
    match rng.below(20) {
        0..=2 => 0,
        3..=5 => max,
        _ => rng.range_usize(0, max),
    }
}

/// Sweep bytes: uniform, or from a small alphabet (repeats and structure), or one
/// repeated byte.
fn sweep_bytes(rng: &mut SplitMix64, len: usize) -> Vec<u8> {
    match rng.below(4) {
        0 => {
            let alphabet = [0x00, 0xff, b'a', 0x80];
            (0..len)
                .map(|_| rng.pick(&alphabet).copied().unwrap_or(0))
                .collect()
        }
        1 => vec![rng.next_u64() as u8; len],
        _ => rng.bytes(len),
    }
}

fn sweep_m(rng: &mut SplitMix64) -> u32 {
    if rng.chance(25) {
        rng.pick(&MS).copied().unwrap_or(protocol::M_MIN)
    } else {
        rng.range(protocol::M_MIN.into(), protocol::M_MAX.into()) as u32
    }
}

fn sweep_k(rng: &mut SplitMix64) -> u32 {
    rng.range(protocol::K_MIN.into(), protocol::K_MAX.into()) as u32
}

/// Every position case: published examples, boundary grids, then the sweep.
pub(super) fn positions() -> Result<Vec<DocPositionCase>, String> {
    let mut cases = Vec::new();
    let published = ["published"];
    cases.push(position_case(
        "published/m9-k2-seed-S-item-0041".into(),
        &published,
        9,
        2,
        b"S",
        b"\x00A",
    )?);
    for n in 0..5 {
        let item = format!("doc-0{n}");
        cases.push(position_case(
            format!("published/m16-k3-seed-lab-{item}"),
            &published,
            16,
            3,
            b"lab",
            item.as_bytes(),
        )?);
    }
    cases.push(position_case(
        "published/framing-seed-a-item-bc".into(),
        &published,
        16,
        3,
        b"a",
        b"bc",
    )?);
    cases.push(position_case(
        "published/framing-seed-ab-item-c".into(),
        &published,
        16,
        3,
        b"ab",
        b"c",
    )?);
    let boundary = ["boundary"];
    for m in MS {
        for k in [protocol::K_MIN, protocol::K_MAX] {
            for seed in [Vec::new(), seed16()] {
                for item in [Vec::new(), item64()] {
                    cases.push(position_case(
                        format!("boundary/m{m}-k{k}-seed{}-item{}", seed.len(), item.len()),
                        &boundary,
                        m,
                        k,
                        &seed,
                        &item,
                    )?);
                }
            }
        }
    }
    for m in [8, 9, 512] {
        for k in 2..protocol::K_MAX {
            cases.push(position_case(
                format!("boundary/m{m}-k{k}-seed-lab-doc-00"),
                &boundary,
                m,
                k,
                b"lab",
                b"doc-00",
            )?);
        }
    }
    let seeds: [(&str, Vec<u8>); 3] = [
        ("seed00x16", vec![0x00; 16]),
        ("seedffx16", vec![0xff; 16]),
        ("seed00", vec![0x00]),
    ];
    let items: [(&str, Vec<u8>); 10] = [
        ("item00", vec![0x00]),
        ("itemff", vec![0xff]),
        ("item80", vec![0x80]),
        ("item0000", vec![0x00, 0x00]),
        ("item00x64", vec![0x00; 64]),
        ("itemffx64", vec![0xff; 64]),
        ("item-abc", b"abc".to_vec()),
        ("item-e-acute-composed", "\u{e9}".as_bytes().to_vec()),
        ("item-e-acute-decomposed", "e\u{301}".as_bytes().to_vec()),
        ("item-nul-a", b"\x00a".to_vec()),
    ];
    for (seed_name, seed) in &seeds {
        for (item_name, item) in &items {
            cases.push(position_case(
                format!("boundary/bytes-{seed_name}-{item_name}"),
                &boundary,
                255,
                8,
                seed,
                item,
            )?);
        }
    }
    for seed_len in [1usize, 15] {
        for item_len in [1usize, 2, 15, 16, 17, 31, 32, 33, 63] {
            let seed: Vec<u8> = (0..seed_len)
                .map(|i| (i as u8).wrapping_add(0x30))
                .collect();
            let item: Vec<u8> = (0..item_len).map(|i| (i as u8).wrapping_mul(11)).collect();
            cases.push(position_case(
                format!("boundary/lengths-seed{seed_len}-item{item_len}"),
                &boundary,
                100,
                4,
                &seed,
                &item,
            )?);
        }
    }
    let mut rng = SplitMix64::new(POSITION_SEED);
    for n in 0..POSITION_SWEEP {
        let m = sweep_m(&mut rng);
        let k = sweep_k(&mut rng);
        let seed_len = sweep_len(&mut rng, protocol::SEED_MAX);
        let seed = sweep_bytes(&mut rng, seed_len);
        let item_len = sweep_len(&mut rng, protocol::ITEM_MAX);
        let item = sweep_bytes(&mut rng, item_len);
        cases.push(position_case(
            format!("sweep/{n:04}"),
            &["sweep"],
            m,
            k,
            &seed,
            &item,
        )?);
    }
    Ok(cases)
}

// ---------------------------------------------------------------------------------
// Snapshots

/// One snapshot case: production snapshot and lookups, each compared with the oracle.
/// Lookups: every distinct record (first-occurrence order), then `queries` that are
/// not already listed.
fn snapshot_case(
    id: String,
    extra: &[&'static str],
    m: u32,
    k: u32,
    seed: &[u8],
    records: &[Vec<u8>],
    queries: &[Vec<u8>],
) -> Result<DocSnapshotCase, String> {
    let snapshot =
        DocumentPrefilter::new(records, m.into(), k.into(), seed).map_err(|e| io(&id, e))?;
    let packed = snapshot.packed_bits();
    let occupied = oracle::occupied(records, m, k, seed);
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
    let mut case_flags = FlagSet::new(extra);
    params_flags(&mut case_flags, m, k, seed);
    case_flags.set("empty-snapshot", records.is_empty());
    case_flags.set("max-records", records.len() == protocol::RECORDS_MAX);
    let mut lookups = Vec::new();
    for item in listed {
        let got = snapshot.lookup(item).map_err(|e| io(&id, e))?;
        let maybe = oracle::maybe_present(&occupied, m, k, seed, item);
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
            maybe_present: got.maybe_present,
            exact_checked: got.exact_checked,
            duplicate: got.duplicate,
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

fn texts(items: &[&str]) -> Vec<Vec<u8>> {
    items.iter().map(|s| s.as_bytes().to_vec()).collect()
}

/// Every snapshot case.
pub(super) fn snapshots() -> Result<Vec<DocSnapshotCase>, String> {
    let mut cases = Vec::new();
    let published = ["published"];
    let universe: Vec<Vec<u8>> = (0..64)
        .map(|i| format!("doc-{i:02}").into_bytes())
        .collect();
    let figures = snapshot_case(
        "published/seed-figures-m16-k3-lab".into(),
        &published,
        16,
        3,
        b"lab",
        &universe[..4],
        &universe[4..],
    )?;
    // The source document's own figures: 7 bits, d291, 5 false positives.
    let false_positives = figures
        .lookups
        .iter()
        .filter(|l| l.flags.iter().any(|f| f == "false-positive"))
        .count();
    if figures.packed_hex.to_hex() != "d291" || figures.bits_set != 7 || false_positives != 5 {
        return Err(io(&figures.id, "does not reproduce the published figures"));
    }
    cases.push(figures);
    let mut reordered: Vec<Vec<u8>> = universe[..4].iter().rev().cloned().collect();
    reordered.extend_from_slice(&universe[..4]);
    let reordered = snapshot_case(
        "published/reversed-and-repeated-m16-k3-lab".into(),
        &published,
        16,
        3,
        b"lab",
        &reordered,
        &universe[4..8],
    )?;
    if reordered.packed_hex.to_hex() != "d291" || reordered.documents != 4 {
        return Err(io(&reordered.id, "order or repeats changed the snapshot"));
    }
    cases.push(reordered);
    cases.push(snapshot_case(
        "published/extension-m16-k3-lab".into(),
        &published,
        16,
        3,
        b"lab",
        &universe[..8],
        &universe[8..12],
    )?);
    cases.push(snapshot_case(
        "published/raw-forms-m32-k3-raw".into(),
        &published,
        32,
        3,
        b"raw",
        &[Vec::new(), vec![0x00], "\u{e9}".as_bytes().to_vec()],
        &["e\u{301}".as_bytes().to_vec(), vec![0x00, 0x00]],
    )?);
    cases.push(snapshot_case(
        "published/framing-packing-m9-k2-S".into(),
        &published,
        9,
        2,
        b"S",
        &[b"\x00A".to_vec()],
        &[b"A".to_vec(), Vec::new()],
    )?);
    let max_records: Vec<Vec<u8>> = (0..64u8).map(|i| vec![i; 64]).collect();
    cases.push(snapshot_case(
        "published/maximum-bounds-m512-k8".into(),
        &published,
        512,
        8,
        &[b's'; 16],
        &max_records,
        &[vec![64; 64], vec![0; 63], Vec::new()],
    )?);
    let boundary = ["boundary"];
    let probes = texts(&["", "a", "b", "doc-00"]);
    cases.push(snapshot_case(
        "boundary/empty-snapshot-m16-k3-lab".into(),
        &boundary,
        16,
        3,
        b"lab",
        &[],
        &probes,
    )?);
    cases.push(snapshot_case(
        "boundary/empty-snapshot-m8-k1".into(),
        &boundary,
        8,
        1,
        b"",
        &[],
        &probes,
    )?);
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
                &boundary,
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
        &boundary,
        64,
        3,
        b"dup",
        &vec![b"dup".to_vec(); 64],
        &texts(&["dupe", "du", "DUP"]),
    )?);
    let saturating: Vec<Vec<u8>> = (0..64).map(|i| format!("r{i}").into_bytes()).collect();
    cases.push(snapshot_case(
        "boundary/saturated-m8-k8".into(),
        &boundary,
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
            &["sweep"],
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

// ---------------------------------------------------------------------------------
// Rejections

/// The largest integer every JSON reader holds exactly (2^53 - 1).
const SAFE_INT: i64 = (1 << 53) - 1;

fn int(n: i64) -> TypedValue {
    TypedValue::Int(n)
}

fn bytes(b: &[u8]) -> TypedValue {
    TypedValue::Bytes(Hex(b.to_vec()))
}

fn tuple(items: Vec<TypedValue>) -> TypedValue {
    TypedValue::Tuple(items)
}

/// Every integer inside a typed value is within +-(2^53 - 1).
fn ints_are_safe(value: &TypedValue) -> bool {
    match value {
        TypedValue::Int(n) => (-SAFE_INT..=SAFE_INT).contains(n),
        TypedValue::Tuple(items) | TypedValue::List(items) => items.iter().all(ints_are_safe),
        _ => true,
    }
}

/// Whether an out-of-range integer (or length) lands in `low..=high` when truncated to
/// 8, 16 or 32 bits, as a careless implementation would.
fn truncation_trap(n: i128, low: u32, high: u32) -> bool {
    let range = i128::from(low)..=i128::from(high);
    !range.contains(&n)
        && [8u32, 16, 32]
            .iter()
            .any(|&bits| range.contains(&n.rem_euclid(1 << bits)))
}

/// Keeps a rejection built by construction (the inputs and the error the source
/// document's check order says they must give) only if production (`filter::dynamic`)
/// gives exactly that error; adds `type-error` or `value-error` and sorts the flags.
fn check(mut case: DocRejectionCase) -> Result<DocRejectionCase, String> {
    let DocRejectionCase {
        id,
        records,
        m,
        k,
        seed,
        item,
        expect: RejectExpect { error, field },
        ..
    } = &case;
    let error = *error;
    for value in [records, m, k, seed].into_iter().chain(item.as_ref()) {
        if !ints_are_safe(value) {
            return Err(io(id, "an integer is beyond 2^53 - 1 (a generator bug)"));
        }
    }
    let built = dynamic::build(
        &records.to_dynamic(),
        &m.to_dynamic(),
        &k.to_dynamic(),
        &seed.to_dynamic(),
    );
    let got = match (&item, built) {
        (None, Ok(_)) => return Err(io(id, "production accepted the construction")),
        (None, Err(err)) => err,
        (Some(_), Err(err)) => {
            return Err(io(
                id,
                format!("production rejected the construction, which must succeed: {err}"),
            ));
        }
        (Some(item), Ok(snapshot)) => match dynamic::lookup(&snapshot, &item.to_dynamic()) {
            Ok(_) => return Err(io(id, "production accepted the lookup")),
            Err(err) => err,
        },
    };
    let got_kind = match got.kind() {
        ErrorKind::Type => ErrorKindName::Type,
        ErrorKind::Value => ErrorKindName::Value,
    };
    if (got_kind, got.field()) != (error, field.as_str()) {
        return Err(io(
            id,
            format!(
                "production gives a {} error in {}, the construction rules a {} error in {field}",
                got_kind.as_str(),
                got.field(),
                error.as_str()
            ),
        ));
    }
    let mut flags = FlagSet::default();
    flags.extend(&case.flags).map_err(|err| io(id, err))?;
    flags.set("type-error", error == ErrorKindName::Type);
    flags.set("value-error", error == ErrorKindName::Value);
    case.flags = flags.into_vec();
    Ok(case)
}

/// A hand-picked rejection of `data/doc-membership-v1.hand-picked.json` with the flags
/// the generator derives ([`hand_picked::DERIVED`]).
fn hand_picked(mut r: DocRejectionCase) -> DocRejectionCase {
    let flags = &mut r.flags;
    flags.push("boundary".into());
    let records = match &r.records {
        TypedValue::Tuple(records) => Some(records.as_slice()),
        _ => None,
    };
    if records.is_some_and(|records| records.len() == protocol::RECORDS_MAX) {
        flags.push("max-records".into());
    }
    if records.is_some_and(<[TypedValue]>::is_empty) {
        flags.push("empty-snapshot".into());
    }
    if r.expect.error == ErrorKindName::Value {
        let field = r.expect.field.as_str();
        let record = field
            .strip_prefix("records[")
            .and_then(|rest| rest.strip_suffix(']'))
            .and_then(|index| index.parse::<usize>().ok())
            .and_then(|index| records?.get(index));
        let item_max = protocol::ITEM_MAX as u32;
        let faulted = match field {
            "m" => Some((&r.m, protocol::M_MIN, protocol::M_MAX)),
            "k" => Some((&r.k, protocol::K_MIN, protocol::K_MAX)),
            "seed" => Some((&r.seed, 0, protocol::SEED_MAX as u32)),
            "records" => Some((&r.records, 0, protocol::RECORDS_MAX as u32)),
            "item" => r.item.as_ref().map(|item| (item, 0, item_max)),
            _ => record.map(|record| (record, 0, item_max)),
        };
        let trap = faulted.is_some_and(|(value, low, high)| {
            size(value).is_some_and(|n| truncation_trap(n, low, high))
        });
        if trap {
            flags.push("truncation-trap".into());
        }
    }
    r
}

/// What a bound applies to: an integer's value, a byte string's or a tuple's length.
fn size(value: &TypedValue) -> Option<i128> {
    match value {
        TypedValue::Int(n) => Some(i128::from(*n)),
        TypedValue::Bytes(hex) => Some(hex.0.len() as i128),
        TypedValue::Tuple(items) => Some(items.len() as i128),
        _ => None,
    }
}

/// Every rejection case: the hand-picked ones, then the sweep.
pub(super) fn rejections() -> Result<Vec<DocRejectionCase>, String> {
    let mut out: Vec<DocRejectionCase> = hand_picked::rejections()?
        .into_iter()
        .map(hand_picked)
        .collect();

    // The sweep: a random valid base with one random fault, expected by construction.
    let mut rng = SplitMix64::new(REJECTION_SEED);
    for n in 0..REJECTION_SWEEP {
        out.push(sweep_rejection(&mut rng, format!("sweep/{n:04}")));
    }
    out.into_iter().map(check).collect()
}

fn random_bytes_value(rng: &mut SplitMix64, max: usize) -> TypedValue {
    let len = rng.range_usize(0, max);
    bytes(&rng.bytes(len))
}

/// A value of a wrong kind for a field that wants `want` (`int`, `bytes` or `tuple`).
fn wrong_kind(rng: &mut SplitMix64, want: &str) -> TypedValue {
    let text: String = (0..rng.range_usize(0, 8))
        .map(|_| char::from(b'a' + rng.below(26) as u8))
        .collect();
    let raw = rng.bytes_between(0, 8);
    loop {
        let candidate = match rng.below(9) {
            0 => TypedValue::Str(text.clone()),
            1 => TypedValue::Bytearray(Hex(raw.clone())),
            2 => TypedValue::Memoryview(Hex(raw.clone())),
            3 => int(rng.range(0, 600) as i64),
            4 => TypedValue::Bool(rng.chance(50)),
            5 => {
                TypedValue::Float(rng.range(0, 600) as f64 / if rng.chance(50) { 1.0 } else { 4.0 })
            }
            6 => tuple(vec![bytes(&raw)]),
            7 => TypedValue::List(vec![bytes(&raw)]),
            _ => bytes(&raw),
        };
        let kind = match candidate {
            TypedValue::Int(_) => "int",
            TypedValue::Bytes(_) => "bytes",
            TypedValue::Tuple(_) => "tuple",
            _ => "other",
        };
        if kind != want {
            return candidate;
        }
    }
}

/// An integer outside `low..=high`, sometimes one that truncates into range.
fn out_of_range(rng: &mut SplitMix64, low: u32, high: u32) -> i64 {
    loop {
        let valid = rng.range(low.into(), high.into()) as i64;
        let shift = [8, 16, 32][rng.below(3) as usize];
        let n = match rng.below(5) {
            0 => -(rng.range(1, 1 << 40) as i64),
            1 => rng.range(0, u64::from(low.saturating_sub(1))) as i64,
            2 => rng.range(u64::from(high) + 1, 1 << 40) as i64,
            3 => valid + (rng.range(1, 255) as i64) * (1i64 << shift),
            _ => rng.range(u64::from(high) + 1, u64::from(high) * 4) as i64,
        };
        if !(i64::from(low)..=i64::from(high)).contains(&n) {
            return n;
        }
    }
}

fn sweep_rejection(rng: &mut SplitMix64, id: String) -> DocRejectionCase {
    use ErrorKindName::{Type, Value as Val};
    let m = sweep_m(rng);
    let k = sweep_k(rng);
    let seed = random_bytes_value(rng, protocol::SEED_MAX);
    let records: Vec<TypedValue> = (0..rng.range_usize(0, 6))
        .map(|_| random_bytes_value(rng, 16))
        .collect();
    let type_fault = rng.chance(50);
    let mut r = DocRejectionCase {
        id,
        flags: vec!["sweep".into()],
        records: tuple(records.clone()),
        m: int(m.into()),
        k: int(k.into()),
        seed,
        item: None,
        expect: RejectExpect {
            error: if type_fault { Type } else { Val },
            field: String::new(),
        },
    };
    let mut trap = false;
    match rng.below(6) {
        0 => {
            r.expect.field = "m".into();
            r.m = if type_fault {
                wrong_kind(rng, "int")
            } else {
                let n = out_of_range(rng, protocol::M_MIN, protocol::M_MAX);
                trap = truncation_trap(n.into(), protocol::M_MIN, protocol::M_MAX);
                int(n)
            };
        }
        1 => {
            r.expect.field = "k".into();
            r.k = if type_fault {
                wrong_kind(rng, "int")
            } else {
                let n = out_of_range(rng, protocol::K_MIN, protocol::K_MAX);
                trap = truncation_trap(n.into(), protocol::K_MIN, protocol::K_MAX);
                int(n)
            };
        }
        2 => {
            r.expect.field = "seed".into();
            r.seed = if type_fault {
                wrong_kind(rng, "bytes")
            } else {
                bytes(&rng.bytes_between(protocol::SEED_MAX + 1, 32))
            };
        }
        3 => {
            r.expect.field = "records".into();
            r.records = if type_fault {
                match wrong_kind(rng, "tuple") {
                    TypedValue::List(_) => TypedValue::List(records),
                    other => other,
                }
            } else {
                let count = rng.range_usize(protocol::RECORDS_MAX + 1, 70);
                tuple((0..count).map(|_| random_bytes_value(rng, 4)).collect())
            };
        }
        4 => {
            let mut records = records;
            if records.is_empty() {
                records.push(bytes(b"a"));
            }
            let at = rng.range_usize(0, records.len() - 1);
            r.expect.field = format!("records[{at}]");
            records[at] = if type_fault {
                wrong_kind(rng, "bytes")
            } else {
                bytes(&rng.bytes_between(protocol::ITEM_MAX + 1, 80))
            };
            r.records = tuple(records);
        }
        _ => {
            r.expect.field = "item".into();
            r.item = Some(if type_fault {
                wrong_kind(rng, "bytes")
            } else {
                bytes(&rng.bytes_between(protocol::ITEM_MAX + 1, 80))
            });
        }
    }
    if trap {
        r.flags.push("truncation-trap".into());
    }
    r
}
