//! `--fail-fast` (`Spec::fail_fast`): a run that stops after its first failed check
//! the verdict counts is the whole run cut right after that check, on any number of
//! threads, in process and through an adapter; a failure the verdict does not count
//! never stops it; the report names the check and counts what was not run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use bloomproof_conformance::adapter_checks::run_listed;
use bloomproof_conformance::run::{FailFast, Subjects, run_with_threads};
use bloomproof_conformance::{Report, Spec, load};
use bloomproof_wire::adapter_checks::WireExpect;
use bloomproof_wire::report::{CheckOutcome, Class, FailedFast, Failure};
use common::Edit;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

/// A copy of the spec in which an interop check (`clearing_shared_bit_...`, the 10th
/// doc check) and, after it, a core check (`parameter_boundaries_pinned`, the 16th)
/// each have a case whose expected value is wrong: the Rust implementation fails both.
fn two_failures() -> Spec {
    let cleared: Edit<'_> = (
        "doc-membership-v1",
        "10-fixture/doc-00..03",
        Box::new(|case: &mut Value| case["expect"]["cleared_bit"] = json!(5)),
    );
    let packed: Edit<'_> = (
        "doc-membership-v1",
        "16-boundary/m8-k1-no-seed",
        Box::new(|case: &mut Value| {
            let wrong = if case["expect"]["packed_hex"] == "ff" {
                "fe"
            } else {
                "ff"
            };
            case["expect"]["packed_hex"] = json!(wrong);
        }),
    );
    common::spec_with_edits(&mut [cleared, packed])
}

/// The run's outcomes without their times.
fn checks(report: &Report) -> Vec<CheckOutcome> {
    report.clone().without_times().checks
}

fn run(spec: &Spec, threads: usize) -> Report {
    run_with_threads(spec, &mut Subjects::rust(), None, threads)
}

#[test]
fn a_fail_fast_run_is_the_whole_run_cut_after_its_first_counted_failure() {
    let mut spec = two_failures();
    let whole = run(&spec, 2);
    let names: Vec<String> = whole.checks.iter().map(CheckOutcome::full_name).collect();
    let at = |name: &str| names.iter().position(|n| n.ends_with(name)).unwrap();
    let (interop, core) = (
        at("/clearing_shared_bit_breaks_no_false_negative_contract"),
        at("/parameter_boundaries_pinned"),
    );
    assert!(interop < core, "{names:?}");
    let failed: Vec<&String> = whole
        .checks
        .iter()
        .zip(&names)
        .filter(|(c, _)| !c.passed())
        .map(|(_, n)| n)
        .collect();
    assert_eq!(failed, [&names[interop], &names[core]]);
    assert_eq!(whole.failed_fast, None);

    // Core and the adapter protocol stop the run; the interop failure before does not.
    spec.fail_fast = Some(FailFast::default());
    for threads in [1, 2, 4] {
        let fast = run(&spec, threads);
        assert_eq!(checks(&fast), checks(&whole)[..=core], "{threads} threads");
        assert_eq!(
            fast.failed_fast,
            Some(FailedFast {
                check: names[core].clone(),
                not_run: names.len() - core - 1,
            }),
            "{threads} threads"
        );
        assert_eq!(fast.failed, 1);
    }
    // `--require interop`: the interop failure counts, and stops it.
    spec.fail_fast = Some(FailFast {
        classes: vec![Class::Interop],
        fixed: false,
    });
    for threads in [1, 3] {
        let fast = run(&spec, threads);
        assert_eq!(
            checks(&fast),
            checks(&whole)[..=interop],
            "{threads} threads"
        );
        assert_eq!(
            fast.failed_fast.as_ref().map(|f| (&f.check, f.not_run)),
            Some((&names[interop], names.len() - interop - 1))
        );
    }
    // The text report says where it stopped and what it left.
    let text = run(&spec, 2).without_times().render_text();
    let line = format!(
        "stopped at the first failed check (--fail-fast): {}; {} checks after it not run",
        names[interop],
        names.len() - interop - 1
    );
    assert!(text.contains(&line), "{text}");
}

#[test]
fn a_fail_fast_run_that_meets_no_failure_runs_every_check() {
    let mut spec = common::spec();
    let whole = run(&spec, 2);
    spec.fail_fast = Some(FailFast {
        classes: Class::OPTIONAL.to_vec(),
        fixed: false,
    });
    let fast = run(&spec, 2);
    assert_eq!(checks(&fast), checks(&whole));
    assert_eq!(fast.failed_fast, None);
    assert!(!fast.render_text().contains("--fail-fast"));
}

