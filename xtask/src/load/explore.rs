//! The explorer phase: `bloomproof explore` under load over loopback HTTP.

use super::*;

/// Checks the body of an answer.
pub(super) type Check = Box<dyn Fn(&[u8]) -> Result<(), String> + Send + Sync>;

/// One kind of HTTP request.
pub(super) struct HttpKind {
    pub(super) name: &'static str,
    pub(super) weight: usize,
    pub(super) request: Request,
    /// The expected status.
    pub(super) status: u16,
    /// Checks the body of an answer with that status.
    pub(super) check: Check,
}

/// A POST of the page's script.
pub(super) fn post(
    name: &'static str,
    weight: usize,
    path: &str,
    body: Vec<u8>,
    status: u16,
    check: Check,
) -> HttpKind {
    HttpKind {
        name,
        weight,
        request: Request {
            method: Method::Post,
            path: path.to_string(),
            from: Caller::Page,
            body,
        },
        status,
        check,
    }
}

/// A GET of one of the page's files, checked to hold `marker`.
pub(super) fn page_file(
    name: &'static str,
    weight: usize,
    path: &str,
    caller: Caller,
    marker: &'static str,
) -> HttpKind {
    HttpKind {
        name,
        weight,
        request: Request {
            method: Method::Get,
            path: path.to_string(),
            from: caller,
            body: Vec::new(),
        },
        status: 200,
        check: Box::new(move |body: &[u8]| {
            if body.windows(marker.len()).any(|w| w == marker.as_bytes()) {
                Ok(())
            } else {
                Err(format!("the answer does not hold {marker:?}"))
            }
        }),
    }
}

/// An error answer of this `kind`.
pub(super) fn error_kind(kind: &'static str) -> Check {
    Box::new(
        move |body: &[u8]| match serde_json::from_slice::<Value>(body) {
            Ok(value) if value["error"]["kind"] == kind => Ok(()),
            _ => Err(format!(
                "not the error {kind:?}: {}",
                shorten(&String::from_utf8_lossy(body))
            )),
        },
    )
}

/// The explorer's request mix: the page's files, and two requests it refuses.
pub(super) fn explore_kinds() -> Vec<HttpKind> {
    vec![
        page_file("GET / (the page)", 2, "/", Caller::Navigation, "<html"),
        page_file(
            "GET /assets/app.js",
            2,
            "/assets/app.js",
            Caller::Page,
            "import",
        ),
        page_file(
            "GET /assets/style.css",
            1,
            "/assets/style.css",
            Caller::Page,
            ":root",
        ),
        page_file(
            "GET /assets/js/session.mjs",
            2,
            "/assets/js/session.mjs",
            Caller::Page,
            "export class Session",
        ),
        post(
            "POST / (refused: 405)",
            1,
            "/",
            b"{}".to_vec(),
            405,
            error_kind("method_not_allowed"),
        ),
        HttpKind {
            name: "GET /api/apply (no API: 404)",
            weight: 1,
            request: Request {
                method: Method::Get,
                path: "/api/apply".to_string(),
                from: Caller::Page,
                body: Vec::new(),
            },
            status: 404,
            check: error_kind("not_found"),
        },
    ]
}

/// Sends one request of `kind`: its latency and why it failed, if it did.
pub(super) fn send_http(
    client: &mut Client,
    kind: &HttpKind,
    deadline: Instant,
) -> (Duration, Result<(), String>) {
    let start = Instant::now();
    let response = client.send(&kind.request, deadline);
    let latency = start.elapsed();
    let outcome = response.and_then(|response| {
        if response.status != kind.status {
            return Err(format!(
                "status {} (expected {}): {}",
                response.status,
                kind.status,
                shorten(&String::from_utf8_lossy(&response.body))
            ));
        }
        (kind.check)(&response.body)
    });
    (latency, outcome)
}

/// Waits for the URL `bloomproof explore` prints; keeps reading its output afterwards
/// (on a thread that ends when the server does) so that it never blocks on a full pipe.
pub(super) fn read_address(stdout: ChildStdout) -> Result<SocketAddr, String> {
    let (lines, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            match line {
                Ok(line) => {
                    // The receiver stops listening once it has the URL.
                    let _ = lines.send(line);
                }
                Err(_) => break,
            }
        }
    });
    let deadline = Instant::now() + STARTUP_LIMIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = match receive.recv_timeout(left) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "bloomproof explore printed no URL within {} s",
                    STARTUP_LIMIT.as_secs()
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err("bloomproof explore exited before printing its URL".to_string());
            }
        };
        if let Some(at) = line.find("http://") {
            let rest = &line[at + "http://".len()..];
            let host = rest.split(['/', ' ']).next().unwrap_or_default();
            let addr: SocketAddr = host
                .parse()
                .map_err(|err| format!("cannot read the address in {line:?}: {err}"))?;
            if !addr.ip().is_loopback() {
                return Err(format!(
                    "bloomproof explore listens on {addr}, not loopback"
                ));
            }
            return Ok(addr);
        }
    }
}

pub(super) fn explore_phase(binary: &Path, plan: &Plan) -> Result<PhaseReport, String> {
    let fleet = Fleet::default();
    let mut command = Command::new(binary);
    command
        .args(["explore", "--host", "127.0.0.1", "--port", "0"])
        .stderr(Stdio::inherit());
    let (pid, stdin, stdout) = fleet.spawn(&mut command)?;
    drop(stdin);
    let addr = read_address(stdout)?;
    let started = Instant::now();
    let setup = plan.explore();
    let soft = started + setup.limit;
    let (count, clients) = (setup.requests, setup.clients);
    type Phase = (Vec<ClientLog>, Duration, Vec<&'static str>);
    let (phase, killed) = with_watchdog(&fleet, soft + GRACE, || -> Result<Phase, String> {
        let kinds = explore_kinds();
        let order = mix(&kinds.iter().map(|k| k.weight).collect::<Vec<_>>());
        let mut http_clients = (0..clients)
            .map(|_| Client::new(addr))
            .collect::<Result<Vec<_>, _>>()?;
        let timed = Instant::now();
        let logs = run_clients(&mut http_clients, count, |index, client| {
            let offset = index * order.len() / clients;
            client_loop(&order, offset, count, soft, |k| {
                let (latency, outcome) = send_http(client, &kinds[k], soft + GRACE);
                (
                    Sample {
                        kind: k,
                        latency,
                        error: outcome.err(),
                    },
                    false,
                )
            })
        });
        Ok((
            logs,
            timed.elapsed(),
            kinds.iter().map(|k| k.name).collect(),
        ))
    });
    let memory = vec![peak_rss_kib(pid)];
    drop(fleet);
    let (logs, wall, kinds) = phase?;
    Ok(setup.report(kinds, logs, memory, wall, killed))
}
