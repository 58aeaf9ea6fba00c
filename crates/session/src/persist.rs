//! Persistence: the versioned export format, import with full validation,
//! migration between format versions, and the local-save rule.
//!
//! # Format, version 1
//!
//! One JSON object, written one top-level field per line and one entry or
//! history item per line:
//!
//! ```json
//! {
//!   "format": "bloomproof-session",
//!   "version": 1,
//!   "protocol": "fnv1a-utf16-v1",
//!   "params": {"m":8,"k":1},
//!   "drafts": {"m":"8","k":"1","insert":"","query":"i"},
//!   "entries": [
//!     "a",
//!     [55296,98]
//!   ],
//!   "counters": {"negative_queries":1,"false_positives":1},
//!   "last_operation": {"kind":"query","value":"i","display":"\"i\"","h1":3490213929,"h2":2186962419,"positions":[{"index":0,"position":1,"before":true,"after":true}],"outcome":"false_positive"},
//!   "history": [
//!     {"kind":"query","value":"i","outcome":"false_positive"},
//!     {"kind":"insert","value":[55296,98],"outcome":"new"},
//!     {"kind":"insert","value":"a","outcome":"new"}
//!   ],
//!   "panels": {"positions":true,"model":false}
//! }
//! ```
//!
//! * `params` is `null` when no filter is active (then `entries` and `history`
//!   are empty, `counters` zero and `last_operation` `null`).
//! * Strings (`entries`, `value`) use the [`Text`] form: a JSON string when the
//!   code units are well-formed UTF-16 (readable as is), otherwise an array of
//!   code units. Entries are in insertion order.
//! * No bits are stored: import recomputes them from the entries.
//! * `history` is newest first (at most [`HISTORY_CAP`] items); its first item is
//!   the last operation. `last_operation` repeats it with its hashes, positions
//!   (bits before/after) and display form for human readers; import checks them.
//!
//! Import replays the history on the entries that precede it and requires the
//! file to agree with the replay (outcomes, counters, last operation), so an
//! imported session is one that operations could have produced.

use std::collections::HashMap;

use bloomproof_protocol::fnv1a_utf16_v1::{self, Params};
use bloomproof_wire::protocols::fnv1a_utf16_v1::session::file::{
    FileV1, HistoryV1, LastOperationV1,
};
use bloomproof_wire::protocols::fnv1a_utf16_v1::session::{
    Counters, DraftField, Drafts, ErrorKind, HistoryEntry, LastOperation, OpKind, Outcome,
    ParamsView, Text, json_display,
};
use serde::Deserialize;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{ImportError, SessionError};
use crate::model::{Active, Session, check_string, draft_denotes, params_view, units_len};
use crate::{DRAFT_MAX_UNITS, HISTORY_CAP, MAX_ENTRIES};

pub use bloomproof_wire::protocols::fnv1a_utf16_v1::session::file::{FORMAT, FORMAT_VERSION};
/// Largest import, in bytes of UTF-8 text: 2 MiB.
pub const IMPORT_MAX_BYTES: usize = 2 * 1024 * 1024;
/// Largest local save, in UTF-16 code units (what JavaScript's `string.length`
/// and `localStorage` count).
pub const LOCAL_SAVE_MAX_UNITS: usize = 100_000;

/// A parsed file of any version this crate reads.
///
/// To add version 2: define `FileV2`, add `Document::V2(FileV2)`, read it in
/// [`read_document`] for `2`, make `Latest = FileV2`, turn `migrate`'s `V1` arm
/// into a `v1_to_v2` conversion, and raise [`FORMAT_VERSION`]; keep the v1
/// fixture test passing.
enum Document {
    V1(FileV1),
}

/// The newest format: what [`migrate`] produces and [`validate`] checks.
type Latest = FileV1;

fn read_document(version: u64, text: &str) -> Result<Document, ImportError> {
    match version {
        1 => read_typed(text).map(Document::V1),
        _ => Err(ImportError::UnsupportedVersion {
            version,
            latest: FORMAT_VERSION,
        }),
    }
}

/// Brings any known version up to [`Latest`].
fn migrate(document: Document) -> Latest {
    match document {
        Document::V1(file) => file,
    }
}

