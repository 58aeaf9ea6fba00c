//! The front end of `bloomproof conformance` (which `cargo xtask conformance` runs with
//! the same arguments): its flags ([`Options`]), the report printed and the exit code.

use bloomproof_conformance::adapter::{
    DEFAULT_DEADLINE, DEFAULT_TIMEOUT, parse_deadline, parse_timeout,
};
use bloomproof_conformance::generated::{COUNT_MAX, Generation};
use bloomproof_conformance::report::Class;
use bloomproof_conformance::run::{FailFast, Subjects, check_names, run};
use bloomproof_conformance::{Spec, embedded};
use std::path::PathBuf;
use std::process::ExitCode;

/// How to print the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// One line per check, the figures, `N passed, M failed`.
    #[default]
    Text,
    /// The whole report as JSON.
    Json,
}

/// A class `--require` makes the verdict count, beside core and the adapter protocol
/// (which always count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Require {
    /// bloomproof's own decisions that make implementations agree (interop checks).
    Interop,
    /// Tamper resistance beyond the sources (hardening checks).
    Hardening,
    /// Every class.
    All,
    /// Every case: a case left out because the adapter speaks an older adapter protocol
    /// than the case needs fails the run (not a class: the cases' checks keep theirs).
    EveryCase,
}

/// Which failures stop a `--fail-fast` run (each of a check the verdict counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailFastOn {
    /// Any failure.
    Any,
    /// A failure of a case that draws no generated input: one that every seed gives
    /// (a failure of generated inputs alone does not stop the run).
    Fixed,
}

/// The classes `require` names, each once.
pub fn required_classes(require: &[Require]) -> Vec<Class> {
    let mut classes = Vec::new();
    for word in require {
        let named: &[Class] = match word {
            Require::Interop => &[Class::Interop],
            Require::Hardening => &[Class::Hardening],
            Require::All => &Class::OPTIONAL,
            Require::EveryCase => &[],
        };
        for class in named {
            if !classes.contains(class) {
                classes.push(*class);
            }
        }
    }
    classes.sort();
    classes
}

/// Options of a conformance run: the command-line flags of `bloomproof conformance`
/// (and so of `cargo xtask conformance`, which passes its arguments on).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Options {
    /// Run the spec in this folder (its protocol folders' checks.json and cases.json)
    /// instead of the spec built into this binary.
    #[arg(long = "spec", value_name = "DIR")]
    pub spec_dir: Option<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Run only checks whose `<protocol>/<name>` contains this text.
    pub filter: Option<String>,
    /// Leave out the checks whose `<protocol>/<name>` contains this text (as the filter
    /// leaves out the others: they are not in the report). May be given several times.
    #[arg(long, value_name = "TEXT")]
    pub skip: Vec<String>,
    /// Run the checks against this command, spoken to through the adapter protocol
    /// (`bloomproof spec show ADAPTER.md`), instead of the in-process Rust implementation.
    #[arg(long = "impl", value_name = "COMMAND")]
    pub implementation: Option<String>,
    /// Seconds an adapter has to read and answer one request: a finite number from 0.1
    /// to 3600 [default: 20].
    #[arg(long, value_parser = parse_timeout, value_name = "SECS", allow_hyphen_values = true)]
    pub timeout: Option<std::time::Duration>,
    /// Seconds the whole run through an adapter may take: a finite number from 1 to
    /// 86400 [default: 900]. A request still unanswered then ends the adapter and the
    /// run (exit 2); the report states the deadline.
    #[arg(long, value_parser = parse_deadline, value_name = "SECS", allow_hyphen_values = true)]
    pub deadline: Option<std::time::Duration>,
    /// Check the accumulated digests (spec/accumulated.json) at their full count, about a
    /// million inputs per protocol, instead of the published checkpoint.
    #[arg(long)]
    pub accumulated_full: bool,
    /// The seed of the generated checks' inputs (0 to 2^53 - 1): the same seed draws
    /// the same inputs [default: a fresh one, printed by the report].
    #[arg(long, value_name = "N", value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Run the vector files of this folder (`<protocol>/<kind>.json`, as `cargo xtask
    /// vectors` writes them) as checks too: `<protocol>/vectors.<kind>`.
    #[arg(long = "vectors", value_name = "DIR")]
    pub vectors_dir: Option<PathBuf>,
    /// Draw N inputs per generated case instead of the spec's count (1 to 100000).
    #[arg(long, value_name = "N", value_parser = parse_random)]
    pub random: Option<u32>,
    /// Leave the times out of the report (the text report's `time:` line, the
    /// `elapsed_ms` and `threads` fields of `--format json`), so that two reports of one
    /// implementation on one spec are identical.
    #[arg(long)]
    pub no_times: bool,
    /// Report a generated check's first differing input as drawn instead of shrinking
    /// it to a minimal one: a faster verdict when only which checks fail matters (each
    /// shrinking step is a round trip, and a long session script through a slow adapter
    /// can take a minute to shrink).
    #[arg(long)]
    pub no_shrink: bool,
    /// Stop after the first check that fails and that the verdict counts (core, the
    /// adapter protocol, and the classes of `--require`): every check before it runs,
    /// none after it; the report names it and counts the checks not run. For a fast
    /// yes or no, not for a list of everything that is wrong. `fixed`: stop only at a
    /// failure of a case without generated inputs (one that every seed gives).
    #[arg(long, value_enum, value_name = "ON", num_args = 0..=1, require_equals = true, default_missing_value = "any")]
    pub fail_fast: Option<FailFastOn>,
    /// Count this class in the verdict (and the exit status) too: `interop` (bloomproof's
    /// own decisions that make implementations agree), `hardening` (tamper resistance
    /// beyond the sources) or `all`. May be given several times. Core checks (what the
    /// sources state) and the adapter protocol's own always count. `every-case`: a case
    /// left out because the adapter speaks an older adapter protocol fails the run.
    #[arg(long, value_enum, value_name = "CLASS")]
    pub require: Vec<Require>,
}

