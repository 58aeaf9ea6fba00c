//! The hand-picked `doc-membership-v1` rejections, read from
//! `data/doc-membership-v1.hand-picked.json` (compiled in).
//!
//! Each entry is the file's valid `base` construction with some of its inputs replaced,
//! and the error the source document's check order says it must give. Values are
//! typed values as in the vector files, plus two shorthands for long inputs:
//! `{"bytes_repeat": {"hex": "61", "times": 65}}` (one bytes value, `hex` repeated) and,
//! as an element of a tuple or list, `{"repeat": {"times": 65, "value": ...}}` (that
//! many copies of one element). The generator adds the flags it can derive (see
//! [`DERIVED`]); an entry lists only the others (`published`, `multiple-faults`).
//! Production must then give exactly the expected error, as for every rejection.

use bloomproof_format::vectors::DocRejectionCase;
use bloomproof_format::{Hex, RejectExpect, TypedValue};
use serde::Deserialize;

/// Where the data lives, for error messages.
pub const PATH: &str = "crates/vectors-generate/data/doc-membership-v1.hand-picked.json";

const TEXT: &str = include_str!("../data/doc-membership-v1.hand-picked.json");

/// Flags the generator derives for every hand-picked rejection; an entry may not list
/// them.
pub const DERIVED: [&str; 6] = [
    "boundary",
    "type-error",
    "value-error",
    "truncation-trap",
    "max-records",
    "empty-snapshot",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// What the file is (for its readers; not used).
    #[serde(rename = "comment")]
    _comment: String,
    base: Inputs,
    rejections: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Inputs {
    records: Value,
    m: Value,
    k: Value,
    seed: Value,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    id: String,
    #[serde(default)]
    flags: Vec<String>,
    records: Option<Value>,
    m: Option<Value>,
    k: Option<Value>,
    seed: Option<Value>,
    /// When given, the construction succeeds and this lookup must fail.
    item: Option<Value>,
    expect: RejectExpect,
}

/// A typed value, or a shorthand that expands to typed values.
#[derive(Debug, Deserialize)]
#[serde(
    untagged,
    expecting = "a typed value such as {\"int\": 16} or {\"bytes\": \"61\"} (lowercase hex), \
                 or {\"bytes_repeat\": {\"hex\", \"times\"}}, or inside a tuple or list \
                 {\"repeat\": {\"times\", \"value\"}}"
)]
enum Value {
    Typed(TypedValue),
    Shorthand(Shorthand),
}

/// The values that are not plain typed values: containers holding shorthands, and
/// the shorthands themselves.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Shorthand {
    Tuple(Vec<Value>),
    List(Vec<Value>),
    BytesRepeat { hex: Hex, times: usize },
    Repeat { times: usize, value: Box<Value> },
}

impl Value {
    /// The one typed value this stands for; `repeat` stands for several, so it is only
    /// allowed as an element of a tuple or list.
    fn typed(&self) -> Result<TypedValue, String> {
        Ok(match self {
            Value::Typed(value) => value.clone(),
            Value::Shorthand(Shorthand::Tuple(items)) => TypedValue::Tuple(elements(items)?),
            Value::Shorthand(Shorthand::List(items)) => TypedValue::List(elements(items)?),
            Value::Shorthand(Shorthand::BytesRepeat { hex, times }) => {
                TypedValue::Bytes(Hex(hex.0.repeat(*times)))
            }
            Value::Shorthand(Shorthand::Repeat { .. }) => {
                return Err("`repeat` is only allowed as an element of a tuple or list".into());
            }
        })
    }
}

/// The elements of a tuple or list, each `repeat` expanded.
fn elements(items: &[Value]) -> Result<Vec<TypedValue>, String> {
    let mut out = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let at = |err: String| format!("[{index}]{}{err}", separator(&err));
        match item {
            Value::Shorthand(Shorthand::Repeat { times, value }) => {
                let one = value.typed().map_err(at)?;
                out.extend(std::iter::repeat_n(one, *times));
            }
            other => out.push(other.typed().map_err(at)?),
        }
    }
    Ok(out)
}

/// Every hand-picked rejection, in file order, with the flags given by hand only (the
/// caller derives the others).
///
/// # Errors
///
/// A message naming the file, the entry (index and id) and the field: JSON that does
/// not fit the format (with its path), a `repeat` outside a tuple or list, a derived
/// flag listed by hand, or a duplicate id.
pub fn rejections() -> Result<Vec<DocRejectionCase>, String> {
    parse(TEXT)
}

