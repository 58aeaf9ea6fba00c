//! The implementation under test.
//!
//! Evaluators never call production code directly: they drive a subject. The
//! in-process subject ([`RustDoc`]) calls the production crates; an adapter subject
//! drives any other implementation over stdin/stdout. Each method is one operation of
//! the adapter protocol (`spec/ADAPTER.md`).

use crate::ToDynamic;
use bloomproof_filter::dynamic;
use bloomproof_filter::{ContractError, DocumentPrefilter, Params};
use bloomproof_protocol::doc_membership_v1 as protocol;
use bloomproof_wire::adapter::MutationAttempt;
pub use bloomproof_wire::adapter::{
    Built, EstimatesAnswer, FnvHashes, Framed, SaveAnswer, ScriptAnswer, StepAnswer, StepError,
    Triple, TypedCall,
};
use std::fmt;

/// Why an operation gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubjectError {
    /// The implementation rejected the input (a contract error of the given kind).
    Rejected {
        /// `type` or `value`.
        kind: String,
        /// The field it named, when it named one.
        field: Option<String>,
        /// Its message.
        message: String,
    },
    /// The implementation could not be driven: it crashed, timed out or answered
    /// something malformed.
    Broken(String),
}

/// What [`DocSubject::between_checks`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Between {
    /// The implementation is ready for the next check.
    Go,
    /// The implementation ended during the check (crashed, timed out or broke the
    /// adapter protocol, for this reason) and was started again for the next one.
    Restarted(String),
    /// The run cannot go on, for this reason (one paragraph).
    Stop(String),
}

impl fmt::Display for SubjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubjectError::Rejected {
                kind,
                field,
                message,
            } => match field {
                Some(field) => write!(f, "rejected: {kind} error in {field}: {message}"),
                None => write!(f, "rejected: {kind} error: {message}"),
            },
            SubjectError::Broken(why) => write!(f, "implementation failed: {why}"),
        }
    }
}

impl From<ContractError> for SubjectError {
    fn from(err: ContractError) -> Self {
        SubjectError::Rejected {
            kind: err.kind().as_str().to_string(),
            field: Some(err.field().to_string()),
            message: err.message().to_string(),
        }
    }
}

/// Result of a subject operation.
pub type Answer<T> = Result<T, SubjectError>;

/// The parameters as plain values (the seed as bytes, not hex), unchecked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "m, k and the seed of `spec/README.md`")]
pub struct RawParams {
    pub m: u64,
    pub k: u64,
    pub seed: Vec<u8>,
}

/// A `doc-membership-v1` implementation, as the evaluators drive it.
pub trait DocSubject {
    /// A short name for reports.
    fn name(&self) -> String;

