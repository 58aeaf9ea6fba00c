//! `cargo xtask gallery [--every-check] [python|js] [FILTER]`: the planted-bug
//! galleries, the suite proving its own power.
//!
//! `gallery/python/bugs.json` lists planted bugs, each a small patch against a copy of
//! the Python implementation (`implementations/python`), and lying adapters, each a mode
//! of `gallery/liar.py` in front of a real adapter; `gallery/js/bugs.json` does the same
//! for `implementations/js`. For each gallery the task:
//!
//! 1. loads the file: its `bug_count` and `liar_count`, unique ids, every liar mode
//!    known to `liar.py --modes`;
//! 2. builds the runner (`cargo build -q -p bloomproof --locked`);
//! 3. runs the controls: the unpatched implementation (in a fresh copy) and every
//!    wrapped adapter behind `liar.py passthrough` must pass every check, or the
//!    gallery means nothing and stops there;
//! 4. applies every patch in memory (each `find` text must occur exactly once in its
//!    file, else the bug is a stale patch) and runs each bug, two at a time: a fresh
//!    temporary copy of the implementation with the patch written into it, checked
//!    with `bloomproof conformance --impl '<runtime> <copy>/<adapter>' --format json
//!    --timeout 20`, or the liar's command; the runner is killed with everything it
//!    started after 120 s, and the copy is removed;
//! 5. prints one row per bug with the checks that failed (that caught it), as soon as
//!    it and the rows above it are known, then a summary with the counts and the time.
//!
//! An entry's verdict is the whole suite's: by default its groups of checks (each
//! protocol, the adapter protocol's own checks) run one conformance run each, cheapest
//! first by the controls' times, and the first group that catches the entry ends its
//! runs. A failing group fails the whole suite, so nothing caught is caught less; what
//! is saved is the adapter-protocol checks' one fresh adapter process per case (three
//! quarters of a run's time), for the entries the protocols' checks already catch.
//! `--every-check` runs the whole suite for every entry and lists every check that
//! catches it.
//!
//! It fails when a bug or liar passes every check (`<id> survived: no check caught
//! it`), when a patch is stale, when a subject cannot be run at all (or fails every
//! check: a patch that breaks the adapter outright is no realistic bug), or when a
//! control fails. `FILTER` runs only the bugs whose id contains it (the controls always
//! run).

use crate::process::{self, TempDir, kill, parallel, shell_quote};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One gallery: its data and the implementation its patches apply to.
pub(crate) struct Kind {
    /// The name `cargo xtask gallery NAME` selects it by.
    name: &'static str,
    /// Its data, relative to the repository root.
    bugs_file: &'static str,
    /// The implementation the patches apply to.
    dir: &'static str,
    /// The program that runs the adapter (and checks a patched file).
    runtime: &'static str,
    /// The adapter, relative to `dir`.
    adapter: &'static str,
    /// The runtime's arguments that check one patched file without running it.
    check: &'static [&'static str],
    /// Whether every entry must carry a probe.
    probes: bool,
}

/// The two galleries, in the order they run.
const KINDS: [Kind; 2] = [
    Kind {
        name: "python",
        bugs_file: "gallery/python/bugs.json",
        dir: "implementations/python",
        runtime: "python3",
        adapter: "bloomproof_py/adapter.py",
        check: &["-m", "py_compile"],
        probes: false,
    },
    Kind {
        name: "js",
        bugs_file: "gallery/js/bugs.json",
        dir: "implementations/js",
        runtime: "node",
        adapter: "adapter.mjs",
        check: &["--check"],
        probes: true,
    },
];
/// The lying proxy.
const LIAR: &str = "gallery/liar.py";
/// Subjects run at once (the machine has two cores).
const JOBS: usize = 2;
/// The runner's `--timeout`: the longest wait for one adapter response, in seconds.
const REQUEST_TIMEOUT_SECS: &str = "20";
/// The longest one whole conformance run may take before it is killed.
const SUBJECT_LIMIT: Duration = Duration::from_secs(120);
/// A liar command starting with this word runs the runner binary just built.
const BINARY_WORD: &str = "target/debug/bloomproof";
/// Widest line of check names in the matrix.
const NAMES_WIDTH: usize = 100;

/// One textual edit of a planted bug.
struct Edit {
    file: String,
    find: String,
    replace: String,
}

/// What a bug plants.
enum Plant {
    /// Edits to a fresh copy of the Python implementation.
    Patch(Vec<Edit>),
    /// `liar.py MODE -- COMMAND`.
    Liar { mode: String, command: String },
}

/// A request that shows a bug changes an answer: the value at `pick` (a JSON pointer
/// into the response) is `answer` from the clean implementation, and something else
/// from the planted one.
struct Probe {
    request: Value,
    pick: String,
    answer: Value,
}

/// One planted bug or lying adapter of `bugs.json`.
struct Bug {
    id: String,
    area: String,
    description: String,
    plant: Plant,
    probe: Option<Probe>,
    /// Right on every input the spec's cases hold, wrong elsewhere (`off_spec: true`).
    off_spec: bool,
}

/// The whole file.
struct Gallery {
    bugs: Vec<Bug>,
}

