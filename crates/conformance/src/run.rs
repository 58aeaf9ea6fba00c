//! Running the documented checks: as one report, or one check at a time.

pub use crate::fail_fast::FailFast;
use crate::load::{ProtocolSpec, Spec};
pub use crate::protocol::Subjects;
use crate::protocols::Registry;
use crate::report::{CheckOutcome, Figures, Report, figure_lines};
use crate::subject::Between;
use crate::subject::UnderTest;
use bloomproof_wire::adapter::ADAPTER_PROTOCOL;
use bloomproof_wire::report::{FailedFast, LeftOut, NotImplemented};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

impl Subjects {
    /// The production crates, in process: one subject per protocol of the built-in
    /// registry.
    pub fn rust() -> Self {
        Self::rust_of(Registry::BUILT_IN)
    }

    /// The production crates, in process: one subject per protocol of `registry` (the
    /// one a spec was loaded with, [`Spec::registry`]), each answering for its entry's
    /// name.
    pub fn rust_of(registry: Registry) -> Self {
        Subjects {
            subjects: registry
                .entries()
                .iter()
                .map(|entry| entry.rust_subject())
                .collect(),
            process: None,
            registry,
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
        Self::adapter_of(command, timeout, deadline, Registry::BUILT_IN)
    }

    /// [`Subjects::adapter_with_deadline`] for the protocols of `registry`.
    pub fn adapter_of(
        command: &str,
        timeout: std::time::Duration,
        deadline: std::time::Duration,
        registry: Registry,
    ) -> Result<Self, String> {
        let mut process = crate::adapter::AdapterProcess::start(command, timeout)?;
        process.set_run_deadline(Instant::now() + deadline);
        Ok(Self::on_process(process, registry))
    }

    /// Every protocol of `registry` through `process`.
    fn on_process(process: crate::adapter::AdapterProcess, registry: Registry) -> Self {
        let shared = std::sync::Arc::new(std::sync::Mutex::new(process));
        Subjects {
            subjects: registry
                .entries()
                .iter()
                .map(|entry| entry.adapter_subject(std::sync::Arc::clone(&shared)))
                .collect(),
            process: Some(shared),
            registry,
        }
    }

    /// Subjects on a second process of the adapter command
    /// ([`crate::adapter::AdapterProcess::fork`]), when these drive an adapter that
    /// runs and a second one starts.
    fn adapter_fork(&self) -> Option<Subjects> {
        let process = self.process.as_ref()?.lock().ok()?;
        if process.dead().is_some() {
            return None;
        }
        process
            .fork()
            .ok()
            .map(|process| Self::on_process(process, self.registry))
    }

    /// Adds what the adapter of `fork` ([`Subjects::adapter_fork`]) answered into the
    /// counts of this one's, for the closing diagnosis.
    fn join(&mut self, fork: &Subjects) {
        if let (Some(mine), Some(theirs)) = (&self.process, &fork.process)
            && let (Ok(mut mine), Ok(theirs)) = (mine.lock(), theirs.lock())
        {
            mine.join(&theirs);
        }
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
    let speaks = adapter_speaks(subjects);
    let ids: Vec<String> = protocol
        .case_ids
        .get(check)
        .map(|ids| {
            ids.iter()
                .filter(|id| protocol.cases.adapter_protocol(id) <= speaks)
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let (ran, failures) = match subjects.of(&protocol.protocol) {
        Some(subject) => {
            protocol
                .cases
                .run(&ids, outcome.class, subject, &protocol.generation, figures)
        }
        None => (0, Vec::new()),
    };
    outcome.cases += ran;
    outcome.add_failures(failures);
    outcome.elapsed_ms = Some(started.elapsed().as_secs_f64() * 1e3);
    let stop = between(subjects, &mut outcome);
    (outcome, stop)
}

/// The adapter protocol version the run's adapter speaks (in process: the runner's
/// own, [`ADAPTER_PROTOCOL`]): cases that need a later one are left out.
fn adapter_speaks(subjects: &Subjects) -> u32 {
    subjects
        .first()
        .and_then(UnderTest::started)
        .map_or(ADAPTER_PROTOCOL, |started| started.adapter_protocol)
}

/// The cases of `check` that need a later adapter protocol than `speaks`: its
/// [`LeftOut`], when there are any.
fn left_out(protocol: &ProtocolSpec, check: &str, speaks: u32) -> Option<LeftOut> {
    let ids = protocol.case_ids.get(check)?;
    let needs = |id: &String| protocol.cases.adapter_protocol(id);
    let cases: Vec<String> = ids
        .iter()
        .filter(|id| needs(id) > speaks)
        .cloned()
        .collect();
    let needs = ids.iter().map(needs).max()?;
    (!cases.is_empty()).then(|| LeftOut {
        check: format!("{}/{check}", protocol.protocol),
        whole: cases.len() == ids.len(),
        cases,
        needs,
    })
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

/// How the threads of [`run_jobs`] share the jobs.
#[derive(Clone, Copy)]
enum Lanes<'o> {
    /// Each thread takes the next job not yet taken, in `order` (indices into the
    /// jobs; in process, where a subject keeps nothing from one check to the next).
    Taken { order: &'o [usize] },
    /// Thread `t` of `n` runs the jobs `first + t`, `first + t + n`, ... in order:
    /// through adapters, so that each process meets the same checks in the same order
    /// on every run (its request ids, restarts and stops are the same).
    Fixed { first: usize },
}

/// Why the run stopped, and the index of the job after which it did (the lowest,
/// when several threads stopped).
type Stopped = Mutex<Option<(usize, Halt)>>;

/// Why a run stops before its last check.
#[derive(Clone, Debug)]
enum Halt {
    /// The implementation cannot go on ([`Between::Stop`]): why.
    Adapter(String),
    /// `--fail-fast` ([`Spec::fail_fast`]): this check failed and the verdict counts it.
    Failed,
}

/// Runs `jobs` on `subjects` and on `forks` (one more thread each), the threads
/// sharing them as `lanes` says; the results come back in the order of `jobs`.
/// A check whose implementation cannot go on ([`Between::Stop`]), or under
/// `--fail-fast` a failed check the verdict counts, ends the run: its reason is left
/// in `stopped`, no thread takes a job after it, and no result of a job after it is
/// kept (the jobs before it still run, so that the report is the one a single thread
/// gives).
fn run_jobs(
    spec: &Spec,
    jobs: &[Job<'_>],
    subjects: &mut Subjects,
    forks: &mut [Subjects],
    lanes: Lanes<'_>,
    stopped: &Stopped,
) -> Vec<(usize, Done)> {
    let next = AtomicUsize::new(0);
    let lane_count = forks.len() + 1;
    let stop_index = || {
        stopped
            .lock()
            .ok()
            .and_then(|s| s.as_ref().map(|(at, _)| *at))
    };
    let work = |subjects: &mut Subjects, lane: usize| {
        let mut done = Vec::new();
        let mut taken = 0;
        loop {
            let index = match lanes {
                Lanes::Taken { order } => match order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    // A job after a stop is passed over; one before it still runs.
                    Some(&index) if stop_index().is_some_and(|at| index > at) => continue,
                    Some(&index) => index,
                    None => return done,
                },
                Lanes::Fixed { first } => first + lane + taken * lane_count,
            };
            taken += 1;
            if stop_index().is_some_and(|at| index > at) {
                return done;
            }
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
                (Some(loaded), _) => {
                    Some(crate::vectors::run_check(loaded, subjects, spec.registry))
                }
                (None, Some(published)) => Some(crate::accumulated::run_check(
                    spec.registry,
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
            let halt = stop.map(Halt::Adapter).or_else(|| {
                let fail_fast = spec.fail_fast.as_ref()?;
                let generated = |id: &str| {
                    protocol
                        .cases
                        .each()
                        .iter()
                        .any(|c| c.0 == id && c.3 == "generated")
                };
                fail_fast
                    .stops(outcome.class, &outcome.failures, generated)
                    .then_some(Halt::Failed)
            });
            done.push((index, (outcome, figures)));
            if let Some(why) = halt
                && let Ok(mut stopped) = stopped.lock()
                && stopped.as_ref().is_none_or(|(at, _)| index < *at)
            {
                *stopped = Some((index, why));
            }
        }
    };
    let mut all = std::thread::scope(|scope| {
        let handles: Vec<_> = forks
            .iter_mut()
            .enumerate()
            .map(|(lane, fork)| scope.spawn(move || work(fork, lane + 1)))
            .collect();
        let mut all = work(subjects, 0);
        for handle in handles {
            match handle.join() {
                Ok(done) => all.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    if let Some(at) = stop_index() {
        all.retain(|(index, _)| *index <= at);
    }
    all.sort_by_key(|(index, _)| *index);
    all
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

/// The order in which the threads of an in-process run take `jobs` (indices into it):
/// the checks with generated cases first, then the
/// accumulated digests and vector files, then the rest, each group in spec order. A
/// long check taken last would leave the other threads idle while it runs alone;
/// taken first, the short checks fill in around it. The report does not change: it is
/// put back in spec order.
fn heaviest_first(spec: &Spec, jobs: &[Job<'_>]) -> Vec<usize> {
    let weight = |&(protocol, check): &Job<'_>| -> u8 {
        let Some(protocol) = spec.protocols.get(protocol) else {
            return 2;
        };
        let generated = protocol
            .cases
            .each()
            .iter()
            .any(|(_, of, _, shape)| *of == check && *shape == "generated");
        if generated {
            0
        } else if protocol.checks.iter().any(|c| c.name == check) {
            2
        } else {
            // Not a documented check: the accumulated digests or a vector file.
            1
        }
    };
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&index| jobs.get(index).map(weight));
    order
}

/// Subjects for `threads - 1` more threads, when both subjects can be forked.
fn forks(subjects: &Subjects, threads: usize) -> Vec<Subjects> {
    let mut forks = Vec::new();
    for _ in 1..threads {
        match subjects.subjects.iter().map(|s| s.fork()).collect() {
            Some(forked) => forks.push(Subjects {
                subjects: forked,
                process: None,
                registry: subjects.registry,
            }),
            None => break,
        }
    }
    forks
}

/// The full name (`<protocol>/<check>`) of every check a run of `spec` can hold, in
/// report order: each protocol's documented checks, its accumulated digests and its
/// vector files, then, when `adapter` (the run goes through an adapter), the adapter
/// protocol's own checks. A filter that is part of none of them selects nothing, and
/// can be refused before any adapter is started.
pub fn check_names(spec: &Spec, adapter: bool) -> Vec<String> {
    let mut names = Vec::new();
    for protocol in &spec.protocols {
        let group = protocol.protocol.as_str();
        names.extend(
            protocol
                .checks
                .iter()
                .map(|c| format!("{group}/{}", c.name)),
        );
        if accumulated_of(spec, protocol, crate::accumulated::CHECK).is_some() {
            names.push(format!("{group}/{}", crate::accumulated::CHECK));
        }
        names.extend(
            spec.vectors
                .iter()
                .filter(|v| v.protocol() == group)
                .map(|v| format!("{group}/{}", v.check())),
        );
    }
    if adapter && let Some(wire) = &spec.wire {
        let group = crate::adapter_checks::GROUP;
        names.extend(wire.checks.iter().map(|c| format!("{group}/{}", c.name)));
    }
    names
}

/// Runs every documented check whose full name contains `filter` (all when `None`).
///
/// Checks are independent: when every subject can be forked ([`crate::protocols::ProtocolSubject::fork`],
/// as the in-process ones can) they run on every core
/// ([`std::thread::available_parallelism`]), each thread taking the next check not
/// yet taken. Through an adapter ([`Subjects::adapter`]) the first check runs on its
/// process alone, then the others in fixed lanes, one more process of the adapter
/// command for each other core (spec/ADAPTER.md, "Two processes at once"). Either
/// way the report is the same, in spec order, apart from its times.
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
        adapter: subjects.first().and_then(UnderTest::started),
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
    let speaks = adapter_speaks(subjects);
    let mut left_out_cases = Vec::new();
    for (index, protocol) in spec.protocols.iter().enumerate() {
        let mut names = Vec::new();
        for check in &protocol.checks {
            let full = format!("{}/{}", protocol.protocol, check.name);
            if filter.is_some_and(|f| !full.contains(f)) || spec.skips(&full) {
                continue;
            }
            names.push(check.name.as_str());
        }
        // The accumulated digests, after the documented checks (`accumulated.json`).
        let full = format!("{}/{}", protocol.protocol, crate::accumulated::CHECK);
        if accumulated_of(spec, protocol, crate::accumulated::CHECK).is_some()
            && filter.is_none_or(|f| full.contains(f))
            && !spec.skips(&full)
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
            if filter.is_none_or(|f| full.contains(f)) && !spec.skips(&full) {
                names.push(loaded.check());
            }
        }
        // Cases that need a later adapter protocol than the adapter's are left out; a
        // check left with none is not run.
        if implements(&protocol.protocol) {
            names.retain(|name| match left_out(protocol, name, speaks) {
                Some(left) => {
                    let whole = left.whole;
                    left_out_cases.push(left);
                    !whole
                }
                None => true,
            });
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
    report.left_out = left_out_cases;
    let stopped: Stopped = Mutex::new(None);
    let mut forks = forks(subjects, threads.min(jobs.len()));
    let (done, threads) = if forks.is_empty() && subjects.process.is_some() {
        // Through an adapter: the first check on the one process (an adapter that
        // cannot answer stops the run there, as alone), then a second process of the
        // command for a second lane of checks, when there is a second core.
        let mut done = run_jobs(
            spec,
            jobs.get(..1).unwrap_or_default(),
            subjects,
            &mut [],
            Lanes::Fixed { first: 0 },
            &stopped,
        );
        let healthy = stopped.lock().is_ok_and(|s| s.is_none());
        let mut forks: Vec<Subjects> = (1..threads.min(jobs.len().saturating_sub(1)))
            .map_while(|_| {
                if healthy {
                    subjects.adapter_fork()
                } else {
                    None
                }
            })
            .collect();
        done.extend(run_jobs(
            spec,
            &jobs,
            subjects,
            &mut forks,
            Lanes::Fixed { first: 1 },
            &stopped,
        ));
        for fork in &forks {
            subjects.join(fork);
        }
        (done, forks.len() + 1)
    } else {
        let order = heaviest_first(spec, &jobs);
        let done = run_jobs(
            spec,
            &jobs,
            subjects,
            &mut forks,
            Lanes::Taken { order: &order },
            &stopped,
        );
        (done, forks.len() + 1)
    };
    let mut done = done.into_iter().map(|(_, done)| done);
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
    let (stopped, mut failed_fast) = match stopped.into_inner().unwrap_or_default() {
        Some((_, Halt::Adapter(why))) => (Some(why), None),
        Some((at, Halt::Failed)) => {
            let check = jobs.get(at).and_then(|&(protocol, check)| {
                Some(format!(
                    "{}/{check}",
                    spec.protocols.get(protocol)?.protocol
                ))
            });
            let not_run = jobs.len().saturating_sub(at + 1);
            (None, check.map(|check| FailedFast { check, not_run }))
        }
        None => (None, None),
    };
    if stopped.is_none()
        && let (Some(wire), Some((command, timeout))) =
            (&spec.wire, subjects.first().and_then(UnderTest::adapter))
    {
        // Only the cases of the protocols the handshake lists (and those of none); a
        // check left without a case is counted with its protocol as not run.
        let listed: Vec<String> = match &report.adapter {
            Some(started) => started.protocols.clone(),
            None => spec
                .registry
                .names()
                .into_iter()
                .map(ToString::to_string)
                .collect(),
        };
        // The file's cases, then the edges of the table of bounds' rows that adapter
        // checks judge and the request spellings the seed draws (crate::bound_edges), on
        // every run.
        let mut wire = crate::bound_edges::with_edges(wire, spec.generation().seed);
        // `--skip`: the checks it leaves out, and their cases, are not in this run's file.
        let group = crate::adapter_checks::GROUP;
        let skipped = |check: &str| spec.skips(&format!("{group}/{check}"));
        wire.checks.retain(|check| !skipped(&check.name));
        wire.cases.retain(|case| !skipped(&case.check));
        let wire = &wire;
        match &mut failed_fast {
            // Stopped already: the adapter protocol's checks are not run either.
            Some(stop) => {
                stop.not_run += crate::adapter_checks::listed_checks(wire, filter, &listed)
            }
            None => {
                let drawn = spec
                    .fail_fast
                    .as_ref()
                    .filter(|f| f.fixed)
                    .map(|_| crate::spelled_requests::ids(spec.generation().seed))
                    .unwrap_or_default();
                let fail_fast = spec.fail_fast.as_ref().map(|f| (f, &drawn));
                let (outcomes, _, not_run) = crate::adapter_checks::run_listed(
                    wire, &command, timeout, filter, &listed, fail_fast,
                );
                if let Some((fail_fast, drawn)) = fail_fast
                    && let Some(last) = outcomes.last()
                    && fail_fast.stops(last.class, &last.failures, |id| drawn.contains(id))
                {
                    failed_fast = Some(FailedFast {
                        check: format!("{}/{}", last.protocol, last.name),
                        not_run,
                    });
                }
                for outcome in outcomes {
                    report.push(outcome);
                }
            }
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
    report.failed_fast = failed_fast;
    report.diagnosis = subjects
        .subjects
        .first_mut()
        .and_then(|s| s.closing_diagnosis());
    report.threads = Some(threads);
    report.seed = Some(spec.generation().seed);
    report.elapsed_ms = Some(started.elapsed().as_secs_f64() * 1e3);
    report
}
