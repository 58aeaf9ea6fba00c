//! The explorer page of the `fnv1a-utf16-v1` teaching filter (seed `002`,
//! `spec/fnv1a-utf16-v1/PROTOCOL.md`): static files, served on a local port by
//! `bloomproof explore` or written to a folder by `bloomproof explore --export DIR`.
//!
//! The page is plain HTML, CSS and JavaScript modules compiled into the binary
//! (no front-end build step; see [`site`]). Its rules are the project's
//! JavaScript session model (`vectors/check/js/session.mjs`, the module the
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

mod guard;
mod pages;
pub mod site;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

pub use bloomproof_format::explorer::ErrorAnswer;
pub use guard::{BODY_LIMIT, DEFAULT_READ_TIMEOUT, LOOPBACK_NAMES, Timeouts, app, host_allowed};
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
}

impl Default for Options {
    /// 127.0.0.1, a free port, no browser, loopback only, 10 s read timeouts.
    fn default() -> Self {
        Options {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            open: false,
            allow_remote: false,
            timeouts: Timeouts::default(),
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
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: listening on {} (--allow-remote), not only on loopback: anyone who can reach this address can use the page",
            addr.ip()
        );
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
    serve_listener(listener, options.timeouts).await
}

/// Serves [`app`] on a bound listener until the process ends: HTTP/1.1, one
/// task per connection, the headers of each request read within
/// [`Timeouts::header_read`] (past it the connection is closed) and its body
/// within [`Timeouts::body_read`].
pub async fn serve_listener(
    mut listener: tokio::net::TcpListener,
    timeouts: Timeouts,
) -> Result<(), String> {
    let bound = listener
        .local_addr()
        .map_err(|error| format!("cannot read the listening address: {error}"))?;
    let service = hyper_util::service::TowerToHyperService::new(app(bound, timeouts));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(timeouts.header_read);
    loop {
        // Accept errors (too many open files, ...) are waited out by axum's listener.
        let (stream, _peer) = axum::serve::Listener::accept(&mut listener).await;
        // Small answers go out at once; failing to set it changes nothing else.
        let _ = stream.set_nodelay(true);
        let connection =
            http.serve_connection(hyper_util::rt::TokioIo::new(stream), service.clone());
        tokio::spawn(async move {
            // A connection that fails (closed by the client, timed out) ends here.
            let _ = connection.await;
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
