//! Writing a matrix: `matrix.json`, the page (`index.html`, and `failures.html`, the
//! failures alone, which works without script), `summary.md` and one badge per
//! implementation.
//!
//! The page opens with a summary (who fails what, counted per protocol), then the
//! checks table (each row with what the check asserts and where its rule comes from),
//! the cross-reading grids, and every cell's result, collapsed per implementation. It
//! needs no network and reads from the file; at a narrow width only its tables scroll
//! sideways, never the page; it follows the reader's light or dark scheme.

use bloomproof_wire::cross::{Grid, GridCell};
use bloomproof_wire::matrix::{Cell, ImplementationResult, Matrix, MatrixCheck, Status};
use bloomproof_wire::report::Class;
use std::fmt::Write as _;
use std::path::Path;

/// The file `bloomproof matrix` writes into every folder it writes: it says so, and
/// lists the files written, so that a later run replaces them (and removes a badge no
/// implementation has any more) and nothing else. A folder without it is the user's:
/// the matrix writes into it only when it is empty, or with `--force`.
pub const MARKER: &str = ".bloomproof-matrix";

/// The first line of [`MARKER`]; the files written follow, one a line.
const MARKER_HEAD: &str =
    "Written by `bloomproof matrix`: a later run replaces the files listed below, and no other.";

/// The screenshots `cargo xtask matrix` takes of the page into its folder: an older
/// page's must not pass for a newer one's, so a run removes them (in its own folder).
const SCREENSHOTS: [&str; 4] = [
    "screenshot.png",
    "screenshot-375.png",
    "screenshot-375-light.png",
    "screenshot-375-dark.png",
];

/// Makes `out` ready for a matrix before anything runs: created when missing; an
/// existing folder must be empty, a previous matrix output (it holds [`MARKER`]), or
/// `force` be given. A symbolic link inside it is refused when written, never followed
/// ([`bloomproof_wire::export`]).
pub fn prepare(out: &Path, force: bool) -> Result<(), String> {
    let ours = bloomproof_wire::export::holds_file(out, MARKER);
    bloomproof_wire::export::prepare_folder(out, force || ours).map_err(|err| {
        if err.contains("is not empty") {
            format!(
                "{} is not empty and is not a previous matrix output (it has no {MARKER} file): give a new or empty folder to --out, or --force to write the matrix's files into it (other files are left as they are)",
                out.display()
            )
        } else {
            err
        }
    })
}

/// The files a previous run listed in [`MARKER`] that this run may remove: its badges
/// and the screenshots of its page, nothing else whatever the marker says.
fn removable(out: &Path) -> Vec<String> {
    let text = bloomproof_wire::bounded::read_text(&out.join(MARKER), 1 << 20, "a matrix marker")
        .unwrap_or_default();
    let mut listed: Vec<String> = text
        .lines()
        .skip(1)
        .filter(|line| {
            line.strip_prefix("badges/")
                .and_then(|file| file.strip_suffix(".json"))
                .is_some_and(|name| bloomproof_wire::matrix::check_name(name).is_ok())
        })
        .map(str::to_string)
        .collect();
    listed.extend(SCREENSHOTS.iter().map(|s| (*s).to_string()));
    listed
}

/// Writes `matrix.json`, `index.html`, `failures.html`, `summary.md` and one badge per
/// implementation into `out`, through the checked writer
/// ([`bloomproof_wire::export::write_inside`]: no symbolic link followed), then
/// [`MARKER`]. Files a previous run wrote there and this one did not (a badge of an
/// implementation no longer listed, a screenshot of the older page) are removed; no
/// other file is touched. Call [`prepare`] first, before the run.
pub fn write(out: &Path, matrix: &Matrix) -> Result<(), String> {
    let ours = bloomproof_wire::export::holds_file(out, MARKER);
    let old = if ours { removable(out) } else { Vec::new() };
    let json = serde_json::to_string_pretty(matrix).map_err(|e| e.to_string())?;
    let mut files = vec![
        ("matrix.json".to_string(), json + "\n"),
        ("index.html".to_string(), html(matrix)),
        ("failures.html".to_string(), failures_html(matrix)),
        ("summary.md".to_string(), summary(matrix)),
    ];
    for implementation in &matrix.implementations {
        bloomproof_wire::matrix::check_name(&implementation.name)?;
        let badge =
            serde_json::to_string_pretty(&implementation.badge()).map_err(|e| e.to_string())?;
        files.push((format!("badges/{}.json", implementation.name), badge + "\n"));
    }
    for (name, text) in &files {
        bloomproof_wire::export::write_inside(out, name, text.as_bytes())?;
    }
    for name in old {
        if !files.iter().any(|(written, _)| *written == name) {
            bloomproof_wire::export::remove_inside(out, &name)?;
        }
    }
    let mut marker = format!("{MARKER_HEAD}\n");
    for (name, _) in &files {
        marker.push_str(name);
        marker.push('\n');
    }
    bloomproof_wire::export::write_inside(out, MARKER, marker.as_bytes())
}

