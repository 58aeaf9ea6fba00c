//! Running the documented checks: as one report, or as libtest-mimic trials.

use crate::load::{Cases, ProtocolSpec, Spec};
use crate::report::{CheckOutcome, FigureLine, Figures, Report};
use crate::subject::{DocSubject, FnvSubject};
use crate::{doc_checks, fnv_checks};
use libtest_mimic::{Failed, Trial};

/// The implementations a run drives, one per protocol.
pub struct Subjects {
    /// The `doc-membership-v1` implementation.
    pub doc: Box<dyn DocSubject + Send>,
    /// The `fnv1a-utf16-v1` implementation.
    pub fnv: Box<dyn FnvSubject + Send>,
}

impl Subjects {
    /// The production crates, in process.
    pub fn rust() -> Self {
        Subjects {
            doc: Box::new(crate::subject::RustDoc),
            fnv: Box::new(crate::subject::RustFnv),
        }
    }

    /// Both protocols through one adapter subprocess, `timeout` per request.
    pub fn adapter(command: &str, timeout: std::time::Duration) -> Result<Self, String> {
        let process = crate::adapter::AdapterProcess::start(command, timeout)?;
        let shared = std::sync::Arc::new(std::sync::Mutex::new(process));
        Ok(Subjects {
            doc: Box::new(crate::adapter::AdapterDoc(std::sync::Arc::clone(&shared))),
            fnv: Box::new(crate::adapter::AdapterFnv(shared)),
        })
    }

    fn name(&self) -> String {
        self.doc.name()
    }
}

/// Runs one documented check of one protocol: every case of it, every mismatch kept.
pub fn run_check(
    protocol: &ProtocolSpec,
    check: &str,
    subjects: &mut Subjects,
    figures: &mut Figures,
) -> CheckOutcome {
    let mut outcome = CheckOutcome {
        protocol: protocol.protocol.clone(),
        name: check.to_string(),
        cases: 0,
        inside_implementation: protocol
            .checks
            .iter()
            .find(|c| c.name == check)
            .and_then(|c| c.inside_implementation.clone()),
        failures: Vec::new(),
    };
    let ids = protocol.case_ids.get(check).cloned().unwrap_or_default();
    match &protocol.cases {
        Cases::Doc(cases) => {
            for case in cases.iter().filter(|c| ids.iter().any(|id| id == c.id())) {
                outcome.cases += 1;
                outcome
                    .failures
                    .extend(doc_checks::evaluate(case, subjects.doc.as_mut(), figures));
            }
        }
        Cases::Fnv(cases) => {
            for case in cases.iter().filter(|c| ids.iter().any(|id| id == c.id())) {
                outcome.cases += 1;
                outcome
                    .failures
                    .extend(fnv_checks::evaluate(case, subjects.fnv.as_mut(), figures));
            }
        }
    }
    outcome
}

/// Runs every documented check whose full name contains `filter` (all when `None`).
pub fn run(spec: &Spec, subjects: &mut Subjects, filter: Option<&str>) -> Report {
    let mut report = Report {
        implementation: subjects.name(),
        ..Report::default()
    };
    for protocol in &spec.protocols {
        let mut figures = Figures::default();
        let mut ran = Vec::new();
        for check in &protocol.checks {
            let full = format!("{}/{}", protocol.protocol, check.name);
            if filter.is_some_and(|f| !full.contains(f)) {
                continue;
            }
            ran.push(check.name.as_str());
            report.push(run_check(protocol, &check.name, subjects, &mut figures));
        }
        report.figures.push((
            protocol.protocol.clone(),
            FigureLine::merge(&figures, &protocol.published_figures, &ran),
        ));
    }
    report
}

/// One libtest-mimic trial per documented check, named `<protocol>/<check>`, each with
/// a fresh set of subjects from `make`.
pub fn trials(spec: &Spec, make: fn() -> Subjects) -> Vec<Trial> {
    let mut trials = Vec::new();
    for protocol in &spec.protocols {
        for check in &protocol.checks {
            let protocol = protocol.clone();
            let name = check.name.clone();
            trials.push(Trial::test(
                format!("{}/{}", protocol.protocol, name),
                move || {
                    let mut subjects = make();
                    let outcome =
                        run_check(&protocol, &name, &mut subjects, &mut Figures::default());
                    if outcome.cases == 0 {
                        return Err(Failed::from("no case ran"));
                    }
                    if outcome.passed() {
                        Ok(())
                    } else {
                        Err(Failed::from(outcome.render_failures()))
                    }
                },
            ));
        }
    }
    trials
}
