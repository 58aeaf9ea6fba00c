//! The tuned path of the doc-membership family: the same positions as the plain functions of
//! the parent module, computed the way the filter needs them fast.
//!
//! * [`FramedItem`] frames and pads an item once on the stack (one or two SHA-256
//!   blocks) and hashes it for each index with `sha2::block_api::compress256` on the
//!   ready blocks: no hasher, no buffering, no framing again between indices.
//! * [`Framing`] lays out once what the parameters fix in every message (the domain,
//!   m, k and the seed), for loops over many items: a build frames each record by
//!   copying that head and writing the record's own bytes.
//! * The digest, taken as the SHA-256 state words, is reduced mod m with per-m
//!   constants computed at compile time (`Reducer`): a few multiplications, no
//!   division.
//!
//! The tests below and `tests/properties.rs` hold this path equal to the plain one
//! (and to the oracle) for every m, k, seed length and item length.

use core::fmt;
use sha2::block_api::compress256;

use super::{BoundError, CEILINGS, DocFamily, Params, Positions};

/// The SHA-256 initial hash value (FIPS 180-4, section 5.3.3).
pub const SHA256_INITIAL_STATE: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// Precomputed constants that reduce a 256-bit digest mod one `m` with 64-bit
/// arithmetic only.
///
/// The digest is eight big-endian 32-bit words `W[0..8]`, its value
/// `sum(W[j] * 2^(32*(7-j)))`. With `weight[j] = 2^(32*(7-j)) mod m` (below 512),
/// `S = sum(W[j] * weight[j])` is congruent to the digest and below `2^44`: eight
/// independent 64-bit multiplications. One Lemire fast remainder finishes
/// (`f = ceil(2^64 / m) * S mod 2^64`, then the high half of `f * m`, exact for
/// numerators below `2^(64 - 10)` when m is at most 512). No division, and one
/// 128-bit product instead of the four a reduction by 64-bit limbs takes.
#[derive(Clone, Copy)]
struct Reducer {
    /// `2^(32*(7-j)) mod m` for word j (the last word's weight is 1).
    weights: [u64; 8],
    /// `ceil(2^64 / m)`.
    reciprocal: u64,
}

/// `2^bits mod m`, for m of at least 2 (every allowed m is at least 8).
const fn pow2_mod(bits: u32, m: u64) -> u64 {
    let mut r = 1;
    let mut i = 0;
    while i < bits {
        r = r * 2 % m;
        i += 1;
    }
    r
}

const fn reducer(m: u16) -> Reducer {
    let m = m as u64;
    let mut weights = [0; 8];
    let mut j = 0;
    while j < 8 {
        weights[j] = pow2_mod(32 * (7 - j as u32), m);
        j += 1;
    }
    Reducer {
        weights,
        reciprocal: u64::MAX / m + 1,
    }
}

/// The smallest m any version may allow.
const M_FLOOR: u32 = CEILINGS.m[0];
/// The largest m any version may allow.
const M_CEILING: u32 = CEILINGS.m[1];

/// One [`Reducer`] per `m` up to the family's ceiling (entries below [`M_FLOOR`] are
/// never read).
static REDUCERS: [Reducer; M_CEILING as usize + 1] = {
    let mut table = [reducer(M_FLOOR as u16); M_CEILING as usize + 1];
    let mut m = M_FLOOR as usize;
    while m <= M_CEILING as usize {
        table[m] = reducer(m as u16);
        m += 1;
    }
    table
};

impl Reducer {
    #[inline(always)]
    fn reduce(&self, words: &[u32; 8], m: u16) -> u16 {
        let mut sum = 0u64;
        for (&word, weight) in words.iter().zip(self.weights) {
            sum += u64::from(word) * weight;
        }
        let fraction = self.reciprocal.wrapping_mul(sum);
        ((u128::from(fraction) * u128::from(m)) >> 64) as u16
    }
}