fn short(version: &str) -> &str {
    version.get(..16).unwrap_or(version)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One implementation's results in one protocol, counted: the core (or adapter protocol)
/// checks, and the interop and hardening ones apart, class by class.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Core (or adapter protocol) checks of the protocol.
    pub total: usize,
    /// Passed and not listed.
    pub passed: usize,
    /// Failed unexpectedly, or listed but passing (stale).
    pub failed: usize,
    /// Failed and listed as expected failures.
    pub expected: usize,
    /// Not run at all: the implementation could not be started.
    pub errored: usize,
    /// Not in its report though it ran: checks it does not answer (the adapter
    /// protocol's own checks in process, a protocol its handshake does not list).
    pub not_run: usize,
    /// Checks left out whole, and cases left out of checks that ran: they need a later
    /// adapter protocol than the handshake speaks (the latest they need). A check left
    /// out whole is not counted in [`Tally::total`].
    pub left_out: (usize, usize, u32),
    /// The interop and hardening checks of the protocol, apart: (class, passed or
    /// failed as listed, total run), a class only when the protocol has checks of it.
    pub apart: Vec<(Class, usize, usize)>,
    /// Whether a check of a class the matrix requires ([`Matrix::require`]) failed
    /// unexpectedly among [`Tally::apart`].
    pub apart_failed: bool,
}

impl Tally {
    /// Counts `implementation`'s cells among `checks` of `protocol`.
    pub fn of(
        implementation: &ImplementationResult,
        checks: &[MatrixCheck],
        protocol: &str,
        require: &[Class],
    ) -> Self {
        let prefix = format!("{protocol}/");
        let mut tally = Tally::default();
        for check in checks.iter().filter(|c| c.name.starts_with(&prefix)) {
            let cell = implementation.cells.iter().find(|c| c.check == check.name);
            if let Some(left) = implementation
                .left_out
                .iter()
                .find(|l| l.check == check.name)
            {
                let (whole, cases, needs) = &mut tally.left_out;
                *needs = (*needs).max(left.needs);
                if left.whole {
                    *whole += 1;
                    continue;
                }
                *cases += left.cases.len();
            }
            if !check.class.always_counts() {
                let Some(cell) = cell else { continue };
                let index = match tally.apart.iter().position(|(c, ..)| *c == check.class) {
                    Some(index) => index,
                    None => {
                        tally.apart.push((check.class, 0, 0));
                        tally.apart.sort();
                        tally
                            .apart
                            .iter()
                            .position(|(c, ..)| *c == check.class)
                            .unwrap_or_default()
                    }
                };
                if let Some((_, passed, total)) = tally.apart.get_mut(index) {
                    *total += 1;
                    if matches!(cell.status, Status::Passed | Status::ExpectedFailure) {
                        *passed += 1;
                    }
                }
                if cell.status.is_error() && require.contains(&check.class) {
                    tally.apart_failed = true;
                }
                continue;
            }
            tally.total += 1;
            match cell {
                None if implementation.error.is_some() => tally.errored += 1,
                None => tally.not_run += 1,
                Some(cell) => match cell.status {
                    Status::Passed => tally.passed += 1,
                    Status::ExpectedFailure => tally.expected += 1,
                    Status::Stale | Status::Unexpected => tally.failed += 1,
                },
            }
        }
        tally
    }

    /// `16/16 passed`, then whatever else there is: `2 failed`, `1 expected failure`,
    /// `3 errored (not run)`, `interop 3/5`, `hardening 1/1`.
    pub fn text(&self) -> String {
        let (whole, cases, needs) = self.left_out;
        let left_out = [(whole, "check", "checks"), (cases, "case", "cases")]
            .into_iter()
            .filter(|(n, ..)| *n > 0)
            .map(|(n, one, many)| {
                format!(
                    "{} left out (they need adapter protocol {needs})",
                    plural(n, one, many)
                )
            });
        if self.total == 0 && self.apart.is_empty() && whole > 0 {
            return left_out.collect::<Vec<_>>().join(", ");
        }
        if self.total == self.not_run && self.apart.is_empty() {
            let mut parts = vec!["not run (not answered by this implementation)".to_string()];
            parts.extend(left_out);
            return parts.join(", ");
        }
        let mut parts = vec![format!(
            "{}/{} passed",
            self.passed,
            self.total - self.not_run
        )];
        if self.failed > 0 {
            parts.push(format!("{} failed", self.failed));
        }
        if self.expected > 0 {
            parts.push(plural(
                self.expected,
                "expected failure",
                "expected failures",
            ));
        }
        if self.errored > 0 {
            parts.push(format!("{} errored (not run)", self.errored));
        }
        if self.not_run > 0 {
            parts.push(format!(
                "{} not run (not answered by this implementation)",
                self.not_run
            ));
        }
        for (class, passed, total) in &self.apart {
            parts.push(format!("{} {passed}/{total}", class.name()));
        }
        parts.extend(left_out);
        parts.join(", ")
    }

    fn class(&self) -> &'static str {
        if self.total == self.not_run && self.failed == 0 {
            "not_run"
        } else if self.failed > 0 || self.errored > 0 || self.apart_failed {
            "unexpected"
        } else if self.expected > 0 {
            "expected_failure"
        } else {
            "passed"
        }
    }
}

/// The protocols of the checks, in order of first appearance.
fn protocols(matrix: &Matrix) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for check in &matrix.checks {
        let protocol = check.name.split('/').next().unwrap_or_default();
        if !out.contains(&protocol) {
            out.push(protocol);
        }
    }
    out
}

