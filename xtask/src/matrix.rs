//! `cargo xtask matrix`: the suite against every implementation of
//! `vectors/check/implementations.json`, in parallel, then cross-reading among them
//! (`bloomproof_conformance::cross`); writes `target/matrix/` (`index.html`,
//! `matrix.json`, `summary.md`, `badges/<name>.json`) and tests the page in Chromium
//! (`xtask/matrix/matrix.test.mjs`, which keeps `target/matrix/screenshot.png`).
//!
//! Fails (and names implementation, check and case) on an unexpected failure, a stale
//! expected failure, an implementation that cannot be run, a cross-reading cell that
//! differs, or a page test that fails.

use bloomproof_conformance::cross::{self, ExportedSession};
use bloomproof_conformance::matrix::{
    Cell, ImplementationResult, Implementations, Matrix, Status, judge,
};
use bloomproof_conformance::run::{Subjects, run as run_suite};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The implementations file, relative to the repository's root.
pub const IMPLEMENTATIONS: &str = "vectors/check/implementations.json";

/// What `{bloomproof}` stands for in a command.
const BINARY_WORD: &str = "{bloomproof}";

/// What `{target}` stands for in a `--session-from` file: the cargo target folder
/// (`target/`, or `$CARGO_TARGET_DIR`), where `cargo xtask e2e` writes the explorer's
/// export (`{target}/e2e/explorer-session.json`).
const TARGET_WORD: &str = "{target}";

/// The longest a version command may take.
const VERSION_LIMIT: Duration = Duration::from_secs(20);

const USAGE: &str = "usage: cargo xtask matrix [--implementations FILE] [--session-from NAME=FILE]... \
[--timeout SECS] [--no-browser]";

/// The options of one matrix run.
#[derive(Debug)]
pub struct Options {
    /// The implementations file.
    pub implementations: PathBuf,
    /// Extra session producers: (name, file of `{"export", "view"}`).
    pub sessions: Vec<(String, PathBuf)>,
    /// Per adapter request.
    pub timeout: Duration,
    /// Whether to test the page in Chromium.
    pub browser: bool,
}