/// An item framed and padded once into SHA-256 blocks on the stack, ready to hash for
/// any hash index without framing again.
///
/// The message is at most [`MESSAGE_CEILING`](super::MESSAGE_CEILING) (119) bytes (v1's at most 105),
/// so with SHA-256 padding it fills one block (messages up to 55 bytes) or two. Only the hash-index byte differs
/// between the `k` messages of an item, and it sits in the first block after the seed,
/// so no compression can be shared between indices: each position costs exactly one
/// or two calls of the block function, with no hasher buffering around them.
///
/// Between indices only the 16-byte lane of the first block that holds the index
/// byte is rewritten, with one 16-byte store: the block function reads its input in
/// 16-byte lanes, so it gets the new lane straight from the store buffer instead of
/// waiting for a one-byte store to reach the cache (a store-forwarding stall).
#[derive(Clone)]
pub struct FramedItem {
    blocks: [[u8; 64]; 2],
    block_count: usize,
    /// Offset of the 16-byte lane holding the index byte.
    lane_at: usize,
    /// That lane with index 0.
    lane: [u8; 16],
    /// 0xff at the index byte's place in the lane, zero elsewhere.
    mask: [u8; 16],
    /// The index the blocks currently hold.
    index: u8,
    m: u16,
    reducer: &'static Reducer,
}

impl fmt::Debug for FramedItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FramedItem")
            .field("block_count", &self.block_count)
            .field("index", &self.index)
            .field("m", &self.m)
            .finish_non_exhaustive()
    }
}

/// One-hot lane masks: `LANE_MASKS[j]` has 0xff at byte `j`.
const LANE_MASKS: [[u8; 16]; 16] = {
    let mut masks = [[0u8; 16]; 16];
    let mut j = 0;
    while j < 16 {
        masks[j][j] = 0xff;
        j += 1;
    }
    masks
};

/// Offset of the hash-index byte in every message under `params`: after the domain,
/// m, k, len(seed) and the seed.
#[inline(always)]
fn index_at(params: &Params) -> usize {
    params.family.domain.len() + 4 + usize::from(params.seed_len)
}

/// Writes what `params` fix into the first block (zeroed by the caller): the domain
/// (from the version's template), m, k, len(seed) and the seed, zeros after it.
#[inline(always)]
fn head_into(first: &mut [u8; 64], params: &Params) {
    let domain = params.family.domain.len();
    *first = params.family.template;
    let [m_high, m_low] = params.m.to_be_bytes();
    first[domain..domain + 4].copy_from_slice(&[m_high, m_low, params.k, params.seed_len]);
    // The whole seed buffer: its bytes past the seed are zero, and the index, length
    // and item overwrite them.
    first[domain + 4..domain + 20].copy_from_slice(&params.seed);
}

/// Writes hash index 0, the item's length, the item and the padding after a head
/// whose index byte is at `index_at` (the blocks past the head zeroed by the caller);
/// returns the number of blocks.
#[inline(always)]
fn item_into(blocks: &mut [[u8; 64]; 2], index_at: usize, item: &[u8]) -> usize {
    let item_at = index_at + 3;
    let len = item_at + item.len();
    // The two blocks as one run of 128 bytes: the item is copied once, whichever
    // block it ends in.
    let bytes = blocks.as_flattened_mut();
    let [len_high, len_low] = (item.len() as u16).to_be_bytes();
    bytes[index_at..item_at].copy_from_slice(&[0, len_high, len_low]);
    bytes[item_at..len].copy_from_slice(item);
    // Padding: 0x80 right after the message, the bit length in the last 8 bytes.
    bytes[len] = 0x80;
    let block_count = if len + 9 <= 64 { 1 } else { 2 };
    let end = block_count * 64;
    bytes[end - 8..end].copy_from_slice(&(len as u64 * 8).to_be_bytes());
    block_count
}

/// What the parameters of a filter fix in every message, laid out once: the first
/// block's head (the domain, m, k, len(seed), the seed) and where the hash index goes.
///
/// [`FramedItem::with`] lays the head out again for every item; a loop over many
/// items under the same parameters (a build, a batch, a snapshot's verification)
/// makes a `Framing` once and frames each item with [`Framing::with`], which copies
/// the ready head and writes only the item's own bytes. The head never fills a block
/// (at most 32 + 4 + 16 bytes before the index byte), so no compression of it can be
/// shared between items.
#[derive(Clone, Copy)]
pub struct Framing {
    /// The first block of every message: the head, zeros after it.
    head: [u8; 64],
    /// Offset of the hash-index byte.
    index_at: usize,
    family: &'static DocFamily,
    m: u16,
    k: u8,
}

