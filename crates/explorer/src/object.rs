//! A JSON object, and only an object, where a request or a link expects one.
//!
//! serde's derived `Deserialize` reads a struct (and an internally tagged enum
//! such as [`Op`](bloomproof_session::Op)) from a JSON array too, taking the
//! fields in order: `[null, {"op": "create"}]` would be read as
//! `{"session": null, "op": {"op": "create"}}`. The explorer takes one shape
//! for each input, so every place that expects an object reads it through
//! [`Object`], which refuses any other JSON value, an array included.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

/// What serde says was expected when the value is not an object.
pub(crate) const EXPECTED_OBJECT: &str =
    "a JSON object ({\"name\": value, ...}), not an array or another value";

/// A `T` read from a JSON object only.
pub(crate) struct Object<T>(pub(crate) T);

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = Object<T>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(EXPECTED_OBJECT)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(Object)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ObjectVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bloomproof_session::Op;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Pair {
        a: u32,
        b: Option<u32>,
    }

    #[test]
    fn objects_are_read_and_arrays_refused() {
        let Object(pair) = serde_json::from_str::<Object<Pair>>(r#"{"a": 1}"#).unwrap();
        assert_eq!((pair.a, pair.b), (1, None));
        // The derived impl alone takes the array.
        assert!(serde_json::from_str::<Pair>("[1, 2]").is_ok());
        for text in ["[1, 2]", "[]", "1", "\"a\"", "null"] {
            let error = serde_json::from_str::<Object<Pair>>(text)
                .err()
                .unwrap()
                .to_string();
            assert!(error.contains("a JSON object"), "{text}: {error}");
        }
        let error = serde_json::from_str::<Object<Pair>>(r#"{"a": 1, "a": 2}"#)
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("duplicate field"), "{error}");
    }

    #[test]
    fn an_operation_is_an_object() {
        assert!(serde_json::from_str::<Op>(r#"["insert", "a"]"#).is_ok());
        assert!(serde_json::from_str::<Object<Op>>(r#"["insert", "a"]"#).is_err());
        let Object(op) =
            serde_json::from_str::<Object<Op>>(r#"{"op": "insert", "value": [55296]}"#).unwrap();
        assert_eq!(
            op,
            Op::Insert {
                value: bloomproof_session::Text(vec![0xd800])
            }
        );
    }
}
