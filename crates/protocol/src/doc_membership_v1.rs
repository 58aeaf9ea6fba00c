//! `doc-membership-v1`: SHA-256 over a length-framed message, positions `digest mod m`.
//!
//! For hash index `i` in `0..k` the message is (multi-byte integers big-endian):
//!
//! ```text
//! "doc-membership-v1" 0x00   18 bytes, the domain
//! m                           2 bytes
//! k                           1 byte
//! len(seed)                   1 byte
//! seed                        0..=16 bytes
//! i                           1 byte
//! len(item)                   2 bytes
//! item                        0..=64 bytes
//! ```
//!
//! and `position_i = int(SHA-256(message_i), big-endian) mod m`.

use core::fmt;
use sha2::block_api::compress256;
use sha2::{Digest, Sha256};

/// Protocol name, as used in spec files, vectors and reports.
pub const NAME: &str = "doc-membership-v1";
/// The domain that starts every message: the protocol name and one zero byte.
pub const DOMAIN: &[u8; 18] = b"doc-membership-v1\0";
/// Smallest allowed number of bits.
pub const M_MIN: u32 = 8;
/// Largest allowed number of bits.
pub const M_MAX: u32 = 512;
/// Smallest allowed number of hash indices.
pub const K_MIN: u32 = 1;
/// Largest allowed number of hash indices.
pub const K_MAX: u32 = 8;
/// Largest allowed seed, in bytes.
pub const SEED_MAX: usize = 16;
/// Largest allowed record or query, in bytes.
pub const ITEM_MAX: usize = 64;
/// Largest allowed number of records given to one snapshot (before de-duplication).
pub const RECORDS_MAX: usize = 64;
/// Longest possible framed message under the bounds above.
pub const MESSAGE_MAX: usize = DOMAIN.len() + 2 + 1 + 1 + SEED_MAX + 1 + 2 + ITEM_MAX;

/// Which input a bound applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The number of bits `m`.
    M,
    /// The number of hash indices `k`.
    K,
    /// The seed bytes.
    Seed,
    /// A record or a query item.
    Item,
}

impl Field {
    /// The field's name as the protocol documents spell it.
    pub fn name(self) -> &'static str {
        match self {
            Field::M => "m",
            Field::K => "k",
            Field::Seed => "seed",
            Field::Item => "item",
        }
    }
}

/// A value outside the protocol's bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundError {
    /// The input that was out of bounds.
    pub field: Field,
    /// The value that was given (a length for seed and item).
    pub given: u64,
    /// Smallest allowed value (or length).
    pub min: u64,
    /// Largest allowed value (or length).
    pub max: u64,
}

impl fmt::Display for BoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            Field::M | Field::K => write!(
                f,
                "{} = {} is out of bounds: must be an integer in {}..={}",
                self.field.name(),
                self.given,
                self.min,
                self.max
            ),
            Field::Seed | Field::Item => write!(
                f,
                "{} is {} bytes long: must be {}..={} bytes",
                self.field.name(),
                self.given,
                self.min,
                self.max
            ),
        }
    }
}

impl std::error::Error for BoundError {}

/// Validated parameters `(m, k, seed)`. Construction checks every bound.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Params {
    m: u16,
    k: u8,
    seed_len: u8,
    seed: [u8; SEED_MAX],
}

impl fmt::Debug for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Params")
            .field("m", &self.m)
            .field("k", &self.k)
            .field("seed", &self.seed())
            .finish()
    }
}

impl Params {
    /// Checks `m` in 8..=512, `k` in 1..=8 and a seed of at most 16 bytes.
    pub fn new(m: u64, k: u64, seed: &[u8]) -> Result<Self, BoundError> {
        let m = check_range(Field::M, m, M_MIN, M_MAX)?;
        let k = check_range(Field::K, k, K_MIN, K_MAX)?;
        let seed_len = check_len(Field::Seed, seed.len(), SEED_MAX)?;
        let mut buf = [0u8; SEED_MAX];
        buf[..seed.len()].copy_from_slice(seed);
        Ok(Params {
            m: m as u16,
            k: k as u8,
            seed_len: seed_len as u8,
            seed: buf,
        })
    }