/// Through an adapter, the adapter protocol's own cases: a case of its third check
/// made to expect what no adapter answers stops the run after that check (its every
/// case run); the checks before it ran whole, on both of the runner's threads (the
/// cases that need a fresh process run beside the others).
#[test]
fn the_adapter_protocol_checks_stop_at_their_first_failed_case() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let spec = load(&root.join("spec")).unwrap();
    let mut wire = spec.wire.clone().unwrap();
    let third = wire.checks[2].name.clone();
    let case = wire.cases.iter_mut().find(|c| c.check == third).unwrap();
    case.expect = WireExpect::NoAnswer;
    let case_id = case.id.clone();
    let python = format!(
        "python3 '{}'",
        root.join("implementations/python/bloomproof_py/adapter.py")
            .display()
    );
    let listed = ["doc-membership-v1".to_owned(), "fnv1a-utf16-v1".to_owned()];
    let timeout = Duration::from_secs(30);
    let (whole, _, none) = run_listed(&wire, &python, timeout, None, &listed, None);
    assert_eq!(none, 0);
    let failed: Vec<&str> = whole
        .iter()
        .filter(|c| !c.passed())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(failed, [third.as_str()]);
    let (fast, _, not_run) = run_listed(
        &wire,
        &python,
        timeout,
        None,
        &listed,
        Some((&FailFast::default(), &BTreeSet::new())),
    );
    let names = |outcomes: &[CheckOutcome]| -> Vec<String> {
        outcomes.iter().map(|c| c.name.clone()).collect()
    };
    assert_eq!(names(&fast), names(&whole[..3]));
    assert_eq!(not_run, whole.len() - 3);
    for (fast, whole) in fast.iter().zip(&whole).take(2) {
        assert_eq!(
            (fast.cases, fast.passed()),
            (whole.cases, true),
            "{}",
            fast.name
        );
    }
    // The failed check ran whole (its other cases passed).
    assert_eq!((fast[2].passed(), fast[2].cases), (false, whole[2].cases));
    assert_eq!(fast[2].failures.len(), 1);
    // `fixed`: the same stop, unless the failed case is one the seed draws.
    let fixed = FailFast {
        classes: Vec::new(),
        fixed: true,
    };
    let (same, _, not_run) = run_listed(
        &wire,
        &python,
        timeout,
        None,
        &listed,
        Some((&fixed, &BTreeSet::new())),
    );
    assert_eq!((names(&same), not_run), (names(&fast), whole.len() - 3));
    let drawn = BTreeSet::from([case_id.clone()]);
    let (all, _, not_run) = run_listed(
        &wire,
        &python,
        timeout,
        None,
        &listed,
        Some((&fixed, &drawn)),
    );
    assert_eq!((names(&all), not_run), (names(&whole), 0));
}

/// What stops a run: a failure of a check the verdict counts; under `fixed`, only
/// when one of its failures is of a case that draws no generated input.
#[test]
fn what_stops_a_run() {
    let failure = |case: &str| Failure {
        case: case.to_owned(),
        what: String::new(),
        input: Value::Null,
        expected: String::new(),
        actual: String::new(),
    };
    let drawn = |id: &str| id.starts_with("generated/");
    let any = FailFast::default();
    let fixed = FailFast {
        classes: vec![Class::Hardening],
        fixed: true,
    };
    let (generated, file) = (failure("generated/a"), failure("case-1"));
    assert!(!any.stops(Class::Core, &[], drawn));
    assert!(any.stops(Class::Core, std::slice::from_ref(&generated), drawn));
    assert!(any.stops(Class::Adapter, std::slice::from_ref(&file), drawn));
    assert!(!any.stops(Class::Interop, std::slice::from_ref(&file), drawn));
    assert!(!fixed.stops(Class::Core, std::slice::from_ref(&generated), drawn));
    assert!(fixed.stops(Class::Core, &[generated.clone(), file.clone()], drawn));
    assert!(fixed.stops(Class::Hardening, std::slice::from_ref(&file), drawn));
    assert!(!fixed.stops(Class::Interop, &[file], drawn));
}

/// `--skip` (`Spec::skip`): a check whose full name holds a skip text is left out of the
/// run and of its report, the accumulated digests as the documented checks; every other
/// check runs as in the whole run, to the same outcome.
#[test]
fn a_skipped_check_is_left_out_and_the_rest_run_as_before() {
    let mut spec = common::spec();
    let group = Some("fnv1a-utf16-v1/");
    let whole = checks(&run_with_threads(&spec, &mut Subjects::rust(), group, 2));
    spec.skip = vec!["/generated_".to_owned(), "-v1/accumulated".to_owned()];
    let skipped = checks(&run_with_threads(&spec, &mut Subjects::rust(), group, 2));
    let left_out = |c: &CheckOutcome| {
        let name = c.full_name();
        name.contains("/generated_") || name.ends_with("/accumulated")
    };
    let kept: Vec<CheckOutcome> = whole.iter().filter(|c| !left_out(c)).cloned().collect();
    assert!(
        whole
            .iter()
            .any(|c| c.full_name().ends_with("/accumulated"))
    );
    assert!(whole.iter().filter(|c| left_out(c)).count() >= 2);
    assert_eq!(skipped, kept);
}
