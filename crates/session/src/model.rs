//! The session: drafts, the active filter, the reference entries, counters,
//! the last operation, history and panels; operations and the view.

use std::fmt;

use bloomproof_protocol::fnv1a_utf16_v1::{self, BoundError, Field, Params};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::draft::DraftField;
use crate::error::SessionError;
use crate::estimates::{Estimates, estimates};
use crate::text::{Text, json_display};
use crate::{DRAFT_MAX_UNITS, EXAMPLE, HISTORY_CAP, MAX_ENTRIES, MAX_UNITS};

/// A detail panel of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Panel {
    /// "Hash positions": each position with its before/after value.
    Positions,
    /// "Model and hashes": the ideal estimates and the two base hashes.
    Model,
}

/// The raw text of the four fields, kept verbatim (never trimmed or normalised).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Drafts {
    /// The `m` field.
    pub m: String,
    /// The `k` field.
    pub k: String,
    /// The insert field.
    pub insert: String,
    /// The query field.
    pub query: String,
}

impl Default for Drafts {
    /// `m = "64"`, `k = "3"`, empty insert and query fields.
    fn default() -> Self {
        Drafts {
            m: "64".to_owned(),
            k: "3".to_owned(),
            insert: String::new(),
            query: String::new(),
        }
    }
}

/// Which detail panels are open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Panels {
    /// The "Hash positions" panel.
    pub positions: bool,
    /// The "Model and hashes" panel.
    pub model: bool,
}

/// The query counters since the last new distinct insertion (or creation, or reset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counters {
    /// Queries of strings truly absent from the reference entries.
    pub negative_queries: u64,
    /// Among those, the ones whose `k` bits were all set.
    pub false_positives: u64,
}

impl Counters {
    /// The observed false-positive rate.
    pub fn rate(&self) -> Rate {
        if self.negative_queries == 0 {
            Rate::Undefined
        } else {
            Rate::Defined {
                false_positives: self.false_positives,
                negative_queries: self.negative_queries,
                value: self.false_positives as f64 / self.negative_queries as f64,
            }
        }
    }
}

/// The observed false-positive rate: false positives / negative queries.
///
/// Serde: `{"state":"undefined"}` or
/// `{"state":"defined","false_positives":1,"negative_queries":2,"value":0.5}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "state", rename_all = "snake_case", deny_unknown_fields)]
pub enum Rate {
    /// No negative query yet: the rate is undefined (not 0, not NaN).
    Undefined,
    /// At least one negative query.
    Defined {
        /// Numerator.
        false_positives: u64,
        /// Denominator (at least 1).
        negative_queries: u64,
        /// `false_positives / negative_queries`.
        value: f64,
    },
}

/// The validated parameters of the active filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParamsView {
    /// Number of bits, 8..=1024.
    pub m: u32,
    /// Number of hash indices, 1..=12.
    pub k: u32,
}

impl From<Params> for ParamsView {
    fn from(params: Params) -> Self {
        ParamsView {
            m: u32::from(params.m()),
            k: u32::from(params.k()),
        }
    }
}

/// Insertion or query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpKind {
    /// An insertion.
    Insert,
    /// A query.
    Query,
}

/// What an insertion or a query found.
///
/// | outcome | kind | answer | truly present | counted |
/// |---|---|---|---|---|
/// | `new` | insert | - | - | counters reset to 0 |
/// | `duplicate` | insert | - | - | nothing changes |
/// | `definitely_absent` | query | definitely absent (a bit is 0) | no | negative query |
/// | `false_positive` | query | maybe present (all k bits 1) | no | negative query and false positive |
/// | `truly_present` | query | maybe present (all k bits 1) | yes | nothing |
///
/// A truly present string always has all its bits set (no false negatives), so
/// these five are all the cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Insertion of a new distinct string.
    New,
    /// Insertion of a string already in the reference entries.
    Duplicate,
    /// Query: at least one of the k bits is 0.
    DefinitelyAbsent,
    /// Query: all k bits are 1, but the string is not a reference entry.
    FalsePositive,
    /// Query: the string is a reference entry (all k bits are 1).
    TrulyPresent,
}

impl OpKind {
    /// The serde name: `insert` or `query`.
    pub fn as_str(&self) -> &'static str {
        match self {
            OpKind::Insert => "insert",
            OpKind::Query => "query",
        }
    }
}

