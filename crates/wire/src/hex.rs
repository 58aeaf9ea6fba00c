//! Bytes as hex text (see the crate docs for the rule).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Bytes written as hex text in JSON: two digits per byte, `""` is no bytes; written
/// lowercase, read in either case.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Hex(pub Vec<u8>);

impl Hex {
    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }

    /// The lowercase hex text.
    pub fn to_hex(&self) -> String {
        encode_hex(&self.0)
    }
}

/// Lowercase hex text of `bytes`.
pub fn encode_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for &byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    text
}

/// Decodes hex text (either case). The error quotes a short prefix of `text` and names
/// the first bad character and its offset, or the odd number of digits:
/// `bad hex "6c616": odd number of hex digits (5)`.
pub fn decode_hex(text: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::with_capacity(text.len() / 2);
    let mut high: Option<u8> = None;
    for (offset, c) in text.char_indices() {
        let Some(nibble) = c.to_digit(16).and_then(|n| u8::try_from(n).ok()) else {
            return Err(format!(
                "bad hex {}: {c:?} at offset {offset} is not a hex digit (0-9, a-f, A-F)",
                quote_prefix(text)
            ));
        };
        match high.take() {
            None => high = Some(nibble),
            Some(high) => bytes.push((high << 4) | nibble),
        }
    }
    if high.is_some() {
        return Err(format!(
            "bad hex {}: odd number of hex digits ({})",
            quote_prefix(text),
            text.len()
        ));
    }
    Ok(bytes)
}

/// The most characters of a bad value an error message quotes.
pub const QUOTE_MAX: usize = 64;

/// `text` as a Rust-style quoted string when it has at most [`QUOTE_MAX`] characters;
/// else its first [`QUOTE_MAX`] characters, `…` and its length in bytes:
/// `"abcd…" (10485760 bytes)`. A bad value in an error message is quoted this way,
/// never echoed whole.
pub fn quote_prefix(text: &str) -> String {
    match text.char_indices().nth(QUOTE_MAX) {
        None => format!("{text:?}"),
        Some((end, _)) => {
            let head = text.get(..end).unwrap_or_default();
            format!("{:?} ({} bytes)", format!("{head}…"), text.len())
        }
    }
}

/// Whether `c` is escaped in text from an implementation: control characters (an
/// escape sequence could clear the screen or forge a line of the report) and the
/// invisible characters that reorder or hide text (bidirectional overrides and
/// isolates, zero-width characters, the word joiner and invisible operators, the soft
/// hyphen, the byte order mark).
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{ad}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// Whether `text` shows nothing: empty, or only white space and [`hidden`] characters
/// (a name made of U+200B, U+2060 and U+FEFF alone names nobody).
pub fn blank(text: &str) -> bool {
    text.chars().all(|c| c.is_whitespace() || hidden(c))
}

/// Text an implementation gave (an error's message, kind or field, its stderr), as the
/// report shows it: every control or invisible character escaped (`\u{1b}`, `\n`), and
/// cut after `max` characters with `…` and its whole length in bytes. Never quoted,
/// so a short, plain value is shown unchanged.
pub fn untrusted(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max.saturating_mul(2)));
    for (count, c) in text.chars().enumerate() {
        if count == max {
            out.push_str(&format!("… ({} bytes)", text.len()));
            return out;
        }
        if hidden(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

impl TryFrom<String> for Hex {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        decode_hex(&text).map(Hex)
    }
}

impl From<Hex> for String {
    fn from(value: Hex) -> Self {
        encode_hex(&value.0)
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&encode_hex(&self.0))
    }
}

impl JsonSchema for Hex {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hex".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^([0-9a-fA-F]{2})*$",
            "description": "Bytes as hex text, two digits per byte; \"\" is no bytes. Written lowercase; read in either case."
        })
    }
}

/// Serde for a `Vec<u8>` field written as [`Hex`] (`#[serde(with = "...")]`), for types
/// that hand plain bytes to their users.
pub mod bytes {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the bytes as lowercase hex text.
    pub fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&super::encode_hex(bytes))
    }

    /// Reads hex text (either case) as bytes.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(deserializer)?;
        super::decode_hex(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untrusted_text_is_escaped_and_cut() {
        assert_eq!(untrusted("value", 64), "value");
        assert_eq!(
            untrusted("\u{1b}[2J\u{1b}[HALL CHECKS PASSED\r\n", 64),
            "\\u{1b}[2J\\u{1b}[HALL CHECKS PASSED\\r\\n"
        );
        assert_eq!(untrusted("a\u{202e}b", 64), "a\\u{202e}b");
        let long = "x".repeat(1 << 20);
        assert_eq!(untrusted(&long, 4), format!("xxxx… ({} bytes)", 1 << 20));
        assert!(!untrusted(&"\u{1b}".repeat(1000), 64).contains('\u{1b}'));
    }

    #[test]
    fn reads_either_case_and_writes_lowercase() {
        assert_eq!(decode_hex("00aBfF"), Ok(vec![0x00, 0xab, 0xff]));
        assert_eq!(decode_hex(""), Ok(vec![]));
        assert_eq!(encode_hex(&[0x00, 0xab, 0xff]), "00abff");
        let hex: Hex = serde_json::from_str("\"4A\"").unwrap();
        assert_eq!(serde_json::to_string(&hex).unwrap(), "\"4a\"");
    }

    #[test]
    fn refuses_anything_else_naming_it() {
        for (text, why) in [
            ("5", "bad hex \"5\": odd number of hex digits (1)"),
            ("zz", "bad hex \"zz\": 'z' at offset 0 is not a hex digit"),
            ("0x53", "'x' at offset 1"),
            (" 53", "' ' at offset 0"),
            ("+5", "'+' at offset 0"),
            ("٣٣", "at offset 0"),
        ] {
            let err = decode_hex(text).unwrap_err();
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn quotes_a_long_value_by_its_prefix() {
        let err = decode_hex(&"z".repeat(10_485_760)).unwrap_err();
        assert!(err.starts_with(&format!("bad hex \"{}…\" (10485760 bytes)", "z".repeat(64))));
        assert!(err.len() < 200);
    }
}
