//! `cargo xtask gallery [--every-check] [python|js|faithful] [FILTER]`: the planted-bug
//! galleries, the suite proving its own power, and the faithful variants, the suite
//! proving its fairness ([`faithful`]: readings the sources allow must pass every core
//! check).
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
//!    --timeout 20 --no-shrink`, or the liar's command; the runner is killed with everything it
//!    started after 120 s, and the copy is removed;
//! 5. prints one row per bug with the checks that failed (that caught it), as soon as
//!    it and the rows above it are known, then a summary with the counts and the time.
//!
//! An entry's verdict is the whole suite's: by default its groups of checks (each
//! protocol, the adapter protocol's own checks) run one conformance run each, cheapest
//! first by the controls' times (but the group of the patched file's protocol, or of the
//! adapter protocol for the adapter's file, first,
//! `Kind::first_groups`), and the first group that catches the entry ends its
//! runs. A failing group fails the whole suite, so nothing caught is caught less; what
//! is saved is the groups after the first that catches the entry. Each group's run
//! stops at its first failed check, of any class: the gallery requires every class, as
//! CI's conformance step does (`bloomproof conformance --fail-fast --require all`;
//! under `--seeds`, `--fail-fast=fixed`: its first failure of a case without generated
//! inputs, so that whether one catches the entry, which decides whether it is swept,
//! is judged as on the whole suite). A stop with no case passed before it runs the
//! group again in full, so that "does not run at all" is judged on every check. The
//! rows list the checks that failed up to the stop, and the summary the entries a
//! check beyond core caught first; whether a core check catches such an entry too is
//! `--every-check`'s to say, which runs the whole suite for every entry and lists
//! every check that catches it (judging it on every run ran every group whole for
//! each such entry: over half of each gallery's time).
//!
//! It fails when a bug or liar passes every check (`<id> survived: no check caught
//! it`), when a patch is stale, when a subject cannot be run at all (or fails every
//! check: a patch that breaks the adapter outright is no realistic bug), or when a
//! control fails. `FILTER` runs only the bugs whose id contains it (the controls always
//! run).
//!
//! `--seeds N` ([`mod@sweep`]) then sweeps every entry whose catch rests on generated
//! inputs alone (every failure it caused is of a case of shape `generated`) over N
//! seeds, the run's own seed first: an entry that passes on any of them fails the
//! gallery, named with the seeds that let it pass. An entry caught by a case with no
//! generated input is caught on every seed (only the generated cases' inputs are keyed
//! by the seed), so it is not swept. To say which kind an entry is, a group's run that
//! generated inputs alone catch is followed by the later groups' runs (each stops at its
//! first failure of a case without generated inputs); these leave out the checks whose
//! every case is generated (`--skip /generated_`, [`sweep::Generated::skip`]), which
//! cannot answer that question.

mod entries;
mod faithful;
mod print;
mod runs;
mod subject;
mod sweep;

use crate::process::{self, TempDir, executable, kill, parallel, shell_quote};
use entries::*;
use faithful::{FAITHFUL, run_faithful};
use print::*;
use runs::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use subject::*;
use sweep::*;

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
    /// The runtime's arguments that print the path of its own executable (see
    /// [`process::executable`]).
    executable: &'static [&'static str],
    /// Whether every entry must carry a probe.
    probes: bool,
    /// The group of checks an entry patching this file runs first (its protocol's, or for
    /// the adapter the adapter protocol's own: the group most likely to catch it, so that
    /// the groups before it in the cheapest-first order are run only when it does not).
    /// An order only: the verdict is the same.
    first_groups: &'static [(&'static str, &'static str)],
}

/// The group of fnv1a-utf16-v1's checks.
const FNV: &str = "fnv1a-utf16-v1";
/// The group of the adapter protocol's own checks (`spec/adapter-protocol.json`).
const ADAPTER: &str = bloomproof_wire::report::ADAPTER_GROUP;