    /// Number of bits.
    pub fn m(&self) -> u16 {
        self.m
    }

    /// Number of hash indices.
    pub fn k(&self) -> u8 {
        self.k
    }

    /// The seed bytes.
    pub fn seed(&self) -> &[u8] {
        &self.seed[..usize::from(self.seed_len)]
    }
}

fn check_range(field: Field, given: u64, min: u32, max: u32) -> Result<u32, BoundError> {
    if given < u64::from(min) || given > u64::from(max) {
        return Err(BoundError {
            field,
            given,
            min: min.into(),
            max: max.into(),
        });
    }
    Ok(given as u32)
}

fn check_len(field: Field, len: usize, max: usize) -> Result<usize, BoundError> {
    if len > max {
        return Err(BoundError {
            field,
            given: len as u64,
            min: 0,
            max: max as u64,
        });
    }
    Ok(len)
}

/// Checks that an item (record or query) is at most 64 bytes.
pub fn check_item(item: &[u8]) -> Result<(), BoundError> {
    check_len(Field::Item, item.len(), ITEM_MAX).map(|_| ())
}

/// A framed message, held on the stack.
#[derive(Clone, Copy)]
pub struct Message {
    buf: [u8; MESSAGE_MAX],
    len: usize,
}

impl Message {
    /// The message bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Message(")?;
        for byte in self.as_bytes() {
            write!(f, "{byte:02x}")?;
        }
        write!(f, ")")
    }
}

/// Frames the message for hash index `index` (which must be below `k`) and `item`.
pub fn message(params: &Params, index: u8, item: &[u8]) -> Result<Message, BoundError> {
    check_item(item)?;
    let mut buf = [0u8; MESSAGE_MAX];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        buf[len..len + bytes.len()].copy_from_slice(bytes);
        len += bytes.len();
    };
    put(DOMAIN);
    put(&params.m.to_be_bytes());
    put(&[params.k, params.seed_len]);
    put(params.seed());
    put(&[index]);
    put(&(item.len() as u16).to_be_bytes());
    put(item);
    Ok(Message { buf, len })
}

/// Plain SHA-256 of `data` (the hash the protocol is built on).
pub fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// SHA-256 of the message for hash index `index` and `item`.
pub fn digest(params: &Params, index: u8, item: &[u8]) -> Result<[u8; 32], BoundError> {
    let state = FramedItem::with(params, item, |framed| framed.state(index))?;
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    Ok(out)
}

/// The digest read as one big-endian 256-bit integer, reduced mod `m`.
pub fn reduce(digest: &[u8; 32], m: u16) -> u16 {
    let mut words = [0u32; 8];
    for (word, chunk) in words.iter_mut().zip(digest.chunks_exact(4)) {
        let mut bytes = [0u8; 4];
        bytes.copy_from_slice(chunk);
        *word = u32::from_be_bytes(bytes);
    }
    reduce_words(&words, m)
}

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

/// Precomputed constants that reduce a 256-bit digest mod one `m` with 64-bit limbs.
///
/// The digest is four big-endian 64-bit limbs `L[0..4]`, its value
/// `sum(L[j] * 2^(64*(3-j)))`. With `weight[j] = 2^(64*(3-j)) mod m` (below 512),
/// `S = sum(L[j] * weight[j])` is congruent to the digest and below `2^75`. Folding
/// `S = hi*2^64 + mid*2^32 + low` with `2^64 mod m` and `2^32 mod m` gives a
/// congruent value below `2^42`, and one Lemire fast remainder (multiplications by
/// `ceil(2^64 / m)` and by m, exact for numerators below `2^(64 - log2 m)`) finishes:
/// a handful of multiplications and no division.
#[derive(Clone, Copy)]
struct Reducer {
    /// `2^192`, `2^128` and `2^64` mod m (the last limb's weight is 1).
    weights: [u64; 3],
    /// `2^32 mod m`.
    fold32: u64,
    /// `ceil(2^64 / m)`.
    reciprocal: u64,
}

