//! Running: conformance runs of a subject (the whole suite, or group by group), the
//! controls, the probes, and one bug's verdict.

use super::*;
use std::io::Read;
use std::time::Duration;

/// Copies a folder, leaving out what a run or an install leaves in a checkout
/// (`__pycache__`, `build`, `*.egg-info`, `node_modules`).
pub(super) fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
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
pub(super) fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    all[all.len().saturating_sub(lines)..].join(" | ")
}

/// An entry's runs so far, added up into one report.
struct Tally {
    failed: Vec<String>,
    total: usize,
    groups: Vec<(String, usize, f64)>,
    beyond: Vec<String>,
    fixed: Vec<String>,
    timed_out: Vec<String>,
    not_run: usize,
    case_passed: bool,
}

impl Tally {
    fn new() -> Self {
        Tally {
            failed: Vec::new(),
            total: 0,
            groups: Vec::new(),
            beyond: Vec::new(),
            fixed: Vec::new(),
            timed_out: Vec::new(),
            not_run: 0,
            case_passed: false,
        }
    }

    /// Adds a run's report, which ran `expected` checks when given (else why the
    /// verdict ends: a run without a report, or of another count).
    fn add(&mut self, run: Run, what: &str, expected: Option<usize>) -> Result<(), String> {
        match run {
            Run::Broken(message) => Err(format!("its {what} checks: {message}")),
            Run::Report { total: n, .. } if expected.is_some_and(|count| n != count) => {
                Err(format!(
                    "the runner ran {n} {what} checks, the controls {}",
                    expected.unwrap_or_default()
                ))
            }
            Run::Report {
                failed,
                total,
                groups,
                beyond_core,
                fixed,
                timed_out,
                not_run,
                case_passed,
            } => {
                self.failed.extend(failed);
                self.timed_out.extend(timed_out);
                self.total += total;
                self.not_run += not_run;
                self.case_passed |= case_passed;
                self.groups.extend(groups);
                self.beyond.extend(beyond_core);
                self.fixed.extend(fixed);
                Ok(())
            }
        }
    }

    /// Caught (some check failed, not every one run so far: a subject that fails every
    /// check may not run at all, and runs every group).
    fn caught(&self) -> bool {
        !self.failed.is_empty() && self.failed.len() < self.total
    }

    /// Whether a check failed on what the subject answered (not only by its silence
    /// past `--timeout`).
    fn failed_on_answers(&self) -> bool {
        self.failed
            .iter()
            .any(|name| !self.timed_out.contains(name))
    }

    fn report(self) -> Run {
        Run::Report {
            failed: self.failed,
            total: self.total,
            groups: self.groups,
            beyond_core: self.beyond,
            fixed: self.fixed,
            timed_out: self.timed_out,
            not_run: self.not_run,
            case_passed: self.case_passed,
        }
    }
}

/// An entry's verdict run: the whole suite in one run, or (with [`Context::stages`]) one
/// run per group of checks, cheapest first, until a group catches it. A caught entry
/// fails the whole suite (a group's run is the suite's run with a filter), so this is
/// the whole suite's verdict; the checks of the groups not run are not listed, and an
/// entry that every group's checks so far fail (it may not run at all) runs every group.
/// The group `first` (the patched file's protocol) runs before the others. Under
/// `--seeds`, where the checks whose every case is generated can be left out exactly,
/// see [`fixed_first`].
pub(super) fn verdict_run(context: &Context, implementation: &str, first: Option<&str>) -> Run {
    if context.stages.is_empty() {
        return conformance(context, implementation, None);
    }
    let mut stages: Vec<&(String, usize)> = context.stages.iter().collect();
    if let Some(at) = stages
        .iter()
        .position(|(group, _)| Some(group.as_str()) == first)
    {
        let hinted = stages.remove(at);
        stages.insert(0, hinted);
    }
    if context.fail_fast == FailFast::Fixed
        && let Some(skip) = context.generated.skip()
    {
        return fixed_first(context, implementation, &stages, skip);
    }
    let mut tally = Tally::new();
    for (group, count) in stages {
        let run = group_run(context, implementation, &format!("{group}/"));
        if let Err(broken) = tally.add(run, group, Some(*count)) {
            return Run::Broken(broken);
        }
        // Caught (by a check of any class: the gallery requires every class): the later
        // groups are not needed. Under `--seeds` (where the generated checks cannot be
        // left out exactly, else see `fixed_first`), caught by generated inputs alone so
        // far: the rest run too, to say whether a case without them catches it (then no
        // sweep is needed).
        if tally.caught() && (context.seeds < 2 || !tally.fixed.is_empty()) {
            break;
        }
    }
    tally.report()
}

