//! Generated session scripts of `fnv1a-utf16-v1`: random steps over every operation
//! of `SESSION.md` (drafts that nearly denote a parameter, create, insert, query, the
//! a..h example at any fill level up to the entry cap, reset, panels, export, imports
//! of the session's own export whole and damaged, padded imports at the size limit,
//! local saves at their limit, roundtrips), every step's answer compared with the
//! reference session model (`crates/session`): the view, the error kind, the save
//! answer and the export text, byte for byte.

use super::super::checks::partial_match;
use crate::generated::{Mismatch, size};
use crate::model::{GeneratedInput, ScriptOp, TextValue};
use crate::subject::{FnvCall, FnvReply, FnvSubject, RustFnv, ScriptAnswer, StepAnswer};
use crate::verdict::json;
use bloomproof_session::{IMPORT_MAX_BYTES, LOCAL_SAVE_MAX_UNITS, Session};
use bloomproof_wire::session::{DraftField, Panel};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;

/// How an export is damaged before it is imported again.
#[derive(Clone, Copy, Debug)]
enum Damage {
    /// Imported as exported.
    None,
    /// Cut short at a byte (at a character boundary).
    Cut(Index),
    /// One ASCII byte replaced by another.
    Poke(Index, u8),
    /// Trailing text after the document.
    Append,
}

/// One abstract step; [`materialise`] turns it into a script op, using the
/// reference session where the step depends on the state (an export).
#[derive(Clone, Debug)]
enum Step {
    Draft(DraftField, String),
    Create,
    Insert(TextValue),
    Query(TextValue),
    Example,
    Many(u32),
    Reset,
    Panel(Panel, bool),
    Export,
    Roundtrip,
    ImportExport(Damage),
    /// `import_padded` to the import limit minus 2, ..., plus 2 bytes.
    Padded(u32),
    SaveLocal(usize),
}

/// A parameter value that is, or nearly is, one a session uses.
fn number() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(8u32),
        Just(64),
        Just(1),
        Just(3),
        Just(12),
        Just(1024),
        0u32..=1100,
    ]
}

/// Text that denotes `n`, or nearly does.
fn draft_number() -> impl Strategy<Value = String> {
    (number(), 0u8..14).prop_map(|(n, form)| match form {
        0..=3 => n.to_string(),
        4 => format!(" {n}"),
        5 => format!("{n} "),
        6 => format!("0{n}"),
        7 => format!("+{n}"),
        8 => format!("{n}.0"),
        9 => format!("{n}e0"),
        10 => format!("-{n}"),
        11 => String::new(),
        12 => n
            .to_string()
            .chars()
            .map(|c| char::from_u32(u32::from(c) - u32::from('0') + 0xFF10).unwrap_or(c))
            .collect(),
        _ => format!("{n}\n"),
    })
}