/// `3 failures in 2 of 5 cases`: what a failing cell's numbers count (a case can fail
/// more than one comparison).
fn failure_count(cell: &Cell) -> String {
    let mut cases: Vec<&str> = cell.failures.iter().map(|f| f.case.as_str()).collect();
    cases.sort_unstable();
    cases.dedup();
    format!(
        "{} in {} of {}",
        plural(cell.failures.len(), "failure", "failures"),
        cases.len(),
        plural(cell.cases, "case", "cases")
    )
}

fn cell_mark(cell: &Cell) -> String {
    match cell.status {
        Status::Passed => "pass".to_string(),
        Status::ExpectedFailure => format!("expected failure ({})", failure_count(cell)),
        Status::Stale => "STALE".to_string(),
        Status::Unexpected => format!("FAIL ({})", failure_count(cell)),
    }
}

/// What differs in cross-reading, per grid: the cells that differ.
fn differing(grid: &Grid) -> usize {
    grid.cells.iter().filter(|c| !c.passed).count()
}

/// Text from an implementation, its implementations file or the spec, as `summary.md`
/// shows it: control and invisible characters escaped as the report escapes them
/// ([`bloomproof_wire::untrusted`], so a newline reads `\n` and no line can be forged),
/// cut after `max` characters, and every character Markdown or HTML gives a meaning
/// neutralised (`|` cannot open a table cell, `` ` `` a code span, `*` emphasis, `[` a
/// link, `<` a tag; `_` inside a word, as in check names, is left: it emphasises
/// nothing there).
pub fn markdown(text: &str, max: usize) -> String {
    let shown = bloomproof_wire::untrusted(text, max);
    let mut out = String::with_capacity(shown.len());
    let mut chars = shown.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '|' | '`' | '*' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            // A backslash escapes the punctuation after it: doubled, it is shown.
            '\\' if chars.peek().is_some_and(char::is_ascii_punctuation) => {
                out.push_str("\\\\");
            }
            c => out.push(c),
        }
    }
    out
}

/// The longest text from an implementation `summary.md` and the terminal show whole
/// (a language, a version, an error), in characters.
const SHOWN_MAX: usize = 200;

/// The Markdown summary, `summary.md`. Every text an implementation gave (its
/// handshake's language, name and version; its answers quoted in errors) is escaped by
/// [`markdown`].
pub fn summary(matrix: &Matrix) -> String {
    let md = |text: &str| markdown(text, SHOWN_MAX);
    let mut out = String::new();
    let _ = writeln!(out, "# bloomproof results matrix\n");
    let _ = writeln!(
        out,
        "Spec version `{}`, ran {}. {}\n",
        md(short(&matrix.spec_version)),
        md(&matrix.ran_at),
        if matrix.errors.is_empty() {
            "**Passed.**".to_string()
        } else {
            format!(
                "**Failed: {}.**",
                plural(matrix.errors.len(), "error", "errors")
            )
        }
    );
    let protocols = protocols(matrix);
    let _ = writeln!(
        out,
        "| implementation | language | version | {} | expected failures |",
        protocols
            .iter()
            .map(|p| md(p))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(out, "|---|---|---|{}---|", "---|".repeat(protocols.len()));
    for i in &matrix.implementations {
        let expected: Vec<String> = i
            .cells
            .iter()
            .filter(|c| c.status == Status::ExpectedFailure)
            .map(|c| {
                format!(
                    "{} ({})",
                    md(&c.check),
                    md(c.reason.as_deref().unwrap_or_default())
                )
            })
            .collect();
        let tallies: Vec<String> = protocols
            .iter()
            .map(|p| match &i.error {
                Some(_) => "not run".to_string(),
                None => Tally::of(i, &matrix.checks, p, &matrix.require).text(),
            })
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            md(&i.name),
            md(&i.language),
            md(&i.version),
            tallies.join(" | "),
            if expected.is_empty() {
                "none".to_string()
            } else {
                expected.join("; ")
            }
        );
    }
    let marked: Vec<(&str, &Cell)> = matrix
        .implementations
        .iter()
        .flat_map(|i| i.cells.iter().map(move |c| (i.name.as_str(), c)))
        .filter(|(_, c)| c.status != Status::Passed)
        .collect();
    if !marked.is_empty() {
        let _ = writeln!(out, "\nChecks not passed:\n");
        for (name, cell) in marked {
            let _ = writeln!(
                out,
                "* {}: {}: {}",
                md(name),
                md(&cell.check),
                cell_mark(cell)
            );
        }
    }
    for grid in &matrix.cross {
        let _ = writeln!(
            out,
            "\nCross-reading, {} (rows write, columns read):\n",
            md(&grid.protocol)
        );
        let _ = writeln!(
            out,
            "| written by \\ read by | {} |",
            grid.readers
                .iter()
                .map(|r| md(r))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        let _ = writeln!(out, "|---|{}", "---|".repeat(grid.readers.len()));
        for producer in &grid.producers {
            let marks: Vec<&str> = grid
                .cells
                .iter()
                .filter(|c| &c.producer == producer)
                .map(|c| if c.passed { "equal" } else { "DIFFERS" })
                .collect();
            let _ = writeln!(out, "| {} | {} |", md(producer), marks.join(" | "));
        }
        if !grid.not_run.is_empty() {
            let _ = writeln!(
                out,
                "\nNot run: {} (the handshake does not list {}).",
                grid.not_run.join(", "),
                grid.protocol
            );
        }
    }
    if !matrix.errors.is_empty() {
        let _ = writeln!(out, "\nErrors:\n");
        for error in &matrix.errors {
            let _ = writeln!(out, "* {}", md(error));
        }
    }
    out
}

/// The most errors the terminal lists; the rest are counted, and are in the files.
pub const ERRORS_SHOWN: usize = 10;

/// What `bloomproof matrix` prints on stdout once the matrix is written to `out`: the
/// verdict, one line per implementation (its language and version, its tally per
/// protocol), one per cross-reading grid, and where the whole matrix is. Adapter text
/// is escaped for the terminal ([`bloomproof_wire::untrusted`]); the full tables are
/// `summary.md`'s.
pub fn terminal(matrix: &Matrix, out: &Path) -> String {
    let shown = |text: &str| bloomproof_wire::untrusted(text, SHOWN_MAX);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "bloomproof matrix: {}",
        if matrix.errors.is_empty() {
            "passed: every check as expected, every pair reads each other".to_string()
        } else {
            format!(
                "FAILED: {} (the first below, on stderr)",
                plural(matrix.errors.len(), "error", "errors")
            )
        }
    );
    let protocols = protocols(matrix);
    for i in &matrix.implementations {
        let tallies: Vec<String> = protocols
            .iter()
            .map(|p| match &i.error {
                Some(_) => format!("{}: not run", shown(p)),
                None => format!(
                    "{}: {}",
                    shown(p),
                    Tally::of(i, &matrix.checks, p, &matrix.require).text()
                ),
            })
            .collect();
        let _ = writeln!(
            text,
            "  {} ({}, {}): {}",
            shown(&i.name),
            shown(&i.language),
            shown(&i.version),
            tallies.join("; ")
        );
    }
    for grid in &matrix.cross {
        let _ = writeln!(
            text,
            "  cross-reading {}: {}",
            shown(&grid.protocol),
            match differing(grid) {
                0 => format!("all {} ordered pairs read each other", grid.cells.len()),
                n => format!("{n} of {} ordered pairs differ", grid.cells.len()),
            }
        );
    }
    let _ = writeln!(
        text,
        "the matrix is in {}: index.html (the page), failures.html, summary.md, matrix.json, badges/",
        shown(&out.display().to_string())
    );
    text
}

