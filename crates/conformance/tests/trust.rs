//! The runner observes and judges: a wrong or lying subject cannot make a figure or a
//! verdict that it did not earn. Each test wraps the production subject in one
//! realistic flaw and asserts the report shows the flaw.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use bloomproof_conformance::Report;
use bloomproof_conformance::model::{MutationAttempt, ScriptOp, TypedValue};
use bloomproof_conformance::run::Subjects;
use bloomproof_conformance::subject::{
    Answer, Built, DocSubject, EstimatesAnswer, FnvHashes, FnvSubject, Framed, Mutation, RawParams,
    RustDoc, RustFnv, ScriptAnswer, SubjectError, Triple,
};
use common::report;

fn failed(report: &Report) -> Vec<String> {
    report
        .checks
        .iter()
        .filter(|c| !c.passed())
        .map(|c| c.name.clone())
        .collect()
}

/// The production subject with planted flaws, each off unless a test turns it on.
#[derive(Clone, Copy, Default)]
struct Flawed {
    /// Drops the `field` of every contract error, as one of the wrappers did.
    drop_field: bool,
    /// The packed-bits buffer it hands out is its own state, so filling it with ff
    /// changes the snapshot; yet every attempt is reported `impossible`, as a lying
    /// adapter would. It cannot report anything but what the snapshot then shows.
    alias_bits: bool,
    /// Packs big-endian: `d291` comes out as `91d2`.
    big_endian: bool,
}

impl DocSubject for Flawed {
    fn name(&self) -> String {
        "flawed".into()
    }
    fn sha256(&mut self, data: &[u8]) -> Answer<Vec<u8>> {
        RustDoc.sha256(data)
    }
    fn frame(&mut self, p: &RawParams, index: u8, item: &[u8]) -> Answer<Framed> {
        RustDoc.frame(p, index, item)
    }
    fn positions(&mut self, p: &RawParams, item: &[u8]) -> Answer<Vec<u16>> {
        RustDoc.positions(p, item)
    }
    fn build(&mut self, p: &RawParams, records: &[Vec<u8>]) -> Answer<Built> {
        let mut built = RustDoc.build(p, records)?;
        if self.big_endian {
            built.packed_bits.reverse();
        }
        Ok(built)
    }
    fn lookup(&mut self, p: &RawParams, r: &[Vec<u8>], i: &[Vec<u8>]) -> Answer<Vec<Triple>> {
        RustDoc.lookup(p, r, i)
    }
    fn read(
        &mut self,
        p: &RawParams,
        r: &[Vec<u8>],
        bits: &[u8],
        i: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let mut bits = bits.to_vec();
        if self.big_endian {
            bits.reverse();
        }
        RustDoc.read(p, r, &bits, i)
    }
    fn typed(
        &mut self,
        records: &TypedValue,
        m: &TypedValue,
        k: &TypedValue,
        seed: &TypedValue,
        item: Option<&TypedValue>,
    ) -> Answer<Option<Triple>> {
        let drop_field = self.drop_field;
        RustDoc
            .typed(records, m, k, seed, item)
            .map_err(|err| match err {
                SubjectError::Rejected { kind, message, .. } if drop_field => {
                    SubjectError::Rejected {
                        kind,
                        field: None,
                        message,
                    }
                }
                other => other,
            })
    }
    fn mutate(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        other: (&RawParams, &[Vec<u8>]),
        attempt: MutationAttempt,
        probes: &[Vec<u8>],
    ) -> Answer<Mutation> {
        let mut mutation = RustDoc.mutate(p, records, other, attempt, probes)?;
        if self.big_endian {
            mutation.observed.packed_bits.reverse();
        }
        if self.alias_bits {
            mutation.outcome = "impossible".into();
            mutation.detail = "nothing tried: the snapshot is unchanged".into();
            if attempt == MutationAttempt::MutateReturnedBits {
                let seen = &mut mutation.observed;
                seen.packed_bits.fill(0xff);
                let used = p.m % 8;
                if let (Some(last), true) = (seen.packed_bits.last_mut(), used != 0) {
                    *last >>= 8 - used;
                }
                for (probe, triple) in probes.iter().zip(&mut seen.lookups) {
                    triple.maybe_present = true;
                    triple.exact_checked = true;
                    triple.duplicate = records.contains(probe);
                }
            }
        }
        Ok(mutation)
    }
}

