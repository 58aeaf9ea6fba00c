//! The serving side of the adapter protocol (`spec/ADAPTER.md`), behind `bloomproof
//! adapter`: it reads requests and answers them with the production crates, through the
//! in-process subjects of `crate::subject` (so the in-process run and
//! this adapter are the same code). The request and result types are
//! `bloomproof_wire::adapter`'s, which the runner's client uses too.
//!
//! Whatever a line holds, it gets one response line, in bounded memory: [`serve`] reads
//! at most [`REQUEST_MAX`] bytes a line, [`parse_request`] refuses more than
//! [`REQUEST_VALUES_MAX`] values and a duplicate key, [`answer`] refuses an answer that
//! would be longer than [`RESPONSE_MAX`].

use crate::client::RESPONSE_MAX;
use crate::subject::{Answer, SubjectError};
use crate::{lines, quote, scan};
use bloomproof_wire::adapter::{
    ADAPTER_PROTOCOL, ErrorBody, ImplementationInfo, Response, Start, Started,
};
use serde::Serialize;
use serde_json::{Map, Value};
use std::io::{BufRead, Write};

/// Every protocol `bloomproof adapter` serves, in the order of
/// `bloomproof_protocol::PROTOCOLS`: each protocol's `serve.rs`
/// (`protocols/<protocol>/serve.rs`), listed in `protocols/mod.rs`.
pub static REGISTRY: &[&dyn ServedProtocol] = crate::protocols::SERVED;

/// One protocol's part of the serving side.
pub trait ServedProtocol: Sync {
    /// The protocol's name on the wire.
    fn name(&self) -> &'static str;

    /// Reads the operation `op` (the request without `id` and `protocol`).
    fn parse(&self, op: Value) -> Result<Box<dyn ServedOp>, serde_json::Error>;

    /// An integer of `op` outside its bounds that the types reading the request cannot
    /// hold (a negative `m`): (the field, the message of the contract error naming it).
    fn out_of_bounds(&self, op: &Map<String, Value>) -> Option<(String, String)>;
}

/// One parsed operation of a served protocol.
pub trait ServedOp: std::fmt::Debug + Send + Sync {
    /// Why the request is refused as `bad_request` although it parsed (a script of
    /// more than [`SCRIPT_MAX`] steps), if it is.
    fn refused(&self) -> Option<String> {
        None
    }

    /// Answers the operation with the production crates.
    fn answer(&self) -> Answer<Value>;

    /// Whether answering stays cheap: a few milliseconds at most, whatever its
    /// arguments. The fuzz target of adapter requests answers only these (larger work
    /// is bounded by the adapter's own limits, which its tests reach instead).
    fn is_cheap(&self) -> bool;
}

/// A parsed request.
#[derive(Debug)]
pub enum Request {
    /// The handshake (`start`, which names no protocol).
    Start(Start),
    /// An operation of one protocol of [`REGISTRY`].
    Op(Box<dyn ServedOp>),
}

/// Why a request line could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestError {
    /// The request's id, when it had a readable one.
    pub id: Value,
    /// What is wrong.
    pub message: String,
    /// The argument, when the request is readable but a bound of the contract is
    /// broken (a negative `m`): answered as a `value` error naming it, not
    /// `bad_request`.
    pub field: Option<String>,
}

/// The longest request line `bloomproof adapter` reads: 16 MiB. A longer one is
/// answered `bad_request` (id null) without being held whole, and the next line is
/// served. The spec's largest request is about 2.1 MB.
pub const REQUEST_MAX: usize = 16 << 20;

/// The most JSON values (each number, string, array, object and key counts one) in one
/// request `bloomproof adapter` reads, so that reading a request takes bounded memory;
/// the spec's requests hold at most a few thousand.
pub const REQUEST_VALUES_MAX: usize = 1 << 18;