    /// What the implementation's handshake said (an adapter's; `None` in process):
    /// who answers and the protocols it implements.
    fn started(&self) -> Option<bloomproof_wire::adapter::Started> {
        None
    }
    /// Between two checks (and after the last): whether the run goes on. An adapter
    /// that ended during the check is started again ([`Between::Restarted`]); one that
    /// never answered, or whose run deadline passed, stops the run. In process: always
    /// [`Between::Go`].
    fn between_checks(&mut self) -> Between {
        Between::Go
    }
    /// At the end of a run: one paragraph when every answer pointed at one cause (an
    /// adapter that answered `bad_request` to everything), in place of its failures.
    fn closing_diagnosis(&mut self) -> Option<String> {
        None
    }
    /// SHA-256 of raw bytes.
    fn sha256(&mut self, data: &[u8]) -> Answer<Vec<u8>>;
    /// The framed message for hash index `index`, and its digest.
    fn frame(&mut self, params: &RawParams, index: u8, item: &[u8]) -> Answer<Framed>;
    /// The k positions of an item, in hash-index order.
    fn positions(&mut self, params: &RawParams, item: &[u8]) -> Answer<Vec<u16>>;
    /// Builds a snapshot.
    fn build(&mut self, params: &RawParams, records: &[Vec<u8>]) -> Answer<Built>;
    /// Builds a snapshot and looks up each item, answering in input order.
    fn lookup(
        &mut self,
        params: &RawParams,
        records: &[Vec<u8>],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>>;
    /// Builds from typed values and, when the call has an `item`, looks it up.
    fn typed(&mut self, call: &TypedCall) -> Answer<Option<Triple>>;
    /// Reads a snapshot given as its parts, verifying it (`spec/ADAPTER.md`, *Reading
    /// a snapshot*), and looks each item up in it.
    fn read(
        &mut self,
        params: &RawParams,
        records: &[Vec<u8>],
        packed_bits: &[u8],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>>;
    /// Builds a snapshot of `records`, makes the named mutation attempt (with `other`
    /// as the values to put in), then observes the snapshot through its ordinary
    /// operations.
    fn mutate(
        &mut self,
        params: &RawParams,
        records: &[Vec<u8>],
        other: (&RawParams, &[Vec<u8>]),
        attempt: MutationAttempt,
        probes: &[Vec<u8>],
    ) -> Answer<Mutation>;
    /// For each snapshot of `snapshots` in order, [`DocSubject::build`] of it, then
    /// [`DocSubject::lookup`] of `items` in it: the same requests, in the same order,
    /// as calling them one by one (the default), but an implementation behind an
    /// adapter sends them without waiting for each answer (pipelining).
    fn build_and_lookup_each(
        &mut self,
        params: &RawParams,
        snapshots: &[Vec<Vec<u8>>],
        items: &[Vec<u8>],
    ) -> Vec<(Answer<Built>, Answer<Vec<Triple>>)> {
        snapshots
            .iter()
            .map(|records| {
                (
                    self.build(params, records),
                    self.lookup(params, records, items),
                )
            })
            .collect()
    }
    /// Answers each call of `calls`, in order: the same requests as calling the
    /// methods one by one (the default), but an implementation behind an adapter
    /// sends them without waiting for each answer (pipelining).
    fn batch(&mut self, calls: &[DocCall]) -> Vec<Answer<DocReply>> {
        calls
            .iter()
            .map(|call| match call {
                DocCall::Positions { params, item } => {
                    self.positions(params, item).map(DocReply::Positions)
                }
                DocCall::Frame {
                    params,
                    index,
                    item,
                } => self.frame(params, *index, item).map(DocReply::Framed),
                DocCall::Build { params, records } => {
                    self.build(params, records).map(DocReply::Built)
                }
                DocCall::LookupMany {
                    params,
                    records,
                    items,
                } => self.lookup(params, records, items).map(DocReply::Triples),
                DocCall::Read {
                    params,
                    records,
                    packed_bits,
                    items,
                } => self
                    .read(params, records, packed_bits, items)
                    .map(DocReply::Triples),
                DocCall::Typed(call) => self.typed(call).map(DocReply::Typed),
            })
            .collect()
    }
    /// Another subject driving the same implementation, independent of this one, for
    /// running checks on other threads; `None` (the default) when checks must share
    /// this one and run one after the other.
    fn fork(&self) -> Option<Box<dyn DocSubject + Send>> {
        None
    }

    /// The adapter command and the timeout per request, when this subject speaks the
    /// adapter protocol: the runner then also runs the adapter protocol's own checks
    /// (`bloomproof_conformance::adapter_checks`), each on a fresh process of the command. `None` (the default)
    /// in process.
    fn adapter(&self) -> Option<(String, std::time::Duration)> {
        None
    }
}

/// One operation of [`DocSubject::batch`], with its arguments.
#[derive(Clone, Debug, PartialEq)]
#[allow(
    missing_docs,
    reason = "the arguments of the subject's methods of the same name"
)]
pub enum DocCall {
    Positions {
        params: RawParams,
        item: Vec<u8>,
    },
    Frame {
        params: RawParams,
        index: u8,
        item: Vec<u8>,
    },
    Build {
        params: RawParams,
        records: Vec<Vec<u8>>,
    },
    /// `lookup_many`, whatever the number of items.
    LookupMany {
        params: RawParams,
        records: Vec<Vec<u8>>,
        items: Vec<Vec<u8>>,
    },
    Read {
        params: RawParams,
        records: Vec<Vec<u8>>,
        packed_bits: Vec<u8>,
        items: Vec<Vec<u8>>,
    },
    Typed(TypedCall),
}

/// The answer to one [`DocCall`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "the results of the subject's methods")]
pub enum DocReply {
    Positions(Vec<u16>),
    Framed(Framed),
    Built(Built),
    /// `lookup_many` and `read`.
    Triples(Vec<Triple>),
    Typed(Option<Triple>),
}