impl fmt::Debug for Framing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Framing")
            .field("index_at", &self.index_at)
            .field("m", &self.m)
            .field("k", &self.k)
            .finish_non_exhaustive()
    }
}

impl Framing {
    /// The head of every message under `params`.
    #[inline]
    pub fn new(params: &Params) -> Self {
        let mut head = [0; 64];
        head_into(&mut head, params);
        Framing {
            head,
            index_at: index_at(params),
            family: params.family,
            m: params.m,
            k: params.k,
        }
    }

    /// Frames and pads `item` after the ready head on this stack frame and runs `f`
    /// with it, as [`FramedItem::with`] does under the same parameters; errors only
    /// for an item over the version's bound.
    #[inline(always)]
    pub fn with<R>(
        &self,
        item: &[u8],
        f: impl FnOnce(&mut FramedItem) -> R,
    ) -> Result<R, BoundError> {
        self.family.check_item(item)?;
        let mut framed = FramedItem::of(self.index_at, self.m);
        framed.blocks[0] = self.head;
        framed.frame(self.index_at, item);
        Ok(f(&mut framed))
    }

    /// All `k` positions of `item`, in hash-index order, as [`positions`] gives them.
    #[inline]
    pub fn positions(&self, item: &[u8]) -> Result<Positions, BoundError> {
        self.with(item, |framed| framed.positions(self.k))
    }
}

impl FramedItem {
    /// Frames and pads `item` under `params`; errors only for an item over the version's bound.
    ///
    /// In a hot loop prefer [`FramedItem::with`], which frames in place, or
    /// [`Framing::with`] for many items under the same parameters.
    #[inline]
    pub fn new(params: &Params, item: &[u8]) -> Result<Self, BoundError> {
        Self::with(params, item, |framed| framed.clone())
    }

    /// Frames and pads `item` under `params` on this stack frame and runs `f` with it;
    /// errors only for an item over the version's bound.
    #[inline(always)]
    pub fn with<R>(
        params: &Params,
        item: &[u8],
        f: impl FnOnce(&mut FramedItem) -> R,
    ) -> Result<R, BoundError> {
        params.family.check_item(item)?;
        let index_at = index_at(params);
        let mut framed = FramedItem::of(index_at, params.m);
        head_into(&mut framed.blocks[0], params);
        framed.frame(index_at, item);
        Ok(f(&mut framed))
    }

    /// Zeroed blocks whose index byte will be at `index_at`, under `m`: the head is
    /// written into them next, then `FramedItem::frame` writes the item (both in
    /// place, so that the blocks are not copied again).
    #[inline(always)]
    fn of(index_at: usize, m: u16) -> Self {
        FramedItem {
            blocks: [[0; 64]; 2],
            block_count: 0,
            lane_at: index_at & !15,
            lane: [0; 16],
            mask: LANE_MASKS[index_at & 15],
            index: 0,
            m,
            reducer: &REDUCERS[usize::from(m)],
        }
    }

    /// Writes `item` after the head (hash index 0) and keeps its index lane.
    #[inline(always)]
    fn frame(&mut self, index_at: usize, item: &[u8]) {
        self.block_count = item_into(&mut self.blocks, index_at, item);
        let at = self.lane_at;
        self.lane.copy_from_slice(&self.blocks[0][at..at + 16]);
    }

    /// The positions of hash indices `0..k`, in order.
    #[inline(always)]
    fn positions(&mut self, k: u8) -> Positions {
        let mut out = Positions {
            buf: [0; CEILINGS.k[1] as usize],
            len: usize::from(k),
        };
        for (index, slot) in (0..k).zip(&mut out.buf) {
            *slot = self.position(index);
        }
        out
    }

    /// Number of SHA-256 blocks of each message (1 or 2).
    pub fn block_count(&self) -> usize {
        self.block_count
    }

