//! `bloomproof explore` on loopback: who may call it (`Host`, `Origin`, the
//! `--host` rule) and how slowly (header and body read timeouts, bounded
//! bodies), through [`app`] in process and through a real server over TCP.
#![allow(clippy::unwrap_used, clippy::panic)] // helpers outside #[test] functions

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use bloomproof_explorer::{
    BODY_LIMIT, ErrorAnswer, Limits, Options, Timeouts, app, serve_listener, serve_listener_with,
};
use serde_json::Value;
use tower::ServiceExt;

const BOUND: &str = "127.0.0.1:4000";

/// A body: no path takes one, so a request with it is answered 405 when it gets through.
const EXAMPLE: &str = r#"{"op":"create"}"#;

/// One request through [`app`] bound to [`BOUND`], with these headers.
async fn call(
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Body::from(body.to_owned())).unwrap();
    let response = app(BOUND.parse().unwrap(), Timeouts::default())
        .oneshot(request)
        .await
        .unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

/// The kind of an error answer, read strictly as the one error shape
/// (`bloomproof_wire::explorer::ErrorAnswer`: no other key, no field named); empty for
/// any other answer.
fn kind(answer: &(StatusCode, Value)) -> String {
    match serde_json::from_value::<ErrorAnswer>(answer.1.clone()) {
        Ok(body) => {
            assert_eq!(body.error.field, None, "{:?}", answer.1);
            body.error.kind
        }
        Err(_) => String::new(),
    }
}

#[tokio::test]
async fn host_must_be_a_loopback_name_or_the_bound_address() {
    for host in [
        "127.0.0.1:4000",
        "localhost:4000",
        "[::1]:4000",
        "localhost",
        "127.0.0.1",
        // Loopback names with another port: a tunnel or a forwarded port.
        "localhost:9999",
    ] {
        for path in [
            "/",
            "/index.html",
            "/assets/app.js",
            "/assets/js/session.mjs",
        ] {
            let answer = call("GET", path, &[("host", host)], "").await;
            assert_eq!(answer.0, StatusCode::OK, "{host} {path}: {}", answer.1);
        }
        let answer = call("HEAD", "/assets/style.css", &[("host", host)], "").await;
        assert_eq!(answer.0, StatusCode::OK, "{host}: {}", answer.1);
    }
    for host in [
        "evil.example",
        "evil.example:4000",
        "EVIL.example:4000",
        "localhost.evil.example:4000",
        "127.0.0.1.nip.io:4000",
        "10.0.0.1:4000",
        "0.0.0.0:4000",
        "127.0.0.1:4000:4000",
        "",
    ] {
        for (method, uri) in [
            ("GET", "/"),
            ("GET", "/assets/js/session.mjs"),
            ("POST", "/"),
        ] {
            let answer = call(method, uri, &[("host", host)], EXAMPLE).await;
            assert_eq!(
                answer.0,
                StatusCode::MISDIRECTED_REQUEST,
                "{host} {uri}: {}",
                answer.1
            );
            assert_eq!(kind(&answer), "host_not_allowed");
            let message = answer.1["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("DNS rebinding") && message.contains(BOUND),
                "{message}"
            );
        }
    }
    // No Host at all, or two.
    let answer = call("GET", "/", &[], "").await;
    assert_eq!(answer.0, StatusCode::MISDIRECTED_REQUEST, "{}", answer.1);
    let answer = call("GET", "/", &[("host", BOUND), ("host", "evil.example")], "").await;
    assert_eq!(answer.0, StatusCode::MISDIRECTED_REQUEST, "{}", answer.1);
    // An absolute URI naming another server, whatever the Host.
    let answer = call("GET", "http://evil.example/", &[("host", BOUND)], "").await;
    assert_eq!(answer.0, StatusCode::MISDIRECTED_REQUEST, "{}", answer.1);
    // A long Host is quoted in part only.
    let long = format!("{}.example", "x".repeat(10_000));
    let answer = call("GET", "/", &[("host", &long)], "").await;
    let message = answer.1["error"]["message"].as_str().unwrap();
    assert!(message.len() < 500, "{} bytes", message.len());
}

