//! The generated checks catch what no case of the spec looks at: a subject right on
//! every input the spec's cases hold and wrong elsewhere fails, with the minimal input
//! that still differs, and the same seed replays the same failure.

#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use bloomproof_conformance::generated::Generation;
use bloomproof_conformance::protocols::{doc_membership_v1, fnv1a_utf16_v1};
use bloomproof_conformance::run::{Subjects, run};
use bloomproof_conformance::subject::{Answer, UnderTest};
use bloomproof_conformance::subjects::doc_membership_v1::{
    DocSubject, Mutation, RawParams, RustDoc,
};
use bloomproof_conformance::subjects::fnv1a_utf16_v1::{FnvSubject, RustFnv};
use bloomproof_conformance::{Failure, Report, Spec};
use bloomproof_wire::protocols::doc_membership_v1::{Built, Framed, Triple, TypedCall};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{EstimatesAnswer, FnvHashes, ScriptAnswer};
use serde_json::{Value, json};

/// `RustDoc` wrong for every m above 300 and below 512, none of which a case of the
/// spec uses: its positions (the first one moved by one), or the first answer of each
/// lookup and read (`maybe_present` flipped).
#[derive(Clone, Copy, PartialEq, Eq)]
enum WrongAboveM300 {
    Positions,
    Lookups,
}

impl WrongAboveM300 {
    fn bends(self, flaw: Self, params: &RawParams) -> bool {
        self == flaw && params.m > 300 && params.m < 512
    }

    /// The triples, the first one's `maybe_present` flipped where lookups are bent.
    fn triples(self, params: &RawParams, answer: Answer<Vec<Triple>>) -> Answer<Vec<Triple>> {
        let mut triples = answer?;
        if self.bends(Self::Lookups, params)
            && let Some(first) = triples.first_mut()
        {
            first.maybe_present = !first.maybe_present;
        }
        Ok(triples)
    }
}

impl UnderTest for WrongAboveM300 {
    fn name(&self) -> String {
        match self {
            Self::Positions => "positions wrong for 300 < m < 512".into(),
            Self::Lookups => "the first lookup answer wrong for 300 < m < 512".into(),
        }
    }
}

impl DocSubject for WrongAboveM300 {
    fn sha256(&mut self, data: &[u8]) -> Answer<Vec<u8>> {
        RustDoc::v1().sha256(data)
    }
    fn frame(&mut self, params: &RawParams, index: u8, item: &[u8]) -> Answer<Framed> {
        RustDoc::v1().frame(params, index, item)
    }
    fn positions(&mut self, params: &RawParams, item: &[u8]) -> Answer<Vec<u16>> {
        let mut positions = RustDoc::v1().positions(params, item)?;
        if self.bends(Self::Positions, params) {
            positions[0] = (positions[0] + 1) % params.m as u16;
        }
        Ok(positions)
    }
    fn build(&mut self, params: &RawParams, records: &[Vec<u8>]) -> Answer<Built> {
        RustDoc::v1().build(params, records)
    }
    fn lookup(&mut self, p: &RawParams, r: &[Vec<u8>], i: &[Vec<u8>]) -> Answer<Vec<Triple>> {
        self.triples(p, RustDoc::v1().lookup(p, r, i))
    }
    fn typed(&mut self, call: &TypedCall) -> Answer<Option<Triple>> {
        RustDoc::v1().typed(call)
    }
    fn read(
        &mut self,
        p: &RawParams,
        r: &[Vec<u8>],
        packed: &[u8],
        i: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        self.triples(p, RustDoc::v1().read(p, r, packed, i))
    }
    fn mutate(
        &mut self,
        p: &RawParams,
        r: &[Vec<u8>],
        other: (&RawParams, &[Vec<u8>]),
        attempt: bloomproof_wire::protocols::doc_membership_v1::MutationAttempt,
        probes: &[Vec<u8>],
    ) -> Answer<Mutation> {
        RustDoc::v1().mutate(p, r, other, attempt, probes)
    }
}