/// A subject ready to run: the files its patch rewrites, or why it is stale.
enum Subject {
    /// Patched files (path relative to the Python folder, whole new text).
    Patched(Vec<(String, String)>),
    /// A stale patch, with the message.
    Stale(String),
    /// A liar's `--impl` command.
    Liar(String),
}

/// How one conformance run ended.
enum Run {
    /// The runner's report: the names of the checks that failed, how many ran, and, by
    /// group (a protocol, or the adapter protocol's own checks), how many ran and their
    /// time in milliseconds, in report order.
    Report {
        failed: Vec<String>,
        total: usize,
        groups: Vec<(String, usize, f64)>,
    },
    /// No report: why.
    Broken(String),
}

/// The verdict on one bug.
enum Verdict {
    /// Caught by these checks.
    Caught(Vec<String>),
    /// Passed every check.
    Survived,
    /// The patch no longer applies.
    Stale(String),
    /// The subject could not be run (or did not run at all).
    Error(String),
    /// Its probe gives the clean answer: the bug is not shown to change anything.
    Inert(String),
}

/// One row of the matrix.
struct Row {
    verdict: Verdict,
    seconds: f64,
}

/// Everything a run needs.
struct Context {
    kind: &'static Kind,
    root: PathBuf,
    binary: PathBuf,
    /// Number of checks the controls ran; every bug's run must run as many.
    total: usize,
    /// The controls' groups of checks (name, count), cheapest first: an entry runs them
    /// in this order, one conformance run each, and stops at the first group that
    /// catches it. Empty: every entry runs the whole suite in one run.
    stages: Vec<(String, usize)>,
}