#[tokio::test]
async fn the_bound_address_is_answered_with_its_port() {
    let lan: SocketAddr = "192.168.1.5:4000".parse().unwrap();
    let ask = |host: &'static str| {
        let request = Request::builder()
            .uri("/")
            .header(header::HOST, host)
            .body(Body::empty())
            .unwrap();
        app(lan, Timeouts::default()).oneshot(request)
    };
    assert_eq!(
        ask("192.168.1.5:4000").await.unwrap().status(),
        StatusCode::OK
    );
    assert_eq!(
        ask("localhost:4000").await.unwrap().status(),
        StatusCode::OK
    );
    for host in [
        "192.168.1.5:4001",
        "192.168.1.5",
        "192.168.1.6:4000",
        "box.lan:4000",
    ] {
        assert_eq!(
            ask(host).await.unwrap().status(),
            StatusCode::MISDIRECTED_REQUEST,
            "{host}"
        );
    }
}

#[tokio::test]
async fn a_cross_origin_write_is_refused_before_anything_else() {
    // The classic cross-site request a page elsewhere can send without a preflight.
    for origin in [
        "http://evil.example",
        "http://127.0.0.1:4001",
        "http://localhost:4000",
        "https://127.0.0.1:4000",
        "null",
    ] {
        for uri in ["/", "/assets/app.js", "/nothing"] {
            let answer = call(
                "POST",
                uri,
                &[
                    ("host", BOUND),
                    ("origin", origin),
                    ("content-type", "text/plain;charset=UTF-8"),
                ],
                EXAMPLE,
            )
            .await;
            assert_eq!(
                answer.0,
                StatusCode::FORBIDDEN,
                "{origin} {uri}: {}",
                answer.1
            );
            assert_eq!(kind(&answer), "origin_not_allowed");
        }
    }
    // Same origin, or no Origin (a tool): through the guard, to the router,
    // which takes no write at all.
    for headers in [
        vec![("host", BOUND), ("origin", "http://127.0.0.1:4000")],
        vec![
            ("host", "localhost:4000"),
            ("origin", "http://localhost:4000"),
        ],
        vec![("host", BOUND)],
    ] {
        let answer = call("POST", "/", &headers, EXAMPLE).await;
        assert_eq!(
            answer.0,
            StatusCode::METHOD_NOT_ALLOWED,
            "{headers:?}: {}",
            answer.1
        );
        assert_eq!(kind(&answer), "method_not_allowed");
        let answer = call("GET", "/api/apply", &headers, "").await;
        assert_eq!(answer.0, StatusCode::NOT_FOUND, "{headers:?}: {}", answer.1);
    }
    // Reading is not writing: a GET with a foreign Origin is answered (the
    // browser keeps the answer from the other page).
    let answer = call(
        "GET",
        "/",
        &[("host", BOUND), ("origin", "http://evil.example")],
        "",
    )
    .await;
    assert_eq!(answer.0, StatusCode::OK);
    // Every other method is checked: a preflight, a DELETE.
    for method in ["OPTIONS", "DELETE", "PUT"] {
        let answer = call(
            method,
            "/",
            &[("host", BOUND), ("origin", "http://evil.example")],
            "",
        )
        .await;
        assert_eq!(answer.0, StatusCode::FORBIDDEN, "{method}");
    }
}

#[tokio::test]
async fn bodies_are_bounded_before_they_are_read() {
    let huge = " ".repeat(BODY_LIMIT + 1);
    for (method, uri) in [("POST", "/"), ("GET", "/"), ("POST", "/nothing")] {
        let answer = call(method, uri, &[("host", BOUND)], &huge).await;
        assert_eq!(
            answer.0,
            StatusCode::PAYLOAD_TOO_LARGE,
            "{method} {uri}: {}",
            answer.1
        );
        assert_eq!(kind(&answer), "too_large");
        assert!(
            answer.1["error"]["message"]
                .as_str()
                .unwrap()
                .contains(&BODY_LIMIT.to_string())
        );
    }
}

#[test]
fn a_remote_host_needs_allow_remote() {
    let local = Options::default();
    assert!(local.check().is_ok());
    for host in ["::1", "127.0.0.2", "::ffff:127.0.0.1"] {
        let options = Options {
            host: host.parse().unwrap(),
            ..Options::default()
        };
        assert!(options.check().is_ok(), "{host}");
    }
    for host in ["0.0.0.0", "::", "192.168.1.5", "203.0.113.9"] {
        let options = Options {
            host: host.parse().unwrap(),
            ..Options::default()
        };
        let message = options.check().unwrap_err();
        assert!(
            message.contains("not a loopback address") && message.contains("--allow-remote"),
            "{message}"
        );
        let allowed = Options {
            allow_remote: true,
            ..options
        };
        assert!(allowed.check().is_ok());
    }
    // `serve` refuses it too, before binding anything.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let refused = runtime.block_on(bloomproof_explorer::serve(Options {
        host: "0.0.0.0".parse().unwrap(),
        ..Options::default()
    }));
    assert!(refused.unwrap_err().contains("--allow-remote"));
}

