//! The `Text` type: its conversions, display form, serde forms and JSON Schema.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use bloomproof_session::{Op, Text, json_display, units_len};
use proptest::prelude::*;

#[test]
fn conversions_keep_the_code_units() {
    let units = vec![0x61, 0xd83d, 0xde00, 0xd800];
    assert_eq!(Text::from(units.clone()).units(), units.as_slice());
    assert_eq!(Text::from(units.as_slice()).units(), units.as_slice());
    assert_eq!(Text::from("a😀").units(), &[0x61, 0xd83d, 0xde00]);
    assert_eq!(Text::from(units.clone()), Text(units));
}

#[test]
fn rust_string_only_for_well_formed_utf16() {
    assert_eq!(Text::from("a😀").to_rust_string(), Some("a😀".to_owned()));
    assert_eq!(Text(vec![0x62]).to_rust_string(), Some("b".to_owned()));
    assert_eq!(Text(vec![0x61, 0xd800]).to_rust_string(), None);
    assert_eq!(Text(vec![0xde00, 0xd83d]).to_rust_string(), None);
}

#[test]
fn display_is_the_json_display_form() {
    for units in [vec![0x61, 0x22, 0x0a], vec![0xd800], vec![0x20]] {
        let text = Text(units.clone());
        assert_eq!(text.display(), json_display(&units));
    }
    assert_eq!(Text::from("a \"b\"").display(), r#""a \"b\"""#);
    assert_eq!(Text(vec![0xd800]).display(), r#""\ud800""#);
}

#[test]
fn a_wrong_json_type_says_what_is_expected() {
    for bad in ["1", "true", "{}", "null"] {
        let error = serde_json::from_str::<Text>(bad).unwrap_err().to_string();
        assert!(
            error.contains("a string or an array of UTF-16 code units (integers 0..=65535)"),
            "{bad}: {error}"
        );
    }
}

#[test]
fn json_schema_is_a_string_or_an_array_of_code_units() {
    let schema = serde_json::to_value(schemars::schema_for!(Text)).unwrap();
    assert_eq!(schema["title"], "Text");
    assert_eq!(
        schema["anyOf"],
        serde_json::json!([
            { "type": "string" },
            { "type": "array", "items": { "type": "integer", "minimum": 0, "maximum": 65535 } }
        ])
    );
    assert!(
        schema["description"]
            .as_str()
            .unwrap()
            .starts_with("A string as UTF-16 code units")
    );
    // Types that hold a Text refer to it by its name.
    let op = serde_json::to_value(schemars::schema_for!(Op)).unwrap();
    assert_eq!(op["$defs"]["Text"]["anyOf"], schema["anyOf"]);
    assert!(op.to_string().contains("\"$ref\":\"#/$defs/Text\""), "{op}");
}

#[test]
fn units_len_counts_utf16_code_units_by_hand() {
    assert_eq!(units_len(""), 0);
    assert_eq!(units_len("abc"), 3);
    // Two bytes, three bytes: one unit each; four bytes: two units.
    assert_eq!(units_len("\u{e9}"), 1);
    assert_eq!(units_len("\u{20ac}"), 1);
    assert_eq!(units_len("\u{ffff}"), 1);
    assert_eq!(units_len("\u{10000}"), 2);
    assert_eq!(units_len("a\u{e9}\u{20ac}\u{1f600}"), 5);
    assert_eq!(units_len(&"\u{10ffff}".repeat(1000)), 2000);
    // U+FFFD, the replacement a lossy conversion puts for a lone surrogate, is one.
    assert_eq!(units_len("\u{fffd}"), 1);
}

proptest! {
    /// The count on bytes is JavaScript's `length`: the UTF-16 encoding's length, for
    /// any text (every plane, every UTF-8 length, and long texts).
    #[test]
    fn units_len_is_the_utf16_encodings_length(text in any::<String>(), repeat in 1usize..64) {
        let long = text.repeat(repeat);
        prop_assert_eq!(units_len(&text), text.encode_utf16().count());
        prop_assert_eq!(units_len(&long), long.encode_utf16().count());
    }
}
