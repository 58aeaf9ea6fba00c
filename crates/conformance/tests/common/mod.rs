//! What the tests that plant a flaw in a subject share: the planted subjects, and
//! running the whole spec of `spec/` against a pair of subjects, and running the
//! production crates on a copy of the spec with one case edited.

#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

pub mod planted;

use bloomproof_conformance::generated::memo;
use bloomproof_conformance::protocols::{doc_membership_v1, fnv1a_utf16_v1};
use bloomproof_conformance::run::{Subjects, run};
use bloomproof_conformance::subjects::doc_membership_v1::DocSubject;
use bloomproof_conformance::subjects::fnv1a_utf16_v1::FnvSubject;
use bloomproof_conformance::{Report, Spec, load};
use serde_json::Value;
use std::path::Path;
use std::sync::OnceLock;

/// The spec of `spec/`. The first call also keeps expected values for the rest of the
/// test process (`generated::memo`): these tests run one spec's generated inputs again
/// and again against subjects that differ, and an expected value depends on its input
/// alone, so each is computed once.
pub fn spec() -> Spec {
    static KEPT: OnceLock<memo::Scope> = OnceLock::new();
    KEPT.get_or_init(memo::scope);
    load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")).unwrap()
}

/// The report of every check of `spec/` against `doc` and `fnv`.
pub fn report(
    doc: impl DocSubject + Send + 'static,
    fnv: impl FnvSubject + Send + 'static,
) -> Report {
    let spec = spec();
    let mut subjects = Subjects::rust()
        .with(doc_membership_v1::subject(Box::new(doc)))
        .with(fnv1a_utf16_v1::subject(Box::new(fnv)));
    run(&spec, &mut subjects, None)
}

/// The report of doc-membership-v1's checks alone against `doc` (the production
/// fnv1a-utf16-v1 subject beside it, whose checks are not run): a test that plants a
/// flaw in one protocol's subject learns nothing from the other's checks.
pub fn doc_report(doc: impl DocSubject + Send + 'static) -> Report {
    let mut subjects = Subjects::rust().with(doc_membership_v1::subject(Box::new(doc)));
    run(&spec(), &mut subjects, Some("doc-membership-v1/"))
}

/// The report of fnv1a-utf16-v1's checks alone against `fnv` (as [`doc_report`]).
pub fn fnv_report(fnv: impl FnvSubject + Send + 'static) -> Report {
    let mut subjects = Subjects::rust().with(fnv1a_utf16_v1::subject(Box::new(fnv)));
    run(&spec(), &mut subjects, Some("fnv1a-utf16-v1/"))
}

/// The production crates run on a copy of `spec/` in which `edit` changed the case
/// `id` of `protocol` (its whole JSON object); the copy must still load.
pub fn report_with_edit(protocol: &str, id: &str, edit: impl FnOnce(&mut Value)) -> Report {
    let spec = spec_with_edits(&mut [(protocol, id, Box::new(edit))]);
    run(&spec, &mut Subjects::rust(), None)
}

/// A case edit: its protocol, its id, and the change to its whole JSON object.
pub type Edit<'a> = (&'a str, &'a str, Box<dyn FnOnce(&mut Value) + 'a>);

/// A copy of `spec/`'s protocol folders (no adapter-protocol file) with each of `edits`
/// made; the copy must still load.
pub fn spec_with_edits(edits: &mut [Edit<'_>]) -> Spec {
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let dir = tempfile::tempdir().unwrap();
    let mut edits: Vec<_> = edits.iter_mut().map(|e| Some(e)).collect();
    for name in ["doc-membership-v1", "fnv1a-utf16-v1"] {
        std::fs::create_dir_all(dir.path().join(name)).unwrap();
        for file in ["checks.json", "cases.json"] {
            let text = std::fs::read_to_string(real.join(name).join(file)).unwrap();
            let mut value: Value = serde_json::from_str(&text).unwrap();
            for slot in &mut edits {
                let Some((protocol, id, _)) = slot.as_ref().map(|e| (e.0, e.1, ())) else {
                    continue;
                };
                if name != protocol || file != "cases.json" {
                    continue;
                }
                let case = value["cases"]
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .find(|c| c["id"] == id)
                    .unwrap_or_else(|| panic!("no case {id} in {protocol}"));
                let (_, _, edit) = slot.take().unwrap();
                let edit = std::mem::replace(edit, Box::new(|_| {}));
                edit(case);
            }
            std::fs::write(dir.path().join(name).join(file), value.to_string()).unwrap();
        }
    }
    assert!(edits.iter().all(Option::is_none), "every edit is made");
    load(dir.path()).unwrap_or_else(|errors| panic!("the edited spec loads: {errors:?}"))
}

/// The failures of `check` in `report`, as `case: what`.
pub fn failures(report: &Report, check: &str) -> Vec<String> {
    report
        .checks
        .iter()
        .filter(|c| c.name == check)
        .flat_map(|c| &c.failures)
        .map(|f| format!("{}: {}", f.case, f.what))
        .collect()
}
