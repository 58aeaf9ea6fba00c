//! Reading one answer line of an adapter: the typed read of a well-formed result
//! ([`typed_result`]), straight from the line into the op's result type, and the tree
//! read ([`read_response`]) that judges every other line.
//!
//! The typed read is a shortcut, never a judge: it gives a value only when the tree
//! read would have accepted the line as the answer to its request and the result type
//! read from that tree would have been the same value. Everything else (an error
//! answer, another id, a key given twice, a key spelled with escapes, a result of
//! another shape, anything that is not JSON) it leaves to the tree read, which gives
//! the messages, the refusals and the judgements of the adapter protocol as before.

use crate::subject::{Answer, SubjectError};
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value, json};
use std::fmt;
use std::marker::PhantomData;

/// The longest an error's `kind` or `field` from an adapter is shown, in characters.
pub(crate) const NAME_SHOWN: usize = crate::quote::QUOTE_MAX;

/// The longest an error's `message` from an adapter is kept, in characters.
pub(crate) const MESSAGE_SHOWN: usize = 2 * crate::quote::QUOTE_MAX;

/// The deepest nesting the typed read takes (serde_json's own limit is 128): a deeper
/// line goes to the tree read, whatever it holds.
const DEPTH_MAX: usize = 64;

/// The result of `text`, read as `T`, when `text` is a well-formed answer to request
/// `id` holding a result ([`read_response`] accepts it, and its `result` reads as `T`);
/// `None` otherwise, without saying why: the caller reads the line again with
/// [`read_response`], which says.
///
/// `T` must refuse unknown fields (`deny_unknown_fields`, as every result type of the
/// wire does): serde_json skips an ignored value without the checks of the tree read
/// (a test holds every result type the clients read to it).
pub(crate) fn typed_result<T: DeserializeOwned>(id: u64, text: &str) -> Option<T> {
    // The tree read refuses a key given twice in any object; serde_json's typed read
    // would keep one of them (in a map, a `Value`, an ignored field) without a word.
    if !crate::scan::plain_distinct_keys(text, DEPTH_MAX) {
        return None;
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    let result = reader
        .deserialize_map(Envelope {
            id,
            result: PhantomData::<T>,
        })
        .ok()?;
    reader.end().ok()?;
    Some(result)
}

/// The top-level object of an answer: `id` equal to the request's, `result` read as
/// `T`, the value of any other key read and left (as the tree read leaves it); `error`
/// gives up.
struct Envelope<T> {
    id: u64,
    result: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Envelope<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an answer holding a result")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut id = false;
        let mut result = None;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Id => {
                    if !map.next_value_seed(IdIs(self.id))? {
                        return Err(de::Error::custom("another id"));
                    }
                    id = true;
                }
                Key::Result => result = Some(map.next_value::<T>()?),
                Key::Error => return Err(de::Error::custom("an error")),
                // Read whole, as the tree read reads it: serde_json skips an ignored
                // value without checking all the tree read checks (a lone surrogate
                // escape, a number out of range).
                Key::Other => {
                    map.next_value::<Value>()?;
                }
            }
        }
        match result {
            Some(result) if id => Ok(result),
            _ => Err(de::Error::custom("no id or no result")),
        }
    }
}