/// One operation of [`FnvSubject::batch`], with its arguments.
#[derive(Clone, Debug, PartialEq)]
#[allow(
    missing_docs,
    reason = "the arguments of the subject's methods of the same name"
)]
pub enum FnvCall {
    Positions {
        m: u64,
        k: u64,
        units: Vec<u16>,
    },
    Estimates {
        m: u32,
        k: u32,
        n: u32,
    },
    Session {
        script: Vec<bloomproof_wire::adapter::ScriptOp>,
    },
}

/// The answer to one [`FnvCall`].
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs, reason = "the results of the subject's methods")]
pub enum FnvReply {
    Hashes(FnvHashes),
    Estimates(EstimatesAnswer),
    Script(ScriptAnswer),
}

/// What an implementation did for one mutation attempt, and what it then observed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutation {
    /// `raised`, `done` or `impossible`: the implementation's account, only printed.
    pub outcome: String,
    /// What was tried and what happened, in the implementation's words.
    pub detail: String,
    /// The snapshot as ordinary operations showed it after the attempt.
    pub observed: Observation,
}

/// A snapshot as its ordinary operations show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// m, as the snapshot reports it.
    pub m: u64,
    /// k, as the snapshot reports it.
    pub k: u64,
    /// The seed, as the snapshot reports it.
    pub seed: Vec<u8>,
    /// The packed bits.
    pub packed_bits: Vec<u8>,
    /// The number of documents.
    pub documents: usize,
    /// One lookup per probe, in order.
    pub lookups: Vec<Triple>,
}

/// The production crates, called in process.
#[derive(Clone, Copy, Debug, Default)]
pub struct RustDoc;

fn params(raw: &RawParams) -> Answer<Params> {
    Ok(Params::new(raw.m, raw.k, &raw.seed).map_err(ContractError::from)?)
}

fn snapshot(raw: &RawParams, records: &[Vec<u8>]) -> Answer<DocumentPrefilter> {
    Ok(DocumentPrefilter::with_params(params(raw)?, records)?)
}

fn triple(lookup: bloomproof_filter::Lookup) -> Triple {
    Triple {
        maybe_present: lookup.maybe_present,
        exact_checked: lookup.exact_checked,
        duplicate: lookup.duplicate,
    }
}

impl DocSubject for RustDoc {
    fn name(&self) -> String {
        "rust (in process)".to_string()
    }

    fn fork(&self) -> Option<Box<dyn DocSubject + Send>> {
        Some(Box::new(RustDoc))
    }

    fn sha256(&mut self, data: &[u8]) -> Answer<Vec<u8>> {
        Ok(protocol::sha256(data).to_vec())
    }

    fn frame(&mut self, raw: &RawParams, index: u8, item: &[u8]) -> Answer<Framed> {
        let params = params(raw)?;
        let message = protocol::message(&params, index, item).map_err(ContractError::from)?;
        let digest = protocol::digest(&params, index, item).map_err(ContractError::from)?;
        Ok(Framed {
            message: message.as_bytes().to_vec(),
            digest: digest.to_vec(),
        })
    }

    fn positions(&mut self, raw: &RawParams, item: &[u8]) -> Answer<Vec<u16>> {
        let params = params(raw)?;
        let positions = protocol::fast::positions(&params, item).map_err(ContractError::from)?;
        Ok(positions.as_slice().to_vec())
    }

    fn build(&mut self, raw: &RawParams, records: &[Vec<u8>]) -> Answer<Built> {
        let snapshot = snapshot(raw, records)?;
        Ok(Built {
            packed_bits: snapshot.packed_bits(),
            documents: snapshot.documents().len(),
        })
    }

    fn lookup(
        &mut self,
        raw: &RawParams,
        records: &[Vec<u8>],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let snapshot = snapshot(raw, records)?;
        items
            .iter()
            .map(|item| Ok(triple(snapshot.lookup(item)?)))
            .collect()
    }