/// The generated snapshots judge every item looked up, by `lookup_many` and by `read`:
/// a subject whose first answer is wrong only at an m no case uses fails both checks,
/// shrunk to one item at the smallest such m, and passes the hashing (its positions are
/// right).
#[test]
fn lookups_wrong_only_where_no_case_looks_fail_with_one_item() {
    for (check, what) in [
        (
            "doc-membership-v1/generated_snapshots",
            "lookup_many: answer 0",
        ),
        (
            "doc-membership-v1/generated_reads",
            "read of the oracle's packed bits: answer 0",
        ),
    ] {
        let report = run_with(WrongAboveM300::Lookups, RustFnv, check, 7);
        let failure = first_failure(&report);
        assert!(failure.what.starts_with(what), "{check}: {}", failure.what);
        // Shrunk to the least input that shows it: one empty item at m 301, k 1, no seed,
        // no record.
        let input = &failure.input;
        assert_eq!(
            input["params"],
            json!({"m": 301, "k": 1, "seed_hex": ""}),
            "{check}: {input}"
        );
        assert_eq!(
            (&input["records_hex"], &input["other_items_hex"]),
            (&json!([]), &json!([""])),
            "{check}: {input}"
        );
        // The stages asked of the subject, on the same input: its hashing is right, so
        // the difference is in building or answering.
        let stages = &report.checks[0].failures[1];
        assert_eq!(
            stages.what,
            "first difference (stages, asked of the implementation)"
        );
        assert_eq!(&stages.input, input);
        assert!(
            stages.actual.starts_with(
                "no stage differs for the 1 item(s) checked: their positions and the packed \
                 bytes of a one-record snapshot equal the oracle's"
            ),
            "{check}: {}",
            stages.actual
        );
    }
    let hashing = run_with(
        WrongAboveM300::Lookups,
        RustFnv,
        "doc-membership-v1/generated_hashing",
        7,
    );
    assert_eq!(hashing.failed, 0, "{}", hashing.render_text());
}

/// `RustFnv` hashing as an FNV unrolled by four whose tail drops its last unit when
/// three are left over, for strings longer than 8 units (no case's string is), and
/// whose exact estimate is the finite-m one except at the spec's pinned points.
struct WrongTails;

/// The (m, k, n) of every `estimates` case of the spec.
fn pinned() -> &'static Vec<(u32, u32, u32)> {
    static PINNED: std::sync::OnceLock<Vec<(u32, u32, u32)>> = std::sync::OnceLock::new();
    PINNED.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../spec/fnv1a-utf16-v1/cases.json"
        );
        let cases: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let n = |v: &Value| u32::try_from(v.as_u64().unwrap()).unwrap();
        cases["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["shape"] == "estimates")
            .map(|c| {
                (
                    n(&c["input"]["m"]),
                    n(&c["input"]["k"]),
                    n(&c["input"]["n"]),
                )
            })
            .collect()
    })
}

impl UnderTest for WrongTails {
    fn name(&self) -> String {
        "fnv tail and estimates wrong off the spec's points".into()
    }
}

impl FnvSubject for WrongTails {
    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        if units.len() > 8 && units.len() % 4 == 3 {
            return RustFnv.positions(m, k, &units[..units.len() - 1]);
        }
        RustFnv.positions(m, k, units)
    }
    fn session(
        &mut self,
        script: &[bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp],
    ) -> Answer<ScriptAnswer> {
        RustFnv.session(script)
    }
    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        let mut answer = RustFnv.estimates(m, k, n)?;
        if !pinned().contains(&(m, k, n)) {
            answer.exact = answer.finite_m;
        }
        Ok(answer)
    }
}

/// `RustFnv` whose views count one distinct entry too many past 1000 entries.
struct WrongNearTheCap;

impl UnderTest for WrongNearTheCap {
    fn name(&self) -> String {
        "distinct_entries wrong past 1000".into()
    }
}