fn parse(text: &str) -> Result<Vec<DocRejectionCase>, String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let file: File = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|err| format!("{PATH}: at {}: {}", err.path(), err.inner()))?;
    let base = |name: &str, value: &Value| {
        value
            .typed()
            .map_err(|err| format!("{PATH}: base.{name}{err}"))
    };
    let records = base("records", &file.base.records)?;
    let m = base("m", &file.base.m)?;
    let k = base("k", &file.base.k)?;
    let seed = base("seed", &file.base.seed)?;
    let mut ids = std::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(file.rejections.len());
    for (index, entry) in file.rejections.into_iter().enumerate() {
        let place = format!("{PATH}: rejections[{index}] (`{}`)", entry.id);
        if !ids.insert(entry.id.clone()) {
            return Err(format!("{place}: the id is given twice"));
        }
        if let Some(flag) = entry.flags.iter().find(|f| DERIVED.contains(&f.as_str())) {
            return Err(format!(
                "{place}: flags: {flag:?} is derived by the generator; do not list it"
            ));
        }
        let field = |name: &str, value: Option<&Value>, default: &TypedValue| match value {
            None => Ok(default.clone()),
            Some(value) => value
                .typed()
                .map_err(|err| format!("{place}: {name}{}{err}", separator(&err))),
        };
        out.push(DocRejectionCase {
            records: field("records", entry.records.as_ref(), &records)?,
            m: field("m", entry.m.as_ref(), &m)?,
            k: field("k", entry.k.as_ref(), &k)?,
            seed: field("seed", entry.seed.as_ref(), &seed)?,
            item: match &entry.item {
                None => None,
                Some(item) => Some(
                    item.typed()
                        .map_err(|err| format!("{place}: item{}{err}", separator(&err)))?,
                ),
            },
            id: entry.id,
            flags: entry.flags,
            expect: entry.expect,
        });
    }
    Ok(out)
}

/// `": "` before a message, nothing before an element path such as `[3]: ...`, so
/// that paths read `records[1][0]: ...`.
fn separator(err: &str) -> &'static str {
    if err.starts_with('[') { "" } else { ": " }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrap(entries: &str) -> String {
        format!(
            r#"{{"comment": "", "base": {{"records": {{"tuple": []}}, "m": {{"int": 16}}, "k": {{"int": 3}}, "seed": {{"bytes": ""}}}}, "rejections": [{entries}]}}"#
        )
    }

    #[test]
    fn the_committed_file_reads() {
        let all = rejections().unwrap();
        assert!(all.len() > 50, "{} entries", all.len());
    }

    #[test]
    fn shorthands_expand() {
        let text = wrap(
            r#"{"id": "a", "records": {"tuple": [{"str": "x"}, {"repeat": {"times": 3, "value": {"bytes_repeat": {"hex": "61", "times": 2}}}}]}, "expect": {"error": "value", "field": "records"}}"#,
        );
        let all = parse(&text).unwrap();
        let aa = TypedValue::Bytes(Hex(b"aa".to_vec()));
        assert_eq!(
            all[0].records,
            TypedValue::Tuple(vec![
                TypedValue::Str("x".into()),
                aa.clone(),
                aa.clone(),
                aa
            ])
        );
        assert_eq!(all[0].m, TypedValue::Int(16));
        assert_eq!(all[0].item, None);
    }

    #[test]
    fn errors_name_the_entry_and_the_field() {
        let cases = [
            (
                r#"{"id": "a", "m": {"integer": 1}, "expect": {"error": "type", "field": "m"}}"#,
                "rejections[0].m",
            ),
            (
                r#"{"id": "a", "mm": {"int": 1}, "expect": {"error": "type", "field": "m"}}"#,
                "unknown field `mm`",
            ),
            (
                r#"{"id": "a", "seed": {"repeat": {"times": 2, "value": {"int": 1}}}, "expect": {"error": "type", "field": "seed"}}"#,
                "rejections[0] (`a`): seed: `repeat` is only allowed",
            ),
            (
                r#"{"id": "a", "records": {"list": [{"int": 1}, {"tuple": [{"repeat": {"times": 1, "value": {"repeat": {"times": 1, "value": {"int": 1}}}}}]}]}, "expect": {"error": "type", "field": "records"}}"#,
                "rejections[0] (`a`): records[1][0]: `repeat` is only allowed",
            ),
            (
                r#"{"id": "a", "flags": ["boundary"], "expect": {"error": "type", "field": "m"}}"#,
                "rejections[0] (`a`): flags: \"boundary\" is derived",
            ),
            (
                r#"{"id": "a", "expect": {"error": "type", "field": "m"}}, {"id": "a", "expect": {"error": "type", "field": "m"}}"#,
                "rejections[1] (`a`): the id is given twice",
            ),
        ];
        for (entries, want) in cases {
            let err = parse(&wrap(entries)).unwrap_err();
            assert!(err.starts_with(PATH), "{err}");
            assert!(err.contains(want), "{err} lacks {want}");
        }
    }
}