/// The most steps of one `session` script (`spec/ADAPTER.md`): a longer script is
/// answered `bad_request`. The spec's longest has 45.
pub const SCRIPT_MAX: usize = 1024;

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses one request line into its id and operation. Never panics.
///
/// Refused with id null: text that is not JSON, a duplicate key in any object (which
/// of the two was meant is unknown). Refused with the id when it came before the
/// limit was reached, else null: more than [`REQUEST_VALUES_MAX`] values. Refused
/// with the id: a missing or bad `protocol` or `op`, arguments not of the documented
/// types, a `script` of more than [`SCRIPT_MAX`] steps. Messages quote at most a short
/// prefix of a bad value ([`quote`]).
pub fn parse_request(line: &str) -> Result<(Value, Request), RequestError> {
    let null = |message: String| RequestError {
        id: Value::Null,
        message,
        field: None,
    };
    match scan::check(line, REQUEST_VALUES_MAX) {
        Ok(()) => {}
        Err(scan::ScanError::Syntax(why)) => return Err(null(format!("not JSON: {why}"))),
        Err(scan::ScanError::Refused(why)) => return Err(null(why)),
        Err(scan::ScanError::RefusedWithId(why, id)) => {
            return Err(RequestError {
                id,
                message: why,
                field: None,
            });
        }
    }
    let mut object: Map<String, Value> = match serde_json::from_str(line) {
        Ok(Value::Object(object)) => object,
        Ok(other) => {
            return Err(null(format!(
                "a request is a JSON object, got {}",
                json_kind(&other)
            )));
        }
        Err(err) => return Err(null(format!("not JSON: {err}"))),
    };
    let id = object.remove("id").unwrap_or(Value::Null);
    if !(id.is_u64() || id.is_string()) {
        // An id that is no id cannot be trusted to be the one meant: answered with null.
        return Err(RequestError {
            id: Value::Null,
            message: "`id` must be a non-negative integer or a string".into(),
            field: None,
        });
    }
    let fail = |message: String| RequestError {
        id: id.clone(),
        message,
        field: None,
    };
    if object.get("op").and_then(Value::as_str) == Some("start") {
        return serde_json::from_value(Value::Object(object))
            .map(|start| (id.clone(), Request::Start(start)))
            .map_err(|err| fail(quote::shorten_quotes(&format!("bad request: {err}"))));
    }
    let protocol = match object.remove("protocol") {
        Some(Value::String(protocol)) => protocol,
        _ => return Err(fail("`protocol` must be a string".into())),
    };
    let served = REGISTRY.iter().find(|entry| entry.name() == protocol);
    if let Some((field, message)) = served.and_then(|entry| entry.out_of_bounds(&object)) {
        return Err(RequestError {
            id,
            message,
            field: Some(field),
        });
    }
    let Some(served) = served else {
        return Err(fail(format!(
            "unknown protocol {}",
            quote::prefix(&protocol)
        )));
    };
    let op = served.parse(Value::Object(object)).map_err(|err| {
        let message = quote::name_huge_integers(&err.to_string(), line);
        fail(quote::shorten_quotes(&format!("bad request: {message}")))
    })?;
    if let Some(why) = op.refused() {
        return Err(fail(why));
    }
    Ok((id, Request::Op(op)))
}

/// The first of `m` and `k` in `holder` that is negative, with its bounds: a contract
/// error naming the field, as `m = 7` is (ADAPTER.md, Framing); the types that read the
/// request take only non-negative integers.
pub(crate) fn negative_m_k(
    holder: &Map<String, Value>,
    bounds: [(u32, u32); 2],
) -> Option<(String, String)> {
    ["m", "k"]
        .into_iter()
        .zip(bounds)
        .find_map(|(name, (low, high))| {
            let n = holder.get(name)?.as_i64().filter(|n| *n < 0)?;
            Some((
                name.to_string(),
                format!("{name} = {n} is out of bounds: must be an integer in {low}..={high}"),
            ))
        })
}

/// The handshake's answer of `bloomproof adapter`: the production crates, both
/// protocols.
pub fn started() -> Started {
    Started {
        adapter_protocol: ADAPTER_PROTOCOL,
        implementation: ImplementationInfo {
            name: "bloomproof".to_string(),
            language: "Rust".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
        },
        protocols: bloomproof_protocol::PROTOCOLS
            .iter()
            .map(|p| p.to_string())
            .collect(),
    }
}

pub(crate) fn too_large(message: String) -> SubjectError {
    SubjectError::Rejected {
        kind: "bad_request".into(),
        field: None,
        message,
    }
}

/// Counts the bytes a value is written in, writing nothing.
struct Counter(usize);

impl Write for Counter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(data.len());
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub(crate) fn json_len(value: &impl Serialize) -> usize {
    let mut counter = Counter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        Err(_) => usize::MAX,
    }
}

/// Keeps the bytes written up to a cap, and fails past it.
struct Capped {
    bytes: Vec<u8>,
    cap: usize,
}