/// `2^bits mod m`.
const fn pow2_mod(bits: u32, m: u64) -> u64 {
    let mut r = 1 % m;
    let mut i = 0;
    while i < bits {
        r = r * 2 % m;
        i += 1;
    }
    r
}

const fn reducer(m: u16) -> Reducer {
    let m = m as u64;
    Reducer {
        weights: [pow2_mod(192, m), pow2_mod(128, m), pow2_mod(64, m)],
        fold32: pow2_mod(32, m),
        reciprocal: u64::MAX / m + 1,
    }
}

/// One [`Reducer`] per allowed `m` (entries below [`M_MIN`] are never read).
static REDUCERS: [Reducer; M_MAX as usize + 1] = {
    let mut table = [reducer(M_MIN as u16); M_MAX as usize + 1];
    let mut m = M_MIN as usize;
    while m <= M_MAX as usize {
        table[m] = reducer(m as u16);
        m += 1;
    }
    table
};

impl Reducer {
    #[inline(always)]
    fn reduce(&self, words: &[u32; 8], m: u16) -> u16 {
        let limb = |j: usize| (u64::from(words[2 * j]) << 32) | u64::from(words[2 * j + 1]);
        let [w0, w1, w2] = self.weights;
        let sum = u128::from(limb(0)) * u128::from(w0)
            + u128::from(limb(1)) * u128::from(w1)
            + u128::from(limb(2)) * u128::from(w2)
            + u128::from(limb(3));
        // 2^64 mod m is weights[2].
        let low = sum as u64;
        let folded = (sum >> 64) as u64 * w2 + (low >> 32) * self.fold32 + (low & 0xffff_ffff);
        let fraction = self.reciprocal.wrapping_mul(folded);
        ((u128::from(fraction) * u128::from(m)) >> 64) as u16
    }
}

/// The digest given as its eight big-endian 32-bit words (the SHA-256 state after the
/// last block), read as one 256-bit integer and reduced mod `m` (`m = 0` is read as 1).
///
/// Allowed `m` (8..=512) use a precomputed table and no division; any other `m` takes
/// the plain digit-by-digit path.
pub fn reduce_words(words: &[u32; 8], m: u16) -> u16 {
    match REDUCERS.get(usize::from(m)) {
        Some(reducer) if u32::from(m) >= M_MIN => reducer.reduce(words, m),
        _ => {
            let m = u64::from(m.max(1));
            let mut remainder = 0u64;
            for &word in words {
                remainder = ((remainder << 32) | u64::from(word)) % m;
            }
            remainder as u16
        }
    }
}

/// A message block template: the domain, then zeros.
const BLOCK_TEMPLATE: [u8; 64] = {
    let mut block = [0u8; 64];
    let mut at = 0;
    while at < DOMAIN.len() {
        block[at] = DOMAIN[at];
        at += 1;
    }
    block
};

/// An item framed and padded once into SHA-256 blocks on the stack, ready to hash for
/// any hash index without framing again.
///
/// The message is at most [`MESSAGE_MAX`] (105) bytes, so with SHA-256 padding it
/// fills one block (messages up to 55 bytes) or two. Only the hash-index byte differs
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

