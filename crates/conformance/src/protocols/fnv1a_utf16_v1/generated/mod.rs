//! Generated inputs of `fnv1a-utf16-v1`: strings of code units of every class
//! (`positions`, compared with the oracle) and (m, k, n) triples (`estimates`,
//! compared with the oracle's own computation).

use crate::generated::{Generation, Inputs, Mismatch, drawn_then_edges, edges, failures, search};
use crate::generated::{size, span};
use crate::model::Generator;
use crate::model::{GeneratedCase, GeneratedInput, Span};
use crate::protocol::Protocol as _;
use crate::report::Failure;
use crate::subject::Answer;
use crate::verdict::json;
use bloomproof_adapter::protocols::fnv1a_utf16_v1::{FnvCall, FnvReply, FnvSubject};
use bloomproof_oracle::estimates as oracle_estimates;
use bloomproof_oracle::fnv1a_utf16 as oracle;
use bloomproof_wire::protocols::fnv1a_utf16_v1::{EstimatesAnswer, FnvHashes};
use proptest::prelude::*;

mod measure;
mod page;
mod session;
pub(crate) mod spelling;
pub(crate) mod text;

/// A string and the parameters it is hashed under.
#[derive(Clone, Debug)]
pub(super) struct Hashes {
    m: u64,
    k: u64,
    units: Vec<u16>,
}

/// One or two code units of one class: ASCII (NUL included), two-byte UTF-8 range,
/// any BMP unit, a surrogate pair, a lone high or low surrogate, 0000, FFFF.
fn piece() -> impl Strategy<Value = Vec<u16>> {
    prop_oneof![
        3 => (0u16..0x80).prop_map(|u| vec![u]),
        1 => (0x80u16..0x800).prop_map(|u| vec![u]),
        2 => any::<u16>().prop_map(|u| vec![u]),
        1 => (0xD800u16..0xDC00, 0xDC00u16..0xE000).prop_map(|(h, l)| vec![h, l]),
        1 => (0xD800u16..0xDC00).prop_map(|u| vec![u]),
        1 => (0xDC00u16..0xE000).prop_map(|u| vec![u]),
        1 => Just(vec![0x0000]),
        1 => Just(vec![0xFFFF]),
    ]
}

/// Strings of `units` code units: as many pieces as the span allows, each one or two
/// units, cut to its maximum (a pair cut at the end becomes a lone surrogate), so never
/// shorter than its minimum.
pub(super) fn units(units: crate::model::Span) -> impl Strategy<Value = Vec<u16>> {
    let max = units[1] as usize;
    proptest::collection::vec(piece(), size(units))
        .prop_map(move |pieces| pieces.into_iter().flatten().take(max).collect())
}

pub(super) fn hashes(input: &GeneratedInput) -> impl Strategy<Value = Hashes> + use<> {
    (
        span(input.m),
        span(input.k),
        units(input.units.unwrap_or([1, 256])),
    )
        .prop_map(|(m, k, units)| Hashes {
            m: u64::from(m),
            k: u64::from(k),
            units,
        })
}

pub(super) fn show_hashes(value: &Hashes) -> serde_json::Value {
    serde_json::json!({"m": value.m, "k": value.k, "units": value.units})
}

