//! The core comparison of a generated session (`compared: ["page"]`): each step's answer
//! judged by what seed 002 states, and by nothing SESSION.md decided.
//!
//! The comparison follows the implementation's own session, not the reference model's:
//! each step is judged from the view the implementation gave before it (the previous
//! step's, or `initial`), so a reading the page leaves open (a draft `" 8"` read as 8, a
//! reset with no filter accepted, an import the reference refuses) does not make every
//! later step differ. What the page states, and so what is judged:
//!
//! * the filter: m an integer 8..=1024, k 1..=12; `create` from plain decimal drafts makes
//!   an empty filter of those parameters, or is refused when one is out of bounds (a draft
//!   that is not plain decimal digits is read as the implementation reads it: only the
//!   bounds are judged); changing m or k to another plain decimal value discards the
//!   filter, typing the value it has keeps it; `reset` empties it and keeps the drafts;
//! * strings of 1..=256 code units, at most 1024 distinct; a new insertion sets the
//!   oracle's positions and resets both counters; a duplicate changes no bit, entry or
//!   counter; a query changes no bit and counts as the page says (truly present: nothing;
//!   absent: a negative query, a false positive when all its bits are set);
//! * the observed rate: undefined with no negative query, else false positives over
//!   negative queries; the classic estimate `(1 - e^(-kn/m))^k` of the view's estimates;
//! * the last query or insertion comes first: the last operation and `history[0]` are
//!   that operation (its kind, string, outcome), its hashes and positions in order are the
//!   oracle's with each bit's value before (at a position's first occurrence) and after,
//!   and its display form is the string in JSON quotes and escapes (any escapes JSON
//!   allows; no raw control character);
//! * export and import: an import of the implementation's own export (`roundtrip`,
//!   `import_padded` up to 2 MiB) is accepted and gives back the filter, the drafts, the
//!   open panels and the last operation; an import it refuses keeps the filter; an import
//!   both it and the reference accept gives the filter the document holds (as the
//!   reference reads it);
//! * the local save: a state of at most 100000 characters is saved whole, a longer one is
//!   not and comes back with a warning;
//! * a rejected step keeps the filter.
//!
//! Not judged here (the interop check `generated_sessions_agree_with_model` compares the
//! whole answer with the reference): error kinds, which drafts are numbers, the drafts'
//! and the history's limits, the history beyond its first item, whether a duplicate is
//! recorded, the a..h example's and `insert_many`'s records, the finite-m and exact
//! estimates and the optimal k, the export text, reset with no filter, which imports are
//! valid, the length a kept save reports.
//!
//! Numbers: the classic estimate and the rate within 1e-9 relative. The page gives the
//! formula, not its evaluation: `(1 - exp(-x))^k` evaluated naively loses digits to
//! cancellation where `x = kn/m` is small, at worst about 2.2e-16 / x relative for the
//! base, k times that for the power: with x >= 1/1024 and k <= 12, under 3e-12. 1e-9 takes
//! any honest evaluation in double precision and refuses any other formula (the finite-m
//! and exact rates differ from it by far more at every n > 0).

use crate::generated::Mismatch;
use crate::verdict::json;
#[cfg(test)]
use bloomproof_adapter::protocols::fnv1a_utf16_v1::RustFnv;
use bloomproof_oracle::estimates as oracle_estimates;
use bloomproof_oracle::fnv1a_utf16 as oracle;
use bloomproof_wire::protocols::fnv1a_utf16_v1::{ScriptAnswer, StepAnswer};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{ScriptOp, TextValue};
use serde_json::Value;

/// The page's bounds (seed 002, paragraph 2): m, k, a string's code units, entries.
pub(super) const M_RANGE: std::ops::RangeInclusive<u64> = 8..=1024;
const K_RANGE: std::ops::RangeInclusive<u64> = 1..=12;
const UNITS_MAX: usize = 256;
const ENTRIES_MAX: usize = 1024;
/// 2 MiB (seed 002, paragraph 6).
const IMPORT_MAX_BYTES: usize = 2 * 1024 * 1024;
/// 100000 serialised characters (seed 002, paragraph 6).
const SAVE_MAX: usize = 100_000;
/// The example (seed 002, paragraph 5).
const EXAMPLE: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];

/// The active filter as a view shows it.
#[derive(Clone, Debug, PartialEq)]
struct Filter {
    m: u64,
    k: u64,
    bits: Vec<bool>,
    n: u64,
    negative: u64,
    false_positives: u64,
}

impl Filter {
    /// The same parameters, every bit clear, no entry and no query counted (what create
    /// and reset make).
    fn emptied(&self) -> Filter {
        Filter {
            bits: vec![false; self.bits.len()],
            n: 0,
            negative: 0,
            false_positives: 0,
            ..self.clone()
        }
    }
}

/// The last operation's parts the page defines.
#[derive(Clone, Debug, PartialEq)]
struct Last {
    kind: String,
    units: Vec<u16>,
    outcome: String,
}

/// What the page defines of one view.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    filter: Option<Filter>,
    drafts: Value,
    panels: Value,
    last: Option<Last>,
}

fn close(expected: f64, actual: f64) -> bool {
    expected == actual
        || (expected - actual).abs() <= 1e-9 * expected.abs().max(actual.abs()).max(1e-300)
}

/// A non-negative integer (`8` or `8.0`: the runner reads numbers as numbers).
fn int(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1.8e19)
            .map(|f| f as u64)
    })
}

fn units_of(value: &Value) -> Option<Vec<u16>> {
    value
        .as_array()?
        .iter()
        .map(|u| int(u).and_then(|u| u16::try_from(u).ok()))
        .collect()
}

fn field<'a>(view: &'a Value, path: &str) -> Result<&'a Value, String> {
    let mut at = view;
    for key in path.split('.') {
        at = at
            .get(key)
            .ok_or_else(|| format!("the view has no `{path}`"))?;
    }
    Ok(at)
}

fn int_at(view: &Value, path: &str) -> Result<u64, String> {
    int(field(view, path)?).ok_or_else(|| format!("`{path}` is not a non-negative integer"))
}

fn seen(view: &Value) -> Result<Seen, String> {
    let active = field(view, "active")?
        .as_bool()
        .ok_or("`active` is not a boolean")?;
    let filter = if active {
        let bits = field(view, "bits")?
            .as_str()
            .ok_or("`bits` is not a string")?
            .chars()
            .map(|c| match c {
                '0' => Ok(false),
                '1' => Ok(true),
                other => Err(format!("`bits` holds {other:?}")),
            })
            .collect::<Result<Vec<bool>, String>>()?;
        Some(Filter {
            m: int_at(view, "params.m")?,
            k: int_at(view, "params.k")?,
            bits,
            n: int_at(view, "distinct_entries")?,
            negative: int_at(view, "counters.negative_queries")?,
            false_positives: int_at(view, "counters.false_positives")?,
        })
    } else {
        None
    };
    let last = match field(view, "last_operation")? {
        Value::Null => None,
        last => Some(Last {
            kind: field(last, "kind")?
                .as_str()
                .unwrap_or_default()
                .to_string(),
            units: units_of(field(last, "units")?)
                .ok_or("`last_operation.units` is not code units")?,
            outcome: field(last, "outcome")?
                .as_str()
                .unwrap_or_default()
                .to_string(),
        }),
    };
    Ok(Seen {
        filter,
        drafts: field(view, "drafts")?.clone(),
        panels: field(view, "panels")?.clone(),
        last,
    })
}

