//! `doc-membership-v1`'s entry in the runner's registry: its cases (`DocCase`, run by
//! its evaluators in [`checks`] and its generated checks in `generated`), its subject ([`DocSubject`]), its
//! generators, its accumulated stream and its vector checks (`vectors.rs`).

pub mod checks;
pub mod diagnose;
pub mod expected;
mod generated;
mod hooks;
mod typed;
mod vectors;

use super::{GeneratorDomain, Protocol, ProtocolCases, ProtocolSubject, SpecCase, Subject};
use crate::adapter::AdapterProcess;
use crate::generated::Generation;
use crate::model::{Case, CasesFile, GeneratedExpect, GeneratedInput, Generator, Span};
use crate::protocol::Inputs;
use crate::report::Failures;
use crate::report::{Class, Failure, Figures};
use crate::stream::{Stream, low_16, positions_bytes};
use crate::subject::Between;
use crate::subject::{Answer, SubjectError};
use bloomproof_adapter::protocols::doc_membership_v1::AdapterDoc;
use bloomproof_adapter::protocols::doc_membership_v1::DocSubject;
use bloomproof_adapter::protocols::doc_membership_v1::{DocCall, DocReply};
use bloomproof_vectors::VectorFile;
use bloomproof_wire::protocols::doc_membership_v1::DocCase;
use std::any::Any;
use std::sync::{Arc, Mutex};

/// The registry entry of `doc-membership-v1`.
pub struct DocMembershipV1;

/// The protocol's name.
pub const NAME: &str = bloomproof_protocol::doc_membership_v1::NAME;

/// `subject` as a subject of a run.
pub fn subject(subject: Box<dyn DocSubject + Send>) -> Box<dyn ProtocolSubject> {
    Box::new(Subject(subject))
}

impl Protocol for DocMembershipV1 {
    fn name(&self) -> &'static str {
        NAME
    }

    fn new_cases(&self) -> Box<dyn ProtocolCases> {
        Box::new(Vec::<DocCase>::new())
    }

    fn rust_subject(&self) -> Box<dyn ProtocolSubject> {
        subject(Box::new(
            bloomproof_adapter::protocols::doc_membership_v1::RustDoc,
        ))
    }

    fn adapter_subject(&self, process: Arc<Mutex<AdapterProcess>>) -> Box<dyn ProtocolSubject> {
        subject(Box::new(AdapterDoc(process)))
    }

    fn generators(&self) -> &'static [GeneratorDomain] {
        // The bounds of PROTOCOL.md, as the spec states them (the runner names no
        // production crate for them: crates/layering/tests/subjects.rs).
        const M: (&str, Span) = ("m", [8, 512]);
        const K: (&str, Span) = ("k", [1, 8]);
        const SEED: (&str, Span) = ("seed_bytes", [0, 16]);
        const ITEM: (&str, Span) = ("item_bytes", [0, 64]);
        &[
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
            // The contract's edges and draws come from the table of bounds
            // (spec/bounds.json) and every typed kind; a case states m and k only.
            GeneratorDomain {
                generator: Generator::DocTyped,
                ranges: &[M, K],
                limits: &[],
                compares: &["typed", "typed_field"],
                reference: "oracle",
            },
        ]
    }

    fn accumulated(&self, stream: &mut Stream, n: usize) -> Box<dyn Inputs> {
        Box::new(AccumulatedInputs(
            (0..n).map(|_| accumulated_input(stream)).collect(),
        ))
    }

    fn cases_schema(&self) -> String {
        bloomproof_wire::schema::render::<CasesFile<DocCase>>(&format!("bloomproof {NAME} cases"))
    }

    fn hooked_checks(&self) -> Vec<&'static str> {
        crate::hooks::checks::<DocMembershipV1>().collect()
    }

    fn hook_misfit(&self, check: &str, shape: &str) -> Option<String> {
        crate::hooks::misfit::<DocMembershipV1>(check, shape)
    }

    fn check_vectors(
        &self,
        file: &VectorFile,
        subjects: &mut crate::protocol::Subjects,
        failures: &mut Failures,
    ) {
        vectors::check(file, subjects, failures);
    }
}

