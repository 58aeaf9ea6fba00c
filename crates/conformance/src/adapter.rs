//! The adapter protocol: any implementation, in any language, driven as a subprocess
//! speaking JSON lines over stdin/stdout (see `spec/ADAPTER.md`).
//!
//! One request per line: `{"id": 7, "protocol": "doc-membership-v1", "op": "positions",
//! "m": 16, "k": 3, "seed": "6c6162", "item": "646f632d3034"}`. One response per line,
//! in order: `{"id": 7, "result": {"positions": [10, 4, 1]}}` or
//! `{"id": 7, "error": {"kind": "value", "field": "m", "message": "..."}}`.
//!
//! The same request types serve both sides: [`AdapterProcess`] and the subjects built
//! on it send them, [`serve`] (behind `bloomproof adapter`) answers them with the
//! production crates.

use crate::model::{Hex, MutationAttempt, ScriptOp, TypedValue};
use crate::subject::{
    Answer, Built, DocSubject, EstimatesAnswer, FnvHashes, FnvSubject, Framed, Mutation,
    Observation, RawParams, RustDoc, RustFnv, SaveAnswer, ScriptAnswer, StepAnswer, SubjectError,
    Triple,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A `doc-membership-v1` operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum DocOp {
    /// SHA-256 of raw bytes -> `{"digest": hex}`.
    Sha256 {
        /// The bytes.
        data: Hex,
    },
    /// One framed message -> `{"message": hex, "digest": hex}`.
    Frame {
        /// m.
        m: u64,
        /// k.
        k: u64,
        /// Seed.
        seed: Hex,
        /// Hash index.
        index: u8,
        /// Item.
        item: Hex,
    },
    /// The k positions -> `{"positions": [..]}`.
    Positions {
        /// m.
        m: u64,
        /// k.
        k: u64,
        /// Seed.
        seed: Hex,
        /// Item.
        item: Hex,
    },
    /// Builds a snapshot -> `{"packed_bits": hex, "documents": n}`.
    Build {
        /// m.
        m: u64,
        /// k.
        k: u64,
        /// Seed.
        seed: Hex,
        /// Records, in order.
        records: Vec<Hex>,
    },
    /// Builds, looks one item up -> `{"maybe_present", "exact_checked", "duplicate"}`.
    Lookup {
        /// m.
        m: u64,
        /// k.
        k: u64,
        /// Seed.
        seed: Hex,
        /// Records.
        records: Vec<Hex>,
        /// The query.
        item: Hex,
    },
    /// Builds, looks many items up -> `{"results": [triple, ..]}` in input order.
    LookupMany {
        /// m.
        m: u64,
        /// k.
        k: u64,
        /// Seed.
        seed: Hex,
        /// Records.
        records: Vec<Hex>,
        /// The queries.
        items: Vec<Hex>,
    },
    /// Builds from typed values and, when `item` is given, looks it up ->
    /// `{"lookup": triple | null}`, or a `type` / `value` error naming the field.
    Typed {
        /// The records argument.
        records: TypedValue,
        /// The m argument.
        m: TypedValue,
        /// The k argument.
        k: TypedValue,
        /// The seed argument.
        seed: TypedValue,
        /// The item to look up, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<TypedValue>,
    },
    /// Reads a snapshot given as its parts, verifying it, and looks items up ->
    /// `{"results": [triple, ..]}`, or a `value` error naming `packed_bits` or
    /// `records[i]`.
    Read {
        /// m.
        m: u64,
        /// k.
        k: u64,
        /// Seed.
        seed: Hex,
        /// The packed bits given.
        packed_bits: Hex,
        /// The records given.
        records: Vec<Hex>,
        /// The queries.
        items: Vec<Hex>,
    },
    /// Builds a snapshot, makes one named mutation attempt, observes the snapshot ->
    /// `{"outcome", "detail", "m", "k", "seed", "packed_bits", "documents", "lookups"}`.
    Mutate {
        /// m.
        m: u64,
        /// k.
        k: u64,
        /// Seed.
        seed: Hex,
        /// Records.
        records: Vec<Hex>,
        /// The values the attempt tries to put in.
        other: OtherSnapshot,
        /// The attempt.
        attempt: MutationAttempt,
        /// Items looked up after the attempt.
        probes: Vec<Hex>,
    },
}

/// The second snapshot of a `mutate` request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OtherSnapshot {
    /// m.
    pub m: u64,
    /// k.
    pub k: u64,
    /// Seed.
    pub seed: Hex,
    /// Records.
    pub records: Vec<Hex>,
}