/// What `bloomproof matrix` prints on stderr when the matrix failed: the first
/// [`ERRORS_SHOWN`] errors, escaped for the terminal and each cut to one line, then how
/// many more there are and where they all are.
pub fn terminal_errors(matrix: &Matrix, out: &Path) -> String {
    let mut text = String::new();
    for error in matrix.errors.iter().take(ERRORS_SHOWN) {
        let _ = writeln!(text, "  {}", bloomproof_wire::untrusted(error, SHOWN_MAX));
    }
    if matrix.errors.len() > ERRORS_SHOWN {
        let _ = writeln!(
            text,
            "  and {} more: every error is in {}",
            matrix.errors.len() - ERRORS_SHOWN,
            bloomproof_wire::untrusted(&out.join("failures.html").display().to_string(), SHOWN_MAX)
        );
    }
    text
}

/// `text` for HTML: the five special characters as entities, and control and invisible
/// characters escaped as the report escapes them (`\u{1b}`).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in bloomproof_wire::untrusted(text, usize::MAX).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fff; --muted: #4a4a4a; --line: #bbb;
  --head: #eef; --pass-bg: #dff3e0; --pass-fg: #0d5b16; --exp-bg: #fff3c4; --exp-fg: #6a4b00;
  --fail-bg: #fbd7d7; --fail-fg: #8a0d0d; --focus: #1a4fd6; --target: #f4f7ff; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e8e8; --bg: #15171a; --muted: #b8b8b8; --line: #555; --head: #252a3a;
    --pass-bg: #143d1a; --pass-fg: #9be3a6; --exp-bg: #463a0c; --exp-fg: #f5d77a;
    --fail-bg: #4d1717; --fail-fg: #ffb3b3; --focus: #8fb1ff; --target: #1e2433; }
}
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 1rem; max-width: 90rem; color: var(--fg); background: var(--bg); }
a { color: var(--focus); }
h1 { font-size: 1.5rem; margin: 0 0 .3rem; }
h2 { margin-top: 1.6rem; font-size: 1.2rem; }
h3 { font-size: 1rem; margin: 0 0 .3rem; overflow-wrap: anywhere; }
p, li { overflow-wrap: anywhere; }
code { font-family: ui-monospace, monospace; font-size: .92em; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; max-width: 100%; position: relative; }
.scroll:focus { outline: 2px solid var(--focus); }
table { border-collapse: collapse; margin: .4rem 0 1rem; }
caption { text-align: left; padding: .3rem 0; color: var(--muted); position: sticky; left: 0; max-width: calc(100vw - 2rem); }
.failure { border-left: 3px solid var(--line); padding: .1rem 0 .1rem .6rem; margin: .5rem 0; }
.failure dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .1rem .6rem; margin: 0; }
.failure dt { color: var(--muted); }
.failure dd { margin: 0; overflow-wrap: anywhere; }
.failure p { margin: .2rem 0 0; color: var(--muted); }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
thead th { background: var(--head); }
th[scope=row] { font-weight: normal; min-width: 11rem; max-width: 26rem; background: var(--bg); }
.checks th[scope=row] { position: sticky; left: 0; z-index: 1; }
.name { font-family: ui-monospace, monospace; font-size: .88em; overflow-wrap: anywhere; }
.asserts { display: block; color: var(--muted); font-size: .85em; margin-top: .15rem; }
.level { font-size: .8em; font-weight: 600; }
.source { display: block; color: var(--muted); font-size: .8em; font-style: italic; }
td a { display: block; text-decoration: none; font-weight: 600; color: inherit; white-space: nowrap; }
td a:focus { outline: 3px solid var(--focus); outline-offset: 1px; }
td a:hover { text-decoration: underline; }
.passed, .equal { background: var(--pass-bg); color: var(--pass-fg); }
.expected_failure { background: var(--exp-bg); color: var(--exp-fg); }
.stale, .unexpected, .differs { background: var(--fail-bg); color: var(--fail-fg); }
.not_run { color: var(--muted); }
.verdict-ok { color: var(--pass-fg); font-weight: 700; }
.verdict-failed { color: var(--fail-fg); font-weight: 700; }
details { margin: .4rem 0; }
summary { cursor: pointer; font-weight: 600; }
.detail { border-top: 1px solid var(--line); padding: .6rem 0; }
.detail:target { background: var(--target); outline: 2px solid var(--focus); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
";

/// Opens the collapsed block that holds the cell a link leads to, where the browser
/// does not do it by itself (a progressive enhancement: `failures.html` needs none).
const SCRIPT: &str = "
function openTarget() {
  const target = location.hash && document.getElementById(location.hash.slice(1));
  for (let node = target; node; node = node.parentElement) {
    if (node.tagName === 'DETAILS') node.open = true;
  }
}
addEventListener('hashchange', openTarget);
openTarget();
";

fn status_class(status: Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::ExpectedFailure => "expected_failure",
        Status::Stale => "stale",
        Status::Unexpected => "unexpected",
    }
}