fn syntax_error(error: &serde_json::Error) -> ImportError {
    let (line, column) = (error.line(), error.column());
    let full = error.to_string();
    let suffix = format!(" at line {line} column {column}");
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    ImportError::Syntax {
        line,
        column,
        message,
    }
}

/// The syntax error of a text that failed to parse; a `\u` escape of an
/// unpaired surrogate is described by [`lone_surrogate_escape`] (serde_json
/// calls a lone *trailing* surrogate such as `"\udc00x"` a "lone leading
/// surrogate", and a leading one with no escape after it an "unexpected end of
/// hex escape").
fn parse_error(text: &str, error: &serde_json::Error) -> ImportError {
    let mut syntax = syntax_error(error);
    if let ImportError::Syntax { message, .. } = &mut syntax
        && (message.contains("surrogate") || message.contains("hex escape"))
        && let Some(lone) = lone_surrogate_escape(text)
    {
        *message = lone;
    }
    syntax
}

/// The message for the first `\uXXXX` escape in a string of `text` that
/// encodes an unpaired surrogate, if any: a high (leading) surrogate
/// 0xD800..=0xDBFF not immediately followed by an escape of a low (trailing)
/// one, or a low (trailing) surrogate 0xDC00..=0xDFFF not immediately preceded
/// by an escaped high one. Only the strings of the text are looked at; the
/// text is assumed to be JSON up to that escape.
pub(crate) fn lone_surrogate_escape(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let hex4 = |at: usize| -> Option<u16> {
        let digits = text.get(at..at + 4)?;
        if digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            u16::from_str_radix(digits, 16).ok()
        } else {
            None
        }
    };
    let escaped_unit = |at: usize| -> Option<u16> {
        if bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u') {
            hex4(at + 2)
        } else {
            None
        }
    };
    let mut in_string = false;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                in_string = !in_string;
                at += 1;
            }
            b'\\' if in_string => {
                let Some(unit) = escaped_unit(at) else {
                    at += 2;
                    continue;
                };
                match unit {
                    0xd800..=0xdbff => match escaped_unit(at + 6) {
                        Some(0xdc00..=0xdfff) => at += 12,
                        _ => return Some(lone_surrogate_message(unit)),
                    },
                    0xdc00..=0xdfff => return Some(lone_surrogate_message(unit)),
                    _ => at += 6,
                }
            }
            _ => at += 1,
        }
    }
    None
}

/// What the three implementations say about a `\u` escape of an unpaired
/// surrogate (SESSION.md section 10, step 2).
pub(crate) fn lone_surrogate_message(unit: u16) -> String {
    let what = if (0xd800..=0xdbff).contains(&unit) {
        "a high (leading) surrogate not followed by a low (trailing) one"
    } else {
        "a low (trailing) surrogate not preceded by a high (leading) one"
    };
    format!(
        "lone surrogate in a \\u escape: \\u{unit:04x} is {what}; write a string with an unpaired surrogate as an array of code units"
    )
}

/// Any JSON value, read only to find an object with a key twice: the first such
/// key, in document order, fails the read at its second occurrence (so that
/// [`serde_path_to_error`] names it). Keys are compared after unescaping.
struct UniqueKeys;

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueKeys)
    }
}

/// Fails at once: the value of a repeated key.
struct RepeatedKey(String);

impl<'de> serde::de::DeserializeSeed<'de> for RepeatedKey {
    type Value = UniqueKeys;

    fn deserialize<D: serde::Deserializer<'de>>(self, _: D) -> Result<UniqueKeys, D::Error> {
        Err(serde::de::Error::custom(format!(
            "this key ({:?}) appears twice in one object (every key is unique)",
            self.0
        )))
    }
}

impl<'de> serde::de::Visitor<'de> for UniqueKeys {
    type Value = UniqueKeys;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                map.next_value_seed(RepeatedKey(key))?;
            } else {
                map.next_value::<UniqueKeys>()?;
                seen.insert(key);
            }
        }
        Ok(UniqueKeys)
    }
}