/// Runs the galleries: `[python|js] [FILTER]` (`every_check`: the whole suite for every
/// entry).
pub fn run(every_check: bool, args: &[String]) -> Result<(), String> {
    let usage = "usage: cargo xtask gallery [--every-check] [python|js] [FILTER]";
    let (kinds, rest): (Vec<&'static Kind>, &[String]) = match args.split_first() {
        Some((first, rest)) if KINDS.iter().any(|k| k.name == first) => {
            (KINDS.iter().filter(|k| k.name == first).collect(), rest)
        }
        _ => (KINDS.iter().collect(), args),
    };
    let filter = match rest {
        [] => None,
        [filter] => Some(filter.as_str()),
        other => {
            return Err(format!(
                "gallery takes at most one FILTER, got {other:?}; {usage}"
            ));
        }
    };
    let root = super::root();
    let galleries = kinds
        .into_iter()
        .map(|kind| load(&root, kind).map(|gallery| (kind, gallery)))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(f) = filter
        && !galleries
            .iter()
            .any(|(_, g)| g.bugs.iter().any(|bug| bug.id.contains(f)))
    {
        return Err(format!("no bug id contains {f:?}"));
    }
    let binary = process::build_runner(&root)?;
    let mut failures = Vec::new();
    for (kind, gallery) in &galleries {
        let context = Context {
            kind,
            root: root.clone(),
            binary: binary.clone(),
            total: 0,
            stages: Vec::new(),
        };
        if let Err(message) = run_gallery(context, gallery, filter, every_check) {
            failures.push(format!(
                "{} gallery ({}): {message}",
                kind.name, kind.bugs_file
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

/// Runs one gallery: its controls, its probes, then its bugs.
fn run_gallery(
    mut context: Context,
    gallery: &Gallery,
    filter: Option<&str>,
    every_check: bool,
) -> Result<(), String> {
    let started = Instant::now();
    let kind = context.kind;
    let chosen: Vec<&Bug> = gallery
        .bugs
        .iter()
        .filter(|bug| filter.is_none_or(|f| bug.id.contains(f)))
        .collect();
    if chosen.is_empty() {
        println!("\n==> {} gallery: no bug id contains {filter:?}", kind.name);
        return Ok(());
    }
    println!(
        "\n==> {} gallery: {} (patches to fresh copies of {})",
        kind.name, kind.bugs_file, kind.dir
    );
    let (total, stages) = controls(&context, gallery)?;
    context.total = total;
    if !every_check {
        context.stages = stages;
    }
    clean_probes(&context, &chosen)?;
    let subjects: Vec<(&Bug, Subject)> = chosen
        .iter()
        .map(|&bug| (bug, prepare(&context, bug)))
        .collect();
    let id_width = chosen.iter().map(|b| b.id.len()).fold(3, usize::max);
    let area_width = chosen.iter().map(|b| b.area.len()).fold(4, usize::max);
    let liars = chosen
        .iter()
        .filter(|b| matches!(b.plant, Plant::Liar { .. }))
        .count();
    println!(
        "\n==> {} gallery: {} and {}, {JOBS} at a time\n",
        kind.name,
        plural(chosen.len() - liars, "planted bug", "planted bugs"),
        plural(liars, "liar", "liars"),
    );
    if !context.stages.is_empty() {
        let order: Vec<String> = context
            .stages
            .iter()
            .map(|(name, n)| format!("{name} ({n})"))
            .collect();
        println!(
            "each entry runs the suite's groups of checks one at a time, cheapest first, and stops at \
             the first group that catches it: {}\n(--every-check: the whole suite for every entry, \
             every check that catches it listed)\n",
            order.join(", ")
        );
    }
    println!(
        "{:<8}  {:<id_width$}  {:<area_width$}  {:>6}  {:>2}  checks that failed (caught it)",
        "verdict", "bug", "area", "time", "n"
    );
    let rows = parallel(
        JOBS,
        &subjects,
        |index, (bug, subject)| run_bug(&context, index, bug, subject),
        |index, row| {
            if let Some((bug, _)) = subjects.get(index) {
                print_row(bug, row, id_width, area_width);
            }
        },
    );
    summarise(gallery, &context, &chosen, &rows, started)
}

// ------------------------------------------------------------------ loading

fn text(value: &Value, key: &str, at: &str) -> Result<String, String> {
    match value.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        _ => Err(format!("{at}: `{key}` must be a non-empty string")),
    }
}

fn count(value: &Value, key: &str) -> Result<usize, String> {
    value
        .get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("`{key}` must be a non-negative integer"))
}

fn only_keys(value: &Value, allowed: &[&str], at: &str) -> Result<(), String> {
    let Some(object) = value.as_object() else {
        return Err(format!("{at}: expected an object"));
    };
    match object.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(format!(
            "{at}: unknown key `{key}` (known: {})",
            allowed.join(", ")
        )),
        None => Ok(()),
    }
}

fn edit(value: &Value, at: &str) -> Result<Edit, String> {
    only_keys(value, &["file", "find", "replace"], at)?;
    let file = text(value, "file", at)?;
    if file.starts_with('/') || file.split('/').any(|part| part == "..") {
        return Err(format!(
            "{at}: `file` must be a path inside the implementation's folder, got {file:?}"
        ));
    }
    let find = text(value, "find", at)?;
    let replace = match value.get("replace") {
        Some(Value::String(s)) => s.clone(),
        _ => return Err(format!("{at}: `replace` must be a string")),
    };
    if replace == find {
        return Err(format!("{at}: `replace` equals `find`: nothing is planted"));
    }
    Ok(Edit {
        file,
        find,
        replace,
    })
}

fn probe(value: &Value, at: &str) -> Result<Probe, String> {
    let at = format!("{at}, probe");
    only_keys(value, &["request", "pick", "answer"], &at)?;
    let request = match value.get("request") {
        Some(Value::Object(object)) if !object.contains_key("id") => Value::Object(object.clone()),
        _ => {
            return Err(format!(
                "{at}: `request` must be an adapter request without `id` (the gallery gives it one)"
            ));
        }
    };
    let pick = text(value, "pick", &at)?;
    if !pick.starts_with('/') {
        return Err(format!(
            "{at}: `pick` must be a JSON pointer into the response (`/result/...`), got {pick:?}"
        ));
    }
    let Some(answer) = value.get("answer") else {
        return Err(format!(
            "{at}: `answer` (what the clean implementation answers) is missing"
        ));
    };
    Ok(Probe {
        request,
        pick,
        answer: answer.clone(),
    })
}

fn bug(value: &Value, index: usize, modes: &[String], kind: &Kind) -> Result<Bug, String> {
    let at = format!("bugs[{index}]");
    only_keys(
        value,
        &[
            "id",
            "area",
            "description",
            "file",
            "find",
            "replace",
            "edits",
            "liar",
            "probe",
            "off_spec",
        ],
        &at,
    )?;
    let id = text(value, "id", &at)?;
    let at = format!("bug {id}");
    if !id
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(format!("{at}: an id is lowercase letters, digits and `-`"));
    }
    let area = text(value, "area", &at)?;
    let description = text(value, "description", &at)?;
    if description.contains('\n') {
        return Err(format!("{at}: `description` must be one line"));
    }
    let has = |key: &str| value.get(key).is_some();
    let plant = match (
        has("file") || has("find") || has("replace"),
        has("edits"),
        has("liar"),
    ) {
        (true, false, false) => {
            let mut single = serde_json::Map::new();
            for key in ["file", "find", "replace"] {
                if let Some(v) = value.get(key) {
                    single.insert(key.to_owned(), v.clone());
                }
            }
            Plant::Patch(vec![edit(&Value::Object(single), &at)?])
        }
        (false, true, false) => {
            let Some(edits) = value.get("edits").and_then(Value::as_array) else {
                return Err(format!("{at}: `edits` must be an array"));
            };
            if edits.is_empty() {
                return Err(format!("{at}: `edits` is empty"));
            }
            Plant::Patch(
                edits
                    .iter()
                    .enumerate()
                    .map(|(i, e)| edit(e, &format!("{at}, edits[{i}]")))
                    .collect::<Result<_, _>>()?,
            )
        }
        (false, false, true) => {
            let liar = value.get("liar").unwrap_or(&Value::Null);
            let at = format!("{at}, liar");
            only_keys(liar, &["mode", "command"], &at)?;
            let mode = text(liar, "mode", &at)?;
            if !modes.contains(&mode) {
                return Err(format!(
                    "{at}: unknown mode {mode:?}; {LIAR} knows {}",
                    modes.join(", ")
                ));
            }
            Plant::Liar {
                mode,
                command: text(liar, "command", &at)?,
            }
        }
        _ => {
            return Err(format!(
                "{at}: give exactly one of a patch (`file`, `find`, `replace`), `edits`, or `liar`"
            ));
        }
    };
    let probe = match value.get("probe") {
        Some(p) => Some(probe(p, &at)?),
        None if kind.probes => {
            return Err(format!(
                "{at}: every entry of this gallery carries a `probe` (the request that shows it changes an answer)"
            ));
        }
        None => None,
    };
    let off_spec = match value.get("off_spec") {
        None => false,
        Some(Value::Bool(flag)) => *flag,
        Some(_) => return Err(format!("{at}: `off_spec` must be true or false")),
    };
    Ok(Bug {
        id,
        area,
        description,
        plant,
        probe,
        off_spec,
    })
}

/// The modes `liar.py --modes` knows.
fn liar_modes(root: &Path) -> Result<Vec<String>, String> {
    let output = Command::new("python3")
        .arg(root.join(LIAR))
        .arg("--modes")
        .output()
        .map_err(|e| format!("cannot run python3 {LIAR} --modes: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "python3 {LIAR} --modes failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// Loads and checks a gallery's `bugs.json`.
fn load(root: &Path, kind: &Kind) -> Result<Gallery, String> {
    load_entries(root, kind).map_err(|message| format!("{}: {message}", kind.bugs_file))
}

fn load_entries(root: &Path, kind: &Kind) -> Result<Gallery, String> {
    let path = root.join(kind.bugs_file);
    let raw = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: Value = serde_json::from_str(&raw).map_err(|e| format!("not JSON: {e}"))?;
    only_keys(
        &value,
        &["about", "bug_count", "liar_count", "bugs"],
        "top level",
    )?;
    let declared = count(&value, "bug_count")?;
    let declared_liars = count(&value, "liar_count")?;
    let Some(entries) = value.get("bugs").and_then(Value::as_array) else {
        return Err("`bugs` must be an array".to_owned());
    };
    let modes = liar_modes(root)?;
    let bugs: Vec<Bug> = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| bug(entry, index, &modes, kind))
        .collect::<Result<_, _>>()?;
    if bugs.len() != declared {
        return Err(format!(
            "bug_count is {declared} but the file lists {} bugs (planted bugs and liars)",
            bugs.len()
        ));
    }
    let liars = bugs
        .iter()
        .filter(|b| matches!(b.plant, Plant::Liar { .. }))
        .count();
    if liars != declared_liars {
        return Err(format!(
            "liar_count is {declared_liars} but the file lists {liars} liars"
        ));
    }
    let mut seen = BTreeSet::new();
    if let Some(repeated) = bugs.iter().find(|b| !seen.insert(b.id.as_str())) {
        return Err(format!("the id {} repeats", repeated.id));
    }
    Ok(Gallery { bugs })
}

// ------------------------------------------------------------------ preparing

/// Applies a bug's edits, in memory, to the current files of the implementation's folder.
fn patch(
    root: &Path,
    dir: &str,
    bug: &Bug,
    edits: &[Edit],
) -> Result<Vec<(String, String)>, String> {
    let mut files: BTreeMap<&str, String> = BTreeMap::new();
    for edit in edits {
        let current = match files.remove(edit.file.as_str()) {
            Some(text) => text,
            None => {
                let path = root.join(dir).join(&edit.file);
                std::fs::read_to_string(&path).map_err(|e| {
                    format!(
                        "stale patch: bug {}: cannot read {dir}/{}: {e}",
                        bug.id, edit.file
                    )
                })?
            }
        };
        let found = current.matches(edit.find.as_str()).count();
        if found != 1 {
            return Err(format!(
                "stale patch: bug {}: its find text occurs {found} times in {dir}/{} (it must occur exactly once): {:?}",
                bug.id, edit.file, edit.find
            ));
        }
        files.insert(&edit.file, current.replacen(&edit.find, &edit.replace, 1));
    }
    Ok(files
        .into_iter()
        .map(|(file, text)| (file.to_owned(), text))
        .collect())
}

/// The `--impl` command of a liar: `python3 liar.py MODE -- COMMAND`, with a leading
/// `target/debug/bloomproof` in COMMAND replaced by the binary just built.
fn liar_command(context: &Context, mode: &str, command: &str) -> String {
    let command = match command.strip_prefix(BINARY_WORD) {
        Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
            format!("{}{rest}", shell_quote(&context.binary.to_string_lossy()))
        }
        _ => command.to_owned(),
    };
    format!(
        "python3 {} {mode} -- {command}",
        shell_quote(&context.root.join(LIAR).to_string_lossy())
    )
}

fn prepare(context: &Context, bug: &Bug) -> Subject {
    match &bug.plant {
        Plant::Patch(edits) => match patch(&context.root, context.kind.dir, bug, edits) {
            Ok(files) => Subject::Patched(files),
            Err(message) => Subject::Stale(message),
        },
        Plant::Liar { mode, command } => Subject::Liar(liar_command(context, mode, command)),
    }
}

// ------------------------------------------------------------------ building and running

/// Copies a folder, leaving out what a run or an install leaves in a checkout
/// (`__pycache__`, `build`, `*.egg-info`, `node_modules`).
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let source = entry.path();
        let target = to.join(entry.file_name());
        if source.is_dir() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if !["__pycache__", "build", "node_modules"].contains(&name.as_ref())
                && !name.ends_with(".egg-info")
            {
                copy_dir(&source, &target)?;
            }
        } else {
            std::fs::copy(&source, &target).map_err(|e| format!("{}: {e}", source.display()))?;
        }
    }
    Ok(())
}