/// The verdict run under `--seeds` (where `skip` leaves out exactly the checks whose
/// every case is generated): whether a case without generated inputs catches the entry
/// is asked first, as it decides whether the entry is swept. Each group runs without
/// those checks (`--skip`), in order, until a case without generated inputs fails. A
/// failure among the drawn cases of a check run there (generated too) is a catch by
/// generated inputs, and the groups run on. An entry that nothing caught so far then
/// runs the checks left out, group by group in the same order, stopping at the first
/// that fails.
/// The verdicts of the group-by-group order, in less time: a catch by a fixed case no
/// longer waits for the generated checks before it in its group, and a catch by
/// generated inputs stops at its first failed check.
fn fixed_first(
    context: &Context,
    implementation: &str,
    stages: &[&(String, usize)],
    skip: &'static str,
) -> Run {
    let mut tally = Tally::new();
    let without = Context {
        skip: Some(skip),
        ..context.clone()
    };
    for (group, count) in stages {
        let count = count - context.generated.skipped_in(group, skip);
        let run = group_run(&without, implementation, &format!("{group}/"));
        if let Err(broken) = tally.add(run, group, Some(count)) {
            return Run::Broken(broken);
        }
        if tally.caught() && !tally.fixed.is_empty() {
            return tally.report();
        }
    }
    // A catch by generated inputs among the checks run; a catch only by a timeout
    // (the machine's speed) does not settle the sweep's question, and the checks left
    // out run.
    if tally.failed_on_answers() {
        return tally.report();
    }
    let generated = Context {
        fail_fast: FailFast::Any,
        ..context.clone()
    };
    for (group, _) in stages {
        let expected = context.generated.skipped_in(group, skip);
        if expected == 0 {
            continue;
        }
        // `skip` begins with the `/` that ends a group's name.
        let filter = format!("{group}{skip}");
        let run = conformance(&generated, implementation, Some(&filter));
        if let Err(broken) = tally.add(run, &filter, Some(expected)) {
            return Run::Broken(broken);
        }
        if tally.failed_on_answers() {
            break;
        }
    }
    tally.report()
}

/// One group's run (`filter`), stopping at its first failed check, of any class, under
/// [`Context::fail_fast`] (under `--seeds`, its first failure of a case without
/// generated inputs: whether one catches the entry decides whether it is swept, so a
/// failure of generated inputs alone runs on). Run again without stopping when no case
/// of the checks it ran passed: then whether the subject runs at all (a check passes)
/// is judged on every check.
fn group_run(context: &Context, implementation: &str, filter: &str) -> Run {
    let run = conformance(context, implementation, Some(filter));
    match &run {
        Run::Report {
            not_run,
            case_passed,
            ..
        } if *not_run > 0 && !case_passed => {
            let whole = Context {
                fail_fast: FailFast::Off,
                ..context.clone()
            };
            conformance(&whole, implementation, Some(filter))
        }
        _ => run,
    }
}

/// One conformance run of `implementation` (only the checks whose `<group>/<name>`
/// contains `filter`, when given), killed after [`SUBJECT_LIMIT`].
pub(super) fn conformance(context: &Context, implementation: &str, filter: Option<&str>) -> Run {
    match report(context, implementation, filter) {
        Ok(report) => summary(&report, &context.generated),
        Err(message) => Run::Broken(message),
    }
}

/// The JSON report of one conformance run of `implementation` (only the checks whose
/// `<group>/<name>` contains `filter`, when given), killed after [`SUBJECT_LIMIT`]; or
/// why there is none.
pub(super) fn report(
    context: &Context,
    implementation: &str,
    filter: Option<&str>,
) -> Result<Value, String> {
    let mut command = Command::new(&context.binary);
    command
        .args(["conformance", "--impl", implementation, "--format", "json"])
        // The gallery reads which checks failed from the report, in every class, and
        // counts a failure of any class as a catch (CI's `--require all`): under
        // `--fail-fast` the run stops at the first, `--require all` making every class
        // one that stops it. Whether a core check would catch an entry caught beyond
        // core is `--every-check`'s to say: judging it here ran every check of every
        // group for each such entry, over half of each gallery's time.
        .args(match context.fail_fast {
            FailFast::Off => &[][..],
            FailFast::Any => &["--fail-fast", "--require", "all"],
            FailFast::Fixed => &["--fail-fast=fixed", "--require", "all"],
        })
        .args(
            context
                .skip
                .map(|skip| ["--skip", skip])
                .into_iter()
                .flatten(),
        )
        .args(["--seed", &context.seed.to_string()])
        .args(["--timeout", REQUEST_TIMEOUT_SECS])
        // A verdict needs only which checks fail, never a minimal input: shrinking a
        // planted bug's long session script through the adapter took a minute, and
        // under CI's load passed the subject's limit.
        .arg("--no-shrink")
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
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", context.binary.display()))?;
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
    let status = status?;
    serde_json::from_str(&stdout).map_err(|_| {
        format!(
            "the runner gave no JSON report ({status}); stderr: {}",
            tail(&stderr, 4)
        )
    })
}