/// Step 3: no object of the (syntactically valid) text has a key twice.
fn check_unique_keys(text: &str) -> Result<(), ImportError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize::<_, UniqueKeys>(&mut deserializer)
        .map(|_| ())
        .map_err(|error| {
            let path = error.path().to_string();
            let inner = error.into_inner();
            // `inner` is the repeated-key error: the text parsed before this.
            let message = inner.to_string();
            let suffix = format!(" at line {} column {}", inner.line(), inner.column());
            ImportError::invalid(
                path,
                message.strip_suffix(&suffix).unwrap_or(&message).to_owned(),
            )
        })
}

/// The typed pass over a text that [`parse`] has already parsed as JSON (its syntax,
/// its end and any trailing characters checked there), so only its shape can fail here:
/// every error is [`ImportError::invalid`] at the path where it occurred.
fn read_typed<T: DeserializeOwned>(text: &str) -> Result<T, ImportError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        ImportError::invalid(
            if path == "." {
                "(root)".to_owned()
            } else {
                path
            },
            inner.to_string(),
        )
    })
}

/// A text and the same text without its trailing JSON whitespace.
struct Trimmed<'a> {
    whole: &'a str,
    content: &'a str,
}

/// `text` without the spaces, tabs, line feeds and carriage returns at its end (the
/// whitespace RFC 8259 allows after a value).
fn without_trailing_whitespace(text: &str) -> Trimmed<'_> {
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let bytes = text.as_bytes();
    // Whole blocks of whitespace first, each judged without an early exit (which the
    // compiler turns into wide comparisons), then the last block byte by byte.
    const BLOCK: usize = 64;
    let mut end = bytes.len();
    while let Some(block) = end.checked_sub(BLOCK).and_then(|from| bytes.get(from..end))
        && block.iter().fold(true, |all, b| all & is_space(b))
    {
        end -= BLOCK;
    }
    let end = bytes
        .get(..end)
        .unwrap_or_default()
        .iter()
        .rposition(|b| !is_space(b))
        .map_or(0, |last| last + 1);
    Trimmed {
        whole: text,
        // The bytes cut are ASCII, so `end` is a character boundary.
        content: text.get(..end).unwrap_or(text),
    }
}

/// Parses, migrates and validates an export.
fn parse(text: &str) -> Result<Session, ImportError> {
    parse_text(text, true)
}

/// [`parse`], with the passes reading the text without its trailing whitespace
/// (`trim`, as `parse` does) or whole (what a test compares that with).
fn parse_text(text: &str, trim: bool) -> Result<Session, ImportError> {
    if text.len() > IMPORT_MAX_BYTES {
        return Err(ImportError::TooLarge {
            bytes: text.len(),
            max: IMPORT_MAX_BYTES,
        });
    }
    // Every pass reads the text without its trailing JSON whitespace (an import padded
    // to the size limit is mostly that): the passes see the same bytes up to any error
    // they find in it, so the same error, but for an error at the end of the text,
    // which the whole text places at its own end.
    let text = if trim {
        without_trailing_whitespace(text)
    } else {
        Trimmed {
            whole: text,
            content: text,
        }
    };
    let probe: serde_json::Value = serde_json::from_str(text.content).map_err(|error| {
        if error.is_eof() {
            // The text ends inside a value: the whole text (the same, then whitespace,
            // which completes no value) fails too, at its own end, where the error is
            // placed.
            let whole = serde_json::from_str::<serde_json::Value>(text.whole).err();
            parse_error(text.whole, whole.as_ref().unwrap_or(&error))
        } else {
            parse_error(text.whole, &error)
        }
    })?;
    let text = text.content;
    check_unique_keys(text)?;
    let Some(object) = probe.as_object() else {
        return Err(ImportError::invalid("(root)", "expected a JSON object"));
    };
    match object.get("format").and_then(serde_json::Value::as_str) {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(ImportError::invalid(
                "format",
                format!("{other:?} is not a session file; expected {FORMAT:?}"),
            ));
        }
        None => {
            return Err(ImportError::invalid(
                "format",
                format!("missing or not a string; expected {FORMAT:?}"),
            ));
        }
    }
    let Some(version) = object.get("version").and_then(serde_json::Value::as_u64) else {
        return Err(ImportError::invalid(
            "version",
            "missing or not a non-negative integer",
        ));
    };
    validate(migrate(read_document(version, text)?))
}