/// The last lines of a text, for an error message.
fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    all[all.len().saturating_sub(lines)..].join(" | ")
}

/// An entry's verdict run: the whole suite in one run, or (with [`Context::stages`]) one
/// run per group of checks, cheapest first, until a group catches it. A caught entry
/// fails the whole suite (a group's run is the suite's run with a filter), so this is
/// the whole suite's verdict; the checks of the groups not run are not listed, and an
/// entry that every group's checks so far fail (it may not run at all) runs every group.
fn verdict_run(context: &Context, implementation: &str) -> Run {
    if context.stages.is_empty() {
        return conformance(context, implementation, None);
    }
    let mut failed = Vec::new();
    let mut total = 0;
    let mut groups = Vec::new();
    for (group, count) in &context.stages {
        match conformance(context, implementation, Some(&format!("{group}/"))) {
            Run::Broken(message) => return Run::Broken(format!("its {group} checks: {message}")),
            Run::Report { total: n, .. } if n != *count => {
                return Run::Broken(format!(
                    "the runner ran {n} {group} checks, the controls {count}"
                ));
            }
            Run::Report {
                failed: more,
                total: n,
                groups: ran,
            } => {
                failed.extend(more);
                total += n;
                groups.extend(ran);
            }
        }
        if !failed.is_empty() && failed.len() < total {
            break;
        }
    }
    Run::Report {
        failed,
        total,
        groups,
    }
}

