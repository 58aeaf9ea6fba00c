//! Running the matrix: the suite against every implementation, in parallel, then
//! cross-reading among them.

use crate::cross::{self, ExportedSession};
use crate::judge::judge;
use bloomproof_conformance::Spec;
use bloomproof_conformance::run::{Subjects, run as run_suite};
use bloomproof_wire::matrix::{
    ClassTally, Implementation, ImplementationResult, Matrix, MatrixCheck,
};
use bloomproof_wire::report::{Class, LeftOut};
use std::path::PathBuf;
#[cfg(test)]
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What `{bloomproof}` stands for in a command.
pub const BINARY_WORD: &str = "{bloomproof}";

/// What one matrix run needs besides the spec.
#[derive(Debug)]
pub struct Options {
    /// The implementations, in the order of the page's columns.
    pub implementations: Vec<Implementation>,
    /// Extra session producers for cross-reading: (name, exported session).
    pub sessions: Vec<(String, ExportedSession)>,
    /// Per adapter request.
    pub timeout: Duration,
    /// What `{bloomproof}` in a command stands for: the `bloomproof` binary.
    pub binary: PathBuf,
    /// The classes besides core and the adapter protocol whose unexpected failures
    /// fail the matrix (`--require`).
    pub require: Vec<Class>,
    /// Whether a case left out (it needs a later adapter protocol than an adapter
    /// speaks) fails the matrix (`--require every-case`).
    pub every_case: bool,
}

/// A text quoted for `sh` (a path with spaces, say), or why it cannot be.
pub fn shell_quote(text: &str) -> Result<String, String> {
    shlex::try_quote(text)
        .map(|quoted| quoted.into_owned())
        .map_err(|e| format!("{text:?} cannot be quoted for sh: {e}"))
}