/// Checks a string of the file; `path` names it in the error (built only then: a file
/// holds up to 1024 entries and 256 history items).
fn string_at(
    path: impl FnOnce() -> String,
    units: &[u16],
    field: DraftField,
) -> Result<(), ImportError> {
    check_string(field, units).map_err(|error| match error {
        SessionError::TooLong { units, max, .. } => ImportError::with_kind(
            path(),
            ErrorKind::TooLong,
            format!("{units} code units, at most {max}"),
        ),
        other => ImportError::with_kind(
            path(),
            other.kind(),
            format!(
                "empty string; strings have 1..={} UTF-16 code units",
                crate::MAX_UNITS
            ),
        ),
    })
}

fn check_drafts(drafts: &Drafts) -> Result<(), ImportError> {
    for (name, text) in [
        ("m", &drafts.m),
        ("k", &drafts.k),
        ("insert", &drafts.insert),
        ("query", &drafts.query),
    ] {
        let units = units_len(text);
        if units > DRAFT_MAX_UNITS {
            return Err(ImportError::with_kind(
                format!("drafts.{name}"),
                ErrorKind::TooLong,
                format!("{units} UTF-16 code units, at most {DRAFT_MAX_UNITS}"),
            ));
        }
    }
    Ok(())
}

fn check_params(file: &Latest, view: ParamsView) -> Result<Params, ImportError> {
    let params = Params::new(u64::from(view.m), u64::from(view.k)).map_err(|bound| {
        ImportError::with_kind(
            format!("params.{}", bound.field),
            ErrorKind::OutOfRange,
            format!(
                "{} is out of range: must be an integer in {}..={}",
                bound.given, bound.min, bound.max
            ),
        )
    })?;
    for (name, draft, value) in [("m", &file.drafts.m, view.m), ("k", &file.drafts.k, view.k)] {
        if !draft_denotes(draft, u64::from(value)) {
            return Err(ImportError::invalid(
                format!("drafts.{name}"),
                format!(
                    "draft {} does not denote params.{name} = {value} (changing the draft discards the filter)",
                    json_display(&draft.encode_utf16().collect::<Vec<_>>())
                ),
            ));
        }
    }
    Ok(params)
}

fn check_entries(entries: &[Text]) -> Result<(), ImportError> {
    if entries.len() > MAX_ENTRIES {
        return Err(ImportError::with_kind(
            "entries",
            ErrorKind::TooManyEntries,
            format!("{} distinct entries, at most {MAX_ENTRIES}", entries.len()),
        ));
    }
    let mut seen: HashMap<&[u16], usize> = HashMap::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let path = || format!("entries[{index}]");
        string_at(path, entry.units(), DraftField::Insert)?;
        if let Some(first) = seen.insert(entry.units(), index) {
            return Err(ImportError::invalid(
                path(),
                format!("duplicate of entries[{first}]; entries are distinct"),
            ));
        }
    }
    Ok(())
}

fn check_history_items(items: &[HistoryV1]) -> Result<(), ImportError> {
    if items.len() > HISTORY_CAP {
        return Err(ImportError::with_kind(
            "history",
            ErrorKind::TooLong,
            format!("{} items, at most {HISTORY_CAP}", items.len()),
        ));
    }
    for (index, item) in items.iter().enumerate() {
        let field = match item.kind {
            OpKind::Insert => DraftField::Insert,
            OpKind::Query => DraftField::Query,
        };
        string_at(
            || format!("history[{index}].value"),
            item.value.units(),
            field,
        )?;
        if item.outcome.kind() != item.kind {
            return Err(ImportError::invalid(
                format!("history[{index}].outcome"),
                format!(
                    "{} is not an outcome of an operation of kind {}",
                    item.outcome, item.kind
                ),
            ));
        }
    }
    Ok(())
}

