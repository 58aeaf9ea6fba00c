//! The session: drafts, the active filter, the reference entries, counters,
//! the last operation, history and panels; operations and the view.

use bloomproof_protocol::fnv1a_utf16_v1::{self, BoundError, Field, Params};
use bloomproof_wire::protocols::fnv1a_utf16_v1::session::{
    Counters, DraftField, Drafts, HistoryEntry, LastOperation, Op, OpKind, Outcome, Panel, Panels,
    ParamsView, PositionStep, Rate, View, json_display,
};

use std::collections::HashSet;

use crate::error::SessionError;
use crate::estimates::{Estimates, estimates};
use crate::{DRAFT_MAX_UNITS, EXAMPLE, HISTORY_CAP, MAX_ENTRIES, MAX_UNITS};

/// The protocol's parameters as the view and the export file show them.
pub(crate) fn params_view(params: Params) -> ParamsView {
    ParamsView {
        m: u32::from(params.m()),
        k: u32::from(params.k()),
    }
}

/// The active filter and everything that lives and dies with it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Active {
    pub(crate) params: Params,
    pub(crate) bits: Vec<bool>,
    /// The distinct entries in insertion order; add with [`Active::add_entry`].
    entries: Vec<Vec<u16>>,
    /// The same entries, for membership in constant time (a page's 1024 inserts
    /// compared each with every entry before it took most of the suite's session time).
    index: HashSet<Vec<u16>>,
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
            index: HashSet::new(),
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
        active.index = entries.iter().cloned().collect();
        active.entries = entries;
        active
    }

    pub(crate) fn contains(&self, units: &[u16]) -> bool {
        self.index.contains(units)
    }

    /// The distinct entries in insertion order.
    pub(crate) fn entries(&self) -> &[Vec<u16>] {
        &self.entries
    }

    /// Adds a new distinct entry (not already [`Active::contains`]).
    fn add_entry(&mut self, units: &[u16]) {
        self.entries.push(units.to_vec());
        self.index.insert(units.to_vec());
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
            self.add_entry(units);
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

/// `text`'s length in UTF-16 code units, as JavaScript counts a string's length: one
/// for each character and one more for each outside the Basic Multilingual Plane,
/// counted as the characters plus the bytes that start a four-byte UTF-8 sequence.
/// The same count as `text.encode_utf16().count()` without encoding anything (two
/// passes that the standard library and the compiler make word-wide): the local-save
/// rule counts serialised states of hundreds of kilobytes.
pub fn units_len(text: &str) -> usize {
    text.chars().count() + text.bytes().filter(|&byte| byte >= 0xf0).count()
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
            Op::Create {} => {
                let params = parse_params(&self.drafts)?;
                self.active = Some(Active::empty(params));
                Ok(())
            }
            Op::Insert { value } => {
                let active = self.active_mut("insert")?;
                check_string(DraftField::Insert, value.units())?;
                if !active.contains(value.units()) && active.entries().len() >= MAX_ENTRIES {
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
            Op::InsertExample {} => {
                let active = self.active_mut("insert_example")?;
                let examples: Vec<Vec<u16>> = EXAMPLE
                    .iter()
                    .map(|text| text.encode_utf16().collect())
                    .collect();
                let new = examples
                    .iter()
                    .filter(|units| !active.contains(units))
                    .count();
                if active.entries().len().saturating_add(new) > MAX_ENTRIES {
                    return Err(SessionError::TooManyEntries { max: MAX_ENTRIES });
                }
                for units in &examples {
                    active.commit_insert(units);
                }
                Ok(())
            }
            Op::Reset {} => {
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
            .map_or(&[][..], |active| active.entries())
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
                u32::try_from(active.entries().len()).unwrap_or(u32::MAX),
            )
        })
    }

    /// Everything a page or a test reads, in one serialisable value.
    pub fn view(&self) -> View {
        let active = self.active.as_ref();
        View {
            active: active.is_some(),
            params: active.map(|active| params_view(active.params)),
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
