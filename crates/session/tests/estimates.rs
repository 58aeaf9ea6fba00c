//! Estimates against independently derived values.
//!
//! The expected values were computed once in Python 3.11 with exact rational
//! arithmetic (`fractions.Fraction`, big integers) and printed as the nearest
//! `f64` (`float(...)`, `repr`):
//! * `exact` by a different route from the crate's dynamic program: with `D`
//!   the number of distinct query positions, `P(D = d) = C(m,d) d! S(k,d) / m^k`
//!   (Stirling numbers of the second kind), and the probability that `d` given
//!   bits are all hit by `t = k n` throws is, by inclusion-exclusion,
//!   `sum_i (-1)^i C(d,i) ((m-i)/m)^t`; so `exact = sum_d P(D=d) sum_i ...`,
//!   an alternating sum that is only usable in exact arithmetic. For the points
//!   with `k n m <= 20000` it was also checked equal to an exact-rational run
//!   of the dynamic program.
//! * `finite_m` as the exact rational `(1 - (1 - 1/m)^(k n))^k`.
//! * `classic` with `decimal` at 60 digits: `(1 - exp(-k n / m))^k`.
//! * `optimal_k` as the argmin over k = 1..=12 of the 60-digit classic value.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use bloomproof_session::{Op, estimates};
use common::*;

/// (m, k, n, exact, classic, finite_m)
const POINTS: [(u32, u32, u32, f64, f64, f64); 13] = [
    (
        8,
        1,
        8,
        0.6563910841941833,
        0.6321205588285577,
        0.6563910841941833,
    ),
    (
        8,
        2,
        3,
        0.3142399787902832,
        0.2783970546664004,
        0.30382660079339985,
    ),
    (
        16,
        3,
        4,
        0.16495523553193697,
        0.14689159766038104,
        0.15663301567894627,
    ),
    (
        10,
        4,
        5,
        0.6304955467695227,
        0.5589731543071914,
        0.5954091125872011,
    ),
    (
        64,
        3,
        10,
        0.054266781700069315,
        0.05240431197109771,
        0.0533814409694391,
    ),
    (
        100,
        7,
        50,
        0.8145040077991521,
        0.8068326430734151,
        0.8099087504071338,
    ),
    (
        8,
        12,
        1,
        0.18023423533325167,
        0.04832580929503091,
        0.06727274928795136,
    ),
    (
        1024,
        1,
        1,
        0.0009765625,
        0.0009760858180243377,
        0.0009765625,
    ),
    (
        1024,
        12,
        1024,
        0.9999270953108779,
        0.9999262719432979,
        0.9999267029458038,
    ),
    (8, 12, 1024, 1.0, 1.0, 1.0),
    (
        1024,
        12,
        1,
        6.432876461365778e-24,
        6.252719734356995e-24,
        6.289263666102916e-24,
    ),
    (
        512,
        6,
        100,
        0.10912966104881408,
        0.10811956485628409,
        0.10845344395245493,
    ),
    (
        1000,
        10,
        300,
        0.6017426624706439,
        0.6000802939755077,
        0.6005520457957465,
    ),
];

fn close(got: f64, want: f64, relative: f64) -> bool {
    (got - want).abs() <= relative * want.abs()
}

#[test]
fn estimates_match_exact_rational_values() {
    for (m, k, n, exact, classic, finite_m) in POINTS {
        let e = estimates(m, k, n);
        assert_eq!((e.m, e.k, e.n), (m, k, n));
        assert!(
            close(e.exact, exact, 1e-12),
            "exact {m} {k} {n}: {} vs {exact}",
            e.exact
        );
        assert!(
            close(e.classic, classic, 1e-13),
            "classic {m} {k} {n}: {} vs {classic}",
            e.classic
        );
        assert!(
            close(e.finite_m, finite_m, 1e-13),
            "finite_m {m} {k} {n}: {} vs {finite_m}",
            e.finite_m
        );
    }
}

#[test]
fn small_exact_fractions() {
    // Exact fractions (Python, both routes agree): 11012415/2^24, 659009/2^21.
    assert!(close(
        estimates(8, 1, 8).exact,
        11_012_415.0 / 16_777_216.0,
        1e-15
    ));
    assert!(close(
        estimates(8, 2, 3).exact,
        659_009.0 / 2_097_152.0,
        1e-15
    ));
    // n = 1, k = 1: one set bit, probability 1/m.
    assert_eq!(estimates(1024, 1, 1).exact, 1.0 / 1024.0);
}

#[test]
fn optimal_k_minimises_the_classic_estimate() {
    for (m, n, want) in [
        (64, 10, 4),
        (1024, 1024, 1),
        (1024, 50, 12),
        (8, 8, 1),
        (100, 7, 10),
        (16, 3, 4),
    ] {
        assert_eq!(estimates(m, 3, n).optimal_k, want, "m={m} n={n}");
    }
    assert_eq!(
        estimates(64, 3, 0).optimal_k,
        1,
        "n = 0: all zero, smallest k"
    );
}

#[test]
fn estimates_are_ordered_probabilities_and_monotone_in_n() {
    for (m, k) in [(8, 1), (8, 12), (37, 5), (1024, 12), (1024, 1)] {
        let mut previous = 0.0;
        for n in [0, 1, 2, 5, 17, 100, 1024] {
            let e = estimates(m, k, n);
            for value in [e.classic, e.finite_m, e.exact] {
                assert!((0.0..=1.0).contains(&value) && value.is_finite(), "{e:?}");
            }
            // Jensen: E[(X/m)^k] >= (E[X]/m)^k, and 1 - e^-x <= 1 - (1-1/m)^... per bit.
            assert!(e.exact >= e.finite_m * (1.0 - 1e-12), "{e:?}");
            assert!(e.finite_m >= e.classic * (1.0 - 1e-12), "{e:?}");
            assert!(e.exact >= previous, "{e:?}");
            previous = e.exact;
        }
    }
}

#[test]
fn the_view_reports_estimates_for_the_current_n() {
    let mut session = created(64, 3);
    assert_eq!(session.view().estimates, Some(estimates(64, 3, 0)));
    for i in 0..10 {
        ok(&mut session, &insert(format!("e{i}").as_str()));
    }
    ok(&mut session, &insert("e3"));
    let e = session.view().estimates.unwrap();
    assert_eq!(e.n, 10);
    assert!(close(e.exact, 0.054266781700069315, 1e-12));
    assert_eq!(e.optimal_k, 4);
    ok(&mut session, &Op::Reset {});
    assert_eq!(session.view().estimates.unwrap().n, 0);
}
