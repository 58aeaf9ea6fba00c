//! The report of a run: one outcome per documented check, the figures the
//! implementation gave beside the published ones, the totals. `cargo xtask schemas`
//! writes `spec/schemas/report.schema.json` from [`Report`]; `bloomproof conformance
//! --format json` prints one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// A figure the source document published.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishedFigure {
    /// The figure's name in the report.
    pub name: String,
    /// The check whose run observes it.
    pub check: String,
    /// The published value.
    pub value: serde_json::Value,
    /// Where it was published.
    pub source: String,
}

/// The name reports give the adapter protocol's own checks in the place of a protocol.
pub const ADAPTER_GROUP: &str = "adapter-protocol";

/// The heading the text report puts above the adapter protocol's own checks.
pub const ADAPTER_HEADING: &str = "adapter protocol: your adapter's wire handling";

/// A check's conformance class: where the rules it judges come from, and so whether it
/// counts in a run's verdict.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// What the source documents state: a faithful implementation of a source passes
    /// every core check, whatever it chose where the source is silent. Always in the
    /// verdict.
    #[default]
    Core,
    /// bloomproof's own decisions that make implementations agree with each other (the
    /// export layout, limits the sources never state, the finite-m and exact estimates,
    /// error `field` names, the verifying `read`, ...): in the verdict under
    /// `--require interop`.
    Interop,
    /// Tamper resistance beyond the sources: in the verdict under `--require hardening`.
    Hardening,
    /// The adapter protocol's own rules (`adapter-protocol.json`), what any adapter must
    /// follow to be tested at all: always in the verdict, reported under a heading of
    /// their own.
    Adapter,
}

impl Class {
    /// Every class, in the order reports list them.
    pub const ALL: [Class; 4] = [
        Class::Core,
        Class::Interop,
        Class::Hardening,
        Class::Adapter,
    ];

    /// The classes `--require` names (the others always count).
    pub const OPTIONAL: [Class; 2] = [Class::Interop, Class::Hardening];

    /// `core`, `interop`, `hardening` or `adapter`, as in `checks.json`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Core => "core",
            Class::Interop => "interop",
            Class::Hardening => "hardening",
            Class::Adapter => "adapter",
        }
    }

    /// The class a `--require` word names: `interop` or `hardening`.
    pub fn optional(word: &str) -> Option<Class> {
        Class::OPTIONAL.into_iter().find(|c| c.name() == word)
    }

    /// Whether the verdict counts this class whatever `--require` says (core and the
    /// adapter protocol).
    pub fn always_counts(self) -> bool {
        matches!(self, Class::Core | Class::Adapter)
    }

    /// How the report names the class on its count line.
    pub fn heading(self) -> &'static str {
        match self {
            Class::Adapter => "adapter protocol",
            other => other.name(),
        }
    }
}

/// How many checks of one class passed and failed in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassCount {
    /// The class.
    pub class: Class,
    /// Its checks that passed.
    pub passed: usize,
    /// Its checks that failed.
    pub failed: usize,
    /// Whether the verdict (`passed`/`failed` of the report, and the exit status)
    /// counts them: core and adapter always, the others under `--require`.
    pub in_verdict: bool,
}

/// The most failures a check keeps, in both reports; the rest are only counted
/// ([`CheckOutcome::more_failures`]).
pub const FAILURES_KEPT: usize = 100;

/// The most characters a failure keeps of each of its texts (`what`, `expected`,
/// `actual`) and of its `input` written as JSON, in both reports; a longer input is
/// kept as a string of its first characters and its length.
pub const FIELD_KEPT: usize = 4096;

/// The most characters the text report shows of a failure's input, and of an
/// expected or actual value (JSON); a message (`rejected: ...`) is shown up to
/// [`MESSAGE_SHOWN`].
pub const VALUE_SHOWN: usize = crate::QUOTE_MAX;

/// The most characters the text report shows of an expected or actual text that is
/// a message rather than a value (a runner's diagnosis, an adapter's error quoted):
/// four lines of a terminal; `--format json` keeps [`FIELD_KEPT`].
pub const MESSAGE_SHOWN: usize = 420;

/// The most kinds of failure (failures not alike) the text report shows in full under
/// one check, besides its diagnoses (`first difference ...`, always shown); the rest
/// are counted in one line, and `--format json` keeps them all.
pub const KINDS_SHOWN: usize = 3;

/// A protocol the adapter does not implement, and how many of its checks were not run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotImplemented {
    /// The protocol.
    pub protocol: String,
    /// Its checks the run would have held (those the filter selects).
    pub checks: usize,
}

/// The cases of one check that a run through an adapter of an earlier adapter
/// protocol left out, since they need a later version (`spec/ADAPTER.md`, "Changes").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeftOut {
    /// The check, `<protocol>/<name>`.
    pub check: String,
    /// The ids of the cases left out.
    pub cases: Vec<String>,
    /// Whether they were all of its cases: then the check was not run at all, and
    /// is neither passed nor failed.
    pub whole: bool,
    /// The adapter protocol version they need.
    pub needs: u32,
}