/// The two galleries, in the order they run.
const KINDS: [Kind; 2] = [
    Kind {
        name: "python",
        bugs_file: "gallery/python/bugs.json",
        dir: "implementations/python",
        runtime: "python3",
        adapter: "bloomproof_py/adapter.py",
        check: &["-m", "py_compile"],
        executable: process::PYTHON_EXECUTABLE,
        probes: false,
        first_groups: &[
            ("bloomproof_py/doc_membership_v1.py", "doc-membership-v1"),
            ("bloomproof_py/fnv1a_utf16_v1.py", FNV),
            ("bloomproof_py/session.py", FNV),
            ("bloomproof_py/estimates.py", FNV),
            ("bloomproof_py/adapter.py", ADAPTER),
        ],
    },
    Kind {
        name: "js",
        bugs_file: "gallery/js/bugs.json",
        dir: "implementations/js",
        runtime: "node",
        adapter: "adapter.mjs",
        check: &["--check"],
        executable: &["-p", "process.execPath"],
        probes: true,
        first_groups: &[
            ("doc_membership_v1.mjs", "doc-membership-v1"),
            ("fnv1a_utf16_v1.mjs", FNV),
            ("session.mjs", FNV),
            ("json.mjs", FNV),
            ("adapter.mjs", ADAPTER),
        ],
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
    /// The request: an object (sent compact, with the gallery's id), or a string, the
    /// exact line sent, whose one `{id}` the gallery replaces by its id (a JSON string),
    /// for a bug in how a line is spelled.
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

impl Subject {
    /// The group of checks this subject runs first ([`Kind::first_groups`]): that of
    /// the first file it patches, if the gallery names one.
    fn first_group(&self, kind: &Kind) -> Option<&'static str> {
        let Subject::Patched(files) = self else {
            return None;
        };
        let (file, _) = files.first()?;
        kind.first_groups
            .iter()
            .find(|(name, _)| name == file)
            .map(|(_, group)| *group)
    }
}

/// Where a conformance run stops (`bloomproof conformance --fail-fast[=fixed]`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FailFast {
    /// Every check runs.
    Off,
    /// At the first failed check.
    Any,
    /// At the first failure of a case without generated inputs (under `--seeds`: such a
    /// failure holds on every seed, and decides whether the entry is swept).
    Fixed,
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
        /// The failed checks of a class beyond core and the adapter protocol (interop,
        /// hardening), each as `<name> (<class>)`.
        beyond_core: Vec<String>,
        /// The failed checks with a failure of a case that draws no generated input: a
        /// catch there holds on every seed.
        fixed: Vec<String>,
        /// The failed checks whose every failure is the adapter's silence past
        /// `--timeout`: a catch that depends on the machine's speed, not on the answers
        /// (a planted bug made slow by its patch), so never a fixed catch.
        timed_out: Vec<String>,
        /// The checks not run because the run stopped at its first failed check
        /// (`--fail-fast`); counted in `total`.
        not_run: usize,
        /// Whether some case of the checks run passed.
        case_passed: bool,
    },
    /// No report: why.
    Broken(String),
}