fn result_id(implementation: usize, check: usize) -> String {
    format!("r-{implementation}-{check}")
}

fn cross_id(grid: usize, cell: usize) -> String {
    format!("x-{grid}-{cell}")
}

/// Which page is written: the whole matrix, or its failures alone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum View {
    All,
    Failures,
}

fn open_scroll(out: &mut String, label: &str) {
    let _ = writeln!(
        out,
        "<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"{}\">",
        escape(label)
    );
}

fn html_head(out: &mut String, title: &str, script: bool) {
    let _ = writeln!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<title>{}</title>\n<style>{STYLE}</style>",
        escape(title)
    );
    if script {
        let _ = writeln!(out, "<script>{SCRIPT}</script>");
    }
    let _ = writeln!(out, "</head>\n<body>");
}

fn failing_cells(matrix: &Matrix) -> usize {
    matrix
        .implementations
        .iter()
        .map(|i| {
            i.cells
                .iter()
                .filter(|c| c.status != Status::Passed)
                .count()
        })
        .sum::<usize>()
        + matrix.cross.iter().map(differing).sum::<usize>()
}

fn html_header(out: &mut String, matrix: &Matrix, view: View) {
    let _ = writeln!(
        out,
        "<header>\n<h1>bloomproof results matrix{}</h1>",
        match view {
            View::All => "",
            View::Failures => ": failures only",
        }
    );
    let verdict = if matrix.errors.is_empty() {
        "<span class=\"verdict-ok\">Passed</span>: every check as expected, every pair reads each other."
            .to_string()
    } else {
        format!(
            "<span class=\"verdict-failed\">Failed</span>: {} (listed below).",
            plural(matrix.errors.len(), "error", "errors")
        )
    };
    let other = match view {
        View::All => format!(
            "<a href=\"failures.html\">Failures only ({})</a>",
            plural(
                failing_cells(matrix),
                "result not passed",
                "results not passed"
            )
        ),
        View::Failures => "<a href=\"index.html\">The whole matrix</a>".to_string(),
    };
    let _ = writeln!(
        out,
        "<p>{verdict} Spec version <code title=\"{}\">{}</code>; ran <time datetime=\"{at}\">{at}</time>.</p>\n<p>{other} · data: <a href=\"matrix.json\">matrix.json</a>, <a href=\"summary.md\">summary.md</a>.</p>\n</header>\n<main>",
        escape(&matrix.spec_version),
        escape(short(&matrix.spec_version)),
        at = escape(&matrix.ran_at),
    );
}