impl LeftOut {
    /// The cases `left` holds in all, and the latest adapter protocol they need; `None`
    /// when nothing was left out.
    pub fn counted(left: &[LeftOut]) -> Option<(usize, u32)> {
        let needs = left.iter().map(|l| l.needs).max()?;
        Some((left.iter().map(|l| l.cases.len()).sum(), needs))
    }
}

/// One mismatch, with everything needed to see why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Failure {
    /// The case id.
    pub case: String,
    /// What was compared.
    pub what: String,
    /// The case's inputs, as in the spec file.
    pub input: serde_json::Value,
    /// The expected value.
    pub expected: String,
    /// What the implementation (or the oracle) gave.
    pub actual: String,
}

/// The outcome of one documented check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckOutcome {
    /// The protocol.
    pub protocol: String,
    /// The check's name.
    pub name: String,
    /// The check's conformance class: whether it counts in the verdict.
    pub class: Class,
    /// Number of cases run.
    pub cases: usize,
    /// What part of the check runs inside the implementation, unseen by the runner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inside_implementation: Option<String>,
    /// Every mismatch, up to [`FAILURES_KEPT`]; empty means the check passed.
    pub failures: Vec<Failure>,
    /// Mismatches past the first [`FAILURES_KEPT`], counted and not kept.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_failures: usize,
    /// Whether the implementation (an adapter) ended during this check, crashed, timed
    /// out or broke the adapter protocol, and was started again for the next one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub crashed: bool,
    /// How long the check took, in milliseconds (wall time of its thread); `None` once
    /// [`Report::without_times`] removed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
}

impl Failure {
    /// A failure whose texts and input are cut to [`FIELD_KEPT`] characters, control
    /// characters escaped in the texts.
    pub fn capped(
        case: &str,
        what: String,
        input: serde_json::Value,
        expected: String,
        actual: String,
    ) -> Self {
        let text = |text: &str| crate::untrusted(text, FIELD_KEPT);
        let written = serde_json::to_string(&input).unwrap_or_default();
        let input = if written.chars().nth(FIELD_KEPT).is_some() {
            serde_json::Value::String(crate::untrusted(&written, FIELD_KEPT))
        } else {
            input
        };
        Failure {
            case: text(case),
            what: text(&what),
            input,
            expected: text(&expected),
            actual: text(&actual),
        }
    }

    /// What makes two failures alike for folding: the start of the actual text (32
    /// characters) with its numbers blanked (`request #12` and `request #13` are
    /// alike); for an actual that is a value rather than a message, what was compared
    /// too (a wrong `position` is not like a wrong `h1`).
    fn likeness(&self) -> String {
        let actual = blank_numbers(&self.actual, 32);
        if serde_json::from_str::<serde::de::IgnoredAny>(&self.actual).is_ok() {
            // `position[0]` is like `position`: the index says which, not what.
            let what = blank_numbers(&self.what, 200).replace("[#]", "");
            format!("{what}\u{0}{actual}")
        } else {
            actual
        }
    }
}

/// `failures` folded as the text report folds them: the first of each kind (failures
/// alike, [`Failure`]'s likeness: the same comparison and the same actual text but for
/// its numbers), in order, each with how many more of its kind follow. The results
/// page shows a check's failures this way.
pub fn fold(failures: &[Failure]) -> Vec<(&Failure, usize)> {
    let mut groups: Vec<(String, &Failure, usize)> = Vec::new();
    for failure in failures {
        let likeness = failure.likeness();
        match groups.iter_mut().find(|(like, _, _)| *like == likeness) {
            Some((_, _, more)) => *more += 1,
            None => groups.push((likeness, failure, 0)),
        }
    }
    groups
        .into_iter()
        .map(|(_, failure, more)| (failure, more))
        .collect()
}

/// A text the report shows (what was compared), cut and escaped as
/// [`cut_pair`] cuts a message.
pub fn shown_value(text: &str) -> String {
    shown(text)
}

/// The first `max` characters of `text`, each run of digits as one `#`.
fn blank_numbers(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut digits = false;
    for c in text.chars().take(max) {
        if c.is_ascii_digit() {
            if !digits {
                out.push('#');
            }
            digits = true;
        } else {
            digits = false;
            out.push(c);
        }
    }
    out
}

/// The text report's one rule for cutting (spec/README.md, "How the text report cuts
/// a value"): a string value longer than this many characters shows its first
/// [`CUT_HEAD`] and last [`CUT_TAIL`] characters and its length, wherever it stands
/// (in an input, in a diagnosis naming an item).
pub const CUT_OVER: usize = 40;
/// The characters a cut string value keeps from its start.
pub const CUT_HEAD: usize = 16;
/// The characters a cut string value keeps from its end.
pub const CUT_TAIL: usize = 8;
/// An array of more elements than this shows its first 4 and last 2 with the count of
/// the rest.
pub const ARRAY_OVER: usize = 8;
/// The elements a cut array keeps from its start.
const ARRAY_HEAD: usize = 4;
/// The elements a cut array keeps from its end.
const ARRAY_TAIL: usize = 2;
/// How many characters before the first difference a cut expected and actual value
/// start.
const BEFORE_DIFFERENCE: usize = 16;