fn check_last_operation(
    file: Option<&LastOperationV1>,
    replayed: Option<&LastOperation>,
) -> Result<(), ImportError> {
    let (file, replayed) = match (file, replayed) {
        (None, None) => return Ok(()),
        (Some(_), None) => {
            return Err(ImportError::invalid(
                "last_operation",
                "present, but history is empty (history[0] is the last operation)",
            ));
        }
        (None, Some(_)) => {
            return Err(ImportError::invalid(
                "last_operation",
                "null, but history is not empty (history[0] is the last operation)",
            ));
        }
        (Some(file), Some(replayed)) => (file, replayed),
    };
    let differs = |field: &str, got: String, want: String| {
        ImportError::invalid(
            format!("last_operation.{field}"),
            format!("is {got}, but history[0] replayed on the entries gives {want}"),
        )
    };
    if file.kind != replayed.kind {
        return Err(differs(
            "kind",
            file.kind.to_string(),
            replayed.kind.to_string(),
        ));
    }
    if file.value.units() != replayed.units.as_slice() {
        return Err(differs(
            "value",
            json_display(file.value.units()),
            replayed.display.clone(),
        ));
    }
    if file.outcome != replayed.outcome {
        return Err(differs(
            "outcome",
            file.outcome.to_string(),
            replayed.outcome.to_string(),
        ));
    }
    if file.display != replayed.display {
        return Err(differs(
            "display",
            format!("{:?}", file.display),
            format!("{:?}", replayed.display),
        ));
    }
    if file.h1 != replayed.h1 {
        return Err(differs("h1", file.h1.to_string(), replayed.h1.to_string()));
    }
    if file.h2 != replayed.h2 {
        return Err(differs("h2", file.h2.to_string(), replayed.h2.to_string()));
    }
    if file.positions.len() != replayed.positions.len() {
        return Err(differs(
            "positions",
            format!("{} positions", file.positions.len()),
            format!("{} (k)", replayed.positions.len()),
        ));
    }
    for (index, (got, want)) in file.positions.iter().zip(&replayed.positions).enumerate() {
        if got != want {
            return Err(differs(
                &format!("positions[{index}]"),
                format!("{got:?}"),
                format!("{want:?}"),
            ));
        }
    }
    Ok(())
}

/// Checks a migrated file and builds the session it describes.
fn validate(file: Latest) -> Result<Session, ImportError> {
    if file.protocol != fnv1a_utf16_v1::NAME {
        return Err(ImportError::invalid(
            "protocol",
            format!(
                "{:?} is not supported; expected {:?}",
                file.protocol,
                fnv1a_utf16_v1::NAME
            ),
        ));
    }
    check_drafts(&file.drafts)?;
    let Some(view) = file.params else {
        let empty = [
            ("entries", !file.entries.is_empty()),
            ("counters", file.counters != Counters::default()),
            ("last_operation", file.last_operation.is_some()),
            ("history", !file.history.is_empty()),
        ];
        if let Some((path, _)) = empty.iter().find(|(_, present)| *present) {
            return Err(ImportError::invalid(
                *path,
                "must be empty (zero, null) when params is null: there is no active filter",
            ));
        }
        return Ok(Session {
            drafts: file.drafts,
            active: None,
            panels: file.panels,
        });
    };
    let params = check_params(&file, view)?;
    check_entries(&file.entries)?;
    let counters = file.counters;
    if counters.false_positives > counters.negative_queries {
        return Err(ImportError::invalid(
            "counters",
            format!(
                "false_positives = {} exceeds negative_queries = {}",
                counters.false_positives, counters.negative_queries
            ),
        ));
    }
    check_history_items(&file.history)?;

    // The entries inserted as new during the history, oldest first, are the
    // last entries; with a complete history (shorter than the cap) they are all.
    let news: Vec<&[u16]> = file
        .history
        .iter()
        .rev()
        .filter(|item| item.outcome == Outcome::New)
        .map(|item| item.value.units())
        .collect();
    let complete = file.history.len() < HISTORY_CAP;
    let split = file.entries.len().checked_sub(news.len());
    let prefix = match split.and_then(|split| file.entries.split_at_checked(split)) {
        Some((prefix, tail))
            if tail.iter().map(Text::units).eq(news.iter().copied())
                && (!complete || prefix.is_empty()) =>
        {
            prefix
        }
        _ => {
            return Err(ImportError::invalid(
                "history",
                if complete {
                    "the insertions with outcome new, oldest first, must be exactly the entries"
                } else {
                    "the insertions with outcome new, oldest first, must be the last entries"
                },
            ));
        }
    };

    let mut active = Active::with_entries(params, prefix.iter().map(|t| t.0.clone()).collect());
    for (index, item) in file.history.iter().enumerate().rev() {
        let units = item.value.units();
        match item.kind {
            OpKind::Insert => active.commit_insert(units),
            OpKind::Query => active.commit_query(units),
        }
        let got = active.last.as_ref().map(|last| last.outcome);
        if got != Some(item.outcome) {
            return Err(ImportError::invalid(
                format!("history[{index}].outcome"),
                format!(
                    "is {}, but replaying the history on the entries gives {}",
                    item.outcome,
                    got.unwrap_or(item.outcome)
                ),
            ));
        }
    }

    let replayed = active.counters;
    let reset_seen = !news.is_empty() || complete;
    let consistent = if reset_seen {
        counters == replayed
    } else {
        // Counts from before the oldest history item are unknown but must be
        // a valid pair themselves.
        match (
            counters
                .negative_queries
                .checked_sub(replayed.negative_queries),
            counters
                .false_positives
                .checked_sub(replayed.false_positives),
        ) {
            // At 2^64 - 1 the counters may have saturated (SESSION.md 5.4): the
            // history's counts are then not all in the file's, and only the first two
            // comparisons hold.
            (Some(negative), Some(false_positive)) => {
                false_positive <= negative || counters.negative_queries == u64::MAX
            }
            _ => false,
        }
    };
    if !consistent {
        return Err(ImportError::invalid(
            "counters",
            format!(
                "negative_queries = {}, false_positives = {} disagree with the history, which gives {}, {}{}",
                counters.negative_queries,
                counters.false_positives,
                replayed.negative_queries,
                replayed.false_positives,
                if reset_seen {
                    ""
                } else {
                    " plus counts from before its oldest item"
                }
            ),
        ));
    }
    active.counters = counters;
    check_last_operation(file.last_operation.as_ref(), active.last.as_ref())?;

    Ok(Session {
        drafts: file.drafts,
        active: Some(active),
        panels: file.panels,
    })
}

