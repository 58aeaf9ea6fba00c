//! A small HTTP/1.1 client over [`std::net::TcpStream`], for the load test of
//! `bloomproof explore` on loopback: keep-alive connections, `Content-Length` and
//! chunked bodies, a deadline on every request, and the headers a same-origin page
//! sends (`Host: 127.0.0.1:<port>`, `Origin` on POSTs, `Sec-Fetch-Site`).
//!
//! It refuses any address that is not loopback. It is no general client: no TLS, no
//! redirects, no proxies, no compression.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Largest response head (status line and headers) read, in bytes.
const MAX_HEAD: u64 = 64 * 1024;
/// Largest response body read, in bytes.
const MAX_BODY: usize = 32 * 1024 * 1024;

/// A request method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET`, no body.
    Get,
    /// `POST` with a JSON body.
    Post,
}

/// Who the request says it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// A person opening the page (a navigation: `Sec-Fetch-Site: none`, no `Origin`).
    Navigation,
    /// The page's own script (`Sec-Fetch-Site: same-origin`; `Origin` on a POST, as
    /// browsers send it).
    Page,
}

/// One request.
pub struct Request {
    /// Its method.
    pub method: Method,
    /// Its path, from `/`.
    pub path: String,
    /// Who it says it comes from.
    pub from: Caller,
    /// Its body (empty for a GET).
    pub body: Vec<u8>,
}

/// One answer.
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The whole body, chunked encoding removed.
    pub body: Vec<u8>,
}

/// One client: at most one open connection, reused while the server keeps it.
pub struct Client {
    addr: SocketAddr,
    host: String,
    origin: String,
    conn: Option<BufReader<TcpStream>>,
}

/// Why a request failed.
enum Failure {
    /// The connection ended before any byte of an answer (a reused connection that
    /// the server had closed can be retried on a fresh one).
    Closed(String),
    /// Anything else.
    Other(String),
}

impl Client {
    /// A client of the server at `addr`, which must be a loopback address.
    pub fn new(addr: SocketAddr) -> Result<Self, String> {
        if !addr.ip().is_loopback() {
            return Err(format!(
                "{addr} is not a loopback address: the load test stays on this machine"
            ));
        }
        let host = addr.to_string();
        Ok(Client {
            addr,
            origin: format!("http://{host}"),
            host,
            conn: None,
        })
    }

    /// Sends one request and reads the whole answer, before `deadline`.
    ///
    /// A reused connection that turns out closed before any byte of the answer is
    /// retried once on a new connection (the requests of the load test are stateless
    /// on the server).
    pub fn send(&mut self, request: &Request, deadline: Instant) -> Result<Response, String> {
        let reused = self.conn.is_some();
        match self.attempt(request, deadline) {
            Ok(response) => Ok(response),
            Err(Failure::Closed(_)) if reused => {
                self.conn = None;
                self.attempt(request, deadline)
                    .map_err(|failure| match failure {
                        Failure::Closed(why) | Failure::Other(why) => why,
                    })
            }
            Err(Failure::Closed(why) | Failure::Other(why)) => Err(why),
        }
    }

    fn attempt(&mut self, request: &Request, deadline: Instant) -> Result<Response, Failure> {
        let result = self.exchange(request, deadline);
        match &result {
            Ok((_, true)) => {}
            _ => self.conn = None,
        }
        result.map(|(response, _)| response)
    }

