//! [`Text`]: a string as UTF-16 code units, and its JSON display form.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A string as UTF-16 code units, exactly as JavaScript sees it.
///
/// Serde form: a JSON string when the units are well-formed UTF-16 (the string
/// is encoded to UTF-16 on reading), otherwise an array of code units (integers
/// `0..=65535`), so a lone surrogate is representable. Both forms are accepted
/// on reading, whatever the content (`"a"` and `[97]` are the same `Text`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Text(pub Vec<u16>);

impl Text {
    /// The code units.
    pub fn units(&self) -> &[u16] {
        &self.0
    }

    /// The string as Rust text, when the units are well-formed UTF-16.
    pub fn to_rust_string(&self) -> Option<String> {
        String::from_utf16(&self.0).ok()
    }

    /// The display form: what JavaScript's `JSON.stringify` prints (see [`json_display`]).
    pub fn display(&self) -> String {
        json_display(&self.0)
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text(text.encode_utf16().collect())
    }
}

impl From<Vec<u16>> for Text {
    fn from(units: Vec<u16>) -> Self {
        Text(units)
    }
}

impl From<&[u16]> for Text {
    fn from(units: &[u16]) -> Self {
        Text(units.to_vec())
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match String::from_utf16(&self.0) {
            Ok(text) => serializer.serialize_str(&text),
            Err(_) => self.0.serialize(serializer),
        }
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or an array of UTF-16 code units (integers 0..=65535)")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Text, E> {
        Ok(Text::from(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Text, A::Error> {
        let mut units = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(unit) = seq.next_element::<u16>()? {
            units.push(unit);
        }
        Ok(Text(units))
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TextVisitor)
    }
}

impl JsonSchema for Text {
    fn schema_name() -> Cow<'static, str> {
        "Text".into()
    }

    fn json_schema(_generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A string as UTF-16 code units: a JSON string (encoded to UTF-16), or an array of code units for text that is not well-formed UTF-16.",
            "anyOf": [
                { "type": "string" },
                { "type": "array", "items": { "type": "integer", "minimum": 0, "maximum": 65535 } }
            ]
        })
    }
}

/// The JSON display form of UTF-16 code units, as JavaScript's `JSON.stringify` prints it.
///
/// Surrounding double quotes; `"` and `\` escaped with a backslash; `\b \f \n \r \t`
/// for those five controls; other code units below U+0020 as `\u00xx`; a lone
/// (unpaired) surrogate as `\udxxx`; lowercase hexadecimal; every other
/// character verbatim (including U+007F, U+2028 and U+2029, as `JSON.stringify`
/// leaves them). For well-formed UTF-16 this equals `serde_json::to_string` of
/// the string.
pub fn json_display(units: &[u16]) -> String {
    let mut out = String::with_capacity(units.len() + 2);
    out.push('"');
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok('\u{8}') => out.push_str("\\b"),
            Ok('\u{c}') => out.push_str("\\f"),
            Ok('\n') => out.push_str("\\n"),
            Ok('\r') => out.push_str("\\r"),
            Ok('\t') => out.push_str("\\t"),
            Ok(c) if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            Ok(c) => out.push(c),
            Err(lone) => out.push_str(&format!("\\u{:04x}", lone.unpaired_surrogate())),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_matches_serde_json_for_well_formed_text() {
        let mut samples: Vec<String> = (0u32..0x100)
            .filter_map(char::from_u32)
            .map(String::from)
            .collect();
        samples.extend(
            [
                "a b",
                "\u{2028}\u{2029}",
                "😀",
                "e\u{301}",
                "\u{e9}",
                "\"\\/",
                "\u{7f}",
            ]
            .map(String::from),
        );
        for sample in samples {
            let units: Vec<u16> = sample.encode_utf16().collect();
            assert_eq!(
                json_display(&units),
                serde_json::to_string(&sample).unwrap(),
                "{sample:?}"
            );
        }
    }

    #[test]
    fn lone_surrogates_print_like_json_stringify() {
        // JSON.stringify("\ud800") === '"\\ud800"'; JSON.stringify("a\udfffb") === '"a\\udfffb"'
        assert_eq!(json_display(&[0xd800]), "\"\\ud800\"");
        assert_eq!(json_display(&[0x61, 0xdfff, 0x62]), "\"a\\udfffb\"");
        // A reversed pair is two lone surrogates.
        assert_eq!(json_display(&[0xde00, 0xd83d]), "\"\\ude00\\ud83d\"");
        // A proper pair is one character.
        assert_eq!(json_display(&[0xd83d, 0xde00]), "\"😀\"");
    }

    #[test]
    fn serde_forms() {
        let text: Text = serde_json::from_str("\"a😀\"").unwrap();
        assert_eq!(text.units(), &[0x61, 0xd83d, 0xde00]);
        let same: Text = serde_json::from_str("[97, 55357, 56832]").unwrap();
        assert_eq!(text, same);
        assert_eq!(serde_json::to_string(&text).unwrap(), "\"a😀\"");
        let lone = Text(vec![0xd800, 0x61]);
        assert_eq!(serde_json::to_string(&lone).unwrap(), "[55296,97]");
        assert!(serde_json::from_str::<Text>("[65536]").is_err());
        assert!(serde_json::from_str::<Text>("[-1]").is_err());
        assert!(serde_json::from_str::<Text>("1").is_err());
        assert!(serde_json::from_str::<Text>("[\"a\"]").is_err());
    }

    #[test]
    fn accessors_and_conversions() {
        let text = Text::from("a\n");
        assert_eq!(text.units(), &[0x61, 0x0a]);
        assert_eq!(Text::from(vec![0x61, 0x0a]), text);
        assert_eq!(Text::from(&[0x61_u16, 0x0a][..]), text);
        assert_eq!(text.to_rust_string().as_deref(), Some("a\n"));
        assert_eq!(text.display(), "\"a\\n\"");
        assert_eq!(Text(vec![0xd800]).to_rust_string(), None);
    }

    #[test]
    fn a_refused_value_says_what_was_expected() {
        let error = serde_json::from_str::<Text>("1").unwrap_err().to_string();
        assert!(
            error.contains("a string or an array of UTF-16 code units"),
            "{error}"
        );
    }

    #[test]
    fn the_schema_is_named_and_takes_both_forms() {
        #[derive(JsonSchema)]
        #[allow(dead_code, reason = "only its schema is read")]
        struct Holder {
            text: Text,
        }
        let schema = serde_json::to_value(schemars::schema_for!(Holder)).unwrap();
        let forms = &schema["$defs"]["Text"]["anyOf"];
        assert_eq!(forms[0]["type"], "string", "{schema}");
        assert_eq!(forms[1]["items"]["maximum"], 65535, "{schema}");
    }
}
