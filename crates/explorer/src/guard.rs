//! Who may call the server, and how slowly: the `Host` and `Origin` checks and
//! the bounded, timed body read that [`app`] puts in front of [`router`].
//!
//! A web page elsewhere must not be able to use the explorer:
//!
//! - **`Host`** (DNS rebinding): a page at `http://evil.example:PORT/` whose
//!   name is re-pointed at 127.0.0.1 reaches the server with
//!   `Host: evil.example:PORT`. Only `localhost`, `127.0.0.1` and `[::1]` (with
//!   any port, or none) and the bound address with its port are answered;
//!   anything else, a missing `Host` included, gets **421** `host_not_allowed`.
//!   When the server listens on an unspecified address (`0.0.0.0`, `::`, only
//!   with `--allow-remote`), "the bound address" is any IP address written as
//!   such (`192.168.1.5:PORT`), never a name, with the bound port.
//! - **`Origin`** (cross-site requests): a request with any method but `GET`
//!   and `HEAD` that carries an `Origin` must come from the page itself
//!   (`Origin` equal to `http://` and the request's `Host`); anything else
//!   (another site, another port, `null`) gets **403** `origin_not_allowed`
//!   before its body is read. A request without `Origin` (curl, a script, a
//!   test) is served: browsers always send one with such a request.
//! - **Bodies**: no file takes one, but a request may still carry one: it is
//!   read whole before the router sees it, cut at [`BODY_LIMIT`] (413
//!   `too_large`, refused on its declared `Content-Length` before reading when
//!   that is over) and within [`Timeouts::body_read`] (**408**
//!   `request_timeout`, and the connection is closed).
//!
//! The header read timeout ([`Timeouts::header_read`]) is the HTTP server's:
//! see [`serve_listener`](crate::serve_listener).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};

use crate::pages::{PageError, security_headers};
use crate::router;

/// The default of both read timeouts: 10 seconds.
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The host names answered whatever the bound address (with any port, or none).
pub const LOOPBACK_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// How long a client may take to send a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// From the first byte of a request (or the connection's start, or the end
    /// of the previous response) to the end of its headers; past it the
    /// connection is closed. This also ends an idle keep-alive connection.
    pub header_read: Duration,
    /// From the end of the headers to the end of the body; past it the request
    /// is answered 408 and the connection closed.
    pub body_read: Duration,
}

impl Default for Timeouts {
    /// [`DEFAULT_READ_TIMEOUT`] for both.
    fn default() -> Self {
        Timeouts {
            header_read: DEFAULT_READ_TIMEOUT,
            body_read: DEFAULT_READ_TIMEOUT,
        }
    }
}

/// The caps that keep a flood of connections small (see [`crate::serve_listener_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How many connections are served at once; a connection past them is
    /// answered 503 and closed at once.
    pub connections: usize,
    /// The most bytes of a request's start line and headers; past them the
    /// request is answered 431 and the connection closed. Values under
    /// `MIN_HEADER_BYTES` count as it (the HTTP library's minimum).
    pub header_bytes: usize,
}

impl Default for Limits {
    /// 128 connections (a browser opens about six), 16 KiB of headers: at most
    /// a few MiB held by unfinished requests.
    fn default() -> Self {
        Limits {
            connections: 128,
            header_bytes: 16 * 1024,
        }
    }
}

/// The smallest header cap the HTTP library accepts: 8 KiB.
pub const MIN_HEADER_BYTES: usize = 8 * 1024;

/// The largest request body read, in bytes (64 KiB): the page is static files,
/// so no request needs one.
pub const BODY_LIMIT: usize = 64 * 1024;

#[derive(Clone, Copy)]
struct Guard {
    bound: SocketAddr,
    timeouts: Timeouts,
}

/// [`router`] behind the `Host` and `Origin` checks and the bounded, timed body
/// read, for a server bound to `bound`: what `bloomproof explore` serves.
pub fn app(bound: SocketAddr, timeouts: Timeouts) -> Router {
    let guard = Guard { bound, timeouts };
    router()
        .layer(axum::middleware::from_fn_with_state(guard, read_body))
        .layer(axum::middleware::from_fn(check_origin))
        .layer(axum::middleware::from_fn_with_state(guard, check_host))
        .layer(axum::middleware::map_response(security_headers))
}

/// At most this many characters of a refused header are quoted in a message.
const QUOTE_CHARS: usize = 64;