impl fmt::Display for OpKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Outcome {
    /// The serde name (`new`, `duplicate`, `definitely_absent`, `false_positive`, `truly_present`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::New => "new",
            Outcome::Duplicate => "duplicate",
            Outcome::DefinitelyAbsent => "definitely_absent",
            Outcome::FalsePositive => "false_positive",
            Outcome::TrulyPresent => "truly_present",
        }
    }

    /// Whether it is an insertion or a query outcome.
    pub fn kind(&self) -> OpKind {
        match self {
            Outcome::New | Outcome::Duplicate => OpKind::Insert,
            Outcome::DefinitelyAbsent | Outcome::FalsePositive | Outcome::TrulyPresent => {
                OpKind::Query
            }
        }
    }

    /// The filter's answer after the operation: all k bits set (true for every insertion).
    pub fn maybe_present(&self) -> bool {
        !matches!(self, Outcome::DefinitelyAbsent)
    }

    /// Whether the string is (now) a reference entry (true for every insertion).
    pub fn truly_present(&self) -> bool {
        matches!(
            self,
            Outcome::New | Outcome::Duplicate | Outcome::TrulyPresent
        )
    }

    /// Whether the operation counted as a false positive.
    pub fn false_positive(&self) -> bool {
        matches!(self, Outcome::FalsePositive)
    }
}

/// One hash position of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionStep {
    /// The hash index `i` in `0..k`.
    pub index: u8,
    /// `(h1 + i·h2) mod m`.
    pub position: u16,
    /// The bit before the whole operation (a repeated position shows the same
    /// before value each time).
    pub before: bool,
    /// The bit after the whole operation (equal to `before` for a query).
    pub after: bool,
}

/// The last insertion or query, with everything the detail panels show.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LastOperation {
    /// Insertion or query.
    pub kind: OpKind,
    /// The string's UTF-16 code units.
    pub units: Vec<u16>,
    /// The string as `JSON.stringify` prints it (quotes and escapes), see
    /// [`json_display`](crate::json_display).
    pub display: String,
    /// First base hash.
    pub h1: u32,
    /// Second base hash (odd).
    pub h2: u32,
    /// Every position in order, repeats included.
    pub positions: Vec<PositionStep>,
    /// What it found.
    pub outcome: Outcome,
}

/// One line of the history (newest first).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryEntry {
    /// Insertion or query.
    pub kind: OpKind,
    /// The string's UTF-16 code units.
    pub units: Vec<u16>,
    /// The string as `JSON.stringify` prints it.
    pub display: String,
    /// What it found.
    pub outcome: Outcome,
}

/// An operation on a [`Session`], as scripts and HTTP bodies carry it.
///
/// Serde: internally tagged by `"op"`, snake_case, unknown fields rejected:
/// `{"op":"set_draft","field":"m","value":"8"}`, `{"op":"create"}`,
/// `{"op":"insert","value":"a"}`, `{"op":"query","value":[55296]}`,
/// `{"op":"insert_example"}`, `{"op":"reset"}`,
/// `{"op":"set_panel","panel":"positions","open":true}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "op",
    rename_all = "snake_case",
    deny_unknown_fields,
    from = "OpRepr"
)]
pub enum Op {
    /// Sets a draft verbatim. Changing `m` or `k` to a value that does not
    /// denote the active filter's parameter discards the active filter.
    SetDraft {
        /// Which field.
        field: DraftField,
        /// The new raw text.
        value: String,
    },
    /// Parses the `m` and `k` drafts and creates an empty filter.
    Create,
    /// Inserts a string into the active filter.
    Insert {
        /// The string.
        value: Text,
    },
    /// Queries a string against the active filter.
    Query {
        /// The string.
        value: Text,
    },
    /// Inserts `"a"` .. `"h"` in order, each as by `Insert` (all or nothing).
    InsertExample,
    /// Empties the active filter, keeping its parameters and the drafts.
    Reset,
    /// Opens or closes a detail panel.
    SetPanel {
        /// Which panel.
        panel: Panel,
        /// Open (true) or closed (false).
        open: bool,
    },
}

/// What `Op` is read from: the same shape, with the unit variants as empty
/// struct variants so that serde rejects unknown fields on them too (an
/// internally tagged unit variant ignores extra fields).
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(rename = "Op")]
enum OpRepr {
    /// Sets a draft verbatim; changing `m` or `k` discards the active filter.
    SetDraft {
        /// Which field.
        field: DraftField,
        /// The new raw text.
        value: String,
    },
    /// Parses the `m` and `k` drafts and creates an empty filter.
    Create {},
    /// Inserts a string.
    Insert {
        /// The string.
        value: Text,
    },
    /// Queries a string.
    Query {
        /// The string.
        value: Text,
    },
    /// Inserts "a" .. "h" in order.
    InsertExample {},
    /// Empties the active filter, keeping parameters and drafts.
    Reset {},
    /// Opens or closes a detail panel.
    SetPanel {
        /// Which panel.
        panel: Panel,
        /// Open or closed.
        open: bool,
    },
}

