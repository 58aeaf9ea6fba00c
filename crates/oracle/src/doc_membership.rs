//! Reference for the doc-membership family: `doc-membership-v1` and every version that
//! differs from it only in its domain (and bounds, which this oracle does not enforce).
//! A version is given to each function as a plain value, its domain as hex text
//! (`domain`; v1's is [`DOMAIN_HEX`]); nothing here names a production type.
//!
//! For hash index `i` in `0..k` the message is, as hex text,
//!
//! ```text
//! 646f632d6d656d626572736869702d763100   the domain (v1: "doc-membership-v1" 0x00)
//! mmmm                                   m, 4 hex digits
//! kk                                     k, 2 hex digits
//! ss                                     len(seed), 2 hex digits
//! <seed hex>
//! ii                                     i, 2 hex digits
//! llll                                   len(item), 4 hex digits
//! <item hex>
//! ```
//!
//! and `position_i = SHA-256(message_i) mod m`, the digest read as one
//! big-endian number. The oracle reduces that number one hex digit at a time
//! ([`reduce_hex`]) and never builds it as an integer.
//!
//! # Inputs outside the protocol
//!
//! v1 bounds the inputs (m 8..=512, k 1..=8, seed 0..=16 bytes,
//! item 0..=64 bytes). This oracle does not enforce them: respecting them is
//! the caller's job, and results for inputs outside them mean nothing for the
//! protocol. They still never panic:
//!
//! * a field whose value does not fit its width (m > 0xffff, k, seed length or
//!   index > 0xff, item length > 0xffff) is written with as many hex digits as
//!   it needs, padded with one leading `0` if that count is odd, so the
//!   message stays whole bytes (and is no longer unambiguous);
//! * `m = 0` has no positions: [`positions`] and [`position_set`] are empty,
//!   [`reduce_hex`] returns 0, [`packed_hex`] is the empty string, and
//!   [`maybe_present`] is vacuously `true` (the empty set is a subset of
//!   anything); `k = 0` likewise gives no positions.

use std::collections::BTreeSet;

use crate::hex::{self, HexError};
use crate::sha256;

/// `doc-membership-v1`'s domain, `"doc-membership-v1"` followed by one zero byte, as
/// hex text.
///
/// This is a fixed literal on purpose, not derived from the string, so that a
/// mistake in deriving it elsewhere cannot be repeated here.
pub const DOMAIN_HEX: &str = "646f632d6d656d626572736869702d763100";

/// Appends `value` in lowercase hex with at least `width` digits; if more are needed
/// (only outside the protocol), the digit count is rounded up to an even one.
fn push_field(text: &mut String, value: usize, width: usize) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut count = 1;
    while count < usize::BITS as usize / 4 && value >> (4 * count) != 0 {
        count += 1;
    }
    let mut digits = count.max(width);
    if digits % 2 != 0 {
        digits += 1;
    }
    for place in (0..digits).rev() {
        let nibble = if place < usize::BITS as usize / 4 {
            (value >> (4 * place)) & 0xf
        } else {
            0
        };
        text.push(char::from(DIGITS[nibble]));
    }
}

/// The hash message for index `index` as lowercase hex text:
/// `domain`, the version's domain as hex text, as given (v1's [`DOMAIN_HEX`]), `m` as 4 hex digits, `k` as 2, `len(seed)` as 2, the
/// seed's hex, `index` as 2, `len(item)` as 4, the item's hex.
///
/// Example: `message_hex(DOMAIN_HEX, 9, 2, b"S", 1, b"\x00A")` is [`DOMAIN_HEX`] followed
/// by `0009 02 01 53 01 0002 0041` (without the spaces).
///
/// Values too large for their field are outside the protocol; see the
/// [module documentation](self).
pub fn message_hex(domain: &str, m: u32, k: u32, seed: &[u8], index: u32, item: &[u8]) -> String {
    let mut text = String::with_capacity(domain.len() + 16 + 2 * (seed.len() + item.len()));
    text.push_str(domain);
    push_field(&mut text, m as usize, 4);
    push_field(&mut text, k as usize, 2);
    push_field(&mut text, seed.len(), 2);
    hex::push_encoded(&mut text, seed);
    push_field(&mut text, index as usize, 2);
    push_field(&mut text, item.len(), 4);
    hex::push_encoded(&mut text, item);
    text
}

/// SHA-256 of the message for index `index`, as 64 lowercase hex digits.
///
/// The message is built by [`message_hex`], decoded with this crate's own
/// [`hex::decode`] and hashed with this crate's own [`sha256`].
///
/// With a valid `domain` (an even number of hex digits), [`message_hex`] produces
/// an even number of valid hex digits, so the decoding cannot fail; if it does (a
/// malformed domain), the result is the empty string rather than a panic.
pub fn digest_hex(domain: &str, m: u32, k: u32, seed: &[u8], index: u32, item: &[u8]) -> String {
    match hex::decode(&message_hex(domain, m, k, seed, index, item)) {
        Ok(message) => sha256::hex_digest(&message),
        Err(_) => String::new(),
    }
}

