//! A first pass over a request line, before it is read into values: rejects a
//! duplicate key in any object (serde_json would keep the last one silently) and more
//! JSON values than a request may hold, naming where. It keeps nothing but the keys of
//! the objects it is inside.

use crate::quote;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// What the first pass found.
#[derive(Debug)]
pub enum ScanError {
    /// Not JSON: serde_json's own message, with line and column.
    Syntax(String),
    /// JSON, but not a request this reader accepts (duplicate key, too many values).
    Refused(String),
    /// Too many values, after a readable top-level `id` (a non-negative integer or a
    /// string): the message and that id.
    RefusedWithId(String, serde_json::Value),
}

/// Checks `line`: one JSON value, no duplicate key in any object, at most `max_values`
/// values (every scalar, array, object and key counts one).
pub fn check(line: &str, max_values: usize) -> Result<(), ScanError> {
    let mut state = State {
        values_left: max_values,
        max_values,
        path: Vec::new(),
        refused: None,
        duplicate: false,
        id: None,
    };
    let mut reader = serde_json::Deserializer::from_str(line);
    let result = Node {
        state: &mut state,
        top_id: false,
    }
    .deserialize(&mut reader)
    .and_then(|()| reader.end());
    match (result, state.refused) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(why)) => match state.id {
            Some(id) if !state.duplicate => Err(ScanError::RefusedWithId(why, id)),
            _ => Err(ScanError::Refused(why)),
        },
        (Err(err), None) => Err(ScanError::Syntax(err.to_string())),
    }
}

enum Segment {
    Key(String),
    Index(usize),
}

struct State {
    values_left: usize,
    max_values: usize,
    path: Vec<Segment>,
    /// Set when the pass stops for a reason of its own (not a syntax error).
    refused: Option<String>,
    /// The pass stopped at a duplicate key.
    duplicate: bool,
    /// The top-level `id`, once read, when it is a non-negative integer or a string.
    id: Option<serde_json::Value>,
}

impl State {
    fn refuse<E: de::Error>(&mut self, why: String) -> E {
        let error = E::custom(&why);
        self.refused = Some(why);
        error
    }

    fn count<E: de::Error>(&mut self) -> Result<(), E> {
        match self.values_left.checked_sub(1) {
            Some(left) => {
                self.values_left = left;
                Ok(())
            }
            None => {
                let why = format!(
                    "a request holds at most {} JSON values (each number, string, array, object and key counts one); this one holds more (at {})",
                    self.max_values,
                    match self.place().as_str() {
                        "the top level" => "the top level".to_string(),
                        place => format!("`{place}`"),
                    }
                );
                Err(self.refuse(why))
            }
        }
    }

    /// Where the pass stands: `the request`, `script[3].document`, ...
    fn place(&self) -> String {
        place_of(&self.path)
    }
}

/// `path` as a message names it: `the top level`, `script[3].document`, ...
fn place_of(path: &[Segment]) -> String {
    if path.is_empty() {
        return "the top level".into();
    }
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
            Segment::Key(key) => {
                let plain = !key.is_empty()
                    && key.len() <= quote::QUOTE_MAX
                    && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !out.is_empty() {
                    out.push('.');
                }
                if plain {
                    out.push_str(key);
                } else {
                    out.push_str(&quote::prefix(key));
                }
            }
        }
    }
    out
}

struct Node<'s> {
    state: &'s mut State,
    /// This value is the top-level `id`.
    top_id: bool,
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.state.count()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.state.count()
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<(), E> {
        if self.top_id {
            self.state.id = Some(n.into());
        }
        self.state.count()
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.state.count()
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<(), E> {
        if self.top_id {
            self.state.id = Some(text.into());
        }
        self.state.count()
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.state.count()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.state.count()?;
        let mut index = 0usize;
        loop {
            self.state.path.push(Segment::Index(index));
            let more = seq.next_element_seed(Node {
                state: &mut *self.state,
                top_id: false,
            })?;
            self.state.path.pop();
            if more.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.state.count()?;
        let mut keys: HashSet<String> = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            self.state.count()?;
            if keys.contains(&key) {
                let why = duplicate_key(&key, &self.state.place());
                self.state.duplicate = true;
                return Err(self.state.refuse(why));
            }
            let top_id = self.state.path.is_empty() && key == "id";
            self.state.path.push(Segment::Key(key.clone()));
            map.next_value_seed(Node {
                state: &mut *self.state,
                top_id,
            })?;
            self.state.path.pop();
            keys.insert(key);
        }
        Ok(())
    }
}

/// The message of a duplicate `key` in the object at `place` ([`place_of`]).
fn duplicate_key(key: &str, place: &str) -> String {
    format!(
        "duplicate key {} in {}",
        quote::prefix(key),
        match place {
            "the top level" => "the request".to_string(),
            place => format!("`{place}`"),
        }
    )
}

