//! The front end of `bloomproof conformance` (which `cargo xtask conformance` runs with
//! the same arguments): its flags ([`Options`]), the report printed and the exit code.

use bloomproof_conformance::adapter::{
    DEFAULT_DEADLINE, DEFAULT_TIMEOUT, parse_deadline, parse_timeout,
};
use bloomproof_conformance::generated::{COUNT_MAX, Generation};
use bloomproof_conformance::report::Class;
use bloomproof_conformance::run::{Subjects, run};
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
}

/// The classes `require` names, each once.
pub fn required_classes(require: &[Require]) -> Vec<Class> {
    let mut classes = Vec::new();
    for word in require {
        let named: &[Class] = match word {
            Require::Interop => &[Class::Interop],
            Require::Hardening => &[Class::Hardening],
            Require::All => &Class::OPTIONAL,
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
    /// Count this class in the verdict (and the exit status) too: `interop` (bloomproof's
    /// own decisions that make implementations agree), `hardening` (tamper resistance
    /// beyond the sources) or `all`. May be given several times. Core checks (what the
    /// sources state) and the adapter protocol's own always count.
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
    spec.set_generation(Generation {
        seed: options.seed.unwrap_or(spec.generation().seed),
        count: options.random,
    });
    spec.accumulated_full = options.accumulated_full;
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
        eprintln!(
            "bloomproof conformance: no check's name contains {}: nothing was run (the names are <protocol>/<check>, as the report lists them)",
            bloomproof_wire::quote_prefix(options.filter.as_deref().unwrap_or_default())
        );
        return ExitCode::from(2);
    }
    if report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
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
            None => embedded::load(),
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

/// `bloomproof spec rules`: one block per rule of `rules.json`, its document (and
/// section), then the cases that pin it, or the reason it is a known gap.
pub fn rules_text(spec: &bloomproof_conformance::load::Spec) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let Some(file) = &spec.rules else {
        return "the spec has no rules.json\n".into();
    };
    for (rule, (id, cases)) in file.rules.iter().zip(spec.rule_cases()) {
        let place = match &rule.section {
            Some(section) => format!("{}, section {section}", rule.document),
            None => rule.document.clone(),
        };
        let _ = writeln!(out, "{id}  ({place})");
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
    let _ = writeln!(
        out,
        "{} rules, {} known gaps",
        file.rules.len(),
        file.known_gaps.len()
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
