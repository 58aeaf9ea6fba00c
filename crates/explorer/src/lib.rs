//! The explorer page of the `fnv1a-utf16-v1` teaching filter (seed `002`,
//! `spec/fnv1a-utf16-v1/PROTOCOL.md`): static files, served on a local port by
//! `bloomproof explore` or written to a folder by `bloomproof explore --export DIR`.
//!
//! The page is plain HTML, CSS and JavaScript modules compiled into the binary
//! (no front-end build step; see [`site`]). Its rules are the project's
//! JavaScript session model (`implementations/js/session.mjs`, the module the
//! JavaScript adapter runs through the whole conformance suite), which the page
//! imports and runs itself: the server answers nothing but the page's files,
//! keeps no state and takes no request body. The session lives in the browser
//! (in `localStorage`, under the 100000-character rule), so stopping the server
//! after the page has loaded loses nothing, and the exported files work from
//! any static file server, and [`site::STANDALONE_NAME`] opened as a file.
//!
//! # What the server answers, and to whom
//!
//! `GET` and `HEAD` of the page's files ([`site::FILES`]; `/` is
//! `index.html`); 404 `not_found` for any other path and 405
//! `method_not_allowed` for another method. Errors are
//! `{"error": {"kind": "...", "message": "..."}}`. [`router`] is that alone;
//! `bloomproof explore` serves [`app`], the same behind these rules:
//!
//! - **Loopback only.** [`Options::check`] refuses a `--host` that is not a
//!   loopback address (`bloomproof explore` exits 2 saying so) unless
//!   `--allow-remote` is given, and then warns.
//! - **`Host`** must be `localhost`, `127.0.0.1` or `[::1]` (any port) or the
//!   bound address with its port: anything else is **421** `host_not_allowed`,
//!   the defence against DNS rebinding (a page at `http://evil.example/` whose
//!   name now points at 127.0.0.1).
//! - **`Origin`**, on every request but `GET` and `HEAD`, when present, must be
//!   the page's own (`http://` and the `Host`): anything else is **403**
//!   `origin_not_allowed`, answered before the body is read.
//! - **Bodies are bounded**: a request body (none is needed) over
//!   [`BODY_LIMIT`] is 413, refused on its declared `Content-Length` at once.
//! - **Timeouts** ([`Timeouts`], 10 s each by default): the headers of a
//!   request must arrive within [`Timeouts::header_read`] (else the connection
//!   is closed; this also ends an idle connection), its body within
//!   [`Timeouts::body_read`] (else **408** `request_timeout` and the
//!   connection is closed).
//! - **Connections and header bytes are bounded** ([`Limits`]): at most
//!   [`Limits::connections`] connections are served at once (a connection past
//!   them is answered **503** at once and closed), and a request's start line
//!   and headers may hold at most [`Limits::header_bytes`] bytes (past them
//!   **431** and the connection is closed), so a flood of unfinished requests
//!   holds a bounded amount of memory.
//! - **`CONNECT`** (a proxy tunnel) is **405** `method_not_allowed`: this is
//!   not a proxy.

mod guard;
mod pages;
pub mod site;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

pub use bloomproof_wire::explorer::ErrorAnswer;
pub use guard::{
    BODY_LIMIT, DEFAULT_READ_TIMEOUT, LOOPBACK_NAMES, Limits, Timeouts, app, host_allowed,
};
pub use pages::router;
pub use site::export_site;

/// How `bloomproof explore` listens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The address to bind: 127.0.0.1 unless the user asks otherwise.
    pub host: IpAddr,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Open the page in the default browser once listening.
    pub open: bool,
    /// Allow a `host` that is not a loopback address (`--allow-remote`):
    /// without it [`Options::check`] refuses one.
    pub allow_remote: bool,
    /// The header and body read timeouts.
    pub timeouts: Timeouts,
    /// The caps on connections and header bytes.
    pub limits: Limits,
}

impl Default for Options {
    /// 127.0.0.1, a free port, no browser, loopback only, 10 s read timeouts,
    /// the default [`Limits`].
    fn default() -> Self {
        Options {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            open: false,
            allow_remote: false,
            timeouts: Timeouts::default(),
            limits: Limits::default(),
        }
    }
}

impl Options {
    /// Refuses a `host` that is not a loopback address unless
    /// [`allow_remote`](Options::allow_remote) is set: the explorer is meant
    /// for this machine, and anyone who can reach another address could use it.
    pub fn check(&self) -> Result<(), String> {
        if self.host.to_canonical().is_loopback() || self.allow_remote {
            Ok(())
        } else {
            Err(format!(
                "refusing to listen on {}: it is not a loopback address, so anyone who can \
                 reach it could use the explorer; pass --allow-remote to listen there anyway \
                 (or leave --host out for 127.0.0.1)",
                self.host
            ))
        }
    }
}

/// The warning printed when the server listens on an address that is not a
/// loopback one (possible only with `--allow-remote`); `None` for a loopback
/// address, an IPv4-mapped one (`::ffff:127.0.0.1`) included.
pub fn remote_warning(ip: IpAddr) -> Option<String> {
    if ip.to_canonical().is_loopback() {
        return None;
    }
    Some(format!(
        "warning: listening on {ip}, which is not a loopback address (allowed by --allow-remote): \
         anyone who can reach this address can use the page"
    ))
}

