//! Generated differential checks: the cases of shape `generated` describe a domain
//! (`spec/README.md`, "Generated checks"); every run draws fresh inputs from it, sends
//! them to the implementation pipelined, and compares every answer with the oracle
//! (`crates/oracle`) or the reference session model (`crates/session`).
//!
//! The inputs come from proptest strategies driven by a seeded [`TestRng`]: the run's
//! seed ([`Generation::seed`], printed by the report, replayed with `--seed N`) and the
//! case id give each case its own stream, so one check run alone draws what it draws
//! in the whole suite. On a difference the first differing input is shrunk with
//! proptest's value trees (fewer records, shorter strings, smaller m, fewer steps)
//! while it still differs, and the failure shows the minimal input, the seed and,
//! where the hashing is at fault, the first stage that differs (each protocol's
//! `diagnose`).

pub mod memo;

use crate::model::{GeneratedExpect, GeneratedInput, Generator, Span};
use crate::report::Failure;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sha2::{Digest, Sha256};

/// How many shrinking steps one failure may take (each is one or a few requests).
pub const SHRINK_STEPS_MAX: u32 = 256;

/// How many rounds of `search`'s reductions one failure may take (each round is one
/// pipelined batch of candidates).
pub const REDUCTION_ROUNDS_MAX: u32 = 32;

/// How many candidates all of one failure's reduction rounds may judge together: a
/// failure that needs a large input (64 records, a long script) offers thousands of
/// candidates a round, each judged against the oracle, so the rounds stop when these
/// are spent (the first candidates of a round, which are the smallest, are judged first).
pub const REDUCTION_CANDIDATES_MAX: usize = 2048;

/// The largest `count` a case may ask for, and the largest `--random N`.
pub const COUNT_MAX: u32 = 100_000;

/// The seed and count of one run's generated inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generation {
    /// The run's seed: the same seed draws the same inputs.
    pub seed: u64,
    /// Inputs per generated case instead of the case's own `count` (`--random N`).
    pub count: Option<u32>,
    /// Whether a differing input is shrunk to a minimal one (the default) or reported
    /// as drawn (`--no-shrink`: a faster verdict, for a gallery that needs only which
    /// checks fail; shrinking a long session script through a slow adapter takes
    /// hundreds of round trips).
    pub shrink: bool,
}

impl Generation {
    /// A fresh seed (from the clock and the process id) and each case's own count.
    pub fn fresh() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let mixed = Sha256::new()
            .chain_update(nanos.to_be_bytes())
            .chain_update(std::process::id().to_be_bytes())
            .finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&mixed[..8]);
        // Seeds stay below 2^53 so that a JSON reader of any language reads them exactly.
        Generation {
            seed: u64::from_be_bytes(first) >> 11,
            count: None,
            shrink: true,
        }
    }

    /// The random generator of one case: SHA-256 of a fixed label, the seed and the
    /// case id, as a ChaCha key.
    pub(crate) fn rng(&self, case_id: &str) -> TestRng {
        let key: [u8; 32] = Sha256::new()
            .chain_update(b"bloomproof generated v1\0")
            .chain_update(self.seed.to_be_bytes())
            .chain_update(case_id.as_bytes())
            .finalize()
            .into();
        TestRng::from_seed(RngAlgorithm::ChaCha, &key)
    }
}

/// What one comparison found wrong with one answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mismatch {
    pub(crate) what: String,
    pub(crate) expected: String,
    pub(crate) actual: String,
}

impl Mismatch {
    pub(crate) fn new(
        what: impl Into<String>,
        expected: impl Into<String>,
        actual: impl Into<String>,
    ) -> Self {
        Mismatch {
            what: what.into(),
            expected: expected.into(),
            actual: actual.into(),
        }
    }
}

/// The first input that differed, shrunk.
pub(crate) struct Found<V> {
    /// Its index among the drawn inputs.
    index: usize,
    /// How many of the drawn inputs differed.
    failing: usize,
    /// The minimal input that still differs, and how.
    minimal: V,
    mismatch: Mismatch,
    /// Shrinking steps taken.
    steps: u32,
}

