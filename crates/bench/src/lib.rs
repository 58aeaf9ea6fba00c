//! Inputs and floors shared by the benchmarks of `cargo xtask bench`.
//!
//! Everything here is deterministic, so the criterion benchmarks, the probe binary and
//! the Node timing script measure the same work on the same inputs:
//!
//! * [`DocVariant`]: the `doc-membership-v1` lookup variants of issue 7, with their
//!   member records, non-member queries, and the **floor**: the same messages framed
//!   and padded by hand, once, into SHA-256 blocks ([`padded_blocks`]), so the floor
//!   is nothing but the block function on ready blocks.
//! * [`max_snapshot_records`]: the 64-record maximum snapshot of the seed's check 14.
//! * [`fnv_strings`]: 256-unit UTF-16 strings (surrogates included) for
//!   `fnv1a-utf16-v1`, [`fnv_floor`], one XOR and one multiply per unit, and
//!   [`fnv_floor_chained`], the same as one dependent chain through every string.

use bloomproof_filter::DocumentPrefilter;
use bloomproof_protocol::doc_membership_v1::{self as doc, Params};
use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
use sha2::block_api::compress256;

/// Number of member lookups (and of non-member lookups) one benchmark iteration does.
pub const LOOKUPS_PER_ITER: usize = 64;

/// One `doc-membership-v1` lookup variant: k, item length and seed length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocVariant {
    /// Number of hash indices.
    pub k: u8,
    /// Length of each record and query, in bytes.
    pub item_len: usize,
    /// Length of the seed, in bytes.
    pub seed_len: usize,
}

/// The four lookup variants of issue 7: k = 3 and k = 8, each with a 6-byte item and a
/// 3-byte seed (one SHA-256 block per message) and with a 64-byte item and a 16-byte
/// seed (two blocks per message).
pub const DOC_VARIANTS: [DocVariant; 4] = [
    DocVariant {
        k: 3,
        item_len: 6,
        seed_len: 3,
    },
    DocVariant {
        k: 3,
        item_len: 64,
        seed_len: 16,
    },
    DocVariant {
        k: 8,
        item_len: 6,
        seed_len: 3,
    },
    DocVariant {
        k: 8,
        item_len: 64,
        seed_len: 16,
    },
];

/// The number of bits of every lookup variant's snapshot (the protocol maximum).
pub const DOC_M: u64 = 512;

impl DocVariant {
    /// A short name for benchmark ids: `k3_item6_seed3`.
    pub fn name(&self) -> String {
        format!("k{}_item{}_seed{}", self.k, self.item_len, self.seed_len)
    }

    /// The seed: `seed_len` bytes of `s`.
    pub fn seed(&self) -> Vec<u8> {
        vec![b's'; self.seed_len]
    }

    /// The parameters: m = 512, this k and seed.
    pub fn params(&self) -> Params {
        match Params::new(DOC_M, u64::from(self.k), &self.seed()) {
            Ok(params) => params,
            Err(err) => unreachable!("the variants are within bounds: {err}"),
        }
    }

    /// The 64 member records: distinct pseudo-random bytes of `item_len` each.
    pub fn members(&self) -> Vec<Vec<u8>> {
        pseudo_items(0x6d65_6d62, LOOKUPS_PER_ITER, self.item_len)
    }

    /// 64 pseudo-random queries that are not members.
    pub fn non_members(&self) -> Vec<Vec<u8>> {
        let members = self.members();
        pseudo_items(0x6e6f_6e6d, LOOKUPS_PER_ITER * 2, self.item_len)
            .into_iter()
            .filter(|item| !members.contains(item))
            .take(LOOKUPS_PER_ITER)
            .collect()
    }

    /// The snapshot of the 64 members.
    pub fn snapshot(&self) -> DocumentPrefilter {
        match DocumentPrefilter::with_params(self.params(), &self.members()) {
            Ok(snapshot) => snapshot,
            Err(err) => unreachable!("the members are within bounds: {err}"),
        }
    }
}

/// `count` distinct pseudo-random items of `len` bytes (xorshift64*, then de-duplicated
/// by a counter in the first bytes).
pub fn pseudo_items(seed: u64, count: usize, len: usize) -> Vec<Vec<u8>> {
    let mut state = seed | 1;
    (0..count)
        .map(|n| {
            let mut item: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
                })
                .collect();
            for (byte, counter) in item.iter_mut().zip((n as u32).to_be_bytes()) {
                *byte ^= counter;
            }
            item
        })
        .collect()
}