fn html_summary(out: &mut String, matrix: &Matrix) {
    let protocols = protocols(matrix);
    let _ = writeln!(
        out,
        "<section aria-labelledby=\"summary\"><h2 id=\"summary\">Summary</h2>"
    );
    open_scroll(out, "summary by implementation");
    let _ = write!(
        out,
        "<table class=\"summary\">\n<caption>Each implementation's checks per protocol: passed, failed (unexpectedly, or a stale expected failure), expected failures, errored (not run); and its cross-reading.</caption>\n<thead><tr><th scope=\"col\">implementation</th>"
    );
    for protocol in &protocols {
        let _ = write!(
            out,
            "<th scope=\"col\"><code>{}</code></th>",
            escape(protocol)
        );
    }
    let _ = writeln!(
        out,
        "<th scope=\"col\">cross-reading</th><th scope=\"col\">language, version</th></tr></thead>\n<tbody>"
    );
    for (column, i) in matrix.implementations.iter().enumerate() {
        let _ = write!(
            out,
            "<tr id=\"impl-{column}\"><th scope=\"row\"><span class=\"name\">{}</span></th>",
            escape(&i.name)
        );
        for protocol in &protocols {
            match &i.error {
                Some(why) => {
                    let _ = write!(
                        out,
                        "<td class=\"unexpected\">not run: {}</td>",
                        escape(why)
                    );
                }
                None => {
                    let tally = Tally::of(i, &matrix.checks, protocol, &matrix.require);
                    let _ = write!(
                        out,
                        "<td class=\"{}\">{}</td>",
                        tally.class(),
                        escape(&tally.text())
                    );
                }
            }
        }
        let (cells, differ) = matrix
            .cross
            .iter()
            .flat_map(|g| g.cells.iter())
            .filter(|c| c.producer == i.name || c.reader == i.name)
            .fold((0, 0), |(n, d), c| (n + 1, d + usize::from(!c.passed)));
        let unrun: Vec<&str> = matrix
            .cross
            .iter()
            .filter(|g| g.not_run.contains(&i.name))
            .map(|g| g.protocol.as_str())
            .collect();
        let unrun = if unrun.is_empty() {
            String::new()
        } else {
            format!("; {} not run", unrun.join(", "))
        };
        let _ = writeln!(
            out,
            "<td class=\"{}\">{}{}</td><td>{}<br><code>{}</code></td></tr>",
            if differ > 0 { "differs" } else { "equal" },
            if differ > 0 {
                format!("{differ} of the {cells} pairs it wrote or read differ")
            } else {
                format!("equal in all {cells} pairs it wrote or read")
            },
            escape(&unrun),
            escape(&i.language),
            escape(&i.version),
        );
    }
    let _ = writeln!(out, "</tbody>\n</table>\n</div>");
    if !matrix.errors.is_empty() {
        let _ = writeln!(
            out,
            "<details id=\"errors\"><summary>{} that fail the matrix</summary><ul>",
            plural(matrix.errors.len(), "error", "errors")
        );
        for error in &matrix.errors {
            let _ = writeln!(out, "<li><code>{}</code></li>", escape(error));
        }
        let _ = writeln!(out, "</ul></details>");
    }
    let _ = writeln!(out, "</section>");
}

fn check_header(check: &MatrixCheck) -> String {
    format!(
        "<th scope=\"row\"><span class=\"name\">{}</span>{}<span class=\"asserts\">{}</span><span class=\"source\">Source: {}</span></th>",
        escape(&check.name),
        match check.class {
            Class::Core | Class::Adapter => String::new(),
            class => format!(
                " <span class=\"level\">({}: counted apart)</span>",
                class.name()
            ),
        },
        escape(&check.asserts),
        escape(&check.source)
    )
}

fn html_results(out: &mut String, matrix: &Matrix, view: View) {
    let rows: Vec<(usize, &MatrixCheck)> = matrix
        .checks
        .iter()
        .enumerate()
        .filter(|(_, check)| {
            view == View::All
                || matrix.implementations.iter().any(|i| {
                    i.error.is_some()
                        || i.cells
                            .iter()
                            .any(|c| c.check == check.name && c.status != Status::Passed)
                })
        })
        .collect();
    let _ = writeln!(
        out,
        "<section aria-labelledby=\"checks\"><h2 id=\"checks\">Checks</h2>"
    );
    if rows.is_empty() {
        let _ = writeln!(
            out,
            "<p>Every check passed for every implementation.</p></section>"
        );
        return;
    }
    open_scroll(out, "checks by implementation");
    let _ = write!(
        out,
        "<table class=\"checks\">\n<caption>{} One column per implementation; each cell links to the check's result for it: its cases, and for a failure each case with its inputs, the expected and the actual value.</caption>\n<thead><tr><th scope=\"col\">check</th>",
        match view {
            View::All => "One row per documented check.",
            View::Failures => "The checks some implementation did not pass.",
        }
    );
    for i in &matrix.implementations {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(&i.name));
    }
    let _ = writeln!(out, "</tr></thead>\n<tbody>");
    for (row, check) in rows {
        let _ = write!(out, "<tr>{}", check_header(check));
        for (column, i) in matrix.implementations.iter().enumerate() {
            let id = result_id(column, row);
            match i.cells.iter().find(|c| c.check == check.name) {
                Some(cell) => {
                    let _ = write!(
                        out,
                        "<td class=\"{}\"><a href=\"#{id}\" data-cell=\"{id}\">{}<span class=\"visually-hidden\">: {} on {}</span></a></td>",
                        status_class(cell.status),
                        escape(&cell_mark(cell)),
                        escape(&i.name),
                        escape(&check.name),
                    );
                }
                None => {
                    let _ = write!(
                        out,
                        "<td class=\"{}\"><a href=\"#impl-{column}\" data-cell=\"{id}\">not run<span class=\"visually-hidden\">: {} on {}</span></a></td>",
                        if i.error.is_some() {
                            "unexpected"
                        } else {
                            "not_run"
                        },
                        escape(&i.name),
                        escape(&check.name),
                    );
                }
            }
        }
        let _ = writeln!(out, "</tr>");
    }
    let _ = writeln!(out, "</tbody>\n</table>\n</div>\n</section>");
}

