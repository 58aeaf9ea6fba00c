//! Generated session scripts of `fnv1a-utf16-v1`: random steps over every operation
//! of `SESSION.md` (drafts that nearly denote a parameter, create, insert, query, the
//! a..h example at any fill level up to the entry cap, reset, panels, export, imports
//! of the session's own export whole and damaged, padded imports at the size limit,
//! local saves at their limit, roundtrips, imports of an export made earlier), every
//! step's answer compared with the reference session model (`crates/session`): the
//! view, the error kind, the save answer and the export text, byte for byte. Besides
//! scripts drawn from the whole domain, a run holds scripts of every group of strings
//! a lossy form or a count in another unit would confuse (`text.rs`), of the
//! operations that copy or keep state interleaved with further changes, and of the
//! import strata ([`strata`], [`stratum`]): a state (no filter yet, an active empty
//! filter, one with entries, one full at the distinct limit, one a parameter change
//! discarded), then an import of every near-miss of [`super::spelling`] (each refused,
//! the state unchanged), a valid re-spelling of the session's own export and of another
//! export whose texts hold every class of character (each accepted as its canonical
//! text is).

use super::super::checks::partial_match;
use super::spelling::{NearMiss, respell};
use crate::generated::{Mismatch, size, span};
use crate::model::GeneratedInput;
use crate::verdict::json;
use bloomproof_adapter::protocols::fnv1a_utf16_v1::{FnvCall, FnvReply, FnvSubject, RustFnv};
use bloomproof_session::{IMPORT_MAX_BYTES, LOCAL_SAVE_MAX_UNITS, Session};
use bloomproof_wire::protocols::fnv1a_utf16_v1::session::{DraftField, Panel};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{ScriptAnswer, StepAnswer};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{ScriptOp, TextValue};
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
    /// `import_text` of an export this script made earlier (its model's text: the
    /// first with `None`, else a drawn one), or of the current export when none was
    /// made yet: what was exported stays what it was, whatever the session did since.
    ImportEarlier(Option<Index>),
    /// `import_padded` to the import limit minus 2, ..., plus 2 bytes.
    Padded(u32),
    /// `import_padded` to exactly this many bytes (an edge of the table of bounds).
    PaddedTo(usize),
    SaveLocal(usize),
    /// `save_local` of a state of that many code units made of this fill (adapter
    /// protocol 3).
    SaveFill(usize, String),
    /// `import_text` of an export re-spelled as the seed draws ([`respell`]).
    ImportSpelled(Source, u64),
    /// `import_text` of an export re-spelled with a near-miss at the drawn place.
    ImportNearMiss(Source, NearMiss, u64, usize),
}

/// Which export a re-spelled import re-spells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// The session's own export at that step.
    Own,
    /// The export of [`other_session`]: a session whose entries, drafts and history
    /// hold every class of character a string escape touches.
    Other,
}

/// The state an import stratum's script puts the session in before its imports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    /// Drafts only: no filter yet.
    NoFilter,
    /// An active filter, empty.
    Empty,
    /// An active filter with entries (the a..h example, a query, texts that need
    /// escapes, a lone surrogate).
    Entries,
    /// An active filter at the distinct limit (1024 entries, a full history).
    Full,
    /// A filter created, filled, then discarded by a change of the m draft.
    Discarded,
}

impl State {
    pub(super) const ALL: [State; 5] = [
        State::NoFilter,
        State::Empty,
        State::Entries,
        State::Full,
        State::Discarded,
    ];
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
        2 => proptest::sample::select(super::text::groups()).prop_flat_map(super::text::one_of),
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
            super::text::draft(),
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
        1 => any::<Option<Index>>().prop_map(Step::ImportEarlier),
        1 => (0u32..=4).prop_map(Step::Padded),
        1 => prop_oneof![0usize..=4, (LOCAL_SAVE_MAX_UNITS - 2)..=(LOCAL_SAVE_MAX_UNITS + 2)]
            .prop_map(Step::SaveLocal),
        1 => (source(), any::<u64>()).prop_map(|(source, seed)| Step::ImportSpelled(source, seed)),
        1 => (source(), near_miss(), any::<u64>(), place())
            .prop_map(|(source, miss, seed, at)| Step::ImportNearMiss(source, miss, seed, at)),
    ]
}

fn source() -> impl Strategy<Value = Source> {
    prop_oneof![Just(Source::Own), Just(Source::Other)]
}

fn near_miss() -> impl Strategy<Value = NearMiss> {
    proptest::sample::select(NearMiss::ALL.as_slice())
}

/// The place of a near-miss among those of its kind: the first (the start of the text,
/// the first key), the last (the end of the text), or any.
fn place() -> impl Strategy<Value = usize> {
    prop_oneof![Just(0usize), Just(usize::MAX), any::<usize>()]
}

/// The opening steps that put a session in `state`, with parameters m and k.
fn state_opening(state: State, m: u32, k: u32) -> Vec<Step> {
    let mut steps = vec![
        Step::Draft(DraftField::M, m.to_string()),
        Step::Draft(DraftField::K, k.to_string()),
        Step::Draft(DraftField::Insert, "\"/\\\u{1}é😀".to_string()),
    ];
    if state == State::NoFilter {
        return steps;
    }
    steps.push(Step::Create);
    match state {
        State::NoFilter | State::Empty => {}
        State::Entries | State::Discarded => {
            steps.extend([
                Step::Example,
                Step::Query(TextValue::Text("i".into())),
                Step::Insert(TextValue::Text("\u{2028}\u{a0}\t\"\\/\u{7f}𝄞".into())),
                Step::Insert(TextValue::Units(vec![0xD800, 0x61])),
            ]);
            if state == State::Discarded {
                let other = if m == 8 { 9 } else { m - 1 };
                steps.push(Step::Draft(DraftField::M, other.to_string()));
            }
        }
        State::Full => steps.extend([Step::Many(1024), Step::Query(TextValue::Text("ü-7".into()))]),
    }
    steps
}