/// A `fnv1a-utf16-v1` operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum FnvOp {
    /// Hashes and positions -> `{"h1", "h2", "positions"}`.
    Positions {
        /// m.
        m: u64,
        /// k.
        k: u64,
        /// UTF-16 code units.
        units: Vec<u16>,
    },
    /// A session script -> `{"initial": view, "steps": [..]}` (`spec/fnv1a-utf16-v1/SESSION.md`).
    Session {
        /// The steps.
        script: Vec<ScriptOp>,
    },
    /// The estimates -> `{"classic", "finite_m", "exact", "optimal_k"}`.
    Estimates {
        /// m.
        m: u32,
        /// k.
        k: u32,
        /// n.
        n: u32,
    },
}

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

/// Parses one request line into its id and operation. Never panics.
pub fn parse_request(line: &str) -> Result<(Value, Request), RequestError> {
    let mut object: Map<String, Value> = match serde_json::from_str(line) {
        Ok(Value::Object(object)) => object,
        Ok(other) => {
            return Err(RequestError {
                id: Value::Null,
                message: format!("a request is a JSON object, got {other}"),
            });
        }
        Err(err) => {
            return Err(RequestError {
                id: Value::Null,
                message: format!("not JSON: {err}"),
            });
        }
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
        other => return Err(fail(format!("unknown protocol {other:?}"))),
    };
    request
        .map(|request| (id.clone(), request))
        .map_err(|err| fail(format!("bad request: {err}")))
}

fn hexes(list: &[Hex]) -> Vec<Vec<u8>> {
    list.iter().map(|h| h.0.clone()).collect()
}

fn triple_json(t: &Triple) -> Value {
    json!({"maybe_present": t.maybe_present, "exact_checked": t.exact_checked, "duplicate": t.duplicate})
}

fn raw(m: u64, k: u64, seed: &Hex) -> RawParams {
    RawParams {
        m,
        k,
        seed: seed.0.clone(),
    }
}

fn view_steps(answer: ScriptAnswer) -> Value {
    let steps: Vec<Value> = answer
        .steps
        .into_iter()
        .map(|step| {
            let mut out = Map::new();
            out.insert("view".into(), step.view);
            if let Some((kind, message)) = step.error {
                out.insert("error".into(), json!({"kind": kind, "message": message}));
            }
            if let Some(save) = step.save {
                out.insert(
                    "save".into(),
                    json!({"outcome": save.outcome, "stored_units": save.stored_units, "warning": save.warning}),
                );
            }
            Value::Object(out)
        })
        .collect();
    json!({"initial": answer.initial, "steps": steps})
}