/// The number written by the hex text `digest_hex` (big-endian, any length,
/// either letter case) modulo `m`, computed one digit at a time:
/// `r = (16*r + digit) mod m`, starting from `r = 0`.
///
/// The empty string is the number 0. With `m = 0` (outside the protocol) the
/// digits are still checked and the result is 0.
///
/// # Errors
///
/// [`HexError::InvalidDigit`] for the first character that is not a hex
/// digit. An odd number of digits is fine here: this is a number, not bytes.
pub fn reduce_hex(digest_hex: &str, m: u32) -> Result<u32, HexError> {
    if m != 0 && m < 1 << 28 {
        // The same steps in 32 bits: r < m < 2^28, so 16*r + 15 < 2^32 (a 32-bit
        // remainder is the cheaper instruction; the protocol's m is at most 512).
        let mut r: u32 = 0;
        for (offset, found) in digest_hex.char_indices() {
            let Some(digit) = hex::digit_value(found) else {
                return Err(HexError::InvalidDigit { found, offset });
            };
            r = (16 * r + u32::from(digit)) % m;
        }
        return Ok(r);
    }
    let modulus = u64::from(m);
    let mut r: u64 = 0;
    for (offset, found) in digest_hex.char_indices() {
        let Some(digit) = hex::digit_value(found) else {
            return Err(HexError::InvalidDigit { found, offset });
        };
        if modulus != 0 {
            // r < m <= 2^32 - 1, so 16*r + 15 < 2^36: no overflow in u64.
            r = (16 * r + u64::from(digit)) % modulus;
        }
    }
    // r < m, so it fits in u32; the fallback is never taken.
    Ok(u32::try_from(r).unwrap_or(0))
}

/// The `k` positions of `item`, in index order `0..k`, repeats kept.
///
/// Empty when `m = 0` or `k = 0`.
pub fn positions(domain: &str, m: u32, k: u32, seed: &[u8], item: &[u8]) -> Vec<u32> {
    if m == 0 {
        return Vec::new();
    }
    (0..k)
        .map(|index| {
            let digest = digest_hex(domain, m, k, seed, index, item);
            // A digest is valid hex (or empty, the number 0), so the fallback is never taken.
            reduce_hex(&digest, m).unwrap_or(0)
        })
        .collect()
}

/// The distinct positions of `item` (what a lookup checks).
pub fn position_set(domain: &str, m: u32, k: u32, seed: &[u8], item: &[u8]) -> BTreeSet<u32> {
    positions(domain, m, k, seed, item).into_iter().collect()
}

/// The set bits of the filter built from `records`: the union of their
/// position sets. Order and repeats of the records do not matter.
pub fn occupied(domain: &str, records: &[Vec<u8>], m: u32, k: u32, seed: &[u8]) -> BTreeSet<u32> {
    let mut bits = BTreeSet::new();
    for record in records {
        bits.extend(position_set(domain, m, k, seed, record));
    }
    bits
}

/// Whether a lookup of `item` answers "maybe present": every position of
/// `item` is in `occupied`.
pub fn maybe_present(
    domain: &str,
    occupied: &BTreeSet<u32>,
    m: u32,
    k: u32,
    seed: &[u8],
    item: &[u8],
) -> bool {
    position_set(domain, m, k, seed, item).is_subset(occupied)
}

/// The filter as `packed_bits` hex: `ceil(m/8)` bytes, little-endian, so bit
/// `p` is bit `p % 8` (bit 0 = least significant) of byte `p / 8`; unused high
/// bits are zero.
///
/// Positions at or above `m` cannot be part of an m-bit filter and are
/// ignored. `m = 0` gives the empty string.
pub fn packed_hex(occupied: &BTreeSet<u32>, m: u32) -> String {
    let byte_count = m.div_ceil(8) as usize;
    let mut bytes = vec![0u8; byte_count];
    for &p in occupied {
        if p < m {
            bytes[(p / 8) as usize] |= 1u8 << (p % 8);
        }
    }
    hex::encode(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field as it was first written, with `format!`.
    fn field_by_format(value: usize, width: usize) -> String {
        let text = format!("{value:0width$x}");
        if text.len() % 2 == 0 {
            text
        } else {
            format!("0{text}")
        }
    }

    #[test]
    fn fields_are_written_as_format_writes_them() {
        let mut values: Vec<usize> = (0..=0x1_0000).collect();
        for shift in 0..usize::BITS {
            let power = 1usize << shift;
            values.extend([power - 1, power, power + 1]);
        }
        values.push(usize::MAX);
        for value in values {
            for width in [0, 1, 2, 3, 4, 5] {
                let mut text = String::new();
                push_field(&mut text, value, width);
                assert_eq!(text, field_by_format(value, width), "{value} {width}");
            }
        }
    }

    /// The 32-bit steps give the 64-bit steps' remainder, at every m around the switch.
    #[test]
    fn reduction_is_the_same_either_side_of_the_32_bit_steps() {
        let digest = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";
        let other = "0123456789abcdefABCDEF0123456789abcdefABCDEF0123456789abcdef0123";
        for m in [
            1,
            2,
            7,
            8,
            9,
            511,
            512,
            513,
            (1 << 28) - 1,
            1 << 28,
            u32::MAX,
        ] {
            for text in [digest, other, "", "0", "f"] {
                let mut r: u64 = 0;
                for c in text.chars() {
                    r = (16 * r + u64::from(c.to_digit(16).unwrap_or(0))) % u64::from(m);
                }
                assert_eq!(reduce_hex(text, m), Ok(r as u32), "{m} {text}");
            }
        }
        assert!(reduce_hex("0g", 9).is_err());
        assert!(reduce_hex("0g", 1 << 30).is_err());
    }
}