/// A script of the import stratum of `state`: its opening, then every near-miss of
/// one export or the other, each at a drawn place of a drawn spelling, then a valid
/// spelling of the session's own export, of the other export, and an export.
fn imports(input: &GeneratedInput, state: State) -> impl Strategy<Value = Script> + use<> {
    let misses = proptest::collection::vec((source(), any::<u64>(), place()), NearMiss::ALL.len());
    (
        span(input.m),
        span(input.k),
        misses,
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(move |(m, k, misses, own, other)| {
            let mut steps = state_opening(state, m, k);
            for (miss, (source, seed, at)) in NearMiss::ALL.into_iter().zip(misses) {
                steps.push(Step::ImportNearMiss(source, miss, seed, at));
            }
            steps.push(Step::ImportSpelled(Source::Own, own));
            steps.push(Step::ImportSpelled(Source::Other, other));
            steps.push(Step::Export);
            Script { steps }
        })
}

/// The strategy of drawn input `i` of `drawn` among [`strata`]: the last five inputs one
/// import stratum each (so every run of 5 inputs or more judges every near-miss in every
/// state; a full filter's imports cost the most of all, so each stratum is drawn once);
/// the inputs before them from the other strata by `crate::generated::half_whole`
/// (every even one the whole domain, the odd ones each group and the interleaving in
/// turn). The import strata come last so that the scripts a seed drew before them are
/// drawn still.
pub(super) fn stratum(
    strata: &[BoxedStrategy<Script>],
    i: usize,
    drawn: usize,
) -> &BoxedStrategy<Script> {
    let imports = State::ALL.len();
    let before = strata.len().saturating_sub(imports).max(1);
    match (i + imports).checked_sub(drawn) {
        Some(j) => strata.get(before + j).unwrap_or(&strata[0]),
        None => &strata[crate::generated::half_whole(i, before)],
    }
}

/// The other export: a session m 16, k 2 whose drafts, entries, last operation and
/// history hold `"`, `\`, `/`, every control character with a short escape and
/// others, DEL, U+2028, U+00A0, U+FEFF, accents, astral characters and a lone
/// surrogate (written as an array of code units).
fn other_export() -> String {
    let controls: String = (0u32..0x20).filter_map(char::from_u32).collect();
    let ops = [
        ScriptOp::SetDraft {
            field: DraftField::M,
            value: "016".into(),
        },
        ScriptOp::SetDraft {
            field: DraftField::K,
            value: "2".into(),
        },
        ScriptOp::Create {},
        ScriptOp::Insert {
            value: TextValue::Text(controls),
        },
        ScriptOp::Insert {
            value: TextValue::Text("\"\\/\u{7f}\u{2028}\u{a0}\u{feff}é😀a0fF".into()),
        },
        ScriptOp::Insert {
            value: TextValue::Units(vec![0xDC00, 0x2F]),
        },
        ScriptOp::Query {
            value: TextValue::Text("日本".into()),
        },
        ScriptOp::Query {
            value: TextValue::Text("/".into()),
        },
        ScriptOp::SetDraft {
            field: DraftField::Query,
            value: "\u{8}\u{c}\n\r\t<>&'".into(),
        },
        ScriptOp::SetPanel {
            panel: Panel::Model,
            open: true,
        },
    ];
    let mut session = Session::new();
    for op in &ops {
        let _ = RustFnv::step(&mut session, op);
    }
    session.export()
}

/// The text an import step of `source`'s export sends: re-spelled as `seed` draws,
/// with `miss` at the place `at` when given. Where the session's own export has no
/// place of that kind (no non-empty array with no filter), the other export carries
/// the near-miss; the other export has a place of every kind.
fn spelled(
    session: &Session,
    other: &str,
    source: Source,
    miss: Option<(NearMiss, usize)>,
    seed: u64,
) -> String {
    let own = || session.export();
    let text = match source {
        Source::Own => own(),
        Source::Other => other.to_string(),
    };
    let respelled = |text: &str| {
        serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|value| respell(&value, seed, miss))
    };
    respelled(&text)
        .or_else(|| respelled(other))
        .unwrap_or(text)
}

/// A script: usually opened with drafts of m and k and a `create`, then random steps.
#[derive(Clone, Debug)]
pub(super) struct Script {
    steps: Vec<Step>,
}

pub(super) fn scripts(input: &GeneratedInput) -> impl Strategy<Value = Script> + use<> {
    let steps = input.steps.unwrap_or([1, 16]);
    let opening = prop_oneof![3 => opening(input), 1 => Just(Vec::new())];
    let max = steps[1] as usize;
    (opening, proptest::collection::vec(step(), size(steps))).prop_map(move |(mut open, rest)| {
        open.extend(rest);
        open.truncate(max);
        Script { steps: open }
    })
}

/// Drafts of m and k (often 8 or 64, and 1 or 3) and a `create`.
fn opening(input: &GeneratedInput) -> impl Strategy<Value = Vec<Step>> + use<> {
    let (m, k) = (input.m, input.k);
    (
        prop_oneof![Just(8u32), Just(64), m[0]..=m[1]],
        prop_oneof![Just(1u32), Just(3), k[0]..=k[1]],
    )
        .prop_map(|(m, k)| {
            vec![
                Step::Draft(DraftField::M, m.to_string()),
                Step::Draft(DraftField::K, k.to_string()),
                Step::Create,
            ]
        })
}

/// The strata of a run's drawn scripts ([`stratum`] picks one for each drawn input: the
/// last five the import strata, before them every even one the first, the odd ones the
/// groups and the interleaving in turn, so a run of 36 drawn scripts visits each): the whole domain ([`scripts`]),
/// then one per group of strings that a lossy conversion or a count in another unit
/// would confuse ([`super::text::groups`]: each script inserts every string of its
/// group, then queries each, so an implementation that keys its entries, its display
/// or its length checks by a lossy form answers one of them wrongly whatever the
/// seed), then the interleavings of the operations that copy or keep state
/// ([`interleaving`]), then the import stratum of each [`State`].
pub(super) fn strata(input: &GeneratedInput) -> Vec<BoxedStrategy<Script>> {
    let max = input.steps.unwrap_or([1, 16])[1] as usize;
    let mut out = vec![scripts(input).boxed()];
    for group in super::text::groups() {
        let tail = proptest::collection::vec(step(), 0..=4);
        out.push(
            (opening(input), tail, any::<Index>())
                .prop_map(move |(mut steps, tail, draft)| {
                    steps.extend(group.iter().cloned().map(Step::Insert));
                    steps.extend(group.iter().cloned().map(Step::Query));
                    // The group's well-formed strings as the insert and query drafts, which
                    // the view and the export carry verbatim.
                    let texts: Vec<&String> = group
                        .iter()
                        .filter_map(|t| match t {
                            TextValue::Text(s) => Some(s),
                            TextValue::Units(_) => None,
                        })
                        .collect();
                    if !texts.is_empty() {
                        let text = texts[draft.index(texts.len())].clone();
                        steps.push(Step::Draft(DraftField::Query, text));
                    }
                    steps.push(Step::Export);
                    steps.push(Step::Roundtrip);
                    steps.extend(tail);
                    steps.truncate(max);
                    Script { steps }
                })
                .boxed(),
        );
    }
    out.push(
        interleaving(input)
            .prop_map(move |mut script| {
                script.steps.truncate(max);
                script
            })
            .boxed(),
    );
    out.extend(State::ALL.map(|state| imports(input, state).boxed()));
    out
}