/// A string value as the text report shows it: whole up to [`CUT_OVER`] characters,
/// else its first [`CUT_HEAD`] and last [`CUT_TAIL`] characters around `…` and its
/// length (`0041424344454647…5a5b5c5d (4096 chars)`); control characters escaped.
pub fn cut_string(text: &str) -> String {
    let count = text.chars().count();
    if count <= CUT_OVER {
        return crate::untrusted(text, CUT_OVER);
    }
    let head: String = text.chars().take(CUT_HEAD).collect();
    let tail: String = text.chars().skip(count - CUT_TAIL).collect();
    format!(
        "{}…{} ({count} chars)",
        crate::untrusted(&head, CUT_HEAD),
        crate::untrusted(&tail, CUT_TAIL)
    )
}

/// A failure's input as the text report shows it: every key kept (those that identify
/// the case and the one that differs alike), each long string value cut by
/// [`cut_string`], each long array to its first and last elements with its count;
/// the whole at most [`MESSAGE_SHOWN`] characters.
pub fn cut_input(value: &serde_json::Value) -> String {
    fn walk(value: &serde_json::Value, out: &mut String, depth: usize) {
        use serde_json::Value;
        match value {
            Value::String(text) if text.chars().count() > CUT_OVER => {
                // `"head…tail" (N chars)`: each part escaped as JSON escapes it.
                let inner = |part: String| {
                    let quoted = Value::String(part).to_string();
                    quoted[1..quoted.len() - 1].to_string()
                };
                let count = text.chars().count();
                let _ = write!(
                    out,
                    "\"{}…{}\" ({count} chars)",
                    inner(text.chars().take(CUT_HEAD).collect()),
                    inner(text.chars().skip(count - CUT_TAIL).collect())
                );
            }
            Value::Array(items) if depth > 6 => {
                let _ = write!(out, "[… {} elements]", items.len());
            }
            Value::Object(map) if depth > 6 => {
                let _ = write!(out, "{{… {} keys}}", map.len());
            }
            Value::Array(items) => {
                out.push('[');
                let cut = items.len() > ARRAY_OVER;
                for (index, item) in items.iter().enumerate() {
                    if cut && index == ARRAY_HEAD {
                        let _ = write!(out, "… {} more …,", items.len() - ARRAY_HEAD - ARRAY_TAIL);
                    }
                    if cut && (ARRAY_HEAD..items.len() - ARRAY_TAIL).contains(&index) {
                        continue;
                    }
                    walk(item, out, depth + 1);
                    if index + 1 < items.len() {
                        out.push(',');
                    }
                }
                out.push(']');
            }
            Value::Object(map) => {
                out.push('{');
                for (index, (key, item)) in map.iter().enumerate() {
                    let _ = write!(
                        out,
                        "{}:",
                        serde_json::Value::String(crate::untrusted(key, CUT_OVER))
                    );
                    walk(item, out, depth + 1);
                    if index + 1 < map.len() {
                        out.push(',');
                    }
                }
                out.push('}');
            }
            other => out.push_str(&crate::untrusted(&other.to_string(), CUT_OVER)),
        }
    }
    let mut out = String::new();
    walk(value, &mut out, 0);
    crate::untrusted(&out, MESSAGE_SHOWN)
}

/// An expected and an actual JSON value as the text report shows them: whole up to
/// [`VALUE_SHOWN`] characters; else both from 16 characters before their first
/// difference, [`VALUE_SHOWN`] characters of each, with where that difference is and
/// their lengths. A message (not JSON) keeps its first and last characters, up to
/// [`MESSAGE_SHOWN`].
pub fn cut_pair(expected: &str, actual: &str) -> (String, String) {
    let is_json = |text: &str| serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
    let long = |text: &str| text.chars().count() > VALUE_SHOWN;
    if !(is_json(expected) && is_json(actual)) || !(long(expected) || long(actual)) {
        return (shown(expected), shown(actual));
    }
    let first = expected
        .chars()
        .zip(actual.chars())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.chars().count().min(actual.chars().count()));
    let start = first.saturating_sub(BEFORE_DIFFERENCE);
    let window = |text: &str| {
        let count = text.chars().count();
        let part: String = text.chars().skip(start).take(VALUE_SHOWN).collect();
        let before = if start > 0 { "…" } else { "" };
        let after = if start + VALUE_SHOWN < count {
            "…"
        } else {
            ""
        };
        format!(
            "{before}{}{after} ({count} chars, first difference at character {})",
            crate::untrusted(&part, VALUE_SHOWN),
            first + 1
        )
    };
    (window(expected), window(actual))
}

/// `text` as the text report shows an expected or actual value: a JSON value cut to
/// [`VALUE_SHOWN`] characters, a message to [`MESSAGE_SHOWN`]; escaped either way.
fn shown(text: &str) -> String {
    if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        return crate::untrusted(text, VALUE_SHOWN);
    }
    let count = text.chars().count();
    if count <= MESSAGE_SHOWN {
        return crate::untrusted(text, MESSAGE_SHOWN);
    }
    // A long message keeps its end too: that is where a crash's stderr is quoted.
    let tail: String = text.chars().skip(count - MESSAGE_TAIL).collect();
    let head: String = text.chars().take(MESSAGE_SHOWN - MESSAGE_TAIL).collect();
    format!(
        "{} … {} ({} bytes)",
        crate::untrusted(&head, MESSAGE_SHOWN),
        crate::untrusted(&tail, MESSAGE_SHOWN),
        text.len()
    )
}

