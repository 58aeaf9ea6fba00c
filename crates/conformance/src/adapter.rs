//! The adapter protocol: any implementation, in any language, driven as a subprocess
//! speaking JSON lines over stdin/stdout (see `spec/ADAPTER.md`).
//!
//! One request per line: `{"id": 7, "protocol": "doc-membership-v1", "op": "positions",
//! "params": {"m": 16, "k": 3, "seed_hex": "6c6162"}, "item": "646f632d3034"}`. One response per line,
//! in order: `{"id": 7, "result": {"positions": [10, 4, 1]}}` or
//! `{"id": 7, "error": {"kind": "value", "field": "m", "message": "..."}}`.
//!
//! The same request types serve both sides: [`AdapterProcess`] and the subjects built
//! on it send them, [`serve`] (behind `bloomproof adapter`) answers them with the
//! production crates.

use crate::model::{Hex, MutationAttempt, ScriptOp};
use crate::subject::{
    Answer, Built, DocSubject, EstimatesAnswer, FnvHashes, FnvSubject, Framed, Mutation,
    Observation, RawParams, RustDoc, RustFnv, ScriptAnswer, StepAnswer, SubjectError, Triple,
};
use bloomproof_format::DocParams;
use bloomproof_format::adapter::{
    DigestResult, ErrorBody, MutateResult, MutationOutcome, PositionsResult, Response,
    TriplesResult, TypedResult,
};
pub use bloomproof_format::adapter::{DocOp, FnvOp, OtherSnapshot, TypedCall};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// A parsed request.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// For `doc-membership-v1`.
    Doc(DocOp),
    /// For `fnv1a-utf16-v1`.
    Fnv(FnvOp),
}

/// Why a request line could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestError {
    /// The request's id, when it had a readable one.
    pub id: Value,
    /// What is wrong.
    pub message: String,
}

/// The longest response line the runner reads from an adapter, and the longest
/// `bloomproof adapter` writes: 1 MiB. A longer response marks the adapter dead; the
/// spec's own answers stay far below it (the largest is about 140 KB).
pub const RESPONSE_MAX: usize = 1 << 20;