/// The framed message of `index` and `item`, padded by hand (FIPS 180-4, 5.1.1) into
/// SHA-256 blocks: the exact input of the block function, built once, outside any
/// timing.
pub fn padded_blocks(params: &Params, index: u8, item: &[u8]) -> Vec<[u8; 64]> {
    let mut bytes = match doc::message(params, index, item) {
        Ok(message) => message.as_bytes().to_vec(),
        Err(err) => unreachable!("benchmark items are within bounds: {err}"),
    };
    let bit_len = (bytes.len() as u64) * 8;
    bytes.push(0x80);
    while bytes.len() % 64 != 56 {
        bytes.push(0);
    }
    bytes.extend_from_slice(&bit_len.to_be_bytes());
    bytes
        .chunks_exact(64)
        .map(|chunk| {
            let mut block = [0u8; 64];
            block.copy_from_slice(chunk);
            block
        })
        .collect()
}

/// The padded blocks of all `k` messages of each item, in item then index order.
pub fn all_padded_blocks(params: &Params, items: &[Vec<u8>]) -> Vec<Vec<[u8; 64]>> {
    items
        .iter()
        .flat_map(|item| (0..params.k()).map(move |index| padded_blocks(params, index, item)))
        .collect()
}

/// The padded blocks a non-member lookup cannot avoid: its messages up to and
/// including the first hash index whose bit is clear (all `k` for a false positive).
pub fn non_member_padded_blocks(
    snapshot: &DocumentPrefilter,
    items: &[Vec<u8>],
) -> Vec<Vec<[u8; 64]>> {
    let params = *snapshot.params();
    let mut messages = Vec::new();
    for item in items {
        for index in 0..params.k() {
            messages.push(padded_blocks(&params, index, item));
            let position = doc::position(&params, index, item).unwrap_or(0);
            if !snapshot.bit(position) {
                break;
            }
        }
    }
    messages
}

/// Batch sizes of the batch benchmark: doubling up to 256 (where all cores start to pay
/// against one core: `BATCH_PARALLEL_MIN`), then two large ones.
pub const BATCH_SIZES: [usize; 6] = [32, 64, 128, 256, 4096, 65536];

/// `len` queries against the maximum snapshot: `len / 2` pseudo-random 64-byte
/// non-members, then the 64 records over and over up to `len` (the costly queries,
/// k compressions each, all in the second half).
pub fn batch_queries(len: usize) -> Vec<Vec<u8>> {
    let mut queries = pseudo_items(0x6261_7463, len / 2, 64);
    let records = max_snapshot_records();
    queries.extend(records.iter().cycle().take(len - len / 2).cloned());
    queries
}

/// The SHA-256 floor: one fresh state and the block function over each message's
/// ready blocks, nothing else. Returns the XOR of the first digest words so the work
/// cannot be skipped.
#[inline]
pub fn sha256_floor(messages: &[Vec<[u8; 64]>]) -> u32 {
    let mut acc = 0;
    for blocks in messages {
        let mut state = doc::fast::SHA256_INITIAL_STATE;
        compress256(&mut state, core::hint::black_box(blocks));
        acc ^= state[0];
    }
    acc
}

/// The 64 records of the maximum snapshot (seed check 14): record i is 64 copies of
/// byte i.
pub fn max_snapshot_records() -> Vec<Vec<u8>> {
    (0..64u8).map(|i| vec![i; 64]).collect()
}

/// The parameters of the maximum snapshot: m = 512, k = 8, seed = 16 x `s`.
pub fn max_snapshot_params() -> Params {
    match Params::new(512, 8, &[b's'; 16]) {
        Ok(params) => params,
        Err(err) => unreachable!("the maximum snapshot is within bounds: {err}"),
    }
}

/// Number of strings of the fnv benchmark.
pub const FNV_STRINGS: usize = 64;
/// Code units per fnv string.
pub const FNV_UNITS: usize = 256;
/// m of the fnv benchmark (not a power of two, so the remainder is a real division).
pub const FNV_M: u64 = 1000;
/// k of the fnv benchmark.
pub const FNV_K: u64 = 7;

/// The fnv benchmark's parameters.
pub fn fnv_params() -> fnv::Params {
    match fnv::Params::new(FNV_M, FNV_K) {
        Ok(params) => params,
        Err(err) => unreachable!("the fnv benchmark is within bounds: {err}"),
    }
}