impl FnvSubject for WrongNearTheCap {
    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        RustFnv.positions(m, k, units)
    }
    fn session(
        &mut self,
        script: &[bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp],
    ) -> Answer<ScriptAnswer> {
        let mut answer = RustFnv.session(script)?;
        for step in &mut answer.steps {
            if let Some(n) = step.view["distinct_entries"].as_u64().filter(|&n| n > 1000) {
                step.view["distinct_entries"] = json!(n + 1);
            }
        }
        Ok(answer)
    }
    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        RustFnv.estimates(m, k, n)
    }
}

fn run_with(
    doc: impl DocSubject + Send + 'static,
    fnv: impl FnvSubject + Send + 'static,
    filter: &str,
    seed: u64,
) -> Report {
    let mut spec = common::spec();
    spec.set_generation(Generation {
        seed,
        count: Some(64),
        shrink: true,
    });
    let mut subjects = Subjects::rust()
        .with(doc_membership_v1::subject(Box::new(doc)))
        .with(fnv1a_utf16_v1::subject(Box::new(fnv)));
    run(&spec, &mut subjects, Some(filter))
}

/// The first failure of the one check the filter names.
fn first_failure(report: &Report) -> Failure {
    assert_eq!(report.checks.len(), 1, "{}", report.render_text());
    report.checks[0]
        .failures
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("the flawed subject passed:\n{}", report.render_text()))
}

#[test]
fn positions_wrong_only_where_no_case_looks_fail_with_the_smallest_m() {
    let report = run_with(
        WrongAboveM300::Positions,
        RustFnv,
        "doc-membership-v1/generated_hashing",
        7,
    );
    let failure = first_failure(&report);
    assert!(
        failure.what.starts_with("positions equal the oracle's"),
        "{}",
        failure.what
    );
    assert!(
        failure.what.contains("seed 7, replay with --seed 7"),
        "{}",
        failure.what
    );
    // The edge inputs spec/README.md counts for this case ("Edge inputs").
    assert!(
        failure
            .what
            .contains("(64 drawn, then 54 at the ranges' edges)"),
        "{}",
        failure.what
    );
    // Shrunk: the smallest m the flaw shows at, k 1, no seed, an empty item.
    assert_eq!(
        failure.input,
        json!({"params": {"m": 301, "k": 1, "seed_hex": ""}, "item_hex": ""})
    );
    // The first difference names the stage: the reduction.
    let stage = &report.checks[0].failures[1];
    assert!(stage.what.starts_with("first difference"), "{}", stage.what);
    assert!(
        stage.actual.contains("position: expected"),
        "{}",
        stage.actual
    );
    // The seed replays the run exactly; in process the same subject passes.
    let again = run_with(
        WrongAboveM300::Positions,
        RustFnv,
        "doc-membership-v1/generated_hashing",
        7,
    );
    assert_eq!(again.checks[0].failures, report.checks[0].failures);
    let fine = run_with(
        RustDoc::v1(),
        RustFnv,
        "doc-membership-v1/generated_hashing",
        7,
    );
    assert_eq!(fine.failed, 0, "{}", fine.render_text());
    // The rest of the suite does not see the flaw (it is right on every spec input).
    let spec_only = run_with(
        WrongAboveM300::Positions,
        RustFnv,
        "doc-membership-v1/every_stage_pinned",
        7,
    );
    assert_eq!(spec_only.failed, 0, "{}", spec_only.render_text());
}

#[test]
fn a_broken_fnv_tail_fails_with_the_shortest_string() {
    let report = run_with(
        RustDoc::v1(),
        WrongTails,
        "fnv1a-utf16-v1/generated_hashes",
        11,
    );
    let failure = first_failure(&report);
    assert!(failure.what.contains("seed 11"), "{}", failure.what);
    // 11 units is the shortest string longer than 8 with three left over; each unit 0.
    assert_eq!(failure.input, json!({"m": 8, "k": 1, "units": vec![0; 11]}));
    // The first difference names the stage: h1, at the string's last unit.
    let stage = &report.checks[0].failures[1];
    assert!(stage.what.starts_with("first difference"), "{}", stage.what);
    assert!(
        stage.actual.starts_with("h1: expected ")
            && stage
                .actual
                .contains("they first differ for the first 11 of 11 code units"),
        "{}",
        stage.actual
    );
}

