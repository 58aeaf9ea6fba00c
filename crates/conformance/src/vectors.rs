//! The vector files (`vectors/<protocol>/*.json`, written by `cargo xtask vectors`)
//! through any implementation: `--vectors DIR` adds one check per file to the report,
//! `<protocol>/vectors.<kind>` (`vectors.positions`, `vectors.snapshots`,
//! `vectors.rejections`), every case sent with the ordinary operations of the adapter
//! protocol, pipelined, and every answer compared with the file's expectation. What
//! each file's cases ask and compare is its protocol's (`protocols/<protocol>/vectors.rs`,
//! through [`crate::protocols::Protocol::check_vectors`]).

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
    /// The protocol of the file.
    pub fn protocol(&self) -> &'static str {
        self.file.file_kind().protocol()
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
    let mut loaded = Vec::new();
    let mut errors = Vec::new();
    for kind in FileKind::ALL {
        let name = format!("{}/{}.json", kind.protocol(), kind.kind());
        let path = dir
            .join(kind.protocol())
            .join(format!("{}.json", kind.kind()));
        if !path.exists() {
            continue;
        }
        match bloomproof_vectors::load_file(&path) {
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

/// Runs the cases of one vector file on the subjects: one check outcome.
pub fn run_check(loaded: &Loaded, subjects: &mut crate::protocol::Subjects) -> CheckOutcome {
    let started = Instant::now();
    let mut f = Failures::default();
    let cases = loaded.file.case_count();
    match crate::protocols::find(loaded.protocol()) {
        Some(entry) => entry.check_vectors(&loaded.file, subjects, &mut f),
        None => f.fail(
            &loaded.name,
            "the file's protocol".into(),
            serde_json::Value::Null,
            "a protocol this runner knows".into(),
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