impl From<OpRepr> for Op {
    fn from(repr: OpRepr) -> Self {
        match repr {
            OpRepr::SetDraft { field, value } => Op::SetDraft { field, value },
            OpRepr::Create {} => Op::Create,
            OpRepr::Insert { value } => Op::Insert { value },
            OpRepr::Query { value } => Op::Query { value },
            OpRepr::InsertExample {} => Op::InsertExample,
            OpRepr::Reset {} => Op::Reset,
            OpRepr::SetPanel { panel, open } => Op::SetPanel { panel, open },
        }
    }
}

impl Op {
    /// The serde name of the operation (`set_draft`, `create`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Op::SetDraft { .. } => "set_draft",
            Op::Create => "create",
            Op::Insert { .. } => "insert",
            Op::Query { .. } => "query",
            Op::InsertExample => "insert_example",
            Op::Reset => "reset",
            Op::SetPanel { .. } => "set_panel",
        }
    }
}

/// The active filter and everything that lives and dies with it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Active {
    pub(crate) params: Params,
    pub(crate) bits: Vec<bool>,
    pub(crate) entries: Vec<Vec<u16>>,
    pub(crate) counters: Counters,
    pub(crate) last: Option<LastOperation>,
    pub(crate) history: Vec<HistoryEntry>,
}

impl Active {
    pub(crate) fn empty(params: Params) -> Self {
        Active {
            params,
            bits: vec![false; usize::from(params.m())],
            entries: Vec::new(),
            counters: Counters::default(),
            last: None,
            history: Vec::new(),
        }
    }

    /// The filter with these entries inserted in order (entries assumed distinct).
    pub(crate) fn with_entries(params: Params, entries: Vec<Vec<u16>>) -> Self {
        let mut active = Active::empty(params);
        for entry in &entries {
            for position in positions_of(&params, entry) {
                set_bit(&mut active.bits, position);
            }
        }
        active.entries = entries;
        active
    }

    pub(crate) fn contains(&self, units: &[u16]) -> bool {
        self.entries.iter().any(|entry| entry.as_slice() == units)
    }

    fn record(&mut self, last: LastOperation) {
        self.history.insert(
            0,
            HistoryEntry {
                kind: last.kind,
                units: last.units.clone(),
                display: last.display.clone(),
                outcome: last.outcome,
            },
        );
        self.history.truncate(HISTORY_CAP);
        self.last = Some(last);
    }

    /// Inserts a checked string (length valid; room for it if new).
    pub(crate) fn commit_insert(&mut self, units: &[u16]) {
        let is_new = !self.contains(units);
        let before = self.bits.clone();
        if is_new {
            for position in positions_of(&self.params, units) {
                set_bit(&mut self.bits, position);
            }
            self.entries.push(units.to_vec());
            self.counters = Counters::default();
        }
        let outcome = if is_new {
            Outcome::New
        } else {
            Outcome::Duplicate
        };
        let last = describe(
            &self.params,
            OpKind::Insert,
            units,
            &before,
            &self.bits,
            outcome,
        );
        self.record(last);
    }

    /// Queries a checked string.
    pub(crate) fn commit_query(&mut self, units: &[u16]) {
        let outcome = query_outcome(self, units);
        match outcome {
            Outcome::DefinitelyAbsent => {
                self.counters.negative_queries = self.counters.negative_queries.saturating_add(1);
            }
            Outcome::FalsePositive => {
                self.counters.negative_queries = self.counters.negative_queries.saturating_add(1);
                self.counters.false_positives = self.counters.false_positives.saturating_add(1);
            }
            Outcome::TrulyPresent | Outcome::New | Outcome::Duplicate => {}
        }
        let last = describe(
            &self.params,
            OpKind::Query,
            units,
            &self.bits,
            &self.bits,
            outcome,
        );
        self.record(last);
    }
}

/// The outcome a query of `units` has against `active` (no counter change).
pub(crate) fn query_outcome(active: &Active, units: &[u16]) -> Outcome {
    if active.contains(units) {
        Outcome::TrulyPresent
    } else if positions_of(&active.params, units)
        .iter()
        .all(|&position| bit(&active.bits, position))
    {
        Outcome::FalsePositive
    } else {
        Outcome::DefinitelyAbsent
    }
}