/// A top-level key of an answer.
enum Key {
    Id,
    Result,
    Error,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "id" => Key::Id,
                    "result" => Key::Result,
                    "error" => Key::Error,
                    _ => Key::Other,
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// Whether an `id` is the integer given, as `json!(id)` equals the tree's value: an
/// integer of the same value (a float, `-0`, a string is another id, or an error).
struct IdIs(u64);

impl<'de> DeserializeSeed<'de> for IdIs {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl Visitor<'_> for IdIs {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer id")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<bool, E> {
        Ok(n == self.0)
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<bool, E> {
        Ok(u64::try_from(n).is_ok_and(|n| n == self.0))
    }
}

/// Reads one response line to request `id` as a tree: `Ok(answer)`, or `Err(why)` it
/// is malformed.
pub(crate) fn read_response(id: u64, text: &str) -> Result<Answer<Value>, String> {
    // A key given twice is malformed (spec/ADAPTER.md), as in a request: serde_json
    // alone would keep the last value. One pass reads the line and checks its keys.
    let mut response: Map<String, Value> = match crate::scan::read(text) {
        Ok(Value::Object(object)) => object,
        Ok(_) => return Err("not a JSON object".into()),
        Err(crate::scan::ScanError::Syntax(err)) => return Err(format!("not JSON ({err})")),
        Err(
            crate::scan::ScanError::Refused(why) | crate::scan::ScanError::RefusedWithId(why, _),
        ) => return Err(why.replacen("in the request", "in the response", 1)),
    };
    if response.get("id") != Some(&json!(id)) {
        let got = response.get("id").map_or("missing".to_string(), |id| {
            crate::quote::shorten(&id.to_string())
        });
        return Err(format!("its id is {got}, expected {id}"));
    }
    match (response.remove("result"), response.remove("error")) {
        (Some(result), None) => Ok(Ok(result)),
        (None, Some(Value::Object(error))) => {
            // What the adapter wrote is shown escaped and capped (it reaches a terminal).
            let text = |key: &str, max: usize| {
                error
                    .get(key)
                    .and_then(Value::as_str)
                    .map(|text| crate::quote::untrusted(text, max))
            };
            let kind = text("kind", NAME_SHOWN).ok_or("the error has no `kind`")?;
            Ok(Err(SubjectError::Rejected {
                kind,
                field: text("field", NAME_SHOWN),
                message: text("message", MESSAGE_SHOWN).unwrap_or_default(),
            }))
        }
        _ => Err("it must hold exactly one of `result` and `error` (an object)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bloomproof_wire::protocols::doc_membership_v1::{Built, Framed};
    use bloomproof_wire::protocols::doc_membership_v1::{
        DigestResult, MutateResult, PositionsResult, TriplesResult, TypedResult,
    };
    use bloomproof_wire::protocols::fnv1a_utf16_v1::{EstimatesAnswer, FnvHashes, ScriptAnswer};
    use proptest::prelude::*;
    use std::fmt::Debug;

    /// What the runner made of `text` as the answer to request `id` before the typed
    /// read: the tree read, then the result type read from the tree.
    fn by_tree<T: DeserializeOwned>(id: u64, text: &str) -> Result<Answer<T>, String> {
        read_response(id, text).map(|answer| {
            answer.and_then(|value| {
                T::deserialize(&value).map_err(|err| SubjectError::Broken(err.to_string()))
            })
        })
    }

    /// The typed read against the tree read: when it gives a value, the tree read
    /// accepted the line and read the same value from it. Returns whether it gave one.
    fn agrees<T: DeserializeOwned + PartialEq + Debug>(id: u64, text: &str) -> bool {
        let typed = typed_result::<T>(id, text);
        if let Some(typed) = &typed {
            match by_tree::<T>(id, text) {
                Ok(Ok(tree)) => assert_eq!(typed, &tree, "{text}"),
                other => panic!("typed read {typed:?}, tree read {other:?}: {text}"),
            }
        }
        typed.is_some()
    }

    const POSITIONS: &str = r#"{"id":7,"result":{"positions":[3,1,2]}}"#;

    /// (the line, whether the typed read takes it) for `PositionsResult`, request 7.
    const POSITIONS_LINES: &[(&str, bool)] = &[
        (POSITIONS, true),
        (r#" {"result":{"positions":[]},"id":7} "#, true),
        (
            r#"{"id":7,"result":{"positions":[3]},"extra":{"a":[1,{"b":2}]}}"#,
            true,
        ),
        (
            r#"{"id":7,"result":{"positions":[3]},"extra":{"a":1,"a":2}}"#,
            false,
        ),
        (r#"{"id":7,"result":{"positions":[3]},"id":7}"#, false),
        (
            r#"{"id":7,"result":{"positions":[3]},"result":{"positions":[4]}}"#,
            false,
        ),
        (
            r#"{"id":7,"result":{"positions":[3],"positions":[4]}}"#,
            false,
        ),
        (
            r#"{"id":7,"result":{"positions":[3]},"x":1,"\u0078":2}"#,
            false,
        ),
        (r#"{"\u0069d":7,"result":{"positions":[3]}}"#, false),
        (r#"{"id":7.0,"result":{"positions":[3]}}"#, false),
        (r#"{"id":7e0,"result":{"positions":[3]}}"#, false),
        (r#"{"id":-0,"result":{"positions":[3]}}"#, false),
        (r#"{"id":"7","result":{"positions":[3]}}"#, false),
        (r#"{"id":8,"result":{"positions":[3]}}"#, false),
        (r#"{"id":70,"result":{"positions":[3]}}"#, false),
        (
            r#"{"id":18446744073709551623,"result":{"positions":[3]}}"#,
            false,
        ),
        (r#"{"result":{"positions":[3]}}"#, false),
        (r#"{"id":7}"#, false),
        (r#"{"id":7,"result":null}"#, false),
        (
            r#"{"id":7,"result":{"positions":[3]},"error":{"kind":"value"}}"#,
            false,
        ),
        (
            r#"{"id":7,"error":{"kind":"value","field":"m","message":"no"}}"#,
            false,
        ),
        (r#"{"id":7,"error":{"kind":"value","kind":"type"}}"#, false),
        (r#"{"id":7,"error":"no"}"#, false),
        (r#"{"id":7,"result":{"positions":[3.0]}}"#, false),
        (r#"{"id":7,"result":{"positions":[65536]}}"#, false),
        (r#"{"id":7,"result":{"positions":[-1]}}"#, false),
        (r#"{"id":7,"result":{"positions":"3"}}"#, false),
        (r#"{"id":7,"result":{"positions":[3],"more":1}}"#, false),
        (r#"{"id":7,"result":{}}"#, false),
        (r#"{"id":7,"result":{"positions":[3]}} x"#, false),
        (r#"{"id":7,"result":{"positions":[3]}"#, false),
        (r#"[{"id":7,"result":{"positions":[3]}}]"#, false),
        (r#"{"id":7,"result":{"positions":[3]},"s":"\ud800"}"#, false),
        (r#"{"id":7,"result":{"positions":[3]},"s":"a\"b\\"}"#, true),
        (r#"{"id":7,"result":{"positions":[3]},"f":1e400}"#, false),
        (
            "{\"id\":7,\"result\":{\"positions\":[3]},\"s\":\"\t\"}",
            false,
        ),
        ("", false),
        ("null", false),
        // Lines the proptest below found when the typed read was broken on purpose.
        (
            r#"{"id":7,"other":{"a":1,"a":1},"result":{"positions":[]}}"#,
            false,
        ),
        (r#"{"result":{"positions":[]},"id":8}"#, false),
        (
            r#"{"error":{"kind":"value","message":"m"},"result":{"positions":[]},"id":7}"#,
            false,
        ),
        (
            r#"{"result":{"positions":[]},"id":7,"other":["\ud800",1e400]}"#,
            false,
        ),
    ];

    #[test]
    fn the_typed_read_takes_well_formed_results_only() {
        for &(text, taken) in POSITIONS_LINES {
            assert_eq!(agrees::<PositionsResult>(7, text), taken, "{text}");
        }
        let deep = format!(
            r#"{{"id":7,"result":{{"positions":[]}},"x":{}1{}}}"#,
            "[".repeat(100),
            "]".repeat(100)
        );
        assert!(!agrees::<PositionsResult>(7, &deep));
        let deeper = deep.replace("[", "[[").replace("]", "]]");
        assert!(!agrees::<PositionsResult>(7, &deeper));
    }

    /// [`agrees`] for one result type.
    type Agrees = fn(u64, &str) -> bool;

    /// Answers of every result type the clients read, as `bloomproof adapter` writes
    /// them, and spelled otherwise.
    #[test]
    fn every_result_type_reads_the_same_both_ways() {
        let view = r#"{"bits":"0100","bits_set":1,"counters":{"false_positives":0},"history":[{"units":[104,105],"display":"\"hi\""}],"rate":{"value":0.25},"estimates":{"classic":1e-3}}"#;
        let script = format!(
            r#"{{"id":3,"result":{{"initial":{view},"steps":[{{"view":{view}}},{{"view":{view},"error":{{"kind":"value","message":"no"}}}},{{"view":{view},"save":{{"outcome":"kept","stored_units":12,"warning":null}}}},{{"view":{view},"export":"{{\"v\":1}}"}}]}}}}"#
        );
        assert!(agrees::<ScriptAnswer>(3, &script));
        let twice = script.replacen(r#""bits_set":1,"#, r#""bits_set":1,"bits_set":2,"#, 1);
        assert!(!agrees::<ScriptAnswer>(3, &twice));
        assert!(
            matches!(by_tree::<ScriptAnswer>(3, &twice), Err(why) if why.contains("duplicate key \"bits_set\" in `result.initial`"))
        );
        let triple = r#"{"maybe_present":true,"exact_checked":false,"duplicate":false}"#;
        let taken: &[(&str, Agrees)] = &[
            (
                r#"{"id":1,"result":{"h1":4294967295,"h2":1,"positions":[0,1]}}"#,
                agrees::<FnvHashes>,
            ),
            (
                r#"{"id":1,"result":{"classic":0.5,"finite_m":1,"exact":5e-324,"optimal_k":3}}"#,
                agrees::<EstimatesAnswer>,
            ),
            (
                r#"{"id":1,"result":{"classic":0.1000000000000000055511151231257827,"finite_m":-0,"exact":1.7976931348623157e308,"optimal_k":3}}"#,
                agrees::<EstimatesAnswer>,
            ),
            (
                r#"{"id":1,"result":{"digest":"00AbfF"}}"#,
                agrees::<DigestResult>,
            ),
            (
                r#"{"id":1,"result":{"message":"00ff","digest":"ab"}}"#,
                agrees::<Framed>,
            ),
            (
                r#"{"id":1,"result":{"packed_hex":"0f","documents":2}}"#,
                agrees::<Built>,
            ),
            (
                r#"{"id":1,"result":{"lookup":null}}"#,
                agrees::<TypedResult>,
            ),
            (
                r#"{"id":1,"result":{"outcome":"raised","detail":"d","params":{"m":8,"k":1,"seed_hex":""},"packed_hex":"00","documents":0,"lookups":[]}}"#,
                agrees::<MutateResult>,
            ),
        ];
        for (text, agrees) in taken {
            assert!(agrees(1, text), "{text}");
            // An unknown field is refused by the type, not skipped (a skipped value is
            // not checked as the tree read checks it).
            let unknown = text.replacen(r#""result":{"#, r#""result":{"zz":1e400,"#, 1);
            assert!(!agrees(1, &unknown), "{unknown}");
            let unknown = text.replacen(r#""result":{"#, r#""result":{"zz":"\ud800","#, 1);
            assert!(!agrees(1, &unknown), "{unknown}");
        }
        let triples = format!(r#"{{"id":1,"result":{{"results":[{triple},{triple}]}}}}"#);
        assert!(agrees::<TriplesResult>(1, &triples));
        let lookup = format!(r#"{{"id":1,"result":{{"lookup":{triple}}}}}"#);
        assert!(agrees::<TypedResult>(1, &lookup));
        let left: &[(&str, Agrees)] = &[
            (
                r#"{"id":1,"result":{"h1":4294967296,"h2":1,"positions":[0,1]}}"#,
                agrees::<FnvHashes>,
            ),
            (
                r#"{"id":1,"result":{"classic":"0.5","finite_m":1,"exact":0,"optimal_k":3}}"#,
                agrees::<EstimatesAnswer>,
            ),
            (
                r#"{"id":1,"result":{"digest":"0"}}"#,
                agrees::<DigestResult>,
            ),
            (
                r#"{"id":1,"result":{"message":"00ff","digest":"ab","digest":"ab"}}"#,
                agrees::<Framed>,
            ),
            (
                r#"{"id":1,"result":{"packed_hex":"0f","documents":-2}}"#,
                agrees::<Built>,
            ),
            (
                r#"{"id":1,"result":{"lookup":{"maybe_present":true}}}"#,
                agrees::<TypedResult>,
            ),
            (
                r#"{"id":1,"result":{"outcome":"other","detail":"d","params":{"m":8,"k":1,"seed_hex":""},"packed_hex":"00","documents":0,"lookups":[]}}"#,
                agrees::<MutateResult>,
            ),
            (
                r#"{"id":1,"result":{"outcome":"raised","detail":"d","params":{"m":8,"k":1,"seed_hex":"","k":1},"packed_hex":"00","documents":0,"lookups":[]}}"#,
                agrees::<MutateResult>,
            ),
        ];
        for (text, agrees) in left {
            assert!(!agrees(1, text), "{text}");
        }
    }

    /// A line of an answer, spelled from parts proptest picks: keys in any order, given
    /// twice or escaped, ids of other spellings, results of other shapes.
    fn answer_line() -> impl Strategy<Value = String> {
        let id = prop_oneof![
            6 => Just("7".to_string()),
            1 => Just("7.0".to_string()),
            1 => Just("-0".to_string()),
            1 => Just("\"7\"".to_string()),
            1 => Just("8".to_string()),
            1 => Just("null".to_string()),
        ];
        let number = prop_oneof![
            8 => (0u32..65_536).prop_map(|n| n.to_string()),
            1 => Just("65536".to_string()),
            1 => Just("-1".to_string()),
            1 => Just("1.5".to_string()),
            1 => Just("3e0".to_string()),
        ];
        let positions = proptest::collection::vec(number, 0..4)
            .prop_map(|items| format!("[{}]", items.join(",")));
        let result_key = prop_oneof![
            6 => Just("\"positions\""),
            1 => Just("\"position\""),
            1 => Just("\"p\\u006fsitions\""),
        ];
        let result =
            (result_key, positions, 0u8..8).prop_map(|(key, positions, shape)| match shape {
                0 => format!("{{{key}:{positions},{key}:[]}}"),
                1 => format!("{{{key}:{positions},\"x\":1}}"),
                2 => "null".to_string(),
                _ => format!("{{{key}:{positions}}}"),
            });
        let entry = prop_oneof![
            4 => id.prop_map(|id| format!("\"id\":{id}")),
            4 => result.prop_map(|result| format!("\"result\":{result}")),
            1 => Just("\"error\":{\"kind\":\"value\",\"message\":\"m\"}".to_string()),
            1 => Just("\"other\":{\"a\":[{\"b\":1,\"c\":\"}\"}]}".to_string()),
            1 => Just("\"other\":{\"a\":1,\"a\":1}".to_string()),
            1 => Just("\"other\":[\"\\ud800\",1e400]".to_string()),
            1 => Just("\"ot\\\"her\":[\"id\",\"result\"]".to_string()),
        ];
        proptest::collection::vec(entry, 0..5)
            .prop_map(|entries| format!("{{{}}}", entries.join(",")))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn the_typed_read_agrees_with_the_tree_read(text in answer_line()) {
            agrees::<PositionsResult>(7, &text);
        }
    }

    #[test]
    fn plain_well_formed_answers_take_the_typed_read() {
        // The shortcut must be taken where it pays: a well-formed answer.
        assert!(agrees::<PositionsResult>(7, POSITIONS));
        assert_eq!(
            typed_result::<PositionsResult>(7, POSITIONS),
            Some(PositionsResult {
                positions: vec![3, 1, 2]
            })
        );
    }
}
