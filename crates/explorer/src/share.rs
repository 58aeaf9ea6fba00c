//! The shareable link: m, k and the entries in a URL fragment.
//!
//! `#share=` followed by the unpadded base64url encoding of the compact JSON
//! `{"v":1,"m":8,"k":1,"entries":["a",[55296]]}` (entries in insertion order,
//! in the [`Text`] form of the session export). Restoring it is a sequence of
//! ordinary operations (set the drafts, create, insert each entry), so every
//! rule still comes from the session model.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bloomproof_session::Text;
use serde::{Deserialize, Serialize};

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
/// The values are not checked here: restoring applies them as operations.
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
    let wire: Wire =
        serde_json::from_slice(&bytes).map_err(|error| format!("not a shared filter ({error})"))?;
    if wire.v != SHARE_VERSION {
        return Err(format!(
            "link version {} is not known; this explorer reads version {SHARE_VERSION}",
            wire.v
        ));
    }
    Ok(SharedFilter {
        m: wire.m,
        k: wire.k,
        entries: wire.entries,
    })
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
}