/// Loads the spec (the one embedded in this binary, or the folder
/// `options.spec_dir`), runs it against the in-process Rust implementation (or the
/// adapter command of `options.implementation`), prints the report with the spec's
/// version ([`embedded::version`]). Exit code 0 when every check the verdict counts
/// passed (core, adapter protocol, and the classes of `--require`), 1 when one failed,
/// 2 when the spec did not load, the adapter did not start (or answered
/// nothing but `bad_request`, or the run's deadline passed), no check matched the
/// filter, or the report could not be written.
pub fn conformance(options: &Options) -> ExitCode {
    let (mut spec, spec_version) = match load_spec(options.spec_dir.as_deref()) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    spec.set_generation(Generation {
        seed: options.seed.unwrap_or(spec.generation().seed),
        count: options.random,
        shrink: !options.no_shrink,
    });
    spec.accumulated_full = options.accumulated_full;
    spec.fail_fast = options.fail_fast.map(|on| FailFast {
        classes: required_classes(&options.require),
        fixed: on == FailFastOn::Fixed,
    });
    if let Some(dir) = &options.vectors_dir {
        match bloomproof_conformance::vectors::load(dir) {
            Ok(vectors) => spec.vectors = vectors,
            Err(errors) => {
                for error in &errors {
                    eprintln!("load error: {error}");
                }
                eprintln!("{} load errors: the spec was not run", errors.len());
                return ExitCode::from(2);
            }
        }
    }
    spec.skip.clone_from(&options.skip);
    // The names the run may select, for the refusals below.
    let names = check_names(&spec, options.implementation.is_some());
    // `--skip` that leaves nothing of what the filter selects is refused as a filter
    // that selects nothing is, below.
    if !options.skip.is_empty() {
        let selected = |name: &&String| {
            options
                .filter
                .as_deref()
                .is_none_or(|filter| name.contains(filter))
        };
        if names.iter().any(|name| selected(&name))
            && !names
                .iter()
                .any(|name| selected(&name) && !spec.skips(name))
        {
            eprintln!(
                "bloomproof conformance: --skip {} leaves out every check{}: nothing was run",
                options
                    .skip
                    .iter()
                    .map(|s| bloomproof_wire::quote_prefix(s))
                    .collect::<Vec<_>>()
                    .join(", --skip "),
                options
                    .filter
                    .as_deref()
                    .map(|f| format!(" whose name contains {}", bloomproof_wire::quote_prefix(f)))
                    .unwrap_or_default()
            );
            return ExitCode::from(2);
        }
    }
    // A filter that selects nothing is refused before any adapter is started: no
    // header, no `0 passed, 0 failed`, but the names it may have meant.
    if let Some(filter) = options.filter.as_deref() {
        if !names.iter().any(|name| name.contains(filter))
            && check_names(&spec, true)
                .iter()
                .any(|name| name.contains(filter))
        {
            eprintln!(
                "bloomproof conformance: the checks whose name contains {} are the adapter protocol's own: they run only through an adapter (--impl COMMAND); nothing was run",
                bloomproof_wire::quote_prefix(filter)
            );
            return ExitCode::from(2);
        }
        if !names.iter().any(|name| name.contains(filter)) {
            eprintln!(
                "bloomproof conformance: no check's name contains {}: nothing was run{}. {} (`bloomproof spec checks` lists every name)",
                bloomproof_wire::quote_prefix(filter),
                if options.implementation.is_some() {
                    " and no adapter was started"
                } else {
                    ""
                },
                did_you_mean_sentence(filter, &names)
            );
            return ExitCode::from(2);
        }
    }
    let mut subjects = match &options.implementation {
        None => Subjects::rust(),
        Some(command) => {
            match Subjects::adapter_with_deadline(
                command,
                options.timeout.unwrap_or(DEFAULT_TIMEOUT),
                options.deadline.unwrap_or(DEFAULT_DEADLINE),
            ) {
                Ok(subjects) => subjects,
                Err(err) => {
                    eprintln!("error: {err}");
                    return ExitCode::from(2);
                }
            }
        }
    };
    let mut report = run(&spec, &mut subjects, options.filter.as_deref())
        .requiring(&required_classes(&options.require));
    report.spec_version = spec_version;
    if options.implementation.is_some() {
        report.deadline_secs = Some(options.deadline.unwrap_or(DEFAULT_DEADLINE).as_secs_f64());
    }
    if options.no_times {
        report = report.without_times();
    }
    // One paragraph instead of a report whose every failure has the same cause.
    let paragraph = report.diagnosis.clone().or_else(|| report.stopped.clone());
    let only_paragraph =
        report.diagnosis.is_some() || (report.stopped.is_some() && report.passed == 0);
    let written = match options.format {
        Format::Text if only_paragraph => Ok(()),
        Format::Text => write_stdout(&report.render_text()),
        Format::Json => match serde_json::to_string_pretty(&report) {
            Ok(json) => write_stdout(&format!("{json}\n")),
            Err(err) => {
                eprintln!("cannot render the report: {err}");
                return ExitCode::from(2);
            }
        },
    };
    if written.is_err() {
        return ExitCode::from(2);
    }
    if let Some(paragraph) = paragraph {
        eprintln!(
            "bloomproof conformance: {}",
            bloomproof_wire::untrusted(&paragraph, 4000)
        );
        return ExitCode::from(2);
    }
    if report.checks.is_empty() {
        // The filter named only checks of protocols the adapter's handshake does not list.
        eprintln!(
            "bloomproof conformance: no check was run: the checks whose name contains {} belong to protocols the adapter does not implement (the report's `not run:` line)",
            bloomproof_wire::quote_prefix(options.filter.as_deref().unwrap_or_default())
        );
        return ExitCode::from(2);
    }
    if let Some(refused) = left_out_refused(&report, &options.require) {
        eprintln!("bloomproof conformance: {refused}");
        return ExitCode::FAILURE;
    }
    if report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Why `report` fails under `--require every-case`: the cases it left out, counted,
/// with the adapter protocol they need; `None` when none was left out or the flag is
/// not given.
pub fn left_out_refused(
    report: &bloomproof_conformance::report::Report,
    require: &[Require],
) -> Option<String> {
    let (cases, needs) = bloomproof_wire::report::LeftOut::counted(&report.left_out)?;
    if !require.contains(&Require::EveryCase) {
        return None;
    }
    let speaks = report.adapter.as_ref().map_or(String::new(), |a| {
        format!(", the adapter speaks {}", a.adapter_protocol)
    });
    Some(format!(
        "{cases} {} left out of {} {} (they need adapter protocol {needs}{speaks}), and \
         --require every-case counts them: the run fails",
        if cases == 1 { "case was" } else { "cases were" },
        report.left_out.len(),
        if report.left_out.len() == 1 {
            "check"
        } else {
            "checks"
        },
    ))
}

/// Loads the spec (the one embedded in this binary, or the folder `dir`) and its
/// version ([`embedded::version`], computed beside the loading). On failure, the load
/// errors are printed on stderr and the exit code is 2.
pub fn load_spec(dir: Option<&std::path::Path>) -> Result<(Spec, String), ExitCode> {
    let (loaded, version) = std::thread::scope(|scope| {
        let version = scope.spawn(|| match dir {
            None => Ok(embedded::embedded_version()),
            Some(dir) => embedded::files_in(dir).map(|files| embedded::version(&files)),
        });
        let loaded = match dir {
            None => bloomproof_conformance::load_embedded(),
            Some(dir) => bloomproof_conformance::load(dir),
        };
        match version.join() {
            Ok(version) => (loaded, version),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    let spec = match loaded {
        Ok(spec) => spec,
        Err(errors) => {
            for error in &errors {
                eprintln!("load error: {error}");
            }
            eprintln!("{} load errors: the spec was not run", errors.len());
            return Err(ExitCode::from(2));
        }
    };
    match version {
        Ok(version) => Ok((spec, version)),
        Err(err) => {
            eprintln!("error: {err}");
            Err(ExitCode::from(2))
        }
    }
}

/// Writes `text` to standard output. A reader that has gone (`| head`) is not an
/// error worth a panic, as `print!` would make it: the text is dropped and the exit
/// code still says how the run went (`Ok`). Any other write error (a full disk,
/// `> /dev/full`) is reported on stderr and is `Err`: the caller exits non-zero, as the
/// output was lost.
pub fn write_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("bloomproof: error: cannot write to standard output: {err}");
            Err(err)
        }
        _ => Ok(()),
    }
}

/// `bloomproof spec rules [FILTER]`: one block per rule of `rules.json`, its class and
/// document (and section), the source passage it restates or the reason it was decided
/// so, then the cases that pin it, or the reason it is a known gap. With a
/// filter, only the rules whose id contains it or one of whose cases' names
/// (`<protocol>/<case id>`) contains it, case ignored; none is an error that names the
/// closest rule ids.
pub fn rules_text(
    spec: &bloomproof_conformance::load::Spec,
    filter: Option<&str>,
) -> Result<String, String> {
    use std::fmt::Write as _;
    let mut out = String::new();
    let Some(file) = &spec.rules else {
        return Ok("the spec has no rules.json\n".into());
    };
    let wanted = filter.map(str::to_lowercase);
    let selected = |id: &str, cases: &[String]| {
        wanted.as_deref().is_none_or(|w| {
            id.to_lowercase().contains(w) || cases.iter().any(|c| c.to_lowercase().contains(w))
        })
    };
    let rule_cases = spec.rule_cases();
    if let Some(filter) = filter
        && !rule_cases.iter().any(|(id, cases)| selected(id, cases))
    {
        let ids: Vec<String> = rule_cases.into_iter().map(|(id, _)| id).collect();
        return Err(format!(
            "no rule id or case name contains {}. {} (`bloomproof spec rules` lists them all)",
            bloomproof_wire::quote_prefix(filter),
            did_you_mean_sentence(filter, &ids)
        ));
    }
    let mut shown = 0;
    for (rule, (id, cases)) in file.rules.iter().zip(rule_cases) {
        if !selected(&id, &cases) {
            continue;
        }
        shown += 1;
        let place = match &rule.section {
            Some(section) => format!("{}, section {section}", rule.document),
            None => rule.document.clone(),
        };
        let _ = writeln!(out, "{id}  [{}]  ({place})", rule.class.name());
        match (&rule.source, &rule.decision) {
            (Some(source), _) => {
                let (document, place) = (source.document.name(), &source.place);
                let _ = writeln!(out, "  source: {document}, {place}: {}", source.says);
            }
            (None, Some(decision)) => {
                let _ = writeln!(out, "  decision: {decision}");
            }
            (None, None) => {}
        }
        match file.known_gaps.iter().find(|g| g.rule == id) {
            Some(gap) => {
                let _ = writeln!(out, "  known gap: {}", gap.reason);
            }
            None => {
                for case in &cases {
                    let _ = writeln!(out, "  {case}");
                }
            }
        }
    }
    let classes: Vec<String> = bloomproof_wire::spec::Class::ALL
        .iter()
        .map(|class| {
            let count = file.rules.iter().filter(|r| r.class == *class).count();
            format!("{count} {}", class.name())
        })
        .collect();
    if filter.is_some() {
        let _ = writeln!(out, "{shown} of {} rules", file.rules.len());
    } else {
        let _ = writeln!(
            out,
            "{} rules ({}), {} known gaps",
            file.rules.len(),
            classes.join(", "),
            file.known_gaps.len()
        );
    }
    Ok(out)
}

/// `bloomproof spec checks`: every check a run can hold, by the full name a filter
/// matches (`<protocol>/<check>`), with what it asserts; the adapter protocol's own
/// checks last (they run only through an adapter).
pub fn checks_text(spec: &bloomproof_conformance::load::Spec) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let names = check_names(spec, true);
    for name in &names {
        let (group, check) = name.split_once('/').unwrap_or((name, ""));
        let asserts = spec
            .protocols
            .iter()
            .filter(|p| p.protocol == group)
            .flat_map(|p| &p.checks)
            .find(|c| c.name == check)
            .map(|c| c.asserts.clone())
            .or_else(|| {
                spec.wire
                    .as_ref()
                    .and_then(|w| w.checks.iter().find(|c| c.name == check))
                    .map(|c| format!("{} (only through an adapter)", c.asserts))
            });
        match asserts {
            Some(asserts) => {
                let _ = writeln!(out, "{name}\n  {asserts}");
            }
            None => {
                let _ = writeln!(out, "{name}");
            }
        }
    }
    let _ = writeln!(
        out,
        "{} checks; `bloomproof conformance FILTER` runs those whose name contains FILTER",
        names.len()
    );
    out
}