/// Draws `count` inputs from `rng`, input `i` from `strategy_at(i)` (a generator that
/// spreads its inputs over strata gives input `i` stratum `i mod strata`, so every
/// run of enough inputs visits every stratum), asks `judge` about all of them at
/// once (it sends them pipelined), and shrinks the first one that differs while it
/// still differs: proptest's value tree first (one input at a time), then rounds of
/// `reduce`'s candidates (smaller inputs, smallest first, judged as one batch; the
/// first that still differs is kept), which reach what removing one element at a
/// time cannot (a string whose length matters: only a shorter prefix still differs).
pub(crate) fn search<S>(
    strategy_at: impl Fn(usize) -> S,
    count: u32,
    rng: TestRng,
    shrink: bool,
    mut judge: impl FnMut(&[S::Value]) -> Vec<Option<Mismatch>>,
    reduce: impl Fn(&S::Value) -> Vec<S::Value>,
) -> Result<Option<Found<S::Value>>, String>
where
    S: Strategy,
    S::Value: Clone,
{
    // `search` drives the value trees itself and never calls `TestRunner::run`, so
    // nothing is persisted: the default configuration's persistence is never used.
    let config = Config::default();
    // Only the values are kept: a value tree can be far larger than its value (a
    // string's tree holds every alternative of every unit), and `count` of them would
    // cost tens of MiB. The tree of a failing input is drawn again from the same
    // generator state, which gives the same tree.
    let draw_from = rng.clone();
    let mut runner = TestRunner::new_with_rng(config.clone(), rng);
    let mut values: Vec<S::Value> = Vec::new();
    for i in 0..count as usize {
        let tree = strategy_at(i)
            .new_tree(&mut runner)
            .map_err(|err| format!("cannot draw an input: {err}"))?;
        values.push(tree.current());
    }
    let verdicts = judge(&values);
    let failing = verdicts.iter().filter(|v| v.is_some()).count();
    let Some((index, mismatch)) = verdicts
        .into_iter()
        .enumerate()
        .find_map(|(i, v)| v.map(|m| (i, m)))
    else {
        return Ok(None);
    };
    if !shrink {
        return Ok(Some(Found {
            index,
            failing,
            minimal: values.swap_remove(index),
            mismatch,
            steps: 0,
        }));
    }
    drop(values);
    let mut runner = TestRunner::new_with_rng(config, draw_from);
    let mut drawn = None;
    for i in 0..=index {
        drawn = Some(
            strategy_at(i)
                .new_tree(&mut runner)
                .map_err(|err| format!("cannot draw an input: {err}"))?,
        );
    }
    let Some(mut tree) = drawn else {
        return Err("cannot draw the failing input again".into());
    };
    let mut found = Found {
        index,
        failing,
        minimal: tree.current(),
        mismatch,
        steps: 0,
    };
    let mut more = tree.simplify();
    while more && found.steps < SHRINK_STEPS_MAX {
        found.steps += 1;
        let value = tree.current();
        let verdict = judge(std::slice::from_ref(&value))
            .into_iter()
            .next()
            .flatten();
        more = match verdict {
            Some(mismatch) => {
                found.minimal = value;
                found.mismatch = mismatch;
                tree.simplify()
            }
            None => tree.complicate(),
        };
    }
    let mut budget = REDUCTION_CANDIDATES_MAX;
    for _ in 0..REDUCTION_ROUNDS_MAX {
        let mut candidates = reduce(&found.minimal);
        candidates.truncate(budget);
        budget -= candidates.len();
        if candidates.is_empty() {
            break;
        }
        let verdicts = judge(&candidates);
        let Some((smaller, mismatch)) = candidates
            .into_iter()
            .zip(verdicts)
            .find_map(|(c, v)| v.map(|m| (c, m)))
        else {
            break;
        };
        found.steps += 1;
        found.minimal = smaller;
        found.mismatch = mismatch;
    }
    Ok(Some(found))
}

