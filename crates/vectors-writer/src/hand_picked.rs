//! The hand-picked `doc-membership-v1` cases, read from
//! `data/doc-membership-v1.hand-picked.json` (compiled in): the published positions,
//! the published and empty snapshots, and the rejections; the file's types are
//! `bloomproof_wire::hand_picked::doc`, their expansion is here. (The boundary grids
//! and the sweeps are computed in `doc/`.)
//!
//! A position is parameters and an item; a snapshot is parameters, records and
//! queries, and optionally the figures it must reproduce (`expect`). Bytes are
//! `{"hex": "0041"}`, `{"text": "doc-00"}` (UTF-8) or `{"bytes_repeat": {"hex": "73",
//! "times": 16}}`. Their flags are given by hand (`published` or `boundary`); the
//! writer adds the ones it derives from the content.
//!
//! A rejection is the file's valid `base` construction with some of its inputs replaced,
//! and the error the source document's check order says it must give. Values are
//! typed values as in the vector files, plus two shorthands for long inputs:
//! `{"bytes_repeat": {"hex": "61", "times": 65}}` (one bytes value, `hex` repeated) and,
//! as an element of a tuple or list, `{"repeat": {"times": 65, "value": ...}}` (that
//! many copies of one element). The writer adds the flags it can derive (see
//! [`DERIVED`]); an entry lists only the others (`published`, `multiple-faults`).
//! Production must then give exactly the expected error, as for every rejection.

use bloomproof_wire::hand_picked::doc::{
    ByteString, BytesRepeat, HandPickedFile, Inputs, RejectionEntry, Shorthand, SnapshotExpect,
    Value,
};
use bloomproof_wire::protocols::doc_membership_v1::DocRejectionCase;
use bloomproof_wire::protocols::doc_membership_v1::TypedCall;
use bloomproof_wire::{DocParams, Hex, TypedValue};

/// Where the data lives, for error messages.
pub const PATH: &str = "crates/vectors-writer/data/doc-membership-v1.hand-picked.json";

const TEXT: &str = include_str!("../data/doc-membership-v1.hand-picked.json");

/// The protocol's checks file, whose `published_figures` the data names.
pub(crate) const CHECKS_PATH: &str = "spec/doc-membership-v1/checks.json";

pub(crate) const CHECKS: &str = include_str!("../../../spec/doc-membership-v1/checks.json");

/// The published figures the data names (`{"published": "<name>"}`).
#[cfg(test)]
pub fn published() -> Result<crate::PublishedFigures, String> {
    crate::PublishedFigures::read(CHECKS_PATH, CHECKS)
}

/// Flags the writer derives for every hand-picked rejection; an entry may not list
/// them.
pub const DERIVED: [&str; 6] = [
    "boundary",
    "type-error",
    "value-error",
    "truncation-trap",
    "max-records",
    "empty-snapshot",
];

/// The bytes a [`ByteString`] stands for.
fn bytes(string: &ByteString) -> Vec<u8> {
    match string {
        ByteString::Hex(hex) => hex.0.clone(),
        ByteString::Text(text) => text.as_bytes().to_vec(),
        ByteString::BytesRepeat(BytesRepeat { hex, times }) => hex.0.repeat(*times),
    }
}

/// Parameters as the writer takes them: m and k within `u32`, the seed's bytes.
pub struct Params {
    pub m: u32,
    pub k: u32,
    pub seed: Vec<u8>,
}

fn params(place: &str, params: &DocParams) -> Result<Params, String> {
    let narrow = |name: &str, value: u64| {
        u32::try_from(value).map_err(|_| format!("{place}: params.{name}: {value} is too large"))
    };
    Ok(Params {
        m: narrow("m", params.m)?,
        k: narrow("k", params.k)?,
        seed: params.seed_hex.0.clone(),
    })
}

/// A hand-picked position case's inputs.
pub struct Position {
    pub id: String,
    pub flags: Vec<String>,
    pub params: Params,
    pub item: Vec<u8>,
}

/// A hand-picked snapshot case's inputs and expected figures.
pub struct Snapshot {
    pub id: String,
    pub flags: Vec<String>,
    pub params: Params,
    pub records: Vec<Vec<u8>>,
    pub queries: Vec<Vec<u8>>,
    pub expect: SnapshotExpect,
}

fn read_file(text: &str) -> Result<HandPickedFile, String> {
    parse_json(PATH, text)
}

/// Deserializes a data file's `text`; an error names `path` and the JSON path of the
/// value that does not fit.
pub fn parse_json<T: serde::de::DeserializeOwned>(path: &str, text: &str) -> Result<T, String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|err| format!("{path}: at {}: {}", err.path(), err.inner()))
}

/// The one typed value `value` stands for; `repeat` stands for several, so it is only
/// allowed as an element of a tuple or list.
fn typed(value: &Value) -> Result<TypedValue, String> {
    Ok(match value {
        Value::Typed(value) => value.clone(),
        Value::Shorthand(Shorthand::Tuple(items)) => TypedValue::Tuple(elements(items)?),
        Value::Shorthand(Shorthand::List(items)) => TypedValue::List(elements(items)?),
        Value::Shorthand(Shorthand::BytesRepeat(BytesRepeat { hex, times })) => {
            TypedValue::Bytes(Hex(hex.0.repeat(*times)))
        }
        Value::Shorthand(Shorthand::Repeat { .. }) => {
            return Err("`repeat` is only allowed as an element of a tuple or list".into());
        }
    })
}

