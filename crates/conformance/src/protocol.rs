//! What every protocol module implements, and what the run hands it: the traits the
//! registry ([`crate::protocols::REGISTRY`]) reaches a protocol through and the set of
//! subjects a run drives. A [`Protocol`] makes the subjects and the case list of its
//! protocol, a [`ProtocolCases`] holds the typed cases and runs them, a
//! [`ProtocolSubject`] is one protocol's implementation under test (its own subject
//! trait, boxed), [`Subjects`] one per protocol. It knows no protocol and no run: the
//! protocol modules, the runner and the loader build on it.

use crate::adapter::AdapterProcess;
use crate::generated::{Generation, GeneratorDomain};
use crate::model::{Case, GeneratedExpect, GeneratedInput};
use crate::report::{Class, Failure, Failures, Figures};
use crate::stream::Stream;
use crate::subject::{Between, UnderTest};
use bloomproof_vectors::VectorFile;
use bloomproof_wire::adapter::ADAPTER_PROTOCOL_OLDEST;
use bloomproof_wire::spec::ShapedCase;
use std::any::Any;
use std::fmt;
use std::sync::{Arc, Mutex};

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
    fn accumulated(&self, stream: &mut Stream, n: usize) -> Box<dyn Inputs>;

    /// The JSON Schema of this protocol's cases file
    /// (`spec/schemas/<protocol>.cases.schema.json`).
    fn cases_schema(&self) -> String;

    /// The checks of this protocol that have a hook (its `hooks.rs`): a spec documents
    /// all of them or none.
    fn hooked_checks(&self) -> Vec<&'static str>;

    /// Why a case of `check` cannot have `shape`: the check's hook reads cases of
    /// another shape and does not pass over this one. `None` when it fits (or the check
    /// has no hook).
    fn hook_misfit(&self, check: &str, shape: &str) -> Option<String>;

    /// Runs the cases of `file`, one of this protocol's vector files
    /// (`vectors/<protocol>/<kind>.json`), on the subjects, keeping the failures in
    /// `failures`.
    fn check_vectors(&self, file: &VectorFile, subjects: &mut Subjects, failures: &mut Failures);

    /// How the vector loader reads this protocol's files: its name, the built-in
    /// protocol whose format its files have (their kinds and `$schema`: its own, or its
    /// family's first version's, as a doc-membership version's files are
    /// `doc-membership-v1`'s format under its own name), and the bounds their cases are
    /// held to (a doc-membership version's own; `None`: the format's).
    fn vector_version(&self) -> bloomproof_vectors::Version<'static> {
        bloomproof_vectors::Version {
            name: self.name(),
            format: self.name(),
            doc_bounds: None,
        }
    }
}

/// The protocols one load and its runs know, in order: the protocol folders the loader
/// reads ([`crate::load::load_with`]) and the subjects made for them
/// ([`Subjects::rust_of`]). `Registry::BUILT_IN` (`crate::protocols::REGISTRY`) is
/// every caller's default; a test passes another to run a version the runner does not
/// build in (a doc-membership version is one more `DocMembership` value).
#[derive(Clone, Copy)]
pub struct Registry(pub &'static [&'static dyn Protocol]);

