//! The strict loader: any bytes in, a typed [`VectorFile`] or a [`VectorError`] out.
//!
//! It refuses, naming the file and (where there is one) the case:
//!
//! * anything that is not one JSON object of the format (bad JSON, trailing text, a
//!   missing or unknown field anywhere, a duplicate key, a wrong type, bad hex:
//!   hex is two digits per byte, read in either case as `bloomproof_wire::Hex` says);
//! * an unknown `protocol`/`kind` pair, a `format_version` other than
//!   [`FORMAT_VERSION`], a `$schema`
//!   that is not `../schemas/<protocol>.<kind>.schema.json`;
//! * a `case_count` that differs from the number of cases;
//! * an empty or duplicate case id;
//! * a flag (on a case or a lookup) missing from the file's `flags` table, a flag
//!   given twice, and a declared flag that nothing uses;
//! * a case that contradicts itself: values outside the bounds of the file's version
//!   (`doc-membership-v1`'s, or the [`Version`] the caller names), a number of hashes
//!   or positions other than k, a digest that is not 32 bytes, a message
//!   whose length does not match its fields, a position at or above m, packed bits
//!   that are not `ceil(m/8)` bytes or that count differently from `bits_set`, a
//!   lookup whose `expect` has `exact_checked != maybe_present` or a duplicate that
//!   is not `maybe_present`, `text` that does not encode to `units` (or is absent for valid
//!   UTF-16), and so on.
//!
//! The per-kind checks are each protocol's, in `crate::protocols`.
//!
//! Every problem is collected, not just the first. The loader never panics, whatever
//! the input (it is a fuzz target): JSON nesting is bounded by `serde_json`'s recursion
//! limit, and every check is plain arithmetic on bounded values.

use crate::protocols::Bounds;
use crate::{FileKind, VectorFile, Version};
use bloomproof_wire::vectors::{CaseHeader, FORMAT_VERSION, VectorFileOf};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

/// One problem in a vector file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The case id (or `#<index>` when the case has no readable id), when the problem
    /// is in one case.
    pub case: Option<String>,
    /// What is wrong.
    pub message: String,
}

/// Why a vector file was refused: the file and every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorError {
    /// The file: its path for [`load_file`], the name given to [`parse_named`], or
    /// `<input>`.
    pub file: String,
    /// Every problem found (at least one).
    pub problems: Vec<Problem>,
}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, problem) in self.problems.iter().enumerate() {
            if index > 0 {
                writeln!(f)?;
            }
            match &problem.case {
                Some(case) => write!(f, "{}: case `{case}`: {}", self.file, problem.message)?,
                None => write!(f, "{}: {}", self.file, problem.message)?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for VectorError {}

/// Reads and parses the vector file at `path`; errors name the path. Only a regular
/// file of at most [`bloomproof_wire::bounded::SPEC_FILE_MAX`] bytes is read: a FIFO, a
/// device or a larger file is refused at once ([`bloomproof_wire::bounded::read_file`]).
pub fn load_file(path: impl AsRef<Path>) -> Result<VectorFile, VectorError> {
    load_file_in(path, &[])
}

/// [`load_file`], reading a file of a version of a family as its family's first
/// version's format: `versions` names each version (the file's `protocol`), the
/// protocol whose format its files have (e.g. `doc-membership-v2` in
/// `doc-membership-v1`'s) and its bounds ([`Version`]); its kinds and `$schema` are the
/// format's, its cases are held to the version's bounds.
pub fn load_file_in(
    path: impl AsRef<Path>,
    versions: &[Version<'_>],
) -> Result<VectorFile, VectorError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    match bloomproof_wire::bounded::read_file(
        path,
        bloomproof_wire::bounded::SPEC_FILE_MAX,
        "a vector file",
    ) {
        Ok(bytes) => match std::str::from_utf8(&bytes) {
            Ok(text) => parse_named_in(&name, text, versions),
            Err(err) => Err(single(&name, format!("not UTF-8: {err}"))),
        },
        Err(err) => Err(single(&name, err)),
    }
}

/// Parses a vector file's text; errors name the file `<input>`.
pub fn parse(text: &str) -> Result<VectorFile, VectorError> {
    parse_named("<input>", text)
}

/// Parses raw bytes (which must be UTF-8); errors name the file `<input>`. This is the
/// fuzzing entry point: it never panics.
pub fn parse_bytes(bytes: &[u8]) -> Result<VectorFile, VectorError> {
    parse_bytes_named("<input>", bytes)
}

fn parse_bytes_named(name: &str, bytes: &[u8]) -> Result<VectorFile, VectorError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_named(name, text),
        Err(err) => Err(single(name, format!("not UTF-8: {err}"))),
    }
}

