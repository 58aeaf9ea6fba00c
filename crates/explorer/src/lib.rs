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
//! Errors are `{"error": {"kind": "...", "message": "..."}}` with a 4xx status:
//! 400 for a request that cannot be read (malformed JSON, unknown operation or
//! field, a `session` that fails validation), 413 for a body over its limit,
//! 422 for an operation or a file that the session rules reject, 404 and 405
//! for unknown paths and methods. Handlers never panic on input.

mod api;
mod assets;
mod series;
mod share;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

pub use api::{APPLY_BODY_LIMIT, ErrorBody, ErrorDetail, router};
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
}

impl Default for Options {
    /// 127.0.0.1, a free port, no browser.
    fn default() -> Self {
        Options {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            open: false,
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

/// Binds, prints the page's URL (one line, `http://127.0.0.1:PORT/`), opens it
/// when asked, and serves until the process ends.
pub async fn serve(options: Options) -> Result<(), String> {
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
    println!("bloomproof explorer: {url}");
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: listening on {}, not only on loopback: anyone who can reach this address can use the page",
            addr.ip()
        );
    }
    println!(
        "Press Ctrl+C to stop. The session lives in the browser; stopping the server loses nothing."
    );
    if options.open
        && let Err(error) = open::that_detached(&url)
    {
        eprintln!("note: could not open a browser ({error}); open {url} yourself");
    }
    axum::serve(listener, router())
        .await
        .map_err(|error| format!("server error: {error}"))
}

/// [`serve`] on a new multi-threaded Tokio runtime, blocking until the server stops.
pub fn run(options: Options) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the async runtime: {error}"))?;
    runtime.block_on(serve(options))
}