/// `n` UTF-16 code units of astral characters: `n / 2` emoji (two units, four UTF-8
/// bytes, one code point each), and an `a` when `n` is odd.
fn astral(n: usize) -> String {
    let mut text = "\u{1F600}".repeat(n / 2);
    if n % 2 == 1 {
        text.push('a');
    }
    text
}

/// The edge scripts of the rows of the table of bounds (`spec/bounds.json`,
/// `crate::bound_edges`) that this comparison judges: the core rows for the page's
/// (`page`), the interop rows for the reference model's. For each row, a script at the
/// bound, one past it and far past it (and at and below its min): m and k of a
/// `create`; strings of that many code units, as accented letters (two UTF-8 bytes a
/// unit) and as emoji (two units a code point); `insert_many` to that many entries or
/// history items; drafts of that many code units, both ways; `import_padded` to that
/// many bytes and `save_local` of that many code units, of a session whose export holds
/// non-ASCII text (so its bytes, code units and code points differ). Empty when the
/// runner's table cannot be read (the loader refuses such a spec). One script a row.
pub(super) fn bound_scripts(page: bool) -> Vec<Script> {
    use crate::bound_edges::{Driver, points, rows_driven_by};
    let driver = if page {
        Driver::FnvPage
    } else {
        Driver::FnvModel
    };
    let open = |m: String, k: String| {
        vec![
            Step::Draft(DraftField::M, m),
            Step::Draft(DraftField::K, k),
            Step::Create,
        ]
    };
    let text = |s: String| TextValue::Text(s);
    let mut out = Vec::new();
    for row in rows_driven_by(driver).unwrap_or_default() {
        // One script a row, its points one after another (each step judged from the
        // view before it): a count reaches its points cumulatively, so the entries and
        // the history are filled once.
        let mut steps = match row.id.as_str() {
            "fnv.string" | "fnv.import" | "fnv.save" => open("64".into(), "3".into()),
            "fnv.entries" => open("1024".into(), "1".into()),
            "fnv.history" => open("64".into(), "1".into()),
            _ => Vec::new(),
        };
        if matches!(row.id.as_str(), "fnv.import" | "fnv.save") {
            steps.extend([
                Step::Insert(text("\u{e9}\u{1F600}\u{65}\u{301}".into())),
                Step::Draft(DraftField::Query, "\u{65e5}\u{672c}\u{1F600}".into()),
            ]);
        }
        for point in points(&row) {
            let v = point.value;
            let n = usize::try_from(v).unwrap_or(usize::MAX);
            let count = u32::try_from(v).unwrap_or(u32::MAX);
            match row.id.as_str() {
                "fnv.m" => steps.extend(open(v.to_string(), "3".into())),
                "fnv.k" => steps.extend(open("64".into(), v.to_string())),
                "fnv.string" => steps.extend([
                    Step::Insert(text("\u{e9}".repeat(n))),
                    Step::Query(text("\u{e9}".repeat(n))),
                    Step::Insert(text(astral(n))),
                    Step::Query(text(astral(n))),
                ]),
                // `insert_many` of that many (the entries before are duplicates of its
                // first ones): 1024 distinct kept, the 1025th refused, all or nothing.
                "fnv.entries" | "fnv.history" => steps.push(Step::Many(count)),
                "fnv.draft" => steps.extend([
                    Step::Draft(DraftField::Insert, "\u{e9}".repeat(n)),
                    Step::Draft(DraftField::Query, astral(n)),
                ]),
                "fnv.import" => steps.push(Step::PaddedTo(n)),
                "fnv.save" => steps.push(Step::SaveLocal(n)),
                _ => {}
            }
        }
        match row.id.as_str() {
            "fnv.entries" => steps.push(Step::Insert(text("\u{e9}".into()))),
            "fnv.history" => steps.push(Step::Query(text("\u{1F600}".into()))),
            "fnv.draft" => steps.push(Step::Create),
            _ => {}
        }
        if !steps.is_empty() {
            steps.push(Step::Export);
            out.push(Script { steps });
        }
    }
    out
}

/// The classes of text a local save's state is made of where its measures differ
/// (`fnv_save_fills`): UTF-16 code units, UTF-8 bytes, code points and user-perceived
/// characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FillClass {
    /// Non-ASCII characters of the BMP: one unit, two or three bytes, one code point.
    Bmp,
    /// Astral characters: two units, four bytes, one code point.
    Astral,
    /// A letter and combining marks: one character of several code points and units.
    Combining,
    /// ASCII, BMP, astral and combining together, and a width that rarely divides.
    Mixed,
}

impl FillClass {
    pub(super) const ALL: [FillClass; 4] = [
        FillClass::Bmp,
        FillClass::Astral,
        FillClass::Combining,
        FillClass::Mixed,
    ];
}

/// A non-ASCII BMP character (no surrogate, no combining mark).
fn bmp_char() -> impl Strategy<Value = char> {
    prop_oneof![0x80u32..0x300, 0x370u32..0xD800, 0xE000u32..=0xFFFF]
        .prop_filter_map("a character", |c| {
            char::from_u32(c).filter(|c| !super::measure::combining(*c))
        })
}

fn astral_char() -> impl Strategy<Value = char> {
    (0x10000u32..=0x10FFFF).prop_filter_map("a character", char::from_u32)
}

/// A letter and one to three combining marks.
fn combined() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(vec!['a', 'e', 'o', 'z', '\u{e9}', '\u{3b1}']),
        proptest::collection::vec(0x300u32..=0x36F, 1..=3),
    )
        .prop_map(|(base, marks)| {
            let mut text = base.to_string();
            text.extend(marks.into_iter().filter_map(char::from_u32));
            text
        })
}

/// A fill of `class`.
fn fill(class: FillClass) -> BoxedStrategy<String> {
    match class {
        FillClass::Bmp => proptest::collection::vec(bmp_char(), 1..=3)
            .prop_map(|c| c.into_iter().collect())
            .boxed(),
        FillClass::Astral => proptest::collection::vec(astral_char(), 1..=2)
            .prop_map(|c| c.into_iter().collect())
            .boxed(),
        FillClass::Combining => combined().boxed(),
        FillClass::Mixed => (0x20u8..=0x7e, bmp_char(), astral_char(), combined())
            .prop_map(|(ascii, bmp, astral, combined)| {
                format!("{}{bmp}{astral}{combined}", char::from(ascii))
            })
            .boxed(),
    }
}