/// Answers one request with the production crates.
pub fn answer(request: &Request) -> Answer<Value> {
    let (mut doc, mut fnv) = (RustDoc, RustFnv);
    Ok(match request {
        Request::Doc(op) => match op {
            DocOp::Sha256 { data } => json!({"digest": hex::encode(doc.sha256(&data.0)?)}),
            DocOp::Frame {
                m,
                k,
                seed,
                index,
                item,
            } => {
                let framed = doc.frame(&raw(*m, *k, seed), *index, &item.0)?;
                json!({"message": hex::encode(framed.message), "digest": hex::encode(framed.digest)})
            }
            DocOp::Positions { m, k, seed, item } => {
                json!({"positions": doc.positions(&raw(*m, *k, seed), &item.0)?})
            }
            DocOp::Build {
                m,
                k,
                seed,
                records,
            } => {
                let built = doc.build(&raw(*m, *k, seed), &hexes(records))?;
                json!({"packed_bits": hex::encode(built.packed_bits), "documents": built.documents})
            }
            DocOp::Lookup {
                m,
                k,
                seed,
                records,
                item,
            } => {
                let answers = doc.lookup(
                    &raw(*m, *k, seed),
                    &hexes(records),
                    std::slice::from_ref(&item.0),
                )?;
                answers.first().map(triple_json).unwrap_or(Value::Null)
            }
            DocOp::LookupMany {
                m,
                k,
                seed,
                records,
                items,
            } => {
                let answers = doc.lookup(&raw(*m, *k, seed), &hexes(records), &hexes(items))?;
                json!({"results": answers.iter().map(triple_json).collect::<Vec<_>>()})
            }
            DocOp::Typed {
                records,
                m,
                k,
                seed,
                item,
            } => {
                let lookup = doc.typed(records, m, k, seed, item.as_ref())?;
                json!({"lookup": lookup.as_ref().map(triple_json)})
            }
            DocOp::Read {
                m,
                k,
                seed,
                packed_bits,
                records,
                items,
            } => {
                let answers = doc.read(
                    &raw(*m, *k, seed),
                    &hexes(records),
                    &packed_bits.0,
                    &hexes(items),
                )?;
                json!({"results": answers.iter().map(triple_json).collect::<Vec<_>>()})
            }
            DocOp::Mutate {
                m,
                k,
                seed,
                records,
                other,
                attempt,
                probes,
            } => {
                let other_records = hexes(&other.records);
                let mutation = doc.mutate(
                    &raw(*m, *k, seed),
                    &hexes(records),
                    (&raw(other.m, other.k, &other.seed), &other_records),
                    *attempt,
                    &hexes(probes),
                )?;
                let seen = mutation.observed;
                json!({
                    "outcome": mutation.outcome,
                    "detail": mutation.detail,
                    "m": seen.m,
                    "k": seen.k,
                    "seed": hex::encode(seen.seed),
                    "packed_bits": hex::encode(seen.packed_bits),
                    "documents": seen.documents,
                    "lookups": seen.lookups.iter().map(triple_json).collect::<Vec<_>>(),
                })
            }
        },
        Request::Fnv(op) => match op {
            FnvOp::Positions { m, k, units } => {
                let h = fnv.positions(*m, *k, units)?;
                json!({"h1": h.h1, "h2": h.h2, "positions": h.positions})
            }
            FnvOp::Session { script } => view_steps(fnv.session(script)?),
            FnvOp::Estimates { m, k, n } => {
                let e = fnv.estimates(*m, *k, *n)?;
                json!({"classic": e.classic, "finite_m": e.finite_m, "exact": e.exact, "optimal_k": e.optimal_k})
            }
        },
    })
}

