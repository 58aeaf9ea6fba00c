//! The failures page stays small with a failing implementation (issue 41, item 15):
//! with every case of 40 checks failing on a 4 KB input, `failures.html` shows each
//! check's failures folded by kind and cut as the terminal cuts them, a few kinds per
//! check; before, it held every failure with its whole input (705 KB, 1.2 million px
//! tall at 375 px). And its structure holds at any width (item 16): no table of
//! failures to scroll sideways, no two landmarks of one name.

use bloomproof_matrix::Matrix;
use bloomproof_matrix::page::{failures_html, html};
use serde_json::json;

/// 40 checks; `liar` fails every one on its 20 kept failures (two kinds: a wrong
/// answer, and one crash message), each case's input a 4 KB hex list; `rust` passes.
fn failing_matrix() -> Matrix {
    let checks: Vec<serde_json::Value> = (0..40)
        .map(|n| {
            json!({"name": format!("doc-membership-v1/check_{n}"), "asserts": "It holds.",
                   "source": "seed 000", "class": "core"})
        })
        .collect();
    let hex = "ab".repeat(2048);
    let cell = |n: usize, failing: bool| {
        let failures: Vec<serde_json::Value> = if failing {
            (0..20)
                .map(|case| {
                    json!({"case": format!("case-{case}"),
                           "what": if case < 19 { "lookup.duplicate".to_string() } else { format!("lookup #{case}") },
                           "input": {"items_hex": [hex.clone()], "m": 1024, "k": 7},
                           "expected": "false",
                           "actual": if case < 19 { "true".to_string() } else { format!("implementation failed: {}", "x".repeat(3000)) }})
                })
                .collect()
        } else {
            Vec::new()
        };
        json!({"check": format!("doc-membership-v1/check_{n}"),
               "status": if failing { "unexpected" } else { "passed" },
               "class": "core", "cases": 20, "failures": failures})
    };
    let implementation = |name: &str, failing: bool| {
        json!({"name": name, "language": "Rust", "command": null, "version": "1",
               "report_name": name, "passed": if failing { 0 } else { 40 }, "total": 40,
               "cells": (0..40).map(|n| cell(n, failing)).collect::<Vec<_>>()})
    };
    let errors: Vec<String> = (0..40)
        .map(|n| format!("liar: doc-membership-v1/check_{n} failed unexpectedly"))
        .collect();
    serde_json::from_value(json!({
        "spec_version": "0".repeat(64),
        "ran_at": "2026-12-06T00:00:00Z",
        "checks": checks,
        "implementations": [implementation("rust", false), implementation("liar", true)],
        "cross": [],
        "errors": errors,
    }))
    .expect("a matrix")
}

#[test]
fn the_failures_page_stays_a_few_kilobytes_per_failing_check() {
    let matrix = failing_matrix();
    let page = failures_html(&matrix);
    // 40 failing checks: at most 6 KB each (two kinds shown, each value cut to a line
    // or four; before, 20 failures with 4 KB inputs each: about 170 KB a check).
    let budget = 40 * 6 * 1024;
    assert!(
        page.len() < budget,
        "failures.html is {} bytes, over {budget}",
        page.len()
    );
    // Alike failures are folded into one, and said so; the crash is its own kind.
    assert!(page.contains("and 18 more failures like it"), "no fold");
    assert!(!page.contains(&"ab".repeat(100)), "an input is shown whole");
    // What the numbers count.
    assert!(page.contains("FAIL (20 failures in 20 of 20 cases)"));
}

#[test]
fn failures_are_stacked_and_landmarks_are_unique() {
    let matrix = failing_matrix();
    for page in [failures_html(&matrix), html(&matrix)] {
        // Each failure's fields are stacked (expected and actual always in view), not
        // the columns of a table wider than a phone.
        assert!(!page.contains("<th scope=\"col\">expected</th>"));
        assert!(page.contains("<dt>expected</dt>") && page.contains("<dt>actual</dt>"));
        // axe's landmark-unique: no two regions of one name.
        let mut labels: Vec<&str> = page
            .split("role=\"region\"")
            .skip(1)
            .filter_map(|rest| rest.split("aria-label=\"").nth(1))
            .filter_map(|rest| rest.split('"').next())
            .collect();
        let count = labels.len();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), count, "a region's name repeats: {labels:?}");
    }
}