    fn typed(&mut self, call: &TypedCall) -> Answer<Option<Triple>> {
        let snapshot = dynamic::build(
            &call.records.to_dynamic(),
            &call.m.to_dynamic(),
            &call.k.to_dynamic(),
            &call.seed.to_dynamic(),
        )?;
        match &call.item {
            None => Ok(None),
            Some(item) => Ok(Some(triple(dynamic::lookup(
                &snapshot,
                &item.to_dynamic(),
            )?))),
        }
    }

    fn read(
        &mut self,
        raw: &RawParams,
        records: &[Vec<u8>],
        packed_bits: &[u8],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let snapshot = DocumentPrefilter::read(params(raw)?, records, packed_bits)?;
        items
            .iter()
            .map(|item| Ok(triple(snapshot.lookup(item)?)))
            .collect()
    }

    fn mutate(
        &mut self,
        raw: &RawParams,
        records: &[Vec<u8>],
        other: (&RawParams, &[Vec<u8>]),
        attempt: MutationAttempt,
        probes: &[Vec<u8>],
    ) -> Answer<Mutation> {
        // The caller's buffers, owned here so that they can be changed after the build.
        let mut record_buffers: Vec<Vec<u8>> = records.to_vec();
        let mut seed_buffer = raw.seed.clone();
        let snapshot = DocumentPrefilter::new(&record_buffers, raw.m, raw.k, &seed_buffer)?;
        let no_field = "DocumentPrefilter has no public field and no method taking &mut self; \
                        assigning one does not compile (crates/filter/tests/immutability)";
        let (outcome, detail) = match attempt {
            MutationAttempt::AssignFields => ("impossible", no_field.to_string()),
            MutationAttempt::MutateReturnedBits => {
                let mut packed = snapshot.packed_bits();
                packed.fill(0xff);
                ("done", "filled the Vec that packed_bits() returned with ff".to_string())
            }
            MutationAttempt::MutateReturnedDocuments => {
                let mut documents: Vec<Vec<u8>> =
                    snapshot.documents().iter().map(<[u8]>::to_vec).collect();
                documents.clear();
                documents.extend(other.1.iter().cloned());
                (
                    "done",
                    "documents() is a shared view with no mutator; replaced the contents of a Vec collected from it".to_string(),
                )
            }
            MutationAttempt::MutateReturnedLookup => {
                let mut flipped = 0;
                for probe in probes {
                    let mut answer = snapshot.lookup(probe)?;
                    answer.maybe_present = !answer.maybe_present;
                    answer.exact_checked = !answer.exact_checked;
                    answer.duplicate = !answer.duplicate;
                    flipped += usize::from(answer != snapshot.lookup(probe)?);
                }
                (
                    "done",
                    format!("flipped every field of {flipped} returned Lookup values (Copy values)"),
                )
            }
            MutationAttempt::MutateRecordsAfterBuild => {
                for record in &mut record_buffers {
                    record.iter_mut().for_each(|byte| *byte ^= 0xff);
                }
                record_buffers.extend(other.1.iter().cloned());
                record_buffers.reverse();
                ("done", "XORed every record buffer with ff, appended the other records, reversed the Vec".to_string())
            }
            MutationAttempt::MutateSeedAfterBuild => {
                seed_buffer.iter_mut().for_each(|byte| *byte ^= 0xff);
                seed_buffer.push(0xff);
                ("done", "XORed the seed buffer with ff and appended ff".to_string())
            }
            MutationAttempt::BypassGuards => (
                "impossible",
                "safe Rust has no way past the type system's guards: the fields are private and no \
                 &mut DocumentPrefilter is handed out; an unsafe write would be memory corruption"
                    .to_string(),
            ),
            MutationAttempt::Reconstruct => (
                "impossible",
                "Rust has no constructor to run again on an existing value; the snapshot binding is not mut".to_string(),
            ),
            MutationAttempt::MutateCopy => {
                let clone = snapshot.clone();
                (
                    "impossible",
                    format!(
                        "cloned the snapshot (the clone equals it: {}); the clone is a DocumentPrefilter too: {no_field}",
                        clone == snapshot
                    ),
                )
            }
        };
        let lookups = probes
            .iter()
            .map(|probe| Ok(triple(snapshot.lookup(probe)?)))
            .collect::<Answer<Vec<_>>>()?;
        Ok(Mutation {
            outcome: outcome.to_string(),
            detail,
            observed: Observation {
                m: u64::from(snapshot.m()),
                k: u64::from(snapshot.k()),
                seed: snapshot.seed().to_vec(),
                packed_bits: snapshot.packed_bits(),
                documents: snapshot.documents().len(),
                lookups,
            },
        })
    }
}