fn parse(args: &[String], root: &Path) -> Result<Options, String> {
    let mut options = Options {
        implementations: root.join(IMPLEMENTATIONS),
        sessions: Vec::new(),
        timeout: bloomproof_conformance::adapter::DEFAULT_TIMEOUT,
        browser: true,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{flag} takes a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--implementations" => options.implementations = PathBuf::from(value(arg)?),
            "--session-from" => {
                let given = value(arg)?;
                let (name, file) = given.split_once('=').ok_or_else(|| {
                    format!("--session-from takes NAME=FILE, got {given:?}\n{USAGE}")
                })?;
                if name.is_empty() || file.is_empty() {
                    return Err(format!("--session-from takes NAME=FILE, got {given:?}"));
                }
                options
                    .sessions
                    .push((name.to_string(), PathBuf::from(file)));
            }
            "--timeout" => {
                options.timeout = bloomproof_conformance::adapter::parse_timeout(&value(arg)?)?;
            }
            "--no-browser" => options.browser = false,
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(options)
}

/// Runs the matrix.
pub fn run(args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let root = super::root();
    let options = parse(args, &root)?;
    let binary = crate::gallery::build(&root)?;
    let matrix = compute(&root, &binary, &options)?;
    let out = crate::gallery::target_dir(&root).join("matrix");
    write(&out, &matrix)?;
    print!("{}", summary(&matrix));
    println!("wrote {}", out.display());
    if options.browser {
        page_test(&root, &out)?;
    }
    println!(
        "matrix: {} implementations, {} checks, cross-reading {}, in {:.0}s",
        matrix.implementations.len(),
        matrix.checks.len(),
        matrix
            .cross
            .iter()
            .map(|g| format!("{}x{} {}", g.producers.len(), g.readers.len(), g.protocol))
            .collect::<Vec<_>>()
            .join(", "),
        started.elapsed().as_secs_f64()
    );
    if matrix.errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the matrix failed ({} errors):\n  {}",
            matrix.errors.len(),
            matrix.errors.join("\n  ")
        ))
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs every implementation of the file and cross-reading among them, from the
/// repository's root (adapter commands are relative to it).
pub fn compute(root: &Path, binary: &Path, options: &Options) -> Result<Matrix, String> {
    let spec_dir = root.join("spec");
    let mut spec = bloomproof_conformance::load(&spec_dir).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("the spec did not load:\n  {}", lines.join("\n  "))
    })?;
    // The vector files run through every implementation as checks `<protocol>/vectors.<kind>`.
    spec.vectors = bloomproof_conformance::vectors::load(&root.join("vectors"))
        .map_err(|errors| format!("the vectors did not load:\n  {}", errors.join("\n  ")))?;
    let spec_version = bloomproof_conformance::embedded::files_in(&spec_dir)
        .map(|files| bloomproof_conformance::embedded::version(&files))?;
    let checks: Vec<String> = spec
        .protocols
        .iter()
        .flat_map(|p| {
            p.checks
                .iter()
                .map(|c| format!("{}/{}", p.protocol, c.name))
        })
        .collect();
    let origin = options.implementations.display().to_string();
    let list = Implementations::parse(&read(&options.implementations)?, &origin)?;
    let mut files = Vec::new();
    let target = crate::gallery::target_dir(root).display().to_string();
    for (name, path) in &options.sessions {
        let path = PathBuf::from(path.to_string_lossy().replace(TARGET_WORD, &target));
        let session: ExportedSession = serde_json::from_str(&read(&path)?)
            .map_err(|e| format!("--session-from {name}={}: {e}", path.display()))?;
        files.push((name.clone(), session));
    }
    std::env::set_current_dir(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let quoted = crate::gallery::shell_quote(&binary.display().to_string());
    let expand = |command: &str| command.replace(BINARY_WORD, &quoted);
    let subjects = |command: &Option<String>| match command {
        None => Ok(Subjects::rust()),
        Some(command) => Subjects::adapter(&expand(command), options.timeout),
    };

    let jobs = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(list.implementations.len());
    let claimed = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let index = claimed.fetch_add(1, Ordering::SeqCst);
                    let Some(implementation) = list.implementations.get(index) else {
                        break;
                    };
                    let began = Instant::now();
                    let version = version(&expand(&implementation.version));
                    let mut result = ImplementationResult {
                        name: implementation.name.clone(),
                        language: implementation.language.clone(),
                        command: implementation.command.clone(),
                        version,
                        report_name: String::new(),
                        passed: 0,
                        total: 0,
                        cells: Vec::new(),
                        error: None,
                    };
                    let mut errors = Vec::new();
                    match subjects(&implementation.command) {
                        Ok(mut subjects) => {
                            let report = run_suite(&spec, &mut subjects, None);
                            let (cells, found) = judge(implementation, &report, &checks);
                            result.report_name = report.implementation;
                            result.passed = report.passed;
                            result.total = report.checks.len();
                            result.cells = cells;
                            errors = found;
                        }
                        Err(why) => {
                            errors.push(format!("{}: cannot be run: {why}", implementation.name));
                            result.error = Some(why);
                        }
                    }
                    println!(
                        "matrix: {} {}/{} in {:.1}s",
                        result.name,
                        result.passed,
                        result.total,
                        began.elapsed().as_secs_f64()
                    );
                    if let Ok(mut results) = results.lock() {
                        results.push((index, result, errors));
                    }
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(index, _, _)| *index);
    let mut errors = Vec::new();
    let mut implementations = Vec::new();
    for (_, result, found) in results {
        errors.extend(found);
        implementations.push(result);
    }

    let mut participants = Vec::new();
    for implementation in &list.implementations {
        match subjects(&implementation.command) {
            Ok(subjects) => participants.push((implementation.name.clone(), subjects)),
            Err(why) => errors.push(format!(
                "{}: cannot be run for cross-reading: {why}",
                implementation.name
            )),
        }
    }
    let began = Instant::now();
    let grids = cross::run(&mut participants, &files);
    drop(participants);
    println!(
        "matrix: cross-reading in {:.1}s",
        began.elapsed().as_secs_f64()
    );
    errors.extend(cross::errors(&grids));
    Ok(Matrix {
        spec_version,
        ran_at: now_utc(),
        checks,
        implementations,
        cross: grids,
        errors,
    })
}