#[test]
fn a_contract_error_without_its_field_fails() {
    let report = report(
        Flawed {
            drop_field: true,
            ..Flawed::default()
        },
        RustFnv,
    );
    assert_eq!(
        failed(&report),
        [
            "parameter_types_and_limits_rejected",
            "record_and_query_contract_rejected"
        ]
    );
    let text = report.render_text();
    assert!(
        text.contains("field named by the error")
            && text.contains("expected: \"m\"")
            && text.contains("no field: every contract error must name its field"),
        "{text}"
    );
}

#[test]
fn saying_unchanged_does_not_pass_a_snapshot_that_changed() {
    let report = report(
        Flawed {
            alias_bits: true,
            ..Flawed::default()
        },
        RustFnv,
    );
    assert_eq!(failed(&report), ["snapshot_fields_are_immutable"]);
    let text = report.render_text();
    assert!(
        text.contains("after mutate_returned_bits (the implementation says impossible")
            && text.contains("packed bits")
            && text.contains("expected: d291")
            && text.contains("actual:   ffff"),
        "{text}"
    );
}

/// h1 + 1 for every string, as one of the wrappers did.
struct WrongH1;

impl FnvSubject for WrongH1 {
    fn name(&self) -> String {
        "h1 + 1".into()
    }
    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        let mut hashes = RustFnv.positions(m, k, units)?;
        hashes.h1 = hashes.h1.wrapping_add(1);
        hashes.positions = (0..k)
            .map(|i| {
                let p = (u64::from(hashes.h1) + i * u64::from(hashes.h2)) % m;
                u16::try_from(p).unwrap()
            })
            .collect();
        Ok(hashes)
    }
    fn session(&mut self, script: &[ScriptOp]) -> Answer<ScriptAnswer> {
        RustFnv.session(script)
    }
    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        RustFnv.estimates(m, k, n)
    }
}

#[test]
fn figures_are_the_subjects_own_answers() {
    let report = report(
        Flawed {
            big_endian: true,
            ..Flawed::default()
        },
        WrongH1,
    );
    let text = report.render_text();
    for line in [
        "a.h1: 3826002221 (published 3826002220) DIFFERS",
        "a.h2: 428013963 (published 428013963)\n",
        "fixture.packed_little_endian_hex: \"91d2\" (published \"d291\") DIFFERS",
        // Bit counts do not depend on the byte order: the same as published.
        "fixture.occupied_bits: 7 (published 7)\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    let a_position = text
        .lines()
        .find(|l| l.contains("m8_k1.position(a):"))
        .expect("a figure line for a");
    assert!(a_position.ends_with("DIFFERS"), "{a_position}");
    assert!(report.failed >= 5, "{:?}", failed(&report));
}

#[test]
fn a_published_figure_the_subject_never_gave_is_not_observed() {
    struct Silent;
    impl FnvSubject for Silent {
        fn name(&self) -> String {
            "silent".into()
        }
        fn positions(&mut self, _: u64, _: u64, _: &[u16]) -> Answer<FnvHashes> {
            Err(SubjectError::Broken("no answer".into()))
        }
        fn session(&mut self, script: &[ScriptOp]) -> Answer<ScriptAnswer> {
            RustFnv.session(script)
        }
        fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
            RustFnv.estimates(m, k, n)
        }
    }
    let text = report(RustDoc, Silent).render_text();
    assert!(
        text.contains("a.h1: not observed (published 3826002220)"),
        "{text}"
    );
}

/// Checks run on several threads report exactly what they report one after the other:
/// the same outcomes in spec order, the same figures in the same order; only the times
/// differ.
#[test]
fn a_run_on_threads_reports_what_a_run_on_one_thread_reports() {
    use bloomproof_conformance::run::run_with_threads;
    let spec = common::spec();
    let one = run_with_threads(&spec, &mut Subjects::rust(), None, 1);
    let four = run_with_threads(&spec, &mut Subjects::rust(), None, 4);
    assert_eq!((one.threads, four.threads), (Some(1), Some(4)));
    assert!(one.checks.iter().all(|c| c.elapsed_ms.is_some()));
    assert_eq!(one.clone().without_times(), four.clone().without_times());
    assert_eq!(
        one.clone().without_times().render_text(),
        four.without_times().render_text()
    );
    let text = one.render_text();
    assert!(
        text.contains("\ntime: ") && text.contains(" on 1 thread "),
        "{text}"
    );
    assert!(!one.without_times().render_text().contains("time: "));
}