/// The ranges of a generated input by the names a case spells them, each `None` where
/// the case leaves an optional one out.
fn ranges_mut(input: &mut GeneratedInput) -> [(&'static str, Option<&mut Span>); 8] {
    [
        ("m", Some(&mut input.m)),
        ("k", Some(&mut input.k)),
        ("seed_bytes", input.seed_bytes.as_mut()),
        ("item_bytes", input.item_bytes.as_mut()),
        ("records", input.records.as_mut()),
        ("units", input.units.as_mut()),
        ("n", input.n.as_mut()),
        ("steps", input.steps.as_mut()),
    ]
}

/// The edge values of `range`: each value at or next to one of its ends, a power of
/// two (1 to 2^32) or one of `marks`, that lies within it, in increasing order. A
/// value read into too narrow or a signed integer, a bound compared with `<` for
/// `<=`, a clamp at the wrong limit: each differs at one of these, and only now and
/// then at a value drawn uniformly from a wide range.
pub(crate) fn edge_values(range: Span, marks: &[u32]) -> Vec<u32> {
    let [low, high] = range.map(u64::from);
    let powers = (0..=32).map(|j| 1u64 << j);
    let mut values: Vec<u32> = [low, high]
        .into_iter()
        .chain(powers)
        .chain(marks.iter().copied().map(u64::from))
        .flat_map(|mark| [mark.saturating_sub(1), mark, mark + 1])
        .filter(|value| (low..=high).contains(value))
        .filter_map(|value| u32::try_from(value).ok())
        .collect();
    values.sort_unstable();
    values.dedup();
    values
}

/// The edge domains of a case of its generator's domain among `domains` (none when
/// none is its generator's): for each range the generator reads (in
/// the order of [`GeneratorDomain::ranges`]) and each of its [`edge_values`] (marked
/// by the range's bounds and the domain's [`GeneratorDomain::limits`]), the case's
/// domain with that one range pinned to that one value. A run judges its `count`
/// inputs drawn from the whole domain, then one drawn from each of these, so every
/// edge of every range is judged on every run, whatever the seed.
pub(crate) fn edges(input: &GeneratedInput, domains: &[GeneratorDomain]) -> Vec<GeneratedInput> {
    let mut out = Vec::new();
    let Some(domain) = domains.iter().find(|d| d.generator == input.generator) else {
        return out;
    };
    let mut read = input.clone();
    for &(name, bounds) in domain.ranges {
        let Some(&mut range) = range_mut(&mut read, name) else {
            continue;
        };
        let mut marks = bounds.to_vec();
        marks.extend_from_slice(domain.limits);
        for value in edge_values(range, &marks) {
            let mut pinned = input.clone();
            if let Some(range) = range_mut(&mut pinned, name) {
                *range = [value, value];
            }
            out.push(pinned);
        }
    }
    out
}

/// The range `name` of `input`, if the case holds it.
fn range_mut<'a>(input: &'a mut GeneratedInput, name: &str) -> Option<&'a mut Span> {
    ranges_mut(input)
        .into_iter()
        .find(|(read, _)| *read == name)
        .and_then(|(_, range)| range)
}

/// The strategy of input `i` of a run of `inputs`: `drawn(i)` for the drawn ones,
/// then one of `edges` each. The drawn inputs come first, so that a seed draws them
/// as it did before edge inputs were judged, and a flaw that a drawn input shows is
/// shrunk from that input's value tree (an edge input's pinned range keeps its value
/// there, and only `search`'s reductions make it smaller).
pub(crate) fn drawn_then_edges<'a, S>(
    inputs: Inputs,
    drawn: impl Fn(usize) -> &'a S,
    edges: &'a [S],
) -> impl Fn(usize) -> &'a S {
    let count = inputs.drawn as usize;
    move |i| {
        if i < count {
            drawn(i)
        } else {
            &edges[i - count]
        }
    }
}