pub(crate) fn positions_of(params: &Params, units: &[u16]) -> Vec<u16> {
    fnv1a_utf16_v1::positions(params, fnv1a_utf16_v1::base_hashes(units))
}

fn bit(bits: &[bool], position: u16) -> bool {
    bits.get(usize::from(position)).copied().unwrap_or(false)
}

fn set_bit(bits: &mut [bool], position: u16) {
    if let Some(slot) = bits.get_mut(usize::from(position)) {
        *slot = true;
    }
}

/// Builds the record of an operation from the bits before and after it.
pub(crate) fn describe(
    params: &Params,
    kind: OpKind,
    units: &[u16],
    before: &[bool],
    after: &[bool],
    outcome: Outcome,
) -> LastOperation {
    let hashes = fnv1a_utf16_v1::base_hashes(units);
    let positions = fnv1a_utf16_v1::positions(params, hashes)
        .into_iter()
        .zip(0u8..)
        .map(|(position, index)| PositionStep {
            index,
            position,
            before: bit(before, position),
            after: bit(after, position),
        })
        .collect();
    LastOperation {
        kind,
        units: units.to_vec(),
        display: json_display(units),
        h1: hashes.h1,
        h2: hashes.h2,
        positions,
        outcome,
    }
}

/// Checks an insert or query string: 1..=256 UTF-16 code units.
pub(crate) fn check_string(field: DraftField, units: &[u16]) -> Result<(), SessionError> {
    if units.is_empty() {
        Err(SessionError::EmptyString { field })
    } else if units.len() > MAX_UNITS {
        Err(SessionError::TooLong {
            field,
            units: units.len(),
            max: MAX_UNITS,
        })
    } else {
        Ok(())
    }
}

/// Parses an `m` or `k` draft: one or more ASCII digits (leading zeros allowed).
///
/// `Ok(None)` for digits whose value overflows `u64` (out of range anyway).
fn parse_digits(text: &str) -> Option<Option<u64>> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    Some(text.bytes().try_fold(0_u64, |value, byte| {
        value
            .checked_mul(10)
            .and_then(|value| value.checked_add(u64::from(byte - b'0')))
    }))
}

/// Reads an `m` or `k` draft as a number: one or more ASCII digits, else
/// [`SessionError::InvalidDraft`]. Digits whose value overflows `u64` read as
/// `u64::MAX` (out of range anyway).
fn parse_draft(field: DraftField, text: &str) -> Result<u64, SessionError> {
    match parse_digits(text) {
        None => Err(SessionError::InvalidDraft {
            field,
            value: text.to_owned(),
        }),
        Some(value) => Ok(value.unwrap_or(u64::MAX)),
    }
}

/// Parses both drafts into parameters, `m` first (its digits, then its bounds), then
/// `k`. A value outside the protocol's bounds is [`SessionError::OutOfRange`] naming
/// the field, with its draft verbatim and the bounds the protocol reports.
pub(crate) fn parse_params(drafts: &Drafts) -> Result<Params, SessionError> {
    let out_of_range = |bound: BoundError| {
        let (field, text) = match bound.field {
            Field::K => (DraftField::K, &drafts.k),
            _ => (DraftField::M, &drafts.m),
        };
        SessionError::OutOfRange {
            field,
            value: text.clone(),
            min: bound.min,
            max: bound.max,
        }
    };
    let m = parse_draft(DraftField::M, &drafts.m)?;
    fnv1a_utf16_v1::check_m(m).map_err(out_of_range)?;
    let k = parse_draft(DraftField::K, &drafts.k)?;
    Params::new(m, k).map_err(out_of_range)
}

/// Whether a draft denotes exactly this parameter value.
pub(crate) fn draft_denotes(text: &str, value: u64) -> bool {
    parse_digits(text) == Some(Some(value))
}