fn quote(value: &[u8]) -> String {
    let text = String::from_utf8_lossy(value);
    let mut quoted: String = text.chars().take(QUOTE_CHARS).collect();
    if text.chars().count() > QUOTE_CHARS {
        quoted.push_str("...");
    }
    format!("{quoted:?}")
}

/// `host[:port]` split into the host (brackets kept for IPv6) and the port.
fn split_authority(authority: &str) -> Option<(&str, Option<u16>)> {
    let (host, port) = if authority.starts_with('[') {
        let end = authority.find(']')?;
        let (host, rest) = authority.split_at(end + 1);
        match rest {
            "" => (host, None),
            _ => (host, Some(rest.strip_prefix(':')?)),
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return None;
    }
    let port = match port {
        None => None,
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            Some(digits.parse::<u16>().ok()?)
        }
        Some(_) => return None,
    };
    Some((host, port))
}

/// An IP address written as a URL host: `1.2.3.4` or `[::1]`.
fn ip_literal(host: &str) -> Option<IpAddr> {
    match host
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().ok().map(IpAddr::V6),
        None => host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4),
    }
}

/// Whether a `Host` value names this server (see the module documentation).
pub fn host_allowed(authority: &str, bound: SocketAddr) -> bool {
    let Some((host, port)) = split_authority(authority) else {
        return false;
    };
    if LOOPBACK_NAMES
        .iter()
        .any(|name| name.eq_ignore_ascii_case(host))
    {
        return true;
    }
    let Some(ip) = ip_literal(host) else {
        // Any other name: the very thing DNS rebinding relies on.
        return false;
    };
    if port.unwrap_or(80) != bound.port() {
        return false;
    }
    let bound_ip = bound.ip().to_canonical();
    bound_ip.is_unspecified() || ip.to_canonical() == bound_ip
}