// ---------------------------------------------------------------------------------
// fnv1a-utf16-v1

/// A `fnv1a-utf16-v1` implementation, as the evaluators drive it.
pub trait FnvSubject {
    /// A short name for reports.
    fn name(&self) -> String;
    /// h1, h2 and the k positions of a string of code units.
    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes>;
    /// Runs a script on a new session.
    fn session(&mut self, script: &[bloomproof_wire::adapter::ScriptOp]) -> Answer<ScriptAnswer>;
    /// The estimates for (m, k, n).
    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer>;
    /// Answers each call of `calls`, in order: the same requests as calling the
    /// methods one by one (the default), but an implementation behind an adapter
    /// sends them without waiting for each answer (pipelining).
    fn batch(&mut self, calls: &[FnvCall]) -> Vec<Answer<FnvReply>> {
        calls
            .iter()
            .map(|call| match call {
                FnvCall::Positions { m, k, units } => {
                    self.positions(*m, *k, units).map(FnvReply::Hashes)
                }
                FnvCall::Estimates { m, k, n } => {
                    self.estimates(*m, *k, *n).map(FnvReply::Estimates)
                }
                FnvCall::Session { script } => self.session(script).map(FnvReply::Script),
            })
            .collect()
    }
    /// Another subject driving the same implementation, independent of this one, for
    /// running checks on other threads; `None` (the default) when checks must share
    /// this one and run one after the other.
    fn fork(&self) -> Option<Box<dyn FnvSubject + Send>> {
        None
    }
}

/// The production session model and protocol, in process.
#[derive(Clone, Copy, Debug, Default)]
pub struct RustFnv;

/// Largest `import_padded` size (bytes) or `save_local` length (code units) that
/// [`RustFnv`] builds: 8 times the import limit. A larger one is refused as
/// [`SubjectError::Broken`] before anything is allocated (it used to panic with a
/// capacity overflow, or exhaust memory).
pub const SCRIPT_HELPER_MAX: usize = 8 * bloomproof_session::IMPORT_MAX_BYTES;

fn view(session: &bloomproof_session::Session) -> serde_json::Value {
    serde_json::to_value(session.view()).unwrap_or(serde_json::Value::Null)
}

fn rejected(kind: &str, message: String) -> Option<StepError> {
    Some(StepError {
        kind: kind.to_string(),
        message,
    })
}

impl RustFnv {
    /// Runs `script` on a new session and hands each step's answer to `each` as soon as
    /// it is made, keeping none of them; returns the view of the new session. The first
    /// error, of a step or of `each`, ends the script. This is how `bloomproof adapter`
    /// bounds what one answer holds.
    pub fn run_script(
        script: &[bloomproof_wire::adapter::ScriptOp],
        mut each: impl FnMut(StepAnswer) -> Answer<()>,
    ) -> Answer<serde_json::Value> {
        let mut session = bloomproof_session::Session::new();
        let initial = view(&session);
        for op in script {
            each(Self::step(&mut session, op)?)?;
        }
        Ok(initial)
    }

