//! `fnv1a-utf16-v1`'s entry in the runner's registry: its cases (`FnvCase`, run by
//! its evaluators in [`checks`] and its generated checks in `generated`), its subject ([`FnvSubject`]), its
//! generators, its accumulated stream and its vector checks (`vectors.rs`).

pub mod checks;
pub mod diagnose;
pub(crate) mod generated;
mod hooks;
mod vectors;

use super::{GeneratorDomain, Protocol, ProtocolCases, ProtocolSubject, SpecCase, Subject};
use crate::adapter::AdapterProcess;
use crate::generated::Generation;
use crate::model::{CasesFile, Generator, Span};
use crate::protocol::{Inputs, SubjectTrait};
use crate::report::Failures;
use crate::report::{Class, Failure, Figures};
use crate::stream::{Stream, low_16, positions_bytes};
use crate::subject::{Answer, SubjectError};
use bloomproof_adapter::protocols::fnv1a_utf16_v1::AdapterFnv;
use bloomproof_adapter::protocols::fnv1a_utf16_v1::FnvSubject;
use bloomproof_adapter::protocols::fnv1a_utf16_v1::{FnvCall, FnvReply};
use bloomproof_vectors::VectorFile;
use bloomproof_wire::protocols::fnv1a_utf16_v1::{FnvCase, ScriptOp};
use std::sync::{Arc, Mutex};

/// The registry entry of `fnv1a-utf16-v1`.
pub struct Fnv1aUtf16V1;

/// The protocol's name.
pub const NAME: &str = bloomproof_protocol::fnv1a_utf16_v1::NAME;

/// `subject` as a subject of a run.
pub fn subject(subject: Box<dyn FnvSubject + Send>) -> Box<dyn ProtocolSubject> {
    Box::new(Subject {
        protocol: NAME,
        subject,
    })
}

