//! The shareable link: m, k and the entries in a URL fragment.
//!
//! `#share=` followed by the unpadded base64url encoding of the compact JSON
//! `{"v":1,"m":8,"k":1,"entries":["a",[55296]]}` (entries in insertion order,
//! in the [`Text`] form of the session export). Restoring it is a sequence of
//! ordinary operations (set the drafts, create, insert each entry), so every
//! rule still comes from the session model.
//!
//! One shape only, so that a link has one meaning: the JSON is an object (not
//! an array of the values in order) with exactly the keys `v`, `m`, `k` and
//! `entries`, none twice, `v` is 1, and **each entry appears once** (a link is
//! made from a filter's distinct entries; two entries with the same UTF-16 code
//! units, whether written as a string or as an array of units, make the link
//! invalid rather than a repeated insertion).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bloomproof_session::{Text, json_display};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

use crate::object::Object;

/// What a shared fragment starts with.
pub const SHARE_PREFIX: &str = "#share=";

/// The version written into a fragment (the only one read).
const SHARE_VERSION: u32 = 1;

/// What a shareable link carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedFilter {
    /// Number of bits.
    pub m: u32,
    /// Number of hash indices.
    pub k: u32,
    /// The reference entries, in insertion order.
    pub entries: Vec<Text>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    v: u32,
    m: u32,
    k: u32,
    entries: Vec<Text>,
}

/// The fragment (with its `#share=` prefix) for a filter.
pub fn encode_fragment(shared: &SharedFilter) -> String {
    let wire = Wire {
        v: SHARE_VERSION,
        m: shared.m,
        k: shared.k,
        entries: shared.entries.clone(),
    };
    // Serialising integers and `Text` to a string cannot fail.
    let json = serde_json::to_string(&wire).unwrap_or_default();
    format!("{SHARE_PREFIX}{}", URL_SAFE_NO_PAD.encode(json))
}

/// Reads a fragment, or a whole link containing one (the text after the last
/// `#share=`; a bare encoded value is accepted too).
///
/// The shape is checked here (an object with the four keys once each, version
/// 1, no entry twice); m, k and each entry are checked by restoring, which
/// applies them as operations.
pub fn decode_fragment(text: &str) -> Result<SharedFilter, String> {
    let text = text.trim();
    let encoded = match text.rfind(SHARE_PREFIX) {
        Some(at) => &text[at + SHARE_PREFIX.len()..],
        None if text.contains('#') => {
            return Err(format!(
                "no {SHARE_PREFIX:?} part; a shared link ends in {SHARE_PREFIX}..."
            ));
        }
        None => text,
    };
    let bytes = URL_SAFE_NO_PAD
        .decode(encoded.trim_end_matches('='))
        .map_err(|error| format!("not base64url text ({error})"))?;
    let Object(wire): Object<Wire> =
        serde_json::from_slice(&bytes).map_err(|error| format!("not a shared filter ({error})"))?;
    if wire.v != SHARE_VERSION {
        return Err(format!(
            "link version {} is not known; this explorer reads version {SHARE_VERSION}",
            wire.v
        ));
    }
    let mut seen: HashMap<&[u16], usize> = HashMap::with_capacity(wire.entries.len());
    for (index, entry) in wire.entries.iter().enumerate() {
        if let Some(first) = seen.insert(&entry.0, index) {
            return Err(format!(
                "entries {first} and {index} are the same string {}; a link lists each entry once",
                short_display(&entry.0)
            ));
        }
    }
    Ok(SharedFilter {
        m: wire.m,
        k: wire.k,
        entries: wire.entries,
    })
}

/// The display form of an entry, at most 40 code units of it.
fn short_display(units: &[u16]) -> String {
    const SHOWN: usize = 40;
    if units.len() <= SHOWN {
        json_display(units)
    } else {
        format!(
            "{}... ({} units)",
            json_display(&units[..SHOWN]),
            units.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_a_lone_surrogate() {
        let shared = SharedFilter {
            m: 8,
            k: 1,
            entries: vec![Text::from("a b"), Text(vec![0xd800]), Text::from("😀")],
        };
        let fragment = encode_fragment(&shared);
        assert!(fragment.starts_with(SHARE_PREFIX));
        assert_eq!(decode_fragment(&fragment).unwrap(), shared);
        let link = format!("http://127.0.0.1:1234/{fragment}");
        assert_eq!(decode_fragment(&link).unwrap(), shared);
    }

    #[test]
    fn rejects_garbage() {
        assert!(decode_fragment("#share=!!!").is_err());
        assert!(decode_fragment("#bits").is_err());
        let other = URL_SAFE_NO_PAD.encode(r#"{"v":2,"m":8,"k":1,"entries":[]}"#);
        assert!(decode_fragment(&other).unwrap_err().contains("version 2"));
    }

    fn encoded(json: &str) -> String {
        format!("{SHARE_PREFIX}{}", URL_SAFE_NO_PAD.encode(json))
    }

    #[test]
    fn one_shape_only() {
        // The values in order, as an array: not a link.
        let error = decode_fragment(&encoded(r#"[1,8,1,["a"]]"#)).unwrap_err();
        assert!(error.contains("a JSON object"), "{error}");
        // A key twice, or an unknown key.
        let error =
            decode_fragment(&encoded(r#"{"v":1,"m":8,"m":16,"k":1,"entries":[]}"#)).unwrap_err();
        assert!(error.contains("duplicate field"), "{error}");
        assert!(decode_fragment(&encoded(r#"{"v":1,"m":8,"k":1,"entries":[],"x":0}"#)).is_err());
    }

    #[test]
    fn an_entry_twice_is_refused() {
        for json in [
            r#"{"v":1,"m":8,"k":1,"entries":["a","b","a"]}"#,
            r#"{"v":1,"m":8,"k":1,"entries":["a","b",[97]]}"#,
        ] {
            let error = decode_fragment(&encoded(json)).unwrap_err();
            assert!(
                error.contains("entries 0 and 2") && error.contains("\"a\""),
                "{error}"
            );
        }
        let long = "x".repeat(256);
        let json = format!(r#"{{"v":1,"m":8,"k":1,"entries":["{long}","{long}"]}}"#);
        let error = decode_fragment(&encoded(&json)).unwrap_err();
        assert!(
            error.contains("(256 units)") && error.len() < 200,
            "{error}"
        );
        // Distinct entries that differ only in form are fine when they differ in units.
        let ok = decode_fragment(&encoded(
            r#"{"v":1,"m":8,"k":1,"entries":["a",[55296],"b"]}"#,
        ));
        assert_eq!(ok.unwrap().entries.len(), 3);
    }
}
