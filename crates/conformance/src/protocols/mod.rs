//! The registry of the runner's protocols: one entry per protocol of
//! [`crate::PROTOCOLS`], in its order, each a module of this folder.
//!
//! Generic code (the loader, the runner, the generated checks) iterates [`REGISTRY`]
//! and reaches a protocol's cases and subject only through the traits here: a
//! [`Protocol`] makes the subjects and the case list of its protocol, a
//! [`ProtocolCases`] holds the typed cases and runs them, a [`ProtocolSubject`] is one
//! protocol's implementation under test (its own subject trait, boxed).

pub mod doc_membership_v1;
pub mod fnv1a_utf16_v1;

use crate::adapter::AdapterProcess;
use crate::generated::Generation;
use crate::model::{Case, GeneratedExpect, GeneratedInput, Generator, Span};
use crate::report::{Class, Failure, Figures};
use crate::subject::Between;
use bloomproof_vectors::VectorFile;
use std::any::Any;
use std::fmt;
use std::sync::{Arc, Mutex};

/// Every protocol the runner knows, in the order of [`crate::PROTOCOLS`].
pub static REGISTRY: &[&dyn Protocol] = &[
    &doc_membership_v1::DocMembership::V1,
    &fnv1a_utf16_v1::Fnv1aUtf16V1,
];

/// The registry entry named `name`, if the runner knows the protocol.
pub fn find(name: &str) -> Option<&'static dyn Protocol> {
    REGISTRY.iter().copied().find(|entry| entry.name() == name)
}

/// One protocol's part of the runner.
pub trait Protocol: Sync {
    /// The protocol's name (its `NAME`, [`crate::PROTOCOLS`]).
    fn name(&self) -> &'static str;

    /// An empty list of this protocol's cases, for the loader to fill.
    fn new_cases(&self) -> Box<dyn ProtocolCases>;

    /// The production crates' implementation of this protocol, in process.
    fn rust_subject(&self) -> Box<dyn ProtocolSubject>;

    /// This protocol through the adapter subprocess `process` (shared by every protocol).
    fn adapter_subject(&self, process: Arc<Mutex<AdapterProcess>>) -> Box<dyn ProtocolSubject>;

    /// The generators of generated cases that draw this protocol's inputs, each with
    /// what it reads and compares.
    fn generators(&self) -> &'static [GeneratorDomain];

    /// The next `n` inputs of this protocol's accumulated stream (`spec/README.md`,
    /// "Accumulated checks"), drawn from `stream`.
    fn accumulated(
        &self,
        stream: &mut crate::accumulated::Stream,
        n: usize,
    ) -> Box<dyn crate::accumulated::Inputs>;

    /// The JSON Schema of this protocol's cases file
    /// (`spec/schemas/<protocol>.cases.schema.json`).
    fn cases_schema(&self) -> String;

    /// The checks of this protocol that have a hook (its `hooks.rs`).
    fn hooked_checks(&self) -> Vec<&'static str>;

    /// Why a case of `check` cannot have `shape`: the check's hook reads cases of
    /// another shape and does not pass over this one. `None` when it fits (or the check
    /// has no hook).
    fn hook_misfit(&self, check: &str, shape: &str) -> Option<String>;

    /// Runs the cases of `file`, one of this protocol's vector files
    /// (`vectors/<protocol>/<kind>.json`), on the subjects, keeping the failures in
    /// `failures`.
    fn check_vectors(
        &self,
        file: &VectorFile,
        subjects: &mut crate::run::Subjects,
        failures: &mut crate::vectors::Failures,
    );
}

/// What one generator of generated cases reads and compares: the loader refuses a
/// `generated` case whose domain or expectation differs (`generated::domain_error`).
#[derive(Clone, Copy, Debug)]
pub struct GeneratorDomain {
    /// The generator.
    pub generator: Generator,
    /// Every range of [`GeneratedInput`] it reads (`m` and `k` always, then the optional
    /// ones), each with the bounds a case's range must lie within: the protocol's bounds,
    /// or the wire's whole width for inputs the protocol clamps.
    pub ranges: &'static [(&'static str, Span)],
    /// The values within those bounds where the protocol's behaviour changes (the ends
    /// of a clamp), beside the bounds' own ends: every range's edge inputs hold each of
    /// them and its neighbours (`generated::edges`).
    pub limits: &'static [u32],
    /// The answers it compares, in the order `expect.compared` lists them.
    pub compares: &'static [&'static str],
    /// What it compares with: `oracle` or `session_model`.
    pub reference: &'static str,
}

/// What the loader learns of one case it added to a [`ProtocolCases`]: its shape, and
/// the case itself when it is a generated one.
pub type Pushed<'a> = (
    &'static str,
    Option<&'a Case<GeneratedInput, GeneratedExpect>>,
);

/// One protocol's cases, typed by shape, in file order.
pub trait ProtocolCases: fmt::Debug + Send + Sync {
    /// Reads `raw` as a case of this protocol and adds it; the error is serde's.
    fn push(&mut self, raw: &serde_json::Value) -> Result<Pushed<'_>, serde_json::Error>;