fn to_file(session: &Session) -> Latest {
    let active = session.active.as_ref();
    FileV1 {
        format: FORMAT.to_owned(),
        version: FORMAT_VERSION,
        protocol: fnv1a_utf16_v1::NAME.to_owned(),
        params: active.map(|active| params_view(active.params)),
        drafts: session.drafts.clone(),
        entries: session
            .entries()
            .iter()
            .map(|units| Text(units.clone()))
            .collect(),
        counters: session.counters(),
        last_operation: session.last_operation().map(|last| LastOperationV1 {
            kind: last.kind,
            value: Text(last.units.clone()),
            display: last.display.clone(),
            h1: last.h1,
            h2: last.h2,
            positions: last.positions.clone(),
            outcome: last.outcome,
        }),
        history: session
            .history()
            .iter()
            .map(|item: &HistoryEntry| HistoryV1 {
                kind: item.kind,
                value: Text(item.units.clone()),
                outcome: item.outcome,
            })
            .collect(),
        panels: session.panels,
    }
}

/// A top-level field's text: one compact value, or one compact value per line.
enum Part {
    Value(String),
    Lines(Vec<String>),
}

fn compact<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(value)
}

fn lines<T: Serialize>(items: &[T]) -> Result<Part, serde_json::Error> {
    items
        .iter()
        .map(compact)
        .collect::<Result<_, _>>()
        .map(Part::Lines)
}

