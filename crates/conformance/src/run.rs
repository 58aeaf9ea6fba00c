//! Running the documented checks: as one report, or one check at a time.

use crate::load::{ProtocolSpec, Spec};
use crate::protocols::{ProtocolSubject, REGISTRY, Subject};
use crate::report::{CheckOutcome, Figures, Report, figure_lines};
use crate::subject::Between;
use bloomproof_wire::report::NotImplemented;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The implementations a run drives, one per registered protocol
/// ([`crate::protocols::REGISTRY`]), in its order.
pub struct Subjects {
    /// One subject per protocol; the first answers for the run (its name, handshake,
    /// between checks and closing diagnosis).
    pub subjects: Vec<Box<dyn ProtocolSubject>>,
}

impl Subjects {
    /// The production crates, in process.
    pub fn rust() -> Self {
        Subjects {
            subjects: REGISTRY.iter().map(|entry| entry.rust_subject()).collect(),
        }
    }

    /// Every protocol through one adapter subprocess, `timeout` per request, the whole
    /// run ending by [`crate::adapter::DEFAULT_DEADLINE`] from now.
    pub fn adapter(command: &str, timeout: std::time::Duration) -> Result<Self, String> {
        Self::adapter_with_deadline(command, timeout, crate::adapter::DEFAULT_DEADLINE)
    }

    /// Every protocol through one adapter subprocess, `timeout` per request, the whole
    /// run ending by `deadline` from now: a request still unanswered then ends the
    /// adapter and the run ([`Report::stopped`]).
    pub fn adapter_with_deadline(
        command: &str,
        timeout: std::time::Duration,
        deadline: std::time::Duration,
    ) -> Result<Self, String> {
        let mut process = crate::adapter::AdapterProcess::start(command, timeout)?;
        process.set_run_deadline(Instant::now() + deadline);
        let shared = std::sync::Arc::new(std::sync::Mutex::new(process));
        Ok(Subjects {
            subjects: REGISTRY
                .iter()
                .map(|entry| entry.adapter_subject(std::sync::Arc::clone(&shared)))
                .collect(),
        })
    }

    /// These subjects with `subject` in place of the one of its protocol.
    #[must_use]
    pub fn with(mut self, subject: Box<dyn ProtocolSubject>) -> Self {
        match self
            .subjects
            .iter_mut()
            .find(|s| s.protocol() == subject.protocol())
        {
            Some(slot) => *slot = subject,
            None => self.subjects.push(subject),
        }
        self
    }

    /// The subject of `protocol`.
    pub fn of(&mut self, protocol: &str) -> Option<&mut dyn ProtocolSubject> {
        self.subjects
            .iter_mut()
            .find(|s| s.protocol() == protocol)
            .map(|s| s.as_mut() as &mut dyn ProtocolSubject)
    }

    /// The subject whose own trait is `S` (`dyn DocSubject + Send`, ...), if the run
    /// has one.
    pub fn get_mut<S: ?Sized + 'static>(&mut self) -> Option<&mut S> {
        self.subjects.iter_mut().find_map(|s| {
            s.as_any_mut()
                .downcast_mut::<Subject<S>>()
                .map(|Subject(s)| s.as_mut())
        })
    }

    fn first(&self) -> Option<&dyn ProtocolSubject> {
        self.subjects
            .first()
            .map(|s| s.as_ref() as &dyn ProtocolSubject)
    }

    fn name(&self) -> String {
        self.first().map(ProtocolSubject::name).unwrap_or_default()
    }
}

/// Runs one documented check of one protocol: every case of it, every mismatch kept
/// (up to [`bloomproof_wire::report::FAILURES_KEPT`]).
pub fn run_check(
    protocol: &ProtocolSpec,
    check: &str,
    subjects: &mut Subjects,
    figures: &mut Figures,
) -> CheckOutcome {
    run_check_between(protocol, check, subjects, figures).0
}

/// [`run_check`], then [`DocSubject::between_checks`]: the outcome (marked crashed when
/// the implementation ended during the check) and why the run must stop, if it must.
fn run_check_between(
    protocol: &ProtocolSpec,
    check: &str,
    subjects: &mut Subjects,
    figures: &mut Figures,
) -> (CheckOutcome, Option<String>) {
    let started = Instant::now();
    let documented = protocol.checks.iter().find(|c| c.name == check);
    let mut outcome = CheckOutcome {
        protocol: protocol.protocol.clone(),
        name: check.to_string(),
        class: documented.map(|c| c.class).unwrap_or_default(),
        cases: 0,
        inside_implementation: documented.and_then(|c| c.inside_implementation.clone()),
        failures: Vec::new(),
        more_failures: 0,
        crashed: false,
        elapsed_ms: None,
    };
    let ids = protocol.case_ids.get(check).cloned().unwrap_or_default();
    let (ran, failures) = match subjects.of(&protocol.protocol) {
        Some(subject) => protocol
            .cases
            .run(&ids, subject, &protocol.generation, figures),
        None => (0, Vec::new()),
    };
    outcome.cases += ran;
    outcome.add_failures(failures);
    outcome.elapsed_ms = Some(started.elapsed().as_secs_f64() * 1e3);
    let stop = between(subjects, &mut outcome);
    (outcome, stop)
}