/// Runs every implementation through `spec` and cross-reading among them, from the
/// current folder (adapter commands are relative to it). `progress` gets one line per
/// implementation run and one for cross-reading.
pub fn compute(
    spec: &Spec,
    spec_version: String,
    options: &Options,
    progress: &(dyn Fn(&str) + Sync),
) -> Matrix {
    let mut checks: Vec<MatrixCheck> = spec
        .protocols
        .iter()
        .flat_map(|p| {
            p.checks.iter().map(|c| MatrixCheck {
                name: format!("{}/{}", p.protocol, c.name),
                asserts: c.asserts.clone(),
                source: c.source.clone(),
                class: c.class,
            })
        })
        .collect();
    // Besides the documented checks, a run may hold checks that no `checks.json` lists:
    // the adapter protocol's own (documented in `adapter-protocol.json`), the accumulated
    // digests and the vector files. They are rows too (after the documented ones, in the
    // order the reports hold them), so that every cell of every implementation has one.
    if let Some(wire) = &spec.wire {
        checks.extend(wire.checks.iter().map(|c| MatrixCheck {
            name: format!(
                "{}/{}",
                bloomproof_conformance::adapter_checks::GROUP,
                c.name
            ),
            asserts: c.asserts.clone(),
            source: c.source.clone(),
            class: c.class,
        }));
    }
    let names: Vec<String> = checks.iter().map(|c| c.name.clone()).collect();
    // Every implementation meets the same generated inputs (one spec, one seed): the
    // oracle's and the reference model's answers to them are computed once.
    let _memo = bloomproof_conformance::generated::memo::scope();
    let quoted = shell_quote(&options.binary.display().to_string())
        .unwrap_or_else(|_| options.binary.display().to_string());
    let expand = |command: &str| command.replace(BINARY_WORD, &quoted);
    let subjects = |command: &Option<String>| match command {
        None => Ok(Subjects::rust()),
        Some(command) => Subjects::adapter(&expand(command), options.timeout),
    };
    let list = &options.implementations;

    let jobs = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(list.len())
        .max(1);
    let claimed = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let index = claimed.fetch_add(1, Ordering::SeqCst);
                    let Some(implementation) = list.get(index) else {
                        break;
                    };
                    let began = Instant::now();
                    let mut result = ImplementationResult {
                        name: implementation.name.clone(),
                        language: "unknown".to_string(),
                        command: implementation.command.clone(),
                        version: "unknown".to_string(),
                        report_name: String::new(),
                        passed: 0,
                        total: 0,
                        classes: Vec::new(),
                        not_run: Vec::new(),
                        left_out: Vec::new(),
                        cells: Vec::new(),
                        error: None,
                    };
                    let mut errors = Vec::new();
                    match subjects(&implementation.command) {
                        Ok(mut subjects) => {
                            let report =
                                run_suite(spec, &mut subjects, None).requiring(&options.require);
                            let (cells, found) = judge(implementation, &report, &names);
                            (result.language, result.version) = match &report.adapter {
                                Some(started) => (
                                    started.implementation.language.clone(),
                                    format!(
                                        "{} {}",
                                        started.implementation.name, started.implementation.version
                                    ),
                                ),
                                None => (
                                    "Rust".to_string(),
                                    format!("bloomproof {}, in process", env!("CARGO_PKG_VERSION")),
                                ),
                            };
                            result.report_name = report.implementation;
                            result.passed = report.passed;
                            result.total = report.passed + report.failed;
                            result.classes = report
                                .classes
                                .iter()
                                .map(|c| ClassTally {
                                    class: c.class,
                                    passed: c.passed,
                                    total: c.passed + c.failed,
                                })
                                .collect();
                            result.not_run = report
                                .not_implemented
                                .iter()
                                .map(|n| n.protocol.clone())
                                .collect();
                            result.left_out = report.left_out.clone();
                            result.cells = cells;
                            errors = found;
                            if options.every_case
                                && let Some((cases, needs)) = LeftOut::counted(&report.left_out)
                            {
                                errors.push(format!(
                                    "{}: {cases} cases left out (adapter protocol {needs}), and --require every-case counts them",
                                    implementation.name
                                ));
                            }
                        }
                        Err(why) => {
                            errors.push(format!("{}: cannot be run: {why}", implementation.name));
                            result.error = Some(why);
                        }
                    }
                    progress(&format!(
                        "matrix: {} {}/{} in {:.1}s",
                        result.name,
                        result.passed,
                        result.total,
                        began.elapsed().as_secs_f64()
                    ));
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
    for result in &implementations {
        for cell in &result.cells {
            if !checks.iter().any(|c| c.name == cell.check) {
                checks.push(undocumented(&cell.check, cell.class));
            }
        }
    }

    let mut participants = Vec::new();
    for implementation in list {
        match subjects(&implementation.command) {
            Ok(subjects) => participants.push((implementation.name.clone(), subjects)),
            Err(why) => errors.push(format!(
                "{}: cannot be run for cross-reading: {why}",
                implementation.name
            )),
        }
    }
    let began = Instant::now();
    let grids = cross::run(&mut participants, &options.sessions);
    drop(participants);
    progress(&format!(
        "matrix: cross-reading in {:.1}s",
        began.elapsed().as_secs_f64()
    ));
    errors.extend(cross::errors(&grids));
    Matrix {
        spec_version,
        ran_at: now_utc(),
        checks,
        implementations,
        cross: grids,
        errors,
        require: options.require.clone(),
    }
}

/// The row of a check no `checks.json` documents: the accumulated digests and the vector
/// files (spec/README.md says what each asserts).
fn undocumented(name: &str, class: Class) -> MatrixCheck {
    let check = name.rsplit('/').next().unwrap_or(name);
    let (asserts, source) = if check == bloomproof_conformance::accumulated::CHECK {
        (
            "The implementation's positions of every generated input of accumulated.json, hashed in order, give the published digest.".to_string(),
            "bloomproof: spec/README.md, \"Accumulated checks\"".to_string(),
        )
    } else if let Some(kind) = check.strip_prefix("vectors.") {
        (
            format!("Every case of the {kind} vector file is answered as the file states."),
            "bloomproof: vectors/README.md".to_string(),
        )
    } else {
        (String::new(), String::new())
    };
    MatrixCheck {
        name: name.to_string(),
        asserts,
        source,
        class,
    }
}

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`.
fn now_utc() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_of_a_run_is_rfc_3339_in_utc_to_the_second() {
        let now = now_utc();
        assert_eq!(now.len(), "2026-11-30T13:05:09Z".len(), "{now}");
        assert!(now.ends_with('Z') && now.as_bytes()[10] == b'T', "{now}");
    }

    #[test]
    fn shell_quoting_survives_a_quote() {
        let quoted = shell_quote("/a b/it's").expect("quotable");
        let echoed = Command::new("sh")
            .args(["-c", &format!("printf %s {quoted}")])
            .output()
            .expect("sh runs");
        assert_eq!(String::from_utf8_lossy(&echoed.stdout), "/a b/it's");
        assert!(shell_quote("nul\0").is_err());
    }
}