fn write_file(file: &Latest) -> Result<String, serde_json::Error> {
    let fields = [
        ("format", Part::Value(compact(&file.format)?)),
        ("version", Part::Value(compact(&file.version)?)),
        ("protocol", Part::Value(compact(&file.protocol)?)),
        ("params", Part::Value(compact(&file.params)?)),
        ("drafts", Part::Value(compact(&file.drafts)?)),
        ("entries", lines(&file.entries)?),
        ("counters", Part::Value(compact(&file.counters)?)),
        (
            "last_operation",
            Part::Value(compact(&file.last_operation)?),
        ),
        ("history", lines(&file.history)?),
        ("panels", Part::Value(compact(&file.panels)?)),
    ];
    let mut out = String::from("{\n");
    let count = fields.len();
    for (position, (name, part)) in fields.into_iter().enumerate() {
        out.push_str("  \"");
        out.push_str(name);
        out.push_str("\": ");
        match part {
            Part::Value(text) => out.push_str(&text),
            Part::Lines(items) if items.is_empty() => out.push_str("[]"),
            Part::Lines(items) => {
                out.push_str("[\n    ");
                out.push_str(&items.join(",\n    "));
                out.push_str("\n  ]");
            }
        }
        out.push_str(if position + 1 < count { ",\n" } else { "\n" });
    }
    out.push_str("}\n");
    Ok(out)
}

impl Session {
    /// The session as JSON, format [`FORMAT`] version [`FORMAT_VERSION`] (see the
    /// [module docs](crate::persist)). Every export is importable: its size is
    /// bounded below [`IMPORT_MAX_BYTES`] by the bounds on entries, history and drafts.
    pub fn export(&self) -> String {
        // Serialising these plain types to a String cannot fail; should
        // serde_json ever report an error, fall back to its compact writer.
        let file = to_file(self);
        write_file(&file)
            .or_else(|_| serde_json::to_string(&file))
            .unwrap_or_default()
    }

    /// Replaces this session by an exported one, or, on any error, leaves it
    /// exactly as it was.
    ///
    /// In order: the size (at most [`IMPORT_MAX_BYTES`] bytes, checked before
    /// parsing), JSON syntax, `format`, `version` (older versions are migrated),
    /// unknown or missing fields, `protocol`, drafts (at most
    /// [`DRAFT_MAX_UNITS`] code units; `m`/`k` must denote `params`), `params`
    /// bounds, entries (at most 1024, each 1..=256 code units, distinct),
    /// counters (`false_positives <= negative_queries`), history items, then a
    /// replay of the history that must reproduce every outcome, the counters and
    /// the last operation. Bits are recomputed from the entries.
    pub fn import(&mut self, text: &str) -> Result<(), ImportError> {
        *self = Session::from_export(text)?;
        Ok(())
    }

    /// A new session from an export (see [`Session::import`]).
    pub fn from_export(text: &str) -> Result<Session, ImportError> {
        parse(text)
    }

    /// [`save_local`] of this session's [`export`](Session::export).
    pub fn save_local(&self, previous: Option<&str>) -> SaveOutcome {
        save_local(&self.export(), previous)
    }
}

/// The result of a local save.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    /// The new state is stored.
    Saved {
        /// What is now stored (the new state).
        stored: String,
    },
    /// The new state is too long: the previous copy stays.
    Kept {
        /// What is still stored (the previous copy, if any).
        stored: Option<String>,
        /// The refused state's length in UTF-16 code units.
        units: usize,
        /// The bound, [`LOCAL_SAVE_MAX_UNITS`].
        max: usize,
        /// A message for the user.
        warning: String,
    },
}

impl SaveOutcome {
    /// What is stored after the save.
    pub fn stored(&self) -> Option<&str> {
        match self {
            SaveOutcome::Saved { stored } => Some(stored),
            SaveOutcome::Kept { stored, .. } => stored.as_deref(),
        }
    }

    /// The warning, when the new state was not saved.
    pub fn warning(&self) -> Option<&str> {
        match self {
            SaveOutcome::Saved { .. } => None,
            SaveOutcome::Kept { warning, .. } => Some(warning),
        }
    }
}

