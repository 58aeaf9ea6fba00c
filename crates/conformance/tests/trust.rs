//! The runner observes and judges: a wrong or lying subject cannot make a figure or a
//! verdict that it did not earn. Each test wraps the production subject in one
//! realistic flaw and asserts the report shows the flaw.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use bloomproof_conformance::Report;
use bloomproof_conformance::run::Subjects;
use bloomproof_conformance::subject::SubjectError;
use bloomproof_conformance::subjects::doc_membership_v1::{DocSubject, RustDoc};
use bloomproof_conformance::subjects::fnv1a_utf16_v1::{FnvSubject, RustFnv};
use bloomproof_wire::protocols::doc_membership_v1::MutationAttempt;
use common::planted::{PlantedDoc, PlantedFnv, with_h1};
use common::report;

fn failed(report: &Report) -> Vec<String> {
    report
        .checks
        .iter()
        .filter(|c| !c.passed())
        .map(|c| c.name.clone())
        .collect()
}

/// Drops the `field` of every contract error, as one of the wrappers did.
fn drops_field() -> PlantedDoc {
    PlantedDoc::new("flawed").on_typed(|real, call| {
        real.typed(call).map_err(|err| match err {
            SubjectError::Rejected { kind, message, .. } => SubjectError::Rejected {
                kind,
                field: None,
                message,
            },
            other => other,
        })
    })
}

/// The packed-bits buffer it hands out is its own state, so filling it with ff changes
/// the snapshot; yet every attempt is reported `impossible`, as a lying adapter would.
/// It cannot report anything but what the snapshot then shows.
fn aliases_bits() -> PlantedDoc {
    PlantedDoc::new("flawed").on_mutate(|real, p, records, other, attempt, probes| {
        let mut mutation = real.mutate(p, records, other, attempt, probes)?;
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
        Ok(mutation)
    })
}

/// Packs big-endian: `d291` comes out as `91d2`.
fn big_endian() -> PlantedDoc {
    PlantedDoc::new("flawed")
        .on_build(|real, p, records| {
            let mut built = real.build(p, records)?;
            built.packed_bits.reverse();
            Ok(built)
        })
        .on_read(|real, p, r, bits, i| {
            let mut bits = bits.to_vec();
            bits.reverse();
            real.read(p, r, &bits, i)
        })
        .on_mutate(|real, p, records, other, attempt, probes| {
            let mut mutation = real.mutate(p, records, other, attempt, probes)?;
            mutation.observed.packed_bits.reverse();
            Ok(mutation)
        })
}