/// [`FNV_STRINGS`] strings of [`FNV_UNITS`] UTF-16 code units each, any unit value
/// (surrogates included), from xorshift32.
pub fn fnv_strings() -> Vec<Vec<u16>> {
    let mut state: u32 = 0x2545_f491;
    (0..FNV_STRINGS)
        .map(|_| {
            (0..FNV_UNITS)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    (state >> 16) as u16
                })
                .collect()
        })
        .collect()
}

/// The latency floor of FNV-1a: one dependent chain of one XOR and one multiply per
/// unit (what `h1` alone needs; `h2` runs beside it on an independent chain).
#[inline]
pub fn fnv_floor(units: &[u16]) -> u32 {
    let mut h = fnv::BASIS_H1;
    for &unit in units {
        h = (h ^ u32::from(unit)).wrapping_mul(fnv::PRIME);
    }
    h
}

/// The latency of FNV-1a's dependent chain over every unit of `strings`: one XOR and one
/// multiply per unit, each string's chain starting from where the previous string's
/// ended, so that no unit's step can overlap another's. Per unit, this is the latency
/// floor `fnv_ns_per_unit_vs_floor` divides by. ([`fnv_floor`] runs one chain per
/// string, and the processor overlaps the end of one string's chain with the start of
/// the next: that loop is faster than the latency.)
#[inline]
pub fn fnv_floor_chained(strings: &[Vec<u16>]) -> u32 {
    let mut h = fnv::BASIS_H1;
    for units in strings {
        for &unit in units {
            h = (h ^ u32::from(unit)).wrapping_mul(fnv::PRIME);
        }
    }
    h
}

/// The sum of every position of every fnv string: the JavaScript timing script must
/// reproduce it, which proves both sides computed the same positions.
pub fn fnv_checksum(strings: &[Vec<u16>]) -> u64 {
    let params = fnv_params();
    strings
        .iter()
        .map(|units| {
            let (hashes, positions) = fnv::hashes_and_positions(&params, units);
            u64::from(hashes.h1)
                + u64::from(hashes.h2)
                + positions
                    .as_slice()
                    .iter()
                    .map(|&p| u64::from(p))
                    .sum::<u64>()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_blocks_hash_to_the_protocol_digest() {
        for variant in DOC_VARIANTS {
            let params = variant.params();
            for item in variant.members().iter().take(4) {
                for index in 0..params.k() {
                    let blocks = padded_blocks(&params, index, item);
                    assert_eq!(blocks.len(), if variant.item_len == 6 { 1 } else { 2 });
                    let mut state = doc::fast::SHA256_INITIAL_STATE;
                    compress256(&mut state, &blocks);
                    let digest = doc::digest(&params, index, item).unwrap();
                    let words: Vec<u8> = state.iter().flat_map(|w| w.to_be_bytes()).collect();
                    assert_eq!(words, digest);
                }
            }
        }
    }

    #[test]
    fn variants_have_64_members_and_64_non_members() {
        for variant in DOC_VARIANTS {
            let snapshot = variant.snapshot();
            assert_eq!(snapshot.documents().len(), LOOKUPS_PER_ITER);
            let non_members = variant.non_members();
            assert_eq!(non_members.len(), LOOKUPS_PER_ITER);
            assert!(
                non_members
                    .iter()
                    .all(|x| !snapshot.lookup(x).unwrap().duplicate)
            );
        }
    }

    #[test]
    fn batch_queries_are_half_members() {
        let snapshot =
            DocumentPrefilter::with_params(max_snapshot_params(), &max_snapshot_records()).unwrap();
        for len in BATCH_SIZES {
            let queries = batch_queries(len);
            assert_eq!(queries.len(), len);
            let members = queries
                .iter()
                .filter(|q| snapshot.lookup(q).unwrap().duplicate)
                .count();
            assert_eq!(members, len / 2);
        }
    }

    #[test]
    fn fnv_floor_is_h1() {
        for units in fnv_strings().iter().take(4) {
            assert_eq!(fnv_floor(units), fnv::base_hashes(units).h1);
        }
    }

    #[test]
    fn the_chained_floor_is_h1_of_every_string_one_after_the_other() {
        let strings = fnv_strings();
        let joined: Vec<u16> = strings.iter().flatten().copied().collect();
        assert_eq!(fnv_floor_chained(&strings), fnv::base_hashes(&joined).h1);
        assert_eq!(
            fnv_floor_chained(&strings[..1]),
            fnv::base_hashes(&strings[0]).h1
        );
    }
}