#[test]
fn an_estimate_exact_only_at_the_pinned_points_fails_at_the_smallest_point() {
    let report = run_with(
        RustDoc::v1(),
        WrongTails,
        "fnv1a-utf16-v1/generated_estimates",
        3,
    );
    let failure = first_failure(&report);
    assert!(
        failure.what.starts_with("estimates: exact"),
        "{}",
        failure.what
    );
    // k = 1 makes finite_m exact; the smallest point where they differ is k 2, n 1.
    assert_eq!(failure.input, json!({"m": 8, "k": 2, "n": 1}));
    let spec_only = run_with(
        RustDoc::v1(),
        WrongTails,
        "fnv1a-utf16-v1/estimates_pinned",
        3,
    );
    assert_eq!(spec_only.failed, 0, "{}", spec_only.render_text());
}

#[test]
fn a_session_wrong_near_the_entry_cap_fails_with_a_short_script() {
    let report = run_with(
        RustDoc::v1(),
        WrongNearTheCap,
        "fnv1a-utf16-v1/generated_sessions_agree_with_model",
        5,
    );
    let failure = first_failure(&report);
    assert!(
        failure.what.contains("view.distinct_entries"),
        "{}",
        failure.what
    );
    let script = failure.input["script"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    // A filter, and the one step that fills it past 1000.
    assert!(script.len() <= 4, "{script:?}");
    let last = script.last().cloned().unwrap_or(Value::Null);
    assert_eq!(last["op"], "insert_many", "{script:?}");
    assert_eq!(last["count"], 1010, "{script:?}");
    // The core comparison, by the page's rules alone, finds it too: a distinct count
    // that is not the number of strings inserted, at the step that inserts past 1000.
    let core = run_with(
        RustDoc::v1(),
        WrongNearTheCap,
        "fnv1a-utf16-v1/generated_sessions_follow_the_page",
        5,
    );
    let failure = first_failure(&core);
    assert!(
        failure
            .what
            .contains("(insert_many): inserting 1010 strings in order"),
        "{}",
        failure.what
    );
}

/// `RustFnv` with its estimates bent by the function it holds (named by the text).
struct BentEstimates(
    String,
    Box<dyn Fn(u32, u32, u32) -> Answer<EstimatesAnswer> + Send>,
);

impl UnderTest for BentEstimates {
    fn name(&self) -> String {
        self.0.clone()
    }
}

impl FnvSubject for BentEstimates {
    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        RustFnv.positions(m, k, units)
    }
    fn session(
        &mut self,
        ops: &[bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp],
    ) -> Answer<ScriptAnswer> {
        RustFnv.session(ops)
    }
    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        (self.1)(m, k, n)
    }
}

/// The estimates of `subject` over the cases' own counts (no `--random`) with `seed`.
/// One run of the generated estimates against `subject`, of `spec` at `seed` with
/// `count` inputs a case (`None`: the cases' own). Not shrunk: these tests read only
/// which check a failure is of, and shrinking each failure through the estimates'
/// exact distributions took most of their time.
fn estimates_run(spec: &Spec, subject: BentEstimates, seed: u64, count: Option<u32>) -> Report {
    let mut spec = spec.clone();
    spec.set_generation(Generation {
        seed,
        count,
        shrink: false,
    });
    let mut subjects = Subjects::rust().with(fnv1a_utf16_v1::subject(Box::new(subject)));
    run(
        &spec,
        &mut subjects,
        Some("fnv1a-utf16-v1/generated_estimates"),
    )
}

/// `RustFnv` whose exact estimate is taken to be 1 once the load k·n/m (of the clamped
/// parameters) reaches `threshold`: the filter deemed saturated.
fn saturated_shortcut(threshold: u32) -> BentEstimates {
    BentEstimates(
        format!("exact 1 once k*n >= {threshold}m"),
        Box::new(move |m, k, n| {
            let (m_used, k_used, n_used) = bloomproof_oracle::estimates::clamped(m, k, n);
            let saturated =
                u64::from(k_used) * u64::from(n_used) >= u64::from(threshold) * u64::from(m_used);
            RustFnv.estimates(m, k, n).map(|answer| EstimatesAnswer {
                exact: if saturated { 1.0 } else { answer.exact },
                ..answer
            })
        }),
    )
}

