//! The spec checks its own cases where a check's premise is a property of the data: a
//! `positions_without_32_bit_wrap` case must exercise a wrap that changes a position, a
//! `repeated_positions_kept_in_order` case must repeat one, an
//! `empty_snapshot_definitely_absent` case must have no records. Each test copies the
//! real spec, gives one case data that is right about the hashes but misses the
//! premise, and runs the production crates on it: the check must fail on that case,
//! naming the premise.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use bloomproof_conformance::Report;
use bloomproof_conformance::run::{Subjects, run};
use common::{failures, report_with_edit};
use serde_json::{Value, json};

fn run_with(protocol: &str, id: &str, input: Value, expect: Value) -> Report {
    report_with_edit(protocol, id, |case| {
        case["input"] = input;
        case["expect"] = expect;
    })
}

/// "a" at m 8 and m 1000, with the hashes and positions the seed's FNV-1a gives
/// (h1 + i*h2 without a wrap).
fn a_at(m: u64, k: usize, positions: &[u32]) -> (Value, Value) {
    (
        json!({"m": m, "k": k, "units": [97], "text": "a"}),
        json!({"h1": 3_826_002_220_u32, "h2": 428_013_963_u32, "positions": positions}),
    )
}

/// A wrap case that is right about the hashes but exercises no wrap that matters fails
/// the premise: sums that stay below 2^32 (h1 + h2 = 4254016183 at k = 2), and sums past
/// it whose wrap changes no position (m = 8 divides 2^32).
#[test]
fn a_wrap_case_without_a_wrap_that_changes_a_position_fails() {
    for (m, k, positions) in [
        (1000, 2, &[220, 183][..]),
        (8, 12, &[4, 7, 2, 5, 0, 3, 6, 1, 4, 7, 2, 5][..]),
    ] {
        let (input, expect) = a_at(m, k, positions);
        let report = run_with("fnv1a-utf16-v1", "02-wrap/97-m1000", input, expect);
        assert_eq!(
            failures(&report, "positions_without_32_bit_wrap"),
            ["02-wrap/97-m1000: the case exercises a wrap (spec)"],
            "m {m}, k {k}"
        );
    }
}

#[test]
fn a_repeat_case_without_a_repeat_fails() {
    let (input, expect) = a_at(8, 1, &[4]);
    let report = run_with("fnv1a-utf16-v1", "03-m8-k12/a", input, expect);
    assert_eq!(
        failures(&report, "repeated_positions_kept_in_order"),
        ["03-m8-k12/a: the case repeats a position (spec)"]
    );
}

#[test]
fn an_empty_snapshot_case_with_a_record_fails() {
    // m 8, k 1, no seed, the record "a": what production builds (bit 1 set, packed 02).
    let input = json!({"params": {"m": 8, "k": 1, "seed_hex": ""}, "records_hex": ["61"]});
    let expect = json!({"bits_set": 1, "packed_hex": "02", "documents": 1});
    let report = run_with("doc-membership-v1", "01-empty/m8-k1-no-seed", input, expect);
    let failed = failures(&report, "empty_snapshot_definitely_absent");
    assert!(
        failed.contains(&"01-empty/m8-k1-no-seed: the snapshot has no records".to_string()),
        "{failed:?}"
    );
}

/// The unedited spec passes every one of these checks: the premises hold on the data.
#[test]
fn the_real_cases_meet_their_premises() {
    let report = run(&common::spec(), &mut Subjects::rust(), None);
    for check in [
        "positions_without_32_bit_wrap",
        "repeated_positions_kept_in_order",
        "empty_snapshot_definitely_absent",
    ] {
        assert_eq!(failures(&report, check), Vec::<String>::new(), "{check}");
    }
}
