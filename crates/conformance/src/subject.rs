//! The implementation under test.
//!
//! Evaluators never call production code directly: they drive a subject. The
//! in-process subject ([`RustDoc`]) calls the production crates; an adapter subject
//! drives any other implementation over stdin/stdout. Each method is one operation of
//! the adapter protocol (`spec/ADAPTER.md`).

use crate::model::TypedValue;
use bloomproof_filter::dynamic::{self, Value};
use bloomproof_filter::{ContractError, DocumentPrefilter, Params};
use bloomproof_protocol::doc_membership_v1 as protocol;
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

/// The parameters as plain values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawParams {
    /// m.
    pub m: u64,
    /// k.
    pub k: u64,
    /// The seed bytes.
    pub seed: Vec<u8>,
}

/// A framed message and its digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Framed {
    /// The message bytes.
    pub message: Vec<u8>,
    /// SHA-256 of the message.
    pub digest: Vec<u8>,
}

/// A built snapshot as the adapter protocol reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// Packed little-endian bits.
    pub packed_bits: Vec<u8>,
    /// Number of distinct documents.
    pub documents: usize,
}

/// A lookup triple.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triple {
    /// All k bits set.
    pub maybe_present: bool,
    /// The exact set was consulted.
    pub exact_checked: bool,
    /// Exact byte equality.
    pub duplicate: bool,
}

/// A `doc-membership-v1` implementation, as the evaluators drive it.
pub trait DocSubject {
    /// A short name for reports.
    fn name(&self) -> String;
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
    /// Builds from typed values and, when `item` is given, looks it up.
    fn typed(
        &mut self,
        records: &TypedValue,
        m: &TypedValue,
        k: &TypedValue,
        seed: &TypedValue,
        item: Option<&TypedValue>,
    ) -> Answer<Option<Triple>>;
    /// Tries to change a snapshot after construction through everything the
    /// implementation hands out; answers whether the snapshot is unchanged.
    fn immutability_probe(
        &mut self,
        params: &RawParams,
        records: &[Vec<u8>],
        probes: &[Vec<u8>],
    ) -> Answer<ImmutabilityReport>;
}

/// What an immutability probe saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImmutabilityReport {
    /// Every attempt made, with whether the snapshot stayed unchanged.
    pub attempts: Vec<(String, bool)>,
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

/// Converts a spec value into the filter's dynamic value.
pub fn to_dynamic(value: &TypedValue) -> Value {
    match value {
        TypedValue::Bytes(hex) => Value::Bytes(hex.0.clone()),
        TypedValue::Str(text) => Value::Str(text.clone()),
        TypedValue::Bytearray(hex) => Value::ByteArray(hex.0.clone()),
        TypedValue::Memoryview(hex) => Value::MemoryView(hex.0.clone()),
        TypedValue::Int(n) => Value::Int(i128::from(*n)),
        TypedValue::Bool(b) => Value::Bool(*b),
        TypedValue::Float(x) => Value::Float(*x),
        TypedValue::Tuple(items) => Value::Tuple(items.iter().map(to_dynamic).collect()),
        TypedValue::List(items) => Value::List(items.iter().map(to_dynamic).collect()),
    }
}

impl DocSubject for RustDoc {
    fn name(&self) -> String {
        "rust (in process)".to_string()
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
        let positions = protocol::positions(&params, item).map_err(ContractError::from)?;
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

    fn typed(
        &mut self,
        records: &TypedValue,
        m: &TypedValue,
        k: &TypedValue,
        seed: &TypedValue,
        item: Option<&TypedValue>,
    ) -> Answer<Option<Triple>> {
        let snapshot = dynamic::build(
            &to_dynamic(records),
            &to_dynamic(m),
            &to_dynamic(k),
            &to_dynamic(seed),
        )?;
        match item {
            None => Ok(None),
            Some(item) => Ok(Some(triple(dynamic::lookup(&snapshot, &to_dynamic(item))?))),
        }
    }

    fn immutability_probe(
        &mut self,
        raw: &RawParams,
        records: &[Vec<u8>],
        probes: &[Vec<u8>],
    ) -> Answer<ImmutabilityReport> {
        let snapshot = snapshot(raw, records)?;
        let before = snapshot.clone();
        let answers = |s: &DocumentPrefilter| -> Answer<Vec<Triple>> {
            probes.iter().map(|p| Ok(triple(s.lookup(p)?))).collect()
        };
        let expected_answers = answers(&snapshot)?;
        let mut attempts = Vec::new();

        // Everything the API hands out is a copy or a shared view; changing the
        // copies must leave the snapshot as it was.
        let mut packed = snapshot.packed_bits();
        packed.iter_mut().for_each(|byte| *byte = !*byte);
        attempts.push((
            "flip every byte of the packed_bits() copy".to_string(),
            snapshot == before && snapshot.packed_bits() != packed,
        ));
        let mut documents: Vec<Vec<u8>> = snapshot.documents().iter().map(<[u8]>::to_vec).collect();
        documents.clear();
        documents.extend(probes.iter().cloned());
        attempts.push((
            "replace the contents of a copy of documents()".to_string(),
            snapshot == before,
        ));
        let mut seed = snapshot.seed().to_vec();
        seed.push(0xff);
        attempts.push(("extend a copy of seed()".to_string(), snapshot == before));
        let mut params_copy = *snapshot.params();
        params_copy = Params::new(u64::from(params_copy.m()), 1, b"").unwrap_or(params_copy);
        attempts.push((
            format!("rebuild a copy of params() as {params_copy:?}"),
            snapshot == before,
        ));
        attempts.push((
            "look up every probe, then compare all answers".to_string(),
            answers(&snapshot)? == expected_answers && snapshot == before,
        ));
        Ok(ImmutabilityReport { attempts })
    }
}