    /// The answer and whether the connection can be used again.
    fn exchange(
        &mut self,
        request: &Request,
        deadline: Instant,
    ) -> Result<(Response, bool), Failure> {
        let Request {
            method,
            path,
            from,
            body,
        } = request;
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Failure::Other(
                "time limit reached before the request".to_string(),
            ));
        }
        let timeout = Some(left.max(Duration::from_millis(1)));
        let conn = match &mut self.conn {
            Some(conn) => conn,
            None => {
                let stream = TcpStream::connect_timeout(&self.addr, left)
                    .map_err(|err| Failure::Other(format!("connect to {}: {err}", self.addr)))?;
                stream
                    .set_nodelay(true)
                    .map_err(|err| Failure::Other(format!("set_nodelay: {err}")))?;
                self.conn.insert(BufReader::new(stream))
            }
        };
        let stream = conn.get_mut();
        stream
            .set_read_timeout(timeout)
            .and_then(|()| stream.set_write_timeout(timeout))
            .map_err(|err| Failure::Other(format!("socket timeout: {err}")))?;

        let head = request_head(*method, path, *from, &self.host, &self.origin, body.len());
        let written = stream
            .write_all(head.as_bytes())
            .and_then(|()| stream.write_all(body))
            .and_then(|()| stream.flush());
        if let Err(err) = written {
            return Err(closed_or_other(err, "sending the request"));
        }

        let mut status_line = String::new();
        match conn.by_ref().take(MAX_HEAD).read_line(&mut status_line) {
            Ok(0) => {
                return Err(Failure::Closed(
                    "the server closed the connection without an answer".to_string(),
                ));
            }
            Ok(_) => {}
            Err(err) => return Err(closed_or_other(err, "reading the status line")),
        }
        let status = parse_status(&status_line).map_err(Failure::Other)?;
        let head = read_headers(conn).map_err(Failure::Other)?;
        let body = if head.chunked {
            read_chunked(conn).map_err(Failure::Other)?
        } else if let Some(length) = head.content_length {
            if length > MAX_BODY {
                return Err(Failure::Other(format!(
                    "a body of {length} bytes, over the client's {MAX_BODY}-byte cap"
                )));
            }
            let mut body = vec![0; length];
            conn.read_exact(&mut body)
                .map_err(|err| Failure::Other(format!("reading a {length}-byte body: {err}")))?;
            body
        } else {
            let mut body = Vec::new();
            conn.by_ref()
                .take(MAX_BODY as u64 + 1)
                .read_to_end(&mut body)
                .map_err(|err| Failure::Other(format!("reading the body: {err}")))?;
            if body.len() > MAX_BODY {
                return Err(Failure::Other(format!(
                    "a body over the client's {MAX_BODY}-byte cap"
                )));
            }
            return Ok((Response { status, body }, false));
        };
        Ok((Response { status, body }, !head.close))
    }
}

fn closed_or_other(err: std::io::Error, what: &str) -> Failure {
    use std::io::ErrorKind;
    let message = format!("{what}: {err}");
    match err.kind() {
        ErrorKind::BrokenPipe
        | ErrorKind::ConnectionReset
        | ErrorKind::ConnectionAborted
        | ErrorKind::UnexpectedEof => Failure::Closed(message),
        _ => Failure::Other(message),
    }
}

/// The request line and headers, ending with the blank line.
fn request_head(
    method: Method,
    path: &str,
    from: Caller,
    host: &str,
    origin: &str,
    body_len: usize,
) -> String {
    let mut head = match method {
        Method::Get => format!("GET {path} HTTP/1.1\r\n"),
        Method::Post => format!("POST {path} HTTP/1.1\r\n"),
    };
    head.push_str(&format!(
        "Host: {host}\r\nUser-Agent: bloomproof-xtask-load\r\nAccept: */*\r\n"
    ));
    match from {
        Caller::Navigation => head.push_str("Sec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate\r\n"),
        Caller::Page => head.push_str("Sec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\n"),
    }
    if method == Method::Post {
        head.push_str(&format!(
            "Origin: {origin}\r\nContent-Type: application/json\r\nContent-Length: {body_len}\r\n"
        ));
    }
    head.push_str("\r\n");
    head
}

/// `HTTP/1.1 200 OK` -> 200.
fn parse_status(line: &str) -> Result<u16, String> {
    let mut parts = line.split_whitespace();
    match (parts.next(), parts.next().map(str::parse::<u16>)) {
        (Some(version), Some(Ok(status))) if version.starts_with("HTTP/1.") => Ok(status),
        _ => Err(format!("not an HTTP/1.x status line: {:?}", shorten(line))),
    }
}

/// What the headers say about the body and the connection.
#[derive(Debug, Default, PartialEq, Eq)]
struct Head {
    content_length: Option<usize>,
    chunked: bool,
    close: bool,
}