/// The value of a plain decimal draft (ASCII digits, no leading zero but in "0"), the
/// only kind of text every reading of "an integer m" takes as that integer; a value past
/// any bound as `u64::MAX`.
fn plain_decimal(text: &str) -> Option<u64> {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    plain.then(|| text.parse().unwrap_or(u64::MAX))
}

fn text_units(value: &TextValue) -> Vec<u16> {
    match value {
        TextValue::Text(text) => oracle::utf16_units(text),
        TextValue::Units(units) => units.clone(),
    }
}

fn positions(filter: &Filter, units: &[u16]) -> Vec<usize> {
    let m = u32::try_from(filter.m).unwrap_or(u32::MAX);
    let k = u32::try_from(filter.k).unwrap_or(u32::MAX);
    oracle::positions(m, k, units)
        .into_iter()
        .map(|p| p as usize)
        .collect()
}

fn shown(units: &[u16]) -> String {
    String::from_utf16(units).map_or_else(|_| json(&units), |text| json(&text))
}

fn bits_text(bits: &[bool]) -> String {
    bits.iter().map(|&b| if b { '1' } else { '0' }).collect()
}

fn show_filter(filter: Option<&Filter>) -> String {
    filter.map_or_else(
        || "no active filter".to_string(),
        |f| {
            format!(
                "m {}, k {}, bits {}, {} distinct, counters {}/{} (negative/false positives)",
                f.m,
                f.k,
                bits_text(&f.bits),
                f.n,
                f.negative,
                f.false_positives
            )
        },
    )
}

/// The units a display form denotes: a JSON string, whose escapes may denote lone
/// surrogates; `None` when it is not one, or holds a raw control character.
fn displayed(display: &str) -> Option<Vec<u16>> {
    let inner = display.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return None,
            c if u32::from(c) < 0x20 => return None,
            '\\' => {
                let unit = match chars.next()? {
                    '"' => 0x22,
                    '\\' => 0x5C,
                    '/' => 0x2F,
                    'b' => 0x08,
                    'f' => 0x0C,
                    'n' => 0x0A,
                    'r' => 0x0D,
                    't' => 0x09,
                    'u' => {
                        let hex: String = chars.by_ref().take(4).collect();
                        // Four hex digits (`from_str_radix` would also take a sign).
                        if hex.len() != 4 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                            return None;
                        }
                        u16::from_str_radix(&hex, 16).ok()?
                    }
                    _ => return None,
                };
                out.push(unit);
            }
            c => {
                let mut buffer = [0u16; 2];
                out.extend_from_slice(c.encode_utf16(&mut buffer));
            }
        }
    }
    Some(out)
}

/// What the page's comparison reads of the reference model's answer to one step: whether
/// the model accepted it and, after an import (the only step that reads them), the
/// entries the model then holds (what an import the reference accepts holds). `None`
/// when the model gave no answer.
pub(super) type Reference = Option<(bool, Vec<Vec<u16>>)>;

/// The [`Reference`] of `answer`, the model's answer to `op`, with `session` the model
/// after it.
pub(super) fn reference_of(
    op: &ScriptOp,
    answer: Option<&StepAnswer>,
    session: &bloomproof_session::Session,
) -> Reference {
    let import = matches!(op, ScriptOp::Import { .. } | ScriptOp::ImportText { .. });
    answer.map(|answer| {
        (
            answer.error.is_none(),
            if import {
                session.entries().to_vec()
            } else {
                Vec::new()
            },
        )
    })
}

/// The reference model's answer to each step of a script, replayed (the generated
/// checks take it from the run that made the script: `super::session`).
#[cfg(test)]
pub(super) fn reference(ops: &[ScriptOp]) -> Vec<Reference> {
    let mut session = bloomproof_session::Session::new();
    ops.iter()
        .map(|op| {
            let answer = RustFnv::step_unviewed(&mut session, op).ok();
            reference_of(op, answer.as_ref(), &session)
        })
        .collect()
}

/// The first step whose answer breaks a rule of the page, judged from the view before it,
/// with the reference model's answers replayed.
#[cfg(test)]
pub(super) fn verdict(ops: &[ScriptOp], got: &ScriptAnswer) -> Option<Mismatch> {
    verdict_with(ops, &reference(ops), got)
}

/// [`verdict`] with the reference model's answer to each step given ([`Reference`]).
pub(super) fn verdict_with(
    ops: &[ScriptOp],
    reference: &[Reference],
    got: &ScriptAnswer,
) -> Option<Mismatch> {
    if got.steps.len() != ops.len() {
        return Some(Mismatch::new(
            "one answer per step",
            ops.len().to_string(),
            got.steps.len().to_string(),
        ));
    }
    let mut previous = &got.initial;
    // The entries of the implementation's filter, while the script shows them (an import
    // the reference refuses hides them until the filter is emptied).
    let mut entries: Option<Vec<Vec<u16>>> = None;
    for (index, ((op, answer), reference)) in ops.iter().zip(&got.steps).zip(reference).enumerate()
    {
        let name = serde_json::to_value(op)
            .ok()
            .and_then(|v| v.get("op").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_default();
        let at = format!("step {index} ({name})");
        let judged = Step {
            op,
            answer,
            reference: reference.as_ref(),
        }
        .judge(previous, &mut entries);
        if let Err((what, expected, actual)) = judged {
            return Some(Mismatch::new(format!("{at}: {what}"), expected, actual));
        }
        previous = &answer.view;
    }
    None
}

/// What a step broke: the rule, what it wants, what the answer shows.
type Broken = (String, String, String);

fn broken(
    what: impl Into<String>,
    expected: impl Into<String>,
    actual: impl Into<String>,
) -> Broken {
    (what.into(), expected.into(), actual.into())
}

struct Step<'a> {
    op: &'a ScriptOp,
    answer: &'a StepAnswer,
    reference: Option<&'a (bool, Vec<Vec<u16>>)>,
}

/// The verdict on a string outside 1..=256 UTF-16 code units (seed 002's bound for an
/// insert and a query): it must be refused (any error). `None` for a string within it.
/// An insertion's or a query's first judgement ([`Step::string_step`]).
enum StringStep<'s> {
    /// The step's verdict, final: there was no filter, or the string was out of bounds.
    Judged(Result<(), Broken>),
    /// Judge on: the filter before the step, and whether the step was accepted.
    Go { filter: &'s Filter, accepted: bool },
}

fn out_of_bounds(accepted: bool, units: &[u16]) -> Option<Result<(), Broken>> {
    if !units.is_empty() && units.len() <= UNITS_MAX {
        return None;
    }
    Some(if accepted {
        Err(broken(
            "rejected: a string has 1..=256 UTF-16 code units",
            "rejected",
            format!("accepted a string of {} code units", units.len()),
        ))
    } else {
        Ok(())
    })
}