    /// The padded blocks of the message for hash index `index`.
    #[inline(always)]
    pub fn blocks(&mut self, index: u8) -> &[[u8; 64]] {
        if self.index != index {
            let mut lane = self.lane;
            for (byte, mask) in lane.iter_mut().zip(self.mask) {
                *byte |= mask & index;
            }
            // The lane's offset is a multiple of 16 below 64 (the index byte is at
            // most at 52): the mask, a no-op, tells the compiler so, and no bounds
            // check runs per index.
            let at = self.lane_at & 0x30;
            self.blocks[0][at..at + 16].copy_from_slice(&lane);
            self.index = index;
        }
        &self.blocks[..self.block_count]
    }

    /// The SHA-256 state after the last block for hash index `index`: the digest as
    /// eight big-endian words.
    #[inline(always)]
    pub fn state(&mut self, index: u8) -> [u32; 8] {
        let mut state = SHA256_INITIAL_STATE;
        compress256(&mut state, self.blocks(index));
        state
    }

    /// Position for hash index `index`.
    #[inline(always)]
    pub fn position(&mut self, index: u8) -> u16 {
        let state = self.state(index);
        self.reduce(&state)
    }

    /// A digest given as its state words (from [`FramedItem::state`]) reduced mod m:
    /// the position, as [`reduce`](super::reduce) computes it from the digest bytes.
    #[inline(always)]
    pub fn reduce(&self, state: &[u32; 8]) -> u16 {
        self.reducer.reduce(state, self.m)
    }
}

/// All `k` positions of `item`, in hash-index order: the same values as
/// [`positions`](super::positions), the item framed once.
#[inline]
pub fn positions(params: &Params, item: &[u8]) -> Result<Positions, BoundError> {
    FramedItem::with(params, item, |framed| framed.positions(params.k))
}

#[cfg(test)]
mod tests {
    use super::super::{digest, message, reduce};
    use super::*;
    use crate::doc_membership_v1::{ITEM_MAX, M_MAX, M_MIN, SEED_MAX};

    /// A deterministic pseudo-random 32 bytes (xorshift64*).
    fn pseudo_bytes(state: &mut u64) -> [u8; 32] {
        let mut out = [0u8; 32];
        for chunk in out.chunks_exact_mut(8) {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            chunk.copy_from_slice(&state.wrapping_mul(0x2545_f491_4f6c_dd1d).to_be_bytes());
        }
        out
    }

    fn words_of(digest: &[u8; 32]) -> [u32; 8] {
        let mut words = [0u32; 8];
        for (word, chunk) in words.iter_mut().zip(digest.chunks_exact(4)) {
            *word = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        words
    }

    #[test]
    fn table_reduction_equals_the_plain_one_for_every_m() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        let mut digests = vec![[0u8; 32], [0xff; 32]];
        // One bit set in each limb and each half-limb, to reach every weight alone.
        for byte in [0, 3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23, 24, 27, 28, 31] {
            let mut one = [0u8; 32];
            one[byte] = 0x80;
            digests.push(one);
        }
        digests.extend((0..64).map(|_| pseudo_bytes(&mut state)));
        for m in M_MIN as u16..=M_MAX as u16 {
            for digest in &digests {
                assert_eq!(
                    REDUCERS[usize::from(m)].reduce(&words_of(digest), m),
                    reduce(digest, m),
                    "m = {m}"
                );
            }
        }
    }