fn read_headers(conn: &mut impl BufRead) -> Result<Head, String> {
    let mut head = Head::default();
    let mut budget = MAX_HEAD;
    loop {
        let mut line = String::new();
        let read = conn
            .by_ref()
            .take(budget)
            .read_line(&mut line)
            .map_err(|err| format!("reading the headers: {err}"))?;
        if read == 0 || !line.ends_with('\n') {
            return Err("the headers ended early or exceeded 64 KiB".to_string());
        }
        budget = budget.saturating_sub(read as u64);
        let line = line.trim_end();
        if line.is_empty() {
            return Ok(head);
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("a malformed header line: {:?}", shorten(line)));
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            head.content_length = Some(
                value
                    .parse()
                    .map_err(|_| format!("a bad Content-Length: {:?}", shorten(value)))?,
            );
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            head.chunked = value.to_ascii_lowercase().contains("chunked");
        } else if name.eq_ignore_ascii_case("connection") {
            head.close = value.eq_ignore_ascii_case("close");
        }
    }
}

fn read_chunked(conn: &mut impl BufRead) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let mut size_line = String::new();
        conn.by_ref()
            .take(1024)
            .read_line(&mut size_line)
            .map_err(|err| format!("reading a chunk size: {err}"))?;
        let digits = size_line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(digits, 16)
            .map_err(|_| format!("a bad chunk size: {:?}", shorten(&size_line)))?;
        if size == 0 {
            // Trailers, then the blank line.
            read_headers(conn)?;
            return Ok(body);
        }
        if body.len() + size > MAX_BODY {
            return Err(format!("a body over the client's {MAX_BODY}-byte cap"));
        }
        let start = body.len();
        body.resize(start + size, 0);
        conn.read_exact(&mut body[start..])
            .map_err(|err| format!("reading a chunk: {err}"))?;
        let mut crlf = [0; 2];
        conn.read_exact(&mut crlf)
            .map_err(|err| format!("reading a chunk's end: {err}"))?;
        if &crlf != b"\r\n" {
            return Err("a chunk not followed by CRLF".to_string());
        }
    }
}

/// At most 200 bytes of `text`, for error messages.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 200;
    if text.len() <= MAX {
        return text.to_string();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &text[..end], text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_status_headers_and_chunked_bodies() {
        assert_eq!(
            parse_status("HTTP/1.1 422 Unprocessable Entity\r\n"),
            Ok(422)
        );
        assert!(parse_status("SSH-2.0-OpenSSH\r\n").is_err());

        let mut input: &[u8] =
            b"Content-Type: text/plain\r\ncontent-length: 12\r\nConnection: close\r\n\r\nrest";
        let head = read_headers(&mut input);
        assert_eq!(
            head,
            Ok(Head {
                content_length: Some(12),
                chunked: false,
                close: true
            })
        );
        assert_eq!(input, b"rest");

        let mut input: &[u8] = b"5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\n\r\nnext";
        assert_eq!(read_chunked(&mut input), Ok(b"hello, world".to_vec()));
        assert_eq!(input, b"next");
    }

    #[test]
    fn sends_same_origin_headers_and_refuses_other_hosts() {
        let head = request_head(
            Method::Post,
            "/api/apply",
            Caller::Page,
            "127.0.0.1:8080",
            "http://127.0.0.1:8080",
            17,
        );
        assert!(head.starts_with("POST /api/apply HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"));
        assert!(head.contains("\r\nOrigin: http://127.0.0.1:8080\r\n"));
        assert!(head.contains("\r\nContent-Length: 17\r\n"));
        assert!(head.ends_with("\r\n\r\n"));
        let head = request_head(Method::Get, "/", Caller::Navigation, "h", "o", 0);
        assert!(!head.contains("Origin:"));

        assert!(Client::new(SocketAddr::from(([127, 0, 0, 1], 9))).is_ok());
        assert!(Client::new(SocketAddr::from(([192, 0, 2, 1], 80))).is_err());
    }
}