/// The verdict on one bug.
enum Verdict {
    /// Caught by these checks; the second list names those of them beyond core (interop,
    /// hardening), all of them when only such checks caught it; the third those of them
    /// with a failure of a case that draws no generated input (empty: the catch rests
    /// on generated inputs alone, and `--seeds` sweeps it); the fourth those that failed
    /// only by the adapter's silence past `--timeout`.
    Caught(Vec<String>, Vec<String>, Vec<String>, Vec<String>),
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
#[derive(Clone)]
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
    /// The seed of every conformance run's generated inputs: one per gallery run, so
    /// that a survivor replays (`--seed`).
    seed: u64,
    /// The cases of shape `generated` (the only ones the seed changes).
    generated: Arc<Generated>,
    /// `--seeds N`: the number of seeds an entry caught by generated inputs alone is
    /// swept over (the run's own seed first); 0 or 1: no sweep.
    seeds: u32,
    /// Whether and where an entry's runs stop (`bloomproof conformance --fail-fast
    /// --require all`, every class stopping them): set with [`Context::stages`], after
    /// the controls, which run every check.
    fail_fast: FailFast,
    /// `bloomproof conformance --skip`: the checks a run leaves out (the checks whose
    /// every case is generated, in an entry's first pass under `--seeds`).
    skip: Option<&'static str>,
    /// The executable the gallery's runtime runs ([`process::executable`]): the patched
    /// copies' adapters run, and their files are checked, with it.
    runtime: String,
    /// The Python executable ([`process::executable`]) that runs the liar.
    python: String,
}

/// A fresh seed below 2^53, from the clock and the process id.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mixed = (nanos as u64) ^ u64::from(std::process::id()).rotate_left(32);
    // A multiplicative mix (splitmix64's constant), so nearby clocks give far seeds.
    mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 11
}