/// [`DocSubject::between_checks`] after `outcome`'s check: marks it crashed when the
/// implementation ended during it; why the run must stop, if it must.
fn between(subjects: &mut Subjects, outcome: &mut CheckOutcome) -> Option<String> {
    match subjects.subjects.first_mut()?.between_checks() {
        Between::Go => None,
        Between::Restarted(_) => {
            outcome.crashed = true;
            None
        }
        Between::Stop(why) => {
            outcome.crashed = true;
            Some(why)
        }
    }
}

/// One check to run: the index of its protocol in the spec and its name.
type Job<'a> = (usize, &'a str);

/// What running one check gives: its outcome and the figures it recorded.
type Done = (CheckOutcome, Figures);

/// Runs `jobs` on `subjects` and on `forks` (one more thread each), every thread taking
/// the next job not yet taken; the results come back in the order of `jobs`.
/// A check whose implementation cannot go on ([`Between::Stop`]) ends the run: its
/// reason is left in `stopped`, and no thread takes another job.
fn run_jobs(
    spec: &Spec,
    jobs: &[Job<'_>],
    subjects: &mut Subjects,
    forks: Vec<Subjects>,
    stopped: &Mutex<Option<String>>,
) -> Vec<Done> {
    let next = AtomicUsize::new(0);
    let work = |subjects: &mut Subjects| {
        let mut done = Vec::new();
        loop {
            if stopped.lock().is_ok_and(|why| why.is_some()) {
                return done;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(protocol, check)) = jobs.get(index) else {
                return done;
            };
            let Some(protocol) = spec.protocols.get(protocol) else {
                continue;
            };
            let mut figures = Figures::default();
            let vectors = spec
                .vectors
                .iter()
                .find(|v| v.protocol() == protocol.protocol && v.check() == check);
            let extra = match (vectors, accumulated_of(spec, protocol, check)) {
                (Some(loaded), _) => Some(crate::vectors::run_check(loaded, subjects)),
                (None, Some(published)) => Some(crate::accumulated::run_check(
                    published,
                    spec.accumulated_full,
                    subjects,
                    &mut figures,
                )),
                (None, None) => None,
            };
            let (outcome, stop) = match extra {
                Some(mut outcome) => {
                    let stop = between(subjects, &mut outcome);
                    (outcome, stop)
                }
                None => run_check_between(protocol, check, subjects, &mut figures),
            };
            done.push((index, (outcome, figures)));
            if let Some(why) = stop
                && let Ok(mut stopped) = stopped.lock()
            {
                *stopped = Some(why);
            }
        }
    };
    let mut all = std::thread::scope(|scope| {
        let handles: Vec<_> = forks
            .into_iter()
            .map(|mut fork| scope.spawn(move || work(&mut fork)))
            .collect();
        let mut all = work(subjects);
        for handle in handles {
            match handle.join() {
                Ok(done) => all.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    all.sort_by_key(|(index, _)| *index);
    all.into_iter().map(|(_, done)| done).collect()
}

/// The published digests of `protocol` when `check` is its accumulated check.
fn accumulated_of<'s>(
    spec: &'s Spec,
    protocol: &ProtocolSpec,
    check: &str,
) -> Option<&'s crate::accumulated::Published> {
    if check != crate::accumulated::CHECK {
        return None;
    }
    spec.accumulated
        .as_ref()?
        .protocols
        .iter()
        .find(|p| p.protocol == protocol.protocol)
}

/// Subjects for `threads - 1` more threads, when both subjects can be forked.
fn forks(subjects: &Subjects, threads: usize) -> Vec<Subjects> {
    let mut forks = Vec::new();
    for _ in 1..threads {
        match subjects.subjects.iter().map(|s| s.fork()).collect() {
            Some(forked) => forks.push(Subjects { subjects: forked }),
            None => break,
        }
    }
    forks
}

/// Runs every documented check whose full name contains `filter` (all when `None`).
///
/// Checks are independent: when every subject can be forked ([`crate::protocols::ProtocolSubject::fork`],
/// as the in-process ones can) they run on every core
/// ([`std::thread::available_parallelism`]), else one after the other on `subjects`.
/// Either way the report is the same, in spec order, apart from its times.
pub fn run(spec: &Spec, subjects: &mut Subjects, filter: Option<&str>) -> Report {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    run_with_threads(spec, subjects, filter, cores)
}

/// [`run`] on at most `threads` threads (at least one; more only when the subjects
/// can be forked, and never more than there are checks).
pub fn run_with_threads(
    spec: &Spec,
    subjects: &mut Subjects,
    filter: Option<&str>,
    threads: usize,
) -> Report {
    let started = Instant::now();
    let mut report = Report {
        implementation: subjects.name(),
        adapter: subjects.first().and_then(ProtocolSubject::started),
        ..Report::default()
    };
    let implements = |protocol: &str| {
        report
            .adapter
            .as_ref()
            .is_none_or(|started| started.protocols.iter().any(|p| p == protocol))
    };
    let mut jobs: Vec<Job<'_>> = Vec::new();
    let mut ran: Vec<Vec<&str>> = Vec::new();
    let mut not_implemented = Vec::new();
    for (index, protocol) in spec.protocols.iter().enumerate() {
        let mut names = Vec::new();
        for check in &protocol.checks {
            let full = format!("{}/{}", protocol.protocol, check.name);
            if filter.is_some_and(|f| !full.contains(f)) {
                continue;
            }
            names.push(check.name.as_str());
        }
        // The accumulated digests, after the documented checks (`accumulated.json`).
        let full = format!("{}/{}", protocol.protocol, crate::accumulated::CHECK);
        if accumulated_of(spec, protocol, crate::accumulated::CHECK).is_some()
            && filter.is_none_or(|f| full.contains(f))
        {
            names.push(crate::accumulated::CHECK);
        }
        // The vector files of `--vectors`.
        for loaded in spec
            .vectors
            .iter()
            .filter(|v| v.protocol() == protocol.protocol)
        {
            let full = format!("{}/{}", protocol.protocol, loaded.check());
            if filter.is_none_or(|f| full.contains(f)) {
                names.push(loaded.check());
            }
        }
        if !implements(&protocol.protocol) {
            if !names.is_empty() {
                not_implemented.push(NotImplemented {
                    protocol: protocol.protocol.clone(),
                    checks: names.len(),
                });
            }
            names.clear();
        }
        jobs.extend(names.iter().map(|name| (index, *name)));
        ran.push(names);
    }
    report.not_implemented = not_implemented;
    let forks = forks(subjects, threads.min(jobs.len()));
    let threads = forks.len() + 1;
    let stopped = Mutex::new(None);
    let mut done = run_jobs(spec, &jobs, subjects, forks, &stopped).into_iter();
    for (index, protocol) in spec.protocols.iter().enumerate() {
        let names = ran.get(index).map(Vec::as_slice).unwrap_or_default();
        let mut figures = Figures::default();
        for (outcome, recorded) in done.by_ref().take(names.len()) {
            for (name, value) in recorded.0 {
                figures.set(&name, value);
            }
            report.push(outcome);
        }
        let mut published = protocol.published_figures.clone();
        if let Some(digests) = accumulated_of(spec, protocol, crate::accumulated::CHECK) {
            published.push(crate::accumulated::published_figure(
                digests,
                spec.accumulated_full,
            ));
        }
        report.figures.push((
            protocol.protocol.clone(),
            figure_lines(&figures, &published, names),
        ));
    }
    let stopped = stopped.into_inner().unwrap_or_default();
    if stopped.is_none()
        && let (Some(wire), Some((command, timeout))) = (
            &spec.wire,
            subjects.first().and_then(ProtocolSubject::adapter),
        )
    {
        // Only the cases of the protocols the handshake lists (and those of none); a
        // check left without a case is counted with its protocol as not run.
        let listed: Vec<String> = match &report.adapter {
            Some(started) => started.protocols.clone(),
            None => crate::PROTOCOLS.iter().map(ToString::to_string).collect(),
        };
        for outcome in crate::adapter_checks::run_listed(wire, &command, timeout, filter, &listed) {
            report.push(outcome);
        }
        for (protocol, checks) in crate::adapter_checks::unlisted_checks(wire, filter, &listed) {
            match report
                .not_implemented
                .iter_mut()
                .find(|n| n.protocol == protocol)
            {
                Some(missing) => missing.checks += checks,
                None => report.not_implemented.push(NotImplemented {
                    protocol: protocol.to_string(),
                    checks,
                }),
            }
        }
    }
    report.stopped = stopped;
    report.diagnosis = subjects
        .subjects
        .first_mut()
        .and_then(|s| s.closing_diagnosis());
    report.threads = Some(threads);
    report.seed = Some(spec.generation().seed);
    report.elapsed_ms = Some(started.elapsed().as_secs_f64() * 1e3);
    report
}