/// The URL a person opens for a listening address.
///
/// An unspecified address (`0.0.0.0`, `::`) is shown as the loopback address of
/// its family, which reaches it from this machine.
pub fn url_for(addr: SocketAddr) -> String {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            format!("http://{}:{}/", Ipv4Addr::LOCALHOST, addr.port())
        }
        IpAddr::V4(ip) => format!("http://{ip}:{}/", addr.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => {
            format!("http://[{}]:{}/", Ipv6Addr::LOCALHOST, addr.port())
        }
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", addr.port()),
    }
}

/// Checks the options ([`Options::check`]), binds, prints the page's URL (one
/// line, `http://127.0.0.1:PORT/`), opens it when asked, and serves until the
/// process ends ([`serve_listener`]).
pub async fn serve(options: Options) -> Result<(), String> {
    options.check()?;
    let listener = tokio::net::TcpListener::bind((options.host, options.port))
        .await
        .map_err(|error| {
            format!(
                "cannot listen on {}:{}: {error}",
                options.host, options.port
            )
        })?;
    let addr = listener
        .local_addr()
        .map_err(|error| format!("cannot read the listening address: {error}"))?;
    let url = url_for(addr);
    if let Some(warning) = remote_warning(addr.ip()) {
        eprintln!("{warning}");
    }
    // One write, and a closed stdout (a caller that read the URL and went away) is no
    // reason to stop serving: `println!` would panic on the broken pipe.
    {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        let _ = write!(
            out,
            "bloomproof explorer: {url}\nPress Ctrl+C to stop. The page runs in the browser and keeps its session there; stopping the server after the page has loaded loses nothing.\n"
        );
        let _ = out.flush();
    }
    if options.open
        && let Err(error) = open::that_detached(&url)
    {
        eprintln!("note: could not open a browser ({error}); open {url} yourself");
    }
    serve_listener_with(listener, options.timeouts, options.limits).await
}

/// Serves [`app`] on a bound listener until the process ends: HTTP/1.1, one
/// task per connection, the headers of each request read within
/// [`Timeouts::header_read`] (past it the connection is closed) and its body
/// within [`Timeouts::body_read`], with the default [`Limits`].
pub async fn serve_listener(
    listener: tokio::net::TcpListener,
    timeouts: Timeouts,
) -> Result<(), String> {
    serve_listener_with(listener, timeouts, Limits::default()).await
}

/// The body of the answer to a connection past [`Limits::connections`].
const BUSY_BODY: &str = r#"{"error":{"kind":"too_many_connections","message":"the explorer serves a bounded number of connections at once, and all are in use; try again"}}"#;

/// How long a refused connection may take to receive its 503 answer (and
/// to be read from before it is closed).
const BUSY_WRITE: std::time::Duration = std::time::Duration::from_secs(1);

/// [`serve_listener`] with the given [`Limits`]: at most
/// [`Limits::connections`] connections at once (one past them gets a 503 and
/// is closed), and at most [`Limits::header_bytes`] of start line and headers
/// per request (past them hyper answers 431 and closes).
pub async fn serve_listener_with(
    mut listener: tokio::net::TcpListener,
    timeouts: Timeouts,
    limits: Limits,
) -> Result<(), String> {
    let bound = listener
        .local_addr()
        .map_err(|error| format!("cannot read the listening address: {error}"))?;
    let service = hyper_util::service::TowerToHyperService::new(app(bound, timeouts));
    let header_bytes = limits.header_bytes.max(guard::MIN_HEADER_BYTES);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(timeouts.header_read)
        .max_header_size(header_bytes)
        // The read buffer, which the headers must fit in too (hyper's minimum is 8 KiB).
        .max_buf_size(header_bytes.max(BODY_LIMIT));
    let busy: std::sync::Arc<str> = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{BUSY_BODY}",
        BUSY_BODY.len()
    )
    .into();
    let permits = std::sync::Arc::new(tokio::sync::Semaphore::new(limits.connections.max(1)));
    loop {
        // Accept errors (too many open files, ...) are waited out by axum's listener.
        let (mut stream, _peer) = axum::serve::Listener::accept(&mut listener).await;
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            // Full: a short answer, then the connection is closed; the write is
            // bounded in time, so a client that does not read costs nothing.
            let busy = busy.clone();
            tokio::spawn(async move {
                use tokio::io::AsyncReadExt as _;
                use tokio::io::AsyncWriteExt as _;
                let _ = tokio::time::timeout(BUSY_WRITE, async {
                    stream.write_all(busy.as_bytes()).await?;
                    stream.shutdown().await?;
                    // What the client sent is read (a little, briefly) before the
                    // close, which would otherwise reset the connection and may
                    // lose the answer.
                    let mut sink = [0_u8; 4096];
                    let mut left = BODY_LIMIT;
                    while left > 0 {
                        match stream.read(&mut sink).await? {
                            0 => break,
                            read => left = left.saturating_sub(read),
                        }
                    }
                    Ok::<(), std::io::Error>(())
                })
                .await;
            });
            continue;
        };
        // Small answers go out at once; failing to set it changes nothing else.
        let _ = stream.set_nodelay(true);
        let connection =
            http.serve_connection(hyper_util::rt::TokioIo::new(stream), service.clone());
        tokio::spawn(async move {
            // A connection that fails (closed by the client, timed out) ends here,
            // and gives its place back.
            let _ = connection.await;
            drop(permit);
        });
    }
}

/// [`serve`] on a new multi-threaded Tokio runtime, blocking until the server stops.
pub fn run(options: Options) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the async runtime: {error}"))?;
    runtime.block_on(serve(options))
}