/// Reads `line` into a value in one pass, refusing a duplicate key in any object as
/// [`check`] does, with the same messages: `check` with no limit on the number of
/// values, then `serde_json::from_str`, in one pass instead of two. For the runner's
/// reading of answers, which needs the tree anyway.
pub fn read(line: &str) -> Result<serde_json::Value, ScanError> {
    let mut state = Reading {
        duplicate: None,
        path: Vec::new(),
    };
    let mut reader = serde_json::Deserializer::from_str(line);
    let result = Builder { state: &mut state }
        .deserialize(&mut reader)
        .and_then(|value| reader.end().map(|()| value));
    match (result, state.duplicate) {
        (Ok(value), _) => Ok(value),
        (Err(_), Some(key)) => {
            // The segments were pushed from the innermost object outwards.
            state.path.reverse();
            Err(ScanError::Refused(duplicate_key(
                &key,
                &place_of(&state.path),
            )))
        }
        (Err(err), None) => Err(ScanError::Syntax(err.to_string())),
    }
}

/// What [`read`] found: the duplicate key, and the path to its object, pushed as the
/// error unwinds (nothing is kept on the way down).
struct Reading {
    duplicate: Option<String>,
    path: Vec<Segment>,
}

struct Builder<'s> {
    state: &'s mut Reading,
}

impl<'de> DeserializeSeed<'de> for Builder<'_> {
    type Value = serde_json::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Builder<'_> {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
        Ok(b.into())
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
        Ok(n.into())
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
        Ok(n.into())
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Self::Value, E> {
        // As serde_json's own `Value` reads it (JSON has no NaN or infinity).
        Ok(serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, Into::into))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(text.into())
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Self::Value, E> {
        Ok(text.into())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let index = items.len();
            match seq.next_element_seed(Builder {
                state: &mut *self.state,
            }) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(items.into()),
                Err(err) => {
                    self.state.path.push(Segment::Index(index));
                    return Err(err);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                let error = de::Error::custom(format!("duplicate key {}", quote::prefix(&key)));
                self.state.duplicate = Some(key);
                return Err(error);
            }
            match map.next_value_seed(Builder {
                state: &mut *self.state,
            }) {
                Ok(value) => {
                    object.insert(key, value);
                }
                Err(err) => {
                    self.state.path.push(Segment::Key(key));
                    return Err(err);
                }
            }
        }
        Ok(object.into())
    }
}

/// Whether the keys of every object of `line` are distinct and written without a
/// backslash, and no value nests deeper than `depth_max`: what the typed read of an
/// answer (`answer.rs`) needs to know before it may stand for [`read`], which
/// refuses a key given twice (serde_json's typed read would keep one silently). A
/// lexical pass, no values built: strings are skipped to their closing quote, and the
/// string after `{` or after a `,` inside an object is a key. Meant for a line
/// serde_json then reads as JSON; of any other line it says nothing useful, but it
/// returns (`false` for an unclosed string or an unbalanced bracket).
pub(crate) fn plain_distinct_keys(line: &str, depth_max: usize) -> bool {
    let bytes = line.as_bytes();
    // The keys of the objects open around the scan, and, for each open object or
    // array, where its keys start (`None` for an array).
    let mut keys: Vec<&[u8]> = Vec::new();
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut at_key = false;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'"' => {
                let start = i + 1;
                let mut end = start;
                let mut escaped = false;
                loop {
                    let rest = bytes.get(end..).unwrap_or_default();
                    match memchr::memchr2(b'"', b'\\', rest) {
                        None => return false,
                        Some(n) if rest.get(n) == Some(&b'"') => {
                            end += n;
                            break;
                        }
                        Some(n) => {
                            escaped = true;
                            end += n + 2;
                        }
                    }
                }
                if at_key {
                    if escaped {
                        return false;
                    }
                    keys.push(bytes.get(start..end).unwrap_or_default());
                    at_key = false;
                }
                i = end + 1;
                continue;
            }
            b'{' | b'[' => {
                if open.len() >= depth_max {
                    return false;
                }
                let object = byte == b'{';
                open.push(object.then_some(keys.len()));
                at_key = object;
            }
            b'}' => {
                let Some(Some(first)) = open.pop() else {
                    return false;
                };
                if !distinct(keys.get_mut(first..).unwrap_or_default()) {
                    return false;
                }
                keys.truncate(first);
                at_key = false;
            }
            b']' => {
                if !matches!(open.pop(), Some(None)) {
                    return false;
                }
                at_key = false;
            }
            b',' => at_key = matches!(open.last(), Some(Some(_))),
            _ => {}
        }
        i += 1;
    }
    open.is_empty()
}