impl Step<'_> {
    fn judge(&self, previous: &Value, entries: &mut Option<Vec<Vec<u16>>>) -> Result<(), Broken> {
        let before = seen(previous).map_err(|e| broken("the view before the step", "a view", e))?;
        let after = seen(&self.answer.view).map_err(|e| broken("the view", "a view", e))?;
        // No filter, or an empty one: no entries.
        if before.filter.as_ref().is_none_or(|f| f.n == 0) {
            *entries = Some(Vec::new());
        }
        let accepted = self.answer.error.is_none();
        let rejected_text = || {
            self.answer
                .error
                .as_ref()
                .map(|e| format!("rejected ({}: {})", e.kind, e.message))
                .unwrap_or_default()
        };
        // A rejected step keeps the filter (an invalid import, the page says; a string or
        // a create the page's bounds refuse is not made). Insertions of several strings
        // refused part way are SESSION.md's all or nothing: judged in `insert_all`.
        let several = matches!(
            self.op,
            ScriptOp::InsertExample {} | ScriptOp::InsertMany { .. }
        );
        if !accepted && !several && before.filter != after.filter {
            return Err(broken(
                "a rejected step keeps the filter",
                show_filter(before.filter.as_ref()),
                show_filter(after.filter.as_ref()),
            ));
        }
        invariants(&self.answer.view, after.filter.as_ref())?;
        let keeps = |what: &str| -> Result<(), Broken> {
            if before.filter != after.filter {
                return Err(broken(
                    format!("{what} keeps the filter"),
                    show_filter(before.filter.as_ref()),
                    show_filter(after.filter.as_ref()),
                ));
            }
            Ok(())
        };
        let must_accept = |why: &str| -> Result<(), Broken> {
            if accepted {
                Ok(())
            } else {
                Err(broken(
                    format!("accepted: {why}"),
                    "accepted",
                    rejected_text(),
                ))
            }
        };
        let must_reject = |why: &str| -> Result<(), Broken> {
            if accepted {
                Err(broken(
                    format!("rejected: {why}"),
                    "rejected, the filter kept",
                    show_filter(after.filter.as_ref()),
                ))
            } else {
                Ok(())
            }
        };
        match self.op {
            ScriptOp::SetDraft { field, value } => {
                let name = serde_json::to_value(field)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                if !accepted {
                    return Ok(());
                }
                if after.drafts.get(&name) != Some(&Value::String(value.clone())) {
                    return Err(broken(
                        format!("the {name} draft holds the text typed, verbatim"),
                        json(value),
                        json(&after.drafts.get(&name)),
                    ));
                }
                for other in ["m", "k", "insert", "query"].iter().filter(|f| **f != name) {
                    if before.drafts.get(*other) != after.drafts.get(*other) {
                        return Err(broken(
                            format!("typing into the {name} draft keeps the {other} draft"),
                            json(&before.drafts.get(*other)),
                            json(&after.drafts.get(*other)),
                        ));
                    }
                }
                let Some(filter) = &before.filter else {
                    return match after.filter {
                        None => Ok(()),
                        Some(_) => Err(broken(
                            "typing a draft creates no filter",
                            "no active filter",
                            show_filter(after.filter.as_ref()),
                        )),
                    };
                };
                let param = match name.as_str() {
                    "m" => filter.m,
                    "k" => filter.k,
                    _ => return keeps("typing into the insert or query draft"),
                };
                match plain_decimal(value) {
                    Some(typed) if typed == param => {
                        keeps(&format!("typing the {name} the filter has ({param})"))
                    }
                    Some(typed) => match after.filter {
                        None => Ok(()),
                        Some(_) => Err(broken(
                            format!(
                                "changing {name} from {param} to {typed} discards the active filter"
                            ),
                            "no active filter",
                            show_filter(after.filter.as_ref()),
                        )),
                    },
                    // Not plain decimal: kept or discarded, as the implementation reads it.
                    None => match after.filter {
                        None => Ok(()),
                        Some(_) => keeps("a draft that does not discard the filter"),
                    },
                }
            }
            ScriptOp::Create {} => {
                let draft = |f: &str| {
                    before
                        .drafts
                        .get(f)
                        .and_then(Value::as_str)
                        .and_then(plain_decimal)
                };
                let (m, k) = (draft("m"), draft("k"));
                let m_out = m.is_some_and(|m| !M_RANGE.contains(&m));
                let k_out = k.is_some_and(|k| !K_RANGE.contains(&k));
                if m_out || k_out {
                    return must_reject(&format!(
                        "create with the drafts m {}, k {}: m is an integer 8..=1024 and k 1..=12",
                        json(&before.drafts.get("m")),
                        json(&before.drafts.get("k"))
                    ));
                }
                if m.is_some() && k.is_some() {
                    must_accept("create with plain decimal m and k within their bounds")?;
                }
                if !accepted {
                    return Ok(());
                }
                let Some(filter) = &after.filter else {
                    return Err(broken(
                        "create makes an active filter",
                        "a filter",
                        "no active filter",
                    ));
                };
                for (what, want, got) in [("m", m, filter.m), ("k", k, filter.k)] {
                    if want.is_some_and(|want| want != got) {
                        return Err(broken(
                            format!("create takes {what} from its draft"),
                            json(&want),
                            got.to_string(),
                        ));
                    }
                }
                let empty = filter.emptied();
                // Creating the filter it already has may keep it (the page does not say).
                if *filter != empty && before.filter.as_ref() != Some(filter) {
                    return Err(broken(
                        "create makes an empty filter (m bits at zero, no entry, no query counted)",
                        show_filter(Some(&empty)),
                        show_filter(Some(filter)),
                    ));
                }
                if *filter == empty {
                    *entries = Some(Vec::new());
                }
                Ok(())
            }
            ScriptOp::Insert { value } => self.insert(&before, &after, &text_units(value), entries),
            ScriptOp::Query { value } => self.query(&before, &after, &text_units(value), entries),
            ScriptOp::InsertExample {} => {
                let strings: Vec<Vec<u16>> =
                    EXAMPLE.iter().map(|s| oracle::utf16_units(s)).collect();
                self.insert_all(&before, &after, &strings, entries)
            }
            ScriptOp::InsertMany { prefix, count } => {
                if *count == 0 {
                    return keeps("inserting nothing");
                }
                let strings: Vec<Vec<u16>> = (0..*count)
                    .map(|i| oracle::utf16_units(&format!("{prefix}{i}")))
                    .collect();
                self.insert_all(&before, &after, &strings, entries)
            }
            ScriptOp::Reset {} => {
                let Some(filter) = &before.filter else {
                    // With no filter: refused or nothing to clear, as the implementation reads it.
                    return keeps("reset with no filter");
                };
                must_accept("reset of an active filter")?;
                let empty = filter.emptied();
                if after.filter.as_ref() != Some(&empty) {
                    return Err(broken(
                        "reset empties the filter and keeps its parameters",
                        show_filter(Some(&empty)),
                        show_filter(after.filter.as_ref()),
                    ));
                }
                if before.drafts != after.drafts {
                    return Err(broken(
                        "reset keeps the drafts",
                        json(&before.drafts),
                        json(&after.drafts),
                    ));
                }
                *entries = Some(Vec::new());
                Ok(())
            }
            ScriptOp::SetPanel { panel, open } => {
                if !accepted {
                    return Ok(());
                }
                let name = serde_json::to_value(panel)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                if after.panels.get(&name).and_then(Value::as_bool) != Some(*open) {
                    return Err(broken(
                        format!("the {name} panel is as set"),
                        open.to_string(),
                        json(&after.panels.get(&name)),
                    ));
                }
                keeps("opening or closing a panel")
            }
            ScriptOp::Export {} => {
                must_accept("the page exports the session")?;
                keeps("exporting")
            }
            ScriptOp::SaveLocal { units, fill } => {
                keeps("saving locally")?;
                let Some(save) = &self.answer.save else {
                    return Err(broken("the save answer", "a save answer", "none"));
                };
                // The page says "characters" (SESSION-11.1, core); which measure counts
                // them is SESSION.md's decision (SESSION-11.4, interop). So a save is due
                // where even the most (UTF-8 bytes) is within the limit, a refusal where
                // even the fewest is over it; in between either stands, as itself. A
                // state of "x" alone (no fill) is as many characters in every measure.
                let state = super::measure::state_measures(*units, fill.as_deref());
                let (within, over) = match fill {
                    None => (
                        format!("{units} characters (at most {SAVE_MAX})"),
                        format!("{units} characters (over {SAVE_MAX})"),
                    ),
                    Some(fill) => {
                        let what = format!(
                            "{units} UTF-16 code units of {} ({} UTF-8 bytes, {} code points)",
                            json(fill),
                            state.bytes,
                            state.points
                        );
                        (
                            format!("{what}, at most {SAVE_MAX} in every measure,"),
                            format!("{what}, over {SAVE_MAX} in every measure,"),
                        )
                    }
                };
                let saved_whole = save.outcome == "saved"
                    && save.stored_units == *units
                    && save.warning.is_none();
                let kept_warned = save.outcome != "saved"
                    && save
                        .warning
                        .as_deref()
                        .is_some_and(|w| !w.trim().is_empty());
                if state.bytes <= SAVE_MAX && !saved_whole {
                    return Err(broken(
                        format!("a state of {within} is saved whole"),
                        format!("saved, {units} stored, no warning"),
                        json(save),
                    ));
                }
                if state.fewest > SAVE_MAX && !kept_warned {
                    return Err(broken(
                        format!(
                            "a state of {over} is not saved: the previous copy is kept, with a warning"
                        ),
                        "kept, with a warning",
                        json(save),
                    ));
                }
                if !saved_whole && !kept_warned {
                    return Err(broken(
                        format!(
                            "a state of {units} UTF-16 code units, within {SAVE_MAX} in some measures and over in others, is saved whole or not saved with a warning (either stands)"
                        ),
                        format!("saved, {units} stored, no warning; or kept, with a warning"),
                        json(save),
                    ));
                }
                Ok(())
            }
            ScriptOp::Roundtrip {} => {
                must_accept("an import of the session's own export")?;
                same_session(&before, &after, "exporting the session and importing it")
            }
            ScriptOp::ImportPadded { bytes } => {
                if *bytes <= IMPORT_MAX_BYTES {
                    must_accept(&format!(
                        "an import of the session's own export, {bytes} bytes (at most 2 MiB)"
                    ))?;
                }
                if accepted {
                    same_session(&before, &after, "importing the session's own export")?;
                }
                Ok(())
            }
            ScriptOp::Import { .. } | ScriptOp::ImportText { .. } => {
                if !accepted {
                    return Ok(());
                }
                match self.reference {
                    Some((true, held)) => {
                        *entries = Some(held.clone());
                        let n = held.len() as u64;
                        match &after.filter {
                            Some(filter) if filter.n != n => Err(broken(
                                "an import the reference accepts too gives the document's entries",
                                format!("{n} distinct entries"),
                                show_filter(Some(filter)),
                            )),
                            Some(filter) => {
                                let mut bits = vec![false; filter.bits.len()];
                                for entry in held {
                                    for p in positions(filter, entry) {
                                        if let Some(bit) = bits.get_mut(p) {
                                            *bit = true;
                                        }
                                    }
                                }
                                if bits != filter.bits {
                                    return Err(broken(
                                        "an imported filter's bits are those of its entries' positions",
                                        bits_text(&bits),
                                        bits_text(&filter.bits),
                                    ));
                                }
                                Ok(())
                            }
                            None => Ok(()),
                        }
                    }
                    // Refused by the reference, accepted here: a reading of its own.
                    _ => {
                        *entries = None;
                        Ok(())
                    }
                }
            }
        }
    }

    /// What an insertion and a query of `units` share: the step is judged already (there
    /// was no filter, or the string was out of the page's bounds), or it goes on with
    /// the filter before it and whether it was accepted.
    fn string_step<'s>(
        &self,
        before: &'s Seen,
        after: &Seen,
        units: &[u16],
        what: &str,
    ) -> StringStep<'s> {
        let accepted = self.answer.error.is_none();
        let Some(filter) = &before.filter else {
            return StringStep::Judged(no_filter(before, after, what));
        };
        match out_of_bounds(accepted, units) {
            Some(verdict) => StringStep::Judged(verdict),
            None => StringStep::Go { filter, accepted },
        }
    }

    /// One insertion of `units`.
    fn insert(
        &self,
        before: &Seen,
        after: &Seen,
        units: &[u16],
        entries: &mut Option<Vec<Vec<u16>>>,
    ) -> Result<(), Broken> {
        let (filter, accepted) = match self.string_step(before, after, units, "an insertion") {
            StringStep::Go { filter, accepted } => (filter, accepted),
            StringStep::Judged(verdict) => return verdict,
        };
        let Some(known) = entries.as_mut() else {
            return Ok(());
        };
        let duplicate = known.iter().any(|e| e == units);
        if !duplicate && known.len() >= ENTRIES_MAX {
            return if accepted {
                Err(broken(
                    "rejected: at most 1024 distinct strings are kept",
                    "rejected",
                    format!("accepted a new string {} beside 1024 entries", shown(units)),
                ))
            } else {
                Ok(())
            };
        }
        if !accepted {
            return Err(broken(
                format!("accepted: the insertion of {}", shown(units)),
                "accepted",
                self.answer
                    .error
                    .as_ref()
                    .map(|e| format!("{}: {}", e.kind, e.message))
                    .unwrap_or_default(),
            ));
        }
        let mut want = filter.clone();
        if !duplicate {
            for p in positions(filter, units) {
                if let Some(bit) = want.bits.get_mut(p) {
                    *bit = true;
                }
            }
            want.n += 1;
            want.negative = 0;
            want.false_positives = 0;
            known.push(units.to_vec());
        }
        if after.filter.as_ref() != Some(&want) {
            let what = if duplicate {
                format!(
                    "inserting {} again (a duplicate) changes no bit, entry or counter",
                    shown(units)
                )
            } else {
                format!(
                    "inserting {} sets its positions, adds one distinct entry and resets both counters",
                    shown(units)
                )
            };
            return Err(broken(
                what,
                show_filter(Some(&want)),
                show_filter(after.filter.as_ref()),
            ));
        }
        // Whether a duplicate is recorded is SESSION.md's decision.
        if !duplicate {
            last_operation(&self.answer.view, filter, "insert", units, "new")?;
        }
        Ok(())
    }

    /// Insertions of `strings` in order, as one step: judged when the page's rules accept
    /// every one (else how the step ends is the implementation's, SESSION.md's all or
    /// nothing, and its entries are no longer known).
    fn insert_all(
        &self,
        before: &Seen,
        after: &Seen,
        strings: &[Vec<u16>],
        entries: &mut Option<Vec<Vec<u16>>>,
    ) -> Result<(), Broken> {
        let Some(filter) = &before.filter else {
            return no_filter(before, after, "an insertion");
        };
        let Some(known) = entries.as_ref() else {
            return Ok(());
        };
        let mut all: Vec<Vec<u16>> = known.clone();
        // Each string looked up once in a set (up to 4096 strings a step).
        let mut held: std::collections::HashSet<&[u16]> = known.iter().map(Vec::as_slice).collect();
        for s in strings {
            if held.insert(s.as_slice()) {
                all.push(s.clone());
            }
        }
        let fits =
            all.len() <= ENTRIES_MAX && strings.iter().all(|s| (1..=UNITS_MAX).contains(&s.len()));
        if !fits {
            // Past the page's bounds: refused whole, refused part way or accepted in part,
            // as the implementation reads it; its entries are then known only if kept.
            if self.answer.error.is_none() || before.filter != after.filter {
                *entries = None;
            }
            return Ok(());
        }
        if let Some(error) = &self.answer.error {
            return Err(broken(
                "accepted: insertions the page accepts, each of them",
                "accepted",
                format!("{}: {}", error.kind, error.message),
            ));
        }
        let mut want = filter.clone();
        for s in &all[known.len()..] {
            for p in positions(filter, s) {
                if let Some(bit) = want.bits.get_mut(p) {
                    *bit = true;
                }
            }
        }
        if all.len() > known.len() {
            want.n = all.len() as u64;
            want.negative = 0;
            want.false_positives = 0;
        }
        if after.filter.as_ref() != Some(&want) {
            return Err(broken(
                format!(
                    "inserting {} strings in order: new ones set their positions and reset the counters, duplicates change nothing",
                    strings.len()
                ),
                show_filter(Some(&want)),
                show_filter(after.filter.as_ref()),
            ));
        }
        *entries = Some(all);
        Ok(())
    }

    fn query(
        &self,
        before: &Seen,
        after: &Seen,
        units: &[u16],
        entries: &Option<Vec<Vec<u16>>>,
    ) -> Result<(), Broken> {
        let filter = match self.string_step(before, after, units, "a query") {
            StringStep::Go { filter, .. } => filter,
            StringStep::Judged(verdict) => return verdict,
        };
        if let Some(error) = &self.answer.error {
            return Err(broken(
                format!("accepted: the query of {}", shown(units)),
                "accepted",
                format!("{}: {}", error.kind, error.message),
            ));
        }
        let all_set = positions(filter, units)
            .iter()
            .all(|&p| filter.bits.get(p).copied().unwrap_or(false));
        // The outcome: the page's when the entries are known; else any the bits allow,
        // as the implementation reports it.
        let outcome = match entries {
            Some(known) if known.iter().any(|e| e == units) => "truly_present",
            Some(_) if all_set => "false_positive",
            Some(_) => "definitely_absent",
            None => {
                let reported = after.last.as_ref().map(|l| l.outcome.as_str());
                match reported {
                    Some("truly_present") if all_set => "truly_present",
                    _ if all_set => "false_positive",
                    _ => "definitely_absent",
                }
            }
        };
        let mut want = filter.clone();
        if outcome != "truly_present" {
            want.negative = want.negative.saturating_add(1);
            if outcome == "false_positive" {
                want.false_positives = want.false_positives.saturating_add(1);
            }
        }
        if after.filter.as_ref() != Some(&want) {
            return Err(broken(
                format!(
                    "the query of {} ({outcome}) changes no bit or entry and counts as the page says (truly present: nothing; absent: a negative query, and a false positive when all its bits are set)",
                    shown(units)
                ),
                show_filter(Some(&want)),
                show_filter(after.filter.as_ref()),
            ));
        }
        last_operation(&self.answer.view, filter, "query", units, outcome)
    }
}