/// The stratum of drawn input `i` among `strata` strata of which the first is the
/// whole domain: every even input is drawn from the whole domain, the odd ones from the
/// others in turn (input 2j + 1 from stratum 1 + j mod (strata - 1)), so that a run of
/// 2 (strata - 1) drawn inputs visits every stratum and half of any run explores the
/// whole domain as before the strata were added.
pub(crate) fn half_whole(i: usize, strata: usize) -> usize {
    if i.is_multiple_of(2) || strata < 2 {
        0
    } else {
        1 + (i / 2) % (strata - 1)
    }
}

/// The span `[min, max]` as a `RangeInclusive`, for strategies.
pub(crate) fn span(s: Span) -> std::ops::RangeInclusive<u32> {
    s[0]..=s[1]
}

/// A span as a size range of a collection.
pub(crate) fn size(s: Span) -> proptest::collection::SizeRange {
    (s[0] as usize..=s[1] as usize).into()
}

/// How many inputs one run of a generated case judges: the drawn ones, then its edge
/// inputs ([`edges`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inputs {
    /// The case's `count`, or `--random N`.
    pub drawn: u32,
    /// One per edge domain.
    pub edges: u32,
}

impl Inputs {
    /// Every input of the run.
    pub fn total(self) -> u32 {
        self.edges + self.drawn
    }
}

/// The failures of one generated case: none, or the minimal input with the seed and
/// the first difference.
pub(crate) fn failures<V>(
    case_id: &str,
    generation: &Generation,
    inputs: Inputs,
    found: Result<Option<Found<V>>, String>,
    show: impl Fn(&V) -> serde_json::Value,
    first_difference: impl FnOnce(&V) -> Option<String>,
) -> Vec<Failure> {
    let seed = generation.seed;
    let found = match found {
        Ok(None) => return Vec::new(),
        Ok(Some(found)) => found,
        Err(err) => {
            return vec![Failure {
                case: case_id.to_string(),
                what: format!("generated inputs (seed {seed})"),
                input: serde_json::Value::Null,
                expected: "inputs drawn".to_string(),
                actual: err,
            }];
        }
    };
    let input = show(&found.minimal);
    let mut out = vec![Failure {
        case: case_id.to_string(),
        what: format!(
            "{} (generated: {} of {} inputs differ ({} drawn, then {} at the ranges' edges); \
             input #{} ({}) {}; seed {seed}, replay with --seed {seed})",
            found.mismatch.what,
            found.failing,
            inputs.total(),
            inputs.drawn,
            inputs.edges,
            found.index,
            if found.index < inputs.drawn as usize {
                "a drawn one"
            } else {
                "an edge input"
            },
            if generation.shrink {
                format!("shrunk in {} steps to the minimal one below", found.steps)
            } else {
                "below as drawn, not shrunk (--no-shrink)".to_string()
            }
        ),
        input: input.clone(),
        expected: found.mismatch.expected.clone(),
        actual: found.mismatch.actual.clone(),
    }];
    if let Some(line) = first_difference(&found.minimal) {
        out.push(Failure {
            case: case_id.to_string(),
            what: "first difference (stages, asked of the implementation)".to_string(),
            input,
            expected: "every stage equal to the oracle's".to_string(),
            actual: line,
        });
    }
    out
}

/// What one generator of generated cases reads and compares: the loader refuses a
/// `generated` case whose domain or expectation differs ([`domain_error`]).
#[derive(Clone, Copy, Debug)]
pub struct GeneratorDomain {
    /// The generator.
    pub generator: Generator,
    /// Every range of [`GeneratedInput`] it reads (`m` and `k` always, then the optional
    /// ones), each with the bounds a case's range must lie within: the protocol's bounds,
    /// or the wire's whole width for inputs the protocol clamps.
    pub ranges: &'static [(&'static str, Span)],
    /// The values within those bounds where the protocol's behaviour changes (the ends
    /// of a clamp), beside the bounds' own ends: every range's edge inputs hold each of
    /// them and its neighbours (`generated::edges`).
    pub limits: &'static [u32],
    /// The answers it compares, in the order `expect.compared` lists them.
    pub compares: &'static [&'static str],
    /// What it compares with: `oracle` or `session_model`.
    pub reference: &'static str,
}

