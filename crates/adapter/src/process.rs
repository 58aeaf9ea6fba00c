//! The runner's side of the adapter protocol: [`AdapterProcess`], one adapter
//! subprocess driven under deadlines, in bounded memory, and ended with its whole
//! process group (see `spec/ADAPTER.md`, "Sizes and processes").

use crate::client::{NO_RESPONSE, RESPONSE_MAX, STDERR_KEPT};
use crate::pipes::{Incoming, Pipes, Wait};
use crate::subject::{Answer, Between, SubjectError};
use bloomproof_wire::adapter::{ADAPTER_PROTOCOL, ADAPTER_PROTOCOL_OLDEST, Start, Started};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::{BTreeSet, VecDeque};
use std::fmt;
use std::io::Read;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Requests sent to an adapter and not yet answered, at most (see
/// [`AdapterProcess::requests`]): each queued line and each answer is held at most once,
/// so this bounds the memory of a pipelined batch.
pub const IN_FLIGHT: usize = 16;

/// A running adapter subprocess, in a process group of its own.
///
/// Every request has one deadline, the timeout, for being written and for its response
/// to be read: the runner's own thread writes to the adapter's stdin and reads its
/// stdout, both non-blocking, waiting in `poll(2)` (`pipes.rs`), with at most about
/// [`IN_FLIGHT`](crate::client::IN_FLIGHT) requests queued and one response line read ahead, so an adapter that
/// does not read, writes without end or stays silent costs at most the timeout and a
/// few MiB. Requests of a batch ([`AdapterProcess::requests`])
/// are sent without waiting for each answer, at most [`IN_FLIGHT`](crate::client::IN_FLIGHT) unanswered. A response
/// line longer than [`RESPONSE_MAX`] or malformed marks the adapter dead; on death, on
/// timeout and on drop its whole process group is killed.
pub struct AdapterProcess {
    command: String,
    child: Option<Child>,
    /// The process group (the `sh -c` process's id), while it may still be alive.
    group: Option<u32>,
    /// Its stdin and stdout, while it may still be alive.
    pipes: Option<Pipes>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    stderr_closed: Arc<AtomicBool>,
    next_id: u64,
    timeout: Duration,
    dead: Option<String>,
    /// When the whole run must end ([`AdapterProcess::set_run_deadline`]).
    run_deadline: Option<Instant>,
    /// Whether the run deadline passed (the adapter was killed for it).
    deadline_passed: bool,
    /// Well-formed responses read, over every start of the adapter, and since the
    /// last start.
    answered: u64,
    answered_now: u64,
    /// Responses that were `bad_request` errors, and the first one's message.
    bad_requests: u64,
    first_bad_request: Option<String>,
    /// What the adapter's handshake said, once it said it.
    started: Option<Started>,
    /// The answers counted in `answered` when this process was started as a fork
    /// ([`AdapterProcess::fork`]): its parent's, not its own.
    inherited: u64,
    /// Whether this process was started again after one of its command ended
    /// ([`AdapterProcess::between_checks`]).
    restarted: bool,
    /// The exit code the adapter's process ended with, once seen (a signal gives none).
    exit_code: Option<i32>,
}

use crate::answer::{MESSAGE_SHOWN, NAME_SHOWN};

/// The stderr lines that name a crash's cause, by what they contain: a Rust or Go
/// panic, a Python traceback, a Go runtime error, an exception (`TypeError: ...`).
const CAUSES: [&str; 5] = ["panic", "Traceback", "fatal error", "Error:", "error:"];

pub use crate::quote::shorten;

/// One paragraph: the adapter, started again, handshook as someone else (another
/// name, language, version or list of protocols): the answers of the two cannot be one
/// report's, so the run ends.
fn changed_identity(command: &str, before: Option<&Started>, after: Option<&Started>) -> String {
    let who = |started: Option<&Started>| match started {
        Some(s) => format!(
            "{} ({} {}; protocols {})",
            crate::quote::untrusted(&s.implementation.name, NAME_SHOWN),
            crate::quote::untrusted(&s.implementation.language, NAME_SHOWN),
            crate::quote::untrusted(&s.implementation.version, NAME_SHOWN),
            crate::quote::untrusted(&s.protocols.join(", "), MESSAGE_SHOWN)
        ),
        None => "nobody".to_string(),
    };
    format!(
        "the adapter `{}` was started again after it ended, and its handshake named another implementation: first {}, then {}. A report holds the answers of one implementation, so the run stops here; make the adapter give the same handshake on every start.",
        crate::quote::untrusted(command, 200),
        who(before),
        who(after)
    )
}

/// The process groups of the adapters this process has started and not yet ended,
/// so that a signal ([`end_groups_on_signals`]) can end them before the runner exits.
static GROUPS: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// Kills every process of the group `group` (SIGKILL) with the `kill(2)` system call
/// (no `kill` program: it works whatever `PATH` holds). An error (the group is already
/// gone) is ignored: the group's leader is killed and reaped directly as well.
#[cfg(unix)]
fn kill_group(group: u32) {
    send_kill(group);
    if let Ok(mut groups) = GROUPS.lock() {
        groups.remove(&group);
    }
}

/// SIGKILL to the process group `group`, errors ignored.
#[cfg(unix)]
fn send_kill(group: u32) {
    if let Some(pid) = i32::try_from(group)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_group: u32) {}

/// On the first adapter started, installs (once per process) handlers of SIGINT,
/// SIGTERM and SIGHUP that kill the process group of every adapter still running,
/// then exit with 128 + the signal's number (130, 143, 129), as the default action's
/// status reads in a shell. Without it a runner stopped by `timeout`, Ctrl-C or a CI
/// cancellation would leave its adapters running.
#[cfg(unix)]
fn end_groups_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = spawn_thread("signals", move || {
            if let Some(signal) = signals.forever().next() {
                // The list stays locked until the exit: no adapter starts after the
                // kill (a start waits for the lock).
                let groups = GROUPS
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                for &group in groups.iter() {
                    send_kill(group);
                }
                std::process::exit(128 + signal);
            }
        });
    });
}