impl Write for Capped {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len().saturating_add(data.len()) > self.cap {
            return Err(std::io::Error::other("over the cap"));
        }
        self.bytes.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `value` as one line of JSON text, or `None` when it would be longer than `cap`.
fn to_line(value: &impl Serialize, cap: usize) -> Option<String> {
    let mut capped = Capped {
        bytes: Vec::new(),
        cap,
    };
    serde_json::to_writer(&mut capped, value).ok()?;
    String::from_utf8(capped.bytes).ok()
}

/// `result` as its JSON value (a result type always has one).
pub(crate) fn json(result: impl Serialize) -> Answer<Value> {
    serde_json::to_value(result)
        .map_err(|err| SubjectError::Broken(format!("cannot encode the result: {err}")))
}

/// Answers one request with the production crates. An answer that would be longer
/// than [`RESPONSE_MAX`] is refused as `bad_request` before it is built (a script past
/// [`SCRIPT_MAX`] steps, too many items to look up) or as soon as it grows past it (a
/// session's views).
pub fn answer(request: &Request) -> Answer<Value> {
    match request {
        // Whatever version the runner speaks, the answer says which this one speaks:
        // the runner judges the difference.
        Request::Start(Start::Start { .. }) => json(started()),
        Request::Op(op) => op.answer(),
    }
}

/// A response with an error of `kind`, its message shortened.
fn error_response(id: Value, kind: &str, field: Option<&str>, message: &str) -> Response {
    Response {
        error: Some(ErrorBody {
            field: field.map(str::to_string),
            kind: kind.to_string(),
            message: quote::shorten_quotes(message),
        }),
        id,
        result: None,
    }
}

/// A response line that always fits: the error response to a line with no usable id.
fn error_line(message: &str) -> String {
    serde_json::to_string(&error_response(Value::Null, "bad_request", None, message))
        .unwrap_or_default()
}

/// The response line (without its newline) to one request line, answered with the
/// production crates: never longer than [`RESPONSE_MAX`] bytes. Never panics.
pub fn respond(line: &str) -> String {
    let response = match parse_request(line) {
        Err(err) => match err.field {
            Some(field) => error_response(err.id, "value", Some(&field), &err.message),
            None => error_response(err.id, "bad_request", None, &err.message),
        },
        Ok((id, request)) => match answer(&request) {
            Ok(result) => Response {
                error: None,
                id,
                result: Some(result),
            },
            Err(SubjectError::Rejected {
                kind,
                field,
                message,
            }) => error_response(id, &kind, field.as_deref(), &message),
            Err(SubjectError::Broken(message)) => error_response(id, "internal", None, &message),
        },
    };
    if let Some(text) = to_line(&response, RESPONSE_MAX) {
        return text;
    }
    // Too long: a huge id, or an answer that outgrew every estimate.
    let id_len = json_len(&response.id);
    let response = if id_len <= 1024 {
        let message = format!("the response would be longer than {RESPONSE_MAX} bytes");
        error_response(response.id, "bad_request", None, &message)
    } else {
        let message = format!(
            "the response would be longer than {RESPONSE_MAX} bytes: the id alone is {id_len}"
        );
        error_response(Value::Null, "bad_request", None, &message)
    };
    serde_json::to_string(&response).unwrap_or_default()
}

/// Serves the adapter protocol on `input` / `output` until end of input, answering
/// with the production crates. Every line gets one response line, in order: a line
/// that is not UTF-8, or longer than [`REQUEST_MAX`] (skipped without being held
/// whole), or not a readable request is answered `bad_request` and the next line is
/// served; a blank line is skipped. Only an input or output error ends it early;
/// nothing panics.
pub fn serve(mut input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut buf = Vec::new();
    loop {
        if buf.capacity() > RESPONSE_MAX {
            buf = Vec::new();
        }
        let response = match lines::read_line_capped(&mut input, REQUEST_MAX, &mut buf)? {
            lines::LineRead::Eof => return Ok(()),
            lines::LineRead::TooLong => {
                lines::skip_line(&mut input)?;
                let message = format!(
                    "a request line is at most {REQUEST_MAX} bytes (16 MiB); this one is longer"
                );
                error_line(&message)
            }
            lines::LineRead::Line => match std::str::from_utf8(&buf) {
                Err(err) => {
                    let message = format!(
                        "the request line is not UTF-8 (invalid byte at offset {})",
                        err.valid_up_to()
                    );
                    error_line(&message)
                }
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => respond(line),
            },
        };
        output.write_all(response.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
}