/// A report check's name (`?` when it has none).
fn name_of(check: &Value) -> String {
    check
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_owned()
}

/// A report's failed checks, count and groups.
fn summary(report: &Value, generated: &Generated) -> Run {
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
    let failing: Vec<&Value> = checks
        .iter()
        .filter(|check| {
            check
                .get("failures")
                .and_then(Value::as_array)
                .is_none_or(|failures| !failures.is_empty())
        })
        .collect();
    let failed = failing.iter().map(|check| name_of(check)).collect();
    let beyond_core = failing
        .iter()
        .filter_map(|check| {
            let class = check.get("class").and_then(Value::as_str)?;
            let name = check.get("name").and_then(Value::as_str)?;
            matches!(class, "interop" | "hardening").then(|| format!("{name} ({class})"))
        })
        .collect();
    let fixed = failing
        .iter()
        .filter(|check| {
            let protocol = check.get("protocol").and_then(Value::as_str).unwrap_or("");
            let failures = check.get("failures").and_then(Value::as_array);
            failures.is_none_or(|failures| {
                failures.is_empty()
                    || failures.iter().any(|failure| {
                        let case = failure.get("case").and_then(Value::as_str).unwrap_or("");
                        !generated.is_generated(protocol, case) && !timed_out(failure)
                    })
            })
        })
        .map(|check| name_of(check))
        .collect();
    let timed_out = failing
        .iter()
        .filter(|check| {
            check
                .get("failures")
                .and_then(Value::as_array)
                .is_some_and(|failures| !failures.is_empty() && failures.iter().all(timed_out))
        })
        .map(|check| name_of(check))
        .collect();
    // Whether some case passed: a check passed, or failed in fewer of its cases than
    // it ran (each failure names its case; past the failures kept, not known).
    let case_passed = checks.iter().any(|check| {
        let ran = check.get("cases").and_then(Value::as_u64).unwrap_or(0);
        let failures = check.get("failures").and_then(Value::as_array);
        let more = check
            .get("more_failures")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        failures.is_some_and(|failures| {
            let failed: BTreeSet<&str> = failures
                .iter()
                .filter_map(|f| f.get("case").and_then(Value::as_str))
                .collect();
            more == 0 && (failed.len() as u64) < ran
        })
    });
    let not_run = report
        .get("failed_fast")
        .and_then(|stop| stop.get("not_run"))
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0);
    Run::Report {
        failed,
        total: checks.len() + not_run,
        groups,
        beyond_core,
        fixed,
        timed_out,
        not_run,
        case_passed,
    }
}

/// Whether a report's failure is the adapter's silence past `--timeout` (the request
/// waited for, or one not sent because of it).
fn timed_out(failure: &Value) -> bool {
    failure
        .get("actual")
        .and_then(Value::as_str)
        .is_some_and(|actual| actual.contains(bloomproof_conformance::adapter::NO_RESPONSE))
}

/// The `--impl` command of a fresh copy of the gallery's implementation with `files`
/// written over it (each checked by the runtime first); the copy lives as long as the
/// returned guard.
pub(super) fn impl_copy(
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
        let compiled = Command::new(&context.runtime)
            .args(kind.check)
            .arg(&path)
            .output()
            .map_err(|e| {
                format!(
                    "cannot run {} {}: {e}",
                    context.runtime,
                    kind.check.join(" ")
                )
            })?;
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
        shell_quote(&context.runtime),
        shell_quote(&adapter.to_string_lossy())
    );
    Ok((dir, command))
}

/// Where a probe given as a line has its id written.
pub(super) const PROBE_ID: &str = "{id}";

/// The longest wait for a probe's answers.
pub(super) const PROBE_LIMIT: Duration = Duration::from_secs(30);