fn html_cross(out: &mut String, matrix: &Matrix, view: View) {
    let grids: Vec<(usize, &Grid)> = matrix
        .cross
        .iter()
        .enumerate()
        .filter(|(_, grid)| view == View::All || differing(grid) > 0)
        .collect();
    let _ = writeln!(
        out,
        "<section aria-labelledby=\"cross\"><h2 id=\"cross\">Cross-reading</h2>\n<p>For every ordered pair, what the row's implementation wrote (a <code>doc-membership-v1</code> snapshot it built, an <code>fnv1a-utf16-v1</code> session it exported) is read by the column's implementation, whose answers must equal the writer's (and, for snapshots, the oracle's). Each cell links to what was compared and what differed.</p>"
    );
    if grids.is_empty() {
        let _ = writeln!(out, "<p>Every pair reads each other.</p></section>");
        return;
    }
    for (g, grid) in grids {
        open_scroll(out, &format!("cross-reading of {}", grid.protocol));
        let _ = write!(
            out,
            "<table>\n<caption><code>{}</code>: rows wrote, columns read</caption>\n<thead><tr><th scope=\"col\">written by \\ read by</th>",
            escape(&grid.protocol)
        );
        for reader in &grid.readers {
            let _ = write!(out, "<th scope=\"col\">{}</th>", escape(reader));
        }
        let _ = writeln!(out, "</tr></thead>\n<tbody>");
        for producer in &grid.producers {
            let _ = write!(
                out,
                "<tr><th scope=\"row\"><span class=\"name\">{}</span></th>",
                escape(producer)
            );
            for (c, cell) in grid.cells.iter().enumerate() {
                if &cell.producer != producer {
                    continue;
                }
                let (class, mark) = if cell.passed {
                    ("equal", "equal".to_string())
                } else {
                    (
                        "differs",
                        format!("differs ({})", cell.differences.len() + cell.more),
                    )
                };
                let _ = write!(
                    out,
                    "<td class=\"{class}\"><a href=\"#{id}\" data-cell=\"{id}\">{mark}<span class=\"visually-hidden\">: {} read by {}</span></a></td>",
                    escape(&cell.producer),
                    escape(&cell.reader),
                    id = cross_id(g, c),
                );
            }
            let _ = writeln!(out, "</tr>");
        }
        let _ = writeln!(out, "</tbody>\n</table>\n</div>");
        if !grid.not_run.is_empty() {
            let _ = writeln!(
                out,
                "<p>Not run: {} (the handshake does not list <code>{}</code>).</p>",
                escape(&grid.not_run.join(", ")),
                escape(&grid.protocol)
            );
        }
    }
    let _ = writeln!(out, "</section>");
}

/// How many kinds of failure (failures not alike) a cell's details show in full; the
/// rest are counted (`matrix.json` has every one), so a failing check stays a screen
/// or two, as it does in the terminal.
const KINDS_SHOWN: usize = bloomproof_wire::report::KINDS_SHOWN;

/// One failure (or difference), stacked: each field on its line, name then value, so
/// that the expected and the actual value are in view at any width; every value cut as
/// the terminal cuts it. `alike`: how many more failures like it were folded into it.
fn html_failure(out: &mut String, fields: &[(&str, String)], alike: usize) {
    let _ = write!(out, "<div class=\"failure\"><dl>");
    for (name, value) in fields {
        let _ = write!(
            out,
            "<dt>{name}</dt><dd><code>{}</code></dd>",
            escape(value)
        );
    }
    let _ = write!(out, "</dl>");
    if alike > 0 {
        let _ = write!(
            out,
            "<p>and {} like it</p>",
            plural(alike, "more failure", "more failures")
        );
    }
    let _ = writeln!(out, "</div>");
}

fn html_cell(out: &mut String, id: &str, implementation: &ImplementationResult, cell: &Cell) {
    let _ = writeln!(
        out,
        "<section class=\"detail\" id=\"{id}\" tabindex=\"-1\"><h3>{} on <code>{}</code>: {}</h3>",
        escape(&implementation.name),
        escape(&cell.check),
        escape(&cell_mark(cell))
    );
    let _ = write!(out, "<p>{} run", plural(cell.cases, "case", "cases"));
    if !cell.failures.is_empty() {
        let _ = write!(
            out,
            "; {} (a case fails once per comparison that differs)",
            failure_count(cell)
        );
    }
    if let Some(reason) = &cell.reason {
        let _ = write!(out, "; listed as an expected failure: {}", escape(reason));
    }
    if cell.status == Status::Stale {
        let _ = write!(out, ". It passed: the entry is stale, remove it");
    }
    let _ = writeln!(out, ".</p>");
    let folded = bloomproof_wire::report::fold(&cell.failures);
    for (failure, alike) in folded.iter().take(KINDS_SHOWN) {
        let (expected, actual) =
            bloomproof_wire::report::cut_pair(&failure.expected, &failure.actual);
        html_failure(
            out,
            &[
                ("case", bloomproof_wire::untrusted(&failure.case, SHOWN_MAX)),
                ("what", bloomproof_wire::report::shown_value(&failure.what)),
                ("input", bloomproof_wire::report::cut_input(&failure.input)),
                ("expected", expected),
                ("actual", actual),
            ],
            *alike,
        );
    }
    let hidden: usize = folded
        .iter()
        .skip(KINDS_SHOWN)
        .map(|(_, alike)| 1 + alike)
        .sum();
    if hidden > 0 {
        let _ = writeln!(
            out,
            "<p>And {} of other kinds: <a href=\"matrix.json\">matrix.json</a> has every one.</p>",
            plural(hidden, "more failure", "more failures")
        );
    }
    let _ = writeln!(out, "</section>");
}