/// Whether a generated case's domain is one this runner can draw from, within the
/// bounds of `protocol`, whose generators are `domains` (`None`: a protocol the runner
/// does not know): `None` when it is, else what is wrong (a load error).
pub fn domain_error(
    protocol: &str,
    domains: Option<&[GeneratorDomain]>,
    input: &GeneratedInput,
    expect: &GeneratedExpect,
) -> Option<String> {
    let Some(domains) = domains else {
        return Some(format!("unknown protocol {protocol:?}"));
    };
    let Some(domain) = domains
        .iter()
        .find(|domain| domain.generator == input.generator)
    else {
        return Some(format!(
            "generator {:?} does not belong to {protocol}",
            input.generator
        ));
    };
    let (compares, reference) = (domain.compares, domain.reference);
    let mut read = input.clone();
    for (name, value) in ranges_mut(&mut read) {
        let value = value.copied();
        let bounds = domain
            .ranges
            .iter()
            .find(|(read, _)| *read == name)
            .map(|&(_, bounds)| bounds);
        match (value, bounds) {
            (None, Some(_)) => {
                return Some(format!(
                    "`input.{name}` is required by {:?}",
                    input.generator
                ));
            }
            (Some(_), None) => {
                return Some(format!(
                    "`input.{name}` is not read by {:?}",
                    input.generator
                ));
            }
            (Some([min, max]), Some(bounds)) if min > max || min < bounds[0] || max > bounds[1] => {
                return Some(format!(
                    "`input.{name}` is [{min}, {max}]: it must be a range within [{}, {}]",
                    bounds[0], bounds[1]
                ));
            }
            _ => {}
        }
    }
    if !(1..=COUNT_MAX).contains(&input.count) {
        return Some(format!(
            "`input.count` is {}: it must be 1 to {COUNT_MAX}",
            input.count
        ));
    }
    if expect.equal_to != reference {
        return Some(format!(
            "`expect.equal_to` is {:?}: {:?} compares with {reference:?}",
            expect.equal_to, input.generator
        ));
    }
    // A case compares what its generator can compare, or a part of it (a core check the
    // parts the sources define, an interop check the rest), in the generator's order.
    let listed: Vec<&str> = expect.compared.iter().map(String::as_str).collect();
    let mut rest = compares.iter();
    let in_order = listed.iter().all(|part| rest.any(|c| c == part));
    // Only the evaluators of `doc_snapshots` (builds, or reads), `doc_typed` (the kinds,
    // or the fields), `fnv_sessions` and `fnv_save_fills` (the page's rules, `page`, or the reference
    // model's whole answer) compare a part.
    let fits = match input.generator {
        Generator::DocSnapshots | Generator::DocTyped => true,
        Generator::FnvSessions | Generator::FnvSaveFills => {
            listed == ["page"] || listed == compares[1..]
        }
        _ => listed == compares,
    };
    if listed.is_empty() || !in_order || !fits {
        return Some(format!(
            "`expect.compared` is {listed:?}: {:?} compares {compares:?}, or a part of it in that order",
            input.generator
        ));
    }
    None
}

pub(crate) fn not_this_protocol(id: &str, generator: Generator) -> Failure {
    Failure {
        case: id.to_string(),
        what: "the case's generator belongs to its protocol".to_string(),
        input: serde_json::Value::Null,
        expected: "a generator of this protocol".to_string(),
        actual: format!("{generator:?}"),
    }
}

/// Shorter versions of `list`: every proper prefix (shortest first), then the list
/// without one element.
pub(crate) fn shorter<T: Clone>(list: &[T]) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = (0..list.len()).map(|n| list[..n].to_vec()).collect();
    for skip in 0..list.len() {
        let mut without = list.to_vec();
        without.remove(skip);
        out.push(without);
    }
    out
}