/// An insertion or query with no active filter: refused or ignored, it makes no filter.
fn no_filter(before: &Seen, after: &Seen, what: &str) -> Result<(), Broken> {
    // Called only where there was none before the step.
    debug_assert!(before.filter.is_none());
    if after.filter.is_some() {
        return Err(broken(
            format!("{what} with no active filter makes none"),
            "no active filter",
            show_filter(after.filter.as_ref()),
        ));
    }
    Ok(())
}

/// After an import of the session's own export: the same filter, drafts, panels and
/// last operation.
fn same_session(before: &Seen, after: &Seen, what: &str) -> Result<(), Broken> {
    if before.filter != after.filter {
        return Err(broken(
            format!("{what} gives back the filter"),
            show_filter(before.filter.as_ref()),
            show_filter(after.filter.as_ref()),
        ));
    }
    for (part, want, got) in [
        ("drafts", &before.drafts, &after.drafts),
        ("open panels", &before.panels, &after.panels),
    ] {
        if want != got {
            return Err(broken(
                format!("{what} gives back the {part}"),
                json(want),
                json(got),
            ));
        }
    }
    if before.last != after.last {
        return Err(broken(
            format!("{what} gives back the last operation"),
            format!("{:?}", before.last),
            format!("{:?}", after.last),
        ));
    }
    Ok(())
}