/// A shortcut over one range of loads fails on every seed at the cases' own counts
/// (no `--random`): the estimates are drawn from strata of the load, so every run
/// holds points of every load, the saturated ones among them. Drawn uniformly over
/// (m, k, n), 32 points miss the loads 16 to 21 in about one run of seven.
#[test]
fn a_saturation_shortcut_at_any_load_fails_on_every_seed() {
    let spec = common::spec();
    for threshold in [1, 4, 8, 12, 16, 18, 20] {
        for seed in 1..=6 {
            let report = estimates_run(&spec, saturated_shortcut(threshold), seed, None);
            let failure = first_failure(&report);
            assert!(
                failure.what.starts_with("estimates: exact"),
                "threshold {threshold}, seed {seed}: {}",
                failure.what
            );
        }
    }
}

/// The strata of the load keep the domain's raw values: where a load is out of reach
/// (m up to 2^32 - 1 with n at most 2), the point drawn from the whole domain stands,
/// so an m wrapped past 2^31 fails on every seed at the cases' own counts.
#[test]
fn an_m_wrapped_past_2_31_fails_on_every_seed() {
    // The estimates read m as a signed 32-bit number: an m of 2^31 or more wraps
    // negative and is clamped to 8 instead of 1024.
    let signed_m = || {
        BentEstimates(
            "m read as i32".into(),
            Box::new(|m, k, n| RustFnv.estimates(if m >= 1 << 31 { 8 } else { m }, k, n)),
        )
    };
    let spec = common::spec();
    for seed in 1..=6 {
        let report = estimates_run(&spec, signed_m(), seed, None);
        let failure = first_failure(&report);
        assert!(
            failure.what.starts_with("estimates"),
            "seed {seed}: {}",
            failure.what
        );
    }
}

/// An integer read too narrowly, or clamped one off, fails on every seed with one
/// input drawn per case (`--random 1`): the edges of each range (its ends, each power
/// of two and each clamp limit, with their neighbours) show it. Drawn uniformly, most of these show once in hundreds or
/// thousands of inputs (an n read as i32 survived about one run in a hundred at the
/// cases' own counts before the edges were judged).
#[test]
fn an_integer_read_too_narrow_or_clamped_one_off_fails_on_every_seed() {
    type Bend = fn(u32, u32, u32) -> (u32, u32, u32);
    let flaws: [(&str, Bend); 9] = [
        ("n read as i32", |m, k, n| {
            (m, k, if n >= 1 << 31 { 0 } else { n })
        }),
        ("n read as u16", |m, k, n| (m, k, n & 0xFFFF)),
        ("m read as i32", |m, k, n| {
            (if m >= 1 << 31 { 8 } else { m }, k, n)
        }),
        ("m read as u16", |m, k, n| (m & 0xFFFF, k, n)),
        ("k read as u8", |m, k, n| (m, k & 0xFF, n)),
        ("n clamped to 1023", |m, k, n| (m, k, n.min(1023))),
        ("m clamped to 1023", |m, k, n| (m.min(1023), k, n)),
        ("m clamped up to 9", |m, k, n| (m.max(9), k, n)),
        ("k clamped to 11", |m, k, n| (m, k.min(11), n)),
    ];
    let spec = common::spec();
    for (name, bend) in flaws {
        for seed in 1..=8 {
            let subject = BentEstimates(
                name.into(),
                Box::new(move |m, k, n| {
                    let (m, k, n) = bend(m, k, n);
                    RustFnv.estimates(m, k, n)
                }),
            );
            let report = estimates_run(&spec, subject, seed, Some(1));
            let failure = first_failure(&report);
            assert!(
                failure.what.starts_with("estimates"),
                "{name}, seed {seed}: {}",
                failure.what
            );
        }
    }
}
