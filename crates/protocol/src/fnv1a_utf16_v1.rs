//! `fnv1a-utf16-v1`: 32-bit FNV-1a over UTF-16 code units, double hashing without wrap.
//!
//! For each code unit `u`: `h = (h XOR u) * 16777619 mod 2^32`. `h1` starts from
//! 2166136261, `h2` from `0xdeadbeef` and is then forced odd. Positions are
//! `(h1 + i*h2) mod m` for `i` in `0..k`, the sum computed exactly (no 32-bit wrap).

use core::fmt;

pub use crate::bound::{BoundError, Field};

/// Protocol name, as used in spec files, vectors and reports.
pub const NAME: &str = "fnv1a-utf16-v1";
/// The FNV-1a 32-bit prime.
pub const PRIME: u32 = 16_777_619;
/// Basis of `h1` (the standard FNV-1a 32-bit offset basis).
pub const BASIS_H1: u32 = 2_166_136_261;
/// Basis of `h2`.
pub const BASIS_H2: u32 = 0xdead_beef;
/// Smallest allowed number of bits.
pub const M_MIN: u32 = 8;
/// Largest allowed number of bits.
pub const M_MAX: u32 = 1024;
/// Smallest allowed number of hash indices.
pub const K_MIN: u32 = 1;
/// Largest allowed number of hash indices.
pub const K_MAX: u32 = 12;

/// Validated parameters `(m, k)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    m: u16,
    k: u8,
}

impl Params {
    /// Checks `m` in 8..=1024, then `k` in 1..=12.
    pub fn new(m: u64, k: u64) -> Result<Self, BoundError> {
        let m = check_m(m)?;
        let k = BoundError::check(Field::K, k, K_MIN, K_MAX)?;
        Ok(Params { m, k: k as u8 })
    }

    /// Number of bits.
    pub fn m(&self) -> u16 {
        self.m
    }

    /// Number of hash indices.
    pub fn k(&self) -> u8 {
        self.k
    }
}

/// Checks `m` alone (in 8..=1024), as [`Params::new`] checks it first.
pub fn check_m(m: u64) -> Result<u16, BoundError> {
    BoundError::check(Field::M, m, M_MIN, M_MAX).map(|m| m as u16)
}

/// The two base hashes of a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BaseHashes {
    /// FNV-1a from basis 2166136261.
    pub h1: u32,
    /// FNV-1a from basis `0xdeadbeef`, forced odd.
    pub h2: u32,
}

/// Computes `h1` and `h2` in one pass over the code units.
pub fn base_hashes(units: &[u16]) -> BaseHashes {
    let (mut h1, mut h2) = (BASIS_H1, BASIS_H2);
    for &unit in units {
        h1 = (h1 ^ u32::from(unit)).wrapping_mul(PRIME);
        h2 = (h2 ^ u32::from(unit)).wrapping_mul(PRIME);
    }
    BaseHashes { h1, h2: h2 | 1 }
}

/// Position `i`: `(h1 + i*h2) mod m`, computed without 32-bit wrap.
pub fn position(hashes: BaseHashes, index: u8, m: u16) -> u16 {
    let sum = u64::from(hashes.h1) + u64::from(index) * u64::from(hashes.h2);
    (sum % u64::from(m.max(1))) as u16
}

/// The `k` positions in order (repeats kept).
pub fn positions(params: &Params, hashes: BaseHashes) -> Vec<u16> {
    positions_inline(params, hashes).as_slice().to_vec()
}

/// The `k` positions of a string, held on the stack.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Positions {
    buf: [u16; K_MAX as usize],
    len: u8,
}

impl Positions {
    /// The positions in hash-index order (repeats kept).
    pub fn as_slice(&self) -> &[u16] {
        &self.buf[..usize::from(self.len)]
    }
}