/// Sends `requests` (each given the id `probe-<i>`) to the adapter `command` (run by
/// `sh` in the repository root), closes its input and returns its responses in order.
pub(super) fn ask(
    context: &Context,
    command: &str,
    requests: &[&Value],
) -> Result<Vec<Value>, String> {
    let mut input = String::new();
    for (i, request) in requests.iter().enumerate() {
        let id = Value::String(format!("probe-{i}"));
        match request {
            Value::String(line) => input.push_str(&line.replace(PROBE_ID, &id.to_string())),
            _ => {
                let mut request = (*request).clone();
                if let Value::Object(object) = &mut request {
                    object.insert("id".to_owned(), id);
                }
                input.push_str(&request.to_string());
            }
        }
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
pub(super) fn picked<'a>(probe: &Probe, response: &'a Value) -> Option<&'a Value> {
    response.pointer(&probe.pick)
}

/// Runs every chosen bug's probe against a fresh clean copy (one adapter for all of
/// them): each must give the answer `bugs.json` records, or the probes prove nothing.
pub(super) fn clean_probes(context: &Context, chosen: &[&Bug]) -> Result<(), String> {
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
pub(super) fn inert(context: &Context, bug: &Bug, command: &str) -> Result<Option<String>, String> {
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
pub(super) fn controls(
    context: &Context,
    gallery: &Gallery,
) -> Result<(usize, Vec<(String, usize)>), String> {
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
pub(super) enum Probed {
    Inert(String),
    Ran(Run),
}

pub(super) fn probed(context: &Context, bug: &Bug, command: &str, first: Option<&str>) -> Probed {
    match inert(context, bug, command) {
        Ok(Some(message)) => Probed::Inert(message),
        Ok(None) => Probed::Ran(verdict_run(context, command, first)),
        Err(message) => Probed::Ran(Run::Broken(format!("its probe: {message}"))),
    }
}

pub(super) fn run_bug(context: &Context, index: usize, bug: &Bug, subject: &Subject) -> Row {
    let started = Instant::now();
    let run = match subject {
        Subject::Stale(message) => {
            return Row {
                verdict: Verdict::Stale(message.clone()),
                seconds: 0.0,
            };
        }
        Subject::Patched(files) => match impl_copy(context, &index.to_string(), files) {
            Ok((_dir, command)) => {
                probed(context, bug, &command, subject.first_group(context.kind))
            }
            Err(message) => Probed::Ran(Run::Broken(message)),
        },
        Subject::Liar(command) => probed(context, bug, command, None),
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
        Run::Report {
            failed,
            beyond_core,
            fixed,
            timed_out,
            ..
        } => Verdict::Caught(failed, beyond_core, fixed, timed_out),
    };
    Row {
        verdict,
        seconds: started.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(name: &str, cases: u64, failed_cases: &[&str], more: u64) -> Value {
        let failures: Vec<Value> = failed_cases.iter().map(|c| json!({"case": c})).collect();
        json!({"protocol": "p", "name": name, "class": "core", "cases": cases,
               "failures": failures, "more_failures": more})
    }

    /// A `--fail-fast` report counts the checks it did not run in `total`, and says
    /// whether some case passed: a check passed, or failed in fewer of its cases than
    /// it ran (not known past the failures kept).
    #[test]
    fn a_stopped_report_counts_what_it_did_not_run_and_whether_a_case_passed() {
        let generated = Generated::from_files(&[]);
        let summary_of = |checks: Vec<Value>, not_run: Option<u64>| {
            let mut report = json!({ "checks": checks });
            if let Some(n) = not_run {
                report["failed_fast"] = json!({"check": "p/x", "not_run": n});
            }
            match summary(&report, &generated) {
                Run::Report {
                    failed,
                    total,
                    not_run,
                    case_passed,
                    ..
                } => (failed.len(), total, not_run, case_passed),
                Run::Broken(message) => panic!("{message}"),
            }
        };
        assert_eq!(
            summary_of(
                vec![check("a", 2, &[], 0), check("x", 3, &["1"], 0)],
                Some(5)
            ),
            (1, 7, 5, true)
        );
        assert_eq!(
            summary_of(vec![check("x", 3, &["1", "2", "2", "3"], 0)], Some(5)),
            (1, 6, 5, false)
        );
        assert_eq!(
            summary_of(vec![check("x", 3, &["1", "2"], 0)], Some(1)),
            (1, 2, 1, true)
        );
        assert_eq!(
            summary_of(vec![check("x", 30, &["1"], 4)], Some(1)),
            (1, 2, 1, false)
        );
        assert_eq!(
            summary_of(vec![check("a", 2, &[], 0)], None),
            (0, 1, 0, true)
        );
    }

    fn report(failed: &[&str], total: usize, fixed: &[&str]) -> Run {
        Run::Report {
            failed: failed.iter().map(|s| (*s).to_owned()).collect(),
            total,
            groups: Vec::new(),
            beyond_core: Vec::new(),
            fixed: fixed.iter().map(|s| (*s).to_owned()).collect(),
            timed_out: Vec::new(),
            not_run: 0,
            case_passed: true,
        }
    }

    /// An entry's runs add up: a run of another count than the controls', or without a
    /// report, ends the verdict with the group named; caught means some check failed and
    /// not every one run so far.
    #[test]
    fn a_tally_adds_runs_and_refuses_a_miscounted_one() {
        let mut tally = Tally::new();
        assert!(tally.add(report(&[], 3, &[]), "g", Some(3)).is_ok());
        assert!(!tally.caught());
        assert!(tally.add(report(&["g/x"], 2, &[]), "h", None).is_ok());
        assert!(tally.caught());
        assert!(tally.fixed.is_empty());
        assert!(
            tally
                .add(report(&["i/y"], 1, &["i/y"]), "i", Some(1))
                .is_ok()
        );
        assert_eq!(tally.fixed, ["i/y"]);
        match tally.report() {
            Run::Report { failed, total, .. } => {
                assert_eq!((failed.len(), total), (2, 6));
            }
            Run::Broken(message) => panic!("{message}"),
        }
        let mut every = Tally::new();
        assert!(
            every
                .add(report(&["g/x", "g/y"], 2, &[]), "g", Some(2))
                .is_ok()
        );
        assert!(!every.caught(), "every check failed: not (yet) a catch");
        let mut wrong = Tally::new();
        match wrong.add(report(&[], 4, &[]), "g", Some(3)) {
            Err(message) => {
                assert_eq!(message, "the runner ran 4 g checks, the controls 3");
            }
            _ => panic!("a miscounted run was added"),
        }
        match wrong.add(Run::Broken("no report".into()), "h", Some(1)) {
            Err(message) => assert_eq!(message, "its h checks: no report"),
            _ => panic!("a broken run was added"),
        }
    }

    /// A check whose every failure is the adapter's silence past `--timeout` (the
    /// request waited for, or the next one not sent because of it) is named as timed
    /// out and is no fixed catch; one failure on an answer makes it an ordinary catch.
    /// A tally of such checks alone has failed on no answer.
    #[test]
    fn a_check_failed_only_by_timeouts_is_no_fixed_catch() {
        let generated = Generated::from_files(&[]);
        let silent = format!(
            "implementation failed: {} 20.0s to request #5 {{}}",
            bloomproof_conformance::adapter::NO_RESPONSE
        );
        let unsent = format!("request #6 not sent: the adapter is no longer running ({silent})");
        let failure = |case: &str, actual: &str| json!({"case": case, "actual": actual});
        let with = |name: &str, failures: Vec<Value>| {
            json!({"protocol": "p", "name": name, "class": "core", "cases": 9,
                   "failures": failures, "more_failures": 0})
        };
        let checks = json!({"checks": [
            with("slow", vec![failure("1", &silent), failure("2", &unsent)]),
            with("wrong", vec![failure("1", &silent), failure("2", "an answer")]),
            with("fine", vec![]),
        ]});
        let Run::Report {
            failed,
            fixed,
            timed_out,
            ..
        } = summary(&checks, &generated)
        else {
            panic!("no report");
        };
        assert_eq!(failed, ["slow", "wrong"]);
        assert_eq!(fixed, ["wrong"]);
        assert_eq!(timed_out, ["slow"]);
        let mut tally = Tally::new();
        let slow = Run::Report {
            failed: vec!["slow".to_owned()],
            total: 3,
            groups: Vec::new(),
            beyond_core: Vec::new(),
            fixed: Vec::new(),
            timed_out: vec!["slow".to_owned()],
            not_run: 0,
            case_passed: true,
        };
        assert!(tally.add(slow, "g", Some(3)).is_ok());
        assert!(tally.caught() && !tally.failed_on_answers());
        assert!(tally.add(report(&["x"], 1, &[]), "h", Some(1)).is_ok());
        assert!(tally.failed_on_answers());
    }
}
