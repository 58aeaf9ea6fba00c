//! The vector files (`vectors/<protocol>/*.json`, written by `cargo xtask vectors`)
//! through any implementation: `--vectors DIR` adds one check per file to the report,
//! `<protocol>/vectors.<kind>` (`vectors.positions`, `vectors.snapshots`,
//! `vectors.rejections`), every case sent with the ordinary operations of the adapter
//! protocol, pipelined, and every answer compared with the file's expectation. What
//! each file's cases ask and compare is its protocol's (`protocols/<protocol>/vectors.rs`,
//! through [`crate::protocols::Protocol::check_vectors`]).

use crate::protocol::Registry;
pub use crate::report::Failures;
use crate::report::{CheckOutcome, Failure};
use bloomproof_vectors::{FileKind, VectorFile};
use std::path::Path;
use std::time::Instant;

/// One loaded vector file: its path relative to the vectors folder and its cases.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// `doc-membership-v1/positions.json`, ...
    pub name: String,
    /// The file.
    pub file: VectorFile,
    /// Its check's name in the report: `vectors.<kind>`.
    check: String,
}

impl Loaded {
    /// The protocol of the file (its `protocol` header: a protocol of the registry it
    /// was loaded with).
    pub fn protocol(&self) -> &str {
        self.file.protocol()
    }

    /// The check name in the report: `vectors.<kind>`.
    pub fn check(&self) -> &str {
        &self.check
    }

    /// The check's conformance class: `interop` for the rejections (they pin the
    /// error's `field`, a name the sources never give), `core` for the others (every
    /// stage of the hashing and the packed bits, which the sources define).
    pub fn class(&self) -> crate::report::Class {
        if self.check == "vectors.rejections" {
            crate::report::Class::Interop
        } else {
            crate::report::Class::Core
        }
    }
}

/// Loads every vector file of `dir` (`<protocol>/<kind>.json` of every kind of
/// [`FileKind::ALL`], in its order), or the errors (each naming its file); a folder
/// with none is an error.
pub fn load(dir: &Path) -> Result<Vec<Loaded>, Vec<String>> {
    load_with(dir, Registry::BUILT_IN)
}

/// [`load`] for the protocols of `registry`, in its order: `<protocol>/<kind>.json` of
/// each kind of the protocol's vector format ([`crate::protocol::Protocol::vector_version`]),
/// a version's files read in its family's format under its own name, their cases held
/// to the version's bounds.
pub fn load_with(dir: &Path, registry: Registry) -> Result<Vec<Loaded>, Vec<String>> {
    let mut loaded = Vec::new();
    let mut errors = Vec::new();
    let files = registry.entries().iter().flat_map(|entry| {
        let version = entry.vector_version();
        FileKind::ALL
            .into_iter()
            .filter(move |kind| kind.protocol() == version.format)
            .map(move |kind| (version, kind))
    });
    for (version, kind) in files {
        let protocol = version.name;
        let name = format!("{protocol}/{}.json", kind.kind());
        let path = dir.join(protocol).join(format!("{}.json", kind.kind()));
        if !path.exists() {
            continue;
        }
        match bloomproof_vectors::load_file_in(&path, &[version]) {
            Ok(file) => loaded.push(Loaded {
                name,
                file,
                check: format!("vectors.{}", kind.kind()),
            }),
            Err(err) => errors.push(format!("{}: {err}", path.display())),
        }
    }
    if loaded.is_empty() && errors.is_empty() {
        errors.push(format!(
            "{}: no vector file (<protocol>/<kind>.json) in the folder",
            dir.display()
        ));
    }
    if errors.is_empty() {
        Ok(loaded)
    } else {
        Err(errors)
    }
}

/// Runs the cases of one vector file on the subjects, its protocol looked up in
/// `registry` (the run's: `Spec::registry`): one check outcome.
pub fn run_check(
    loaded: &Loaded,
    subjects: &mut crate::protocol::Subjects,
    registry: Registry,
) -> CheckOutcome {
    let started = Instant::now();
    let mut f = Failures::default();
    let cases = loaded.file.case_count();
    match registry.find(loaded.protocol()) {
        Some(entry) => entry.check_vectors(&loaded.file, subjects, &mut f),
        None => f.fail(
            &loaded.name,
            "the file's protocol".into(),
            serde_json::Value::Null,
            format!("a protocol of the run: {}", registry.names().join(", ")),
            loaded.protocol().to_string(),
        ),
    }
    if f.more > 0 {
        f.kept.push(Failure {
            case: loaded.name.clone(),
            what: format!("{} more failing comparisons not shown", f.more),
            input: serde_json::Value::Null,
            expected: String::new(),
            actual: String::new(),
        });
    }
    CheckOutcome {
        protocol: loaded.protocol().to_string(),
        name: loaded.check().to_string(),
        cases,
        class: loaded.class(),
        inside_implementation: None,
        failures: f.kept,
        more_failures: 0,
        crashed: false,
        elapsed_ms: Some(started.elapsed().as_secs_f64() * 1e3),
    }
}