fn host_refused(detail: String, guard: &Guard) -> Response {
    let mut response = PageError::new(
        StatusCode::MISDIRECTED_REQUEST,
        "host_not_allowed",
        format!(
            "{detail}: this server answers only to localhost, 127.0.0.1, [::1] and {} \
             (a request under another name may come from a web page through DNS rebinding, \
             so it is refused)",
            guard.bound
        ),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Refuses a request whose `Host` (or absolute URI) names another server.
async fn check_host(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    let mut hosts = request.headers().get_all(header::HOST).iter();
    let host = match (hosts.next(), hosts.next()) {
        (Some(host), None) => host,
        (None, _) => return host_refused("the request has no Host header".to_owned(), &guard),
        (Some(_), Some(_)) => {
            return host_refused(
                "the request has more than one Host header".to_owned(),
                &guard,
            );
        }
    };
    if !host
        .to_str()
        .is_ok_and(|text| host_allowed(text, guard.bound))
    {
        let detail = format!("Host {} is not this server", quote(host.as_bytes()));
        return host_refused(detail, &guard);
    }
    // An absolute URI (`GET http://name/`) names the server too.
    if let Some(authority) = request.uri().authority()
        && !host_allowed(authority.as_str(), guard.bound)
    {
        let detail = format!(
            "the request's URI names {}, not this server",
            quote(authority.as_str().as_bytes())
        );
        return host_refused(detail, &guard);
    }
    next.run(request).await
}

/// `http://host[:port]` as (lowercase host, port with 80 for none).
fn origin_parts(origin: &str) -> Option<(String, u16)> {
    let authority = origin.strip_prefix("http://")?;
    let (host, port) = split_authority(authority)?;
    Some((host.to_ascii_lowercase(), port.unwrap_or(80)))
}

/// Whether `Origin` is the page served under this `Host`.
fn same_origin(origin: &str, host: &str) -> bool {
    match (origin_parts(origin), split_authority(host)) {
        (Some(origin), Some((host, port))) => {
            origin == (host.to_ascii_lowercase(), port.unwrap_or(80))
        }
        _ => false,
    }
}

/// Refuses a state-changing request sent by a page of another origin, before
/// reading its body.
async fn check_origin(request: Request, next: Next) -> Response {
    if request.method() == Method::GET || request.method() == Method::HEAD {
        return next.run(request).await;
    }
    let mut origins = request.headers().get_all(header::ORIGIN).iter();
    let refused = match (origins.next(), origins.next()) {
        (None, _) => None,
        (Some(_), Some(_)) => Some("more than one Origin header".to_owned()),
        (Some(origin), None) => {
            let host = request
                .headers()
                .get(header::HOST)
                .and_then(|host| host.to_str().ok())
                .unwrap_or("");
            match origin.to_str() {
                Ok(text) if same_origin(text, host) => None,
                _ => Some(format!(
                    "a request from the page at {}",
                    quote(origin.as_bytes())
                )),
            }
        }
    };
    match refused {
        None => next.run(request).await,
        Some(detail) => {
            let mut response = PageError::new(
                StatusCode::FORBIDDEN,
                "origin_not_allowed",
                format!(
                    "{detail} is refused: only the explorer's own page may send a {} here \
                     (a request from another site is never processed)",
                    request.method()
                ),
            )
            .into_response();
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

/// Reads the whole body, bounded in size and time, before anything parses it.
async fn read_body(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    let limit = BODY_LIMIT;
    let over = || {
        PageError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the request body is over the {limit}-byte limit; it was not read"),
        )
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if let Some(bytes) = declared
        && bytes > limit as u64
    {
        return close(over().into_response());
    }
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(
        guard.timeouts.body_read,
        Limited::new(body, limit).collect(),
    );
    let bytes = match read.await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(error)) if error.downcast_ref::<LengthLimitError>().is_some() => {
            return close(over().into_response());
        }
        Ok(Err(error)) => {
            return close(
                PageError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_request",
                    format!("the request body could not be read: {error}"),
                )
                .into_response(),
            );
        }
        Err(_) => {
            return close(
                PageError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "request_timeout",
                    format!(
                        "the request body did not arrive within {} s; the connection is closed",
                        guard.timeouts.body_read.as_secs_f64()
                    ),
                )
                .into_response(),
            );
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// Asks the server to close the connection after this answer (the rest of the
/// body, if any, is not read).
fn close(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authorities() {
        assert_eq!(
            split_authority("127.0.0.1:80"),
            Some(("127.0.0.1", Some(80)))
        );
        assert_eq!(split_authority("[::1]:8"), Some(("[::1]", Some(8))));
        assert_eq!(split_authority("[::1]"), Some(("[::1]", None)));
        assert_eq!(split_authority("localhost"), Some(("localhost", None)));
        for bad in [
            "", ":80", "a:", "a:b", "a:99999", "[::1", "[::1]x", "a:1:2", "a:+1",
        ] {
            assert_eq!(split_authority(bad), None, "{bad}");
        }
    }

    #[test]
    fn hosts() {
        let loopback: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        for good in [
            "127.0.0.1:4000",
            "localhost:4000",
            "LOCALHOST:9",
            "localhost",
            "[::1]:4000",
            "127.0.0.1",
        ] {
            assert!(host_allowed(good, loopback), "{good}");
        }
        for bad in [
            "evil.example",
            "evil.example:4000",
            "localhost.:4000",
            "127.0.0.2:4000",
            "0.0.0.0:4000",
            "",
            "localhost:x",
        ] {
            assert!(!host_allowed(bad, loopback), "{bad}");
        }
        let lan: SocketAddr = "192.168.1.5:4000".parse().unwrap();
        assert!(host_allowed("192.168.1.5:4000", lan));
        assert!(!host_allowed("192.168.1.5:4001", lan));
        assert!(!host_allowed("192.168.1.5", lan));
        assert!(!host_allowed("192.168.1.6:4000", lan));
        assert!(host_allowed("localhost:4000", lan));
        let any: SocketAddr = "0.0.0.0:80".parse().unwrap();
        assert!(host_allowed("10.0.0.7", any));
        assert!(host_allowed("[fe80::1]:80", any));
        assert!(!host_allowed("10.0.0.7:81", any));
        assert!(!host_allowed("box.lan", any));
    }

    #[test]
    fn origins() {
        assert!(same_origin("http://127.0.0.1:4000", "127.0.0.1:4000"));
        assert!(same_origin("http://LOCALHOST", "localhost:80"));
        assert!(same_origin("http://[::1]:4000", "[::1]:4000"));
        for origin in [
            "http://127.0.0.1:4001",
            "http://localhost:4000",
            "https://127.0.0.1:4000",
            "null",
            "http://127.0.0.1:4000/",
            "",
        ] {
            assert!(!same_origin(origin, "127.0.0.1:4000"), "{origin}");
        }
    }
}