/// One conformance run of `implementation` (only the checks whose `<group>/<name>`
/// contains `filter`, when given), killed after [`SUBJECT_LIMIT`].
fn conformance(context: &Context, implementation: &str, filter: Option<&str>) -> Run {
    let mut command = Command::new(&context.binary);
    command
        .args(["conformance", "--impl", implementation, "--format", "json"])
        .args(["--timeout", REQUEST_TIMEOUT_SECS])
        .args(filter.map(|f| ["--", f]).into_iter().flatten())
        .current_dir(&context.root)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        command.process_group(0);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            return Run::Broken(format!("cannot start {}: {e}", context.binary.display()));
        }
    };
    let read_all = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let stdout = read_all(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read_all(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if started.elapsed() < SUBJECT_LIMIT => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Ok(None) => {
                kill(&mut child);
                let _ = child.wait();
                break Err(format!(
                    "killed after {} s: the run did not finish",
                    SUBJECT_LIMIT.as_secs()
                ));
            }
            Err(e) => {
                kill(&mut child);
                let _ = child.wait();
                break Err(format!("cannot wait for the runner: {e}"));
            }
        }
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    let status = match status {
        Ok(status) => status,
        Err(message) => return Run::Broken(message),
    };
    let report: Value = match serde_json::from_str(&stdout) {
        Ok(report) => report,
        Err(_) => {
            return Run::Broken(format!(
                "the runner gave no JSON report ({status}); stderr: {}",
                tail(&stderr, 4)
            ));
        }
    };
    let Some(checks) = report.get("checks").and_then(Value::as_array) else {
        return Run::Broken("the runner's report has no `checks` array".to_owned());
    };
    let mut groups: Vec<(String, usize, f64)> = Vec::new();
    for check in checks {
        let group = check.get("protocol").and_then(Value::as_str).unwrap_or("?");
        let ms = check
            .get("elapsed_ms")
            .and_then(Value::as_f64)
            .unwrap_or(0.0);
        match groups.iter_mut().find(|(name, _, _)| name == group) {
            Some((_, n, time)) => {
                *n += 1;
                *time += ms;
            }
            None => groups.push((group.to_owned(), 1, ms)),
        }
    }
    let failed = checks
        .iter()
        .filter(|check| {
            check
                .get("failures")
                .and_then(Value::as_array)
                .is_none_or(|failures| !failures.is_empty())
        })
        .map(|check| {
            check
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_owned()
        })
        .collect();
    Run::Report {
        failed,
        total: checks.len(),
        groups,
    }
}

/// The `--impl` command of a fresh copy of the gallery's implementation with `files`
/// written over it (each checked by the runtime first); the copy lives as long as the
/// returned guard.
fn impl_copy(
    context: &Context,
    name: &str,
    files: &[(String, String)],
) -> Result<(TempDir, String), String> {
    let kind = context.kind;
    let dir = TempDir::new(&format!(
        "bloomproof-gallery-{}-{}-{name}",
        kind.name,
        std::process::id()
    ))?;
    let copy = dir.0.join(kind.name);
    copy_dir(&context.root.join(kind.dir), &copy)?;
    for (file, text) in files {
        let path = copy.join(file);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        let compiled = Command::new(kind.runtime)
            .args(kind.check)
            .arg(&path)
            .output()
            .map_err(|e| format!("cannot run {} {}: {e}", kind.runtime, kind.check.join(" ")))?;
        if !compiled.status.success() {
            return Err(format!(
                "the patched {file} does not compile: {}",
                tail(&String::from_utf8_lossy(&compiled.stderr), 2)
            ));
        }
    }
    let adapter = copy.join(kind.adapter);
    let command = format!(
        "{} {}",
        kind.runtime,
        shell_quote(&adapter.to_string_lossy())
    );
    Ok((dir, command))
}