/// What holds after every step: the filter within the page's bounds, the rate and the
/// classic estimate as the page defines them.
fn invariants(view: &Value, filter: Option<&Filter>) -> Result<(), Broken> {
    let (negative, false_positives) = filter.map_or((0, 0), |f| (f.negative, f.false_positives));
    if let Some(f) = filter {
        if !M_RANGE.contains(&f.m) || !K_RANGE.contains(&f.k) {
            return Err(broken(
                "a filter has m 8..=1024 and k 1..=12",
                "m 8..=1024, k 1..=12",
                format!("m {}, k {}", f.m, f.k),
            ));
        }
        if f.bits.len() as u64 != f.m {
            return Err(broken(
                "a filter has m bits",
                f.m.to_string(),
                f.bits.len().to_string(),
            ));
        }
        if f.n > ENTRIES_MAX as u64 || f.false_positives > f.negative {
            return Err(broken(
                "at most 1024 distinct entries, and no more false positives than negative queries",
                "n <= 1024, false_positives <= negative_queries",
                show_filter(filter),
            ));
        }
        let want = oracle_estimates::classic(f.m as u32, f.k as u32, f.n as u32);
        let got = field(view, "estimates.classic")
            .ok()
            .and_then(Value::as_f64);
        if !got.is_some_and(|got| close(want, got)) {
            return Err(broken(
                format!(
                    "the classic estimate (1 - e^(-kn/m))^k at m {}, k {}, n {} (within 1e-9 relative)",
                    f.m, f.k, f.n
                ),
                format!("{want:e}"),
                json(&got),
            ));
        }
    }
    let rate = field(view, "rate").map_err(|e| broken("the observed rate", "a rate", e))?;
    let state = rate.get("state").and_then(Value::as_str);
    if negative == 0 {
        if state != Some("undefined") {
            return Err(broken(
                "with no negative query the observed rate is undefined",
                "{\"state\": \"undefined\"}",
                json(rate),
            ));
        }
    } else {
        let want = false_positives as f64 / negative as f64;
        let got = rate.get("value").and_then(Value::as_f64);
        if state != Some("defined") || !got.is_some_and(|got| close(want, got)) {
            return Err(broken(
                format!(
                    "the observed rate is false positives over negative queries, {false_positives}/{negative} (within 1e-9 relative)"
                ),
                want.to_string(),
                json(rate),
            ));
        }
    }
    Ok(())
}

