//! The machine and the subjects: load average, peak memory, the
//! processes under test, the watchdog and the client threads.

use super::*;

/// `/proc/loadavg`'s three averages (what `uptime` prints), or `uptime`'s line.
pub(super) fn load_average() -> String {
    if let Ok(text) = std::fs::read_to_string("/proc/loadavg") {
        let fields: Vec<&str> = text.split_whitespace().take(3).collect();
        if fields.len() == 3 {
            return fields.join(", ");
        }
    }
    Command::new("uptime")
        .output()
        .ok()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|text| !text.is_empty())
        .unwrap_or_else(|| "unavailable".to_string())
}

/// A process's peak resident set (`VmHWM`), in KiB.
pub(super) fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The processes under test: killed and reaped when dropped, whatever happened.
#[derive(Default)]
pub(super) struct Fleet {
    pub(super) children: Mutex<Vec<Child>>,
}

impl Fleet {
    /// Starts `command` with piped stdin and stdout; its pid and both pipes.
    pub(super) fn spawn(
        &self,
        command: &mut Command,
    ) -> Result<(u32, ChildStdin, ChildStdout), String> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|err| format!("cannot start {command:?}: {err}"))?;
        let pid = child.id();
        let pipes = (child.stdin.take(), child.stdout.take());
        self.children
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(child);
        match pipes {
            (Some(stdin), Some(stdout)) => Ok((pid, stdin, stdout)),
            _ => Err(format!("{command:?}: no pipes")),
        }
    }

    pub(super) fn kill_all(&self) {
        for child in self
            .children
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter_mut()
        {
            // An already exited child is fine.
            let _ = child.kill();
        }
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        let children = self
            .children
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        for child in children.iter_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Runs `work` while a watchdog kills `fleet` at `deadline`; also says whether it did.
pub(super) fn with_watchdog<T>(
    fleet: &Fleet,
    deadline: Instant,
    work: impl FnOnce() -> T,
) -> (T, bool) {
    let (done, wait) = mpsc::channel::<()>();
    let fired = AtomicBool::new(false);
    let fired_ref = &fired;
    let out = std::thread::scope(|scope| {
        scope.spawn(move || {
            let left = deadline.saturating_duration_since(Instant::now());
            if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(left) {
                fired_ref.store(true, Ordering::SeqCst);
                fleet.kill_all();
            }
        });
        let out = work();
        drop(done);
        out
    });
    (out, fired.load(Ordering::SeqCst))
}

/// Runs one client per element of `states` in parallel and collects their logs; a
/// client that panicked counts all of its requests as unsent.
pub(super) fn run_clients<S: Send>(
    states: &mut [S],
    count: usize,
    client: impl Fn(usize, &mut S) -> ClientLog + Sync,
) -> Vec<ClientLog> {
    let client = &client;
    std::thread::scope(|scope| {
        let handles: Vec<_> = states
            .iter_mut()
            .enumerate()
            .map(|(index, state)| scope.spawn(move || client(index, state)))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle.join().unwrap_or_else(|_| ClientLog {
                    unsent: count,
                    stopped: Some("a client thread panicked".to_string()),
                    ..ClientLog::default()
                })
            })
            .collect()
    })
}

/// The generic client loop: `count` requests from the mix `order`, starting at
/// `offset`, stopping at `soft`. `send(kind)` times and checks one request; a `Fatal`
/// outcome ends the loop (the subject is gone).
pub(super) fn client_loop(
    order: &[usize],
    offset: usize,
    count: usize,
    soft: Instant,
    mut send: impl FnMut(usize) -> (Sample, bool),
) -> ClientLog {
    let mut log = ClientLog::default();
    if order.is_empty() {
        log.unsent = count;
        return log;
    }
    for i in 0..count {
        if Instant::now() >= soft {
            log.limit_hit = true;
            log.unsent = count - i;
            break;
        }
        let kind = order[(offset + i) % order.len()];
        let (sample, fatal) = send(kind);
        log.samples.push(sample);
        if fatal {
            log.unsent = count - i - 1;
            log.stopped = Some("the client stopped: its subject is gone".to_string());
            break;
        }
    }
    log
}