// ------------------------------------------------------------ a real server

/// The short timeouts of the servers below.
const SHORT: Duration = Duration::from_millis(1000);
/// How long past a timeout the connection may take to close.
const SLACK: Duration = Duration::from_millis(2500);

async fn start(timeouts: Timeouts) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_listener(listener, timeouts));
    addr
}

/// What a connection saw: the bytes the server sent and when it closed (from `started`).
struct Seen {
    reply: String,
    closed_after: Option<Duration>,
}

/// Writes `first`, then `drip` every 200 ms until an answer starts, reading
/// all along, until the server closes the connection or `give_up` has passed.
fn drip(addr: SocketAddr, first: &str, drip: &str, give_up: Duration) -> Seen {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    // The server may answer and close before reading all of it (a body over
    // its limit): what it said is still read below.
    let _ = stream.write_all(first.as_bytes());
    read_until_closed(&mut stream, give_up, |stream, reply| {
        drip.is_empty() || !reply.is_empty() || stream.write_all(drip.as_bytes()).is_ok()
    })
}

/// Reads until the server closes the connection (or an error) or `give_up`
/// passes; after each read that times out, `idle` runs and may end it (false).
fn read_until_closed(
    stream: &mut TcpStream,
    give_up: Duration,
    mut idle: impl FnMut(&mut TcpStream, &[u8]) -> bool,
) -> Seen {
    let started = Instant::now();
    let mut reply = Vec::new();
    let mut buffer = [0_u8; 4096];
    let mut closed_after = None;
    while started.elapsed() < give_up {
        match stream.read(&mut buffer) {
            Ok(0) => {
                closed_after = Some(started.elapsed());
                break;
            }
            Ok(read) => reply.extend_from_slice(&buffer[..read]),
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if !idle(stream, &reply) {
                    closed_after = Some(started.elapsed());
                    break;
                }
            }
            Err(_) => {
                closed_after = Some(started.elapsed());
                break;
            }
        }
    }
    Seen {
        reply: String::from_utf8_lossy(&reply).into_owned(),
        closed_after,
    }
}