impl Registry {
    /// Its entries, in order.
    pub fn entries(self) -> &'static [&'static dyn Protocol] {
        self.0
    }

    /// The entry named `name`, if this registry has the protocol.
    pub fn find(self, name: &str) -> Option<&'static dyn Protocol> {
        self.0.iter().copied().find(|entry| entry.name() == name)
    }

    /// Its protocols' names, in order.
    pub fn names(self) -> Vec<&'static str> {
        self.0.iter().map(|entry| entry.name()).collect()
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Registry").field(&self.names()).finish()
    }
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

    /// The least adapter protocol version whose adapters take the case `id` (an unknown
    /// id: the oldest the runner runs); a run through an adapter of an earlier version
    /// leaves the case out (`Report::left_out`).
    fn adapter_protocol(&self, id: &str) -> u32;

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
/// list needs of it (its id, check, rules and shape are its [`ShapedCase`]).
pub trait SpecCase:
    ShapedCase + serde::de::DeserializeOwned + Clone + fmt::Debug + Send + Sync + 'static
{
    /// The protocol's subject trait object (`dyn DocSubject + Send`, ...).
    type Subject: ?Sized + 'static;

    /// What the registry entry gives every case it evaluates: the version of a family
    /// (doc-membership's `DocVersion`), or `()`.
    type Context: fmt::Debug + Send + Sync + 'static;

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

    /// The least adapter protocol version whose adapters take this case's requests
    /// (default: the oldest the runner runs, [`ADAPTER_PROTOCOL_OLDEST`]).
    fn adapter_protocol(&self) -> u32 {
        ADAPTER_PROTOCOL_OLDEST
    }
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
        self.list.iter().map(ShapedCase::parts).collect()
    }

    fn run(
        &self,
        ids: &[String],
        class: Class,
        subject: &mut dyn ProtocolSubject,
        generation: &Generation,
        figures: &mut Figures,
    ) -> (usize, Vec<Failure>) {
        let Some(Subject { subject, .. }) =
            subject.as_any_mut().downcast_mut::<Subject<C::Subject>>()
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

    fn adapter_protocol(&self, id: &str) -> u32 {
        self.list
            .iter()
            .find(|c| c.parts().0 == id)
            .map_or(ADAPTER_PROTOCOL_OLDEST, SpecCase::adapter_protocol)
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

/// Records in `failures` that `file` is not of the protocol whose `check_vectors` it
/// was handed (a protocol's vector checks read only its own files).
pub(crate) fn foreign_vector_file(file: &VectorFile, failures: &mut Failures) {
    failures.fail(
        &format!("{:?}", file.file_kind()),
        "a vector file of this protocol".into(),
        serde_json::Value::Null,
        "a file of this protocol".into(),
        file.file_kind().protocol().to_string(),
    );
}

/// One protocol's implementation under test: its subject trait object, boxed
/// (`Subject<dyn DocSubject + Send>`, ...), and the protocol it answers for (one
/// subject trait serves every version of a family).
pub struct Subject<S: ?Sized> {
    /// The name of the protocol (version) it answers for.
    pub protocol: &'static str,
    /// The implementation, as its protocol's evaluators drive it.
    pub subject: Box<S>,
}

/// One protocol's implementation under test, whatever its protocol. The run's own
/// questions (its name, handshake, between checks, closing diagnosis, adapter: its
/// [`UnderTest`]) are asked of the first subject of a run: through an adapter every
/// subject shares one process.
pub trait ProtocolSubject: UnderTest + Send {
    /// The protocol it implements.
    fn protocol(&self) -> &'static str;

    /// An independent copy for another thread, when the subject can make one.
    fn fork(&self) -> Option<Box<dyn ProtocolSubject>>;

    /// The subject itself, for its protocol's cases to reach its own trait.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// A protocol's subject trait object (`dyn DocSubject + Send`, ...): what [`Subject`]
/// needs of it to be a [`ProtocolSubject`] (each protocol module implements it).
pub trait SubjectTrait: UnderTest + Send + 'static {
    /// An independent copy, when the implementation can make one (the subject trait's
    /// own `fork`).
    fn fork_subject(&self) -> Option<Box<Self>>;
}

impl<S: ?Sized + UnderTest> UnderTest for Subject<S> {
    fn name(&self) -> String {
        self.subject.name()
    }

    fn started(&self) -> Option<bloomproof_wire::adapter::Started> {
        self.subject.started()
    }

    fn between_checks(&mut self) -> Between {
        self.subject.between_checks()
    }

    fn closing_diagnosis(&mut self) -> Option<String> {
        self.subject.closing_diagnosis()
    }

    fn adapter(&self) -> Option<(String, std::time::Duration)> {
        self.subject.adapter()
    }
}

impl<S: ?Sized + SubjectTrait> ProtocolSubject for Subject<S> {
    fn protocol(&self) -> &'static str {
        self.protocol
    }

    fn fork(&self) -> Option<Box<dyn ProtocolSubject>> {
        let protocol = self.protocol;
        self.subject
            .fork_subject()
            .map(|subject| -> Box<dyn ProtocolSubject> { Box::new(Subject { protocol, subject }) })
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A chunk of one protocol's accumulated inputs ([`Protocol::accumulated`]).
pub trait Inputs {
    /// How many inputs the chunk has.
    fn len(&self) -> usize;

    /// Whether the chunk has no input.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The oracle's outputs of input `index` (`spec/README.md` lays them out).
    fn oracle_outputs(&self, index: usize) -> Vec<u8>;

    /// Input `index` as a report shows it.
    fn show(&self, index: usize) -> serde_json::Value;

    /// The implementation's outputs of every input, asked pipelined of the protocol's
    /// subject in `subjects`; an answer that is no answer, or breaks the invariants (k
    /// positions, each below m), is the reason.
    fn ask(&self, subjects: &mut Subjects) -> Vec<Result<Vec<u8>, String>>;
}

/// The implementations a run drives, one per registered protocol
/// ([`crate::protocols::REGISTRY`]), in its order.
pub struct Subjects {
    /// One subject per protocol; the first answers for the run (its name, handshake,
    /// between checks and closing diagnosis).
    pub subjects: Vec<Box<dyn ProtocolSubject>>,
    /// The adapter process the subjects share, when they drive one
    /// (`Subjects::adapter`): the run starts a second process of its command for a
    /// second lane of checks ([`crate::run::run`]).
    pub(crate) process: Option<crate::adapter::Shared>,
    /// The protocols the subjects were made for (a second process's subjects are made
    /// for the same).
    pub(crate) registry: Registry,
}

impl Subjects {
    /// These subjects with `subject` in place of the one of its protocol.
    #[must_use]
    pub fn with(mut self, subject: Box<dyn ProtocolSubject>) -> Self {
        match self
            .subjects
            .iter_mut()
            .find(|s| s.protocol() == subject.protocol())
        {
            Some(slot) => *slot = subject,
            None => self.subjects.push(subject),
        }
        self
    }

    /// The subject of `protocol`.
    pub fn of(&mut self, protocol: &str) -> Option<&mut dyn ProtocolSubject> {
        self.subjects
            .iter_mut()
            .find(|s| s.protocol() == protocol)
            .map(|s| s.as_mut() as &mut dyn ProtocolSubject)
    }

    /// The subject of `protocol` as its own trait `S` (`dyn DocSubject + Send`, ...),
    /// if the run has a subject of `protocol` and its trait is `S`: looked up by the
    /// protocol's name, since the versions of a family share one subject trait.
    pub fn get_mut<S: ?Sized + 'static>(&mut self, protocol: &str) -> Option<&mut S> {
        self.subjects
            .iter_mut()
            .find(|s| s.protocol() == protocol)?
            .as_any_mut()
            .downcast_mut::<Subject<S>>()
            .map(|s| s.subject.as_mut())
    }

    pub(crate) fn first(&self) -> Option<&dyn ProtocolSubject> {
        self.subjects
            .first()
            .map(|s| s.as_ref() as &dyn ProtocolSubject)
    }

    pub(crate) fn name(&self) -> String {
        self.first().map(UnderTest::name).unwrap_or_default()
    }
}