/// Serves the adapter protocol on `input` / `output` until end of input, answering
/// with the production crates. Malformed requests get an error response of kind
/// `bad_request`; nothing panics.
pub fn serve(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let response = match parse_request(&line) {
            Err(err) => {
                json!({"id": err.id, "error": {"kind": "bad_request", "message": err.message}})
            }
            Ok((id, request)) => match answer(&request) {
                Ok(result) => json!({"id": id, "result": result}),
                Err(SubjectError::Rejected {
                    kind,
                    field,
                    message,
                }) => {
                    json!({"id": id, "error": {"kind": kind, "field": field, "message": message}})
                }
                Err(SubjectError::Broken(message)) => {
                    json!({"id": id, "error": {"kind": "internal", "message": message}})
                }
            },
        };
        writeln!(output, "{response}")?;
        output.flush()?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// The client side.

/// A running adapter subprocess.
pub struct AdapterProcess {
    command: String,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Option<Receiver<std::io::Result<String>>>,
    stderr: Arc<Mutex<String>>,
    stderr_closed: Arc<std::sync::atomic::AtomicBool>,
    next_id: u64,
    timeout: Duration,
    dead: Option<String>,
}

fn shorten(text: &str) -> String {
    const MAX: usize = 400;
    if text.len() <= MAX {
        return text.to_string();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &text[..end], text.len())
}

impl AdapterProcess {
    /// Starts `command` through `sh -c`, with a timeout per request.
    pub fn start(command: &str, timeout: Duration) -> Result<Self, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| format!("cannot start adapter `{command}`: {err}"))?;
        let stdout = child.stdout.take().ok_or("adapter has no stdout")?;
        let stderr_pipe = child.stderr.take().ok_or("adapter has no stderr")?;
        let (sender, receiver) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let stderr_closed = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let sink = Arc::clone(&stderr);
        let closed = Arc::clone(&stderr_closed);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
                if let Ok(mut text) = sink.lock() {
                    text.push_str(&line);
                    text.push('\n');
                    if text.len() > 8192 {
                        let cut = text.len() - 4096;
                        let cut = (cut..text.len())
                            .find(|&i| text.is_char_boundary(i))
                            .unwrap_or(0);
                        text.drain(..cut);
                    }
                }
            }
            closed.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        Ok(AdapterProcess {
            command: command.to_string(),
            stdin: child.stdin.take(),
            child: Some(child),
            lines: Some(receiver),
            stderr,
            stderr_closed,
            next_id: 1,
            timeout,
            dead: None,
        })
    }

    /// The command line.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// How the adapter ended, waiting up to half a second for it to exit (and for its
    /// stderr to be read to the end): `exited (exit status: 3)` or `is still running`.
    fn exit_status(&mut self) -> String {
        let Some(child) = self.child.as_mut() else {
            return "is no longer running".into();
        };
        for _ in 0..50 {
            if let Ok(Some(status)) = child.try_wait() {
                for _ in 0..50 {
                    if self.stderr_closed.load(std::sync::atomic::Ordering::SeqCst) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                return format!("exited ({status})");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        "is still running".into()
    }

    fn stderr_tail(&self) -> String {
        let text = self.stderr.lock().map(|t| t.clone()).unwrap_or_default();
        let text = text.trim();
        if text.is_empty() {
            String::new()
        } else {
            format!("; its stderr ends: {}", shorten(text))
        }
    }

    fn kill(&mut self, why: String) -> SubjectError {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        self.stdin = None;
        self.lines = None;
        self.dead = Some(why.clone());
        SubjectError::Broken(why)
    }

    /// Sends one request and waits for its response, at most the timeout.
    pub fn request(&mut self, protocol: &str, op: &impl Serialize) -> Answer<Value> {
        let id = self.next_id;
        self.next_id += 1;
        let mut object = match serde_json::to_value(op) {
            Ok(Value::Object(object)) => object,
            _ => return Err(SubjectError::Broken("cannot encode the request".into())),
        };
        object.insert("id".into(), json!(id));
        object.insert("protocol".into(), json!(protocol));
        let line = Value::Object(object).to_string();
        if let Some(why) = &self.dead {
            return Err(SubjectError::Broken(format!(
                "request #{id} not sent: the adapter is no longer running ({why})"
            )));
        }
        let request = shorten(&line);
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("no stdin")),
        };
        if let Err(err) = written {
            let status = self.exit_status();
            let why = format!(
                "the adapter {status} before request #{id} could be sent ({err}): {request}{}",
                self.stderr_tail()
            );
            return Err(self.kill(why));
        }
        let received = match self.lines.as_ref() {
            Some(lines) => lines.recv_timeout(self.timeout),
            None => Err(RecvTimeoutError::Disconnected),
        };
        let text = match received {
            Ok(Ok(text)) => text,
            Ok(Err(err)) => {
                let why = format!("reading the response to request #{id} {request}: {err}");
                return Err(self.kill(why));
            }
            Err(RecvTimeoutError::Timeout) => {
                let why = format!(
                    "no response within {:.1}s to request #{id} {request}{}",
                    self.timeout.as_secs_f64(),
                    self.stderr_tail()
                );
                return Err(self.kill(why));
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.exit_status();
                let why = format!(
                    "the adapter {status} without answering request #{id} {request}{}",
                    self.stderr_tail()
                );
                return Err(self.kill(why));
            }
        };
        let malformed = |why: String| {
            SubjectError::Broken(format!(
                "malformed response to request #{id} {request}: {why}; the response was: {}",
                shorten(&text)
            ))
        };
        let mut response: Map<String, Value> = match serde_json::from_str(&text) {
            Ok(Value::Object(object)) => object,
            Ok(_) => return Err(malformed("not a JSON object".into())),
            Err(err) => return Err(malformed(format!("not JSON ({err})"))),
        };
        if response.get("id") != Some(&json!(id)) {
            return Err(malformed(format!(
                "its id is {:?}, expected {id}",
                response.get("id")
            )));
        }
        match (response.remove("result"), response.remove("error")) {
            (Some(result), None) => Ok(result),
            (None, Some(Value::Object(error))) => {
                let text = |key: &str| error.get(key).and_then(Value::as_str).map(str::to_string);
                let kind =
                    text("kind").ok_or_else(|| malformed("the error has no `kind`".into()))?;
                Err(SubjectError::Rejected {
                    kind,
                    field: text("field"),
                    message: text("message").unwrap_or_default(),
                })
            }
            _ => Err(malformed(
                "it must hold exactly one of `result` and `error` (an object)".into(),
            )),
        }
    }
}

