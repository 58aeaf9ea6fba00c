//! The doc-membership family: SHA-256 over a length-framed message, positions
//! `digest mod m`. Its versions differ only in what a [`DocFamily`] holds (the name,
//! the domain that starts every message, the bounds); `doc-membership-v1`
//! ([`crate::doc_membership_v1`]) is the first.
//!
//! For hash index `i` in `0..k` the message is (multi-byte integers big-endian):
//!
//! ```text
//! domain                      the family's domain (v1: "doc-membership-v1" 0x00)
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

/// The framing's ceilings: every version's bounds lie within them (the fast path's
/// tables and the stack buffers are sized by them, and the filter's document index by
/// `records_max`).
pub const CEILINGS: Bounds = Bounds {
    m: [2, 512],
    k: [0, 8],
    seed_max: 16,
    item_max: 64,
    records_max: 64,
};
/// Longest domain a version may have, in bytes (the longest message still fits two
/// SHA-256 blocks).
pub const DOMAIN_CEILING: usize = 32;
/// Longest framed message of any version.
pub const MESSAGE_CEILING: usize =
    DOMAIN_CEILING + 2 + 1 + 1 + CEILINGS.seed_max + 1 + 2 + CEILINGS.item_max;

/// The bounds of one version, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// Smallest and largest number of bits.
    pub m: [u32; 2],
    /// Smallest and largest number of hash indices.
    pub k: [u32; 2],
    /// Largest seed, in bytes.
    pub seed_max: usize,
    /// Largest record or query, in bytes.
    pub item_max: usize,
    /// Largest number of records given to one snapshot (before de-duplication).
    pub records_max: usize,
}

/// What varies between the versions of the family: a plain value, made once per
/// version by [`DocFamily::new`] (`doc_membership_v1::FAMILY` is the first).
#[derive(Clone, Copy)]
pub struct DocFamily {
    name: &'static str,
    domain: &'static [u8],
    bounds: Bounds,
    /// A message block holding the domain, then zeros (the fast path's template).
    template: [u8; 64],
}

impl DocFamily {
    /// The version named `name` (on the wire, in spec files and reports) whose
    /// messages start with `domain`, with `bounds`. Panics (at compile time, in a
    /// `const`) when the domain is longer than [`DOMAIN_CEILING`] or a bound exceeds
    /// the framing's [`CEILINGS`].
    pub const fn new(name: &'static str, domain: &'static [u8], bounds: Bounds) -> Self {
        assert!(domain.len() <= DOMAIN_CEILING, "the domain is too long");
        let ceiling = CEILINGS;
        assert!(
            bounds.m[0] >= ceiling.m[0]
                && bounds.m[0] <= bounds.m[1]
                && bounds.m[1] <= ceiling.m[1],
            "m's bounds lie outside 2..=512"
        );
        assert!(
            bounds.k[0] <= bounds.k[1] && bounds.k[1] <= ceiling.k[1],
            "k's bounds lie outside 0..=8"
        );
        assert!(
            bounds.seed_max <= ceiling.seed_max,
            "the seed bound exceeds 16"
        );
        assert!(
            bounds.item_max <= ceiling.item_max,
            "the item bound exceeds 64"
        );
        assert!(
            bounds.records_max <= ceiling.records_max,
            "the records bound exceeds 64"
        );
        let mut template = [0u8; 64];
        let mut at = 0;
        while at < domain.len() {
            template[at] = domain[at];
            at += 1;
        }
        DocFamily {
            name,
            domain,
            bounds,
            template,
        }
    }

    /// The version's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The domain that starts every message.
    pub const fn domain(&self) -> &'static [u8] {
        self.domain
    }

    /// The version's bounds.
    pub const fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// Longest framed message under the version's bounds.
    pub const fn message_max(&self) -> usize {
        self.domain.len() + 2 + 1 + 1 + self.bounds.seed_max + 1 + 2 + self.bounds.item_max
    }

    /// Checks that an item (record or query) is within the version's bound.
    pub fn check_item(&self, item: &[u8]) -> Result<(), BoundError> {
        check_len(Field::Item, item, self.bounds.item_max)
    }
}

impl fmt::Debug for DocFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DocFamily")
            .field("name", &self.name)
            .field("bounds", &self.bounds)
            .finish_non_exhaustive()
    }
}

impl PartialEq for DocFamily {
    fn eq(&self, other: &Self) -> bool {
        (self.name, self.domain, self.bounds) == (other.name, other.domain, other.bounds)
    }
}

impl Eq for DocFamily {}

impl core::hash::Hash for DocFamily {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        (self.name, self.domain, self.bounds).hash(state);
    }
}

/// Validated parameters `(m, k, seed)`. Construction checks every bound.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Params {
    family: &'static DocFamily,
    m: u16,
    k: u8,
    seed_len: u8,
    /// The seed, then zeros.
    seed: [u8; CEILINGS.seed_max],
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
    /// Parameters of the version `family`: checks `m`, `k` and the seed's length
    /// against its bounds. (`Params::new` makes `doc-membership-v1`'s.)
    pub fn of(family: &'static DocFamily, m: u64, k: u64, seed: &[u8]) -> Result<Self, BoundError> {
        let bounds = &family.bounds;
        let m = BoundError::check(Field::M, m, bounds.m[0], bounds.m[1])?;
        let k = BoundError::check(Field::K, k, bounds.k[0], bounds.k[1])?;
        check_len(Field::Seed, seed, bounds.seed_max)?;
        let mut buf = [0u8; CEILINGS.seed_max];
        buf[..seed.len()].copy_from_slice(seed);
        Ok(Params {
            family,
            m: m as u16,
            k: k as u8,
            seed_len: seed.len() as u8,
            seed: buf,
        })
    }

    /// The version the parameters belong to.
    pub fn family(&self) -> &'static DocFamily {
        self.family
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

fn check_len(field: Field, bytes: &[u8], max: usize) -> Result<(), BoundError> {
    BoundError::check(field, bytes.len() as u64, 0, max as u32).map(|_| ())
}

/// A framed message, held on the stack.
#[derive(Clone, Copy)]
pub struct Message {
    buf: [u8; MESSAGE_CEILING],
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
    params.family.check_item(item)?;
    let mut buf = [0u8; MESSAGE_CEILING];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        buf[len..len + bytes.len()].copy_from_slice(bytes);
        len += bytes.len();
    };
    put(params.family.domain);
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
    buf: [u16; CEILINGS.k[1] as usize],
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
        buf: [0; CEILINGS.k[1] as usize],
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
    use crate::doc_membership_v1::DOMAIN;

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

    /// Another version of the family differs from v1 in its domain only: the message
    /// starts with its domain, and the rest of the bytes are v1's.
    #[test]
    fn another_version_frames_with_its_own_domain() {
        static OTHER: DocFamily = DocFamily::new(
            "doc-membership-v2",
            b"doc-membership-v2\0",
            crate::doc_membership_v1::BOUNDS,
        );
        let v1 = Params::new(9, 2, b"S").unwrap();
        let v2 = Params::of(&OTHER, 9, 2, b"S").unwrap();
        assert_ne!(v1, v2);
        let (one, two) = (
            message(&v1, 1, b"A").unwrap(),
            message(&v2, 1, b"A").unwrap(),
        );
        assert_eq!(
            hex(&two.as_bytes()[..18]),
            "646f632d6d656d626572736869702d763200"
        );
        assert_eq!(one.as_bytes()[18..], two.as_bytes()[18..]);
        assert_ne!(digest(&v1, 1, b"A").unwrap(), digest(&v2, 1, b"A").unwrap());
    }
}