/// A string to insert or query: often one of a few (so that queries hit entries and
/// insertions repeat), else random code units of every class, the length limits, or
/// nothing.
fn text() -> impl Strategy<Value = TextValue> {
    const POOL: [&str; 12] = [
        "a", "b", "c", "h", "i", "é", "e\u{301}", "A", " a", "ü", "日本", "😀",
    ];
    prop_oneof![
        6 => proptest::sample::select(POOL.as_slice())
            .prop_map(|s| TextValue::Text(s.to_string())),
        3 => super::units([1, 8]).prop_map(TextValue::Units),
        1 => prop_oneof![Just(256usize), Just(257)].prop_map(|n| TextValue::Text("é".repeat(n))),
        1 => Just(TextValue::Text(String::new())),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    let field = prop_oneof![Just(DraftField::M), Just(DraftField::K)];
    let text_field = prop_oneof![Just(DraftField::Insert), Just(DraftField::Query)];
    let panel = prop_oneof![Just(Panel::Positions), Just(Panel::Model)];
    let damage = prop_oneof![
        2 => Just(Damage::None),
        2 => any::<Index>().prop_map(Damage::Cut),
        2 => (any::<Index>(), 0x20u8..0x7f).prop_map(|(at, byte)| Damage::Poke(at, byte)),
        1 => Just(Damage::Append),
    ];
    prop_oneof![
        4 => (field, draft_number()).prop_map(|(f, t)| Step::Draft(f, t)),
        1 => (text_field, prop_oneof![
            Just("é".repeat(1024)),
            Just("é".repeat(1025)),
            "[a-zé]{0,4}",
        ])
        .prop_map(|(f, t)| Step::Draft(f, t)),
        2 => Just(Step::Create),
        6 => text().prop_map(Step::Insert),
        4 => text().prop_map(Step::Query),
        2 => Just(Step::Example),
        2 => prop_oneof![3 => 0u32..=12, 1 => 1010u32..=1024].prop_map(Step::Many),
        1 => Just(Step::Reset),
        1 => (panel, any::<bool>()).prop_map(|(p, o)| Step::Panel(p, o)),
        1 => Just(Step::Export),
        1 => Just(Step::Roundtrip),
        2 => damage.prop_map(Step::ImportExport),
        1 => (0u32..=4).prop_map(Step::Padded),
        1 => prop_oneof![0usize..=4, (LOCAL_SAVE_MAX_UNITS - 2)..=(LOCAL_SAVE_MAX_UNITS + 2)]
            .prop_map(Step::SaveLocal),
    ]
}

/// A script: usually opened with drafts of m and k and a `create`, then random steps.
#[derive(Clone, Debug)]
pub(super) struct Script {
    steps: Vec<Step>,
}

pub(super) fn scripts(input: &GeneratedInput) -> impl Strategy<Value = Script> + use<> {
    let steps = input.steps.unwrap_or([1, 16]);
    let (m, k) = (input.m, input.k);
    let opening = prop_oneof![
        3 => (prop_oneof![Just(8u32), Just(64), m[0]..=m[1]], prop_oneof![Just(1u32), Just(3), k[0]..=k[1]])
            .prop_map(|(m, k)| vec![
                Step::Draft(DraftField::M, m.to_string()),
                Step::Draft(DraftField::K, k.to_string()),
                Step::Create,
            ]),
        1 => Just(Vec::new()),
    ];
    let max = steps[1] as usize;
    (opening, proptest::collection::vec(step(), size(steps))).prop_map(move |(mut open, rest)| {
        open.extend(rest);
        open.truncate(max);
        Script { steps: open }
    })
}

/// The concrete script of `script`, with the reference model's answers to it.
fn materialise(script: &Script) -> (Vec<ScriptOp>, Value, Vec<Result<StepAnswer, String>>) {
    let mut session = Session::new();
    let initial = serde_json::to_value(session.view()).unwrap_or(Value::Null);
    let mut ops = Vec::new();
    let mut answers = Vec::new();
    for step in &script.steps {
        let op = match step {
            Step::Draft(field, value) => ScriptOp::SetDraft {
                field: *field,
                value: value.clone(),
            },
            Step::Create => ScriptOp::Create {},
            Step::Insert(value) => ScriptOp::Insert {
                value: value.clone(),
            },
            Step::Query(value) => ScriptOp::Query {
                value: value.clone(),
            },
            Step::Example => ScriptOp::InsertExample {},
            Step::Many(count) => ScriptOp::InsertMany {
                prefix: "ü-".to_string(),
                count: *count,
            },
            Step::Reset => ScriptOp::Reset {},
            Step::Panel(panel, open) => ScriptOp::SetPanel {
                panel: *panel,
                open: *open,
            },
            Step::Export => ScriptOp::Export {},
            Step::Roundtrip => ScriptOp::Roundtrip {},
            Step::ImportExport(damage) => ScriptOp::ImportText {
                text: damaged(&session.export(), *damage),
            },
            Step::Padded(extra) => ScriptOp::ImportPadded {
                bytes: (IMPORT_MAX_BYTES - 2 + *extra as usize).max(session.export().len()),
            },
            Step::SaveLocal(units) => ScriptOp::SaveLocal { units: *units },
        };
        answers.push(RustFnv::step(&mut session, &op).map_err(|err| err.to_string()));
        ops.push(op);
    }
    (ops, initial, answers)
}

fn damaged(export: &str, damage: Damage) -> String {
    match damage {
        Damage::None => export.to_string(),
        Damage::Cut(at) => {
            let mut cut = at.index(export.len().max(1));
            while !export.is_char_boundary(cut) {
                cut -= 1;
            }
            export[..cut].to_string()
        }
        Damage::Poke(at, byte) => {
            let mut bytes = export.as_bytes().to_vec();
            let at = at.index(bytes.len().max(1));
            if bytes.get(at).is_some_and(u8::is_ascii) {
                bytes[at] = byte;
            }
            String::from_utf8(bytes).unwrap_or_else(|_| export.to_string())
        }
        Damage::Append => format!("{export} x"),
    }
}

pub(super) fn show(script: &Script) -> Value {
    let (ops, _, _) = materialise(script);
    let shown: Vec<Value> = ops.iter().map(shown_op).collect();
    serde_json::json!({ "script": shown })
}

/// One op of a shown script: an import over 400 bytes as its size and first 120
/// characters, a draft over 80 bytes as its length in code units and first 4
/// characters, any other op whole.
fn shown_op(op: &ScriptOp) -> Value {
    match op {
        ScriptOp::ImportText { text } if text.len() > 400 => serde_json::json!({
            "op": "import_text",
            "text": format!(
                "({} bytes: {}…)",
                text.len(),
                text.chars().take(120).collect::<String>()
            ),
        }),
        ScriptOp::SetDraft { field, value } if value.len() > 80 => serde_json::json!({
            "op": "set_draft",
            "field": field,
            "value": format!("({} code units of {:?}…)", value.encode_utf16().count(),
                value.chars().take(4).collect::<String>()),
        }),
        other => serde_json::to_value(other).unwrap_or(Value::Null),
    }
}

pub(super) fn judge(subject: &mut dyn FnvSubject, values: &[Script]) -> Vec<Option<Mismatch>> {
    let materialised: Vec<_> = values
        .iter()
        .map(|script| {
            crate::generated::memo::get_or(
                "fnv_session",
                || format!("{script:?}"),
                || materialise(script),
            )
        })
        .collect();
    let calls: Vec<FnvCall> = materialised
        .iter()
        .map(|materialised| FnvCall::Session {
            script: materialised.0.clone(),
        })
        .collect();
    subject
        .batch(&calls)
        .into_iter()
        .zip(&materialised)
        .map(|(answer, materialised)| match answer {
            Ok(FnvReply::Script(got)) => {
                let (ops, initial, want) = &**materialised;
                verdict(ops, initial, want, &got)
            }
            Ok(other) => Some(Mismatch::new(
                "session",
                "a script answer",
                format!("{other:?}"),
            )),
            Err(err) => Some(Mismatch::new("session", "an answer", err.to_string())),
        })
        .collect()
}

/// The first difference between two views, both ways (every key of each in the
/// other, numbers within 1e-9 relative).
fn view_difference(want: &Value, got: &Value) -> Option<String> {
    partial_match(want, got, "view")
        .and_then(|()| partial_match(got, want, "view").map_err(|e| format!("{e} (an extra key)")))
        .err()
}

fn verdict(
    ops: &[ScriptOp],
    initial: &Value,
    want: &[Result<StepAnswer, String>],
    got: &ScriptAnswer,
) -> Option<Mismatch> {
    if let Some(difference) = view_difference(initial, &got.initial) {
        return Some(Mismatch::new(
            format!("the initial view equals the reference's: {difference}"),
            json(initial),
            json(&got.initial),
        ));
    }
    if got.steps.len() != want.len() {
        return Some(Mismatch::new(
            "one answer per step",
            want.len().to_string(),
            got.steps.len().to_string(),
        ));
    }
    for (index, ((op, want), got)) in ops.iter().zip(want).zip(&got.steps).enumerate() {
        let name = serde_json::to_value(op)
            .ok()
            .and_then(|v| v.get("op").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_default();
        let at = format!("step {index} ({name})");
        let want = match want {
            Ok(want) => want,
            Err(err) => {
                return Some(Mismatch::new(
                    format!("{at}: the reference answers"),
                    "an answer",
                    err.clone(),
                ));
            }
        };
        let kind = |answer: &StepAnswer| answer.error.as_ref().map(|e| e.kind.clone());
        if kind(want) != kind(got) {
            return Some(Mismatch::new(
                format!("{at}: the error kind equals the reference's"),
                json(&kind(want)),
                json(&got.error),
            ));
        }
        if let Some(difference) = view_difference(&want.view, &got.view) {
            return Some(Mismatch::new(
                format!("{at}: the view equals the reference's: {difference}"),
                json(&want.view),
                json(&got.view),
            ));
        }
        let save = |answer: &StepAnswer| {
            answer
                .save
                .as_ref()
                .map(|s| (s.outcome.clone(), s.stored_units, s.warning.is_some()))
        };
        if save(want) != save(got) {
            return Some(Mismatch::new(
                format!(
                    "{at}: the save answer (outcome, stored_units, a warning) equals the reference's"
                ),
                json(&save(want)),
                json(&save(got)),
            ));
        }
        if want.export != got.export {
            let (w, g) = (
                want.export.as_deref().unwrap_or_default(),
                got.export.as_deref().unwrap_or_default(),
            );
            let byte = w
                .bytes()
                .zip(g.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(w.len().min(g.len()));
            return Some(Mismatch::new(
                format!(
                    "{at}: the export text equals the reference's byte for byte (first difference at byte {byte})"
                ),
                json(
                    &want
                        .export
                        .as_deref()
                        .map(|t| t.get(byte.saturating_sub(40)..).unwrap_or(t)),
                ),
                json(
                    &got.export
                        .as_deref()
                        .map(|t| t.get(byte.saturating_sub(40)..).unwrap_or(t)),
                ),
            ));
        }
    }
    None
}

/// Shorter scripts: a prefix, or one step fewer.
pub(super) fn reduce(script: &Script) -> Vec<Script> {
    crate::generated::shorter(&script.steps)
        .into_iter()
        .filter(|steps| !steps.is_empty())
        .map(|steps| Script { steps })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// The drafts drawn for m and k reach every form a user may type: the number, with
    /// spaces, a leading zero or plus, as a float or exponent, negative, empty, in
    /// full-width digits, with a newline. A form the draws never reach is a class of
    /// parsing bugs the generated sessions cannot find.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn draft_numbers_reach_every_form() {
        let mut runner = TestRunner::deterministic();
        let strategy = draft_number();
        let drawn: Vec<String> = (0..4000)
            .map(|_| strategy.new_tree(&mut runner).unwrap().current())
            .collect();
        /// A form's name and whether a draft has it.
        type Form = (&'static str, fn(&str) -> bool);
        let forms: [Form; 11] = [
            ("digits", |d| {
                (d == "0" || !d.starts_with('0'))
                    && !d.is_empty()
                    && d.bytes().all(|b| b.is_ascii_digit())
            }),
            ("leading space", |d| d.starts_with(' ')),
            ("trailing space", |d| d.ends_with(' ')),
            ("leading zero", |d| d.len() > 1 && d.starts_with('0')),
            ("plus", |d| d.starts_with('+')),
            ("float", |d| d.ends_with(".0")),
            ("exponent", |d| d.ends_with("e0")),
            ("negative", |d| d.starts_with('-')),
            ("empty", str::is_empty),
            ("full-width", |d| {
                !d.is_empty() && d.chars().all(|c| ('\u{FF10}'..='\u{FF19}').contains(&c))
            }),
            ("newline", |d| d.ends_with('\n')),
        ];
        for (form, is) in forms {
            assert!(drawn.iter().any(|d| is(d)), "no draft of the form {form}");
        }
        // Full-width digits are the number's own digits, shifted to U+FF10..=U+FF19.
        let full_width: Vec<&String> = drawn
            .iter()
            .filter(|d| d.chars().next().is_some_and(|c| c >= '\u{FF10}'))
            .collect();
        assert!(
            full_width.iter().any(|d| d.as_str() == "\u{FF18}"),
            "{full_width:?}"
        );
        for d in full_width {
            let digits: String = d
                .chars()
                .map(|c| char::from_u32(u32::from(c) - 0xFF10 + u32::from('0')).unwrap())
                .collect();
            assert!(digits.parse::<u32>().is_ok(), "{d:?}");
        }
    }

    /// An export is imported again as drawn: whole; cut at the last character boundary
    /// at or before the drawn byte; with the drawn ASCII byte written over an ASCII
    /// byte; with text after it. Cuts land inside a character too, so the walk back to
    /// a boundary runs.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn exports_are_damaged_as_drawn() {
        let export = "{\"é\": \"aé€\"}".repeat(20);
        assert_eq!(damaged(&export, Damage::None), export);
        assert_eq!(damaged(&export, Damage::Append), format!("{export} x"));
        let mut runner = TestRunner::deterministic();
        let (mut inside, mut poked) = (0, 0);
        for _ in 0..400 {
            let at = any::<Index>().new_tree(&mut runner).unwrap().current();
            let byte = (0x20u8..0x7f).new_tree(&mut runner).unwrap().current();
            let drawn = at.index(export.len());
            let boundary = (0..=drawn).rev().find(|&i| export.is_char_boundary(i));
            if boundary != Some(drawn) {
                inside += 1;
            }
            assert_eq!(
                damaged(&export, Damage::Cut(at)),
                export[..boundary.unwrap()],
                "cut at {drawn}"
            );
            let got = damaged(&export, Damage::Poke(at, byte));
            let mut want = export.clone().into_bytes();
            if want[drawn].is_ascii() {
                want[drawn] = byte;
                poked += usize::from(export.as_bytes()[drawn] != byte);
            }
            assert_eq!(got.as_bytes(), want.as_slice(), "poke {byte} at {drawn}");
        }
        assert!(
            inside > 0 && poked > 0,
            "{inside} cuts inside a character, {poked} pokes"
        );
    }

    /// A failing script is shown with its long texts abbreviated: an import over 400
    /// bytes as its size and first 120 characters, a draft over 80 bytes as its length
    /// in code units and first 4 characters; those at the limits whole.
    #[test]
    fn long_texts_are_abbreviated_when_shown() {
        let draft = |value: String| ScriptOp::SetDraft {
            field: DraftField::Insert,
            value,
        };
        let import = |text: String| ScriptOp::ImportText { text };
        for op in [
            draft("é".repeat(40)),
            import(format!("é{}", "a".repeat(398))),
        ] {
            assert_eq!(shown_op(&op), serde_json::to_value(&op).unwrap_or_default());
        }
        assert_eq!(
            shown_op(&draft(format!("{}a", "é".repeat(40))))["value"],
            format!("(41 code units of {:?}…)", "éééé")
        );
        let long = format!("é{}", "a".repeat(399));
        assert_eq!(
            shown_op(&import(long.clone()))["text"],
            format!("(401 bytes: {}…)", &long[..121])
        );
        // `show` shows every op of the materialised script so.
        let script = Script {
            steps: vec![
                Step::Draft(DraftField::M, "8".into()),
                Step::Draft(DraftField::Query, "é".repeat(41)),
            ],
        };
        let (ops, _, _) = materialise(&script);
        let want: Vec<Value> = ops.iter().map(shown_op).collect();
        assert_eq!(show(&script), serde_json::json!({ "script": want }));
        assert_eq!(want[0]["value"], "8");
        assert_eq!(
            want[1]["value"],
            format!("(41 code units of {:?}…)", "éééé")
        );
    }

    /// A differing export is named by its first differing byte, and shown from 40 bytes
    /// before it.
    #[test]
    fn an_export_difference_names_its_first_byte() {
        let script = Script {
            steps: vec![
                Step::Draft(DraftField::M, "8".into()),
                Step::Draft(DraftField::K, "1".into()),
                Step::Create,
                Step::Export,
            ],
        };
        let (ops, initial, want) = materialise(&script);
        let answers: Vec<StepAnswer> = want.iter().flatten().cloned().collect();
        let mut got = ScriptAnswer {
            initial: initial.clone(),
            steps: answers,
        };
        assert!(verdict(&ops, &initial, &want, &got).is_none());
        let export = got.steps[3].export.clone().unwrap_or_default();
        assert!(export.len() > 100, "{export}");
        let mut damaged = export.clone().into_bytes();
        damaged[100] = if damaged[100] == b'x' { b'y' } else { b'x' };
        got.steps[3].export = Some(String::from_utf8(damaged).unwrap_or_default());
        let Some(mismatch) = verdict(&ops, &initial, &want, &got) else {
            panic!("a damaged export passes");
        };
        assert!(
            mismatch.what.ends_with("(first difference at byte 100)"),
            "{}",
            mismatch.what
        );
        assert_eq!(mismatch.expected, json(&&export[60..]));
    }

    /// A failing script shrinks to its non-empty prefixes, then to itself without one
    /// step.
    #[test]
    fn scripts_shrink_to_prefixes_and_one_step_fewer() {
        let steps = || vec![Step::Create, Step::Export, Step::Reset];
        let reduced: Vec<usize> = reduce(&Script { steps: steps() })
            .iter()
            .map(|script| script.steps.len())
            .collect();
        assert_eq!(reduced, [1, 2, 2, 2, 2]);
        assert!(
            reduce(&Script {
                steps: vec![Step::Create]
            })
            .is_empty()
        );
    }

    /// A padded import is sent at the import limit minus 2 up to plus 2 bytes, so both
    /// sides of the limit are drawn.
    #[test]
    fn padded_imports_straddle_the_limit() {
        for extra in 0..=4u32 {
            let (ops, _, answers) = materialise(&Script {
                steps: vec![Step::Padded(extra)],
            });
            let want = IMPORT_MAX_BYTES - 2 + extra as usize;
            assert!(
                matches!(ops.as_slice(), [ScriptOp::ImportPadded { bytes }] if *bytes == want),
                "{extra}: {ops:?}"
            );
            let refused = matches!(&answers[0], Ok(answer) if answer.error.is_some());
            assert_eq!(refused, want > IMPORT_MAX_BYTES, "{extra}: {answers:?}");
        }
    }
}