fn assert_closed_in_time(seen: &Seen, what: &str) {
    let closed = seen.closed_after.unwrap_or_else(|| {
        panic!(
            "{what}: still open after {:?}: {}",
            SHORT + SLACK * 2,
            seen.reply
        )
    });
    assert!(
        closed <= SHORT + SLACK,
        "{what}: closed only after {closed:?} (timeout {SHORT:?})"
    );
    assert!(
        closed >= SHORT.mul_f64(0.8),
        "{what}: closed after {closed:?}, before the timeout {SHORT:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_loris_headers_are_cut_at_the_header_timeout() {
    let addr = start(Timeouts {
        header_read: SHORT,
        body_read: Duration::from_secs(60),
    })
    .await;
    let first = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n");
    let seen =
        tokio::task::spawn_blocking(move || drip(addr, &first, "X-Slow: 1\r\n", SHORT + SLACK * 2))
            .await
            .unwrap();
    assert_closed_in_time(&seen, "headers sent one line every 200 ms");
    assert!(!seen.reply.contains("200 OK"), "{}", seen.reply);

    // A connection that sends nothing at all is closed as well.
    let seen = tokio::task::spawn_blocking(move || drip(addr, "", "", SHORT + SLACK * 2))
        .await
        .unwrap();
    assert_closed_in_time(&seen, "an idle connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_body_is_cut_at_the_body_timeout() {
    let addr = start(Timeouts {
        header_read: Duration::from_secs(60),
        body_read: SHORT,
    })
    .await;
    // A body that trickles in (one byte every 200 ms) never completes in time,
    // though each byte comes well within the timeout.
    let first = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"session\":"
    );
    let seen = tokio::task::spawn_blocking(move || drip(addr, &first, " ", SHORT + SLACK * 2))
        .await
        .unwrap();
    assert_closed_in_time(&seen, "a body sent one byte every 200 ms");
    assert!(seen.reply.starts_with("HTTP/1.1 408"), "{}", seen.reply);
    assert!(seen.reply.contains("request_timeout"), "{}", seen.reply);

    // A body that stops: the same.
    let first = format!("POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 100\r\n\r\n{{");
    let seen = tokio::task::spawn_blocking(move || drip(addr, &first, "", SHORT + SLACK * 2))
        .await
        .unwrap();
    assert_closed_in_time(&seen, "a body that stops");
    assert!(seen.reply.starts_with("HTTP/1.1 408"), "{}", seen.reply);
}

/// Sends one whole request and reads the answer until the server closes.
fn exchange(addr: SocketAddr, request: &str) -> Seen {
    drip(addr, request, "", Duration::from_secs(20))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_server_answers_its_own_page_and_refuses_others() {
    let addr = start(Timeouts {
        header_read: SHORT,
        body_read: SHORT,
    })
    .await;
    // The page's own requests, sent quickly, are served even with short timeouts.
    for (path, holds) in [
        ("/", "<title>Bloom filter explorer"),
        ("/assets/js/session.mjs", "export class Session"),
    ] {
        let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        let seen = tokio::task::spawn_blocking(move || exchange(addr, &request))
            .await
            .unwrap();
        assert!(seen.reply.starts_with("HTTP/1.1 200"), "{}", seen.reply);
        assert!(seen.reply.contains(holds), "{path}");
    }

    // DNS rebinding: the page of another name, now pointing here.
    let request = "GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n".to_owned();
    let seen = tokio::task::spawn_blocking(move || exchange(addr, &request))
        .await
        .unwrap();
    assert!(seen.reply.starts_with("HTTP/1.1 421"), "{}", seen.reply);
    assert!(seen.reply.contains("host_not_allowed"), "{}", seen.reply);

    // A cross-origin text/plain POST is refused before its body is read: the
    // answer comes at once although the declared body never arrives.
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n"
    );
    let started = Instant::now();
    let seen = tokio::task::spawn_blocking(move || exchange(addr, &request))
        .await
        .unwrap();
    assert!(seen.reply.starts_with("HTTP/1.1 403"), "{}", seen.reply);
    assert!(seen.reply.contains("origin_not_allowed"), "{}", seen.reply);
    assert!(started.elapsed() < SHORT, "{:?}", started.elapsed());

    // A declared length over the limit is refused without reading the body.
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n",
        BODY_LIMIT + 1
    );
    let seen = tokio::task::spawn_blocking(move || exchange(addr, &request))
        .await
        .unwrap();
    assert!(seen.reply.starts_with("HTTP/1.1 413"), "{}", seen.reply);

    // A chunked body (no declared length) that grows past the limit is cut
    // there: one byte over it is enough, and the rest is never waited for.
    let over = BODY_LIMIT + 1;
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nTransfer-Encoding: chunked\r\n\r\n{over:x}\r\n{}",
        " ".repeat(over)
    );
    let seen = tokio::task::spawn_blocking(move || exchange(addr, &request))
        .await
        .unwrap();
    assert!(seen.reply.starts_with("HTTP/1.1 413"), "{}", seen.reply);
    assert!(seen.reply.contains("too_large"), "{}", seen.reply);
}

// ------------------------------------------------------------ bounded connections and headers

async fn start_limited(limits: Limits) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let timeouts = Timeouts {
        header_read: Duration::from_secs(60),
        body_read: Duration::from_secs(60),
    };
    tokio::spawn(serve_listener_with(listener, timeouts, limits));
    addr
}

