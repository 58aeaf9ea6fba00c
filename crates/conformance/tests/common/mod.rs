//! What the tests that plant a flaw in a subject share: the planted subjects, and
//! running the whole spec of `spec/` against a pair of subjects.

#![allow(dead_code, clippy::unwrap_used)]

pub mod planted;

use bloomproof_conformance::run::{Subjects, run};
use bloomproof_conformance::subject::{DocSubject, FnvSubject};
use bloomproof_conformance::{Report, Spec, load};
use std::path::Path;

/// The spec of `spec/`.
pub fn spec() -> Spec {
    load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")).unwrap()
}

/// The report of every check of `spec/` against `doc` and `fnv`.
pub fn report(
    doc: impl DocSubject + Send + 'static,
    fnv: impl FnvSubject + Send + 'static,
) -> Report {
    let spec = spec();
    let mut subjects = Subjects {
        doc: Box::new(doc),
        fnv: Box::new(fnv),
    };
    run(&spec, &mut subjects, None)
}