    /// Every seed length and every item length (one block up to 55 message bytes, two
    /// from 56, with the padding's 0x80 in the first or the second block), every index,
    /// and indices taken out of order.
    #[test]
    fn framed_items_hash_like_the_plain_path() {
        let mut state = 0x0123_4567_89ab_cdef;
        for seed_len in 0..=SEED_MAX {
            for item_len in 0..=ITEM_MAX {
                let bytes = pseudo_bytes(&mut state);
                let seed: Vec<u8> = bytes.iter().cycle().take(seed_len).copied().collect();
                let item: Vec<u8> = bytes.iter().rev().cycle().take(item_len).copied().collect();
                let m = 8 + (item_len as u64 * 7 + seed_len as u64 * 31) % 505;
                let params = Params::new(m, 8, &seed).unwrap();
                let mut framed = FramedItem::new(&params, &item).unwrap();
                let len = message(&params, 0, &item).unwrap().as_bytes().len();
                assert_eq!(framed.block_count(), if len <= 55 { 1 } else { 2 });
                let want = super::super::positions(&params, &item).unwrap();
                assert_eq!(positions(&params, &item).unwrap(), want);
                let framing = Framing::new(&params);
                assert_eq!(framing.positions(&item).unwrap(), want);
                let mut reframed = framing.with(&item, |framed| framed.clone()).unwrap();
                assert_eq!(reframed.block_count(), framed.block_count());
                for index in [0, 1, 2, 3, 4, 5, 6, 7, 3, 0, 7] {
                    let plain = digest(&params, index, &item).unwrap();
                    let what = format!("seed {seed_len} item {item_len} index {index}");
                    assert_eq!(framed.state(index), words_of(&plain), "{what}");
                    assert_eq!(framed.position(index), reduce(&plain, params.m()), "{what}");
                    assert_eq!(reframed.state(index), words_of(&plain), "{what}");
                }
            }
        }
    }

    /// Domains of other lengths (none, v1's 18 bytes, the 32-byte ceiling) move every
    /// field after them: the framed blocks still hash like the plain path.
    #[test]
    fn other_domains_hash_like_the_plain_path() {
        use super::super::{Bounds, DocFamily};
        const BOUNDS: Bounds = Bounds {
            m: [2, 512],
            k: [0, 8],
            seed_max: 16,
            item_max: 64,
            records_max: 64,
        };
        static EMPTY: DocFamily = DocFamily::new("empty", b"", BOUNDS);
        static V2: DocFamily = DocFamily::new("v2", b"doc-membership-v2\0", BOUNDS);
        static LONG: DocFamily = DocFamily::new("long", &[0xa5; 32], BOUNDS);
        let mut state = 0x0bad_5eed_0bad_5eed;
        for family in [&EMPTY, &V2, &LONG] {
            for seed_len in [0, 1, 15, 16] {
                for item_len in [0, 1, 20, 36, 55, 64] {
                    let bytes = pseudo_bytes(&mut state);
                    let seed: Vec<u8> = bytes.iter().cycle().take(seed_len).copied().collect();
                    let item: Vec<u8> =
                        bytes.iter().rev().cycle().take(item_len).copied().collect();
                    let params =
                        Params::of(family, 2 + (item_len as u64 * 13) % 511, 8, &seed).unwrap();
                    let mut framed = FramedItem::new(&params, &item).unwrap();
                    let mut reframed = Framing::new(&params)
                        .with(&item, |framed| framed.clone())
                        .unwrap();
                    for index in [0, 5, 7, 1] {
                        let plain = digest(&params, index, &item).unwrap();
                        let what = format!(
                            "{} seed {seed_len} item {item_len} index {index}",
                            family.name()
                        );
                        assert_eq!(framed.state(index), words_of(&plain), "{what}");
                        assert_eq!(framed.position(index), reduce(&plain, params.m()), "{what}");
                        assert_eq!(reframed.state(index), words_of(&plain), "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn items_over_64_bytes_are_refused() {
        let params = Params::new(16, 3, b"").unwrap();
        assert!(FramedItem::new(&params, &[0; 65]).is_err());
        assert!(positions(&params, &[0; 65]).is_err());
        assert!(positions(&params, &[0; 64]).is_ok());
        let framing = Framing::new(&params);
        assert_eq!(
            framing.positions(&[0; 65]).unwrap_err(),
            positions(&params, &[0; 65]).unwrap_err()
        );
        assert!(framing.with(&[0; 65], |_| ()).is_err());
    }

    /// One framing frames many items in turn: nothing of an earlier (longer or
    /// shorter) item is left in a later one's blocks.
    #[test]
    fn a_framing_reused_across_items_hashes_each_alone() {
        let params = Params::new(509, 8, b"seed-sixteen-byt").unwrap();
        let framing = Framing::new(&params);
        for item_len in [64, 0, 13, 64, 1, 40, 12, 64] {
            let item = vec![0xa5u8; item_len];
            assert_eq!(
                framing.positions(&item).unwrap(),
                super::super::positions(&params, &item).unwrap(),
                "item of {item_len} bytes"
            );
        }
    }
}