/// The elements of a tuple or list, each `repeat` expanded.
fn elements(items: &[Value]) -> Result<Vec<TypedValue>, String> {
    let mut out = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let at = |err: String| format!("[{index}]{}{err}", separator(&err));
        match item {
            Value::Shorthand(Shorthand::Repeat { times, value }) => {
                let one = typed(value).map_err(at)?;
                out.extend(std::iter::repeat_n(one, *times));
            }
            other => out.push(typed(other).map_err(at)?),
        }
    }
    Ok(out)
}

/// Every hand-picked case of the data file, each list in file order.
pub struct HandPicked {
    pub positions: Vec<Position>,
    pub snapshots: Vec<Snapshot>,
    /// With the flags given by hand only (the caller derives the others).
    pub rejections: Vec<DocRejectionCase>,
}

/// Reads and expands the data file.
///
/// # Errors
///
/// A message naming the file, the entry (section, index and id) and the field: JSON
/// that does not fit the format (with its path), m or k beyond `u32`, a `repeat`
/// outside a tuple or list, a derived flag listed on a rejection, or a duplicate
/// rejection id.
pub fn read() -> Result<HandPicked, String> {
    parse(TEXT)
}

fn parse(text: &str) -> Result<HandPicked, String> {
    let file = read_file(text)?;
    let place =
        |section: &str, index: usize, id: &str| format!("{PATH}: {section}[{index}] (`{id}`)");
    let mut positions = Vec::with_capacity(file.positions.len());
    for (index, entry) in file.positions.into_iter().enumerate() {
        positions.push(Position {
            params: params(&place("positions", index, &entry.id), &entry.params)?,
            item: bytes(&entry.item),
            id: entry.id,
            flags: entry.flags,
        });
    }
    let mut snapshots = Vec::with_capacity(file.snapshots.len());
    for (index, entry) in file.snapshots.into_iter().enumerate() {
        snapshots.push(Snapshot {
            params: params(&place("snapshots", index, &entry.id), &entry.params)?,
            records: entry.records.iter().map(bytes).collect(),
            queries: entry.queries.iter().map(bytes).collect(),
            id: entry.id,
            flags: entry.flags,
            expect: entry.expect,
        });
    }
    Ok(HandPicked {
        positions,
        snapshots,
        rejections: rejections(file.base, file.rejections)?,
    })
}

fn rejections(base: Inputs, list: Vec<RejectionEntry>) -> Result<Vec<DocRejectionCase>, String> {
    let base_value =
        |name: &str, value: &Value| typed(value).map_err(|err| format!("{PATH}: base.{name}{err}"));
    let records = base_value("records", &base.records)?;
    let m = base_value("m", &base.m)?;
    let k = base_value("k", &base.k)?;
    let seed = base_value("seed", &base.seed)?;
    let mut ids = std::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(list.len());
    for (index, entry) in list.into_iter().enumerate() {
        let place = format!("{PATH}: rejections[{index}] (`{}`)", entry.id);
        if !ids.insert(entry.id.clone()) {
            return Err(format!("{place}: the id is given twice"));
        }
        if let Some(flag) = entry.flags.iter().find(|f| DERIVED.contains(&f.as_str())) {
            return Err(format!(
                "{place}: flags: {flag:?} is derived by the writer; do not list it"
            ));
        }
        let field = |name: &str, value: Option<&Value>, default: &TypedValue| match value {
            None => Ok(default.clone()),
            Some(value) => {
                typed(value).map_err(|err| format!("{place}: {name}{}{err}", separator(&err)))
            }
        };
        let input = TypedCall {
            records: field("records", entry.records.as_ref(), &records)?,
            m: field("m", entry.m.as_ref(), &m)?,
            k: field("k", entry.k.as_ref(), &k)?,
            seed: field("seed", entry.seed.as_ref(), &seed)?,
            item: match &entry.item {
                None => None,
                Some(item) => Some(
                    typed(item).map_err(|err| format!("{place}: item{}{err}", separator(&err)))?,
                ),
            },
        };
        out.push(DocRejectionCase {
            input,
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
            r#"{{"comment": "", "positions": [], "snapshots": [], "base": {{"records": {{"tuple": []}}, "m": {{"int": 16}}, "k": {{"int": 3}}, "seed": {{"bytes": ""}}}}, "rejections": [{entries}]}}"#
        )
    }

    #[test]
    fn the_committed_file_reads() {
        let all = read().unwrap();
        assert!(
            all.rejections.len() > 50,
            "{} rejections",
            all.rejections.len()
        );
        assert!(!all.positions.is_empty());
        assert!(!all.snapshots.is_empty());
    }

    #[test]
    fn shorthands_expand() {
        let text = wrap(
            r#"{"id": "a", "records": {"tuple": [{"str": "x"}, {"repeat": {"times": 3, "value": {"bytes_repeat": {"hex": "61", "times": 2}}}}]}, "expect": {"error": "value", "field": "records"}}"#,
        );
        let all = parse(&text).unwrap().rejections;
        let aa = TypedValue::Bytes(Hex(b"aa".to_vec()));
        assert_eq!(
            all[0].input.records,
            TypedValue::Tuple(vec![
                TypedValue::Str("x".into()),
                aa.clone(),
                aa.clone(),
                aa
            ])
        );
        assert_eq!(all[0].input.m, TypedValue::Int(16));
        assert_eq!(all[0].input.item, None);
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
            let err = parse(&wrap(entries)).err().unwrap();
            assert!(err.starts_with(PATH), "{err}");
            assert!(err.contains(want), "{err} lacks {want}");
        }
    }
}