    /// (id, check, rules beyond its check's, shape) of every case, in file order.
    fn each(&self) -> Vec<(&str, &str, &[String], &'static str)>;

    /// Runs the cases whose ids are `ids` on `subject` (this protocol's), for a check of
    /// `class`: how many ran and their failures.
    fn run(
        &self,
        ids: &[String],
        class: Class,
        subject: &mut dyn ProtocolSubject,
        generation: &Generation,
        figures: &mut Figures,
    ) -> (usize, Vec<Failure>);

    /// A copy.
    fn clone_box(&self) -> Box<dyn ProtocolCases>;

    /// The typed cases (`Cases<DocCase>`, `Cases<FnvCase>`), for a test to edit them.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl Clone for Box<dyn ProtocolCases> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A case of one protocol's case enum (`DocCase`, `FnvCase`): what the generic case
/// list needs of it.
pub trait SpecCase:
    serde::de::DeserializeOwned + Clone + fmt::Debug + Send + Sync + 'static
{
    /// The protocol's subject trait object (`dyn DocSubject + Send`, ...).
    type Subject: ?Sized + 'static;

    /// What the registry entry gives every case it evaluates: the version of a family
    /// (doc-membership's `DocVersion`), or `()`.
    type Context: fmt::Debug + Send + Sync + 'static;

    /// The case's id, check, rules and shape.
    fn parts(&self) -> (&str, &str, &[String], &'static str);

    /// The case, when it is a generated one.
    fn generated(&self) -> Option<&Case<GeneratedInput, GeneratedExpect>>;

    /// Runs the case on `subject` for a check of `class` (an evaluator that holds rules
    /// of several classes judges only the check's): its failures.
    fn evaluate(
        &self,
        context: &Self::Context,
        class: Class,
        subject: &mut Self::Subject,
        generation: &Generation,
        figures: &mut Figures,
    ) -> Vec<Failure>;
}

/// One protocol's cases in file order, with what its registry entry gives each.
#[derive(Debug)]
pub struct Cases<C: SpecCase> {
    /// The registry entry's context (its family's version, or `()`).
    pub context: &'static C::Context,
    /// The typed cases.
    pub list: Vec<C>,
}

impl<C: SpecCase> Clone for Cases<C> {
    fn clone(&self) -> Self {
        Cases {
            context: self.context,
            list: self.list.clone(),
        }
    }
}

impl<C: SpecCase> Cases<C> {
    /// No cases yet, for `context`.
    pub fn new(context: &'static C::Context) -> Self {
        Cases {
            context,
            list: Vec::new(),
        }
    }
}

impl<C: SpecCase> ProtocolCases for Cases<C> {
    fn push(&mut self, raw: &serde_json::Value) -> Result<Pushed<'_>, serde_json::Error> {
        let case = C::deserialize(raw)?;
        self.list.push(case);
        match self.list.last() {
            Some(case) => Ok((case.parts().3, case.generated())),
            None => Ok(("", None)),
        }
    }

    fn each(&self) -> Vec<(&str, &str, &[String], &'static str)> {
        self.list.iter().map(SpecCase::parts).collect()
    }

    fn run(
        &self,
        ids: &[String],
        class: Class,
        subject: &mut dyn ProtocolSubject,
        generation: &Generation,
        figures: &mut Figures,
    ) -> (usize, Vec<Failure>) {
        let Some(Subject(subject)) = subject.as_any_mut().downcast_mut::<Subject<C::Subject>>()
        else {
            return (0, vec![not_its_subject()]);
        };
        let mut ran = 0;
        let mut failures = Vec::new();
        for case in self
            .list
            .iter()
            .filter(|c| ids.iter().any(|id| id == c.parts().0))
        {
            ran += 1;
            failures.extend(case.evaluate(
                self.context,
                class,
                subject.as_mut(),
                generation,
                figures,
            ));
        }
        (ran, failures)
    }

    fn clone_box(&self) -> Box<dyn ProtocolCases> {
        Box::new(self.clone())
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

fn not_its_subject() -> Failure {
    Failure {
        case: String::new(),
        what: "the run has a subject of this protocol".to_string(),
        input: serde_json::Value::Null,
        expected: "the protocol's subject".to_string(),
        actual: "a subject of another protocol".to_string(),
    }
}

/// One protocol's implementation under test: its subject trait object, boxed
/// (`Subject<dyn DocSubject + Send>`, ...).
pub struct Subject<S: ?Sized>(pub Box<S>);

/// One protocol's implementation under test, whatever its protocol. The run's own
/// questions (its name, handshake, between checks, closing diagnosis, adapter) are
/// asked of the first subject of a run: through an adapter every subject shares one
/// process.
pub trait ProtocolSubject: Send {
    /// The protocol it implements.
    fn protocol(&self) -> &'static str;

    /// The implementation's name for the report.
    fn name(&self) -> String;

    /// An independent copy for another thread, when the subject can make one.
    fn fork(&self) -> Option<Box<dyn ProtocolSubject>>;

    /// The adapter's handshake, when the subject is an adapter.
    fn started(&self) -> Option<bloomproof_wire::adapter::Started> {
        None
    }

    /// Called after every check.
    fn between_checks(&mut self) -> Between {
        Between::Go
    }

    /// What the run's end says of the implementation, if anything.
    fn closing_diagnosis(&mut self) -> Option<String> {
        None
    }

    /// The adapter's command and per-request timeout, when the subject is an adapter.
    fn adapter(&self) -> Option<(String, std::time::Duration)> {
        None
    }

    /// The subject itself, for its protocol's cases to reach its own trait.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}