    /// One step of a script on `session`, as [`RustFnv::run_script`] makes it: the
    /// reference answer the generated session checks compare with.
    pub fn step(
        session: &mut bloomproof_session::Session,
        op: &bloomproof_wire::adapter::ScriptOp,
    ) -> Answer<StepAnswer> {
        use bloomproof_session::{Op, Session, Text};
        use bloomproof_wire::adapter::ScriptOp;
        let mut error = None;
        let mut save = None;
        let mut export = None;
        match op {
            ScriptOp::InsertMany { prefix, count } => {
                let before = session.clone();
                for i in 0..*count {
                    let value = Text::from(format!("{prefix}{i}").as_str());
                    if let Err(err) = session.apply(&Op::Insert { value }) {
                        *session = before;
                        error = rejected(err.kind().as_str(), format!("insert_many at {i}: {err}"));
                        break;
                    }
                }
            }
            ScriptOp::Roundtrip {} => match Session::from_export(&session.export()) {
                Ok(imported) => *session = imported,
                Err(err) => error = rejected(err.kind().as_str(), err.to_string()),
            },
            ScriptOp::Import { document } => {
                let text = serde_json::to_string(document).unwrap_or_default();
                if let Err(err) = session.import(&text) {
                    error = rejected(err.kind().as_str(), err.to_string());
                }
            }
            ScriptOp::ImportText { text } => {
                if let Err(err) = session.import(text) {
                    error = rejected(err.kind().as_str(), err.to_string());
                }
            }
            ScriptOp::ImportPadded { bytes } => {
                if *bytes > SCRIPT_HELPER_MAX {
                    return Err(SubjectError::Broken(format!(
                        "import_padded: {bytes} bytes is more than the {SCRIPT_HELPER_MAX} this subject builds"
                    )));
                }
                let mut text = session.export();
                if text.len() > *bytes {
                    return Err(SubjectError::Broken(format!(
                        "import_padded: the export is already {} bytes, more than {bytes}",
                        text.len()
                    )));
                }
                text.push_str(&" ".repeat(bytes - text.len()));
                if let Err(err) = session.import(&text) {
                    error = rejected(err.kind().as_str(), err.to_string());
                }
            }
            ScriptOp::SaveLocal { units } => {
                if *units > SCRIPT_HELPER_MAX {
                    return Err(SubjectError::Broken(format!(
                        "save_local: {units} code units is more than the {SCRIPT_HELPER_MAX} this subject builds"
                    )));
                }
                let state = "x".repeat(*units);
                let previous = session.export();
                let outcome = bloomproof_session::save_local(&state, Some(&previous));
                let stored = outcome.stored().unwrap_or_default();
                save = Some(SaveAnswer {
                    outcome: if stored == state { "saved" } else { "kept" }.to_string(),
                    stored_units: stored.encode_utf16().count(),
                    warning: outcome.warning().map(str::to_string),
                });
            }
            ScriptOp::Export {} => export = Some(session.export()),
            ScriptOp::Insert { .. }
            | ScriptOp::Query { .. }
            | ScriptOp::SetDraft { .. }
            | ScriptOp::Create {}
            | ScriptOp::InsertExample {}
            | ScriptOp::Reset {}
            | ScriptOp::SetPanel { .. } => {
                if let Some(page_op) = op.page_op()
                    && let Err(err) = session.apply(&page_op)
                {
                    error = rejected(err.kind().as_str(), err.to_string());
                }
            }
        }
        Ok(StepAnswer {
            view: view(session),
            error,
            save,
            export,
        })
    }
}

impl FnvSubject for RustFnv {
    fn name(&self) -> String {
        "rust (in process)".to_string()
    }

    fn fork(&self) -> Option<Box<dyn FnvSubject + Send>> {
        Some(Box::new(RustFnv))
    }

    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
        // A contract error is `value`, as in every op's error table (ADAPTER.md);
        // `out_of_range` is a session step's error kind (SESSION.md), not this op's.
        let params = fnv::Params::new(m, k).map_err(|err| SubjectError::Rejected {
            kind: "value".to_string(),
            field: Some(err.field.to_string()),
            message: err.to_string(),
        })?;
        if !(1..=bloomproof_session::MAX_UNITS).contains(&units.len()) {
            return Err(SubjectError::Rejected {
                kind: "value".to_string(),
                field: Some("units".to_string()),
                message: format!(
                    "a string has 1..={} code units, got {}",
                    bloomproof_session::MAX_UNITS,
                    units.len()
                ),
            });
        }
        let hashes = fnv::base_hashes(units);
        Ok(FnvHashes {
            h1: hashes.h1,
            h2: hashes.h2,
            positions: fnv::positions(&params, hashes),
        })
    }

    fn session(&mut self, script: &[bloomproof_wire::adapter::ScriptOp]) -> Answer<ScriptAnswer> {
        let mut steps = Vec::with_capacity(script.len());
        let initial = Self::run_script(script, |step| {
            steps.push(step);
            Ok(())
        })?;
        Ok(ScriptAnswer { initial, steps })
    }

    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        let e = bloomproof_session::estimates(m, k, n);
        Ok(EstimatesAnswer {
            classic: e.classic,
            finite_m: e.finite_m,
            exact: e.exact,
            optimal_k: e.optimal_k,
        })
    }
}
