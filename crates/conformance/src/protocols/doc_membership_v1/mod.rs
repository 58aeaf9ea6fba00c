//! The doc-membership family's entries in the runner's registry: a [`DocMembership`] per
//! version ([`DocVersion`]; `doc-membership-v1` is [`V1`]), its cases (`DocCase`, run by
//! its evaluators in [`checks`] and its generated checks in `generated`, each judged by
//! the oracle under the version's domain), its subject ([`DocSubject`]), its generators,
//! its accumulated stream and its vector checks (`vectors.rs`: v1's format, under the
//! version's name). The typed
//! contract (`typed.rs`) is judged under the version's bounds ([`DocVersion::contract`]).

pub mod checks;
pub mod diagnose;
pub mod expected;
mod generated;
mod hooks;
mod vectors;

use super::{Cases, GeneratorDomain, Protocol, ProtocolCases, ProtocolSubject, SpecCase, Subject};
use crate::adapter::AdapterProcess;
use crate::generated::Generation;
use crate::model::{CasesFile, Generator, Span};
use crate::protocol::{Inputs, SubjectTrait};
use crate::report::Failures;
use crate::report::{Class, Failure, Figures};
use crate::stream::{Stream, low_16, positions_bytes};
use crate::subject::{Answer, SubjectError};
use bloomproof_adapter::protocols::doc_membership_v1::AdapterDoc;
use bloomproof_adapter::protocols::doc_membership_v1::DocSubject;
use bloomproof_adapter::protocols::doc_membership_v1::{DocCall, DocReply};
use bloomproof_oracle::contract::ContractBounds;
use bloomproof_vectors::VectorFile;
use bloomproof_wire::protocols::doc_membership_v1::DocCase;
use std::sync::{Arc, Mutex};

/// One version of the doc-membership family as the runner sees it: plain values (the
/// runner names no production type for them; the oracle takes `domain_hex`), and how to
/// make the version's production subject in process. `doc-membership-v1` is [`V1`].
#[derive(Debug)]
pub struct DocVersion {
    /// The version's name.
    pub name: &'static str,
    /// The domain that starts every message, as hex text, for the oracle.
    pub domain_hex: &'static str,
    /// The bounds of its typed contract (m, k, seed, records, item), as plain numbers
    /// for the oracle's contract model, which judges the generated typed check.
    pub contract: ContractBounds,
    /// Its generators of generated cases, with the version's bounds.
    pub generators: &'static [GeneratorDomain],
    /// The production crates' implementation of the version, in process.
    pub rust_subject: fn() -> Box<dyn DocSubject + Send>,
}

impl DocVersion {
    /// The bounds the cases of its vector files are held to: its contract's, and its
    /// domain's length.
    pub fn vector_bounds(&self) -> bloomproof_vectors::DocBounds {
        let c = &self.contract;
        let u32_of = |n: i128| u32::try_from(n).unwrap_or(u32::MAX);
        let usize_of = |n: i128| usize::try_from(n).unwrap_or(usize::MAX);
        bloomproof_vectors::DocBounds {
            domain_len: self.domain_hex.len() / 2,
            m: [u32_of(c.m.0), u32_of(c.m.1)],
            k: [u32_of(c.k.0), u32_of(c.k.1)],
            seed_max: usize_of(c.seed),
            item_max: usize_of(c.item),
            records_max: usize_of(c.records),
        }
    }
}

/// The registry entry of a version of the doc-membership family.
#[derive(Debug)]
pub struct DocMembership {
    /// The version.
    pub version: &'static DocVersion,
}

impl DocMembership {
    /// `doc-membership-v1`'s entry.
    pub const V1: DocMembership = DocMembership { version: &V1 };

    /// `subject` as a subject of a run, answering for this version.
    pub fn subject(&self, subject: Box<dyn DocSubject + Send>) -> Box<dyn ProtocolSubject> {
        Box::new(Subject {
            protocol: self.version.name,
            subject,
        })
    }
}

/// The protocol's name.
pub const NAME: &str = bloomproof_protocol::doc_membership_v1::NAME;

/// `doc-membership-v1`.
pub static V1: DocVersion = DocVersion {
    name: NAME,
    // The oracle's own literal (it is checked to spell the name and one zero byte).
    domain_hex: bloomproof_oracle::doc_membership::DOMAIN_HEX,
    // The oracle's own, written from PROTOCOL.md's table (a test holds spec/bounds.json
    // to it).
    contract: ContractBounds::V1,
    generators: V1_GENERATORS,
    rust_subject: || Box::new(bloomproof_adapter::protocols::doc_membership_v1::RustDoc::v1()),
};