impl SpecCase for DocCase {
    type Subject = dyn DocSubject + Send;

    fn parts(&self) -> (&str, &str, &[String], &'static str) {
        (self.id(), self.check(), self.rules(), self.shape())
    }

    fn generated(&self) -> Option<&Case<GeneratedInput, GeneratedExpect>> {
        match self {
            DocCase::Generated(case) => Some(case),
            _ => None,
        }
    }

    fn evaluate(
        &self,
        _class: Class,
        subject: &mut Self::Subject,
        generation: &Generation,
        figures: &mut Figures,
    ) -> Vec<Failure> {
        match self {
            DocCase::Generated(c) if c.input.generator == Generator::DocTyped => {
                typed::evaluate(&c.id, &c.input, &c.expect.compared, subject, generation)
            }
            DocCase::Generated(c) => {
                generated::evaluate(&c.id, &c.input, &c.expect.compared, subject, generation)
            }
            case => checks::evaluate(case, subject, figures),
        }
    }
}

impl ProtocolSubject for Subject<dyn DocSubject + Send> {
    fn protocol(&self) -> &'static str {
        NAME
    }

    fn name(&self) -> String {
        self.0.name()
    }

    fn fork(&self) -> Option<Box<dyn ProtocolSubject>> {
        self.0.fork().map(subject)
    }

    fn started(&self) -> Option<bloomproof_wire::adapter::Started> {
        self.0.started()
    }

    fn between_checks(&mut self) -> Between {
        self.0.between_checks()
    }

    fn closing_diagnosis(&mut self) -> Option<String> {
        self.0.closing_diagnosis()
    }

    fn adapter(&self) -> Option<(String, std::time::Duration)> {
        self.0.adapter()
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The answers of this protocol's subject in `subjects` to `calls`, pipelined; every
/// call broken when the run has no subject of this protocol.
pub fn batch(subjects: &mut crate::protocol::Subjects, calls: &[DocCall]) -> Vec<Answer<DocReply>> {
    match subjects.get_mut::<dyn DocSubject + Send>() {
        Some(subject) => subject.batch(calls),
        None => calls
            .iter()
            .map(|_| {
                Err(SubjectError::Broken(format!(
                    "the run has no subject of {NAME}"
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

fn accumulated_input(stream: &mut Stream) -> AccumulatedInput {
    let m = 8 + stream.u16() % 505;
    let k = 1 + stream.byte() % 8;
    let seed_len = stream.byte() % 17;
    let seed = stream.take(usize::from(seed_len));
    let item_len = stream.byte() % 65;
    let item = stream.take(usize::from(item_len));
    AccumulatedInput { m, k, seed, item }
}

/// A chunk of the accumulated stream's inputs.
struct AccumulatedInputs(Vec<AccumulatedInput>);

impl Inputs for AccumulatedInputs {
    fn len(&self) -> usize {
        self.0.len()
    }

    /// `spec/README.md`: the k positions, 2 bytes each.
    fn oracle_outputs(&self, index: usize) -> Vec<u8> {
        let Some(input) = self.0.get(index) else {
            return Vec::new();
        };
        bloomproof_oracle::doc_membership::positions(
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
        self.0.get(index).map_or(serde_json::Value::Null, |i| {
            serde_json::json!({
                "params": {"m": i.m, "k": i.k, "seed_hex": bloomproof_wire::encode_hex(&i.seed)},
                "item_hex": bloomproof_wire::encode_hex(&i.item),
            })
        })
    }

    fn ask(&self, subjects: &mut crate::protocol::Subjects) -> Vec<Result<Vec<u8>, String>> {
        let calls: Vec<DocCall> = self
            .0
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
        batch(subjects, &calls)
            .into_iter()
            .zip(&self.0)
            .map(|(answer, i)| match answer {
                Ok(DocReply::Positions(p)) => positions_bytes(&p, i.m, i.k),
                Ok(other) => Err(format!("not positions: {other:?}")),
                Err(err) => Err(err.to_string()),
            })
            .collect()
    }
}