/// The lengths in code units a script of `fill` saves: for each measure (UTF-8 bytes,
/// code units, code points, user-perceived characters), the shortest state over the
/// local save's limit and one unit shorter, in increasing order.
pub(super) fn fill_points(fill: &str) -> Vec<usize> {
    use super::measure::{Measures, first_past};
    let measures: [fn(&Measures) -> usize; 4] =
        [|m| m.bytes, |m| m.units, |m| m.points, |m| m.fewest];
    let mut points: Vec<usize> = measures
        .into_iter()
        .flat_map(|measure| {
            let past = first_past(fill, LOCAL_SAVE_MAX_UNITS, measure);
            [past - 1, past]
        })
        .collect();
    points.sort_unstable();
    points.dedup();
    points
}

/// A script of `fnv_save_fills` for `class`: a filter of drawn m and k holding the
/// fill as an entry, then a `save_local` of the fill at every point of
/// [`fill_points`], then an export.
pub(super) fn fills(
    input: &GeneratedInput,
    class: FillClass,
) -> impl Strategy<Value = Script> + use<> {
    (span(input.m), span(input.k), fill(class)).prop_map(|(m, k, fill)| {
        let mut steps = vec![
            Step::Draft(DraftField::M, m.to_string()),
            Step::Draft(DraftField::K, k.to_string()),
            Step::Create,
            Step::Insert(TextValue::Text(fill.clone())),
        ];
        steps.extend(
            fill_points(&fill)
                .into_iter()
                .map(|units| Step::SaveFill(units, fill.clone())),
        );
        steps.push(Step::Export);
        Script { steps }
    })
}

/// A script that interleaves the operations that copy or keep state with further
/// changes, and imports what was exported before them: with the domain's largest m,
/// insert, export, eight more
/// insertions (new bits) and a query, import of that first export (into a filter of the
/// same parameters that holds more: nothing of the live filter may reach the imported
/// one), an insertion, an `insert_many` that fails at the entry cap (all or nothing: the
/// copy it worked on must not be the live session), reset, import of the first export
/// again, a parameter draft that discards the filter, import of it again, a panel,
/// export. Each import must give back exactly the session as it was exported (the
/// model's view), whatever the session did since.
fn interleaving(input: &GeneratedInput) -> impl Strategy<Value = Script> + use<> {
    let strings =
        || proptest::sample::select(super::text::groups()).prop_flat_map(super::text::one_of);
    // The largest m of the domain, so that the eight insertions after the first export
    // set bits it did not have.
    let m = input.m[1];
    (
        span(input.k),
        proptest::collection::vec(strings(), 3),
        any::<bool>(),
        draft_number(),
    )
        .prop_map(move |(k, texts, positions, draft)| {
            let mut steps = vec![
                Step::Draft(DraftField::M, m.to_string()),
                Step::Draft(DraftField::K, k.to_string()),
                Step::Create,
            ];
            steps.extend([
                Step::Insert(texts[0].clone()),
                Step::Export,
                Step::Many(8),
                Step::Query(texts[1].clone()),
                Step::ImportEarlier(None),
                Step::Insert(texts[2].clone()),
                Step::Many(1024),
                Step::Reset,
                Step::ImportEarlier(None),
                Step::Draft(DraftField::M, draft),
                Step::ImportEarlier(None),
                Step::Panel(
                    if positions {
                        Panel::Positions
                    } else {
                        Panel::Model
                    },
                    true,
                ),
                Step::Export,
            ]);
            Script { steps }
        })
}

/// A script made concrete ([`materialised`]), with the reference model's answers to it.
struct Materialised {
    ops: Vec<ScriptOp>,
    /// The view of the new session.
    initial: Value,
    /// The model's answer to each step: without its view (`null`) when made for the
    /// page's comparison, which reads none.
    answers: Vec<Result<StepAnswer, String>>,
    /// What the page's comparison reads of each answer (`super::page::verdict_with`):
    /// the run that made the script is the model's run of it, so the page's comparison
    /// need not run the model again.
    page: Vec<super::page::Reference>,
}

/// The concrete script of `script` and the reference model's answers to it, each step's
/// view built only when `views` (the model's comparison reads them, the page's not).
fn materialised(script: &Script, views: bool) -> Materialised {
    let mut session = Session::new();
    let other = if script.steps.iter().any(|step| {
        matches!(
            step,
            Step::ImportSpelled(Source::Other, _) | Step::ImportNearMiss(..)
        )
    }) {
        other_export()
    } else {
        String::new()
    };
    let initial = serde_json::to_value(session.view()).unwrap_or(Value::Null);
    let mut ops = Vec::new();
    let mut answers = Vec::new();
    let mut page = Vec::new();
    let mut exports: Vec<String> = Vec::new();
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
            Step::ImportEarlier(which) => ScriptOp::ImportText {
                text: match (exports.first(), which) {
                    (None, _) => session.export(),
                    (Some(first), None) => first.clone(),
                    (Some(_), Some(at)) => exports[at.index(exports.len())].clone(),
                },
            },
            Step::Padded(extra) => ScriptOp::ImportPadded {
                bytes: (IMPORT_MAX_BYTES - 2 + *extra as usize).max(session.export().len()),
            },
            Step::PaddedTo(bytes) => ScriptOp::ImportPadded {
                bytes: (*bytes).max(session.export().len()),
            },
            Step::SaveLocal(units) => ScriptOp::SaveLocal {
                units: *units,
                fill: None,
            },
            Step::SaveFill(units, fill) => ScriptOp::SaveLocal {
                units: *units,
                fill: Some(fill.clone()),
            },
            Step::ImportSpelled(source, seed) => ScriptOp::ImportText {
                text: spelled(&session, &other, *source, None, *seed),
            },
            Step::ImportNearMiss(source, miss, seed, at) => ScriptOp::ImportText {
                text: spelled(&session, &other, *source, Some((*miss, *at)), *seed),
            },
        };
        let answer = if views {
            RustFnv::step(&mut session, &op)
        } else {
            RustFnv::step_unviewed(&mut session, &op)
        }
        .map_err(|err| err.to_string());
        if let Ok(StepAnswer {
            export: Some(text), ..
        }) = &answer
        {
            exports.push(text.clone());
        }
        page.push(super::page::reference_of(
            &op,
            answer.as_ref().ok(),
            &session,
        ));
        answers.push(answer);
        ops.push(op);
    }
    Materialised {
        ops,
        initial,
        answers,
        page,
    }
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
    let ops = materialised(script, false).ops;
    let shown: Vec<Value> = ops.iter().map(shown_op).collect();
    // What each re-spelled import is, since its text is shown cut.
    let spellings: Vec<String> = script
        .steps
        .iter()
        .enumerate()
        .filter_map(|(i, step)| match step {
            Step::ImportSpelled(source, seed) => Some(format!(
                "step {i}: the {} export re-spelled (spelling seed {seed})",
                source_name(*source)
            )),
            Step::ImportNearMiss(source, miss, seed, at) => Some(format!(
                "step {i}: the {} export re-spelled (spelling seed {seed}) with the near-miss \
                 {miss:?} at place {at} of its kind (expected kind {})",
                source_name(*source),
                miss.kind()
            )),
            _ => None,
        })
        .collect();
    if spellings.is_empty() {
        serde_json::json!({ "script": shown })
    } else {
        serde_json::json!({ "script": shown, "spellings": spellings })
    }
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Own => "session's own",
        Source::Other => "other",
    }
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

