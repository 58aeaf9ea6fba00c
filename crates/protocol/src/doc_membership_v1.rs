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
//!
//! This module states the protocol plainly, step by step as the document does:
//! [`message`], [`digest`], [`reduce`], [`position`], [`positions`]. The tuned path
//! that the filter runs (each item framed and padded once, the block function called
//! directly, a division-free reduction) lives in [`fast`]; tests hold the two equal
//! for every `m`, `k`, seed length and item length.

use core::fmt;
use sha2::{Digest, Sha256};

pub use crate::bound::{BoundError, Field};

pub mod fast;

/// Protocol name, as used in spec files, vectors and reports.
pub const NAME: &str = "doc-membership-v1";
/// The domain that starts every message: the protocol name and one zero byte (18
/// bytes).
pub const DOMAIN: &[u8; NAME.len() + 1] = &{
    let mut domain = [0; NAME.len() + 1];
    let mut at = 0;
    while at < NAME.len() {
        domain[at] = NAME.as_bytes()[at];
        at += 1;
    }
    domain
};
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

/// Validated parameters `(m, k, seed)`. Construction checks every bound.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Params {
    m: u16,
    k: u8,
    seed_len: u8,
    /// The seed, then zeros.
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
        let m = BoundError::check(Field::M, m, M_MIN, M_MAX)?;
        let k = BoundError::check(Field::K, k, K_MIN, K_MAX)?;
        let seed_len = check_len(Field::Seed, seed, SEED_MAX)?;
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

fn check_len(field: Field, bytes: &[u8], max: usize) -> Result<u64, BoundError> {
    BoundError::check(field, bytes.len() as u64, 0, max as u32)
}

/// Checks that an item (record or query) is at most 64 bytes.
pub fn check_item(item: &[u8]) -> Result<(), BoundError> {
    check_len(Field::Item, item, ITEM_MAX).map(|_| ())
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
    Ok(sha256(message(params, index, item)?.as_bytes()))
}

/// The digest read as one big-endian 256-bit integer, reduced mod `m` (`m = 0` is
/// read as 1), digit by digit: `r = (256 * r + byte) mod m` over the 32 bytes.
pub fn reduce(digest: &[u8; 32], m: u16) -> u16 {
    let m = u32::from(m.max(1));
    let mut remainder = 0u32;
    for &byte in digest {
        remainder = (remainder * 256 + u32::from(byte)) % m;
    }
    remainder as u16
}

/// Position of `item` for hash index `index`: its digest reduced mod m.
pub fn position(params: &Params, index: u8, item: &[u8]) -> Result<u16, BoundError> {
    Ok(reduce(&digest(params, index, item)?, params.m))
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

/// All `k` positions of `item`, in hash-index order: [`position`] for each index.
///
/// [`fast::positions`] computes the same values without framing each message anew.
pub fn positions(params: &Params, item: &[u8]) -> Result<Positions, BoundError> {
    let mut out = Positions {
        buf: [0; K_MAX as usize],
        len: usize::from(params.k),
    };
    for (index, slot) in (0..params.k).zip(&mut out.buf) {
        *slot = position(params, index, item)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// PROTOCOL.md [DOC-HASH-MESSAGE]: the bytes `doc-membership-v1` and one zero byte,
    /// written out in hex by hand.
    #[test]
    fn the_domain_is_the_name_and_one_zero_byte() {
        assert_eq!(hex(DOMAIN), "646f632d6d656d626572736869702d763100");
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
            hex(&sha256(b"abc")),
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
        // 0x0100 mod 7 = 256 mod 7 = 4; m = 0 is read as 1.
        let mut two8 = [0u8; 32];
        two8[30] = 1;
        assert_eq!(reduce(&two8, 7), 4);
        assert_eq!(reduce(&[0xff; 32], 0), 0);
    }

    #[test]
    fn positions_are_each_index_position() {
        let params = Params::new(16, 3, b"lab").unwrap();
        let got = positions(&params, b"doc-00").unwrap();
        let want: Vec<u16> = (0..3)
            .map(|index| position(&params, index, b"doc-00").unwrap())
            .collect();
        assert_eq!(got.as_slice(), want);
        assert_eq!(format!("{got:?}"), format!("{want:?}"));
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