/// How many of a long message's last characters the text report keeps beside its first.
const MESSAGE_TAIL: usize = 120;

impl CheckOutcome {
    /// Whether the check passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// `<protocol>/<name>`, the trial name.
    pub fn full_name(&self) -> String {
        format!("{}/{}", self.protocol, self.name)
    }

    /// The operations this check asked for that the implementation refused (a failure
    /// expecting `an answer` that got `rejected: ...`), each once, in order: what the
    /// check needs and an adapter does not implement yet.
    pub fn refused_operations(&self) -> Vec<String> {
        let mut ops: Vec<String> = Vec::new();
        for failure in &self.failures {
            if failure.expected != "an answer" || !failure.actual.starts_with("rejected:") {
                continue;
            }
            // `build`, or `frame a` for the first of two frames compared.
            let mut words = failure.what.split_whitespace();
            let (Some(op), rest) = (words.next(), words.next()) else {
                continue;
            };
            let named = op
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if named
                && rest.is_none_or(|r| r.len() == 1)
                && words.next().is_none()
                && !ops.iter().any(|o| o == op)
            {
                ops.push(op.to_string());
            }
        }
        ops
    }

    /// Adds the failures of one case, keeping at most [`FAILURES_KEPT`] in all.
    pub fn add_failures(&mut self, failures: Vec<Failure>) {
        for failure in failures {
            if self.failures.len() < FAILURES_KEPT {
                self.failures.push(failure);
            } else {
                self.more_failures += 1;
            }
        }
    }

    /// Every failure, one block each, for a terminal: failures alike (the same
    /// comparison and the same actual text but for its numbers) are folded into the
    /// first of them (`and 94 more cases like it`); every value is cut to
    /// [`VALUE_SHOWN`] characters (a message to [`MESSAGE_SHOWN`]) with its length,
    /// control characters escaped.
    pub fn render_failures(&self) -> String {
        self.render_failures_after(&mut Vec::new())
    }

    /// The earlier checks (named in `seen`) every failure of this one is alike, when
    /// it has no failure of its own to show: its block would only name them.
    fn only_as_in(&self, seen: &[(String, String)]) -> Option<Vec<String>> {
        if self.failures.is_empty() || self.more_failures > 0 || self.crashed {
            return None;
        }
        let mut earlier: Vec<String> = Vec::new();
        for failure in &self.failures {
            let likeness = failure.likeness();
            let (_, name) = seen.iter().find(|(like, _)| *like == likeness)?;
            if !earlier.contains(name) {
                earlier.push(name.clone());
            }
        }
        Some(earlier)
    }

    /// [`CheckOutcome::render_failures`], where a failure alike one in `seen` (shown
    /// under an earlier check, named beside it) is one line naming that check; the
    /// failures shown here are added to `seen`.
    fn render_failures_after(&self, seen: &mut Vec<(String, String)>) -> String {
        let mut out = String::new();
        let mut groups: Vec<(String, &Failure, Vec<&str>)> = Vec::new();
        for failure in &self.failures {
            let likeness = failure.likeness();
            match groups.iter_mut().find(|(like, _, _)| *like == likeness) {
                Some((_, _, more)) => more.push(&failure.case),
                None => groups.push((likeness, failure, Vec::new())),
            }
        }
        let mut referred: Vec<String> = Vec::new();
        let mut shown_kinds = 0;
        let mut hidden = 0;
        for (likeness, failure, more) in &groups {
            if let Some((_, earlier)) = seen.iter().find(|(like, _)| like == likeness) {
                // Two kinds of failure alike the same earlier check: one line says it.
                if referred.contains(earlier) {
                    continue;
                }
                referred.push(earlier.clone());
                let case = crate::untrusted(&failure.case, VALUE_SHOWN);
                let _ = match more.len() {
                    0 => writeln!(out, "  case {case} failed as in {earlier}"),
                    n => writeln!(out, "  case {case} and {n} more failed as in {earlier}"),
                };
                continue;
            }
            // A diagnosis (`first difference ...`) says where an answer went wrong: it is
            // always shown, and does not count against the kinds shown.
            let diagnosis = failure.what.starts_with("first difference");
            if !diagnosis {
                if shown_kinds == KINDS_SHOWN {
                    hidden += 1 + more.len();
                    continue;
                }
                shown_kinds += 1;
            }
            seen.push((likeness.clone(), self.full_name()));
            let case = crate::untrusted(&failure.case, VALUE_SHOWN);
            let _ = writeln!(out, "  case {case}: {}", shown(&failure.what));
            let _ = writeln!(out, "    input:    {}", cut_input(&failure.input));
            let (expected, actual) = cut_pair(&failure.expected, &failure.actual);
            let _ = writeln!(out, "    expected: {expected}");
            let _ = writeln!(out, "    actual:   {actual}");
            if let Some(first) = more.first() {
                let plural = if more.len() == 1 { "case" } else { "cases" };
                let _ = writeln!(
                    out,
                    "    and {} more {plural} like it (from {})",
                    more.len(),
                    crate::untrusted(first, VALUE_SHOWN)
                );
            }
        }
        if hidden > 0 {
            let plural = if hidden == 1 { "failure" } else { "failures" };
            let _ = writeln!(
                out,
                "  and {hidden} more {plural} of other kinds (--format json shows every one)"
            );
        }
        if self.more_failures > 0 {
            let _ = writeln!(
                out,
                "  and {} more failures, not kept (a check keeps {FAILURES_KEPT})",
                self.more_failures
            );
        }
        out
    }
}