impl fmt::Debug for Positions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// The `k` positions in order, without allocating: the same values as [`positions`].
///
/// `(h1 + i*h2) mod m` equals `(h1 mod m + i*(h2 mod m)) mod m`, so two remainders
/// are taken once and each further position is one addition and one conditional
/// subtraction.
#[inline]
pub fn positions_inline(params: &Params, hashes: BaseHashes) -> Positions {
    let m = u32::from(params.m.max(1));
    let step = hashes.h2 % m;
    let mut at = hashes.h1 % m;
    let mut out = Positions {
        buf: [0; K_MAX as usize],
        len: params.k,
    };
    for slot in out.buf.iter_mut().take(usize::from(params.k)) {
        *slot = at as u16;
        at += step;
        if at >= m {
            at -= m;
        }
    }
    out
}

/// `h1`, `h2` and the `k` positions of a string of UTF-16 code units, in one pass and
/// without allocating.
#[inline]
pub fn hashes_and_positions(params: &Params, units: &[u16]) -> (BaseHashes, Positions) {
    let hashes = base_hashes(units);
    (hashes, positions_inline(params, hashes))
}

/// Encodes a Rust string into UTF-16 code units.
pub fn units(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_check_figures() {
        let hashes = base_hashes(&units("a"));
        assert_eq!(
            hashes,
            BaseHashes {
                h1: 3_826_002_220,
                h2: 428_013_963
            }
        );
        let params = Params::new(8, 1).unwrap();
        let got: Vec<u16> = "abcdefghi"
            .chars()
            .map(|c| positions(&params, base_hashes(&units(&c.to_string())))[0])
            .collect();
        assert_eq!(got, [4, 5, 2, 3, 0, 1, 6, 7, 4]);
    }

    #[test]
    fn no_wrap_of_the_sum() {
        let hashes = BaseHashes {
            h1: u32::MAX,
            h2: u32::MAX,
        };
        // (2^32 - 1) * 2 = 2^33 - 2; mod 1000: 8589934590 mod 1000 = 590.
        assert_eq!(position(hashes, 1, 1000), 590);
        // A 32-bit wrap would give (2^32 - 2) mod 1000 = 294.
        assert_ne!(position(hashes, 1, 1000), 294);
    }

    #[test]
    fn inline_positions_equal_the_formula() {
        let mut state = 0x2545_f491u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        for m in [8, 9, 10, 31, 64, 100, 511, 1000, 1023, 1024] {
            for k in [1, 2, 7, 12] {
                let params = Params::new(m, k).unwrap();
                for _ in 0..200 {
                    let hashes = BaseHashes {
                        h1: next(),
                        h2: next() | 1,
                    };
                    let want: Vec<u16> = (0..params.k())
                        .map(|i| position(hashes, i, params.m()))
                        .collect();
                    assert_eq!(positions_inline(&params, hashes).as_slice(), want);
                    assert_eq!(positions(&params, hashes), want);
                }
                let extreme = BaseHashes {
                    h1: u32::MAX,
                    h2: u32::MAX,
                };
                let want: Vec<u16> = (0..params.k())
                    .map(|i| position(extreme, i, params.m()))
                    .collect();
                assert_eq!(positions_inline(&params, extreme).as_slice(), want);
            }
        }
    }

    #[test]
    fn bounds() {
        assert!(Params::new(8, 1).is_ok());
        assert!(Params::new(1024, 12).is_ok());
        assert_eq!(Params::new(7, 1).unwrap_err().field, Field::M);
        assert_eq!(Params::new(1025, 1).unwrap_err().field, Field::M);
        assert_eq!(Params::new(7, 0).unwrap_err().field, Field::M);
        assert_eq!(Params::new(8, 0).unwrap_err().field, Field::K);
        assert_eq!(Params::new(8, 13).unwrap_err().field, Field::K);
        assert_eq!(check_m(1024), Ok(1024));
        assert_eq!(check_m(7).unwrap_err().field, Field::M);
    }
}
