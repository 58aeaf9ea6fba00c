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
//! * a case that contradicts itself: values outside the protocol's bounds, a number
//!   of hashes or positions other than k, a digest that is not 32 bytes, a message
//!   whose length does not match its fields, a position at or above m, packed bits
//!   that are not `ceil(m/8)` bytes or that count differently from `bits_set`, a
//!   lookup whose `expect` has `exact_checked != maybe_present` or a duplicate that
//!   is not `maybe_present`, `text` that does not encode to `units` (or is absent for valid
//!   UTF-16), and so on.
//!
//! Every problem is collected, not just the first. The loader never panics, whatever
//! the input (it is a fuzz target): JSON nesting is bounded by `serde_json`'s recursion
//! limit, and every check is plain arithmetic on bounded values.

use bloomproof_protocol::doc_membership_v1 as doc;
use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
use bloomproof_wire::vectors::{
    CaseHeader, DocPositionCase, DocRejectionCase, DocSnapshotCase, FORMAT_VERSION, FileKind,
    FnvPositionCase, FnvRejectionCase, VectorFile, VectorFileOf,
};
use bloomproof_wire::{DocParams, ErrorKindName};
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

/// Reads and parses the vector file at `path`; errors name the path.
pub fn load_file(path: impl AsRef<Path>) -> Result<VectorFile, VectorError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => parse_bytes_named(&name, &bytes),
        Err(err) => Err(single(&name, format!("cannot read: {err}"))),
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
type RawFile<'a> = VectorFileOf<&'a RawValue>;

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
    let Some(kind) = FileKind::from_header(&raw.protocol, &raw.kind) else {
        file_problem(format!(
            "unknown `protocol`/`kind` pair {:?}/{:?}: known files are {}",
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
        flags: &raw.flags,
        used: BTreeSet::new(),
        ids: BTreeSet::new(),
        problems,
    };
    let file = match kind {
        FileKind::DocPositions => VectorFile::DocPositions(checker.file(&raw, check_doc_position)),
        FileKind::DocSnapshots => VectorFile::DocSnapshots(checker.file(&raw, check_doc_snapshot)),
        FileKind::DocRejections => {
            VectorFile::DocRejections(checker.file(&raw, check_doc_rejection))
        }
        FileKind::FnvPositions => VectorFile::FnvPositions(checker.file(&raw, check_fnv_position)),
        FileKind::FnvRejections => {
            VectorFile::FnvRejections(checker.file(&raw, check_fnv_rejection))
        }
    };
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

struct Checker<'f> {
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
    fn file<C: DeserializeOwned + CaseHeader + Flagged>(
        &mut self,
        raw: &RawFile<'_>,
        check: fn(&C) -> Vec<String>,
    ) -> VectorFileOf<C> {
        with_header(raw, self.cases(&raw.cases, check))
    }

    fn cases<C: DeserializeOwned + CaseHeader + Flagged>(
        &mut self,
        raw: &[&RawValue],
        check: fn(&C) -> Vec<String>,
    ) -> Vec<C> {
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
            for message in check(&case) {
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

/// Flags below the case level (the lookups of a snapshot).
trait Flagged {
    /// `(place, flags)` pairs, the place ending in `": "`.
    fn inner_flags(&self) -> Vec<(String, &[String])> {
        Vec::new()
    }
}

impl Flagged for DocPositionCase {}
impl Flagged for DocRejectionCase {}
impl Flagged for FnvPositionCase {}
impl Flagged for FnvRejectionCase {}

impl Flagged for DocSnapshotCase {
    fn inner_flags(&self) -> Vec<(String, &[String])> {
        self.lookups
            .iter()
            .enumerate()
            .map(|(index, lookup)| (format!("lookups[{index}]: "), lookup.flags.as_slice()))
            .collect()
    }
}

// ---------------------------------------------------------------------------------
// Per-kind consistency

fn check_doc_params(out: &mut Vec<String>, params: &DocParams) {
    let (m, k, seed) = (params.m, params.k, params.seed_hex.bytes());
    if !(u64::from(doc::M_MIN)..=u64::from(doc::M_MAX)).contains(&m) {
        out.push(format!(
            "params.m = {m} is outside {}..={}",
            doc::M_MIN,
            doc::M_MAX
        ));
    }
    if !(u64::from(doc::K_MIN)..=u64::from(doc::K_MAX)).contains(&k) {
        out.push(format!(
            "params.k = {k} is outside {}..={}",
            doc::K_MIN,
            doc::K_MAX
        ));
    }
    if seed.len() > doc::SEED_MAX {
        out.push(format!(
            "params.seed_hex is {} bytes: at most {} are allowed",
            seed.len(),
            doc::SEED_MAX
        ));
    }
}

fn check_doc_item(out: &mut Vec<String>, place: &str, item: &[u8]) {
    if item.len() > doc::ITEM_MAX {
        out.push(format!(
            "{place} is {} bytes: at most {} are allowed",
            item.len(),
            doc::ITEM_MAX
        ));
    }
}

fn check_doc_position(case: &DocPositionCase) -> Vec<String> {
    let mut out = Vec::new();
    let seed = case.params.seed_hex.bytes();
    let item = case.item_hex.bytes();
    check_doc_params(&mut out, &case.params);
    check_doc_item(&mut out, "item_hex", item);
    let k = case.params.k;
    if case.hashes.len() as u64 != k {
        out.push(format!(
            "`hashes` has {} entries but k = {k}",
            case.hashes.len()
        ));
    }
    if case.positions.len() as u64 != k {
        out.push(format!(
            "`positions` has {} entries but k = {k}",
            case.positions.len()
        ));
    }
    let message_len = doc::DOMAIN.len() + 2 + 1 + 1 + seed.len() + 1 + 2 + item.len();
    for (index, hash) in case.hashes.iter().enumerate() {
        if usize::from(hash.index) != index {
            out.push(format!(
                "hashes[{index}].index is {} (entry i has index i)",
                hash.index
            ));
        }
        if hash.message_hex.bytes().len() != message_len {
            out.push(format!(
                "hashes[{index}].message_hex is {} bytes; the fields make {message_len}",
                hash.message_hex.bytes().len()
            ));
        }
        if hash.digest_hex.bytes().len() != 32 {
            out.push(format!(
                "hashes[{index}].digest_hex is {} bytes, not 32",
                hash.digest_hex.bytes().len()
            ));
        }
        if u64::from(hash.position) >= case.params.m {
            out.push(format!(
                "hashes[{index}].position {} is not below m = {}",
                hash.position, case.params.m
            ));
        }
        if case.positions.get(index) != Some(&hash.position) {
            out.push(format!(
                "positions[{index}] differs from hashes[{index}].position"
            ));
        }
    }
    out
}

fn check_doc_snapshot(case: &DocSnapshotCase) -> Vec<String> {
    let mut out = Vec::new();
    check_doc_params(&mut out, &case.params);
    if case.records_hex.len() > doc::RECORDS_MAX {
        out.push(format!(
            "{} records: at most {} are allowed",
            case.records_hex.len(),
            doc::RECORDS_MAX
        ));
    }
    for (index, record) in case.records_hex.iter().enumerate() {
        check_doc_item(&mut out, &format!("records_hex[{index}]"), record.bytes());
    }
    let packed = case.packed_hex.bytes();
    let want_len = case.params.m.div_ceil(8);
    if packed.len() as u64 != want_len {
        out.push(format!(
            "packed_hex is {} bytes; m = {} needs ceil(m/8) = {want_len}",
            packed.len(),
            case.params.m
        ));
    }
    let ones: u32 = packed.iter().map(|byte| byte.count_ones()).sum();
    if ones != case.bits_set {
        out.push(format!(
            "bits_set is {} but packed_hex has {ones} bits set",
            case.bits_set
        ));
    }
    let distinct: BTreeSet<&[u8]> = case.records_hex.iter().map(|r| r.bytes()).collect();
    if case.documents != distinct.len() {
        out.push(format!(
            "documents is {} but the records hold {} distinct byte strings",
            case.documents,
            distinct.len()
        ));
    }
    for (index, lookup) in case.lookups.iter().enumerate() {
        check_doc_item(
            &mut out,
            &format!("lookups[{index}].item_hex"),
            lookup.item_hex.bytes(),
        );
        let answer = &lookup.expect;
        if answer.exact_checked != answer.maybe_present {
            out.push(format!(
                "lookups[{index}].expect: exact_checked must equal maybe_present"
            ));
        }
        if answer.duplicate && !answer.maybe_present {
            out.push(format!(
                "lookups[{index}].expect: duplicate is true but maybe_present is false"
            ));
        }
    }
    out
}

fn check_reject_expect(out: &mut Vec<String>, field: &str) {
    if field.is_empty() {
        out.push("expect.field is empty".into());
    }
}

fn check_doc_rejection(case: &DocRejectionCase) -> Vec<String> {
    let mut out = Vec::new();
    check_reject_expect(&mut out, &case.expect.field);
    if case.input.item.is_some() && case.expect.field != "item" {
        out.push(format!(
            "`input.item` is given, so the construction succeeds and the error is the lookup's (field `item`), not {:?}",
            case.expect.field
        ));
    }
    out
}

fn check_units(out: &mut Vec<String>, units: &[u16]) {
    if units.is_empty() || units.len() > 256 {
        out.push(format!(
            "`units` has {} code units: 1..=256 are allowed",
            units.len()
        ));
    }
}

fn check_fnv_position(case: &FnvPositionCase) -> Vec<String> {
    let mut out = Vec::new();
    if !(fnv::M_MIN..=fnv::M_MAX).contains(&case.m) {
        out.push(format!(
            "m = {} is outside {}..={}",
            case.m,
            fnv::M_MIN,
            fnv::M_MAX
        ));
    }
    if !(fnv::K_MIN..=fnv::K_MAX).contains(&case.k) {
        out.push(format!(
            "k = {} is outside {}..={}",
            case.k,
            fnv::K_MIN,
            fnv::K_MAX
        ));
    }
    check_units(&mut out, &case.units);
    match (&case.text, String::from_utf16(&case.units)) {
        (Some(text), _) => {
            if !text.encode_utf16().eq(case.units.iter().copied()) {
                out.push("`text` does not encode to `units` in UTF-16".into());
            }
        }
        (None, Ok(_)) => out.push("`units` is valid UTF-16, so `text` must be given".into()),
        (None, Err(_)) => {}
    }
    if case.h2 & 1 == 0 {
        out.push(format!("h2 = {} is even; it is forced odd", case.h2));
    }
    if case.positions.len() != case.k as usize {
        out.push(format!(
            "`positions` has {} entries but k = {}",
            case.positions.len(),
            case.k
        ));
    }
    for (index, &position) in case.positions.iter().enumerate() {
        if u32::from(position) >= case.m {
            out.push(format!(
                "positions[{index}] = {position} is not below m = {}",
                case.m
            ));
        }
    }
    out
}

fn check_fnv_rejection(case: &FnvRejectionCase) -> Vec<String> {
    let mut out = Vec::new();
    check_reject_expect(&mut out, &case.expect.field);
    check_units(&mut out, &case.units);
    if case.expect.error != ErrorKindName::Value {
        out.push("fnv1a-utf16-v1 rejections are value errors".into());
    }
    let m_ok = (u64::from(fnv::M_MIN)..=u64::from(fnv::M_MAX)).contains(&case.m);
    let k_ok = (u64::from(fnv::K_MIN)..=u64::from(fnv::K_MAX)).contains(&case.k);
    if m_ok && k_ok {
        out.push("m and k are both in range: nothing to reject".into());
    }
    if !matches!(case.expect.field.as_str(), "m" | "k") {
        out.push(format!(
            "expect.field is {:?}; it is `m` or `k`",
            case.expect.field
        ));
    }
    out
}