/// The most of an adapter's standard error the runner keeps: its last 1 MiB.
pub const STDERR_KEPT: usize = 1 << 20;

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
/// prefix of a bad value ([`crate::quote`]).
pub fn parse_request(line: &str) -> Result<(Value, Request), RequestError> {
    let null = |message: String| RequestError {
        id: Value::Null,
        message,
    };
    match crate::scan::check(line, REQUEST_VALUES_MAX) {
        Ok(()) => {}
        Err(crate::scan::ScanError::Syntax(why)) => return Err(null(format!("not JSON: {why}"))),
        Err(crate::scan::ScanError::Refused(why)) => return Err(null(why)),
        Err(crate::scan::ScanError::RefusedWithId(why, id)) => {
            return Err(RequestError { id, message: why });
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
        return Err(RequestError {
            id,
            message: "`id` must be a non-negative integer or a string".into(),
        });
    }
    let fail = |message: String| RequestError {
        id: id.clone(),
        message,
    };
    let protocol = match object.remove("protocol") {
        Some(Value::String(protocol)) => protocol,
        _ => return Err(fail("`protocol` must be a string".into())),
    };
    let op = Value::Object(object);
    let request = match protocol.as_str() {
        crate::doc_checks::PROTOCOL => serde_json::from_value(op).map(Request::Doc),
        crate::fnv_checks::PROTOCOL => serde_json::from_value(op).map(Request::Fnv),
        other => {
            return Err(fail(format!(
                "unknown protocol {}",
                crate::quote::prefix(other)
            )));
        }
    };
    let request = request
        .map_err(|err| fail(crate::quote::shorten_quotes(&format!("bad request: {err}"))))?;
    if let Request::Fnv(FnvOp::Session { script }) = &request {
        script_fits(script.len()).map_err(fail)?;
    }
    Ok((id, request))
}

fn too_large(message: String) -> SubjectError {
    SubjectError::Rejected {
        kind: "bad_request".into(),
        field: None,
        message,
    }
}

fn script_fits(steps: usize) -> Result<(), String> {
    if steps > SCRIPT_MAX {
        return Err(format!(
            "`script` has {steps} steps: a script has at most {SCRIPT_MAX} (split it)"
        ));
    }
    Ok(())
}

/// The longest a triple is written: `{"duplicate":false,"exact_checked":false,"maybe_present":false}`, and a comma.
const TRIPLE_TEXT_MAX: usize = 64;

/// Refuses, before any work, a request whose answer lists one triple per item and
/// would be longer than [`RESPONSE_MAX`].
fn triples_fit(field: &str, items: usize) -> Answer<()> {
    let most = (RESPONSE_MAX - 1024) / TRIPLE_TEXT_MAX;
    if items > most {
        return Err(too_large(format!(
            "`{field}` has {items} items: the answer would be longer than {RESPONSE_MAX} bytes (at most {most} items)"
        )));
    }
    Ok(())
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

fn json_len(value: &impl Serialize) -> usize {
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

fn hexes(list: &[Hex]) -> Vec<Vec<u8>> {
    list.iter().map(|h| h.0.clone()).collect()
}

/// `result` as its JSON value (a result type always has one).
fn json(result: impl Serialize) -> Answer<Value> {
    serde_json::to_value(result)
        .map_err(|err| SubjectError::Broken(format!("cannot encode the result: {err}")))
}

fn raw(params: &DocParams) -> RawParams {
    RawParams {
        m: params.m,
        k: params.k,
        seed: params.seed_hex.0.clone(),
    }
}

/// Runs a script step by step, writing each step's answer down as it comes and
/// stopping as soon as the whole answer would be longer than [`RESPONSE_MAX`]: what
/// the answer holds stays bounded whatever the script.
fn session_answer(script: &[ScriptOp]) -> Answer<Value> {
    script_fits(script.len()).map_err(too_large)?;
    let total = script.len();
    let mut used = 64usize;
    let mut steps = Vec::new();
    let mut spend = |value: &Value, at: String| {
        used = used.saturating_add(json_len(value)).saturating_add(1);
        if used > RESPONSE_MAX {
            return Err(too_large(format!(
                "the answer to this script would be longer than {RESPONSE_MAX} bytes ({at} of {total}): split the script"
            )));
        }
        Ok(())
    };
    let initial = RustFnv::run_script(script, |step: StepAnswer| {
        spend(&json(&step)?, format!("at step {}", steps.len() + 1))?;
        steps.push(step);
        Ok(())
    })?;
    spend(&initial, "with the initial view".into())?;
    json(ScriptAnswer { initial, steps })
}

/// Answers one request with the production crates. An answer that would be longer
/// than [`RESPONSE_MAX`] is refused as `bad_request` before it is built (a script past
/// [`SCRIPT_MAX`] steps, too many items to look up) or as soon as it grows past it (a
/// session's views).
pub fn answer(request: &Request) -> Answer<Value> {
    let (mut doc, mut fnv) = (RustDoc, RustFnv);
    match request {
        Request::Doc(op) => match op {
            DocOp::Sha256 { data } => json(DigestResult {
                digest: Hex(doc.sha256(&data.0)?),
            }),
            DocOp::Frame {
                params,
                index,
                item,
            } => json(doc.frame(&raw(params), *index, &item.0)?),
            DocOp::Positions { params, item } => json(PositionsResult {
                positions: doc.positions(&raw(params), &item.0)?,
            }),
            DocOp::Build { params, records } => json(doc.build(&raw(params), &hexes(records))?),
            DocOp::Lookup {
                params,
                records,
                item,
            } => {
                let answers =
                    doc.lookup(&raw(params), &hexes(records), std::slice::from_ref(&item.0))?;
                match answers.first() {
                    Some(triple) => json(triple),
                    None => Ok(Value::Null),
                }
            }
            DocOp::LookupMany {
                params,
                records,
                items,
            } => {
                triples_fit("items", items.len())?;
                json(TriplesResult {
                    results: doc.lookup(&raw(params), &hexes(records), &hexes(items))?,
                })
            }
            DocOp::Typed(call) => json(TypedResult {
                lookup: doc.typed(call)?,
            }),
            DocOp::Read {
                params,
                packed_hex,
                records,
                items,
            } => {
                triples_fit("items", items.len())?;
                json(TriplesResult {
                    results: doc.read(
                        &raw(params),
                        &hexes(records),
                        &packed_hex.0,
                        &hexes(items),
                    )?,
                })
            }
            DocOp::Mutate {
                params,
                records,
                other,
                attempt,
                probes,
            } => {
                triples_fit("probes", probes.len())?;
                let other_records = hexes(&other.records);
                let mutation = doc.mutate(
                    &raw(params),
                    &hexes(records),
                    (&raw(&other.params), &other_records),
                    *attempt,
                    &hexes(probes),
                )?;
                let outcome = [
                    MutationOutcome::Raised,
                    MutationOutcome::Done,
                    MutationOutcome::Impossible,
                ]
                .into_iter()
                .find(|o| o.as_str() == mutation.outcome)
                .ok_or_else(|| {
                    SubjectError::Broken(format!("unknown outcome {:?}", mutation.outcome))
                })?;
                let seen = mutation.observed;
                json(MutateResult {
                    outcome,
                    detail: mutation.detail,
                    params: DocParams {
                        m: seen.m,
                        k: seen.k,
                        seed_hex: Hex(seen.seed),
                    },
                    packed_hex: Hex(seen.packed_bits),
                    documents: seen.documents,
                    lookups: seen.lookups,
                })
            }
        },
        Request::Fnv(op) => match op {
            FnvOp::Positions { m, k, units } => json(fnv.positions(*m, *k, units)?),
            FnvOp::Session { script } => session_answer(script),
            FnvOp::Estimates { m, k, n } => json(fnv.estimates(*m, *k, *n)?),
        },
    }
}

/// A response with an error of `kind`, its message shortened.
fn error_response(id: Value, kind: &str, field: Option<&str>, message: &str) -> Response {
    Response {
        error: Some(ErrorBody {
            field: field.map(str::to_string),
            kind: kind.to_string(),
            message: crate::quote::shorten_quotes(message),
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
        Err(err) => error_response(err.id, "bad_request", None, &err.message),
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
        let response = match crate::lines::read_line_capped(&mut input, REQUEST_MAX, &mut buf)? {
            crate::lines::LineRead::Eof => return Ok(()),
            crate::lines::LineRead::TooLong => {
                crate::lines::skip_line(&mut input)?;
                let message = format!(
                    "a request line is at most {REQUEST_MAX} bytes (16 MiB); this one is longer"
                );
                error_line(&message)
            }
            crate::lines::LineRead::Line => match std::str::from_utf8(&buf) {
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

// ---------------------------------------------------------------------------------
// The client side.

use crate::client::shorten;
pub use crate::client::{AdapterProcess, IN_FLIGHT};

/// An adapter process shared by the subjects of one run.
pub type Shared = Arc<Mutex<AdapterProcess>>;

fn call<T: for<'de> Deserialize<'de>>(
    process: &Shared,
    protocol: &str,
    op: &impl Serialize,
) -> Answer<T> {
    let mut guard = process
        .lock()
        .map_err(|_| SubjectError::Broken("adapter lock poisoned".into()))?;
    let answer = guard.request(protocol, op);
    result(answer, op)
}

/// The typed result of an answer to `op`.
fn result<T: for<'de> Deserialize<'de>>(answer: Answer<Value>, op: &impl Serialize) -> Answer<T> {
    let value = answer?;
    serde_json::from_value(value.clone()).map_err(|err| {
        SubjectError::Broken(format!(
            "unexpected result shape for `{}`: {err}; the result was: {}",
            serde_json::to_value(op)
                .ok()
                .and_then(|v| v.get("op").cloned())
                .unwrap_or_default(),
            shorten(&value.to_string())
        ))
    })
}

/// The parameters as the wire spells them.
fn wire(p: &RawParams) -> DocParams {
    DocParams {
        m: p.m,
        k: p.k,
        seed_hex: Hex(p.seed.clone()),
    }
}

fn build_op(p: &RawParams, records: &[Vec<u8>]) -> DocOp {
    DocOp::Build {
        params: wire(p),
        records: hex_list(records),
    }
}

/// `lookup` for one item, `lookup_many` for any other number.
fn lookup_op(p: &RawParams, records: &[Vec<u8>], items: &[Vec<u8>]) -> DocOp {
    if let [item] = items {
        return DocOp::Lookup {
            params: wire(p),
            records: hex_list(records),
            item: Hex(item.clone()),
        };
    }
    DocOp::LookupMany {
        params: wire(p),
        records: hex_list(records),
        items: hex_list(items),
    }
}

fn built(answer: Answer<Value>, op: &DocOp) -> Answer<Built> {
    result(answer, op)
}

fn looked_up(answer: Answer<Value>, op: &DocOp) -> Answer<Vec<Triple>> {
    if matches!(op, DocOp::Lookup { .. }) {
        return Ok(vec![result(answer, op)?]);
    }
    let r: TriplesResult = result(answer, op)?;
    Ok(r.results)
}

/// A `doc-membership-v1` subject behind an adapter.
pub struct AdapterDoc(pub Shared);

/// A `fnv1a-utf16-v1` subject behind an adapter.
pub struct AdapterFnv(pub Shared);

fn hex_list(list: &[Vec<u8>]) -> Vec<Hex> {
    list.iter().map(|b| Hex(b.clone())).collect()
}

impl DocSubject for AdapterDoc {
    fn name(&self) -> String {
        self.0
            .lock()
            .map(|p| format!("adapter `{}`", p.command()))
            .unwrap_or_default()
    }

    fn sha256(&mut self, data: &[u8]) -> Answer<Vec<u8>> {
        let r: DigestResult = call(
            &self.0,
            crate::doc_checks::PROTOCOL,
            &DocOp::Sha256 {
                data: Hex(data.to_vec()),
            },
        )?;
        Ok(r.digest.0)
    }

    fn frame(&mut self, p: &RawParams, index: u8, item: &[u8]) -> Answer<Framed> {
        let op = DocOp::Frame {
            params: wire(p),
            index,
            item: Hex(item.to_vec()),
        };
        call(&self.0, crate::doc_checks::PROTOCOL, &op)
    }

    fn positions(&mut self, p: &RawParams, item: &[u8]) -> Answer<Vec<u16>> {
        let op = DocOp::Positions {
            params: wire(p),
            item: Hex(item.to_vec()),
        };
        let r: PositionsResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(r.positions)
    }

    fn build(&mut self, p: &RawParams, records: &[Vec<u8>]) -> Answer<Built> {
        let op = build_op(p, records);
        built(call(&self.0, crate::doc_checks::PROTOCOL, &op), &op)
    }

    fn lookup(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let op = lookup_op(p, records, items);
        looked_up(call(&self.0, crate::doc_checks::PROTOCOL, &op), &op)
    }

    fn build_and_lookup_each(
        &mut self,
        p: &RawParams,
        snapshots: &[Vec<Vec<u8>>],
        items: &[Vec<u8>],
    ) -> Vec<(Answer<Built>, Answer<Vec<Triple>>)> {
        let ops: Vec<DocOp> = snapshots
            .iter()
            .flat_map(|records| [build_op(p, records), lookup_op(p, records, items)])
            .collect();
        let mut guard = match self.0.lock() {
            Ok(guard) => guard,
            Err(_) => {
                let poisoned = || SubjectError::Broken("adapter lock poisoned".into());
                return snapshots
                    .iter()
                    .map(|_| (Err(poisoned()), Err(poisoned())))
                    .collect();
            }
        };
        let mut builds = Vec::with_capacity(snapshots.len());
        let mut lookups = Vec::with_capacity(snapshots.len());
        let mut index = 0;
        guard.requests(crate::doc_checks::PROTOCOL, &ops, |answer| {
            if let Some(op) = ops.get(index) {
                if index % 2 == 0 {
                    builds.push(built(answer, op));
                } else {
                    lookups.push(looked_up(answer, op));
                }
            }
            index += 1;
        });
        builds.into_iter().zip(lookups).collect()
    }

    fn typed(&mut self, args: &TypedCall) -> Answer<Option<Triple>> {
        let op = DocOp::Typed(args.clone());
        let r: TypedResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(r.lookup)
    }

    fn read(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        packed_bits: &[u8],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let op = DocOp::Read {
            params: wire(p),
            packed_hex: Hex(packed_bits.to_vec()),
            records: hex_list(records),
            items: hex_list(items),
        };
        let r: TriplesResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(r.results)
    }

    fn mutate(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        other: (&RawParams, &[Vec<u8>]),
        attempt: MutationAttempt,
        probes: &[Vec<u8>],
    ) -> Answer<Mutation> {
        let op = DocOp::Mutate {
            params: wire(p),
            records: hex_list(records),
            other: OtherSnapshot {
                params: wire(other.0),
                records: hex_list(other.1),
            },
            attempt,
            probes: hex_list(probes),
        };
        let r: MutateResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(Mutation {
            outcome: r.outcome.as_str().to_string(),
            detail: r.detail,
            observed: Observation {
                m: r.params.m,
                k: r.params.k,
                seed: r.params.seed_hex.0,
                packed_bits: r.packed_hex.0,
                documents: r.documents,
                lookups: r.lookups,
            },
        })
    }
}

impl FnvSubject for AdapterFnv {
    fn name(&self) -> String {
        self.0
            .lock()
            .map(|p| format!("adapter `{}`", p.command()))
            .unwrap_or_default()
    }

    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        let op = FnvOp::Positions {
            m,
            k,
            units: units.to_vec(),
        };
        call(&self.0, crate::fnv_checks::PROTOCOL, &op)
    }

    fn session(&mut self, script: &[ScriptOp]) -> Answer<ScriptAnswer> {
        let op = FnvOp::Session {
            script: script.to_vec(),
        };
        call(&self.0, crate::fnv_checks::PROTOCOL, &op)
    }

    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        call(
            &self.0,
            crate::fnv_checks::PROTOCOL,
            &FnvOp::Estimates { m, k, n },
        )
    }
}