/// The first line a version command prints, or why there is none.
fn version(command: &str) -> String {
    let child = Command::new("sh")
        .args(["-c", command])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return format!("unknown (cannot run {command:?}: {e})"),
    };
    let began = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if began.elapsed() < VERSION_LIMIT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => {
                crate::gallery::kill(&mut child);
                let _ = child.wait();
                return format!("unknown ({command:?} did not finish)");
            }
        }
    }
    match child.wait_with_output() {
        Ok(output) => {
            let text = String::from_utf8_lossy(&output.stdout);
            match text.lines().map(str::trim).find(|l| !l.is_empty()) {
                Some(line) if output.status.success() => line.chars().take(200).collect(),
                _ => format!("unknown ({command:?}: {})", output.status),
            }
        }
        Err(e) => format!("unknown ({command:?}: {e})"),
    }
}

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`.
fn now_utc() -> String {
    rfc3339(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    )
}

/// Seconds since 1970 in UTC as `YYYY-MM-DDTHH:MM:SSZ` (days to a civil date after
/// Howard Hinnant's `civil_from_days`).
fn rfc3339(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rest = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

// ------------------------------------------------------------------ writing

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `matrix.json`, `index.html`, `summary.md` and one badge per implementation
/// into `out` (the badges folder is emptied first, so no old badge stays).
pub fn write(out: &Path, matrix: &Matrix) -> Result<(), String> {
    let json = serde_json::to_string_pretty(matrix).map_err(|e| e.to_string())?;
    write_file(&out.join("matrix.json"), &(json + "\n"))?;
    write_file(&out.join("index.html"), &html(matrix))?;
    write_file(&out.join("summary.md"), &summary(matrix))?;
    // The screenshot of an older page must not pass for this one's.
    let screenshot = out.join("screenshot.png");
    if screenshot.is_file() {
        std::fs::remove_file(&screenshot).map_err(|e| format!("{}: {e}", screenshot.display()))?;
    }
    let badges = out.join("badges");
    if badges.is_dir() {
        std::fs::remove_dir_all(&badges).map_err(|e| format!("{}: {e}", badges.display()))?;
    }
    for implementation in &matrix.implementations {
        let badge =
            serde_json::to_string_pretty(&implementation.badge()).map_err(|e| e.to_string())?;
        write_file(
            &badges.join(format!("{}.json", implementation.name)),
            &(badge + "\n"),
        )?;
    }
    Ok(())
}

fn short(version: &str) -> &str {
    version.get(..16).unwrap_or(version)
}

fn cell_mark(cell: &Cell) -> String {
    match cell.status {
        Status::Passed => "pass".to_string(),
        Status::ExpectedFailure => format!("expected failure ({})", cell.failures.len()),
        Status::Stale => "STALE".to_string(),
        Status::Unexpected => format!("FAIL ({})", cell.failures.len()),
    }
}

/// The Markdown summary (also printed).
pub fn summary(matrix: &Matrix) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# bloomproof results matrix\n");
    let _ = writeln!(
        out,
        "Spec version `{}`, ran {}. {}\n",
        short(&matrix.spec_version),
        matrix.ran_at,
        if matrix.errors.is_empty() {
            "**Passed.**".to_string()
        } else {
            format!("**Failed: {} errors.**", matrix.errors.len())
        }
    );
    let _ = writeln!(
        out,
        "| implementation | language | version | checks | expected failures |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    for i in &matrix.implementations {
        let expected: Vec<String> = i
            .cells
            .iter()
            .filter(|c| c.status == Status::ExpectedFailure)
            .map(|c| format!("{} ({})", c.check, c.reason.as_deref().unwrap_or_default()))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            i.name,
            i.language,
            i.version.replace('|', "\\|"),
            i.error
                .as_ref()
                .map_or_else(|| format!("{}/{}", i.passed, i.total), |_| "not run".into()),
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
            let _ = writeln!(out, "* {name}: {}: {}", cell.check, cell_mark(cell));
        }
    }
    for grid in &matrix.cross {
        let _ = writeln!(
            out,
            "\nCross-reading, {} (rows write, columns read):\n",
            grid.protocol
        );
        let _ = writeln!(
            out,
            "| written by \\ read by | {} |",
            grid.readers.join(" | ")
        );
        let _ = writeln!(out, "|---|{}", "---|".repeat(grid.readers.len()));
        for producer in &grid.producers {
            let marks: Vec<&str> = grid
                .cells
                .iter()
                .filter(|c| &c.producer == producer)
                .map(|c| if c.passed { "equal" } else { "DIFFERS" })
                .collect();
            let _ = writeln!(out, "| {producer} | {} |", marks.join(" | "));
        }
    }
    if !matrix.errors.is_empty() {
        let _ = writeln!(out, "\nErrors:\n");
        for error in &matrix.errors {
            let _ = writeln!(out, "* {error}");
        }
    }
    out
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
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
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #1b1b1b; background: #fff; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { margin-top: 2rem; font-size: 1.25rem; }
h3 { font-size: 1.05rem; margin: 0 0 .3rem; }
code { font-family: ui-monospace, monospace; font-size: .92em; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
caption { text-align: left; padding: .3rem 0; color: #444; }
th, td { border: 1px solid #bbb; padding: .25rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #eef; }
th[scope=row] { font-weight: normal; font-family: ui-monospace, monospace; font-size: .88em; }
td a { display: block; text-decoration: none; font-weight: 600; color: inherit; }
td a:focus { outline: 3px solid #1a4fd6; outline-offset: 1px; }
td a:hover { text-decoration: underline; }
.passed { background: #dff3e0; }
.passed a { color: #0d5b16; }
.expected_failure { background: #fff3c4; }
.expected_failure a { color: #6a4b00; }
.stale, .unexpected, .differs { background: #fbd7d7; }
.stale a, .unexpected a, .differs a { color: #8a0d0d; }
.equal { background: #dff3e0; }
.equal a { color: #0d5b16; }
.verdict-ok { color: #0d5b16; font-weight: 700; }
.verdict-failed { color: #8a0d0d; font-weight: 700; }
.detail { border-top: 1px solid #ddd; padding: .6rem 0; }
.detail:target { background: #f4f7ff; outline: 2px solid #1a4fd6; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
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

fn html_results(out: &mut String, matrix: &Matrix) {
    let _ = writeln!(
        out,
        "<section aria-labelledby=\"checks\"><h2 id=\"checks\">Checks</h2>\n<table>\n<caption>One row per documented check, one column per implementation. Each cell links to the check's result for that implementation: its cases, and for a failure each case with its inputs, the expected and the actual value.</caption>\n<thead><tr><th scope=\"col\">check</th>"
    );
    for i in &matrix.implementations {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(&i.name));
    }
    let _ = writeln!(out, "</tr></thead>\n<tbody>");
    for (row, check) in matrix.checks.iter().enumerate() {
        let _ = write!(out, "<tr><th scope=\"row\">{}</th>", escape(check));
        for (column, i) in matrix.implementations.iter().enumerate() {
            match i.cells.iter().find(|c| &c.check == check) {
                Some(cell) => {
                    let _ = write!(
                        out,
                        "<td class=\"{}\"><a href=\"#{id}\" data-cell=\"{id}\">{}<span class=\"visually-hidden\">: {} on {}</span></a></td>",
                        status_class(cell.status),
                        escape(&cell_mark(cell)),
                        escape(&i.name),
                        escape(check),
                        id = result_id(column, row),
                    );
                }
                None => {
                    let _ = write!(
                        out,
                        "<td class=\"unexpected\"><a href=\"#impl-{column}\" data-cell=\"{}\">not run<span class=\"visually-hidden\">: {} on {}</span></a></td>",
                        result_id(column, row),
                        escape(&i.name),
                        escape(check),
                    );
                }
            }
        }
        let _ = writeln!(out, "</tr>");
    }
    let _ = writeln!(out, "</tbody>\n</table>\n</section>");
}

fn html_cross(out: &mut String, matrix: &Matrix) {
    let _ = writeln!(
        out,
        "<section aria-labelledby=\"cross\"><h2 id=\"cross\">Cross-reading</h2>\n<p>For every ordered pair, what the row's implementation wrote (a <code>doc-membership-v1</code> snapshot it built, an <code>fnv1a-utf16-v1</code> session it exported) is read by the column's implementation, whose answers must equal the writer's (and, for snapshots, the oracle's). Each cell links to what was compared and what differed.</p>"
    );
    for (g, grid) in matrix.cross.iter().enumerate() {
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
            let _ = write!(out, "<tr><th scope=\"row\">{}</th>", escape(producer));
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
        let _ = writeln!(out, "</tbody>\n</table>");
    }
    let _ = writeln!(out, "</section>");
}

fn html_failure_table(out: &mut String, rows: &[Vec<String>], head: &[&str]) {
    if rows.is_empty() {
        return;
    }
    let _ = write!(out, "<table><thead><tr>");
    for h in head {
        let _ = write!(out, "<th scope=\"col\">{h}</th>");
    }
    let _ = writeln!(out, "</tr></thead><tbody>");
    for row in rows {
        let _ = write!(out, "<tr>");
        for (index, value) in row.iter().enumerate() {
            if index == 0 {
                let _ = write!(out, "<th scope=\"row\">{}</th>", escape(value));
            } else {
                let _ = write!(out, "<td><code>{}</code></td>", escape(value));
            }
        }
        let _ = writeln!(out, "</tr>");
    }
    let _ = writeln!(out, "</tbody></table>");
}

fn html_details(out: &mut String, matrix: &Matrix) {
    let _ = writeln!(
        out,
        "<section aria-labelledby=\"details\"><h2 id=\"details\">Results, cell by cell</h2>"
    );
    for (column, i) in matrix.implementations.iter().enumerate() {
        for cell in &i.cells {
            let row = matrix
                .checks
                .iter()
                .position(|c| c == &cell.check)
                .unwrap_or(usize::MAX);
            let _ = writeln!(
                out,
                "<section class=\"detail\" id=\"{}\" tabindex=\"-1\"><h3>{} on <code>{}</code>: {}</h3>",
                result_id(column, row),
                escape(&i.name),
                escape(&cell.check),
                escape(&cell_mark(cell))
            );
            let _ = write!(
                out,
                "<p>{} case{}",
                cell.cases,
                if cell.cases == 1 { "" } else { "s" }
            );
            if let Some(reason) = &cell.reason {
                let _ = write!(out, "; listed as an expected failure: {}", escape(reason));
            }
            if cell.status == Status::Stale {
                let _ = write!(out, ". It passed: the entry is stale, remove it");
            }
            let _ = writeln!(out, ".</p>");
            let rows: Vec<Vec<String>> = cell
                .failures
                .iter()
                .map(|f| {
                    vec![
                        f.case.clone(),
                        f.what.clone(),
                        serde_json::to_string(&f.input).unwrap_or_default(),
                        f.expected.clone(),
                        f.actual.clone(),
                    ]
                })
                .collect();
            html_failure_table(out, &rows, &["case", "what", "input", "expected", "actual"]);
            let _ = writeln!(out, "</section>");
        }
    }
    for (g, grid) in matrix.cross.iter().enumerate() {
        for (c, cell) in grid.cells.iter().enumerate() {
            let _ = writeln!(
                out,
                "<section class=\"detail\" id=\"{}\" tabindex=\"-1\"><h3><code>{}</code> written by {}, read by {}: {}</h3><p>{} values compared{}.</p>",
                cross_id(g, c),
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
            let rows: Vec<Vec<String>> = cell
                .differences
                .iter()
                .map(|d| {
                    vec![
                        d.case.clone(),
                        d.what.clone(),
                        d.expected.clone(),
                        d.actual.clone(),
                    ]
                })
                .collect();
            html_failure_table(out, &rows, &["case", "what", "expected", "actual"]);
            let _ = writeln!(out, "</section>");
        }
    }
    let _ = writeln!(out, "</section>");
}

/// The static page: no script, no network, readable from the file.
pub fn html(matrix: &Matrix) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>bloomproof results matrix</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>bloomproof results matrix</h1>"
    );
    let verdict = if matrix.errors.is_empty() {
        "<span class=\"verdict-ok\">Passed</span>: every check as expected, every pair reads each other."
            .to_string()
    } else {
        format!(
            "<span class=\"verdict-failed\">Failed</span>: {} error{} (listed below).",
            matrix.errors.len(),
            if matrix.errors.len() == 1 { "" } else { "s" }
        )
    };
    let _ = writeln!(
        out,
        "<p>{verdict} Spec version <code title=\"{}\">{}</code>; ran <time datetime=\"{at}\">{at}</time>. Data: <a href=\"matrix.json\">matrix.json</a>, <a href=\"summary.md\">summary.md</a>.</p>\n</header>\n<main>",
        escape(&matrix.spec_version),
        escape(short(&matrix.spec_version)),
        at = escape(&matrix.ran_at),
    );
    if !matrix.errors.is_empty() {
        let _ = writeln!(
            out,
            "<section aria-labelledby=\"errors\"><h2 id=\"errors\">Errors</h2><ul>"
        );
        for error in &matrix.errors {
            let _ = writeln!(out, "<li><code>{}</code></li>", escape(error));
        }
        let _ = writeln!(out, "</ul></section>");
    }
    let _ = writeln!(
        out,
        "<section aria-labelledby=\"impls\"><h2 id=\"impls\">Implementations</h2>\n<table>\n<thead><tr><th scope=\"col\">name</th><th scope=\"col\">language</th><th scope=\"col\">command</th><th scope=\"col\">version</th><th scope=\"col\">checks passed</th></tr></thead>\n<tbody>"
    );
    for (column, i) in matrix.implementations.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr id=\"impl-{column}\"><th scope=\"row\">{}</th><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            escape(&i.name),
            escape(&i.language),
            escape(i.command.as_deref().unwrap_or("(in process)")),
            escape(&i.version),
            match &i.error {
                Some(why) => format!("not run: {}", escape(why)),
                None => format!("{}/{}", i.passed, i.total),
            }
        );
    }
    let _ = writeln!(out, "</tbody>\n</table>\n</section>");
    html_results(&mut out, matrix);
    html_cross(&mut out, matrix);
    html_details(&mut out, matrix);
    let _ = writeln!(out, "</main>\n</body>\n</html>");
    out
}

// ------------------------------------------------------------------ the page in Chromium

/// Installs Debian packages with apt-get when this is root on such a machine, as
/// `cargo xtask e2e` does; otherwise says what to install.
fn install(packages: &str, missing: &str) -> Result<(), String> {
    let manual = format!("{missing}: as root, apt-get update && apt-get install -y {packages}");
    let root_user = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root_user {
        return Err(format!("{manual} (this is not root)"));
    }
    println!("==> matrix: {missing}: apt-get install -y {packages}");
    let status = Command::new("sh")
        .args([
            "-c",
            &format!("apt-get update -q && apt-get install -y -q {packages}"),
        ])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .map_err(|e| format!("{manual} (cannot run apt-get: {e})"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{manual} (apt-get failed: {status})"))
    }
}

/// Tests the page in Chromium with the Playwright install of `crates/explorer/e2e`
/// (`npm ci` there when it is missing, as `cargo xtask e2e` does); Chromium is
/// `$CHROMIUM` or Debian's `/usr/bin/chromium`, installed when missing.
fn page_test(root: &Path, out: &Path) -> Result<(), String> {
    let playwright = root.join("crates/explorer/e2e");
    let chromium = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if !chromium.is_file() {
        install(
            "chromium",
            &format!("Chromium is missing at {}", chromium.display()),
        )?;
    }
    let runs = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !runs("node") || !runs("npm") {
        install("nodejs npm", "Node.js or npm is missing")?;
    }
    if !playwright.join("node_modules/playwright-core").is_dir() {
        println!(
            "==> matrix: npm ci in {} (playwright-core, no browser download)",
            playwright.display()
        );
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&playwright)
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .status()
            .map_err(|e| format!("cannot run npm ci: {e}"))?;
        if !status.success() {
            return Err(format!(
                "npm ci in {} failed ({status})",
                playwright.display()
            ));
        }
    }
    println!("==> matrix: the page in Chromium (node --test xtask/matrix/matrix.test.mjs)");
    let status = Command::new("node")
        .args(["--test", "xtask/matrix/matrix.test.mjs"])
        .current_dir(root)
        .env("MATRIX_DIR", out)
        .env("PLAYWRIGHT_FROM", &playwright)
        .env("CHROMIUM", &chromium)
        .status()
        .map_err(|e| format!("cannot run node: {e}"))?;
    if status.success() {
        println!(
            "matrix: the page passed in Chromium; screenshot {}",
            out.join("screenshot.png").display()
        );
        Ok(())
    } else {
        Err(format!(
            "the matrix page test failed in Chromium ({status})"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(file: &Path) -> Options {
        Options {
            implementations: file.to_path_buf(),
            sessions: Vec::new(),
            timeout: Duration::from_secs(20),
            browser: false,
        }
    }

    #[test]
    fn a_stale_expected_failure_fails_the_matrix() {
        let root = super::super::root();
        let dir = std::env::temp_dir().join(format!("matrix-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let file = dir.join("implementations.json");
        std::fs::write(
            &file,
            r#"{"implementations": [{"name": "rust", "language": "Rust", "version": "echo planted",
               "expected_failures": [{"check": "doc-membership-v1/every_stage_pinned", "reason": "planted stale entry"}]}]}"#,
        )
        .expect("the file is written");
        let matrix = compute(&root, Path::new("unused"), &options(&file));
        let _ = std::fs::remove_dir_all(&dir);
        let matrix = matrix.expect("the matrix runs");
        assert_eq!(
            matrix.errors,
            [
                "rust: doc-membership-v1/every_stage_pinned passed but is listed as an expected failure (\"planted stale entry\"): the list is stale, remove the entry"
            ]
        );
        let rust = &matrix.implementations[0];
        assert_eq!(rust.version, "planted");
        let stale: Vec<&Cell> = rust
            .cells
            .iter()
            .filter(|c| c.status == Status::Stale)
            .collect();
        assert_eq!(stale.len(), 1);
        assert_eq!(rust.passed, rust.total);
        // The page and the summary say so.
        let page = html(&matrix);
        assert!(page.contains(">STALE<span class=\"visually-hidden\">: rust on doc-membership-v1/every_stage_pinned</span>"));
        assert!(page.contains("Failed</span>: 1 error"));
        assert!(summary(&matrix).contains("* rust: doc-membership-v1/every_stage_pinned: STALE"));
        // Cross-reading of the one implementation with itself is all equal.
        for grid in &matrix.cross {
            assert_eq!(grid.cells.len(), 1);
            assert!(grid.cells[0].passed, "{:?}", grid.cells[0]);
        }
    }

    #[test]
    fn the_page_links_a_failing_cross_reading_cell_to_what_differed() {
        let cell = |producer: &str, reader: &str, passed: bool| cross::GridCell {
            producer: producer.to_string(),
            reader: reader.to_string(),
            passed,
            compared: 3,
            differences: if passed {
                Vec::new()
            } else {
                vec![cross::Difference {
                    case: "seed-example".to_string(),
                    what: "b's view after importing a's export".to_string(),
                    expected: "a's view at the export".to_string(),
                    actual: "view.counters.false_positives: missing".to_string(),
                }]
            },
            more: 0,
        };
        let matrix = Matrix {
            spec_version: "0".repeat(64),
            ran_at: rfc3339(0),
            checks: Vec::new(),
            implementations: Vec::new(),
            cross: vec![cross::Grid {
                protocol: "fnv1a-utf16-v1".to_string(),
                producers: vec!["a".to_string(), "b".to_string()],
                readers: vec!["a".to_string(), "b".to_string()],
                cells: vec![
                    cell("a", "a", true),
                    cell("a", "b", false),
                    cell("b", "a", true),
                    cell("b", "b", true),
                ],
            }],
            errors: Vec::new(),
        };
        let page = html(&matrix);
        assert!(page.contains(
            "<td class=\"differs\"><a href=\"#x-0-1\" data-cell=\"x-0-1\">differs (1)<span class=\"visually-hidden\">: a read by b</span></a></td>"
        ));
        assert!(page.contains("<section class=\"detail\" id=\"x-0-1\" tabindex=\"-1\"><h3><code>fnv1a-utf16-v1</code> written by a, read by b: differs</h3>"));
        assert!(page.contains("<td><code>view.counters.false_positives: missing</code></td>"));
        assert_eq!(page.matches("class=\"equal\"").count(), 3);
        assert!(summary(&matrix).contains("| a | equal | DIFFERS |"));
    }

    #[test]
    fn the_listed_implementations_file_is_valid() {
        let root = super::super::root();
        let file = root.join(IMPLEMENTATIONS);
        let text = read(&file).expect("the file exists");
        let list = Implementations::parse(&text, IMPLEMENTATIONS).expect("it parses");
        let names: Vec<&str> = list
            .implementations
            .iter()
            .map(|i| i.name.as_str())
            .collect();
        assert_eq!(names, ["rust", "rust-adapter", "python", "javascript"]);
        assert_eq!(list.implementations[0].command, None);
    }

    #[test]
    fn dates_are_rfc_3339_in_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_868_799), "2000-02-29T23:59:59Z");
        assert_eq!(rfc3339(1_796_043_909), "2026-11-30T13:05:09Z");
    }

    #[test]
    fn arguments_are_read_strictly() {
        let root = Path::new("/r");
        let given = |args: &[&str]| {
            parse(
                &args.iter().map(ToString::to_string).collect::<Vec<_>>(),
                root,
            )
        };
        let options = given(&["--session-from", "page=/tmp/s.json", "--no-browser"])
            .expect("valid arguments");
        assert_eq!(
            options.sessions,
            [("page".to_string(), PathBuf::from("/tmp/s.json"))]
        );
        assert!(!options.browser);
        assert_eq!(options.implementations, root.join(IMPLEMENTATIONS));
        for bad in [
            &["--session-from", "page"][..],
            &["--session-from", "=x"],
            &["--implementations"],
            &["--timeout", "0"],
            &["--what"],
        ] {
            assert!(given(bad).is_err(), "{bad:?}");
        }
    }
}