/// The longest wait for a probe's answers.
const PROBE_LIMIT: Duration = Duration::from_secs(30);

/// Sends `requests` (each given the id `probe-<i>`) to the adapter `command` (run by
/// `sh` in the repository root), closes its input and returns its responses in order.
fn ask(context: &Context, command: &str, requests: &[&Value]) -> Result<Vec<Value>, String> {
    let mut input = String::new();
    for (i, request) in requests.iter().enumerate() {
        let mut request = (*request).clone();
        if let Value::Object(object) = &mut request {
            object.insert("id".to_owned(), Value::String(format!("probe-{i}")));
        }
        input.push_str(&request.to_string());
        input.push('\n');
    }
    let mut shell = Command::new("sh");
    shell
        .args(["-c", command])
        .current_dir(&context.root)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        shell.process_group(0);
    }
    let mut child = shell
        .spawn()
        .map_err(|e| format!("cannot start `{command}`: {e}"))?;
    let stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            use std::io::Write as _;
            let _ = stdin.write_all(input.as_bytes());
        }
    });
    let stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = stdout {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    });
    let stderr = child.stderr.take();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = stderr {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    });
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < PROBE_LIMIT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => {
                kill(&mut child);
                let _ = child.wait();
                return Err(format!(
                    "`{command}` gave no answer to its probe within {} s",
                    PROBE_LIMIT.as_secs()
                ));
            }
        }
    }
    let _ = writer.join();
    let stdout = reader.join().unwrap_or_default();
    let stderr = errors.join().unwrap_or_default();
    let responses: Vec<Value> = stdout
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or(Value::String(line.to_owned())))
        .collect();
    if responses.len() != requests.len() {
        return Err(format!(
            "`{command}` answered {} of {} probe requests; stderr: {}",
            responses.len(),
            requests.len(),
            tail(&stderr, 2)
        ));
    }
    Ok(responses)
}

/// What a probe picks out of a response (`None`: nothing there).
fn picked<'a>(probe: &Probe, response: &'a Value) -> Option<&'a Value> {
    response.pointer(&probe.pick)
}

/// Runs every chosen bug's probe against a fresh clean copy (one adapter for all of
/// them): each must give the answer `bugs.json` records, or the probes prove nothing.
fn clean_probes(context: &Context, chosen: &[&Bug]) -> Result<(), String> {
    let probes: Vec<(&Bug, &Probe)> = chosen
        .iter()
        .filter_map(|bug| bug.probe.as_ref().map(|probe| (*bug, probe)))
        .collect();
    if probes.is_empty() {
        return Ok(());
    }
    let (_dir, command) = impl_copy(context, "probes", &[])?;
    let requests: Vec<&Value> = probes.iter().map(|(_, probe)| &probe.request).collect();
    let responses = ask(context, &command, &requests)?;
    let stale: Vec<String> = probes
        .iter()
        .zip(&responses)
        .filter(|((_, probe), response)| picked(probe, response) != Some(&probe.answer))
        .map(|((bug, probe), response)| {
            format!(
                "bug {}: its probe's recorded answer is {}, the clean copy gives {} at {}",
                bug.id,
                probe.answer,
                picked(probe, response).map_or("nothing".to_owned(), Value::to_string),
                probe.pick
            )
        })
        .collect();
    if stale.is_empty() {
        println!(
            "ok        {} probes give their recorded answers on the clean copy",
            probes.len()
        );
        Ok(())
    } else {
        Err(format!(
            "stale probes (fix the recorded answer or the probe):\n  {}",
            stale.join("\n  ")
        ))
    }
}

/// `Some(message)` when the bug's probe gives the clean answer through `command`.
fn inert(context: &Context, bug: &Bug, command: &str) -> Result<Option<String>, String> {
    let Some(probe) = &bug.probe else {
        return Ok(None);
    };
    let responses = ask(context, command, &[&probe.request])?;
    let answer = responses
        .first()
        .and_then(|response| picked(probe, response));
    Ok((answer == Some(&probe.answer)).then(|| {
        format!(
            "its probe gives the clean answer ({} at {}): the bug is not shown to change an answer",
            probe.answer, probe.pick
        )
    }))
}

