//! The command-line front end shared by `bloomproof conformance` and
//! `cargo xtask conformance`.

use crate::run::{Subjects, run};
use std::path::PathBuf;
use std::process::ExitCode;

/// How to print the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// One line per check, the figures, `N passed, M failed`.
    #[default]
    Text,
    /// The whole report as JSON.
    Json,
}

/// Options of a conformance run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The spec folder.
    pub spec_dir: PathBuf,
    /// Report format.
    pub format: Format,
    /// Only checks whose `<protocol>/<name>` contains this.
    pub filter: Option<String>,
    /// Drive this command through the adapter protocol instead of the in-process
    /// Rust implementation.
    pub implementation: Option<String>,
    /// Longest wait for one adapter response.
    pub timeout: Option<std::time::Duration>,
}

/// The default time an adapter has to answer one request.
pub const DEFAULT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// Loads the spec, runs it against the in-process Rust implementation (or the
/// adapter command of `options.implementation`), prints the report. Exit code 0 when every check passed, 1 when one failed, 2 when the spec
/// did not load.
pub fn conformance(options: &Options) -> ExitCode {
    let spec = match crate::load(&options.spec_dir) {
        Ok(spec) => spec,
        Err(errors) => {
            for error in &errors {
                eprintln!("load error: {error}");
            }
            eprintln!("{} load errors: the spec was not run", errors.len());
            return ExitCode::from(2);
        }
    };
    let mut subjects = match &options.implementation {
        None => Subjects::rust(),
        Some(command) => {
            match Subjects::adapter(command, options.timeout.unwrap_or(DEFAULT_TIMEOUT)) {
                Ok(subjects) => subjects,
                Err(err) => {
                    eprintln!("error: {err}");
                    return ExitCode::from(2);
                }
            }
        }
    };
    let report = run(&spec, &mut subjects, options.filter.as_deref());
    match options.format {
        Format::Text => print!("{}", report.render_text()),
        Format::Json => match serde_json::to_string_pretty(&report) {
            Ok(json) => println!("{json}"),
            Err(err) => {
                eprintln!("cannot render the report: {err}");
                return ExitCode::from(2);
            }
        },
    }
    if report.checks.is_empty() {
        eprintln!("no check matched: nothing was run");
        return ExitCode::FAILURE;
    }
    if report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
