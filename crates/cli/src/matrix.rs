//! `bloomproof matrix`: the results matrix from the binary alone. The suite (the spec
//! built into the binary, or `--spec DIR`) runs against every implementation given,
//! side by side, then each reads what every other wrote; the page, `matrix.json`,
//! `summary.md` and the badges are written to `--out`.

use bloomproof_conformance::adapter::{DEFAULT_TIMEOUT, parse_timeout};
use bloomproof_matrix::cross::ExportedSession;
use bloomproof_matrix::{Implementation, Implementations};
use std::path::PathBuf;
use std::process::ExitCode;

/// The flags of `bloomproof matrix`.
#[derive(Clone, Debug, clap::Args)]
pub struct MatrixArgs {
    /// An implementation to run, as NAME=COMMAND: an adapter command (spec/ADAPTER.md),
    /// run with `sh -c` from the current folder. May be given several times; the
    /// columns follow the order given, after those of --implementations.
    #[arg(long = "impl", value_name = "NAME=COMMAND")]
    pub implementations: Vec<String>,
    /// A file of implementations (names, commands and expected failures; its schema is `schemas/matrix-implementations.schema.json`
    /// of `bloomproof spec export`). Without it, the first column is this binary's Rust
    /// implementation, in process, named `rust`.
    #[arg(long = "implementations", value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// A session another producer exported, as NAME=FILE (a JSON object with `export`
    /// and `view`): every implementation imports it and must show the same view.
    #[arg(long = "session-from", value_name = "NAME=FILE")]
    pub sessions: Vec<String>,
    /// Run the spec in this folder instead of the one built into this binary.
    #[arg(long = "spec", value_name = "DIR")]
    pub spec_dir: Option<PathBuf>,
    /// Run the vector files of this folder through every implementation too, as checks
    /// `<protocol>/vectors.<kind>` (`cargo xtask matrix` passes `vectors`).
    #[arg(long = "vectors", value_name = "DIR")]
    pub vectors_dir: Option<PathBuf>,
    /// The folder to write the matrix into: created if missing; an existing one must be
    /// empty or a previous matrix output (which is replaced), unless --force.
    #[arg(long, value_name = "DIR", default_value = "bloomproof-matrix")]
    pub out: PathBuf,
    /// Write into an --out folder that is neither empty nor a previous matrix output,
    /// overwriting the matrix's files there and leaving every other file.
    #[arg(long)]
    pub force: bool,
    /// Seconds an adapter has to read and answer one request [default: 20].
    #[arg(long, value_parser = parse_timeout, value_name = "SECS", allow_hyphen_values = true)]
    pub timeout: Option<std::time::Duration>,
    /// Fail the matrix on an unexpected failure of this class too: `interop`,
    /// `hardening` or `all` (may be given several times). Core checks and the adapter
    /// protocol's own always count; the others are shown and counted apart.
    /// `every-case`: a case left out because an adapter speaks an older adapter
    /// protocol fails the matrix.
    #[arg(long, value_enum, value_name = "CLASS")]
    pub require: Vec<crate::front::Require>,
}

/// `NAME=VALUE`, both parts non-empty.
fn name_value<'a>(flag: &str, given: &'a str) -> Result<(&'a str, &'a str), String> {
    match given.split_once('=') {
        Some((name, value)) if !name.is_empty() && !value.is_empty() => Ok((name, value)),
        _ => Err(format!("{flag} takes NAME=VALUE, got {given:?}")),
    }
}

/// The implementations the flags name, checked as an implementations file is.
fn implementations(args: &MatrixArgs) -> Result<Vec<Implementation>, String> {
    let mut list = match &args.file {
        Some(file) => {
            let text = bloomproof_wire::bounded::read_text(
                file,
                bloomproof_wire::bounded::IMPLEMENTATIONS_FILE_MAX,
                "an implementations file",
            )
            .map_err(|e| format!("--implementations {}: {e}", file.display()))?;
            Implementations::parse(&text, &file.display().to_string())?.implementations
        }
        None => vec![Implementation {
            name: "rust".to_string(),
            command: None,
            expected_failures: Vec::new(),
        }],
    };
    for given in &args.implementations {
        let (name, command) = name_value("--impl", given)?;
        list.push(Implementation {
            name: name.to_string(),
            command: Some(command.to_string()),
            expected_failures: Vec::new(),
        });
    }
    let list = Implementations {
        schema: None,
        implementations: list,
    };
    list.check("the implementations given")?;
    Ok(list.implementations)
}

