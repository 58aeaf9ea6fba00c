//! The explorer page of the `fnv1a-utf16-v1` teaching filter (seed `002`,
//! Protocol 2 of `PROTOCOLS.md`), served on a local port by `bloomproof explore`.
//!
//! The page is plain HTML, CSS and JavaScript compiled into the binary (no
//! front-end build step). Every rule lives in [`bloomproof_session`]: the page
//! only sends operations and renders the [`View`](bloomproof_session::View)s it
//! gets back. The server keeps **no session state**: each call carries the
//! current session (its export text) and gets the next one, so the session lives
//! in the browser (in `localStorage`, under the 100000-character rule) and a
//! server restart loses nothing.
//!
//! # The JSON API
//!
//! | call | body or query | answer |
//! |---|---|---|
//! | `POST /api/apply` | `{"session": <export text, export object or null>, "op": Op}` or `"ops": [Op, ...]` (all or nothing; none: just validate and view) | `{"session": <export text>, "view": View}` |
//! | `POST /api/import` | the file itself, raw (at most 2 MiB, checked before parsing) | `{"session", "view"}` |
//! | `POST /api/save` | `{"state": <text>, "previous": <text or null>}` | a [`SaveOutcome`](bloomproof_session::SaveOutcome) |
//! | `GET /api/estimates` | `?m=&k=` and optionally `&n=` (marked point), `&n_max=`, `&points=` | `{"m","k","n","n_max","optimal_k","points":[{"n","classic","finite_m","exact"}]}` |
//! | `POST /api/share` | `{"session": ...}` | `{"fragment": "#share=..."}` (m, k and the entries) |
//! | `POST /api/restore` | `{"session": ..., "fragment": "#share=..."}` | `{"session", "view"}` |
//!
//! Every JSON body is **an object** (`{...}`), and so is every operation in
//! `op` and `ops`: an array where an object is expected (`[null, []]`,
//! `{"op": ["insert", "a"]}`) is 400 `invalid_request` ("invalid type:
//! sequence, expected a JSON object ..., not an array"), even where serde alone would
//! read the array's items as the fields in order. A key given twice in one
//! object is 400 `invalid_request` too.
//!
//! `POST /api/import` reads the file as import does in
//! `spec/fnv1a-utf16-v1/SESSION.md` (section 10, step 2): a file that starts with a **byte-order mark** is 422 `syntax` (as in
//! the adapter and the Python and JavaScript implementations), like any other
//! text that is not strict JSON; so is a file that is not UTF-8.
//!
//! `POST /api/restore` reads the link format of [`decode_fragment`]: a link
//! that lists the same entry twice (the same UTF-16 code units, whichever
//! form each is written in) is 422 `invalid` and changes nothing, since a
//! shared link lists the distinct entries of a filter once each.
//!
//! Errors are `{"error": {"kind": "...", "message": "..."}}` with a 4xx status:
//! 400 for a request that cannot be read (malformed JSON, unknown operation or
//! field, an array where an object is expected, a `session` that fails
//! validation), 413 for a body over its limit, 422 for an operation or a file
//! that the session rules reject, 404 and 405 for unknown paths and methods,
//! and, from [`app`] only, 421, 403 and 408 (below). Handlers never panic on
//! input.
//!
//! # Who may call it, and how slowly
//!
//! [`router`] is the page and the API alone; `bloomproof explore` serves
//! [`app`], the same behind these rules:
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
//!   `origin_not_allowed`, answered before the body is read, so a cross-site
//!   form or `text/plain` POST is never processed. Requests without `Origin`
//!   (curl, scripts) are served.
//! - **Bodies are bounded before they are parsed**: [`body_limit`] bytes, 2 MiB
//!   ([`IMPORT_MAX_BYTES`](bloomproof_session::IMPORT_MAX_BYTES)) for
//!   `/api/import` and 8 MiB ([`APPLY_BODY_LIMIT`]: a session of up to 2 MiB
//!   escaped in a JSON string, twice for `save`) for every other call; a
//!   declared `Content-Length` over it is 413 at once, and a body that grows
//!   past it is cut and 413.
//! - **Timeouts** ([`Timeouts`], 10 s each by default): the headers of a
//!   request must arrive within [`Timeouts::header_read`] (else the connection
//!   is closed; this also ends an idle connection), its body within
//!   [`Timeouts::body_read`] (else **408** `request_timeout` and the
//!   connection is closed).

mod api;
mod assets;
mod guard;
mod object;
mod series;
mod share;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

pub use api::{APPLY_BODY_LIMIT, ErrorBody, ErrorDetail, router};
pub use guard::{DEFAULT_READ_TIMEOUT, LOOPBACK_NAMES, Timeouts, app, body_limit, host_allowed};
pub use series::{DEFAULT_POINTS, MAX_POINTS, Point, Series, WORK_BUDGET, series};
pub use share::{SHARE_PREFIX, SharedFilter, decode_fragment, encode_fragment};

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
            "bloomproof explorer: {url}\nPress Ctrl+C to stop. The session lives in the browser; stopping the server loses nothing.\n"
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
