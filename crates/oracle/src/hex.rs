//! Hex text helpers, written here so the oracle relies on no other crate.
//!
//! [`encode`] writes lowercase digits; [`decode`] accepts lowercase and
//! uppercase digits and nothing else (no spaces, no `0x` prefix).

use std::fmt;

/// The sixteen lowercase hex digits, indexed by their value.
const DIGITS: [char; 16] = [
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f',
];

/// Why a piece of hex text was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HexError {
    /// The text holds only valid hex digits, but an odd number of them, so it
    /// does not describe whole bytes.
    OddLength {
        /// How many hex digits the text holds.
        digits: usize,
    },
    /// A character that is not a hex digit (`0-9`, `a-f`, `A-F`).
    InvalidDigit {
        /// The offending character.
        found: char,
        /// Its byte offset in the text (equal to the character index when the
        /// text before it is ASCII).
        offset: usize,
    },
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexError::OddLength { digits } => {
                write!(f, "odd number of hex digits ({digits})")
            }
            HexError::InvalidDigit { found, offset } => {
                write!(f, "invalid hex digit {found:?} at offset {offset}")
            }
        }
    }
}

impl std::error::Error for HexError {}

/// The value (0..=15) of one hex digit, or `None` if `c` is not one.
///
/// Both lowercase and uppercase letters are accepted.
pub(crate) fn digit_value(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        'a'..='f' => Some(c as u8 - b'a' + 10),
        'A'..='F' => Some(c as u8 - b'A' + 10),
        _ => None,
    }
}

/// Encodes bytes as lowercase hex text, two digits per byte, high nibble
/// first. The empty slice gives the empty string.
pub fn encode(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len() * 2);
    push_encoded(&mut text, bytes);
    text
}

/// Appends the lowercase hex of `bytes` to `text`, as [`encode`] writes it.
pub fn push_encoded(text: &mut String, bytes: &[u8]) {
    text.reserve(bytes.len() * 2);
    for &byte in bytes {
        text.push(DIGITS[usize::from(byte >> 4)]);
        text.push(DIGITS[usize::from(byte & 0x0f)]);
    }
}

/// Decodes hex text (lowercase or uppercase digits, nothing else) into bytes.
///
/// The empty string decodes to no bytes.
///
/// # Errors
///
/// * [`HexError::InvalidDigit`] for the first character that is not a hex
///   digit, e.g. `invalid hex digit 'g' at offset 4`;
/// * [`HexError::OddLength`] if every character is a digit but there is an
///   odd number of them, e.g. `odd number of hex digits (3)`.
pub fn decode(text: &str) -> Result<Vec<u8>, HexError> {
    // Each pair of digits becomes its byte as soon as its second digit is read (no list
    // of nibbles in between); the first character that is not a digit is the error,
    // wherever it stands, and an odd count is one only when every character is a digit.
    // Every digit is one ASCII byte, so the text is read byte by byte: the first byte
    // that is not a digit starts the offending character (all before it were ASCII).
    let mut bytes = Vec::with_capacity(text.len() / 2);
    let mut high: Option<u8> = None;
    let mut digits = 0;
    for (offset, &byte) in text.as_bytes().iter().enumerate() {
        let Some(value) = digit_value(char::from(byte)).filter(|_| byte.is_ascii()) else {
            let found = text
                .get(offset..)
                .and_then(|rest| rest.chars().next())
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            return Err(HexError::InvalidDigit { found, offset });
        };
        digits += 1;
        match high.take() {
            Some(first) => bytes.push((first << 4) | value),
            None => high = Some(value),
        }
    }
    if high.is_some() {
        return Err(HexError::OddLength { digits });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decoder as first written: every character to a nibble, then the pairs.
    fn decode_by_nibbles(text: &str) -> Result<Vec<u8>, HexError> {
        let mut nibbles = Vec::new();
        for (offset, found) in text.char_indices() {
            match digit_value(found) {
                Some(value) => nibbles.push(value),
                None => return Err(HexError::InvalidDigit { found, offset }),
            }
        }
        if nibbles.len() % 2 != 0 {
            return Err(HexError::OddLength {
                digits: nibbles.len(),
            });
        }
        Ok(nibbles
            .chunks_exact(2)
            .map(|pair| (pair[0] << 4) | pair[1])
            .collect())
    }

    #[test]
    fn decoding_byte_by_byte_gives_what_nibbles_gave() {
        let texts = [
            "",
            "0",
            "00",
            "0a",
            "0A",
            "abc",
            "ABCDEF0123456789",
            "0g",
            "g0",
            "0 1",
            "é0",
            "0é",
            "00é",
            "0\u{0}",
            "ab\u{1F600}cd",
            "fF\u{80}",
            "abcdefgh",
            "12345",
            "\u{FF10}\u{FF11}",
            "ÿ",
            "0x12",
        ];
        for text in texts {
            assert_eq!(decode(text), decode_by_nibbles(text), "{text:?}");
        }
        for byte in 0..=255u8 {
            let text = encode(&[byte, !byte]);
            assert_eq!(decode(&text), Ok(vec![byte, !byte]));
            let mut both = String::new();
            push_encoded(&mut both, &[byte]);
            assert_eq!(both, encode(&[byte]));
        }
    }
}