/// Runs the controls; returns the number of checks they ran and their groups of checks
/// (name, count), cheapest first (by the time the unpatched implementation took).
fn controls(context: &Context, gallery: &Gallery) -> Result<(usize, Vec<(String, usize)>), String> {
    let mut commands: Vec<String> = Vec::new();
    for bug in &gallery.bugs {
        if let Plant::Liar { command, .. } = &bug.plant
            && !commands.contains(command)
        {
            commands.push(command.clone());
        }
    }
    let mut names = vec![format!(
        "the unpatched implementation (a fresh copy of {})",
        context.kind.dir
    )];
    names.extend(
        commands
            .iter()
            .map(|c| format!("liar.py passthrough -- {c}")),
    );
    println!("==> controls: each must pass every check");
    let runs = parallel(
        JOBS,
        &names,
        |index, _| {
            let started = Instant::now();
            let run = if index == 0 {
                match impl_copy(context, "control", &[]) {
                    Ok((_dir, command)) => conformance(context, &command, None),
                    Err(message) => Run::Broken(message),
                }
            } else {
                let command = commands.get(index - 1).map(String::as_str).unwrap_or("");
                conformance(
                    context,
                    &liar_command(context, "passthrough", command),
                    None,
                )
            };
            (run, started.elapsed().as_secs_f64())
        },
        |index, (run, seconds)| {
            let name = names.get(index).map(String::as_str).unwrap_or("?");
            match run {
                Run::Report { failed, total, .. } if failed.is_empty() => {
                    println!("ok        {name}: {total} checks passed ({seconds:.1}s)");
                }
                Run::Report { failed, total, .. } => println!(
                    "FAILED    {name}: {} of {total} checks failed ({seconds:.1}s)",
                    failed.len()
                ),
                Run::Broken(message) => println!("ERROR     {name}: {message}"),
            }
        },
    );
    let mut total = None;
    for (name, (run, _)) in names.iter().zip(&runs) {
        match run {
            Run::Report {
                failed, total: n, ..
            } if failed.is_empty() && *n > 0 => {
                if total.is_some_and(|t| t != *n) {
                    return Err(format!(
                        "the controls ran different numbers of checks ({n} for {name})"
                    ));
                }
                total = Some(*n);
            }
            Run::Report {
                failed, total: n, ..
            } => {
                return Err(format!(
                    "{name} fails {} of {n} checks ({}): the gallery is meaningless until it passes every check",
                    failed.len(),
                    failed.join(", ")
                ));
            }
            Run::Broken(message) => {
                return Err(format!(
                    "{name} could not be run ({message}): the gallery is meaningless until it passes every check"
                ));
            }
        }
    }
    let total = total.ok_or_else(|| "no control ran".to_owned())?;
    let mut stages: Vec<(String, usize, f64)> = match runs.first() {
        Some((Run::Report { groups, .. }, _)) => groups.clone(),
        _ => Vec::new(),
    };
    stages.sort_by(|a, b| a.2.total_cmp(&b.2));
    Ok((
        total,
        stages.into_iter().map(|(name, n, _)| (name, n)).collect(),
    ))
}

/// A subject's probe, then (when it shows a change) its conformance run.
enum Probed {
    Inert(String),
    Ran(Run),
}

fn probed(context: &Context, bug: &Bug, command: &str) -> Probed {
    match inert(context, bug, command) {
        Ok(Some(message)) => Probed::Inert(message),
        Ok(None) => Probed::Ran(verdict_run(context, command)),
        Err(message) => Probed::Ran(Run::Broken(format!("its probe: {message}"))),
    }
}

fn run_bug(context: &Context, index: usize, bug: &Bug, subject: &Subject) -> Row {
    let started = Instant::now();
    let run = match subject {
        Subject::Stale(message) => {
            return Row {
                verdict: Verdict::Stale(message.clone()),
                seconds: 0.0,
            };
        }
        Subject::Patched(files) => match impl_copy(context, &index.to_string(), files) {
            Ok((_dir, command)) => probed(context, bug, &command),
            Err(message) => Probed::Ran(Run::Broken(message)),
        },
        Subject::Liar(command) => probed(context, bug, command),
    };
    let run = match run {
        Probed::Inert(message) => {
            return Row {
                verdict: Verdict::Inert(message),
                seconds: started.elapsed().as_secs_f64(),
            };
        }
        Probed::Ran(run) => run,
    };
    let verdict = match run {
        Run::Broken(message) => Verdict::Error(message),
        Run::Report { total, .. }
            if total != context.total && (context.stages.is_empty() || total > context.total) =>
        {
            Verdict::Error(format!(
                "the runner ran {total} checks for {}, the controls {}",
                bug.id, context.total
            ))
        }
        Run::Report { failed, .. } if failed.is_empty() => Verdict::Survived,
        Run::Report { failed, total, .. } if failed.len() == total => Verdict::Error(format!(
            "every check failed: the subject does not run at all, which is no realistic planted bug (first failure: {})",
            failed.first().map(String::as_str).unwrap_or("?")
        )),
        Run::Report { failed, .. } => Verdict::Caught(failed),
    };
    Row {
        verdict,
        seconds: started.elapsed().as_secs_f64(),
    }
}

// ------------------------------------------------------------------ printing