/// Judges each script's answer: by the page's rules alone (`page`, the core check's part:
/// `super::page`), or step by step against the reference model (the interop check's).
pub(super) fn judge(
    subject: &mut dyn FnvSubject,
    values: &[Script],
    page: bool,
) -> Vec<Option<Mismatch>> {
    let mut verdicts = Vec::with_capacity(values.len());
    for chunk in values.chunks(JUDGE_CHUNK) {
        verdicts.extend(judge_chunk(subject, chunk, page));
    }
    verdicts
}

/// How many scripts [`judge`] sends at once: their reference answers and the
/// subject's are held together (some hold exports and imports of 2 MiB), so the
/// scripts go in chunks, each sent as one batch (pipelined through an adapter).
const JUDGE_CHUNK: usize = 8;

fn judge_chunk(
    subject: &mut dyn FnvSubject,
    values: &[Script],
    page: bool,
) -> Vec<Option<Mismatch>> {
    let made: Vec<_> = values
        .iter()
        .map(|script| {
            crate::generated::memo::get_or(
                if page {
                    "fnv_session_page"
                } else {
                    "fnv_session"
                },
                || format!("{script:?}"),
                || materialised(script, !page),
            )
        })
        .collect();
    let calls: Vec<FnvCall> = made
        .iter()
        .map(|made| FnvCall::Session {
            script: made.ops.clone(),
        })
        .collect();
    subject
        .batch(&calls)
        .into_iter()
        .zip(&made)
        .map(|(answer, made)| match answer {
            Ok(FnvReply::Script(got)) => {
                if page {
                    super::page::verdict_with(&made.ops, &made.page, &got)
                } else {
                    verdict(&made.ops, &made.initial, &made.answers, &got)
                }
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

    /// Every point of every fnv row of the table of bounds is an edge script of the
    /// comparison of its class (the page's for the core rows, the model's for the
    /// interop rows), and each script reaches its point: the m or k drafted, a string,
    /// a draft, `insert_many`, `import_padded` or `save_local` of that size.
    #[test]
    fn every_fnv_row_drives_a_script_at_every_point() {
        use crate::bound_edges::{Driver, points, rows_driven_by};
        for (page, driver) in [(true, Driver::FnvPage), (false, Driver::FnvModel)] {
            let rows = rows_driven_by(driver).unwrap_or_default();
            assert!(rows.len() >= 4, "{driver:?}");
            let scripts = bound_scripts(page);
            assert_eq!(scripts.len(), rows.len(), "{driver:?}: a script a row");
            for (row, script) in rows.iter().zip(&scripts) {
                for point in points(row) {
                    let steps = &script.steps;
                    let n = usize::try_from(point.value).unwrap_or(usize::MAX);
                    let reached = steps.iter().any(|step| match step {
                        Step::Draft(DraftField::M | DraftField::K, text) => {
                            *text == point.value.to_string()
                        }
                        Step::Draft(_, text) => text.encode_utf16().count() == n,
                        Step::Insert(TextValue::Text(text)) => text.encode_utf16().count() == n,
                        Step::Many(count) => u64::from(*count) == point.value,
                        Step::PaddedTo(bytes) | Step::SaveLocal(bytes) => *bytes == n,
                        _ => false,
                    });
                    assert!(reached, "{} at {}: {steps:?}", row.id, point.value);
                }
            }
        }
    }

    /// Each bound script does what its row needs, on the reference model: the rows of
    /// strings, imports, saves, entries and history open with a filter created (m and k
    /// drafted first); the entries' script ends with a new string past the 1024 kept
    /// (refused), the history's with a query past its cap (answered), the drafts' with
    /// a create from the long drafts; then an export.
    #[test]
    fn every_bound_script_opens_a_filter_and_ends_past_its_limit() {
        use crate::bound_edges::{Driver, rows_driven_by};
        for (page, driver) in [(true, Driver::FnvPage), (false, Driver::FnvModel)] {
            let rows = rows_driven_by(driver).unwrap_or_default();
            for (row, script) in rows.iter().zip(bound_scripts(page)) {
                let answers = materialised(&script, true).answers;
                let steps = &script.steps;
                assert_eq!(answers.len(), steps.len(), "{}", row.id);
                let ok = |i: usize| matches!(&answers[i], Ok(a) if a.error.is_none());
                let id = row.id.as_str();
                if matches!(
                    id,
                    "fnv.string" | "fnv.import" | "fnv.save" | "fnv.entries" | "fnv.history"
                ) {
                    assert!(
                        matches!(
                            &steps[..3],
                            [
                                Step::Draft(DraftField::M, _),
                                Step::Draft(DraftField::K, _),
                                Step::Create
                            ]
                        ) && ok(2),
                        "{id}: {steps:?}"
                    );
                }
                let n = steps.len();
                assert!(matches!(steps[n - 1], Step::Export), "{id}");
                let last = &steps[n - 2];
                match id {
                    "fnv.entries" => assert!(
                        matches!(last, Step::Insert(TextValue::Text(t)) if t == "\u{e9}")
                            && matches!(&answers[n - 2], Ok(a) if a.error.is_some()),
                        "{id}: {last:?} {:?}",
                        answers[n - 2]
                    ),
                    "fnv.history" => assert!(
                        matches!(last, Step::Query(TextValue::Text(t)) if t == "\u{1F600}")
                            && ok(n - 2),
                        "{id}: {last:?}"
                    ),
                    "fnv.draft" => assert!(matches!(last, Step::Create), "{id}: {last:?}"),
                    _ => {}
                }
            }
        }
    }

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
        let ops = materialised(&script, false).ops;
        let want: Vec<Value> = ops.iter().map(shown_op).collect();
        assert_eq!(show(&script), serde_json::json!({ "script": want }));
        assert_eq!(want[0]["value"], "8");
        assert_eq!(
            want[1]["value"],
            format!("(41 code units of {:?}…)", "éééé")
        );
    }

    /// A script that opens a filter of m 8 and k 1, then takes `steps`.
    fn opened_then(steps: impl IntoIterator<Item = Step>) -> Script {
        let opening = [
            Step::Draft(DraftField::M, "8".into()),
            Step::Draft(DraftField::K, "1".into()),
            Step::Create,
        ];
        Script {
            steps: opening.into_iter().chain(steps).collect(),
        }
    }

    /// A shown script says what each re-spelled import is: which export, the spelling's
    /// seed, and for a near-miss its kind and place (its text is shown cut).
    #[test]
    fn a_shown_script_names_each_spelled_import() {
        let script = opened_then([
            Step::ImportSpelled(Source::Own, 7),
            Step::ImportNearMiss(Source::Other, NearMiss::VerticalTab, 9, 2),
        ]);
        let shown = show(&script);
        assert_eq!(
            shown["spellings"],
            serde_json::json!([
                "step 3: the session's own export re-spelled (spelling seed 7)",
                format!(
                    "step 4: the other export re-spelled (spelling seed 9) with the near-miss \
                     VerticalTab at place 2 of its kind (expected kind {})",
                    NearMiss::VerticalTab.kind()
                ),
            ])
        );
    }

    /// A differing export is named by its first differing byte, and shown from 40 bytes
    /// before it.
    #[test]
    fn an_export_difference_names_its_first_byte() {
        let script = opened_then([Step::Export]);
        let Materialised {
            ops,
            initial,
            answers: want,
            ..
        } = materialised(&script, true);
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

    /// The production session, recording every script it is given.
    struct Recording(Vec<Vec<ScriptOp>>);

    impl crate::subject::UnderTest for Recording {
        fn name(&self) -> String {
            "the production session, recorded".into()
        }
    }

    impl FnvSubject for Recording {
        fn positions(
            &mut self,
            m: u64,
            k: u64,
            units: &[u16],
        ) -> crate::subject::Answer<bloomproof_wire::protocols::fnv1a_utf16_v1::FnvHashes> {
            RustFnv.positions(m, k, units)
        }
        fn session(&mut self, script: &[ScriptOp]) -> crate::subject::Answer<ScriptAnswer> {
            self.0.push(script.to_vec());
            RustFnv.session(script)
        }
        fn estimates(
            &mut self,
            m: u32,
            k: u32,
            n: u32,
        ) -> crate::subject::Answer<bloomproof_wire::protocols::fnv1a_utf16_v1::EstimatesAnswer>
        {
            RustFnv.estimates(m, k, n)
        }
    }

    /// A sessions case runs, after its drawn inputs and its edges of m and k, the script
    /// of every row of the table of bounds its comparison judges (the page's core rows,
    /// the model's interop rows), each as written, even with no input drawn: a run that
    /// left them out (or counted fewer) judged no bound of the table through a
    /// generated session.
    #[test]
    fn a_sessions_case_runs_the_script_of_every_bound_of_its_comparison() {
        for page in [true, false] {
            let mut compared = vec!["view".to_string(), "error".to_string()];
            if page {
                compared.push("page".into());
            }
            let case = crate::model::GeneratedCase {
                id: "sessions".into(),
                check: "generated_sessions_agree_with_model".into(),
                rules: Vec::new(),
                flags: Vec::new(),
                comment: None,
                input: sessions_input(),
                expect: bloomproof_wire::spec::GeneratedExpect {
                    equal_to: "session_model".into(),
                    compared,
                },
            };
            let generation = crate::generated::Generation {
                seed: 7,
                count: Some(0),
                shrink: false,
            };
            let mut recording = Recording(Vec::new());
            let failures = super::super::evaluate(&case, &mut recording, &generation);
            assert!(failures.is_empty(), "page {page}: {failures:?}");
            let bounds: Vec<Vec<ScriptOp>> = bound_scripts(page)
                .iter()
                .map(|script| materialised(script, false).ops)
                .collect();
            assert!(bounds.len() >= 4, "page {page}");
            let run = &recording.0;
            assert!(
                run.len() > bounds.len(),
                "page {page}: {} scripts run, {} of them bounds",
                run.len(),
                bounds.len()
            );
            assert_eq!(run[run.len() - bounds.len()..], bounds[..], "page {page}");
        }
    }

    fn sessions_input() -> GeneratedInput {
        GeneratedInput {
            generator: crate::model::Generator::FnvSessions,
            count: 36,
            m: [8, 1024],
            k: [1, 12],
            seed_bytes: None,
            item_bytes: None,
            records: None,
            units: None,
            n: None,
            steps: Some([1, 16]),
        }
    }

    /// A script made for the page's comparison is the one made for the model's (ops and
    /// answers the same, but for the views, which it leaves out), and what the page reads
    /// of the model's answers is what replaying the model gives: scripts of every stratum
    /// and the edge scripts of both comparisons.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn a_script_made_for_the_page_is_the_models_run_without_views() {
        let input = sessions_input();
        let mut runner = TestRunner::deterministic();
        let mut scripts: Vec<Script> = bound_scripts(true);
        scripts.extend(bound_scripts(false));
        for stratum in strata(&input) {
            for _ in 0..3 {
                scripts.push(stratum.new_tree(&mut runner).unwrap().current());
            }
        }
        let mut imports = 0;
        for script in &scripts {
            let (page, model) = (materialised(script, false), materialised(script, true));
            assert_eq!(page.ops, model.ops, "{script:?}");
            assert_eq!(page.initial, model.initial);
            assert_eq!(page.page, model.page);
            assert_eq!(page.page, super::super::page::reference(&page.ops));
            assert_eq!(page.answers.len(), model.answers.len());
            for (without, with) in page.answers.iter().zip(&model.answers) {
                let (without, with) = (without.as_ref().unwrap(), with.as_ref().unwrap());
                assert_eq!(without.view, Value::Null);
                assert!(with.view.is_object());
                let bare = StepAnswer {
                    view: Value::Null,
                    ..with.clone()
                };
                assert_eq!(*without, bare);
            }
            imports += page
                .page
                .iter()
                .filter(|reference| reference.as_ref().is_some_and(|(_, held)| !held.is_empty()))
                .count();
        }
        assert!(
            imports > 10,
            "{imports} imports after which the model holds entries"
        );
    }

    /// The strata: the whole domain, one per group of confusable strings, the state
    /// interleaving, the import strata; the 36 drawn scripts of the case
    /// `25-generated/sessions` visit each on every run (the last five the import strata,
    /// half of the others the whole domain, the rest each other stratum in turn). A group's script opens with a
    /// create, inserts each string of its group in order, then queries each, and keeps
    /// within the case's 16 steps.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn each_group_stratum_inserts_then_queries_its_whole_group() {
        let input = sessions_input();
        let strata = strata(&input);
        let groups = super::super::text::groups();
        assert_eq!(strata.len(), groups.len() + 2 + State::ALL.len());
        // Before the five import strata, half the drawn inputs visit the others.
        assert!(2 * (groups.len() + 1) <= input.count as usize - State::ALL.len());
        let mut runner = TestRunner::deterministic();
        let mut drafts = std::collections::BTreeSet::new();
        for (group, stratum) in groups.iter().zip(&strata[1..]) {
            for _ in 0..16 {
                let script = stratum.new_tree(&mut runner).unwrap().current();
                assert!(script.steps.len() <= 16, "{script:?}");
                assert!(matches!(script.steps[2], Step::Create), "{script:?}");
                let n = group.len();
                for (i, text) in group.iter().enumerate() {
                    assert!(
                        matches!(&script.steps[3 + i], Step::Insert(t) if t == text),
                        "{script:?}"
                    );
                    assert!(
                        matches!(&script.steps[3 + n + i], Step::Query(t) if t == text),
                        "{script:?}"
                    );
                }
                // Then one of the group's well-formed strings as the query draft.
                let Step::Draft(DraftField::Query, draft) = &script.steps[3 + 2 * n] else {
                    panic!("no query draft after the group: {script:?}");
                };
                assert!(
                    group.contains(&TextValue::Text(draft.clone())),
                    "{script:?}"
                );
                drafts.insert(draft.clone());
            }
        }
        // The draft is drawn among them: more than one of a group's strings is chosen.
        assert!(drafts.len() > groups.len(), "{drafts:?}");
    }

    /// `astral(n)` is n UTF-16 code units exactly, of emoji (four UTF-8 bytes and one
    /// code point for two units) and an `a` when n is odd: the bound scripts' strings
    /// whose three measures part.
    #[test]
    fn astral_text_is_n_code_units_of_emoji() {
        for n in [0usize, 1, 2, 3, 4, 7, 256, 257, 1024, 1025] {
            let text = astral(n);
            assert_eq!(text.encode_utf16().count(), n, "{n}");
            assert_eq!(text.chars().count(), n / 2 + n % 2, "{n}");
            assert_eq!(text.len(), 4 * (n / 2) + n % 2, "{n}");
            assert_eq!(text.ends_with('a'), n % 2 == 1, "{n}");
        }
    }

    /// The discarded state's filter goes by a change of the m draft to another valid m
    /// (at both ends of the range too): the drafts stay valid, only the filter is gone.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn a_discarded_filter_leaves_another_valid_m_draft() {
        let range = super::super::page::M_RANGE;
        let (low, high) = (*range.start() as u32, *range.end() as u32);
        for m in [low, low + 1, 100, high - 1, high] {
            let steps = state_opening(State::Discarded, m, 2);
            let Some(Step::Draft(DraftField::M, other)) = steps.last() else {
                panic!("{steps:?}");
            };
            let other: u32 = other.parse().unwrap();
            assert!(
                other != m && range.contains(&u64::from(other)),
                "m {m}: {other}"
            );
            // The other states keep m.
            for state in [State::Entries, State::Empty, State::Full] {
                let steps = state_opening(state, m, 2);
                let drafted: Vec<&Step> = steps
                    .iter()
                    .filter(|s| matches!(s, Step::Draft(DraftField::M, _)))
                    .collect();
                assert_eq!(drafted.len(), 1, "{state:?}: {steps:?}");
            }
        }
    }

    /// The reference model, in every state of the import strata: every near-miss of
    /// either export, at places spread over the text, is refused with the kind
    /// SESSION.md gives it (`syntax`, or `invalid` for a key twice and for `1.0`,
    /// `1e0`, `-0`), the view unchanged; every valid spelling is accepted with the view
    /// an import of the canonical text gives. (The suite compares implementations with
    /// this model; this holds the model to the documents.)
    #[test]
    fn the_reference_refuses_every_near_miss_and_accepts_every_spelling_in_every_state() {
        let other = other_export();
        let step = |session: &mut Session, text: String| {
            RustFnv::step(session, &ScriptOp::ImportText { text }).map_err(|err| err.to_string())
        };
        for state in State::ALL {
            for (m, k) in [(8, 1), (1024, 12)] {
                let Materialised { ops, answers, .. } = materialised(
                    &Script {
                        steps: state_opening(state, m, k),
                    },
                    true,
                );
                assert!(
                    answers
                        .iter()
                        .all(|a| matches!(a, Ok(a) if a.error.is_none())),
                    "{state:?}: {answers:?}"
                );
                let mut session = Session::new();
                for op in &ops {
                    let _ = RustFnv::step(&mut session, op);
                }
                let before = serde_json::to_value(session.view()).unwrap_or_default();
                let active = matches!(state, State::Empty | State::Entries | State::Full);
                assert_eq!(before["active"], active, "{state:?}");
                for seed in 0..6u64 {
                    for source in [Source::Own, Source::Other] {
                        for miss in NearMiss::ALL {
                            let at = (seed as usize) * 37 + 5;
                            let text = spelled(&session, &other, source, Some((miss, at)), seed);
                            let mut copy = session.clone();
                            let answer = step(&mut copy, text.clone());
                            let kind = answer
                                .as_ref()
                                .ok()
                                .and_then(|a| a.error.as_ref())
                                .map(|e| e.kind.clone());
                            assert_eq!(
                                kind.as_deref(),
                                Some(miss.kind()),
                                "{state:?} {source:?} {miss:?} seed {seed}: {}",
                                text.chars().take(300).collect::<String>()
                            );
                            assert_eq!(copy, session, "{state:?} {miss:?}: the state changed");
                        }
                        let canonical = match source {
                            Source::Own => session.export(),
                            Source::Other => other.clone(),
                        };
                        let text = spelled(&session, &other, source, None, seed);
                        let (mut a, mut b) = (session.clone(), session.clone());
                        let want = step(&mut a, canonical);
                        let got = step(&mut b, text.clone());
                        assert!(
                            matches!(&got, Ok(g) if g.error.is_none()),
                            "{state:?} {source:?} seed {seed}: {got:?}: {text}"
                        );
                        assert_eq!(got, want, "{state:?} {source:?} seed {seed}: {text}");
                        assert_eq!(a, b);
                        if source == Source::Own {
                            let view = serde_json::to_value(b.view()).unwrap_or_default();
                            assert_eq!(view, before, "{state:?}: its own export re-imported");
                        }
                    }
                }
            }
        }
    }

    /// The interleaving, run on the reference model: the insert_many at the cap is
    /// refused and changes nothing; before the first import of the first export the
    /// filter has bits the export did not (so a live bit kept by the import would
    /// show); every import of the first export gives back the view of the step that
    /// exported it, whatever happened in between.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn imports_of_an_earlier_export_give_back_its_view() {
        let input = sessions_input();
        let interleaving = strata(&input).swap_remove(super::super::text::groups().len() + 1);
        let mut runner = TestRunner::deterministic();
        for _ in 0..8 {
            let script = interleaving.new_tree(&mut runner).unwrap().current();
            let Materialised { ops, answers, .. } = materialised(&script, true);
            let answers: Vec<StepAnswer> = answers.into_iter().map(Result::unwrap).collect();
            let exported = ops
                .iter()
                .position(|op| matches!(op, ScriptOp::Export {}))
                .unwrap();
            let imports: Vec<usize> = script
                .steps
                .iter()
                .enumerate()
                .filter(|(_, step)| matches!(step, Step::ImportEarlier(None)))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(imports.len(), 3);
            let bits_set = |i: usize| answers[i].view["bits_set"].as_u64().unwrap();
            assert!(bits_set(imports[0] - 1) > bits_set(exported), "{script:?}");
            for &i in &imports {
                assert_eq!(answers[i].error, None, "step {i}");
                assert_eq!(answers[i].view, answers[exported].view, "step {i}");
            }
            let capped = script
                .steps
                .iter()
                .position(|step| matches!(step, Step::Many(1024)))
                .unwrap();
            let error = answers[capped].error.as_ref().unwrap();
            assert_eq!(error.kind, "too_many_entries");
            assert_eq!(answers[capped].view, answers[capped - 1].view);
        }
    }

    /// Every fill script, whatever the seed draws, saves a state within the limit in
    /// code units but over it in UTF-8 bytes (a byte count keeps it), and the astral and
    /// mixed ones a state over the limit in code units but within it in code points (a
    /// code-point count saves it): so the planted counts are caught on every seed, the
    /// classes being drawn in turn. Each fill is a string the page takes (1..=256 units).
    #[test]
    #[allow(clippy::unwrap_used)]
    fn every_fill_script_holds_the_states_where_the_measures_part() {
        use super::super::measure::state_measures;
        let input: GeneratedInput = serde_json::from_value(serde_json::json!({
            "generator": "fnv_save_fills", "count": 8, "m": [8, 1024], "k": [1, 12]
        }))
        .unwrap();
        let mut runner = TestRunner::deterministic();
        for class in FillClass::ALL {
            let strategy = fills(&input, class);
            for _ in 0..200 {
                let script = strategy.new_tree(&mut runner).unwrap().current();
                let saves: Vec<(usize, &String)> = script
                    .steps
                    .iter()
                    .filter_map(|step| match step {
                        Step::SaveFill(units, fill) => Some((*units, fill)),
                        _ => None,
                    })
                    .collect();
                let fill = saves[0].1;
                assert!((1..=256).contains(&fill.encode_utf16().count()), "{fill:?}");
                let by_bytes = saves.iter().any(|(units, fill)| {
                    let m = state_measures(*units, Some(fill));
                    m.units <= LOCAL_SAVE_MAX_UNITS && m.bytes > LOCAL_SAVE_MAX_UNITS
                });
                let by_points = saves.iter().any(|(units, fill)| {
                    let m = state_measures(*units, Some(fill));
                    m.units > LOCAL_SAVE_MAX_UNITS && m.points <= LOCAL_SAVE_MAX_UNITS
                });
                assert!(by_bytes, "{class:?} {fill:?}: {saves:?}");
                if matches!(class, FillClass::Astral | FillClass::Mixed) {
                    assert!(by_points, "{class:?} {fill:?}: {saves:?}");
                }
                // At 100000 code units and one past, in every script.
                for units in [LOCAL_SAVE_MAX_UNITS, LOCAL_SAVE_MAX_UNITS + 1] {
                    assert!(saves.iter().any(|(u, _)| *u == units), "{saves:?}");
                }
            }
        }
    }

    /// The last five drawn inputs of a run come from the import strata, one each, the
    /// others from the random scripts; each import stratum's script opens its state, then
    /// imports every near-miss, then the two valid spellings, then exports.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn the_import_strata_hold_every_near_miss_in_every_state() {
        let input: GeneratedInput = serde_json::from_value(serde_json::json!({
            "generator": "fnv_sessions", "count": 32, "m": [8, 1024], "k": [1, 12], "steps": [1, 16]
        }))
        .unwrap();
        let strata = strata(&input);
        let before = super::super::text::groups().len() + 2;
        assert_eq!(strata.len(), before + State::ALL.len());
        // 8 drawn: three of the other strata (the whole domain, the first group, the
        // whole domain), then the five states in order.
        let states = |j: usize| before + j;
        for (i, want) in [
            0,
            1,
            0,
            states(0),
            states(1),
            states(2),
            states(3),
            states(4),
        ]
        .into_iter()
        .enumerate()
        {
            assert!(
                std::ptr::eq(stratum(&strata, i, 8), &strata[want]),
                "input {i}"
            );
        }
        // 3 drawn: the last three states.
        for (i, want) in [states(2), states(3), states(4)].into_iter().enumerate() {
            assert!(
                std::ptr::eq(stratum(&strata, i, 3), &strata[want]),
                "input {i}"
            );
        }
        let mut runner = TestRunner::deterministic();
        for (stratum, state) in strata[before..].iter().zip(State::ALL) {
            let script = stratum.new_tree(&mut runner).unwrap().current();
            let misses: Vec<NearMiss> = script
                .steps
                .iter()
                .filter_map(|s| match s {
                    Step::ImportNearMiss(_, miss, _, _) => Some(*miss),
                    _ => None,
                })
                .collect();
            assert_eq!(misses, NearMiss::ALL, "{state:?}");
            let spelled = script
                .steps
                .iter()
                .filter(|s| matches!(s, Step::ImportSpelled(..)))
                .count();
            assert_eq!(spelled, 2, "{state:?}");
            let shown = show(&script);
            assert_eq!(
                shown["spellings"].as_array().map(Vec::len),
                Some(NearMiss::ALL.len() + 2),
                "{shown}"
            );
        }
    }

    /// A padded import is sent at the import limit minus 2 up to plus 2 bytes, so both
    /// sides of the limit are drawn.
    #[test]
    fn padded_imports_straddle_the_limit() {
        for extra in 0..=4u32 {
            let Materialised { ops, answers, .. } = materialised(
                &Script {
                    steps: vec![Step::Padded(extra)],
                },
                true,
            );
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