fn single(file: &str, message: String) -> VectorError {
    VectorError {
        file: file.to_string(),
        problems: vec![Problem {
            case: None,
            message,
        }],
    }
}

/// The file with its cases still as raw JSON text.
pub(crate) type RawFile<'a> = VectorFileOf<&'a RawValue>;

/// Deserializes `text` as a `T`, with the JSON path of the first error and no
/// trailing characters allowed.
fn from_text<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let path = err.path().to_string();
        if path == "." {
            err.inner().to_string()
        } else {
            format!("at {path}: {}", err.inner())
        }
    })?;
    deserializer.end().map_err(|err| err.to_string())?;
    Ok(value)
}

/// Parses a vector file's text; errors name the file `name`.
pub fn parse_named(name: &str, text: &str) -> Result<VectorFile, VectorError> {
    parse_named_in(name, text, &[])
}

/// [`parse_named`], with the versions of [`load_file_in`].
pub fn parse_named_in(
    name: &str,
    text: &str,
    versions: &[Version<'_>],
) -> Result<VectorFile, VectorError> {
    let raw: RawFile<'_> = match from_text(text) {
        Ok(raw) => raw,
        Err(message) => return Err(single(name, format!("not a vector file: {message}"))),
    };
    let mut problems = Vec::new();
    let mut file_problem = |message: String| {
        problems.push(Problem {
            case: None,
            message,
        })
    };
    let version = versions.iter().find(|version| version.name == raw.protocol);
    let format = version.map_or(raw.protocol.as_str(), |version| version.format);
    let bounds = version.map(Version::bounds).unwrap_or_default();
    let Some(kind) = FileKind::from_header(format, &raw.kind) else {
        let versions: String = versions
            .iter()
            .map(|version| format!(" (and {}, as {})", version.name, version.format))
            .collect();
        file_problem(format!(
            "unknown `protocol`/`kind` pair {:?}/{:?}: known files are {}{versions}",
            raw.protocol,
            raw.kind,
            FileKind::ALL
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return Err(VectorError {
            file: name.to_string(),
            problems,
        });
    };
    if raw.format_version != FORMAT_VERSION {
        file_problem(format!(
            "`format_version` is {}; this loader reads {FORMAT_VERSION}",
            raw.format_version
        ));
    }
    if raw.schema != kind.schema_ref() {
        file_problem(format!(
            "`$schema` is {:?}; a {kind} file has {:?}",
            raw.schema,
            kind.schema_ref()
        ));
    }
    if raw.case_count != raw.cases.len() {
        file_problem(format!(
            "`case_count` says {} but the file has {} cases",
            raw.case_count,
            raw.cases.len()
        ));
    }
    for (flag, description) in &raw.flags {
        if flag.is_empty() || description.is_empty() {
            file_problem(format!(
                "flag {flag:?} in the `flags` table needs a name and a description"
            ));
        }
    }
    let mut checker = Checker {
        bounds,
        flags: &raw.flags,
        used: BTreeSet::new(),
        ids: BTreeSet::new(),
        problems,
    };
    let file = crate::protocols::file(kind, &mut checker, &raw);
    // A case that did not parse may use any flag: only complain when all parsed.
    let all_parsed = file.case_count() == raw.cases.len();
    for flag in raw.flags.keys() {
        if all_parsed && !checker.used.contains(flag.as_str()) {
            checker.problems.push(Problem {
                case: None,
                message: format!(
                    "flag {flag:?} is declared in the `flags` table but no case uses it"
                ),
            });
        }
    }
    if checker.problems.is_empty() {
        Ok(file)
    } else {
        Err(VectorError {
            file: name.to_string(),
            problems: checker.problems,
        })
    }
}

/// The file of `cases` with the header of `raw`.
fn with_header<C>(raw: &RawFile<'_>, cases: Vec<C>) -> VectorFileOf<C> {
    VectorFileOf {
        schema: raw.schema.clone(),
        protocol: raw.protocol.clone(),
        kind: raw.kind.clone(),
        format_version: raw.format_version,
        generator: raw.generator.clone(),
        case_count: raw.case_count,
        flags: raw.flags.clone(),
        cases,
    }
}

/// What the cases of one file are checked against, and the problems found so far.
pub(crate) struct Checker<'f> {
    bounds: Bounds,
    flags: &'f BTreeMap<String, String>,
    used: BTreeSet<String>,
    ids: BTreeSet<String>,
    problems: Vec<Problem>,
}

impl Checker<'_> {
    fn problem(&mut self, case: &str, message: String) {
        self.problems.push(Problem {
            case: Some(case.to_string()),
            message,
        });
    }

    /// Checks a list of flags (of a case, or of one of its lookups at `place`).
    fn flag_list(&mut self, case: &str, place: &str, flags: &[String]) {
        let mut seen = BTreeSet::new();
        for flag in flags {
            if !seen.insert(flag.as_str()) {
                self.problem(case, format!("{place}flag {flag:?} is given twice"));
            }
            if self.flags.contains_key(flag) {
                self.used.insert(flag.clone());
            } else {
                self.problem(
                    case,
                    format!("{place}flag {flag:?} is not declared in the file's `flags` table"),
                );
            }
        }
    }

    /// The file of `raw`'s header and its cases, each parsed and checked.
    pub(crate) fn file<C: Checked>(&mut self, raw: &RawFile<'_>) -> VectorFileOf<C> {
        with_header(raw, self.cases(&raw.cases))
    }

    fn cases<C: Checked>(&mut self, raw: &[&RawValue]) -> Vec<C> {
        let mut cases = Vec::with_capacity(raw.len());
        for (index, raw_case) in raw.iter().enumerate() {
            let case: C = match from_text(raw_case.get()) {
                Ok(case) => case,
                Err(message) => {
                    let label = readable_id(raw_case.get()).unwrap_or_else(|| format!("#{index}"));
                    self.problem(&label, message);
                    continue;
                }
            };
            let id = case.id().to_string();
            let label = if id.is_empty() {
                self.problem(&format!("#{index}"), "the case id is empty".into());
                format!("#{index}")
            } else {
                id.clone()
            };
            if !id.is_empty() && !self.ids.insert(id.clone()) {
                self.problem(&label, "duplicate case id".into());
            }
            self.flag_list(&label, "", case.flags());
            for (place, flags) in case.inner_flags() {
                self.flag_list(&label, &place, flags);
            }
            for message in case.problems(&self.bounds) {
                self.problem(&label, message);
            }
            cases.push(case);
        }
        cases
    }
}

/// The `id` of a case that did not parse, if it has a string one.
fn readable_id(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let id = value.get("id")?.as_str()?;
    (!id.is_empty()).then(|| id.to_string())
}

/// A case type of one file kind and what the loader checks in it beyond its fields'
/// types: each protocol's module (`crate::protocols`) implements it for its cases.
pub(crate) trait Checked: DeserializeOwned + CaseHeader {
    /// Flags below the case level (the lookups of a snapshot): `(place, flags)` pairs,
    /// the place ending in `": "`.
    fn inner_flags(&self) -> Vec<(String, &[String])> {
        Vec::new()
    }

    /// What in the case contradicts itself or the bounds of the file's version, one
    /// message each.
    fn problems(&self, bounds: &Bounds) -> Vec<String>;
}

/// An `expect.field` is never empty.
pub(crate) fn check_reject_expect(out: &mut Vec<String>, field: &str) {
    if field.is_empty() {
        out.push("expect.field is empty".into());
    }
}