/// Reads `--seed`: an integer from 0 to 2^53 - 1 (so that a JSON reader of any
/// language reads it back exactly).
fn parse_seed(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(seed) if seed < 1 << 53 => Ok(seed),
        _ => Err(format!(
            "--seed takes an integer from 0 to {}, got {}",
            (1u64 << 53) - 1,
            bloomproof_conformance::quote::prefix(text)
        )),
    }
}

/// Reads `--random`: an integer from 1 to [`COUNT_MAX`].
fn parse_random(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(count) if (1..=COUNT_MAX).contains(&count) => Ok(count),
        _ => Err(format!(
            "--random takes an integer from 1 to {COUNT_MAX}, got {}",
            bloomproof_conformance::quote::prefix(text)
        )),
    }
}

/// The names among `names` that `wanted` most likely meant, best first (at most three):
/// those that contain it once `-` is read as `_` and case is ignored, else those whose
/// name, or a run of as many of its `_`/`-`/`/`/`.`-separated words as `wanted` has,
/// is close to it (Jaro-Winkler similarity of at least 0.8).
pub fn did_you_mean(wanted: &str, names: &[String]) -> Vec<String> {
    let norm = |text: &str| text.to_lowercase().replace('-', "_");
    let wanted = norm(wanted);
    let loose: Vec<String> = names
        .iter()
        .filter(|name| norm(name).contains(&wanted))
        .take(3)
        .cloned()
        .collect();
    if !loose.is_empty() {
        return loose;
    }
    let separators = ['_', '/', '.'];
    let words = wanted
        .split(separators)
        .filter(|w| !w.is_empty())
        .count()
        .max(1);
    let mut scored: Vec<(f64, &String)> = names
        .iter()
        .map(|name| {
            let name_norm = norm(name);
            let parts: Vec<&str> = name_norm
                .split(separators)
                .filter(|w| !w.is_empty())
                .collect();
            let windows = parts
                .windows(words.min(parts.len()).max(1))
                .map(|window| strsim::jaro_winkler(&wanted, &window.join("_")));
            let best = windows.fold(strsim::jaro_winkler(&wanted, &name_norm), f64::max);
            (best, name)
        })
        .filter(|(score, _)| *score >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored
        .into_iter()
        .take(3)
        .map(|(_, name)| name.clone())
        .collect()
}

/// "Did you mean A or B?", or "No name is close to it." when nothing is.
pub fn did_you_mean_sentence(wanted: &str, names: &[String]) -> String {
    let close = did_you_mean(wanted, names);
    match close.as_slice() {
        [] => "No name is close to it.".to_string(),
        [one] => format!("Did you mean {one}?"),
        [first @ .., last] => format!("Did you mean {} or {last}?", first.join(", ")),
    }
}