/// How the text report lays out its check lines.
struct Layout {
    proto_width: usize,
    width: usize,
    /// Whether failures are shown (not when a diagnosis stands for them all).
    failures: bool,
}

impl Layout {
    /// One check: its line, its notes, its failures (those alike failures in `seen`, shown
    /// under an earlier check, as a line naming it).
    fn check(&self, out: &mut String, check: &CheckOutcome, seen: &mut Vec<(String, String)>) {
        let Layout {
            proto_width, width, ..
        } = *self;
        let status = if check.passed() { "ok    " } else { "FAILED" };
        let plural = if check.cases == 1 { "case" } else { "cases" };
        let level = match check.class {
            Class::Core | Class::Adapter => String::new(),
            class => format!("  ({})", class.name()),
        };
        let _ = writeln!(
            out,
            "{status} {:proto_width$}  {:width$}  {} {plural}{level}",
            check.protocol, check.name, check.cases
        );
        if let Some(inside) = &check.inside_implementation {
            let _ = writeln!(out, "       (inside the implementation: {inside})");
        }
        if check.crashed {
            let _ = writeln!(
                out,
                "       (the adapter ended during this check and was started again)"
            );
        }
        if !check.passed() && self.failures {
            let refused = check.refused_operations();
            if !refused.is_empty() {
                let ops: Vec<String> = refused.iter().map(|op| format!("`{op}`")).collect();
                let _ = writeln!(out, "       (needs {}: refused)", ops.join(", "));
            }
            out.push_str(&check.render_failures_after(seen));
        }
    }

    /// A run of failed checks of one protocol whose failures are all alike those shown
    /// under the checks `earlier`: one check as [`Layout::check`] shows it; several as
    /// one line naming `earlier`, then their names, each with its case count.
    fn folded(
        &self,
        out: &mut String,
        checks: &[&CheckOutcome],
        earlier: &[String],
        seen: &mut Vec<(String, String)>,
    ) {
        match checks {
            [] => {}
            [check] => self.check(out, check, seen),
            [first, ..] => {
                let _ = writeln!(
                    out,
                    "FAILED {:proto_width$}  {} checks, every case failed as in {}:",
                    first.protocol,
                    checks.len(),
                    earlier.join(" and "),
                    proto_width = self.proto_width,
                );
                let mut line = String::from("   ");
                for (i, check) in checks.iter().enumerate() {
                    let plural = if check.cases == 1 { "case" } else { "cases" };
                    let level = match check.class {
                        Class::Core | Class::Adapter => String::new(),
                        class => format!(", {}", class.name()),
                    };
                    let sep = if i + 1 == checks.len() { "" } else { "," };
                    let entry = format!(" {} ({} {plural}{level}){sep}", check.name, check.cases);
                    if line.len() + entry.len() > 100 && line.len() > 3 {
                        let _ = writeln!(out, "{line}");
                        line = String::from("   ");
                    }
                    line.push_str(&entry);
                }
                let _ = writeln!(out, "{line}");
            }
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Figures a run measured, in the order they were recorded (as the seed's report).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Figures(pub Vec<(String, serde_json::Value)>);

impl Figures {
    /// Records (or replaces) one figure.
    pub fn set(&mut self, name: &str, value: impl Serialize) {
        let value = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name.to_string(), value)),
        }
    }
}

/// One figure line of the report: what the implementation gave in this run, beside
/// what the source document published.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FigureLine {
    /// The figure's name.
    pub name: String,
    /// The value the implementation gave in this run; `None` when it gave none.
    pub observed: Option<serde_json::Value>,
    /// The published value, where the source document published one.
    pub published: Option<serde_json::Value>,
    /// Whether both exist and differ.
    pub differs: bool,
}

impl FigureLine {
    /// `name: observed (published p)`, with `DIFFERS` when they differ.
    pub fn render(&self) -> String {
        let observed = self
            .observed
            .as_ref()
            .map_or_else(|| "not observed".to_string(), ToString::to_string);
        match (&self.published, self.differs) {
            (Some(published), true) => {
                format!("{}: {observed} (published {published}) DIFFERS", self.name)
            }
            (Some(published), false) => {
                format!("{}: {observed} (published {published})", self.name)
            }
            (None, _) => format!("{}: {observed}", self.name),
        }
    }
}