/// Reads until the server closes the connection or `give_up` passes.
fn read_to_close(stream: &mut TcpStream, give_up: Duration) -> Seen {
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    read_until_closed(stream, give_up, |_, _| true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_cap_are_refused_at_once_and_served_again_once_freed() {
    let addr = start_limited(Limits {
        connections: 4,
        header_bytes: 16 * 1024,
    })
    .await;
    tokio::task::spawn_blocking(move || {
        // Four unfinished requests hold every place (the header timeout is a minute).
        let mut held: Vec<TcpStream> = (0..4)
            .map(|_| {
                let mut stream = TcpStream::connect(addr).unwrap();
                stream
                    .write_all(format!("GET / HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
                    .unwrap();
                stream
            })
            .collect();
        // The server has taken all four once a fifth is turned away; until then a
        // fifth may still be queued, so it is asked again (a bounded number of times).
        let mut refused = None;
        for _ in 0..50 {
            let mut fifth = TcpStream::connect(addr).unwrap();
            let _ = fifth.write_all(
                format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
            );
            let seen = read_to_close(&mut fifth, Duration::from_secs(5));
            assert!(
                seen.closed_after.is_some(),
                "a fifth connection stays open: {}",
                seen.reply
            );
            if seen.reply.starts_with("HTTP/1.1 503") {
                refused = Some(seen);
                break;
            }
            // Served before the four were all accepted: fine, ask again.
            assert!(seen.reply.starts_with("HTTP/1.1 200"), "{}", seen.reply);
        }
        let refused = refused.expect("no connection past the cap of 4 was refused");
        assert!(
            refused.reply.contains("too_many_connections"),
            "{}",
            refused.reply
        );
        assert!(
            refused.closed_after.unwrap() < Duration::from_secs(2),
            "{:?}",
            refused.closed_after
        );
        // Once they go, the places are free again.
        for stream in &mut held {
            stream.shutdown(std::net::Shutdown::Both).unwrap();
        }
        held.clear();
        let mut served = None;
        for _ in 0..50 {
            let seen = exchange(
                addr,
                &format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
            );
            if seen.reply.starts_with("HTTP/1.1 200") {
                served = Some(seen);
                break;
            }
            assert!(seen.reply.starts_with("HTTP/1.1 503"), "{}", seen.reply);
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            served.is_some(),
            "the freed places are never given to a new connection"
        );
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_past_the_byte_cap_are_answered_431_and_closed() {
    let addr = start_limited(Limits::default()).await;
    let cap = Limits::default().header_bytes;
    tokio::task::spawn_blocking(move || {
        // Eight connections, each sending 400 KB of headers that never end: each is
        // cut once it passes the cap, long before the one-minute header timeout.
        let line = format!("X-Filler: {}\r\n", "a".repeat(990));
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let line = line.clone();
                std::thread::spawn(move || {
                    let mut stream = TcpStream::connect(addr).unwrap();
                    stream
                        .set_write_timeout(Some(Duration::from_secs(5)))
                        .unwrap();
                    let mut sent = stream
                        .write_all(format!("GET / HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
                        .map(|()| 0_usize);
                    while let Ok(bytes) = sent {
                        if bytes >= 400_000 {
                            break;
                        }
                        sent = stream
                            .write_all(line.as_bytes())
                            .map(|()| bytes + line.len());
                    }
                    read_to_close(&mut stream, Duration::from_secs(10))
                })
            })
            .collect();
        for handle in handles {
            let seen = handle.join().unwrap();
            let closed = seen
                .closed_after
                .expect("still open 10 s after 400 KB of headers");
            assert!(closed < Duration::from_secs(10), "{closed:?}");
            // The answer may be lost when the server closes with unread bytes
            // pending (a reset); when it arrives it is 431.
            assert!(
                seen.reply.is_empty() || seen.reply.starts_with("HTTP/1.1 431"),
                "{}",
                seen.reply
            );
        }
        // Headers just under the cap are served.
        let filler = "b".repeat(cap - 200);
        let seen = exchange(
            addr,
            &format!(
                "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Filler: {filler}\r\nConnection: close\r\n\r\n"
            ),
        );
        assert!(seen.reply.starts_with("HTTP/1.1 200"), "{}", seen.reply);
        // And one request whose headers pass it, sent whole, gets the 431 itself.
        let filler = "c".repeat(cap + 100);
        let seen = exchange(
            addr,
            &format!(
                "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Filler: {filler}\r\nConnection: close\r\n\r\n"
            ),
        );
        assert!(seen.closed_after.is_some());
        assert!(
            seen.reply.is_empty() || seen.reply.starts_with("HTTP/1.1 431"),
            "{}",
            seen.reply
        );
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_is_refused_as_not_a_proxy() {
    let addr = start(Timeouts::default()).await;
    let request = format!("CONNECT {addr} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let seen = tokio::task::spawn_blocking(move || exchange(addr, &request))
        .await
        .unwrap();
    assert!(seen.reply.starts_with("HTTP/1.1 405"), "{}", seen.reply);
    assert!(seen.reply.contains("method_not_allowed"), "{}", seen.reply);
    assert!(seen.reply.contains("not a proxy"), "{}", seen.reply);
    assert!(
        seen.reply.contains(&format!("a tunnel to {addr}")),
        "{}",
        seen.reply
    );
}

#[test]
fn the_remote_warning_names_only_a_real_remote_address() {
    for loopback in ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.2"] {
        assert_eq!(
            bloomproof_explorer::remote_warning(loopback.parse().unwrap()),
            None,
            "{loopback}"
        );
    }
    for remote in ["0.0.0.0", "::", "192.168.1.5", "::ffff:192.168.1.5"] {
        let warning = bloomproof_explorer::remote_warning(remote.parse().unwrap()).unwrap();
        assert!(warning.contains(remote), "{warning}");
        assert!(warning.contains("not a loopback address"), "{warning}");
    }
}