fn narrow(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Sends one call a value in one batch and judges each answer beside its value.
fn judge_batch<T>(
    subject: &mut dyn FnvSubject,
    values: &[T],
    call: impl Fn(&T) -> FnvCall,
    verdict: impl Fn(&T, Answer<FnvReply>) -> Option<Mismatch>,
) -> Vec<Option<Mismatch>> {
    let calls: Vec<FnvCall> = values.iter().map(call).collect();
    subject
        .batch(&calls)
        .into_iter()
        .zip(values)
        .map(|(answer, value)| verdict(value, answer))
        .collect()
}

impl Hashes {
    /// The `positions` call of this input.
    fn call(&self) -> FnvCall {
        FnvCall::Positions {
            m: self.m,
            k: self.k,
            units: self.units.clone(),
        }
    }
}

fn hashes_verdict(value: &Hashes, answer: Answer<FnvReply>) -> Option<Mismatch> {
    let got = match answer {
        Ok(FnvReply::Hashes(got)) => got,
        Ok(other) => return Some(Mismatch::new("positions", "hashes", format!("{other:?}"))),
        Err(err) => return Some(Mismatch::new("positions", "an answer", err.to_string())),
    };
    if got.positions.len() as u64 != value.k {
        return Some(Mismatch::new(
            "positions: k positions",
            format!("{} positions", value.k),
            format!(
                "{} positions: {}",
                got.positions.len(),
                json(&got.positions)
            ),
        ));
    }
    if let Some(p) = got.positions.iter().find(|&&p| u64::from(p) >= value.m) {
        return Some(Mismatch::new(
            "positions: each below m",
            format!("below {}", value.m),
            format!("{p} in {}", json(&got.positions)),
        ));
    }
    let (h1, h2) = (oracle::h1(&value.units), oracle::h2(&value.units));
    let want = oracle::positions(narrow(value.m), narrow(value.k), &value.units);
    let got32: Vec<u32> = got.positions.iter().map(|&p| u32::from(p)).collect();
    if (got.h1, got.h2, &got32) != (h1, h2, &want) {
        return Some(Mismatch::new(
            "h1, h2 and positions equal the oracle's",
            json(&serde_json::json!({"h1": h1, "h2": h2, "positions": want})),
            json(&serde_json::json!({"h1": got.h1, "h2": got.h2, "positions": got32})),
        ));
    }
    None
}

pub(super) fn diagnose_hashes(subject: &mut dyn FnvSubject, value: &Hashes) -> Option<String> {
    let got: FnvHashes = subject.positions(value.m, value.k, &value.units).ok()?;
    super::diagnose::fnv_first_difference(subject, value.m, value.k, &value.units, &got)
}

/// One (m, k, n).
#[derive(Clone, Copy, Debug)]
pub(super) struct Point {
    m: u32,
    k: u32,
    n: u32,
}

/// The strata of the load k·n/m (of the clamped parameters) the estimates are drawn
/// from, besides one of points drawn from the whole domain: the estimates change
/// regime with the load (near 0, rising, saturated, indistinguishable from 1 within
/// 1e-9 past about 21 + ln k), and a shortcut taken over one range of loads (an exact
/// rate of 1 once k·n >= 16m, a rate of 0 while the load is small) shows only there. A
/// point drawn uniformly over the whole domain lands in a narrow range of loads only
/// now and then, so input `i` of a run is drawn from stratum `i mod 11`: every run of
/// 11 inputs or more visits every stratum.
const LOADS: [(f64, f64); 10] = [
    (0.0, 0.05),
    (0.05, 0.5),
    (0.5, 2.0),
    (2.0, 5.0),
    (5.0, 9.0),
    (9.0, 12.5),
    (12.5, 16.0),
    (16.0, 20.0),
    (20.0, 24.0),
    (24.0, 40.0),
];

/// The strata of the points of a domain: the whole domain, then one per range of
/// [`LOADS`].
pub(super) fn estimates(input: &GeneratedInput) -> Vec<BoxedStrategy<Point>> {
    let (m, k, n) = (
        input.m,
        input.k,
        input.n.unwrap_or([0, oracle_estimates::N_MAX]),
    );
    let mut strata = vec![whole_domain(input)];
    for (low, high) in LOADS {
        strata.push(
            (span(m), span(k), span(n), low..high)
                .prop_map(move |(m_drawn, k, n_drawn, load)| {
                    at_load(
                        Point {
                            m: m_drawn,
                            k,
                            n: n_drawn,
                        },
                        load,
                        m,
                        n,
                    )
                })
                .boxed(),
        );
    }
    strata
}

/// The points of a domain drawn from the whole of it (the first stratum, and an edge
/// input's).
pub(super) fn whole_domain(input: &GeneratedInput) -> BoxedStrategy<Point> {
    let n = input.n.unwrap_or([0, oracle_estimates::N_MAX]);
    (span(input.m), span(input.k), span(n))
        .prop_map(|(m, k, n)| Point { m, k, n })
        .boxed()
}

/// A point of the domain (`m_span`, `n_span`) at the load `load`, from a point drawn
/// from the whole domain: n becomes the least that carries the load for the clamped m
/// and k (SESSION.md 8, step 1); where that n is out of the domain's reach, m is taken
/// into the range of the smaller m that can carry it; where none can, the drawn point
/// stays as it is (so a domain of raw values far past the clamps, such as m up to
/// 2^32 - 1, keeps its draws there).
fn at_load(drawn: Point, load: f64, m_span: Span, n_span: Span) -> Point {
    let (_, k_used, n_most) = oracle_estimates::clamped(drawn.m, drawn.k, n_span[1]);
    // The least n whose clamped load k·n/m is at least `load`.
    let n_for = |m: u32| {
        let m_used = oracle_estimates::clamped(m, k_used, 0).0;
        (load * f64::from(m_used) / f64::from(k_used)).ceil()
    };
    let reach = |m: u32| {
        let n = n_for(m);
        (f64::from(n_span[0])..=f64::from(n_most))
            .contains(&n)
            .then_some(Point {
                m,
                n: n as u32,
                ..drawn
            })
    };
    if let Some(point) = reach(drawn.m) {
        return point;
    }
    // The largest m that carries the load with an n within reach, not past the drawn m.
    let largest = ((f64::from(k_used) * f64::from(n_most) / load).floor() as u32).min(drawn.m);
    if largest >= m_span[0] {
        let width = u64::from(largest - m_span[0]) + 1;
        let m = m_span[0] + (u64::from(drawn.m - m_span[0]) % width) as u32;
        if let Some(point) = reach(m) {
            return point;
        }
    }
    drawn
}

pub(super) fn show_estimates(value: &Point) -> serde_json::Value {
    serde_json::json!({"m": value.m, "k": value.k, "n": value.n})
}

fn close(expected: f64, actual: f64) -> bool {
    expected == actual
        || (expected - actual).abs() <= 1e-9 * expected.abs().max(actual.abs()).max(1e-300)
}

impl Point {
    /// The `estimates` call of this input.
    fn call(&self) -> FnvCall {
        FnvCall::Estimates {
            m: self.m,
            k: self.k,
            n: self.n,
        }
    }
}

fn estimates_answer_verdict(point: &Point, answer: Answer<FnvReply>) -> Option<Mismatch> {
    match answer {
        Ok(FnvReply::Estimates(got)) => estimates_verdict(*point, &got),
        Ok(other) => Some(Mismatch::new(
            "estimates",
            "estimates",
            format!("{other:?}"),
        )),
        Err(err) => Some(Mismatch::new("estimates", "an answer", err.to_string())),
    }
}

/// Whether another k, whose classic estimate is `theirs`, may stand for the least
/// classic estimate `ours`: k one of those tried (1..=12) and the two within 1e-13,
/// relative, but not equal (an exact tie takes the smallest k).
fn near_tie(k: u32, theirs: f64, ours: f64) -> bool {
    (oracle_estimates::K_MIN..=oracle_estimates::K_MAX).contains(&k)
        && theirs != ours
        && (theirs - ours).abs() <= 1e-13 * ours.abs()
}

fn estimates_verdict(point: Point, got: &EstimatesAnswer) -> Option<Mismatch> {
    let want = *crate::generated::memo::get_or(
        "fnv_estimates",
        || format!("{point:?}"),
        || oracle_estimates::estimates(point.m, point.k, point.n),
    );
    for (what, expected, actual) in [
        ("classic", want.classic, got.classic),
        ("finite_m", want.finite_m, got.finite_m),
        ("exact", want.exact, got.exact),
    ] {
        if !close(expected, actual) {
            return Some(Mismatch::new(
                format!("estimates: {what} equals the oracle's (within 1e-9 relative)"),
                format!("{expected:e}"),
                format!("{actual:e}"),
            ));
        }
    }
    if got.optimal_k != want.optimal_k {
        // Only a near-tie of two classic values, which rounding may order either way,
        // lets another k stand (an exact tie takes the smallest k).
        let theirs = oracle_estimates::classic(
            point.m,
            got.optimal_k
                .clamp(oracle_estimates::K_MIN, oracle_estimates::K_MAX),
            point.n,
        );
        let ours = oracle_estimates::classic(point.m, want.optimal_k, point.n);
        if !near_tie(got.optimal_k, theirs, ours) {
            return Some(Mismatch::new(
                "estimates: optimal_k, the smallest k with the least classic estimate",
                want.optimal_k.to_string(),
                got.optimal_k.to_string(),
            ));
        }
    }
    None
}

/// Smaller strings and parameters: a shorter prefix, one unit fewer, a unit set to 0,
/// a smaller m or k.
pub(super) fn reduce_hashes(value: &Hashes) -> Vec<Hashes> {
    let with = |m: u64, k: u64, units: Vec<u16>| Hashes { m, k, units };
    let mut out: Vec<Hashes> = crate::generated::shorter(&value.units)
        .into_iter()
        .filter(|units| !units.is_empty())
        .map(|units| with(value.m, value.k, units))
        .collect();
    for (i, unit) in value.units.iter().enumerate() {
        if *unit != 0 {
            let mut units = value.units.clone();
            units[i] = 0;
            out.push(with(value.m, value.k, units));
        }
    }
    for m in crate::generated::smaller(value.m, 8) {
        out.push(with(m, value.k, value.units.clone()));
    }
    for k in crate::generated::smaller(value.k, 1) {
        out.push(with(value.m, k, value.units.clone()));
    }
    out
}

/// Smaller (m, k, n).
pub(super) fn reduce_estimates(value: &Point) -> Vec<Point> {
    let mut out = Vec::new();
    for m in crate::generated::smaller(u64::from(value.m), 8) {
        out.push(Point {
            m: narrow(m),
            ..*value
        });
    }
    for k in crate::generated::smaller(u64::from(value.k), 1) {
        out.push(Point {
            k: narrow(k),
            ..*value
        });
    }
    for n in crate::generated::smaller(u64::from(value.n), 0) {
        out.push(Point {
            n: narrow(n),
            ..*value
        });
    }
    out
}

/// Runs one generated case of `fnv1a-utf16-v1`.
pub(crate) fn evaluate(
    case: &GeneratedCase,
    subject: &mut dyn FnvSubject,
    generation: &Generation,
) -> Vec<Failure> {
    let (id, input, compared) = (case.id.as_str(), &case.input, &case.expect.compared);
    // The local saves of fills have no edge inputs of m and k (they only open the filter
    // whose export is the previous copy): the edges they judge, each measure's limit,
    // are in every script they draw.
    let edges = match input.generator {
        Generator::FnvSaveFills => Vec::new(),
        _ => edges(input, super::Fnv1aUtf16V1.generators()),
    };
    // A session case's edges also hold the scripts of the table of bounds' rows its
    // comparison judges (crate::bound_edges).
    let page = compared.iter().any(|c| c == "page");
    let bound_scripts = match input.generator {
        Generator::FnvSessions => session::bound_scripts(page),
        _ => Vec::new(),
    };
    let inputs = Inputs {
        drawn: generation.count.unwrap_or(input.count),
        edges: (edges.len() + bound_scripts.len()) as u32,
    };
    let rng = generation.rng(id);
    match input.generator {
        Generator::FnvHashes => {
            let pinned: Vec<_> = edges.iter().map(hashes).collect();
            let strategy = hashes(input);
            let found = search(
                drawn_then_edges(inputs, |_| &strategy, &pinned),
                inputs.total(),
                rng,
                generation.shrink,
                |values| judge_batch(subject, values, Hashes::call, hashes_verdict),
                reduce_hashes,
            );
            failures(id, generation, inputs, found, show_hashes, |v| {
                diagnose_hashes(subject, v)
            })
        }
        Generator::FnvEstimates => {
            // An edge input is drawn from its pinned domain whole, not at a load.
            let pinned: Vec<_> = edges.iter().map(whole_domain).collect();
            let strata = estimates(input);
            let found = search(
                drawn_then_edges(inputs, |i| &strata[i % strata.len()], &pinned),
                inputs.total(),
                rng,
                generation.shrink,
                |values| judge_batch(subject, values, Point::call, estimates_answer_verdict),
                reduce_estimates,
            );
            failures(id, generation, inputs, found, show_estimates, |_| None)
        }
        Generator::FnvSessions => {
            let mut pinned: Vec<_> = edges.iter().map(|e| session::scripts(e).boxed()).collect();
            pinned.extend(bound_scripts.into_iter().map(|s| Just(s).boxed()));
            let strata = session::strata(input);
            // The core part, `page`: what seed 002 states, in each step of the
            // implementation's own session; the rest, against the reference model.
            let drawn = inputs.drawn as usize;
            let found = search(
                drawn_then_edges(inputs, |i| session::stratum(&strata, i, drawn), &pinned),
                inputs.total(),
                rng,
                generation.shrink,
                |values| session::judge(subject, values, page),
                session::reduce,
            );
            failures(id, generation, inputs, found, session::show, |_| None)
        }
        Generator::FnvSaveFills => {
            // Input i draws a fill of class i mod 4 (every class on every run of 4 inputs
            // or more).
            let classes = session::FillClass::ALL;
            let pinned: Vec<BoxedStrategy<_>> = Vec::new();
            let strata: Vec<_> = classes
                .iter()
                .map(|class| session::fills(input, *class).boxed())
                .collect();
            let found = search(
                drawn_then_edges(inputs, |i| &strata[i % strata.len()], &pinned),
                inputs.total(),
                rng,
                generation.shrink,
                |values| session::judge(subject, values, page),
                session::reduce,
            );
            failures(id, generation, inputs, found, session::show, |_| None)
        }
        other => vec![crate::generated::not_this_protocol(id, other)],
    }
}

#[cfg(test)]
mod tests {
    use super::oracle_estimates;
    use super::{EstimatesAnswer, Point, at_load, close, estimates_verdict, near_tie};
    use super::{reduce_estimates, units};
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeSet;

    /// Two estimates agree when within 1e-9 of the larger, relative, at any magnitude.
    #[test]
    fn estimates_are_close_within_1e_9_relative() {
        for scale in [1e-300, 1e-12, 1e-3, 1.0, 1e6, 1e300] {
            assert!(close(scale, scale), "{scale}");
            assert!(close(scale, scale * (1.0 + 5e-10)), "{scale}");
            assert!(!close(scale, scale * (1.0 + 2e-9)), "{scale}");
            assert!(!close(scale * (1.0 + 2e-9), scale), "{scale}");
        }
        assert!(!close(1.0, 0.0));
    }

    /// The oracle's answer at (m, k, n), with `optimal_k` replaced.
    fn answered(m: u32, k: u32, n: u32, optimal_k: u32) -> EstimatesAnswer {
        let want = oracle_estimates::estimates(m, k, n);
        EstimatesAnswer {
            classic: want.classic,
            finite_m: want.finite_m,
            exact: want.exact,
            optimal_k,
        }
    }

    /// Another `optimal_k` stands only at a near tie of two classic values (within
    /// 1e-13, not equal): not at an exact tie (the smallest k wins), not when the
    /// values differ more, not outside 1..=12.
    #[test]
    fn another_optimal_k_stands_only_at_a_near_tie() {
        let point = |m, k, n| Point { m, k, n };
        let own = oracle_estimates::estimates(100, 3, 10).optimal_k;
        assert!(estimates_verdict(point(100, 3, 10), &answered(100, 3, 10, own)).is_none());
        for wrong in [own - 1, own + 1, 0, 13] {
            assert!(
                estimates_verdict(point(100, 3, 10), &answered(100, 3, 10, wrong)).is_some(),
                "{wrong}"
            );
        }
        // n = 0: every k's classic estimate is 0, an exact tie that k 1 takes.
        assert_eq!(oracle_estimates::estimates(64, 4, 0).optimal_k, 1);
        assert!(estimates_verdict(point(64, 4, 0), &answered(64, 4, 0, 5)).is_some());
        // A near tie stands: within 1e-13 relative, either side, at any magnitude.
        for ours in [1e-200, 1e-5, 0.5] {
            for theirs in [ours * (1.0 + 5e-14), ours * (1.0 - 5e-14)] {
                assert!(near_tie(3, theirs, ours), "{theirs} {ours}");
                assert!(!near_tie(0, theirs, ours) && !near_tie(13, theirs, ours));
            }
            assert!(
                near_tie(1, ours * (1.0 + 5e-14), ours) && near_tie(12, ours, ours * (1.0 + 5e-14))
            );
            assert!(!near_tie(3, ours, ours), "an exact tie");
            assert!(!near_tie(3, ours * (1.0 + 2e-13), ours), "{ours}");
            assert!(!near_tie(3, ours * (1.0 - 2e-13), ours), "{ours}");
        }
    }

    /// Drawn strings have as many code units as their span allows, reaching both ends,
    /// and cut pairs at the maximum.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn strings_are_as_long_as_their_span_allows() {
        let mut runner = TestRunner::deterministic();
        for span in [[1, 1], [4, 4], [1, 6], [3, 40]] {
            let strategy = units(span);
            let lengths: BTreeSet<usize> = (0..2000)
                .map(|_| strategy.new_tree(&mut runner).unwrap().current().len())
                .collect();
            let (min, max) = (span[0] as usize, span[1] as usize);
            assert_eq!(lengths.first(), Some(&min), "{span:?}: {lengths:?}");
            assert_eq!(lengths.last(), Some(&max), "{span:?}: {lengths:?}");
        }
    }

    #[test]
    fn a_point_reduces_to_smaller_m_k_and_n_one_at_a_time() {
        let got: Vec<(u32, u32, u32)> = reduce_estimates(&Point {
            m: 100,
            k: 5,
            n: 50,
        })
        .iter()
        .map(|p| (p.m, p.k, p.n))
        .collect();
        // m to 8, half way (54), one less; k to 1, 3, 4; n to 0, 25, 49.
        let want = [
            (8, 5, 50),
            (54, 5, 50),
            (99, 5, 50),
            (100, 1, 50),
            (100, 3, 50),
            (100, 4, 50),
            (100, 5, 0),
            (100, 5, 25),
            (100, 5, 49),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn a_load_is_carried_as_hand_derived() {
        let at = |m, k, n, load, m_span, n_span| {
            let p = at_load(Point { m, k, n }, load, m_span, n_span);
            (p.m, p.k, p.n)
        };
        // Reachable as drawn: n = ceil(2 * 100 / 4) = 50.
        assert_eq!(at(100, 4, 7, 2.0, [8, 1024], [0, 1024]), (100, 4, 50));
        // m 1024, k 1, load 16 needs n = 16384: at most m 64 carries it, and the drawn m
        // folds into 8..=64 as 8 + (1024 - 8) mod 57 = 55, n = ceil(16 * 55) = 880.
        assert_eq!(at(1024, 1, 7, 16.0, [8, 1024], [0, 1024]), (55, 1, 880));
        // n at most 2 cannot carry a load of 5 with any m of [1000, 2^32 - 1] (clamped to
        // 1024): the drawn point stands, its m far past the clamp.
        assert_eq!(
            at(3_000_000_000, 20, 1, 5.0, [1000, u32::MAX], [0, 2]),
            (3_000_000_000, 20, 1)
        );
        // n at least 1000 cannot carry a load of 0.1 with k 1 and m at most 1024: the drawn
        // point stands.
        assert_eq!(
            at(600, 1, 4_000_000_000, 0.1, [512, 1024], [1000, u32::MAX]),
            (600, 1, 4_000_000_000)
        );
    }

    #[test]
    fn every_m_that_can_carry_a_load_is_drawn_and_each_point_carries_it() {
        for k in 1..=12u32 {
            for load in [0.01, 0.3, 1.0, 7.5, 16.0, 19.9, 39.0] {
                let largest = ((f64::from(k) * 1024.0 / load).floor() as u32).min(1024);
                let mut reached = BTreeSet::new();
                for m in 8..=1024 {
                    let p = at_load(Point { m, k, n: 0 }, load, [8, 1024], [0, 1024]);
                    let carried = f64::from(k) * f64::from(p.n) / f64::from(p.m);
                    assert!(
                        carried >= load && carried < load + f64::from(k) / f64::from(p.m),
                        "k {k}, load {load}, drawn m {m}: {p:?} carries {carried}"
                    );
                    reached.insert(p.m);
                }
                let every: BTreeSet<u32> = (8..=largest).collect();
                assert_eq!(reached, every, "k {k}, load {load}");
            }
        }
    }
}