/// Writes the padded message of hash index 0 and `item` into `blocks` (zeroed by
/// the caller); returns the number of blocks.
#[inline(always)]
fn frame_into(blocks: &mut [[u8; 64]; 2], params: &Params, item: &[u8]) -> usize {
    let index_at = DOMAIN.len() + 4 + usize::from(params.seed_len);
    let item_at = index_at + 3;
    let len = item_at + item.len();
    let [first, second] = blocks;
    *first = BLOCK_TEMPLATE;
    let [m_high, m_low] = params.m.to_be_bytes();
    first[18..22].copy_from_slice(&[m_high, m_low, params.k, params.seed_len]);
    // The whole seed buffer: its bytes past the seed are zero, and the index, length
    // and item overwrite them below.
    first[22..38].copy_from_slice(&params.seed);
    let [len_high, len_low] = (item.len() as u16).to_be_bytes();
    first[index_at..item_at].copy_from_slice(&[0, len_high, len_low]);
    let (head, tail) = item.split_at(item.len().min(64 - item_at));
    first[item_at..item_at + head.len()].copy_from_slice(head);
    // Padding: 0x80 right after the message, the bit length in the last 8 bytes.
    let bit_len = (len as u64 * 8).to_be_bytes();
    if len + 9 <= 64 {
        first[len] = 0x80;
        first[56..].copy_from_slice(&bit_len);
        1
    } else {
        second[..tail.len()].copy_from_slice(tail);
        match first.get_mut(len) {
            Some(byte) => *byte = 0x80,
            None => second[len - 64] = 0x80,
        }
        second[56..].copy_from_slice(&bit_len);
        2
    }
}

impl FramedItem {
    /// Frames and pads `item` under `params`; errors only for an item over 64 bytes.
    ///
    /// In a hot loop prefer [`FramedItem::with`], which frames in place.
    #[inline]
    pub fn new(params: &Params, item: &[u8]) -> Result<Self, BoundError> {
        Self::with(params, item, |framed| framed.clone())
    }

    /// Frames and pads `item` under `params` on this stack frame and runs `f` with it;
    /// errors only for an item over 64 bytes.
    #[inline(always)]
    pub fn with<R>(
        params: &Params,
        item: &[u8],
        f: impl FnOnce(&mut FramedItem) -> R,
    ) -> Result<R, BoundError> {
        check_item(item)?;
        let mut blocks = [[0; 64]; 2];
        let block_count = frame_into(&mut blocks, params, item);
        let index_at = DOMAIN.len() + 4 + usize::from(params.seed_len);
        let lane_at = index_at & !15;
        let mut lane = [0u8; 16];
        lane.copy_from_slice(&blocks[0][lane_at..lane_at + 16]);
        let mut framed = FramedItem {
            blocks,
            block_count,
            lane_at,
            lane,
            mask: LANE_MASKS[index_at & 15],
            index: 0,
            m: params.m,
            reducer: &REDUCERS[usize::from(params.m)],
        };
        Ok(f(&mut framed))
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
            let at = self.lane_at;
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
    /// the position, as [`reduce_words`] computes it.
    #[inline(always)]
    pub fn reduce(&self, state: &[u32; 8]) -> u16 {
        self.reducer.reduce(state, self.m)
    }
}

/// The `k` positions of `item`, in hash-index order (repeats kept).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Positions {
    buf: [u16; K_MAX as usize],
    len: usize,
}

impl Positions {
    /// The positions in hash-index order.
    pub fn as_slice(&self) -> &[u16] {
        &self.buf[..self.len]
    }
}

impl fmt::Debug for Positions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Position of `item` for hash index `index`.
pub fn position(params: &Params, index: u8, item: &[u8]) -> Result<u16, BoundError> {
    FramedItem::with(params, item, |framed| framed.position(index))
}