/// Where a `--fail-fast` run stopped: after the first failed check that its verdict
/// counts, in report order (the checks before it all ran, as on one thread).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FailedFast {
    /// The failed check, `<protocol>/<name>` (the adapter protocol's own under
    /// `adapter-protocol/`).
    pub check: String,
    /// The checks after it that were not run.
    pub not_run: usize,
}

/// A whole run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// The implementation that was run.
    pub implementation: String,
    /// The version of the spec that was run: the SHA-256 of its files, 64 hex digits
    /// (see `bloomproof_conformance::embedded`); empty when the run did not name one.
    pub spec_version: String,
    /// One outcome per documented check, in spec order.
    pub checks: Vec<CheckOutcome>,
    /// Figure lines per protocol: every value was given by the implementation in this
    /// run.
    pub figures: Vec<(String, Vec<FigureLine>)>,
    /// Number of checks passed among those the verdict counts: core, adapter protocol,
    /// and the classes of [`Report::require`].
    pub passed: usize,
    /// Number of checks failed among those the verdict counts: the verdict (and the
    /// exit status) is this being 0.
    pub failed: usize,
    /// The classes besides core and the adapter protocol that the verdict counts
    /// (`--require`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub require: Vec<Class>,
    /// Each class's counts, in the order of [`Class::ALL`]: every class with a check
    /// in the run.
    #[serde(default)]
    pub classes: Vec<ClassCount>,
    /// Number of the failed checks during which the implementation (an adapter)
    /// ended and was started again.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub crashed: usize,
    /// Why the run stopped before its last check (the adapter did not start, the run
    /// deadline passed), when it did: one paragraph.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// `--fail-fast`: the run stopped after this failed check, and the checks it did
    /// not run; absent when every check ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_fast: Option<FailedFast>,
    /// One paragraph when every answer pointed at one cause (every request answered
    /// `bad_request`), said once in place of the failures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
    /// What the adapter's handshake said (who answers, the protocols it implements);
    /// absent in process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapter: Option<crate::adapter::Started>,
    /// The protocols whose checks were not run because the adapter's handshake does
    /// not list them, each with the number of its checks the run would have held.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_implemented: Vec<NotImplemented>,
    /// The cases left out of the run because the adapter speaks an earlier adapter
    /// protocol than they need, by check (the check not run when they were all of its
    /// cases).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
    /// The run's deadline in seconds (`--deadline`), for runs through an adapter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_secs: Option<f64>,
    /// How long the whole run took, in milliseconds (wall time, checks run on
    /// [`Report::threads`] threads); `None` once [`Report::without_times`] removed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
    /// How many threads ran the checks (1 through an adapter); `None` once
    /// [`Report::without_times`] removed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// The seed of the generated checks' inputs (below 2^53): `--seed` with it draws
    /// the same inputs again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl Report {
    /// Adds an outcome, keeping the totals of its class (and of the verdict, when it
    /// counts the class).
    pub fn push(&mut self, outcome: CheckOutcome) {
        let in_verdict = self.counts(outcome.class);
        let index = match self.classes.iter().position(|c| c.class == outcome.class) {
            Some(index) => index,
            None => {
                self.classes.push(ClassCount {
                    class: outcome.class,
                    passed: 0,
                    failed: 0,
                    in_verdict,
                });
                self.classes.sort_by_key(|c| c.class);
                self.classes
                    .iter()
                    .position(|c| c.class == outcome.class)
                    .unwrap_or_default()
            }
        };
        if let Some(count) = self.classes.get_mut(index) {
            if outcome.passed() {
                count.passed += 1;
            } else {
                count.failed += 1;
            }
        }
        if in_verdict {
            if outcome.passed() {
                self.passed += 1;
            } else {
                self.failed += 1;
            }
        }
        if outcome.crashed {
            self.crashed += 1;
        }
        self.checks.push(outcome);
    }

    /// Whether the verdict counts checks of `class`: core and the adapter protocol
    /// always, the others when [`Report::require`] names them.
    pub fn counts(&self, class: Class) -> bool {
        class.always_counts() || self.require.contains(&class)
    }

    /// The same report with its verdict counting `classes` too (`--require`): the
    /// totals are counted again.
    #[must_use]
    pub fn requiring(mut self, classes: &[Class]) -> Self {
        for class in classes {
            if !class.always_counts() && !self.require.contains(class) {
                self.require.push(*class);
            }
        }
        self.require.sort();
        let (mut passed, mut failed) = (0, 0);
        let require = self.require.clone();
        for count in &mut self.classes {
            count.in_verdict = count.class.always_counts() || require.contains(&count.class);
            if count.in_verdict {
                passed += count.passed;
                failed += count.failed;
            }
        }
        (self.passed, self.failed) = (passed, failed);
        self
    }

    /// The count of `class` in this run (zeros when none of its checks ran).
    pub fn class_count(&self, class: Class) -> ClassCount {
        self.classes
            .iter()
            .find(|c| c.class == class)
            .copied()
            .unwrap_or(ClassCount {
                class,
                passed: 0,
                failed: 0,
                in_verdict: self.counts(class),
            })
    }

    /// The same report without its times (the only part that differs between two
    /// runs of one implementation on one spec), to compare or snapshot reports.
    pub fn without_times(mut self) -> Self {
        self.elapsed_ms = None;
        self.threads = None;
        for check in &mut self.checks {
            check.elapsed_ms = None;
        }
        self
    }

    /// The text report: a line per check (an interop or hardening one marked so; the
    /// adapter protocol's under a heading of their own), failures, figures, the time
    /// (unless [`Report::without_times`] removed it), a count line per class, and
    /// `N passed, M failed` of the checks the verdict counts.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "implementation: {}",
            crate::untrusted(&self.implementation, MESSAGE_SHOWN)
        );
        if !self.spec_version.is_empty() {
            let short = self.spec_version.get(..16).unwrap_or(&self.spec_version);
            let _ = writeln!(out, "spec version: {short}");
        }
        if let Some(started) = &self.adapter {
            let info = &started.implementation;
            let _ = writeln!(
                out,
                "adapter: {} {} ({}), adapter protocol {}, implements {}",
                crate::untrusted(&info.name, 200),
                crate::untrusted(&info.version, 200),
                crate::untrusted(&info.language, 200),
                started.adapter_protocol,
                started.protocols.join(", ")
            );
        }
        for missing in &self.not_implemented {
            let _ = writeln!(
                out,
                "not run: {} ({} checks): the adapter's handshake does not list it",
                missing.protocol, missing.checks
            );
        }
        let speaks = self.adapter.as_ref().map_or(0, |a| a.adapter_protocol);
        for left in &self.left_out {
            let cases = left.cases.join(", ");
            if left.whole {
                let _ = writeln!(
                    out,
                    "not run: {} (cases {cases}): they need adapter protocol {}, the adapter speaks {speaks} (ADAPTER.md \"Changes\")",
                    left.check, left.needs
                );
            } else {
                let _ = writeln!(
                    out,
                    "left out: {} ran without cases {cases}: they need adapter protocol {}, the adapter speaks {speaks} (ADAPTER.md \"Changes\")",
                    left.check, left.needs
                );
            }
        }
        if let Some(deadline) = self.deadline_secs {
            let _ = writeln!(out, "deadline: {deadline} s for the whole run (--deadline)");
        }
        if let Some(diagnosis) = &self.diagnosis {
            let _ = writeln!(out, "{}", crate::untrusted(diagnosis, MESSAGE_SHOWN));
        }
        let width = self.checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let mut seen = Vec::new();
        let proto_width = self
            .checks
            .iter()
            .map(|c| c.protocol.len())
            .max()
            .unwrap_or(0);
        // A run of failed checks of one protocol whose every failure is alike one shown
        // under the same earlier checks is one paragraph: their names, then those checks.
        let layout = Layout {
            proto_width,
            width,
            failures: self.diagnosis.is_none(),
        };
        let mut folded: Vec<&CheckOutcome> = Vec::new();
        let mut folded_as: Vec<String> = Vec::new();
        let mut heading = false;
        for check in &self.checks {
            if check.protocol == ADAPTER_GROUP && !heading {
                heading = true;
                layout.folded(&mut out, &folded, &folded_as, &mut seen);
                folded.clear();
                let _ = writeln!(out, "\n{ADAPTER_HEADING}");
            }
            if self.diagnosis.is_none() {
                match check.only_as_in(&seen) {
                    Some(earlier)
                        if folded.is_empty()
                            || (earlier == folded_as && folded[0].protocol == check.protocol) =>
                    {
                        folded.push(check);
                        folded_as = earlier;
                        continue;
                    }
                    Some(earlier) => {
                        layout.folded(&mut out, &folded, &folded_as, &mut seen);
                        folded = vec![check];
                        folded_as = earlier;
                        continue;
                    }
                    None => {
                        layout.folded(&mut out, &folded, &folded_as, &mut seen);
                        folded.clear();
                    }
                }
            }
            layout.check(&mut out, check, &mut seen);
        }
        layout.folded(&mut out, &folded, &folded_as, &mut seen);
        for (protocol, figures) in &self.figures {
            if figures.is_empty() {
                continue;
            }
            if figures.iter().all(|line| line.observed.is_none()) {
                let _ = writeln!(
                    out,
                    "\nfigures, {protocol}: none of the {} published figures was observed",
                    figures.len()
                );
                continue;
            }
            let _ = writeln!(
                out,
                "\nfigures, {protocol} (as {} answered in this run):",
                self.implementation
            );
            for line in figures {
                let _ = writeln!(out, "  {}", crate::untrusted(&line.render(), MESSAGE_SHOWN));
            }
        }
        out.push('\n');
        // Both times are wall clock: the run's from its start to its end, a check's from
        // its start to its end (checks on several threads overlap, so their times add up
        // to more than the run's, but no one check is longer than the run).
        if let Some(elapsed) = self.elapsed_ms {
            let _ = write!(out, "time: {elapsed:.1} ms wall clock");
            if let Some(threads) = self.threads {
                let plural = if threads == 1 { "thread" } else { "threads" };
                let _ = write!(out, " (checks on {threads} {plural})");
            }
            let slowest = self
                .checks
                .iter()
                .filter_map(|c| c.elapsed_ms.map(|ms| (ms, c)))
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((ms, check)) = slowest {
                let _ = write!(
                    out,
                    "; slowest check: {} {ms:.1} ms wall clock",
                    check.full_name()
                );
            }
            out.push('\n');
        }
        for count in &self.classes {
            let _ = write!(
                out,
                "{}: {} passed, {} failed",
                count.class.heading(),
                count.passed,
                count.failed
            );
            if !count.in_verdict {
                let _ = write!(
                    out,
                    " (not in the verdict: --require {} counts it)",
                    count.class.name()
                );
            }
            out.push('\n');
        }
        if let Some(stopped) = &self.stopped {
            let _ = writeln!(out, "stopped: {}", crate::untrusted(stopped, MESSAGE_SHOWN));
        }
        if let Some(stop) = &self.failed_fast {
            let plural = if stop.not_run == 1 { "check" } else { "checks" };
            let _ = writeln!(
                out,
                "stopped at the first failed check (--fail-fast): {}; {} {plural} after it not run",
                stop.check, stop.not_run
            );
        }
        if self.crashed > 0 {
            let plural = if self.crashed == 1 { "check" } else { "checks" };
            let _ = writeln!(
                out,
                "crashes: the adapter ended during {} {plural} (counted among the failed)",
                self.crashed
            );
        }
        if let Some(seed) = self.seed {
            let _ = writeln!(
                out,
                "generated inputs: seed {seed} (replay with --seed {seed})"
            );
        }
        let _ = writeln!(out, "{} passed, {} failed", self.passed, self.failed);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key that differs and the keys that identify a case stay, whatever the length
    /// of a value beside them: a 64-character prefix of the JSON hid `params` behind a
    /// long `item_hex`.
    #[test]
    fn an_input_keeps_every_key_and_cuts_each_long_value() {
        let input = serde_json::json!({
            "message": {
                "index": 1,
                "item_hex": format!("0041{}ff", "ab".repeat(2000)),
                "params": {"k": 2, "m": 9, "seed_hex": "53"},
            },
            "items": (0..20).collect::<Vec<u32>>(),
        });
        let shown = cut_input(&input);
        assert!(
            shown.contains(r#""params":{"k":2,"m":9,"seed_hex":"53"}"#),
            "{shown}"
        );
        assert!(
            shown.contains(r#""item_hex":"0041abababababab…abababff" (4006 chars)"#),
            "{shown}"
        );
        assert!(
            shown.contains(r#""items":[0,1,2,3,… 14 more …,18,19]"#),
            "{shown}"
        );
        assert!(shown.len() < 200, "{shown}");
    }

    /// Long expected and actual values are shown where they differ, not from their start.
    #[test]
    fn long_expected_and_actual_values_are_cut_around_their_first_difference() {
        let expected = format!("\"{}00{}\"", "ab".repeat(75), "cd".repeat(40));
        let actual = format!("\"{}01{}\"", "ab".repeat(75), "cd".repeat(40));
        let (e, a) = cut_pair(&expected, &actual);
        // The first difference is at character 153 (the quote, 150 digits, "0", then
        // "0" or "1"); both are shown from 16 characters before it.
        assert!(e.starts_with(&format!("…b{}00cd", "ab".repeat(7))), "{e}");
        assert!(a.starts_with(&format!("…b{}01cd", "ab".repeat(7))), "{a}");
        assert!(
            e.ends_with("(234 chars, first difference at character 153)"),
            "{e}"
        );
        // Short values stay whole.
        assert_eq!(
            cut_pair("\"ab\"", "\"ac\""),
            ("\"ab\"".into(), "\"ac\"".into())
        );
    }

    /// A check that met refused operations names them; other failures name none.
    #[test]
    fn refused_operations_are_named_once_each() {
        let failure = |what: &str, expected: &str, actual: &str| Failure {
            case: "c".into(),
            what: what.into(),
            input: serde_json::Value::Null,
            expected: expected.into(),
            actual: actual.into(),
        };
        let check = CheckOutcome {
            protocol: "p".into(),
            name: "n".into(),
            class: Class::Core,
            cases: 3,
            inside_implementation: None,
            failures: vec![
                failure(
                    "build",
                    "an answer",
                    "rejected: bad_request error: not implemented yet: build",
                ),
                failure("frame a", "an answer", "rejected: bad_request error: nope"),
                failure("build", "an answer", "rejected: bad_request error: again"),
                failure("position", "8", "null"),
                failure("lookup", "an answer", "implementation failed: timed out"),
            ],
            more_failures: 0,
            crashed: false,
            elapsed_ms: None,
        };
        assert_eq!(check.refused_operations(), ["build", "frame"]);
    }

    /// A string value is cut the same way wherever it stands.
    #[test]
    fn a_long_string_keeps_its_start_and_end_and_its_length() {
        assert_eq!(cut_string(&"0".repeat(40)), "0".repeat(40));
        let hex = format!("{}ff", "00".repeat(63));
        assert_eq!(cut_string(&hex), "0000000000000000…000000ff (128 chars)");
    }
}