/// `names` joined with `, ` in lines of at most [`NAMES_WIDTH`] characters.
fn wrap(names: &[String]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (i, name) in names.iter().enumerate() {
        let piece = if i + 1 < names.len() {
            format!("{name},")
        } else {
            name.clone()
        };
        if !line.is_empty() && line.len() + 1 + piece.len() > NAMES_WIDTH {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn print_row(bug: &Bug, row: &Row, id_width: usize, area_width: usize) {
    let (status, detail) = match &row.verdict {
        Verdict::Caught(names) => ("caught", wrap(names)),
        Verdict::Survived => ("SURVIVED", vec!["no check caught it".to_owned()]),
        Verdict::Stale(message) => ("STALE", vec![message.clone()]),
        Verdict::Error(message) => ("ERROR", vec![message.clone()]),
        Verdict::Inert(message) => ("INERT", vec![message.clone()]),
    };
    let caught = match &row.verdict {
        Verdict::Caught(names) => names.len().to_string(),
        _ => "-".to_owned(),
    };
    let prefix = format!(
        "{status:<8}  {:<id_width$}  {:<area_width$}  {:>5.1}s  {caught:>2}  ",
        bug.id, bug.area, row.seconds
    );
    let indent = " ".repeat(prefix.len());
    for (i, line) in detail.iter().enumerate() {
        if i == 0 {
            println!("{prefix}{line}");
        } else {
            println!("{indent}{line}");
        }
    }
}

fn summarise(
    gallery: &Gallery,
    context: &Context,
    chosen: &[&Bug],
    rows: &[Row],
    started: Instant,
) -> Result<(), String> {
    let mut caught = 0;
    let mut survived = Vec::new();
    let mut problems = Vec::new();
    let mut catches: BTreeMap<&str, usize> = BTreeMap::new();
    for (bug, row) in chosen.iter().zip(rows) {
        match &row.verdict {
            Verdict::Caught(names) => {
                caught += 1;
                for name in names {
                    *catches.entry(name.as_str()).or_default() += 1;
                }
            }
            Verdict::Survived => survived.push(*bug),
            Verdict::Stale(message) => problems.push(message.clone()),
            Verdict::Error(message) => problems.push(format!("bug {}: {message}", bug.id)),
            Verdict::Inert(message) => problems.push(format!("bug {}: refused: {message}", bug.id)),
        }
    }
    let elapsed = started.elapsed().as_secs();
    let liars = chosen
        .iter()
        .filter(|b| matches!(b.plant, Plant::Liar { .. }))
        .count();
    let strongest: Vec<String> = strongest(&catches)
        .iter()
        .map(|(name, n)| format!("{name} ({n})"))
        .collect();
    if !strongest.is_empty() {
        println!(
            "\nthe checks that caught the most: {}",
            strongest.join(", ")
        );
    }
    let off_spec: Vec<bool> = chosen
        .iter()
        .zip(rows)
        .filter(|(bug, _)| bug.off_spec)
        .map(|(_, row)| matches!(row.verdict, Verdict::Caught(_)))
        .collect();
    if !off_spec.is_empty() {
        println!(
            "right on every input the spec's cases hold (off_spec): {} of {} caught",
            off_spec.iter().filter(|caught| **caught).count(),
            off_spec.len()
        );
    }
    println!();
    for bug in &survived {
        println!(
            "{} survived: no check caught it ({})",
            bug.id, bug.description
        );
    }
    for problem in &problems {
        println!("{problem}");
    }
    println!(
        "{} gallery: {} of {} ({}, {}) against {} checks: {caught} caught, \
         {} survived, {} stale, broken or refused; total time {}m {:02}s",
        context.kind.name,
        chosen.len(),
        gallery.bugs.len(),
        plural(chosen.len() - liars, "planted bug", "planted bugs"),
        plural(liars, "liar", "liars"),
        context.total,
        survived.len(),
        problems.len(),
        elapsed / 60,
        elapsed % 60
    );
    if survived.is_empty() && problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} survived, {} stale, broken or refused, of {}",
            survived.len(),
            problems.len(),
            plural(
                chosen.len(),
                "planted bug or liar",
                "planted bugs and liars"
            )
        ))
    }
}

/// `1 bug`, `2 bugs`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The five checks that caught the most bugs, most first.
fn strongest<'a>(catches: &BTreeMap<&'a str, usize>) -> Vec<(&'a str, usize)> {
    let mut all: Vec<(&str, usize)> = catches.iter().map(|(name, n)| (*name, *n)).collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    all.truncate(5);
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    const PYTHON_DIR: &str = "implementations/python";

    #[test]
    fn wrap_keeps_every_name_in_order() {
        let names: Vec<String> = (0..30).map(|i| format!("check_number_{i}")).collect();
        let lines = wrap(&names);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|line| line.len() <= NAMES_WIDTH));
        let joined = lines.join(" ");
        assert_eq!(joined, names.join(", "));
    }

    #[test]
    fn a_patch_whose_find_text_is_missing_or_repeated_is_stale() {
        let dir = TempDir::new(&format!("bloomproof-gallery-test-{}", std::process::id()));
        let Ok(dir) = dir else {
            return;
        };
        let python = dir.0.join(PYTHON_DIR);
        assert!(std::fs::create_dir_all(&python).is_ok());
        assert!(std::fs::write(python.join("x.py"), "a = 1\nb = 1\n").is_ok());
        let bug = |find: &str| Bug {
            id: "x".to_owned(),
            area: "test".to_owned(),
            description: "test".to_owned(),
            plant: Plant::Patch(vec![Edit {
                file: "x.py".to_owned(),
                find: find.to_owned(),
                replace: "2".to_owned(),
            }]),
            probe: None,
            off_spec: false,
        };
        let apply = |b: &Bug| match &b.plant {
            Plant::Patch(edits) => patch(&dir.0, PYTHON_DIR, b, edits),
            Plant::Liar { .. } => Err("liar".to_owned()),
        };
        let ok = apply(&bug("a = 1"));
        assert!(
            matches!(ok.as_deref(), Ok([(file, text)]) if file == "x.py" && text == "2\nb = 1\n")
        );
        for stale in ["c = 1", "= 1"] {
            let message = apply(&bug(stale)).err().unwrap_or_default();
            assert!(message.starts_with("stale patch: bug x:"), "{message}");
            assert!(message.contains("x.py"), "{message}");
        }
    }
}