/// All `k` positions of `item`, in hash-index order.
#[inline]
pub fn positions(params: &Params, item: &[u8]) -> Result<Positions, BoundError> {
    FramedItem::with(params, item, |framed| {
        let mut out = Positions {
            buf: [0; K_MAX as usize],
            len: usize::from(params.k),
        };
        for (index, slot) in (0..params.k).zip(&mut out.buf) {
            *slot = framed.position(index);
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn seed_wire_example_is_framed_exactly() {
        // Seed 000, check 8: message(m=9, k=2, seed "S", i=1, item 00 41).
        let params = Params::new(9, 2, b"S").unwrap();
        let msg = message(&params, 1, b"\x00A").unwrap();
        let mut expected = DOMAIN.to_vec();
        expected.extend_from_slice(&[0x00, 0x09, 0x02, 0x01, 0x53, 0x01, 0x00, 0x02, 0x00, 0x41]);
        assert_eq!(msg.as_bytes(), expected.as_slice());
    }

    #[test]
    fn sha256_abc_known_answer() {
        assert_eq!(
            hex(&Sha256::digest(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn reduce_matches_hand_computed_values() {
        // 2^256 - 1 mod 9: 2^6 = 64 = 1 mod 9, 256 = 6*42 + 4, so 2^256 = 16 = 7 mod 9 and the result is 6.
        assert_eq!(reduce(&[0xff; 32], 9), 6);
        let mut one = [0u8; 32];
        one[31] = 1;
        assert_eq!(reduce(&one, 8), 1);
        // 2^64 mod 10 = 6: 2^64 = 18446744073709551616.
        let mut two64 = [0u8; 32];
        two64[23] = 1;
        assert_eq!(reduce(&two64, 10), 6);
    }

    /// The digit-by-digit reduction of the reference: `r = (256*r + byte) mod m`.
    fn reduce_bytewise(digest: &[u8; 32], m: u16) -> u16 {
        let m = u32::from(m.max(1));
        let mut r = 0u32;
        for &byte in digest {
            r = ((r << 8) | u32::from(byte)) % m;
        }
        r as u16
    }

    /// A deterministic pseudo-random digest (xorshift64*).
    fn pseudo_digest(state: &mut u64) -> [u8; 32] {
        let mut out = [0u8; 32];
        for chunk in out.chunks_exact_mut(8) {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            chunk.copy_from_slice(&state.wrapping_mul(0x2545_f491_4f6c_dd1d).to_be_bytes());
        }
        out
    }

    #[test]
    fn table_reduction_equals_digit_by_digit_for_every_m() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        let mut digests = vec![[0u8; 32], [0xff; 32]];
        digests.extend((0..64).map(|_| pseudo_digest(&mut state)));
        for m in (0..=1024).chain([u16::MAX - 1, u16::MAX]) {
            for digest in &digests {
                assert_eq!(reduce(digest, m), reduce_bytewise(digest, m), "m = {m}");
            }
        }
    }

    #[test]
    fn framed_blocks_hash_like_the_plain_hasher() {
        let mut state = 0x0123_4567_89ab_cdef;
        for seed_len in 0..=SEED_MAX {
            for item_len in 0..=ITEM_MAX {
                let bytes = pseudo_digest(&mut state);
                let seed: Vec<u8> = bytes.iter().cycle().take(seed_len).copied().collect();
                let item: Vec<u8> = bytes.iter().rev().cycle().take(item_len).copied().collect();
                let params = Params::new(8 + (item_len as u64 * 7) % 505, 8, &seed).unwrap();
                let mut framed = FramedItem::new(&params, &item).unwrap();
                let len = message(&params, 0, &item).unwrap().as_bytes().len();
                assert_eq!(framed.block_count(), if len <= 55 { 1 } else { 2 });
                for index in 0..8 {
                    let plain = sha256(message(&params, index, &item).unwrap().as_bytes());
                    let got = digest(&params, index, &item).unwrap();
                    assert_eq!(got, plain, "seed {seed_len} item {item_len} index {index}");
                    assert_eq!(framed.position(index), reduce_bytewise(&plain, params.m()));
                }
            }
        }
    }

    #[test]
    fn bounds_name_their_field() {
        let err = Params::new(7, 3, b"").unwrap_err();
        assert_eq!(err.field, Field::M);
        assert!(err.to_string().contains("8..=512"), "{err}");
        assert_eq!(Params::new(16, 9, b"").unwrap_err().field, Field::K);
        assert_eq!(Params::new(16, 3, &[0; 17]).unwrap_err().field, Field::Seed);
        let params = Params::new(16, 3, b"").unwrap();
        assert_eq!(positions(&params, &[0; 65]).unwrap_err().field, Field::Item);
        assert!(positions(&params, &[0; 64]).is_ok());
    }
}