impl Drop for AdapterProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if let Some(mut child) = self.child.take() {
            // Closing stdin asks the adapter to stop; give it a moment, then kill it.
            for _ in 0..20 {
                if matches!(child.try_wait(), Ok(Some(_))) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

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
    let value = guard.request(protocol, op)?;
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

/// A `doc-membership-v1` subject behind an adapter.
pub struct AdapterDoc(pub Shared);

/// A `fnv1a-utf16-v1` subject behind an adapter.
pub struct AdapterFnv(pub Shared);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DigestResult {
    digest: Hex,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrameResult {
    message: Hex,
    digest: Hex,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionsResult {
    positions: Vec<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BuildResult {
    packed_bits: Hex,
    documents: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TripleResult {
    maybe_present: bool,
    exact_checked: bool,
    duplicate: bool,
}

impl From<TripleResult> for Triple {
    fn from(t: TripleResult) -> Self {
        Triple {
            maybe_present: t.maybe_present,
            exact_checked: t.exact_checked,
            duplicate: t.duplicate,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManyResult {
    results: Vec<TripleResult>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TypedResult {
    lookup: Option<TripleResult>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MutationResult {
    outcome: MutationOutcome,
    detail: String,
    m: u64,
    k: u64,
    seed: Hex,
    packed_bits: Hex,
    documents: usize,
    lookups: Vec<TripleResult>,
}

/// The three accounts an adapter may give of an attempt.
#[derive(Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
enum MutationOutcome {
    Raised,
    Done,
    Impossible,
}

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
            m: p.m,
            k: p.k,
            seed: Hex(p.seed.clone()),
            index,
            item: Hex(item.to_vec()),
        };
        let r: FrameResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(Framed {
            message: r.message.0,
            digest: r.digest.0,
        })
    }

    fn positions(&mut self, p: &RawParams, item: &[u8]) -> Answer<Vec<u16>> {
        let op = DocOp::Positions {
            m: p.m,
            k: p.k,
            seed: Hex(p.seed.clone()),
            item: Hex(item.to_vec()),
        };
        let r: PositionsResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(r.positions)
    }

    fn build(&mut self, p: &RawParams, records: &[Vec<u8>]) -> Answer<Built> {
        let op = DocOp::Build {
            m: p.m,
            k: p.k,
            seed: Hex(p.seed.clone()),
            records: hex_list(records),
        };
        let r: BuildResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(Built {
            packed_bits: r.packed_bits.0,
            documents: r.documents,
        })
    }

    fn lookup(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        if let [item] = items {
            let op = DocOp::Lookup {
                m: p.m,
                k: p.k,
                seed: Hex(p.seed.clone()),
                records: hex_list(records),
                item: Hex(item.clone()),
            };
            let r: TripleResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
            return Ok(vec![r.into()]);
        }
        let op = DocOp::LookupMany {
            m: p.m,
            k: p.k,
            seed: Hex(p.seed.clone()),
            records: hex_list(records),
            items: hex_list(items),
        };
        let r: ManyResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(r.results.into_iter().map(Triple::from).collect())
    }

    fn typed(
        &mut self,
        records: &TypedValue,
        m: &TypedValue,
        k: &TypedValue,
        seed: &TypedValue,
        item: Option<&TypedValue>,
    ) -> Answer<Option<Triple>> {
        let op = DocOp::Typed {
            records: records.clone(),
            m: m.clone(),
            k: k.clone(),
            seed: seed.clone(),
            item: item.cloned(),
        };
        let r: TypedResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(r.lookup.map(Triple::from))
    }

    fn read(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        packed_bits: &[u8],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let op = DocOp::Read {
            m: p.m,
            k: p.k,
            seed: Hex(p.seed.clone()),
            packed_bits: Hex(packed_bits.to_vec()),
            records: hex_list(records),
            items: hex_list(items),
        };
        let r: ManyResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(r.results.into_iter().map(Triple::from).collect())
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
            m: p.m,
            k: p.k,
            seed: Hex(p.seed.clone()),
            records: hex_list(records),
            other: OtherSnapshot {
                m: other.0.m,
                k: other.0.k,
                seed: Hex(other.0.seed.clone()),
                records: hex_list(other.1),
            },
            attempt,
            probes: hex_list(probes),
        };
        let r: MutationResult = call(&self.0, crate::doc_checks::PROTOCOL, &op)?;
        Ok(Mutation {
            outcome: serde_json::to_value(&r.outcome)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            detail: r.detail,
            observed: Observation {
                m: r.m,
                k: r.k,
                seed: r.seed.0,
                packed_bits: r.packed_bits.0,
                documents: r.documents,
                lookups: r.lookups.into_iter().map(Triple::from).collect(),
            },
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HashesResult {
    h1: u32,
    h2: u32,
    positions: Vec<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorResult {
    kind: String,
    message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveResult {
    outcome: String,
    stored_units: usize,
    warning: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepResult {
    view: Value,
    #[serde(default)]
    error: Option<ErrorResult>,
    #[serde(default)]
    save: Option<SaveResult>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionResult {
    initial: Value,
    steps: Vec<StepResult>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EstimatesResult {
    classic: f64,
    finite_m: f64,
    exact: f64,
    optimal_k: u32,
}

impl FnvSubject for AdapterFnv {
    fn name(&self) -> String {
        self.0
            .lock()
            .map(|p| format!("adapter `{}`", p.command()))
            .unwrap_or_default()
    }

    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        let r: HashesResult = call(
            &self.0,
            crate::fnv_checks::PROTOCOL,
            &FnvOp::Positions {
                m,
                k,
                units: units.to_vec(),
            },
        )?;
        Ok(FnvHashes {
            h1: r.h1,
            h2: r.h2,
            positions: r.positions,
        })
    }

    fn session(&mut self, script: &[ScriptOp]) -> Answer<ScriptAnswer> {
        let r: SessionResult = call(
            &self.0,
            crate::fnv_checks::PROTOCOL,
            &FnvOp::Session {
                script: script.to_vec(),
            },
        )?;
        Ok(ScriptAnswer {
            initial: r.initial,
            steps: r
                .steps
                .into_iter()
                .map(|s| StepAnswer {
                    view: s.view,
                    error: s.error.map(|e| (e.kind, e.message)),
                    save: s.save.map(|s| SaveAnswer {
                        outcome: s.outcome,
                        stored_units: s.stored_units,
                        warning: s.warning,
                    }),
                })
                .collect(),
        })
    }

    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        let r: EstimatesResult = call(
            &self.0,
            crate::fnv_checks::PROTOCOL,
            &FnvOp::Estimates { m, k, n },
        )?;
        Ok(EstimatesAnswer {
            classic: r.classic,
            finite_m: r.finite_m,
            exact: r.exact,
            optimal_k: r.optimal_k,
        })
    }
}