// The bounds of PROTOCOL.md, as the spec states them (the runner names no production
// crate for them: crates/layering/tests/subjects.rs).
const M: (&str, Span) = ("m", [8, 512]);
const K: (&str, Span) = ("k", [1, 8]);
const SEED: (&str, Span) = ("seed_bytes", [0, 16]);
const ITEM: (&str, Span) = ("item_bytes", [0, 64]);

/// The generators of the bytes operations (hashing and snapshots), which every version
/// with v1's bounds shares.
pub const BYTES_GENERATORS: [GeneratorDomain; 2] = [
    GeneratorDomain {
        generator: Generator::DocHashing,
        ranges: &[M, K, SEED, ITEM],
        limits: &[],
        compares: &["positions", "frame"],
        reference: "oracle",
    },
    GeneratorDomain {
        generator: Generator::DocSnapshots,
        ranges: &[M, K, SEED, ITEM, ("records", [0, 64])],
        limits: &[],
        compares: &["build", "lookup_many", "read", "read_damaged"],
        reference: "oracle",
    },
];

const V1_GENERATORS: &[GeneratorDomain] = &[
    BYTES_GENERATORS[0],
    BYTES_GENERATORS[1],
    // The contract's edges and draws come from the table of bounds
    // (spec/bounds.json) and every typed kind; a case states m and k only.
    GeneratorDomain {
        generator: Generator::DocTyped,
        ranges: &[M, K],
        limits: &[],
        compares: &["typed", "typed_field"],
        reference: "oracle",
    },
];

/// `subject` as a subject of a run, answering for `doc-membership-v1`.
pub fn subject(subject: Box<dyn DocSubject + Send>) -> Box<dyn ProtocolSubject> {
    DocMembership::V1.subject(subject)
}

impl Protocol for DocMembership {
    fn name(&self) -> &'static str {
        self.version.name
    }

    fn new_cases(&self) -> Box<dyn ProtocolCases> {
        Box::new(Cases::<DocCase>::new(self.version))
    }

    fn rust_subject(&self) -> Box<dyn ProtocolSubject> {
        self.subject((self.version.rust_subject)())
    }

    fn adapter_subject(&self, process: Arc<Mutex<AdapterProcess>>) -> Box<dyn ProtocolSubject> {
        self.subject(Box::new(AdapterDoc(process, self.version.name)))
    }

    fn generators(&self) -> &'static [GeneratorDomain] {
        self.version.generators
    }

    fn accumulated(&self, stream: &mut Stream, n: usize) -> Box<dyn Inputs> {
        Box::new(AccumulatedInputs {
            version: self.version,
            inputs: (0..n)
                .map(|_| accumulated_input(stream, &self.version.contract))
                .collect(),
        })
    }

    fn cases_schema(&self) -> String {
        let name = self.version.name;
        bloomproof_wire::schema::render::<CasesFile<DocCase>>(&format!("bloomproof {name} cases"))
    }

    fn hooked_checks(&self) -> Vec<&'static str> {
        crate::hooks::checks::<DocMembership>().collect()
    }

    fn hook_misfit(&self, check: &str, shape: &str) -> Option<String> {
        crate::hooks::misfit::<DocMembership>(check, shape)
    }

    fn check_vectors(
        &self,
        file: &VectorFile,
        subjects: &mut crate::protocol::Subjects,
        failures: &mut Failures,
    ) {
        vectors::check(self.version.name, file, subjects, failures);
    }

    fn vector_version(&self) -> bloomproof_vectors::Version<'static> {
        bloomproof_vectors::Version {
            name: self.version.name,
            format: NAME,
            doc_bounds: Some(self.version.vector_bounds()),
        }
    }
}

impl SpecCase for DocCase {
    type Subject = dyn DocSubject + Send;
    type Context = DocVersion;

    fn evaluate(
        &self,
        version: &DocVersion,
        _class: Class,
        subject: &mut Self::Subject,
        generation: &Generation,
        figures: &mut Figures,
    ) -> Vec<Failure> {
        match self {
            DocCase::Generated(c) if c.input.generator == Generator::DocTyped => {
                generated::typed::evaluate(version, c, subject, generation)
            }
            DocCase::Generated(c) => generated::evaluate(version, c, subject, generation),
            case => checks::evaluate(version, case, subject, figures),
        }
    }
}