#[cfg(not(unix))]
fn end_groups_on_signals() {}

/// Starts `sh -c command` with piped stdin, stdout and stderr, in a new process group
/// on Unix (its id is the child's).
fn spawn_adapter(command: &str) -> std::io::Result<Child> {
    let mut builder = Command::new("sh");
    builder
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        builder.process_group(0);
    }
    builder.spawn()
}

fn spawn_thread(name: &str, body: impl FnOnce() + Send + 'static) -> Result<(), String> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(body)
        .map(drop)
        .map_err(|err| format!("cannot start the {name} thread: {err}"))
}

/// Keeps the last [`STDERR_KEPT`] bytes of stderr, read in chunks (a line without end
/// costs no more).
fn keep_stderr(mut pipe: ChildStderr, kept: &Mutex<VecDeque<u8>>, closed: &AtomicBool) {
    let mut chunk = [0u8; 8192];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                if let Ok(mut kept) = kept.lock() {
                    kept.extend(chunk.get(..n).unwrap_or_default());
                    let excess = kept.len().saturating_sub(STDERR_KEPT);
                    kept.drain(..excess);
                }
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    closed.store(true, Ordering::SeqCst);
}

impl AdapterProcess {
    /// Starts `command` through `sh -c`, in a process group of its own, with a timeout
    /// per request (for writing it and reading its response).
    pub fn start(command: &str, timeout: Duration) -> Result<Self, String> {
        end_groups_on_signals();
        // The list of groups is held from before the spawn until the new group is in
        // it: a signal in between waits for it, so no group escapes the handler.
        let mut groups = GROUPS.lock().ok();
        let mut child = spawn_adapter(command)
            .map_err(|err| format!("cannot start adapter `{command}`: {err}"))?;
        let group = child.id();
        if let Some(groups) = groups.as_mut() {
            groups.insert(group);
        }
        drop(groups);
        let mut process = AdapterProcess {
            command: command.to_string(),
            child: None,
            group: Some(group),
            pipes: None,
            stderr: Arc::new(Mutex::new(VecDeque::new())),
            stderr_closed: Arc::new(AtomicBool::new(false)),
            // The handshake is request #0; the checks' requests count from 1.
            next_id: 0,
            timeout,
            dead: None,
            run_deadline: None,
            deadline_passed: false,
            answered: 0,
            answered_now: 0,
            bad_requests: 0,
            first_bad_request: None,
            started: None,
            inherited: 0,
            restarted: false,
            exit_code: None,
        };
        let (stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        process.child = Some(child);
        // From here on, dropping `process` ends the group.
        let (Some(stdin), Some(stdout), Some(stderr)) = (stdin, stdout, stderr) else {
            return Err(format!(
                "adapter `{command}` has no stdin, stdout or stderr"
            ));
        };
        // At most IN_FLIGHT requests of a batch wait, and a line written as given
        // with one request behind it: room for both.
        let pipes = Pipes::new(stdin, stdout, RESPONSE_MAX, IN_FLIGHT + 2)
            .map_err(|err| format!("cannot set up the pipes of adapter `{command}`: {err}"))?;
        let (kept, closed) = (
            Arc::clone(&process.stderr),
            Arc::clone(&process.stderr_closed),
        );
        spawn_thread("adapter stderr", move || {
            keep_stderr(stderr, &kept, &closed)
        })?;
        process.pipes = Some(pipes);
        process.handshake()?;
        Ok(process)
    }

    /// The timeout per request.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// What the adapter's handshake said: who answers and the protocols it implements.
    pub fn started(&self) -> Option<&Started> {
        self.started.as_ref()
    }

    /// The handshake, the first exchange of every start of the adapter: a `start`
    /// request, answered with the version the adapter speaks, who it is and the
    /// protocols it implements. Anything else is one paragraph saying what was
    /// expected, what came and where the changes between versions are listed.
    fn handshake(&mut self) -> Result<(), String> {
        let start = Start::Start {
            adapter_protocol: ADAPTER_PROTOCOL,
        };
        let answer = match self.send(None, &start) {
            Pending::Sent { id, request, sent } => self.receive(id, &request, sent),
            Pending::NotQueued { id, request } => Err(self.not_queued(id, &request)),
            Pending::Done(answer) => answer,
        };
        let command = crate::quote::untrusted(&self.command, 200);
        let protocols = bloomproof_protocol::PROTOCOLS
            .iter()
            .map(|p| format!("\"{p}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let paragraph = |what: String| {
            format!(
                "the adapter `{command}` {what}. This runner speaks adapter protocol version {ADAPTER_PROTOCOL} (and still runs adapters of version {ADAPTER_PROTOCOL_OLDEST}): it opens every run with {{\"id\": 0, \"op\": \"start\", \"adapter_protocol\": {ADAPTER_PROTOCOL}}} and expects, before any other request, one line {{\"id\": 0, \"result\": {{\"adapter_protocol\": {ADAPTER_PROTOCOL}, \"implementation\": {{\"name\": ..., \"language\": ..., \"version\": ...}}, \"protocols\": [{protocols}]}}}}. ADAPTER.md (sections \"Handshake\" and \"Changes\"; `bloomproof spec export DIR` writes it) says what each version changed."
            )
        };
        let value = match answer {
            Ok(value) => value,
            Err(SubjectError::Rejected { kind, message, .. }) => {
                return Err(paragraph(format!(
                    "answered the handshake with an error ({}: {}), as an adapter of version 1 of the adapter protocol, which had no handshake, does",
                    crate::quote::untrusted(&kind, NAME_SHOWN),
                    crate::quote::untrusted(&message, MESSAGE_SHOWN)
                )));
            }
            Err(SubjectError::Broken(why)) => {
                // `sh -c` exits 127 when the command's program is not found and 126 when
                // it cannot be run: no adapter ran, so the paragraph on protocol versions
                // (and the broken pipe the write met) would only mislead.
                if let Some(code @ (126 | 127)) = self.exit_code() {
                    let cause = if code == 127 {
                        "was not found"
                    } else {
                        "could not be run (not executable, or a folder)"
                    };
                    let program = command.split_whitespace().next().unwrap_or_default();
                    return Err(format!(
                        "cannot start the adapter `{command}`: the program `{program}` {cause} (sh exited {code}{}). Give a program on PATH or a path to one, e.g. --impl 'python3 my_adapter.py'.",
                        self.stderr_tail()
                    ));
                }
                return Err(paragraph(format!("did not answer the handshake: {why}")));
            }
        };
        let started: Started = serde_json::from_value(value.clone()).map_err(|err| {
            paragraph(format!(
                "answered the handshake with {}, which is not a start result ({})",
                shorten(&value.to_string()),
                crate::quote::untrusted(&err.to_string(), 200)
            ))
        })?;
        // An adapter of an earlier version the runner still runs is run without the
        // inputs that need a later one (the report's `left out` lines).
        if !(ADAPTER_PROTOCOL_OLDEST..=ADAPTER_PROTOCOL).contains(&started.adapter_protocol) {
            return Err(paragraph(format!(
                "speaks adapter protocol version {}",
                started.adapter_protocol
            )));
        }
        let info = &started.implementation;
        for (what, text) in [
            ("name", &info.name),
            ("language", &info.language),
            ("version", &info.version),
        ] {
            if text.chars().count() > 200 || text.trim().is_empty() {
                return Err(paragraph(format!(
                    "gave an implementation {what} of {} characters in its handshake: 1 to 200 are allowed",
                    text.chars().count()
                )));
            }
            if bloomproof_wire::blank(text) {
                let points: Vec<String> = text
                    .chars()
                    .map(|c| format!("U+{:04X}", u32::from(c)))
                    .collect();
                return Err(paragraph(format!(
                    "gave an implementation {what} of invisible characters only ({}) in its handshake: it must show at least one visible character",
                    points.join(" ")
                )));
            }
        }
        let known = bloomproof_protocol::PROTOCOLS;
        let mut seen = Vec::new();
        for protocol in &started.protocols {
            if !known.contains(&protocol.as_str()) || seen.contains(&protocol) {
                return Err(paragraph(format!(
                    "listed the protocol {} in its handshake: each of {} may be listed once",
                    crate::quote::untrusted(protocol, NAME_SHOWN),
                    known.join(" and ")
                )));
            }
            seen.push(protocol);
        }
        if started.protocols.is_empty() {
            return Err(paragraph("listed no protocol in its handshake".into()));
        }
        // The handshake is no answer a check asked for: the counts of answers (which
        // tell an adapter that never answers from one that crashed) leave it out.
        self.answered = self.answered.saturating_sub(1);
        self.answered_now = self.answered_now.saturating_sub(1);
        self.started = Some(started);
        Ok(())
    }

    /// The command line.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Why the adapter is dead, once it is: every later request fails at once with it.
    pub fn dead(&self) -> Option<&str> {
        self.dead.as_deref()
    }

    /// How the adapter ended, waiting up to half a second for it to exit (and for its
    /// stderr to be read to the end): `exited (exit status: 3)` or `is still running`.
    fn exit_status(&mut self) -> String {
        let Some(child) = self.child.as_mut() else {
            return "is no longer running".into();
        };
        for _ in 0..50 {
            if let Ok(Some(status)) = child.try_wait() {
                self.exit_code = status.code();
                // The leader is gone: end what it left in its group at once.
                if let Some(group) = self.group.take() {
                    kill_group(group);
                }
                for _ in 0..50 {
                    if self.stderr_closed.load(Ordering::SeqCst) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                return format!("exited ({status})");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        "is still running".into()
    }

    /// The adapter's exit code once it has exited (as seen when it was found dead, or
    /// waiting up to half a second for it now); `None` while it runs or when a signal
    /// ended it.
    fn exit_code(&mut self) -> Option<i32> {
        if self.exit_code.is_none() && self.child.is_some() {
            self.exit_status();
        }
        self.exit_code
    }

    /// What the adapter's stderr says, for a message: the lines that name a cause
    /// ([`CAUSES`], the first three, each cut to 200 characters), then its last 500
    /// bytes; control characters escaped (so line ends read `\n`).
    fn stderr_tail(&self) -> String {
        const SHOWN: usize = 500;
        let kept: Vec<u8> = match self.stderr.lock() {
            Ok(kept) => kept.iter().copied().collect(),
            Err(_) => Vec::new(),
        };
        let text = String::from_utf8_lossy(&kept);
        let mut out = String::new();
        let causes: Vec<String> = text
            .lines()
            .filter(|line| CAUSES.iter().any(|cause| line.contains(cause)))
            .take(3)
            .map(|line| crate::quote::untrusted(line.trim(), 200))
            .collect();
        if !causes.is_empty() {
            out.push_str(&format!(
                "; its stderr names the cause: {}",
                causes.join(" | ")
            ));
        }
        let mut skip = text.len().saturating_sub(SHOWN);
        while !text.is_char_boundary(skip) {
            skip += 1;
        }
        let tail = text.get(skip..).unwrap_or_default().trim();
        if !tail.is_empty() {
            let cut = if skip > 0 { "..." } else { "" };
            out.push_str(&format!(
                "; its stderr ends: {cut}{}",
                crate::quote::untrusted(tail, SHOWN)
            ));
        }
        out
    }

    /// Sets when the whole run must end: a request still unanswered then kills the
    /// adapter, and [`AdapterProcess::between_checks`] stops the run.
    pub fn set_run_deadline(&mut self, at: Instant) {
        self.run_deadline = Some(at);
    }

    /// Between two checks: [`Between::Go`] while the adapter runs; once it has ended
    /// (crashed, timed out, broke the protocol), [`Between::Stop`] when it never
    /// answered a request (it did not start), did not answer once started again, or
    /// the run deadline passed, else it is started again: [`Between::Restarted`].
    pub fn between_checks(&mut self) -> Between {
        let Some(why) = self.dead.clone() else {
            return Between::Go;
        };
        if self.deadline_passed {
            return Between::Stop(format!("the run was stopped: {why}"));
        }
        if self.answered == 0 {
            return Between::Stop(format!(
                "the adapter `{}` did not answer its first request, so nothing was checked: {why}. Check the command (it is run with `sh -c`) and that the adapter reads requests on stdin and answers each with one line on stdout (spec/ADAPTER.md).",
                crate::quote::untrusted(&self.command, 200)
            ));
        }
        if self.restarted && self.answered_now == 0 {
            return Between::Stop(format!(
                "the adapter `{}` was started again after it ended, and did not answer: {why}",
                crate::quote::untrusted(&self.command, 200)
            ));
        }
        match AdapterProcess::start(&self.command, self.timeout) {
            Ok(fresh) if fresh.started != self.started => Between::Stop(changed_identity(
                &self.command,
                self.started.as_ref(),
                fresh.started.as_ref(),
            )),
            Ok(mut fresh) => {
                fresh.run_deadline = self.run_deadline;
                fresh.answered = self.answered;
                fresh.inherited = self.inherited;
                fresh.restarted = true;
                fresh.bad_requests = self.bad_requests;
                fresh.first_bad_request = self.first_bad_request.take();
                fresh.next_id = self.next_id;
                // The old process is dropped (its group ended) here.
                *self = fresh;
                Between::Restarted(why)
            }
            Err(err) => Between::Stop(format!("the adapter could not be started again: {err}")),
        }
    }

    /// Another process of the same command, for running checks beside this one: the
    /// same timeout and run deadline. It counts this process's answers as its own
    /// (the command is known to answer: a fork whose first check ends it is started
    /// again, as this process would be), and [`AdapterProcess::join`] adds what it
    /// answered itself back into this process's counts.
    pub fn fork(&self) -> Result<AdapterProcess, String> {
        let mut fork = AdapterProcess::start(&self.command, self.timeout)?;
        fork.run_deadline = self.run_deadline;
        fork.answered = self.answered;
        fork.inherited = self.answered;
        Ok(fork)
    }

    /// Adds what `fork` ([`AdapterProcess::fork`]) answered into this process's counts,
    /// for [`AdapterProcess::closing_diagnosis`]; this process's first `bad_request`
    /// message is kept when it has one.
    pub fn join(&mut self, fork: &AdapterProcess) {
        self.answered += fork.answered.saturating_sub(fork.inherited);
        self.bad_requests += fork.bad_requests;
        if self.first_bad_request.is_none() {
            self.first_bad_request.clone_from(&fork.first_bad_request);
        }
    }

    /// One paragraph when every response of the run was a `bad_request` error: the
    /// adapter reads none of the requests, most often because it speaks another
    /// version of the adapter protocol.
    pub fn closing_diagnosis(&self) -> Option<String> {
        if self.answered == 0 || self.bad_requests < self.answered {
            return None;
        }
        Some(format!(
            "the adapter `{}` answered all {} requests with a `bad_request` error, so none of its answers could be checked; the first said: {}. It most likely speaks another version of the adapter protocol: compare its requests with spec/ADAPTER.md.",
            crate::quote::untrusted(&self.command, 200),
            self.answered,
            self.first_bad_request.as_deref().unwrap_or("(no message)")
        ))
    }

    /// Ends the adapter: closes the queues, kills its process group, then its leader,
    /// and reaps it.
    fn end(&mut self) {
        self.pipes = None;
        if let Some(group) = self.group.take() {
            kill_group(group);
        }
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn kill(&mut self, why: String) -> SubjectError {
        self.end();
        self.dead = Some(why.clone());
        SubjectError::Broken(why)
    }

    /// Sends one request and waits for its response: writing it and reading the
    /// response together take at most the timeout.
    pub fn request(&mut self, protocol: &str, op: &impl Serialize) -> Answer<Value> {
        let mut answers = self.requests(protocol, std::slice::from_ref(op), |reply| reply.tree());
        answers
            .pop()
            .unwrap_or_else(|| Err(SubjectError::Broken("no answer".into())))
    }

    /// Sends one request and reads its answer as the result type `T` of `op`, as
    /// [`Reply::read`] reads it.
    pub fn request_typed<T: DeserializeOwned>(
        &mut self,
        protocol: &str,
        op: &impl Serialize,
    ) -> Answer<T> {
        let mut answers = self.requests(protocol, std::slice::from_ref(op), |reply| reply.read(op));
        answers
            .pop()
            .unwrap_or_else(|| Err(SubjectError::Broken("no answer".into())))
    }

    /// Sends `ops` in order without waiting for each answer (pipelining), at most
    /// [`IN_FLIGHT`](crate::client::IN_FLIGHT) unanswered at a time, and hands each answer, in order, to `each`
    /// as it arrives. Each request has the timeout for being written and answered,
    /// counted from when it was sent or when the answer before it came, whichever is
    /// later: the adapter has the timeout for each request, whatever queues behind it.
    /// Once the adapter has failed, every later request fails at once with the reason.
    /// Each answer is handed over as it came ([`Reply`]): `each` reads it, as the
    /// result type of its op or as JSON.
    pub fn requests<T: Serialize, R>(
        &mut self,
        protocol: &str,
        ops: &[T],
        mut each: impl FnMut(Reply<'_>) -> R,
    ) -> Vec<R> {
        let mut results = Vec::with_capacity(ops.len());
        let mut pending: VecDeque<Pending> = VecDeque::new();
        let mut ops = ops.iter();
        let mut answered = Instant::now();
        loop {
            while pending.len() < IN_FLIGHT {
                let Some(op) = ops.next() else {
                    break;
                };
                pending.push_back(self.send(Some(protocol), op));
            }
            let Some(front) = pending.pop_front() else {
                return results;
            };
            let state = match front {
                Pending::Done(answer) => Received::Done(answer),
                Pending::Sent { id, request, sent } => {
                    let line = self.receive_line(id, &request, sent.max(answered));
                    answered = Instant::now();
                    match line {
                        Ok(text) => Received::Line { id, request, text },
                        Err(err) => Received::Done(Err(err)),
                    }
                }
                Pending::NotQueued { id, request } => {
                    Received::Done(Err(self.not_queued(id, &request)))
                }
            };
            results.push(each(Reply {
                process: self,
                state: Some(state),
            }));
        }
    }

    /// Queues one request for the adapter's stdin; `protocol` is `None` for the
    /// handshake, which names none.
    fn send(&mut self, protocol: Option<&str>, op: &impl Serialize) -> Pending {
        let id = self.next_id;
        self.next_id += 1;
        let line = match serde_json::to_value(op) {
            Ok(Value::Object(mut object)) => {
                object.insert("id".into(), json!(id));
                if let Some(protocol) = protocol {
                    object.insert("protocol".into(), json!(protocol));
                }
                // The text the tree's `Display` writes, written straight into the
                // line rather than through `fmt`.
                serde_json::to_string(&Value::Object(object)).ok()
            }
            // A tree holds no integer past 64 bits (a typed `{"int": 2^64}`): the text
            // of the request is written directly, `id` and `protocol` first.
            _ => wide_request_line(id, protocol, op),
        };
        let Some(line) = line else {
            return Pending::Done(Err(SubjectError::Broken(
                "cannot encode the request".into(),
            )));
        };
        if let Some(why) = &self.dead {
            return Pending::Done(Err(SubjectError::Broken(format!(
                "request #{id} not sent: the adapter is no longer running ({why})"
            ))));
        }
        let request = Quoted::of(&line);
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        let queued = self.pipes.as_mut().is_some_and(|pipes| pipes.queue(bytes));
        if queued {
            Pending::Sent {
                id,
                request,
                sent: Instant::now(),
            }
        } else {
            Pending::NotQueued { id, request }
        }
    }

    /// The run deadline passed while request `id` waited: the adapter is killed.
    fn run_deadline_passed(&mut self, id: u64, request: &dyn fmt::Display) -> SubjectError {
        self.deadline_passed = true;
        let why = format!(
            "the run's deadline (--deadline) passed while request #{id} waited for its answer: {request}"
        );
        self.kill(why)
    }

    /// The adapter's stdin is closed before request `id` could be queued.
    fn not_queued(&mut self, id: u64, request: &dyn fmt::Display) -> SubjectError {
        if let Some(why) = &self.dead {
            return SubjectError::Broken(format!(
                "request #{id} not sent: the adapter is no longer running ({why})"
            ));
        }
        let status = self.exit_status();
        let why = format!(
            "the adapter {status} before request #{id} could be sent: {request}{}",
            self.stderr_tail()
        );
        self.kill(why)
    }

    /// Sends the first id at least `id` from now on (request ids count up from there):
    /// for the adapter protocol's own checks, whose lines carry ids of their own, so
    /// that an answer to one of the runner's requests is never taken for the answer to
    /// such a line.
    pub fn skip_ids_to(&mut self, id: u64) {
        self.next_id = self.next_id.max(id);
    }

    /// Writes `bytes` and a newline as one line, exactly as given (for the adapter
    /// protocol's own checks: a line that is not UTF-8, a duplicate key, a blank line),
    /// then the request `op` of `protocol` behind it, before reading anything; then
    /// reads what comes back: the line's answer as JSON and as the text it came in
    /// (`Ok(None)` when the first response is the request's, by its id: the line got
    /// none, and no deadline was waited out) and the request's answer. Each has the timeout, counted from when it was
    /// written or when the response before it came, whichever is later. A line
    /// answered with something that is not JSON is an error of the line alone; the
    /// request's response is read after it.
    pub fn raw_then_request(
        &mut self,
        bytes: &[u8],
        protocol: &str,
        op: &impl Serialize,
    ) -> (LineAnswer, Answer<Value>) {
        let id = self.next_id;
        self.next_id += 1;
        let request = shorten(&String::from_utf8_lossy(bytes));
        let after = |process: &mut Self, line: LineAnswer, pending| {
            let answer = match pending {
                Pending::Done(answer) => answer,
                Pending::NotQueued { id, request } => Err(process.not_queued(id, &request)),
                Pending::Sent { id, request, sent } => {
                    process.receive(id, &request, sent.max(Instant::now()))
                }
            };
            (line, answer)
        };
        if let Some(why) = &self.dead {
            let line = Err(SubjectError::Broken(format!(
                "line #{id} not sent: the adapter is no longer running ({why})"
            )));
            let pending = self.send(Some(protocol), op);
            return after(self, line, pending);
        }
        let mut bytes = bytes.to_vec();
        bytes.push(b'\n');
        let queued = self.pipes.as_mut().is_some_and(|pipes| pipes.queue(bytes));
        if !queued {
            let line = Err(self.not_queued(id, &request));
            let pending = self.send(Some(protocol), op);
            return after(self, line, pending);
        }
        let pending = self.send(Some(protocol), op);
        let deadline = self.deadline(Instant::now());
        let text = match self
            .written_by(id, &request, deadline)
            .and_then(|()| self.read_text(id, &request, deadline))
        {
            Ok(text) => text,
            Err(err) => return after(self, Err(err), pending),
        };
        let value: Value = match serde_json::from_str(&text) {
            Ok(value) => value,
            Err(err) => {
                let line = Err(SubjectError::Broken(format!(
                    "malformed response to line #{id} {request}: not JSON ({err}); the response was: {}",
                    shorten(&text)
                )));
                return after(self, line, pending);
            }
        };
        match pending {
            // The request's answer came first: the line got none.
            Pending::Sent {
                id: request_id,
                request: quoted,
                ..
            } if value.get("id") == Some(&json!(request_id)) => {
                let answer = match self.written_by(request_id, &quoted, deadline) {
                    Ok(()) => self.accept(request_id, &quoted, &text),
                    Err(err) => Err(err),
                };
                (Ok(None), answer)
            }
            pending => after(self, Ok(Some((value, text))), pending),
        }
    }

    /// Waits for request `id` to be written and answered, by `start` + the timeout.
    fn receive(&mut self, id: u64, request: &dyn fmt::Display, start: Instant) -> Answer<Value> {
        let text = self.receive_line(id, request, start)?;
        self.accept(id, request, &text)
    }

    /// Waits for request `id` to be written and for its response line, by `start` +
    /// the timeout: the line, not yet read.
    fn receive_line(
        &mut self,
        id: u64,
        request: &dyn fmt::Display,
        start: Instant,
    ) -> Result<String, SubjectError> {
        if let Some(why) = &self.dead {
            return Err(SubjectError::Broken(format!(
                "request #{id} not answered: the adapter is no longer running ({why})"
            )));
        }
        self.receive_text(id, request, self.deadline(start))
    }

    /// Counts one well-formed response.
    fn count_answer(&mut self) {
        self.answered += 1;
        self.answered_now += 1;
    }

    /// Reads `text` as the response to request `id`: its answer, counted, or the
    /// adapter marked dead when the line is malformed.
    fn accept(&mut self, id: u64, request: &dyn fmt::Display, text: &str) -> Answer<Value> {
        match crate::answer::read_response(id, text) {
            Ok(answer) => {
                self.count_answer();
                if let Err(SubjectError::Rejected { kind, message, .. }) = &answer
                    && kind == "bad_request"
                {
                    self.bad_requests += 1;
                    if self.first_bad_request.is_none() {
                        self.first_bad_request = Some(message.clone());
                    }
                }
                answer
            }
            Err(why) => {
                let why = format!(
                    "malformed response to request #{id} {request}: {why}; the response was: {}",
                    shorten(text)
                );
                Err(self.kill(why))
            }
        }
    }

    /// The deadline of a request started at `start`: the timeout, or the run's
    /// deadline when that comes first.
    fn deadline(&self, start: Instant) -> Instant {
        let deadline = start + self.timeout;
        self.run_deadline
            .filter(|&at| at < deadline)
            .unwrap_or(deadline)
    }

    /// Waits for line `id` to be written, by `deadline`.
    fn written_by(
        &mut self,
        id: u64,
        request: &dyn fmt::Display,
        deadline: Instant,
    ) -> Result<(), SubjectError> {
        let run_deadline = self.run_deadline.filter(|&at| at <= deadline);
        let written = match self.pipes.as_mut() {
            Some(pipes) => pipes.written(deadline),
            None => Err(Wait::Disconnected),
        };
        match written {
            Ok(Ok(())) => {}
            Err(Wait::Timeout) if run_deadline.is_some() => {
                return Err(self.run_deadline_passed(id, request));
            }
            Err(Wait::Timeout) => {
                let why = format!(
                    "request #{id} could not be written within {:.1}s: the adapter does not read its input: {request}{}",
                    self.timeout.as_secs_f64(),
                    self.stderr_tail()
                );
                return Err(self.kill(why));
            }
            Ok(Err(err)) => {
                let status = self.exit_status();
                let why = format!(
                    "the adapter {status} before request #{id} could be sent ({err}): {request}{}",
                    self.stderr_tail()
                );
                return Err(self.kill(why));
            }
            Err(Wait::Disconnected) => {
                let status = self.exit_status();
                let why = format!(
                    "the adapter {status} before request #{id} could be sent: {request}{}",
                    self.stderr_tail()
                );
                return Err(self.kill(why));
            }
        }
        Ok(())
    }

    /// Waits for line `id` to be written and for one response line, by `deadline`: its
    /// text, or the adapter marked dead (a line too long or not UTF-8, a timeout, an
    /// exit).
    fn receive_text(
        &mut self,
        id: u64,
        request: &dyn fmt::Display,
        deadline: Instant,
    ) -> Result<String, SubjectError> {
        self.written_by(id, request, deadline)?;
        self.read_text(id, request, deadline)
    }

    /// Reads one response line, the answer to line `id`, by `deadline` (the line was
    /// written): its text, or the adapter marked dead.
    fn read_text(
        &mut self,
        id: u64,
        request: &dyn fmt::Display,
        deadline: Instant,
    ) -> Result<String, SubjectError> {
        let run_deadline = self.run_deadline.filter(|&at| at <= deadline);
        let received = match self.pipes.as_mut() {
            Some(pipes) => pipes.line(deadline),
            None => Err(Wait::Disconnected),
        };
        let bytes = match received {
            Ok(Incoming::Line(bytes)) => bytes,
            Ok(Incoming::TooLong(start)) => {
                let why = format!(
                    "the response to request #{id} {request} is longer than {RESPONSE_MAX} bytes (1 MiB); it begins: {}",
                    shorten(&String::from_utf8_lossy(&start))
                );
                return Err(self.kill(why));
            }
            Ok(Incoming::Failed(err)) => {
                let why = format!("reading the response to request #{id} {request}: {err}");
                return Err(self.kill(why));
            }
            Err(Wait::Timeout) if run_deadline.is_some() => {
                return Err(self.run_deadline_passed(id, request));
            }
            Err(Wait::Timeout) => {
                let why = format!(
                    "{NO_RESPONSE} {:.1}s to request #{id} {request}{}",
                    self.timeout.as_secs_f64(),
                    self.stderr_tail()
                );
                return Err(self.kill(why));
            }
            Err(Wait::Disconnected) => {
                let status = self.exit_status();
                let why = format!(
                    "the adapter {status} without answering request #{id} {request}{}",
                    self.stderr_tail()
                );
                return Err(self.kill(why));
            }
        };
        match String::from_utf8(bytes) {
            Ok(text) => Ok(text),
            Err(err) => {
                let why = format!(
                    "malformed response to request #{id} {request}: not UTF-8 (invalid byte at offset {}); the response was: {}",
                    err.utf8_error().valid_up_to(),
                    shorten(&String::from_utf8_lossy(err.as_bytes()))
                );
                Err(self.kill(why))
            }
        }
    }
}

/// What came back for a line written as given ([`AdapterProcess::raw_then_request`]):
/// its answer as JSON and as the text it came in, `None` when it got none.
pub type LineAnswer = Result<Option<(Value, String)>, SubjectError>;

/// One answer of a batch ([`AdapterProcess::requests`]) as it came, for its taker to
/// read: [`Reply::read`] as the result type of its op, [`Reply::tree`] as JSON. Either
/// counts the answer, or marks the adapter dead when the line is malformed, as the
/// answer is read; a reply dropped unread is read as JSON then.
pub struct Reply<'p> {
    process: &'p mut AdapterProcess,
    state: Option<Received>,
}

/// What came for one request of a batch.
enum Received {
    /// Its response line, not yet read.
    Line {
        id: u64,
        request: Quoted,
        text: String,
    },
    /// Its answer, found without a line (the adapter failed, the request was not
    /// sent).
    Done(Answer<Value>),
}

impl Reply<'_> {
    /// The answer as JSON: the result, the adapter's error, or why there is none.
    pub fn tree(mut self) -> Answer<Value> {
        match self.state.take() {
            Some(Received::Line { id, request, text }) => self.process.accept(id, &request, &text),
            Some(Received::Done(answer)) => answer,
            None => Err(SubjectError::Broken("no answer".into())),
        }
    }

    /// The answer's result as `T`, the result type of `op`: a well-formed result is
    /// read straight from its line (`answer.rs`, `typed_result`); any other line is
    /// read as JSON first ([`Reply::tree`]), which judges it, and its result then as
    /// `T`, with the outcomes and messages of reading every line so.
    pub fn read<T: DeserializeOwned>(mut self, op: &impl Serialize) -> Answer<T> {
        if let Some(Received::Line { id, text, .. }) = &self.state
            && let Some(result) = crate::answer::typed_result::<T>(*id, text)
        {
            self.state = None;
            self.process.count_answer();
            return Ok(result);
        }
        crate::client::result(self.tree(), op)
    }
}

impl Drop for Reply<'_> {
    fn drop(&mut self) {
        if let Some(Received::Line { id, request, text }) = self.state.take() {
            let _ = self.process.accept(id, &request, &text);
        }
    }
}

/// The most characters of a request line its quote shows.
const REQUEST_SHOWN: usize = 160;

/// A request line as a message quotes it, `quote::untrusted(line, REQUEST_SHOWN)`,
/// written only when a message shows it: kept are the line's first bytes (enough for
/// [`REQUEST_SHOWN`] characters and one more) and its length.
struct Quoted {
    head: String,
    len: usize,
}

impl Quoted {
    fn of(line: &str) -> Quoted {
        // A character is at most 4 bytes: these hold the first REQUEST_SHOWN + 1
        // characters of a longer line, or the whole line.
        let mut end = line.len().min(4 * (REQUEST_SHOWN + 1));
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        Quoted {
            head: line.get(..end).unwrap_or_default().to_string(),
            len: line.len(),
        }
    }
}

impl fmt::Display for Quoted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As `untrusted` quotes the whole line: its first REQUEST_SHOWN characters, then
        // the line's length when it holds more.
        match self.head.char_indices().nth(REQUEST_SHOWN) {
            Some((cut, _)) => {
                let shown = self.head.get(..cut).unwrap_or_default();
                f.write_str(&crate::quote::untrusted(shown, REQUEST_SHOWN))?;
                write!(f, "… ({} bytes)", self.len)
            }
            None => f.write_str(&crate::quote::untrusted(&self.head, REQUEST_SHOWN)),
        }
    }
}

/// A request of a pipelined batch, waiting for its turn to be answered.
enum Pending {
    /// Queued for the adapter's stdin at `sent`.
    Sent {
        id: u64,
        request: Quoted,
        sent: Instant,
    },
    /// The adapter's stdin was closed (a write failed).
    NotQueued { id: u64, request: Quoted },
    /// Answered without being sent (not encodable, or the adapter already failed).
    Done(Answer<Value>),
}

impl Drop for AdapterProcess {
    fn drop(&mut self) {
        // Closing stdin asks the adapter to stop (what it was sent and not yet took is
        // not written); give it a moment, then end its whole group, stragglers included.
        if let Some(pipes) = self.pipes.as_mut() {
            pipes.close_stdin();
        }
        if let Some(child) = self.child.as_mut() {
            for _ in 0..20 {
                if matches!(child.try_wait(), Ok(Some(_))) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.end();
    }
}
/// The request line of `op` written as text (for an op whose integers a JSON tree cannot
/// hold): `{"id":N,"protocol":P,` then the op's own keys; `None` unless `op` is an object.
fn wide_request_line(id: u64, protocol: Option<&str>, op: &impl Serialize) -> Option<String> {
    let text = serde_json::to_string(op).ok()?;
    let inner = text.strip_prefix('{')?.strip_suffix('}')?;
    let mut line = format!("{{\"id\":{id}");
    if let Some(protocol) = protocol {
        line.push_str(",\"protocol\":");
        line.push_str(&serde_json::to_string(protocol).ok()?);
    }
    if !inner.is_empty() {
        line.push(',');
        line.push_str(inner);
    }
    line.push('}');
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_line_is_the_text_its_tree_displays() {
        let tree = json!({
            "id": 7,
            "protocol": "fnv1a-utf16-v1",
            "op": "session",
            "script": [{"op": "import", "document": {"v": 1, "text": "a\u{0}\"\\\u{7f}\u{2028}😀", "f": [0.1, -0.0, 1e300, 5e-324, 18446744073709551615u64, -9223372036854775808i64]}}],
        });
        assert_eq!(serde_json::to_string(&tree).ok(), Some(tree.to_string()));
    }

    #[test]
    fn a_quoted_request_is_the_whole_line_quoted() {
        let mut lines = vec![
            String::new(),
            "{\"id\":1}".to_string(),
            "a\u{1b}[2J\r\n\u{202e}b".to_string(),
        ];
        for n in [159, 160, 161, 162, 200, 644, 645, 1 << 20] {
            lines.push("x".repeat(n));
            lines.push("é".repeat(n));
            lines.push("😀".repeat(n));
            lines.push("\u{1b}".repeat(n));
            lines.push(format!("{}😀{}", "x".repeat(n.min(700)), "y".repeat(n)));
        }
        for line in &lines {
            assert_eq!(
                Quoted::of(line).to_string(),
                crate::quote::untrusted(line, REQUEST_SHOWN),
                "{} bytes",
                line.len()
            );
        }
    }
}