/// The sessions `--session-from` names, each read by the bounded reader. Every name is
/// checked first, as an implementation's is, and must differ from every
/// implementation's and every other session's: it names a row of the cross-reading.
fn sessions(
    args: &MatrixArgs,
    implementations: &[Implementation],
) -> Result<Vec<(String, ExportedSession)>, String> {
    let mut given = Vec::new();
    for flag in &args.sessions {
        let (name, file) = name_value("--session-from", flag)?;
        let at = format!("--session-from {}", bloomproof_wire::untrusted(flag, 200));
        bloomproof_wire::matrix::check_name(name).map_err(|why| format!("{at}: {why}"))?;
        if implementations.iter().any(|i| i.name == name) {
            return Err(format!(
                "{at}: name {name:?} is an implementation's name: a session's producer needs a name of its own"
            ));
        }
        if given.iter().any(|(other, _)| *other == name) {
            return Err(format!("{at}: name {name:?} is given twice"));
        }
        given.push((name, file));
    }
    given
        .into_iter()
        .map(|(name, file)| {
            let at = format!(
                "--session-from {name}={}",
                bloomproof_wire::untrusted(file, 200)
            );
            let text = bloomproof_wire::bounded::read_text(
                std::path::Path::new(file),
                bloomproof_wire::bounded::SESSION_FILE_MAX,
                "a session file",
            )
            .map_err(|e| format!("{at}: {e}"))?;
            let session = serde_json::from_str(&text).map_err(|e| format!("{at}: {e}"))?;
            Ok((name.to_string(), session))
        })
        .collect()
}

/// Runs the matrix: exit 0 when it passed, 1 when it failed (the first errors on
/// stderr, all of them in the files written; stdout says what passed and where the
/// matrix is), 2
/// when the flags, the spec or a file given could not be read, or the matrix or its
/// summary could not be written.
pub fn matrix(args: &MatrixArgs) -> ExitCode {
    let usage = |message: String| {
        eprintln!("bloomproof matrix: error: {message}");
        ExitCode::from(2)
    };
    let implementations = match implementations(args) {
        Ok(implementations) => implementations,
        Err(message) => return usage(message),
    };
    let sessions = match sessions(args, &implementations) {
        Ok(sessions) => sessions,
        Err(message) => return usage(message),
    };
    let binary = match std::env::current_exe() {
        Ok(binary) => binary,
        Err(e) => return usage(format!("cannot find this binary's path: {e}")),
    };
    let (mut spec, spec_version) = match crate::front::load_spec(args.spec_dir.as_deref()) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    if let Some(dir) = &args.vectors_dir {
        match bloomproof_conformance::vectors::load(dir) {
            Ok(vectors) => spec.vectors = vectors,
            Err(errors) => return usage(errors.join("\n")),
        }
    }
    // The folder is checked once every input is read and before anything runs: a
    // refusal costs no run, and a bad input leaves no folder behind.
    if let Err(message) = bloomproof_matrix::page::prepare(&args.out, args.force) {
        return usage(message);
    }
    let options = bloomproof_matrix::Options {
        implementations,
        sessions,
        timeout: args.timeout.unwrap_or(DEFAULT_TIMEOUT),
        binary,
        require: crate::front::required_classes(&args.require),
        every_case: args.require.contains(&crate::front::Require::EveryCase),
    };
    let progress = |line: &str| eprintln!("{line}");
    let matrix = bloomproof_matrix::compute(&spec, spec_version, &options, &progress);
    if let Err(message) = bloomproof_matrix::page::write(&args.out, &matrix) {
        eprintln!("bloomproof matrix: cannot write the matrix: {message}");
        return ExitCode::from(2);
    }
    let stdout = bloomproof_matrix::page::terminal(&matrix, &args.out);
    if crate::front::write_stdout(&stdout).is_err() {
        return ExitCode::from(2);
    }
    if matrix.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "the matrix failed ({}):",
            match matrix.errors.len() {
                1 => "1 error".to_string(),
                n => format!("{n} errors"),
            }
        );
        eprint!(
            "{}",
            bloomproof_matrix::page::terminal_errors(&matrix, &args.out)
        );
        ExitCode::FAILURE
    }
}