impl SubjectTrait for dyn DocSubject + Send {
    fn fork_subject(&self) -> Option<Box<Self>> {
        self.fork()
    }
}

/// The answers of the subject of `protocol` (a version of this family) in `subjects` to
/// `calls`, pipelined; every call broken when the run has no subject of `protocol`.
pub fn batch(
    subjects: &mut crate::protocol::Subjects,
    protocol: &str,
    calls: &[DocCall],
) -> Vec<Answer<DocReply>> {
    match subjects.get_mut::<dyn DocSubject + Send>(protocol) {
        Some(subject) => subject.batch(calls),
        None => calls
            .iter()
            .map(|_| {
                Err(SubjectError::Broken(format!(
                    "the run has no subject of {protocol}"
                )))
            })
            .collect(),
    }
}

/// One input of the accumulated stream.
struct AccumulatedInput {
    m: u16,
    k: u8,
    seed: Vec<u8>,
    item: Vec<u8>,
}

/// The next input of the stream, within the version's bounds (`spec/README.md` gives
/// v1's: m = 8 + u16 % 505, k = 1 + byte % 8, a seed of byte % 17 bytes, an item of
/// byte % 65 bytes; a version's are its own `contract`'s, drawn in the same order).
fn accumulated_input(stream: &mut Stream, bounds: &ContractBounds) -> AccumulatedInput {
    let within = |lo: i128, hi: i128, drawn: i128| lo + drawn % (hi - lo + 1).max(1);
    let m = within(bounds.m.0, bounds.m.1, i128::from(stream.u16()));
    let k = within(bounds.k.0, bounds.k.1, i128::from(stream.byte()));
    let seed_len = within(0, bounds.seed, i128::from(stream.byte()));
    let seed = stream.take(usize::try_from(seed_len).unwrap_or(0));
    let item_len = within(0, bounds.item, i128::from(stream.byte()));
    let item = stream.take(usize::try_from(item_len).unwrap_or(0));
    AccumulatedInput {
        m: u16::try_from(m).unwrap_or(u16::MAX),
        k: u8::try_from(k).unwrap_or(u8::MAX),
        seed,
        item,
    }
}

/// A chunk of the accumulated stream's inputs, and the version they are of.
struct AccumulatedInputs {
    version: &'static DocVersion,
    inputs: Vec<AccumulatedInput>,
}

impl Inputs for AccumulatedInputs {
    fn len(&self) -> usize {
        self.inputs.len()
    }

    /// `spec/README.md`: the k positions, 2 bytes each.
    fn oracle_outputs(&self, index: usize) -> Vec<u8> {
        let Some(input) = self.inputs.get(index) else {
            return Vec::new();
        };
        bloomproof_oracle::doc_membership::positions(
            self.version.domain_hex,
            u32::from(input.m),
            u32::from(input.k),
            &input.seed,
            &input.item,
        )
        .into_iter()
        .flat_map(|p| low_16(p).to_be_bytes())
        .collect()
    }

    fn show(&self, index: usize) -> serde_json::Value {
        self.inputs.get(index).map_or(serde_json::Value::Null, |i| {
            serde_json::json!({
                "params": {"m": i.m, "k": i.k, "seed_hex": bloomproof_wire::encode_hex(&i.seed)},
                "item_hex": bloomproof_wire::encode_hex(&i.item),
            })
        })
    }

    fn ask(&self, subjects: &mut crate::protocol::Subjects) -> Vec<Result<Vec<u8>, String>> {
        let calls: Vec<DocCall> = self
            .inputs
            .iter()
            .map(|i| DocCall::Positions {
                params: bloomproof_adapter::protocols::doc_membership_v1::RawParams {
                    m: u64::from(i.m),
                    k: u64::from(i.k),
                    seed: i.seed.clone(),
                },
                item: i.item.clone(),
            })
            .collect();
        batch(subjects, self.version.name, &calls)
            .into_iter()
            .zip(&self.inputs)
            .map(|(answer, i)| match answer {
                Ok(DocReply::Positions(p)) => positions_bytes(&p, i.m, i.k),
                Ok(other) => Err(format!("not positions: {other:?}")),
                Err(err) => Err(err.to_string()),
            })
            .collect()
    }
}
