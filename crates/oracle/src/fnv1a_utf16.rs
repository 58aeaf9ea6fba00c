//! Reference for `fnv1a-utf16-v1`.
//!
//! * Strings are hashed as UTF-16 code units, computed here from the code
//!   points ([`utf16_units`]).
//! * FNV-1a over code units: for each unit `u`,
//!   `h = ((h XOR u) * 16777619) mod 2^32`. [`h1`] starts from 2166136261,
//!   [`h2`] from `0xdeadbeef` and is forced odd at the end (`| 1`).
//! * Position `i` (for `i` in `0..k`) is `(h1 + i*h2) mod m`, with the sum
//!   taken exactly, never wrapped to 32 bits ([`positions`]).
//!
//! Inputs outside the protocol (m 8..=1024, k 1..=12, 1..=256 code units) are
//! not rejected and never panic; `m = 0` or `k = 0` gives no positions.

/// The FNV-1a 32-bit prime.
const FNV_PRIME: u64 = 16777619;

/// The 32-bit modulus, 2^32.
const TWO_POW_32: u64 = 1 << 32;

/// The basis of `h1`, the standard FNV-1a 32-bit offset basis.
const H1_BASIS: u64 = 2166136261;

/// The basis of `h2`.
const H2_BASIS: u64 = 0xdeadbeef;

/// The UTF-16 code units of `text`, computed from each character's code
/// point: a code point below `0x10000` is one unit; any other `c` becomes the
/// surrogate pair `0xD800 + ((c - 0x10000) >> 10)`,
/// `0xDC00 + ((c - 0x10000) & 0x3FF)`.
///
/// Nothing is normalised: `"é"` (U+00E9) and `"e\u{301}"` give different
/// units.
pub fn utf16_units(text: &str) -> Vec<u16> {
    let mut units = Vec::with_capacity(text.len());
    for c in text.chars() {
        let code_point = u32::from(c);
        if code_point < 0x1_0000 {
            units.push(low_16_bits(code_point));
        } else {
            let offset = code_point - 0x1_0000; // at most 0xF_FFFF, 20 bits
            units.push(low_16_bits(0xD800 + (offset >> 10)));
            units.push(low_16_bits(0xDC00 + (offset & 0x3FF)));
        }
    }
    units
}

/// The low 16 bits of `value` (every caller passes a value below `0x10000`).
fn low_16_bits(value: u32) -> u16 {
    u16::try_from(value & 0xFFFF).unwrap_or(0)
}

/// The low 32 bits of `value` (every caller passes a value below 2^32).
fn low_32_bits(value: u64) -> u32 {
    u32::try_from(value % TWO_POW_32).unwrap_or(0)
}

/// FNV-1a over code units from `basis`, in 64-bit arithmetic: the state stays
/// below 2^32 and the product below 2^56, and the only reduction mod 2^32 is
/// the one the definition makes, after each multiplication.
fn fnv1a(basis: u64, units: &[u16]) -> u64 {
    let mut h = basis;
    for &unit in units {
        h = ((h ^ u64::from(unit)) * FNV_PRIME) % TWO_POW_32;
    }
    h
}

/// The first hash: FNV-1a over `units` from the basis 2166136261.
///
/// `h1(&utf16_units("a"))` is 3826002220.
pub fn h1(units: &[u16]) -> u32 {
    low_32_bits(fnv1a(H1_BASIS, units))
}

/// The second hash: FNV-1a over `units` from the basis `0xdeadbeef`, then
/// forced odd (`| 1`).
///
/// `h2(&utf16_units("a"))` is 428013963.
pub fn h2(units: &[u16]) -> u32 {
    low_32_bits(fnv1a(H2_BASIS, units) | 1)
}

/// The decimal digits of `value`, most significant first (`0` for zero).
fn decimal_digits(value: u128) -> Vec<u8> {
    let mut digits = Vec::new();
    let mut rest = value;
    loop {
        // rest % 10 < 10, so the fallback is never taken.
        digits.push(u8::try_from(rest % 10).unwrap_or(0));
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    digits.reverse();
    digits
}

/// A number given by its decimal digits, modulo `m` (`m > 0`), one digit at a
/// time: `r = (10*r + d) mod m`.
fn reduce_decimal(digits: &[u8], m: u32) -> u32 {
    let modulus = u64::from(m);
    let mut r: u64 = 0;
    for &d in digits {
        // r < m < 2^32, so 10*r + 9 < 2^36: no overflow.
        r = (10 * r + u64::from(d)) % modulus;
    }
    // r < m, so it fits in u32.
    low_32_bits(r)
}

/// The `k` positions of the string with code units `units`, in order
/// `i = 0..k`, repeats kept: `(h1 + i*h2) mod m`.
///
/// The sum is exact (at most about 2^64, held in a `u128`), written out as a
/// decimal digit string and reduced digit by digit, so a 32-bit wrap of the
/// sum can never creep in. Empty when `m = 0` or `k = 0`.
pub fn positions(m: u32, k: u32, units: &[u16]) -> Vec<u32> {
    if m == 0 {
        return Vec::new();
    }
    let first = u128::from(h1(units));
    let step = u128::from(h2(units));
    (0..k)
        .map(|i| {
            // first < 2^32 and i * step < 2^64: the sum fits easily in u128.
            let exact_sum = first + u128::from(i) * step;
            reduce_decimal(&decimal_digits(exact_sum), m)
        })
        .collect()
}