impl Protocol for Fnv1aUtf16V1 {
    fn name(&self) -> &'static str {
        NAME
    }

    fn new_cases(&self) -> Box<dyn ProtocolCases> {
        Box::new(super::Cases::<FnvCase>::new(&()))
    }

    fn rust_subject(&self) -> Box<dyn ProtocolSubject> {
        subject(Box::new(
            bloomproof_adapter::protocols::fnv1a_utf16_v1::RustFnv,
        ))
    }

    fn adapter_subject(&self, process: Arc<Mutex<AdapterProcess>>) -> Box<dyn ProtocolSubject> {
        subject(Box::new(AdapterFnv(process)))
    }

    fn generators(&self) -> &'static [GeneratorDomain] {
        // The bounds of PROTOCOL.md, as the spec states them (the runner names no
        // production crate for them: crates/layering/tests/subjects.rs).
        const M: (&str, Span) = ("m", [8, 1024]);
        const K: (&str, Span) = ("k", [1, 12]);
        // The estimates clamp their inputs (SESSION.md 8, step 1): drawn from the
        // wire's whole width.
        const WIRE: Span = [0, u32::MAX];
        &[
            GeneratorDomain {
                generator: Generator::FnvHashes,
                ranges: &[M, K, ("units", [1, 256])],
                limits: &[],
                compares: &["positions"],
                reference: "oracle",
            },
            GeneratorDomain {
                generator: Generator::FnvEstimates,
                ranges: &[("m", WIRE), ("k", WIRE), ("n", WIRE)],
                // Where the clamps of SESSION.md 8, step 1 start: m to 8..=1024, k to
                // 1..=12, n to at most 1024.
                limits: &[8, 1024, 1, 12],
                compares: &["estimates"],
                reference: "oracle",
            },
            GeneratorDomain {
                generator: Generator::FnvSessions,
                ranges: &[M, K, ("steps", [1, 64])],
                limits: &[],
                // `page`: the parts of each step the page defines (a core check); the
                // rest: the whole answer, against the reference model (interop).
                compares: &["page", "view", "error", "save", "export"],
                reference: "session_model",
            },
            GeneratorDomain {
                generator: Generator::FnvSaveFills,
                // m and k of the filter whose export is the previous copy.
                ranges: &[M, K],
                limits: &[],
                // As `fnv_sessions`: the page's rules alone (core), or the model's answer.
                compares: &["page", "view", "error", "save", "export"],
                reference: "session_model",
            },
        ]
    }

    fn accumulated(&self, stream: &mut Stream, n: usize) -> Box<dyn Inputs> {
        Box::new(AccumulatedInputs(
            (0..n).map(|_| accumulated_input(stream)).collect(),
        ))
    }

    fn cases_schema(&self) -> String {
        bloomproof_wire::schema::render::<CasesFile<FnvCase>>(&format!("bloomproof {NAME} cases"))
    }

    fn hooked_checks(&self) -> Vec<&'static str> {
        crate::hooks::checks::<Fnv1aUtf16V1>().collect()
    }

    fn hook_misfit(&self, check: &str, shape: &str) -> Option<String> {
        crate::hooks::misfit::<Fnv1aUtf16V1>(check, shape)
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

impl SpecCase for FnvCase {
    type Subject = dyn FnvSubject + Send;
    type Context = ();

    fn evaluate(
        &self,
        _context: &(),
        class: Class,
        subject: &mut Self::Subject,
        generation: &Generation,
        figures: &mut Figures,
    ) -> Vec<Failure> {
        match self {
            FnvCase::Generated(c) => generated::evaluate(c, subject, generation),
            case => checks::evaluate(case, class, subject, figures),
        }
    }

    /// 3 for a script with a `save_local` of a `fill` and for the generated local
    /// saves of fills ([`Generator::FnvSaveFills`]), else 2.
    fn adapter_protocol(&self) -> u32 {
        let oldest = bloomproof_wire::adapter::ADAPTER_PROTOCOL_OLDEST;
        match self {
            FnvCase::Script(c) => c
                .input
                .script
                .iter()
                .map(ScriptOp::adapter_protocol)
                .fold(oldest, u32::max),
            FnvCase::Generated(c) if c.input.generator == Generator::FnvSaveFills => 3,
            _ => oldest,
        }
    }
}

impl SubjectTrait for dyn FnvSubject + Send {
    fn fork_subject(&self) -> Option<Box<Self>> {
        self.fork()
    }
}

/// The answers of this protocol's subject in `subjects` to `calls`, pipelined; every
/// call broken when the run has no subject of this protocol.
pub fn batch(subjects: &mut crate::protocol::Subjects, calls: &[FnvCall]) -> Vec<Answer<FnvReply>> {
    match subjects.get_mut::<dyn FnvSubject + Send>(NAME) {
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
    units: Vec<u16>,
}

fn accumulated_input(stream: &mut Stream) -> AccumulatedInput {
    let m = 8 + stream.u16() % 1017;
    let k = 1 + stream.byte() % 12;
    let t = stream.byte();
    let u = usize::from(stream.byte());
    let len = if t < 192 {
        1 + u % 16
    } else if t < 240 {
        1 + u % 64
    } else {
        1 + u
    };
    let units = (0..len)
        .map(|_| {
            let class = stream.byte() % 8;
            let v = stream.u16();
            match class {
                0..=2 => v % 0x80,
                3 => 0x80 + v % 0x780,
                4 => v,
                5 => 0xD800 + v % 0x400,
                6 => 0xDC00 + v % 0x400,
                _ => 0xFFFF - v % 16,
            }
        })
        .collect();
    AccumulatedInput { m, k, units }
}

/// A chunk of the accumulated stream's inputs.
struct AccumulatedInputs(Vec<AccumulatedInput>);

impl Inputs for AccumulatedInputs {
    fn len(&self) -> usize {
        self.0.len()
    }

    /// `spec/README.md`: h1 and h2 (4 bytes each), then the k positions, 2 bytes each.
    fn oracle_outputs(&self, index: usize) -> Vec<u8> {
        use bloomproof_oracle::fnv1a_utf16 as oracle;
        let Some(input) = self.0.get(index) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        out.extend_from_slice(&oracle::h1(&input.units).to_be_bytes());
        out.extend_from_slice(&oracle::h2(&input.units).to_be_bytes());
        for p in oracle::positions(u32::from(input.m), u32::from(input.k), &input.units) {
            out.extend_from_slice(&low_16(p).to_be_bytes());
        }
        out
    }

    fn show(&self, index: usize) -> serde_json::Value {
        self.0.get(index).map_or(
            serde_json::Value::Null,
            |i| serde_json::json!({"m": i.m, "k": i.k, "units": i.units}),
        )
    }

    fn ask(&self, subjects: &mut crate::protocol::Subjects) -> Vec<Result<Vec<u8>, String>> {
        let calls: Vec<FnvCall> = self
            .0
            .iter()
            .map(|i| FnvCall::Positions {
                m: u64::from(i.m),
                k: u64::from(i.k),
                units: i.units.clone(),
            })
            .collect();
        batch(subjects, &calls)
            .into_iter()
            .zip(&self.0)
            .map(|(answer, i)| match answer {
                Ok(FnvReply::Hashes(h)) => {
                    positions_bytes(&h.positions, i.m, i.k).map(|positions| {
                        let mut out = h.h1.to_be_bytes().to_vec();
                        out.extend_from_slice(&h.h2.to_be_bytes());
                        out.extend(positions);
                        out
                    })
                }
                Ok(other) => Err(format!("not hashes: {other:?}")),
                Err(err) => Err(err.to_string()),
            })
            .collect()
    }
}