pub(crate) fn units_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// The interactive teaching filter: its whole state.
///
/// Build with [`Session::new`], change with [`Session::apply`], read with
/// [`Session::view`] or the accessors, persist with [`Session::export`] and
/// [`Session::import`].
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    pub(crate) drafts: Drafts,
    pub(crate) active: Option<Active>,
    pub(crate) panels: Panels,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// Default drafts (`m = "64"`, `k = "3"`, empty strings), no active filter, panels closed.
    pub fn new() -> Self {
        Session {
            drafts: Drafts::default(),
            active: None,
            panels: Panels::default(),
        }
    }

    /// Applies one operation. On error the session is exactly unchanged.
    ///
    /// Rules:
    /// * `SetDraft`: stores the text verbatim (at most [`DRAFT_MAX_UNITS`](crate::DRAFT_MAX_UNITS)
    ///   UTF-16 code units). For `m`/`k`, the active filter (with its entries,
    ///   counters, last operation and history) is discarded unless the new text
    ///   is ASCII digits denoting the active filter's value (so `"8"` or `"08"`
    ///   keeps an `m = 8` filter, `"8 "` discards it).
    /// * `Create`: parses the `m` and `k` drafts (one or more ASCII digits, no
    ///   whitespace or sign; `m` checked first), checks `m` in 8..=1024 and `k`
    ///   in 1..=12, and replaces any active filter by an empty one.
    /// * `Insert`: needs an active filter and 1..=256 UTF-16 code units. A new
    ///   distinct string (the 1025th is rejected) sets its bits, joins the
    ///   entries and resets both counters to 0. A duplicate changes no bit, entry
    ///   or counter, but is still recorded as the last operation and in history
    ///   (outcome `duplicate`).
    /// * `Query`: needs an active filter and 1..=256 code units. A reference
    ///   entry is `truly_present` and counts nowhere; otherwise it is a negative
    ///   query (+1), and a false positive (+1) if all k bits are set. Repeated
    ///   queries count again.
    /// * `InsertExample`: `"a"`..`"h"` as eight `Insert`s, all or nothing.
    /// * `Reset`: needs an active filter; empties it (bits, entries, counters,
    ///   last operation, history), keeping its parameters and the drafts.
    /// * `SetPanel`: always succeeds.
    ///
    /// Drafts never change except by `SetDraft` (inserting does not clear the
    /// insert field). History is newest first and keeps the last
    /// [`HISTORY_CAP`](crate::HISTORY_CAP) operations.
    pub fn apply(&mut self, op: &Op) -> Result<(), SessionError> {
        match op {
            Op::SetDraft { field, value } => self.set_draft(*field, value),
            Op::Create => {
                let params = parse_params(&self.drafts)?;
                self.active = Some(Active::empty(params));
                Ok(())
            }
            Op::Insert { value } => {
                let active = self.active_mut("insert")?;
                check_string(DraftField::Insert, value.units())?;
                if !active.contains(value.units()) && active.entries.len() >= MAX_ENTRIES {
                    return Err(SessionError::TooManyEntries { max: MAX_ENTRIES });
                }
                active.commit_insert(value.units());
                Ok(())
            }
            Op::Query { value } => {
                let active = self.active_mut("query")?;
                check_string(DraftField::Query, value.units())?;
                active.commit_query(value.units());
                Ok(())
            }
            Op::InsertExample => {
                let active = self.active_mut("insert_example")?;
                let examples: Vec<Vec<u16>> = EXAMPLE
                    .iter()
                    .map(|text| text.encode_utf16().collect())
                    .collect();
                let new = examples
                    .iter()
                    .filter(|units| !active.contains(units))
                    .count();
                if active.entries.len().saturating_add(new) > MAX_ENTRIES {
                    return Err(SessionError::TooManyEntries { max: MAX_ENTRIES });
                }
                for units in &examples {
                    active.commit_insert(units);
                }
                Ok(())
            }
            Op::Reset => {
                let active = self.active_mut("reset")?;
                *active = Active::empty(active.params);
                Ok(())
            }
            Op::SetPanel { panel, open } => {
                match panel {
                    Panel::Positions => self.panels.positions = *open,
                    Panel::Model => self.panels.model = *open,
                }
                Ok(())
            }
        }
    }

    /// Applies operations in order, stopping at the first error (whose index is
    /// returned; the operations before it stay applied).
    pub fn apply_all<'a>(
        &mut self,
        ops: impl IntoIterator<Item = &'a Op>,
    ) -> Result<(), (usize, SessionError)> {
        for (index, op) in ops.into_iter().enumerate() {
            self.apply(op).map_err(|error| (index, error))?;
        }
        Ok(())
    }

    fn active_mut(&mut self, op: &'static str) -> Result<&mut Active, SessionError> {
        self.active
            .as_mut()
            .ok_or(SessionError::NoActiveFilter { op })
    }

    fn set_draft(&mut self, field: DraftField, value: &str) -> Result<(), SessionError> {
        let units = units_len(value);
        if units > DRAFT_MAX_UNITS {
            return Err(SessionError::DraftTooLong {
                field,
                units,
                max: DRAFT_MAX_UNITS,
            });
        }
        let slot = match field {
            DraftField::M => &mut self.drafts.m,
            DraftField::K => &mut self.drafts.k,
            DraftField::Insert => &mut self.drafts.insert,
            DraftField::Query => &mut self.drafts.query,
        };
        value.clone_into(slot);
        if let Some(active) = &self.active {
            let keeps = match field {
                DraftField::M => draft_denotes(value, u64::from(active.params.m())),
                DraftField::K => draft_denotes(value, u64::from(active.params.k())),
                DraftField::Insert | DraftField::Query => true,
            };
            if !keeps {
                self.active = None;
            }
        }
        Ok(())
    }

    /// The drafts.
    pub fn drafts(&self) -> &Drafts {
        &self.drafts
    }

    /// The active filter's parameters.
    pub fn params(&self) -> Option<Params> {
        self.active.as_ref().map(|active| active.params)
    }

    /// The active filter's bits (bit 0 first), `None` with no active filter.
    pub fn bits(&self) -> Option<&[bool]> {
        self.active.as_ref().map(|active| active.bits.as_slice())
    }

    /// The reference entries in insertion order (empty with no active filter).
    pub fn entries(&self) -> &[Vec<u16>] {
        self.active
            .as_ref()
            .map_or(&[][..], |active| active.entries.as_slice())
    }

    /// The query counters (zero with no active filter).
    pub fn counters(&self) -> Counters {
        self.active
            .as_ref()
            .map_or_else(Counters::default, |active| active.counters)
    }

    /// The observed false-positive rate.
    pub fn rate(&self) -> Rate {
        self.counters().rate()
    }

    /// The last insertion or query.
    pub fn last_operation(&self) -> Option<&LastOperation> {
        self.active.as_ref().and_then(|active| active.last.as_ref())
    }

    /// The history, newest first.
    pub fn history(&self) -> &[HistoryEntry] {
        self.active
            .as_ref()
            .map_or(&[][..], |active| active.history.as_slice())
    }

    /// Which panels are open.
    pub fn panels(&self) -> Panels {
        self.panels
    }

    /// The ideal-model estimates for the active filter and its `n` distinct entries.
    pub fn estimates(&self) -> Option<Estimates> {
        self.active.as_ref().map(|active| {
            estimates(
                u32::from(active.params.m()),
                u32::from(active.params.k()),
                u32::try_from(active.entries.len()).unwrap_or(u32::MAX),
            )
        })
    }

    /// Everything a page or a test reads, in one serialisable value.
    pub fn view(&self) -> View {
        let active = self.active.as_ref();
        View {
            active: active.is_some(),
            params: active.map(|active| ParamsView::from(active.params)),
            drafts: self.drafts.clone(),
            bits: active.map(|active| {
                active
                    .bits
                    .iter()
                    .map(|&set| if set { '1' } else { '0' })
                    .collect()
            }),
            bits_set: active.map_or(0, |active| {
                u32::try_from(active.bits.iter().filter(|&&set| set).count()).unwrap_or(u32::MAX)
            }),
            distinct_entries: u32::try_from(self.entries().len()).unwrap_or(u32::MAX),
            counters: self.counters(),
            rate: self.rate(),
            last_operation: self.last_operation().cloned(),
            history: self.history().to_vec(),
            panels: self.panels,
            estimates: self.estimates(),
        }
    }
}

/// The whole observable state of a [`Session`] (see [`Session::view`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// Whether a filter is active.
    pub active: bool,
    /// The active filter's parameters, `null` with none.
    pub params: Option<ParamsView>,
    /// The four drafts, verbatim.
    pub drafts: Drafts,
    /// The bits as `'0'`/`'1'` characters, bit 0 first, length m; `null` with no active filter.
    pub bits: Option<String>,
    /// Number of bits set.
    pub bits_set: u32,
    /// Number of distinct reference entries (`n`).
    pub distinct_entries: u32,
    /// The query counters.
    pub counters: Counters,
    /// The observed false-positive rate.
    pub rate: Rate,
    /// The last insertion or query, `null` with none.
    pub last_operation: Option<LastOperation>,
    /// History, newest first.
    pub history: Vec<HistoryEntry>,
    /// Which panels are open.
    pub panels: Panels,
    /// Ideal-model estimates for the current `n`, `null` with no active filter.
    pub estimates: Option<Estimates>,
}