/// Runs the galleries: `[python|js|faithful] [FILTER]` (`every_check`: the whole suite
/// for every entry; `seed`: the generated inputs' seed of every run, else a fresh one;
/// `seeds`: sweep the entries caught by generated inputs alone over that many seeds).
/// With no gallery named, all three run.
pub fn run(
    every_check: bool,
    seed: Option<u64>,
    seeds: Option<u32>,
    args: &[String],
) -> Result<(), String> {
    let usage = "usage: cargo xtask gallery [--every-check] [--seed N] [--seeds N] [python|js|faithful] [FILTER]";
    let (kinds, faithful, rest): (Vec<&'static Kind>, bool, &[String]) = match args.split_first() {
        Some((first, rest)) if first == FAITHFUL => (Vec::new(), true, rest),
        Some((first, rest)) if KINDS.iter().any(|k| k.name == first) => (
            KINDS.iter().filter(|k| k.name == first).collect(),
            false,
            rest,
        ),
        _ => (KINDS.iter().collect(), true, args),
    };
    if seeds.is_some() && kinds.is_empty() {
        return Err(format!(
            "--seeds sweeps the planted-bug galleries (python, js), not the faithful variants; {usage}"
        ));
    }
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
    let variants = if faithful {
        faithful::load(&root)?
    } else {
        Vec::new()
    };
    if let Some(f) = filter
        && !galleries
            .iter()
            .any(|(_, g)| g.bugs.iter().any(|bug| bug.id.contains(f)))
        && !variants.iter().any(|v| v.id.contains(f))
    {
        return Err(format!("no bug or variant id contains {f:?}"));
    }
    let generated = Arc::new(Generated::load(&root)?);
    let binary = process::build_runner(&root)?;
    let seed = seed.unwrap_or_else(fresh_seed);
    println!(
        "\n==> gallery: generated inputs of seed {seed} in every run (replay with \
         cargo xtask gallery --seed {seed})"
    );
    let python = executable("python3", process::PYTHON_EXECUTABLE);
    let context_of = |kind: &'static Kind, seeds: u32| Context {
        kind,
        runtime: executable(kind.runtime, kind.executable),
        python: python.clone(),
        root: root.clone(),
        binary: binary.clone(),
        total: 0,
        stages: Vec::new(),
        seed,
        generated: Arc::clone(&generated),
        seeds,
        fail_fast: FailFast::Off,
        skip: None,
    };
    let mut failures = Vec::new();
    for (kind, gallery) in &galleries {
        let context = context_of(kind, seeds.unwrap_or(0));
        if let Err(message) = run_gallery(context, gallery, filter, every_check) {
            failures.push(format!(
                "{} gallery ({}): {message}",
                kind.name, kind.bugs_file
            ));
        }
    }
    if faithful && let Some(python) = KINDS.first() {
        let context = context_of(python, 0);
        if let Err(message) = run_faithful(&context, filter) {
            failures.push(format!(
                "{FAITHFUL} gallery ({}): {message}",
                faithful::FAITHFUL_FILE
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} (seed {seed}: replay with cargo xtask gallery --seed {seed})",
            failures.join("; ")
        ))
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
        context.fail_fast = if context.seeds >= 2 {
            FailFast::Fixed
        } else {
            FailFast::Any
        };
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
             every check that catches it listed)",
            order.join(", ")
        );
        if let Some(skip) = context
            .generated
            .skip()
            .filter(|_| context.fail_fast == FailFast::Fixed)
        {
            println!(
                "under --seeds, the groups run first without the checks whose every case is \
                 generated (--skip {skip:?}): a case without generated inputs that catches an \
                 entry does so at every seed, and it is not swept; an entry none catches then \
                 runs those checks, stopping at the first that fails"
            );
        }
        println!();
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
    let summary = summarise(gallery, &context, &chosen, &rows, started);
    if context.seeds > 1 {
        let swept = sweep(&context, &subjects, &rows, id_width);
        return match (summary, swept) {
            (Ok(()), Ok(())) => Ok(()),
            (Err(a), Ok(())) | (Ok(()), Err(a)) => Err(a),
            (Err(a), Err(b)) => Err(format!("{a}; {b}")),
        };
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A probe is a request object without id, or an exact line holding `{id}` once and
    /// no line break; anything else is refused when `bugs.json` loads.
    #[test]
    fn a_probe_is_a_request_or_one_line_with_one_id() {
        let probe = |request: Value| {
            entries::probe(
                &serde_json::json!({"request": request, "pick": "/error/kind", "answer": "x"}),
                "bug b",
            )
        };
        assert!(probe(serde_json::json!({"op": "sha256"})).is_ok());
        assert!(probe(serde_json::json!({"id": 1, "op": "sha256"})).is_err());
        assert!(probe(serde_json::json!("{\"id\":{id}}\u{a0}")).is_ok());
        for bad in [
            "{\"id\":1}",
            "{id}{id}",
            "{\"id\":{id}}\n",
            "{\"id\":{id}}\r",
        ] {
            let refused = probe(serde_json::json!(bad)).err().unwrap_or_default();
            assert!(refused.contains("`{id}` once"), "{bad:?}: {refused}");
        }
        assert!(probe(serde_json::json!(7)).is_err());
    }

    const PYTHON_DIR: &str = "implementations/python";

    /// Every file a gallery runs a group first for is a file of its implementation,
    /// and the group one of a protocol's or the adapter protocol's (a stale name would
    /// only cost time, silently).
    #[test]
    fn the_first_groups_name_real_files_and_protocol_groups() {
        let root = super::super::root();
        for kind in &KINDS {
            for (file, group) in kind.first_groups {
                assert!(
                    root.join(kind.dir).join(file).is_file(),
                    "{}: {file}",
                    kind.name
                );
                let spec = root.join("spec");
                assert!(
                    spec.join(group).join("checks.json").is_file()
                        || spec.join(format!("{group}.json")).is_file(),
                    "{}: {group}",
                    kind.name
                );
            }
        }
        let patched = Subject::Patched(vec![("session.mjs".into(), String::new())]);
        assert_eq!(patched.first_group(&KINDS[1]), Some(FNV));
        assert_eq!(patched.first_group(&KINDS[0]), None);
        let adapter = Subject::Patched(vec![("bloomproof_py/adapter.py".into(), String::new())]);
        assert_eq!(adapter.first_group(&KINDS[0]), Some("adapter-protocol"));
        assert_eq!(Subject::Liar(String::new()).first_group(&KINDS[1]), None);
    }

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
            Plant::Patch(edits) => patch(&dir.0, PYTHON_DIR, &format!("bug {}", b.id), edits),
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