/// The local-save rule: a serialised state of at most [`LOCAL_SAVE_MAX_UNITS`]
/// (100000) **UTF-16 code units** (as JavaScript counts a string's length, not
/// bytes or Unicode scalar values) replaces the stored copy; a longer one is not
/// saved, the previous copy stays and a warning comes back.
pub fn save_local(state: &str, previous: Option<&str>) -> SaveOutcome {
    let units = units_len(state);
    if units <= LOCAL_SAVE_MAX_UNITS {
        SaveOutcome::Saved {
            stored: state.to_owned(),
        }
    } else {
        SaveOutcome::Kept {
            stored: previous.map(str::to_owned),
            units,
            max: LOCAL_SAVE_MAX_UNITS,
            warning: format!(
                "The session is {units} UTF-16 code units when serialised, over the {LOCAL_SAVE_MAX_UNITS} that are saved locally: it was not saved, {}. Export the whole session before reloading or leaving the page.",
                if previous.is_some() {
                    "the previous copy is kept"
                } else {
                    "and there is no previous copy"
                }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Session, lone_surrogate_escape, parse_text};
    use crate::{Op, Text};
    use proptest::prelude::*;

    /// An export with entries and a history, for the damaged texts below.
    fn export() -> String {
        let mut session = Session::new();
        for op in [
            Op::Create {},
            Op::Insert {
                value: Text::from("a\u{e9}"),
            },
            Op::Insert {
                value: Text(vec![0xd800, 0x61]),
            },
            Op::Query {
                value: Text::from("b"),
            },
        ] {
            let _ = session.apply(&op);
        }
        session.export()
    }

    proptest! {
        /// The block-wise scan ends where a plain scan from the end does, wherever the
        /// last byte that is not whitespace falls among the blocks.
        #[test]
        fn trailing_whitespace_is_cut_where_a_plain_scan_cuts(
            mut bytes in prop::collection::vec(
                prop::sample::select(b"   \t\n\rx\x0b\x0c".to_vec()), 0..100),
            padding in prop::collection::vec(prop::sample::select(b" \t\n\r".to_vec()), 0..400),
            other in prop::option::of((any::<prop::sample::Index>(), prop::sample::select(b"x\x0b\x0c".to_vec()))),
        ) {
            let from = bytes.len();
            bytes.extend(padding);
            if let Some((at, byte)) = other && bytes.len() > from {
                let at = from + at.index(bytes.len() - from);
                bytes[at] = byte;
            }
            let text = String::from_utf8(bytes).unwrap_or_default();
            let plain = text.trim_end_matches([' ', '\t', '\n', '\r']);
            prop_assert_eq!(super::without_trailing_whitespace(&text).content, plain);
        }
    }

    proptest! {
        /// Reading the text without its trailing whitespace changes no result: the
        /// same session, or the same error at the same line and column, for an
        /// export cut, poked with a byte, or given a tail, then padded with any
        /// whitespace (or none).
        #[test]
        fn trailing_whitespace_read_or_not_gives_the_same_result(
            cut in 0usize..2000,
            poke in prop::option::of((0usize..2000, prop::sample::select(
                b"\"\\{}[],:0 \tux".to_vec()))),
            tail in prop::sample::select(vec!["", "x", "\"", "\\", "\\ud800", "1", "{", ",", "}"]),
            padding in prop::collection::vec(prop::sample::select(vec![' ', ' ', ' ', '\t', '\n', '\r']), 0..300),
        ) {
            let mut text = export().into_bytes();
            if let Some((at, byte)) = poke {
                let at = at % text.len();
                text[at] = byte;
            }
            text.truncate(cut.max(text.len() / 2).min(text.len()));
            let mut text = String::from_utf8_lossy(&text).into_owned();
            text.push_str(tail);
            text.extend(padding);
            prop_assert_eq!(parse_text(&text, true), parse_text(&text, false), "{:?}", text);
        }
    }

    #[test]
    fn only_escapes_of_unpaired_surrogates_are_named() {
        // A pair, other escapes, and hex digits after an escape that is not `\u`.
        for text in [
            r#"{"a": "\ud83d\ude00"}"#,
            r#"{"a": "\nd800", "b": "\\ud800"}"#,
            r#"{"a": "x"}"#,
            r#"{"a": "\u0041\n\ud83d\ude00"}"#,
            r#"\ud800 {"a": "only strings are looked at"}"#,
            "",
        ] {
            assert_eq!(lone_surrogate_escape(text), None, "{text}");
        }
        for text in [
            r#"{"a": "\ud800"}"#,
            r#"{"a": "\udc00x"}"#,
            r#"{"a": "\n\ud800"}"#,
            r#"{"a": "\u0041\udc00"}"#,
            r#"{"a": "\ud83d\ude00\ud800"}"#,
        ] {
            assert!(lone_surrogate_escape(text).is_some(), "{text}");
        }
    }
}