#[test]
fn a_contract_error_without_its_field_fails() {
    let report = report(drops_field(), RustFnv);
    // Seed 000 names no field: the kinds stay core and pass; the field names are
    // bloomproof's, judged by interop checks alone (the written cases' and the
    // generated typed contract's).
    assert_eq!(
        failed(&report),
        [
            "contract_errors_name_their_field",
            "generated_typed_contract_fields"
        ]
    );
    assert_eq!(report.failed, 0, "{}", report.render_text());
    assert_eq!(
        report
            .class_count(bloomproof_conformance::report::Class::Interop)
            .failed,
        2
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
    let report = report(aliases_bits(), RustFnv);
    assert_eq!(failed(&report), ["snapshot_fields_are_immutable"]);
    let text = report.render_text();
    assert!(
        text.contains(
            "after mutate_returned_bits (the implementation says impossible: \
             nothing tried: the snapshot is unchanged)"
        ) && text.contains("packed bits")
            && text.contains("expected: \"d291\"")
            && text.contains("actual:   \"ffff\""),
        "{text}"
    );
}

/// A snapshot that deliberate tampering changes, as seed 000's frozen dataclass is:
/// after `bypass_guards` or `reconstruct` it shows the other snapshot's parameters.
fn tamperable() -> PlantedDoc {
    PlantedDoc::new("tamperable").on_mutate(|real, p, records, other, attempt, probes| {
        let mut mutation = real.mutate(p, records, other, attempt, probes)?;
        if matches!(
            attempt,
            MutationAttempt::BypassGuards | MutationAttempt::Reconstruct
        ) {
            mutation.observed.m = other.0.m;
            mutation.observed.k = other.0.k;
        }
        Ok(mutation)
    })
}

#[test]
fn tampering_counts_apart_from_the_verdict() {
    use bloomproof_conformance::report::Class;
    let report = report(tamperable(), RustFnv);
    assert_eq!(failed(&report), ["snapshot_resists_tampering"]);
    let hardening = report.class_count(Class::Hardening);
    assert_eq!((report.failed, hardening.failed), (0, 1));
    assert!(!hardening.in_verdict);
    // Every other hardening check (of any protocol) passes on the honest subjects.
    let count = |class| report.checks.iter().filter(|c| c.class == class).count();
    assert_eq!(hardening.passed, count(Class::Hardening) - 1);
    assert_eq!(report.passed, count(Class::Core) + count(Class::Adapter));
    let text = report.render_text();
    assert!(
        text.contains(&format!(
            "hardening: {} passed, 1 failed (not in the verdict: --require hardening counts it)\n",
            count(Class::Hardening) - 1
        )) && text.ends_with(&format!("{} passed, 0 failed\n", report.passed))
            && text.contains(
                "snapshot_resists_tampering                               2 cases  (hardening)"
            ),
        "{text}"
    );
    // Required, the same failure fails the verdict.
    let required = report.clone().requiring(&[Class::Hardening]);
    assert_eq!(required.failed, 1);
    assert!(required.class_count(Class::Hardening).in_verdict);
    let text = required.render_text();
    assert!(
        text.contains("hardening: ") && !text.contains("--require hardening counts it"),
        "{text}"
    );
    assert!(
        text.ends_with(&format!("{} passed, 1 failed\n", required.passed)),
        "{text}"
    );
}

/// h1 + 1 for every string, as one of the wrappers did.
fn wrong_h1() -> PlantedFnv {
    PlantedFnv::new("h1 + 1").on_positions(|real, m, k, units| {
        let hashes = real.positions(m, k, units)?;
        let h1 = hashes.h1.wrapping_add(1);
        Ok(with_h1(hashes, h1, m, k))
    })
}

#[test]
fn figures_are_the_subjects_own_answers() {
    let report = report(big_endian(), wrong_h1());
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
    let silent = PlantedFnv::new("silent")
        .on_positions(|_, _, _, _| Err(SubjectError::Broken("no answer".into())));
    let text = report(RustDoc::v1(), silent).render_text();
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
        text.contains("\ntime: ") && text.contains(" ms wall clock (checks on 1 thread)"),
        "{text}"
    );
    assert!(!one.without_times().render_text().contains("time: "));
}

/// The JSON report is a wire type (`spec/schemas/report.schema.json`): a report with
/// failures, figures that differ and figures never observed reads back as written.
#[test]
fn a_report_reads_back_as_written() {
    let report = report(big_endian(), wrong_h1());
    assert!(report.failed > 0 && !report.figures.is_empty());
    let text = serde_json::to_string(&report).expect("the report serialises");
    let read: Report = serde_json::from_str(&text).expect("the report reads back");
    assert_eq!(read, report);
}

/// The page's estimates panel alone (a faithful reading of seed 002): the classic
/// approximation as every estimate, the textbook optimal k (the largest on a tie).
fn classic_only() -> PlantedFnv {
    PlantedFnv::new("classic only").on_estimates(|real, m, k, n| {
        let mut answer = real.estimates(m, k, n)?;
        answer.finite_m = answer.classic;
        answer.exact = answer.classic;
        Ok(answer)
    })
}

#[test]
fn the_classic_estimate_alone_passes_core_and_fails_interop() {
    use bloomproof_conformance::report::Class;
    let faithful = report(RustDoc::v1(), classic_only());
    let names = failed(&faithful);
    assert!(
        !names.is_empty(),
        "the finite-m and exact estimates are pinned"
    );
    for name in &names {
        let check = faithful.checks.iter().find(|c| &c.name == name).unwrap();
        assert_eq!(check.class, Class::Interop, "{name} is core and fails");
    }
    assert_eq!(faithful.failed, 0, "{}", faithful.render_text());
    // A wrong classic estimate fails the core check.
    let wrong = PlantedFnv::new("classic + 1e-3").on_estimates(|real, m, k, n| {
        let mut answer = real.estimates(m, k, n)?;
        answer.classic += 1e-3;
        Ok(answer)
    });
    let wrong = report(RustDoc::v1(), wrong);
    assert!(
        failed(&wrong).contains(&"classic_estimate_pinned".to_string()) && wrong.failed > 0,
        "{}",
        wrong.render_text()
    );
}