fn html_cross_cell(out: &mut String, id: &str, grid: &Grid, cell: &GridCell) {
    let _ = writeln!(
        out,
        "<section class=\"detail\" id=\"{id}\" tabindex=\"-1\"><h3><code>{}</code> written by {}, read by {}: {}</h3><p>{} values compared{}.</p>",
        escape(&grid.protocol),
        escape(&cell.producer),
        escape(&cell.reader),
        if cell.passed { "equal" } else { "differs" },
        cell.compared,
        if cell.more > 0 {
            format!("; {} more differences not shown", cell.more)
        } else {
            String::new()
        }
    );
    for difference in cell.differences.iter().take(KINDS_SHOWN) {
        let (expected, actual) =
            bloomproof_wire::report::cut_pair(&difference.expected, &difference.actual);
        html_failure(
            out,
            &[
                (
                    "case",
                    bloomproof_wire::untrusted(&difference.case, SHOWN_MAX),
                ),
                (
                    "what",
                    bloomproof_wire::report::shown_value(&difference.what),
                ),
                ("expected", expected),
                ("actual", actual),
            ],
            0,
        );
    }
    if cell.differences.len() > KINDS_SHOWN {
        let _ = writeln!(
            out,
            "<p>And {}: <a href=\"matrix.json\">matrix.json</a> has every one.</p>",
            plural(
                cell.differences.len() - KINDS_SHOWN,
                "more difference",
                "more differences"
            )
        );
    }
    let _ = writeln!(out, "</section>");
}

/// Every cell's result, one collapsed block per implementation (a link to a cell opens
/// its block); on the failures page, the failing cells alone, open.
fn html_details(out: &mut String, matrix: &Matrix, view: View) {
    let _ = writeln!(
        out,
        "<section aria-labelledby=\"details\"><h2 id=\"details\">{}</h2>",
        match view {
            View::All => "Results, by implementation",
            View::Failures => "Failures, by implementation",
        }
    );
    for (column, i) in matrix.implementations.iter().enumerate() {
        let shown: Vec<(usize, &Cell)> = i
            .cells
            .iter()
            .filter(|c| view == View::All || c.status != Status::Passed)
            .map(|cell| {
                let row = matrix
                    .checks
                    .iter()
                    .position(|c| c.name == cell.check)
                    .unwrap_or(usize::MAX);
                (row, cell)
            })
            .collect();
        if shown.is_empty() && i.error.is_none() {
            continue;
        }
        let not_passed = i
            .cells
            .iter()
            .filter(|c| c.status != Status::Passed)
            .count();
        let _ = writeln!(
            out,
            "<details id=\"details-{column}\"{}><summary>{}: {}</summary>",
            if view == View::Failures { " open" } else { "" },
            escape(&i.name),
            match &i.error {
                Some(why) => format!("not run: {}", escape(why)),
                None if not_passed == 0 => format!("all {} checks passed", i.cells.len()),
                None => format!(
                    "{} of {} not passed",
                    plural(not_passed, "check", "checks"),
                    i.cells.len()
                ),
            }
        );
        for (row, cell) in shown {
            html_cell(out, &result_id(column, row), i, cell);
        }
        let _ = writeln!(out, "</details>");
    }
    for (g, grid) in matrix.cross.iter().enumerate() {
        let shown: Vec<(usize, &GridCell)> = grid
            .cells
            .iter()
            .enumerate()
            .filter(|(_, c)| view == View::All || !c.passed)
            .collect();
        if shown.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "<details id=\"cross-details-{g}\"{}><summary>cross-reading, <code>{}</code>: {}</summary>",
            if view == View::Failures { " open" } else { "" },
            escape(&grid.protocol),
            match differing(grid) {
                0 => format!("all {} pairs equal", grid.cells.len()),
                n => format!("{n} of {} pairs differ", grid.cells.len()),
            }
        );
        for (c, cell) in shown {
            html_cross_cell(out, &cross_id(g, c), grid, cell);
        }
        let _ = writeln!(out, "</details>");
    }
    let _ = writeln!(out, "</section>");
}

fn page(matrix: &Matrix, view: View) -> String {
    let mut out = String::new();
    html_head(
        &mut out,
        match view {
            View::All => "bloomproof results matrix",
            View::Failures => "bloomproof results matrix: failures only",
        },
        view == View::All,
    );
    html_header(&mut out, matrix, view);
    html_summary(&mut out, matrix);
    html_results(&mut out, matrix, view);
    html_cross(&mut out, matrix, view);
    html_details(&mut out, matrix, view);
    let _ = writeln!(out, "</main>\n</body>\n</html>");
    out
}

/// The page, `index.html`: no network, readable from the file.
pub fn html(matrix: &Matrix) -> String {
    page(matrix, View::All)
}

/// `failures.html`: the summary, the checks and pairs some implementation did not
/// pass, and their failures, open; no script.
pub fn failures_html(matrix: &Matrix) -> String {
    page(matrix, View::Failures)
}