/// Smaller values of a parameter within `[min, value)`: the minimum, half way, one less.
pub(crate) fn smaller(value: u64, min: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for candidate in [
        min,
        min + (value.saturating_sub(min)) / 2,
        value.saturating_sub(1),
    ] {
        if candidate >= min && candidate < value && !out.contains(&candidate) {
            out.push(candidate);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cell::RefCell;

    /// A fresh seed stays below 2^53, so that a JSON reader of any language reads the
    /// seed a report prints exactly (`--seed` takes 0 to 2^53 - 1). A seed's top 11 bits
    /// are zero; 64 fresh seeds that all were by chance would have 1 chance in 2^704.
    #[test]
    fn fresh_seeds_are_below_2_to_the_53() {
        for _ in 0..64 {
            let seed = Generation::fresh().seed;
            assert!(seed < 1 << 53, "seed {seed}");
        }
    }

    #[test]
    fn edge_values_are_the_ends_the_powers_of_two_and_the_marks_with_their_neighbours() {
        // Written out by hand: 8 and 1024 with their neighbours within the range, then
        // 16, 32, ..., 512 with theirs.
        assert_eq!(
            edge_values([8, 1024], &[]),
            [
                8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512,
                513, 1023, 1024
            ]
        );
        assert_eq!(edge_values([0, 4], &[]), [0, 1, 2, 3, 4]);
        assert_eq!(edge_values([10, 14], &[12]), [10, 11, 12, 13, 14]);
        assert_eq!(edge_values([5, 5], &[5]), [5]);
        assert_eq!(edge_values([u32::MAX, u32::MAX], &[]), [u32::MAX]);
        let wide = edge_values([1000, u32::MAX], &[1024]);
        for value in [
            1000, 1001, 1023, 1024, 1025, 2047, 2048, 2049, 65535, 65536, 65537,
        ] {
            assert!(wide.contains(&value), "{value}");
        }
        for value in [
            (1 << 31) - 1,
            1 << 31,
            (1 << 31) + 1,
            u32::MAX - 1,
            u32::MAX,
        ] {
            assert!(wide.contains(&value), "{value}");
        }
        assert!(!wide.contains(&999) && !wide.contains(&1026));
        // 1000, 1001, 1023 to 1025, then 3 a power of two from 2^11 to 2^31, then 2^32 - 1
        // and its lower neighbour (2^32 itself is out of the range).
        assert_eq!(wide.len(), 2 + 3 + 3 * 21 + 2);
    }

    #[test]
    fn each_range_a_domain_reads_is_pinned_at_each_of_its_edges_once() {
        let input = GeneratedInput {
            generator: Generator::FnvEstimates,
            count: 16,
            m: [0, 16],
            k: [0, 2],
            seed_bytes: None,
            item_bytes: None,
            records: None,
            units: None,
            n: Some([0, 4]),
            steps: None,
        };
        let domain = GeneratorDomain {
            generator: Generator::FnvEstimates,
            ranges: &[("m", [0, u32::MAX]), ("k", [0, u32::MAX]), ("n", [0, 9])],
            compares: &["estimates"],
            reference: "oracle",
            limits: &[8, 1],
        };
        let pinned = |m: Span, k: Span, n: Span| GeneratedInput {
            m,
            k,
            n: Some(n),
            ..input.clone()
        };
        let mut expected = Vec::new();
        for m in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16] {
            expected.push(pinned([m, m], [0, 2], [0, 4]));
        }
        for k in [0, 1, 2] {
            expected.push(pinned([0, 16], [k, k], [0, 4]));
        }
        for n in [0, 1, 2, 3, 4] {
            expected.push(pinned([0, 16], [0, 2], [n, n]));
        }
        assert_eq!(edges(&input, &[domain]), expected);
        // A generator no domain describes has no edges.
        let other = GeneratorDomain {
            generator: Generator::FnvHashes,
            ..domain
        };
        assert_eq!(edges(&input, &[other]), []);
    }

    /// Shrinking candidates, by hand: the minimum, half way and one less, each within
    /// `[min, value)` and once; none for a value at its minimum (a parameter is never
    /// shrunk below its bound, nor to itself).
    #[test]
    fn smaller_values_stay_within_the_minimum_and_below_the_value() {
        assert_eq!(smaller(100, 8), [8, 54, 99]);
        assert_eq!(smaller(10, 8), [8, 9]);
        assert_eq!(smaller(9, 8), [8]);
        assert_eq!(smaller(8, 8), Vec::<u64>::new());
        assert_eq!(smaller(0, 0), Vec::<u64>::new());
        assert_eq!(smaller(1, 0), [0]);
    }

    /// Shorter lists, by hand: every proper prefix, shortest first, then each without
    /// one element.
    #[test]
    fn shorter_lists_are_the_prefixes_then_each_without_one() {
        assert_eq!(
            shorter(&[1, 2, 3]),
            [
                vec![],
                vec![1],
                vec![1, 2],
                vec![2, 3],
                vec![1, 3],
                vec![1, 2]
            ]
        );
        assert_eq!(shorter::<u8>(&[]), Vec::<Vec<u8>>::new());
    }

    #[test]
    fn half_the_inputs_explore_the_whole_domain_and_the_rest_each_stratum_in_turn() {
        let order: Vec<usize> = (0..10).map(|i| half_whole(i, 4)).collect();
        assert_eq!(order, [0, 1, 0, 2, 0, 3, 0, 1, 0, 2]);
        assert!((0..7).all(|i| half_whole(i, 1) == 0));
        // Two strata: the whole domain and one more, which every odd input draws from.
        let two: Vec<usize> = (0..6).map(|i| half_whole(i, 2)).collect();
        assert_eq!(two, [0, 1, 0, 1, 0, 1]);
        // 32 drawn inputs over 16 strata: 16 of the whole domain, every other at least once.
        let counts = (0..32).fold([0usize; 16], |mut counts, i| {
            counts[half_whole(i, 16)] += 1;
            counts
        });
        assert_eq!(counts[0], 16);
        assert!(counts[1..].iter().all(|&n| n >= 1), "{counts:?}");
    }

    #[test]
    fn the_drawn_inputs_come_first_then_the_edges() {
        let inputs = Inputs { drawn: 3, edges: 2 };
        let (drawn, edges) = ([10, 11, 12], [20, 21]);
        let at = drawn_then_edges(inputs, |i| &drawn[i], &edges);
        let order: Vec<u32> = (0..inputs.total() as usize).map(|i| *at(i)).collect();
        assert_eq!(order, [10, 11, 12, 20, 21]);
    }

    fn rng() -> TestRng {
        Generation {
            seed: 7,
            count: None,
            shrink: true,
        }
        .rng("search")
    }

    fn differs() -> Option<Mismatch> {
        Some(Mismatch::new("answer", "expected", "actual"))
    }

    /// A judge under which every input differs, with the size of every batch it saw.
    fn always_differs(
        batches: &RefCell<Vec<usize>>,
    ) -> impl FnMut(&[u32]) -> Vec<Option<Mismatch>> {
        move |inputs| {
            batches.borrow_mut().push(inputs.len());
            inputs.iter().map(|_| differs()).collect()
        }
    }

    #[test]
    fn the_first_differing_input_is_kept_with_how_many_differed() {
        let found = search(
            |_| 0u32..1000,
            6,
            rng(),
            true,
            |inputs: &[u32]| {
                (0..inputs.len())
                    .map(|i| (i == 2 || i == 4).then(differs).flatten())
                    .collect()
            },
            |_| Vec::new(),
        )
        .unwrap()
        .unwrap();
        assert_eq!((found.index, found.failing), (2, 2));
        let none = search(
            |_| 0u32..1000,
            6,
            rng(),
            true,
            |i| vec![None; i.len()],
            |_| vec![],
        );
        assert!(none.unwrap().is_none());
    }

    /// `--no-shrink`: the first differing input is reported as drawn, after one batch
    /// (no shrinking step and no reduction round), while the same run shrinks it.
    #[test]
    fn without_shrinking_the_drawn_input_is_reported_after_one_batch() {
        let draw = |shrink: bool, batches: &RefCell<Vec<usize>>| {
            search(
                |_| 1000u32..2000,
                4,
                rng(),
                shrink,
                always_differs(batches),
                |v: &u32| if *v > 1000 { vec![v - 1] } else { vec![] },
            )
            .unwrap()
            .unwrap()
        };
        let batches = RefCell::new(Vec::new());
        let drawn = draw(false, &batches);
        assert_eq!(*batches.borrow(), [4]);
        assert_eq!((drawn.index, drawn.steps), (0, 0));
        let shrunk = draw(true, &RefCell::new(Vec::new()));
        assert!(shrunk.steps > 0 && shrunk.minimal < drawn.minimal);
        assert_eq!(shrunk.minimal, 1000);
    }

    /// Shrinking a vector whose every simplification still differs takes exactly
    /// `SHRINK_STEPS_MAX` steps (300 elements of 32 bits offer thousands), one input a
    /// step, and counts each.
    #[test]
    fn shrinking_stops_at_the_step_limit_and_counts_its_steps() {
        let batches = RefCell::new(Vec::new());
        let judge = {
            let batches = &batches;
            move |inputs: &[Vec<u32>]| {
                batches.borrow_mut().push(inputs.len());
                inputs.iter().map(|_| differs()).collect()
            }
        };
        let found = search(
            |_| proptest::collection::vec(any::<u32>(), 300),
            3,
            rng(),
            true,
            judge,
            |_| Vec::new(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(found.steps, SHRINK_STEPS_MAX);
        let batches = batches.into_inner();
        assert_eq!(batches[0], 3, "the drawn inputs in one batch");
        assert_eq!(batches.len() - 1, SHRINK_STEPS_MAX as usize);
        assert!(batches[1..].iter().all(|&n| n == 1), "{batches:?}");
    }

    /// Reduction rounds judge at most `REDUCTION_CANDIDATES_MAX` candidates in all: with
    /// 1000 a round and every one differing, rounds of 1000, 1000 and 48, each a step.
    #[test]
    fn reduction_rounds_spend_the_candidate_budget_and_count_a_step_each() {
        let batches = RefCell::new(Vec::new());
        let found = search(
            |_| Just(5u32),
            1,
            rng(),
            true,
            always_differs(&batches),
            |&value| (0..1000).map(|i| value + 1 + i).collect(),
        )
        .unwrap()
        .unwrap();
        let batches = batches.into_inner();
        assert_eq!(batches, vec![1, 1000, 1000, 48]);
        assert_eq!(found.steps, 3);
        // Each round keeps the first candidate that still differs.
        assert_eq!(found.minimal, 5 + 1 + 1 + 1);
    }

    /// Rounds stop after `REDUCTION_ROUNDS_MAX` even with budget left, and at the first
    /// round in which no candidate differs.
    #[test]
    fn reduction_rounds_stop_at_their_limit_and_at_a_round_without_a_difference() {
        let batches = RefCell::new(Vec::new());
        let found = search(
            |_| Just(0u32),
            1,
            rng(),
            true,
            always_differs(&batches),
            |&value| vec![value + 1],
        )
        .unwrap()
        .unwrap();
        assert_eq!(found.steps, REDUCTION_ROUNDS_MAX);
        assert_eq!(found.minimal, REDUCTION_ROUNDS_MAX);
        assert_eq!(
            batches.into_inner().len(),
            1 + REDUCTION_ROUNDS_MAX as usize
        );
        let found = search(
            |_| Just(0u32),
            1,
            rng(),
            true,
            |inputs: &[u32]| {
                inputs
                    .iter()
                    .map(|&v| (v < 3).then(differs).flatten())
                    .collect()
            },
            |&value| vec![value + 1],
        )
        .unwrap()
        .unwrap();
        assert_eq!((found.minimal, found.steps), (2, 2));
    }
}