/// Whether no two of `keys` are equal (their order is changed).
fn distinct(keys: &mut [&[u8]]) -> bool {
    if keys.len() <= 8 {
        return keys
            .iter()
            .enumerate()
            .all(|(i, key)| !keys.iter().skip(i + 1).any(|other| other == key));
    }
    keys.sort_unstable();
    keys.windows(2).all(|pair| pair.first() != pair.last())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(line: &str) -> String {
        match check(line, 100) {
            Err(ScanError::Refused(why)) => why,
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn duplicates_are_named_where_they_are() {
        assert_eq!(
            refused(r#"{"id":1,"m":1,"m":2}"#),
            "duplicate key \"m\" in the request"
        );
        assert_eq!(
            refused(r#"{"script":[{"op":"a"},{"op":"import","document":{"v":1,"v":2}}]}"#),
            "duplicate key \"v\" in `script[1].document`"
        );
        assert_eq!(
            refused(r#"{"a b":{"x":1,"x":1}}"#),
            "duplicate key \"x\" in `\"a b\"`"
        );
        assert!(check(r#"{"a":{"m":1},"b":{"m":1},"m":[{"m":1},{"m":2}]}"#, 100).is_ok());
    }

    #[test]
    fn values_are_counted() {
        assert!(check("[1,2,3]", 4).is_ok());
        assert!(matches!(
            check(r#"{"id":7,"a":[1,2,3]}"#, 4),
            Err(ScanError::RefusedWithId(_, id)) if id == 7
        ));
        assert!(matches!(
            check(r#"{"a":[1,2,3],"id":7}"#, 4),
            Err(ScanError::Refused(_))
        ));
        assert!(matches!(
            check(r#"{"id":7,"id":8}"#, 100),
            Err(ScanError::Refused(_))
        ));
        assert!(refused_n("[1,2,3,4]", 4).contains("at most 4 JSON values"));
        assert!(refused_n(r#"{"a":1,"b":2}"#, 4).contains("at `b`"));
    }

    fn refused_n(line: &str, n: usize) -> String {
        match check(line, n) {
            Err(ScanError::Refused(why)) => why,
            other => format!("{other:?}"),
        }
    }

    /// `read` against the two passes it replaces: `check` (no limit on values) then
    /// `serde_json::from_str`.
    fn two_passes(line: &str) -> Result<serde_json::Value, String> {
        match check(line, usize::MAX) {
            Ok(()) => serde_json::from_str(line).map_err(|err| format!("syntax {err}")),
            Err(ScanError::Syntax(err)) => Err(format!("syntax {err}")),
            Err(ScanError::Refused(why) | ScanError::RefusedWithId(why, _)) => {
                Err(format!("refused {why}"))
            }
        }
    }

    fn one_pass(line: &str) -> Result<serde_json::Value, String> {
        read(line).map_err(|err| match err {
            ScanError::Syntax(err) => format!("syntax {err}"),
            ScanError::Refused(why) | ScanError::RefusedWithId(why, _) => format!("refused {why}"),
        })
    }

    #[test]
    fn read_is_check_then_from_str_in_one_pass() {
        let lines = [
            r#"{"id":1,"result":{"positions":[1,2,3]}}"#,
            r#"{"id":1,"m":1,"m":2}"#,
            r#"{"id":7,"id":8}"#,
            r#"{"script":[{"op":"a"},{"op":"import","document":{"v":1,"v":2}}]}"#,
            r#"{"a b":{"x":1,"x":1}}"#,
            r#"{"a":{"m":1},"b":{"m":1},"m":[{"m":1},{"m":2}]}"#,
            r#"[[0,[1,{"k":{"k":1,"j":[{"q":1,"q":2}]}}]]]"#,
            r#"{"m":1,"m":}"#,
            r#"{"x":[1,2,{"y":true,"y":false}],"z":null}"#,
            r#"{"f":-0.5,"e":1e300,"i":-9223372036854775808,"u":18446744073709551615,"s":"\u00e9\ud83d\ude00\"","t":true,"n":null}"#,
            r#"{"big":1e400}"#,
            r#"{"id":1,"result":{}} x"#,
            r#"{"id":1,"result":{}}  "#,
            r#"{"a":"#,
            "1 2",
            "",
            r#"{"\u0061":1,"a":2}"#,
            r#"{"k":"\ud800"}"#,
        ];
        for line in lines {
            assert_eq!(one_pass(line), two_passes(line), "{line}");
        }
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(one_pass(&deep), two_passes(&deep));
        assert_eq!(
            one_pass(r#"{"script":[{"op":"a"},{"op":"import","document":{"v":1,"v":2}}]}"#),
            Err("refused duplicate key \"v\" in `script[1].document`".to_string())
        );
    }

    #[test]
    fn syntax_errors_are_serde_json_s() {
        let got = check("{\"a\":", 100);
        assert!(
            matches!(&got, Err(ScanError::Syntax(why)) if why.contains("EOF")),
            "{got:?}"
        );
        assert!(matches!(check("1 2", 100), Err(ScanError::Syntax(_))));
    }
}