/// The last operation and `history[0]` are this one: its kind, string and outcome, the
/// oracle's hashes and positions in order, each position's bit before (at its first
/// occurrence: a repeat's is SESSION.md's decision) and after, and the string in JSON
/// quotes and escapes.
fn last_operation(
    view: &Value,
    before: &Filter,
    kind: &str,
    units: &[u16],
    outcome: &str,
) -> Result<(), Broken> {
    let what = format!("the last operation is this {kind} of {}", shown(units));
    let last = field(view, "last_operation").map_err(|e| broken(&what, "a last operation", e))?;
    let history = field(view, "history")
        .ok()
        .and_then(Value::as_array)
        .and_then(|h| h.first());
    for (place, record) in [("last_operation", Some(last)), ("history[0]", history)] {
        let record = record.unwrap_or(&Value::Null);
        let ok = record.get("kind").and_then(Value::as_str) == Some(kind)
            && record.get("units").and_then(units_of).as_deref() == Some(units)
            && record.get("outcome").and_then(Value::as_str) == Some(outcome);
        if !ok {
            return Err(broken(
                format!("{what}, first: `{place}` (kind, units, outcome)"),
                json(&serde_json::json!({"kind": kind, "units": units, "outcome": outcome})),
                json(record),
            ));
        }
    }
    let (h1, h2) = (oracle::h1(units), oracle::h2(units));
    if last.get("h1").and_then(int) != Some(u64::from(h1))
        || last.get("h2").and_then(int) != Some(u64::from(h2))
    {
        return Err(broken(
            format!("{what}: its two base hashes (oracle)"),
            format!("h1 {h1}, h2 {h2}"),
            format!("h1 {}, h2 {}", json(&last.get("h1")), json(&last.get("h2"))),
        ));
    }
    let want = positions(before, units);
    let rows = last.get("positions").and_then(Value::as_array);
    let rows_ok = rows.is_some_and(|rows| {
        rows.len() == want.len()
            && rows.iter().zip(&want).enumerate().all(|(i, (row, &p))| {
                let first = !want[..i].contains(&p);
                let was = before.bits.get(p).copied().unwrap_or(false);
                let after = if kind == "insert" { true } else { was };
                row.get("position").and_then(int) == Some(p as u64)
                    && row.get("after").and_then(Value::as_bool) == Some(after)
                    && (!first || row.get("before").and_then(Value::as_bool) == Some(was))
            })
    });
    if !rows_ok {
        return Err(broken(
            format!(
                "{what}: each of its k positions in order (oracle), with the bit before (first occurrence) and after"
            ),
            json(&want),
            json(&last.get("positions")),
        ));
    }
    let display = last.get("display").and_then(Value::as_str);
    if display.and_then(displayed).as_deref() != Some(units) {
        return Err(broken(
            format!(
                "{what}: the string shown in JSON quotes and escapes (no raw control character)"
            ),
            shown(units),
            json(&display),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bloomproof_wire::protocols::fnv1a_utf16_v1::SaveAnswer;
    use bloomproof_wire::protocols::fnv1a_utf16_v1::session::DraftField;

    /// The reference model's whole answer to `ops`.
    fn answered(ops: &[ScriptOp]) -> ScriptAnswer {
        let mut session = bloomproof_session::Session::new();
        let initial = serde_json::to_value(session.view()).unwrap();
        let steps = ops
            .iter()
            .map(|op| RustFnv::step(&mut session, op).unwrap())
            .collect();
        ScriptAnswer { initial, steps }
    }

    fn text(value: &str) -> TextValue {
        TextValue::Text(value.to_string())
    }

    fn script() -> Vec<ScriptOp> {
        vec![
            ScriptOp::SetDraft {
                field: DraftField::M,
                value: "8".into(),
            },
            ScriptOp::SetDraft {
                field: DraftField::K,
                value: "1".into(),
            },
            ScriptOp::Create {},
            ScriptOp::Insert { value: text("a") },
            ScriptOp::Query { value: text("i") },
            ScriptOp::Insert { value: text("a") },
            ScriptOp::Query { value: text("b") },
            ScriptOp::Roundtrip {},
            ScriptOp::Reset {},
            ScriptOp::SetDraft {
                field: DraftField::M,
                value: "16".into(),
            },
            ScriptOp::Reset {},
        ]
    }

    /// The reference passes; each planted departure from the page is caught at its
    /// step; a reading the page leaves open (a reset with no filter accepted) is not.
    #[test]
    fn the_page_rules_catch_departures_from_the_page_alone() {
        let ops = script();
        let good = answered(&ops);
        assert_eq!(verdict(&ops, &good), None);
        let caught = |change: &dyn Fn(&mut ScriptAnswer), step: &str| {
            let mut got = good.clone();
            change(&mut got);
            let mismatch = verdict(&ops, &got).expect("a departure passes");
            assert!(mismatch.what.starts_with(step), "{}", mismatch.what);
        };
        // Each departure: the step, the place in its view (a JSON pointer), the value.
        let departures: [(usize, &str, serde_json::Value); 7] = [
            // A duplicate insertion that resets the counters.
            (5, "/counters/negative_queries", 0.into()),
            // The query of "i" (on the bit of "a") not counted as a false positive.
            (4, "/counters/false_positives", 0.into()),
            // A display form with a raw control character, or of another string.
            (3, "/last_operation/display", "\"b\"".into()),
            // The classic estimate replaced by the finite-m one (8, 1, 1: 0.125).
            (3, "/estimates/classic", 0.125.into()),
            // The rate not over negative queries.
            (6, "/rate/value", 1.0.into()),
            // history[0] not the last operation.
            (6, "/history/0/units", serde_json::json!([105])),
            // Reset that keeps the bits.
            (8, "/bits", "00001000".into()),
        ];
        for (step, place, value) in departures {
            let at = format!("step {step} ");
            caught(
                &|got| *got.steps[step].view.pointer_mut(place).expect("the place") = value.clone(),
                &at,
            );
        }
        // Another m that keeps the filter.
        caught(&|got| got.steps[9] = got.steps[8].clone(), "step 9 ");
        // A reset with no filter accepted rather than refused: the page does not say.
        let mut lenient = good.clone();
        lenient.steps[10].error = None;
        assert_eq!(verdict(&ops, &lenient), None);
    }

    /// A script with an import is judged whole: each step, and the import's filter
    /// against the one the document holds (as the reference, which accepts it, reads it).
    #[test]
    fn a_script_with_an_import_is_judged_at_every_step() {
        let mut ops = script()[..4].to_vec();
        ops.push(ScriptOp::Export {});
        let export = answered(&ops).steps[4].export.clone().expect("an export");
        ops.extend([
            ScriptOp::Insert { value: text("b") },
            ScriptOp::Query { value: text("c") },
            ScriptOp::ImportText { text: export },
            ScriptOp::Query { value: text("d") },
        ]);
        let good = answered(&ops);
        assert_eq!(verdict(&ops, &good), None);
        // The import accepted and the filter left as it was (holding "b" too).
        let mut kept = good.clone();
        kept.steps[7].view = good.steps[6].view.clone();
        let mismatch = verdict(&ops, &kept).expect("an import that keeps the filter passes");
        assert!(
            mismatch.what.starts_with("step 7 ")
                && mismatch
                    .what
                    .ends_with("an import the reference accepts too gives the document's entries"),
            "{}",
            mismatch.what
        );
        assert_eq!(mismatch.expected, "1 distinct entries");
        // A step after the import that departs from the page.
        let mut late = good.clone();
        *late.steps[8]
            .view
            .pointer_mut("/counters/negative_queries")
            .expect("the place") = 0.into();
        let mismatch = verdict(&ops, &late).expect("a departure after an import passes");
        assert!(mismatch.what.starts_with("step 8 "), "{}", mismatch.what);
    }

    /// `create` makes an empty filter, whose entries start empty again (a string
    /// inserted before is new to it); an accepted panel step leaves its panel as set.
    #[test]
    fn create_starts_empty_and_a_panel_is_as_set() {
        use bloomproof_wire::protocols::fnv1a_utf16_v1::session::Panel;
        let mut ops = script()[..4].to_vec();
        ops.extend([
            ScriptOp::Create {},
            ScriptOp::Insert { value: text("a") },
            ScriptOp::SetPanel {
                panel: Panel::Model,
                open: true,
            },
        ]);
        let good = answered(&ops);
        assert_eq!(verdict(&ops, &good), None);
        // The second create is a new, empty filter, and "a" a new entry of it.
        assert_eq!(good.steps[4].view["distinct_entries"], 0);
        assert_eq!(good.steps[5].view["distinct_entries"], 1);
        let departs = |step: usize, place: &str, value: Value| {
            let mut got = good.clone();
            *got.steps[step].view.pointer_mut(place).expect("the place") = value;
            let mismatch = verdict(&ops, &got).expect("a departure passes");
            assert!(
                mismatch.what.starts_with(&format!("step {step} ")),
                "{}",
                mismatch.what
            );
        };
        // A created filter with a bit set.
        departs(2, "/bits", "00000001".into());
        // The panel step accepted, the panel left closed.
        departs(6, "/panels/model", false.into());
        // Creating the filter it has may keep it (the page does not say): then "a" is a
        // duplicate, judged against the entries the kept filter holds. The answers of a
        // session whose second step there keeps the filter (a panel closed).
        let mut keeping = ops.clone();
        keeping[4] = ScriptOp::SetPanel {
            panel: Panel::Positions,
            open: false,
        };
        let kept = answered(&keeping);
        assert_eq!(kept.steps[5].view["distinct_entries"], 1);
        assert_eq!(verdict(&ops, &kept), None);
    }

    /// A local save of a state within the limit in every measure is saved whole: its
    /// outcome `saved`, every code unit stored, no warning. One over it in every measure
    /// is not saved, and comes back with a warning that says something.
    #[test]
    fn a_save_is_saved_whole_within_the_limit_and_warned_past_it() {
        let mut ops = script()[..4].to_vec();
        ops.extend([
            ScriptOp::SaveLocal {
                units: 100,
                fill: None,
            },
            ScriptOp::SaveLocal {
                units: 100_001,
                fill: None,
            },
        ]);
        let good = answered(&ops);
        assert_eq!(verdict(&ops, &good), None);
        /// A step and how its save answer departs.
        type Departure = (usize, fn(&mut SaveAnswer));
        let departures: [Departure; 6] = [
            (4, |save| save.warning = Some("not saved".into())),
            (4, |save| save.stored_units = 99),
            (4, |save| save.outcome = "kept".into()),
            (5, |save| save.warning = None),
            (5, |save| save.warning = Some(" ".into())),
            (5, |save| save.outcome = "saved".into()),
        ];
        for (step, depart) in departures {
            let mut got = good.clone();
            depart(got.steps[step].save.as_mut().expect("a save answer"));
            let mismatch = verdict(&ops, &got).expect("a departing save passes");
            assert!(
                mismatch.what.starts_with(&format!("step {step} ")),
                "{}",
                mismatch.what
            );
        }
    }

    /// Insertions past the page's entry bound may be refused part way (the page does not
    /// say all or nothing): the strings inserted before the refusal are then the
    /// implementation's, and a later insertion of one of them is its duplicate.
    #[test]
    fn insertions_refused_part_way_leave_their_entries_unjudged() {
        let mut ops = script()[..3].to_vec();
        ops.extend([
            ScriptOp::InsertMany {
                prefix: "s".into(),
                count: 1025,
            },
            ScriptOp::Insert { value: text("s0") },
        ]);
        let good = answered(&ops);
        assert!(
            good.steps[3].error.is_some(),
            "the reference refuses all 1025"
        );
        assert_eq!(verdict(&ops, &good), None);
        // The answers of an implementation that inserted the first 1024, then refused.
        let mut partial = ops.clone();
        partial[3] = ScriptOp::InsertMany {
            prefix: "s".into(),
            count: 1024,
        };
        let mut part_way = answered(&partial);
        part_way.steps[3].error = good.steps[3].error.clone();
        assert_eq!(part_way.steps[4].view["distinct_entries"], 1024);
        assert_eq!(verdict(&ops, &part_way), None);
    }

    /// Where the entries are not known (after insertions refused part way), a query's
    /// outcome is the one the implementation reports, as far as the bits allow: truly
    /// present or a false positive when all its bits are set, else definitely absent.
    #[test]
    fn unknown_entries_take_the_reported_outcome_the_bits_allow() {
        let opening = |count: u32| {
            vec![
                ScriptOp::SetDraft {
                    field: DraftField::M,
                    value: "1024".into(),
                },
                ScriptOp::Create {},
                ScriptOp::InsertMany {
                    prefix: "s".into(),
                    count,
                },
            ]
        };
        // Strings the 1024 entries' bits answer each way (m 1024 at the default k 3:
        // about 63 % of the bits set, a string's three all set about a quarter of the time).
        let probes: Vec<String> = (0..200).map(|i| format!("q{i}")).collect();
        let mut scan = opening(1024);
        scan.extend(probes.iter().map(|q| ScriptOp::Query { value: text(q) }));
        let scanned = answered(&scan);
        let outcome_of = |i: usize| scanned.steps[3 + i].view["last_operation"]["outcome"].clone();
        let fp = (0..200)
            .find(|&i| outcome_of(i) == "false_positive")
            .expect("a false positive");
        let absent = (0..200)
            .find(|&i| outcome_of(i) == "definitely_absent")
            .expect("an absent one");
        let queries = [
            ScriptOp::Query { value: text("s0") },
            ScriptOp::Query {
                value: text(&probes[fp]),
            },
            ScriptOp::Query {
                value: text(&probes[absent]),
            },
        ];
        let mut ops = opening(1025);
        ops.extend(queries.clone());
        let mut partial = opening(1024);
        partial.extend(queries);
        // The answers of an implementation that inserted the first 1024, then refused.
        let mut part_way = answered(&partial);
        part_way.steps[2].error = answered(&ops).steps[2].error.clone();
        assert!(part_way.steps[2].error.is_some());
        assert_eq!(verdict(&ops, &part_way), None);
        // The absent string reported truly present, nothing counted: its bits say no.
        let mut claimed = part_way.clone();
        let before = claimed.steps[4].view.clone();
        let view = &mut claimed.steps[5].view;
        for place in ["/counters", "/rate"] {
            *view.pointer_mut(place).expect("the place") = before[&place[1..]].clone();
        }
        for place in ["/last_operation/outcome", "/history/0/outcome"] {
            *view.pointer_mut(place).expect("the place") = "truly_present".into();
        }
        let mismatch =
            verdict(&ops, &claimed).expect("a truly present claim against the bits passes");
        assert!(mismatch.what.starts_with("step 5 "), "{}", mismatch.what);
    }

    /// An insertion or query with no active filter makes none; an import of the
    /// session's own export gives it back; a view's filter keeps the page's bounds.
    #[test]
    fn no_filter_roundtrip_and_bounds_are_judged() {
        let mut ops = vec![ScriptOp::Insert { value: text("a") }];
        ops.extend(script());
        let good = answered(&ops);
        assert!(good.steps[0].error.is_some());
        assert_eq!(verdict(&ops, &good), None);
        let departs = |step: usize, change: &dyn Fn(&mut Value), says: &str| {
            let mut got = good.clone();
            change(&mut got.steps[step].view);
            let mismatch = verdict(&ops, &got).expect("a departure passes");
            assert!(
                mismatch.what.starts_with(&format!("step {step} ")) && mismatch.what.contains(says),
                "{}",
                mismatch.what
            );
        };
        // The insertion with no filter answered with one (the view of a created one).
        let created = good.steps[3].view.clone();
        let mut refused = good.clone();
        refused.steps[0].error = None;
        refused.steps[0].view = created;
        let mismatch = verdict(&ops, &refused).expect("a filter made by an insertion passes");
        assert!(
            mismatch.what.starts_with("step 0 ") && mismatch.what.contains("makes none"),
            "{}",
            mismatch.what
        );
        // The round trip (step 8) losing the last operation, or a draft.
        departs(
            8,
            &|view| view["last_operation"] = Value::Null,
            "gives back the last operation",
        );
        departs(
            8,
            &|view| view["drafts"]["insert"] = "x".into(),
            "gives back the drafts",
        );
        // A filter of k 13 (its m bits as they were).
        departs(
            5,
            &|view| view["params"]["k"] = 13.into(),
            "a filter has m 8..=1024 and k 1..=12",
        );
        // More false positives than negative queries (the query of "i": 1 of each).
        departs(
            5,
            &|view| view["counters"]["false_positives"] = 2.into(),
            "no more false positives than negative queries",
        );
        // The last operation's second base hash, or its position, not the oracle's.
        departs(
            5,
            &|view| view["last_operation"]["h2"] = 0.into(),
            "its two base hashes",
        );
        departs(
            5,
            &|view| view["last_operation"]["positions"][0]["position"] = 5.into(),
            "each of its k positions in order",
        );
    }

    /// Each row of the last operation's positions is judged: its position and the bit
    /// after, and the bit before at the position's first occurrence; at a repeat the bit
    /// before is the implementation's to report (set by the earlier occurrence, or not).
    #[test]
    fn a_positions_row_is_judged_before_only_at_its_first_occurrence() {
        let ops = vec![
            ScriptOp::SetDraft {
                field: DraftField::M,
                value: "8".into(),
            },
            ScriptOp::SetDraft {
                field: DraftField::K,
                value: "12".into(),
            },
            ScriptOp::Create {},
            ScriptOp::Insert { value: text("a") },
        ];
        let good = answered(&ops);
        assert_eq!(verdict(&ops, &good), None);
        let rows = good.steps[3].view["last_operation"]["positions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(rows.len(), 12);
        // Twelve positions among 8 bits: some repeat.
        let repeat = (1..rows.len())
            .find(|&i| {
                rows[..i]
                    .iter()
                    .any(|r| r["position"] == rows[i]["position"])
            })
            .expect("a repeated position");
        let with_row = |i: usize, field: &str, value: Value| {
            let mut got = good.clone();
            got.steps[3].view["last_operation"]["positions"][i][field] = value;
            got
        };
        for (field, value) in [("after", false), ("before", true)] {
            let mismatch = verdict(&ops, &with_row(0, field, value.into()))
                .unwrap_or_else(|| panic!("a first row's {field} {value} passes"));
            assert!(
                mismatch.what.contains("each of its k positions in order"),
                "{}",
                mismatch.what
            );
        }
        let before = rows[repeat]["before"].as_bool().unwrap_or(false);
        assert_eq!(
            verdict(&ops, &with_row(repeat, "before", (!before).into())),
            None
        );
    }

    /// A mismatch shows what it is about: the string of the step (in JSON quotes), and a
    /// filter whole (m, k, its bits as 0s and 1s, the distinct count and the counters).
    #[test]
    fn a_mismatch_shows_its_string_and_filters() {
        use bloomproof_wire::protocols::fnv1a_utf16_v1::StepError;
        let ops = script();
        let good = answered(&ops);
        let refused = StepError {
            kind: "invalid_input".into(),
            message: "no".into(),
        };
        let judged = |step: usize, view_of: usize| {
            let mut got = good.clone();
            got.steps[step].error = Some(refused.clone());
            got.steps[step].view = good.steps[view_of].view.clone();
            verdict(&ops, &got).expect("a refused step passes")
        };
        // The insertion of "a" refused, its filter kept: the string is named.
        let mismatch = judged(3, 2);
        assert_eq!(
            mismatch.what,
            "step 3 (insert): accepted: the insertion of \"a\""
        );
        // Refused, its filter changed all the same: both filters shown whole ("a" sets
        // bit 4 of 8 at k 1; "i" falls on it, a false positive).
        let mismatch = judged(3, 3);
        assert_eq!(
            (
                mismatch.what.as_str(),
                mismatch.expected.as_str(),
                mismatch.actual.as_str()
            ),
            (
                "step 3 (insert): a rejected step keeps the filter",
                "m 8, k 1, bits 00000000, 0 distinct, counters 0/0 (negative/false positives)",
                "m 8, k 1, bits 00001000, 1 distinct, counters 0/0 (negative/false positives)"
            )
        );
        let mismatch = judged(4, 4);
        assert_eq!(
            mismatch.actual,
            "m 8, k 1, bits 00001000, 1 distinct, counters 1/1 (negative/false positives)"
        );
    }

    /// The page accepts an import of up to 2 MiB: an export padded to exactly 2 MiB and
    /// refused is a departure (the refusal the reference gives one byte past it).
    #[test]
    fn an_import_of_2_mib_refused_departs_from_the_page() {
        let padded = |bytes: usize| {
            let mut ops = script()[..3].to_vec();
            ops.push(ScriptOp::ImportPadded { bytes });
            ops
        };
        let at = padded(2 * 1024 * 1024);
        let good = answered(&at);
        assert_eq!(verdict(&at, &good), None);
        let past = answered(&padded(2 * 1024 * 1024 + 1));
        assert!(past.steps[3].error.is_some(), "{:?}", past.steps[3]);
        let mut refused = good.clone();
        refused.steps[3] = past.steps[3].clone();
        let mismatch = verdict(&at, &refused).expect("a refusal at 2 MiB passes");
        assert!(mismatch.what.starts_with("step 3 "), "{}", mismatch.what);
    }

    /// Figures agree within 1e-9 relative, and no further; a count may be written as an
    /// integral float below 2^64, never as a fraction, a negative or beyond.
    #[test]
    fn figures_are_close_within_1e_9_and_counts_integral() {
        assert!(close(0.0, 0.0) && close(0.25, 0.25));
        assert!(close(1.0, 1.0 + 5e-10) && close(1e-20, 1e-20 * (1.0 + 5e-10)));
        assert!(!close(1.0, 1.0 + 2e-9) && !close(1e-20, 1e-20 * (1.0 + 2e-9)));
        assert!(!close(0.0, 1e-12));
        assert_eq!(int(&serde_json::json!(8)), Some(8));
        assert_eq!(int(&serde_json::json!(8.0)), Some(8));
        assert_eq!(int(&serde_json::json!(0.0)), Some(0));
        assert_eq!(
            int(&serde_json::json!(1.0e19)),
            Some(10_000_000_000_000_000_000)
        );
        for not in [
            serde_json::json!(8.5),
            serde_json::json!(-1.0),
            serde_json::json!(1.9e19),
        ] {
            assert_eq!(int(&not), None, "{not}");
        }
    }

    #[test]
    fn plain_decimal_is_digits_without_a_leading_zero() {
        assert_eq!(plain_decimal("8"), Some(8));
        assert_eq!(plain_decimal("0"), Some(0));
        assert_eq!(plain_decimal("1024"), Some(1024));
        assert_eq!(plain_decimal("99999999999999999999999"), Some(u64::MAX));
        for text in ["", "08", " 8", "8 ", "+8", "8.0", "8e0", "-8", "\u{FF18}"] {
            assert_eq!(plain_decimal(text), None, "{text:?}");
        }
    }

    #[test]
    fn a_display_form_is_a_json_string_of_the_units() {
        assert_eq!(displayed("\"a b\\n\""), Some(vec![97, 32, 98, 10]));
        assert_eq!(displayed("\"\\ud800\""), Some(vec![0xD800]));
        assert_eq!(displayed("\"\\u00e9\""), Some(vec![0xE9]));
        assert_eq!(displayed("\"é😀\""), Some(vec![0xE9, 0xD83D, 0xDE00]));
        assert_eq!(displayed("\"\\/\""), Some(vec![0x2F]));
        // Not a JSON string, or a raw control character, or an unescaped quote.
        for bad in [
            "a",
            "\"a",
            "\"\n\"",
            "\"a\"b\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u+123\"",
        ] {
            assert_eq!(displayed(bad), None, "{bad:?}");
        }
    }
}
