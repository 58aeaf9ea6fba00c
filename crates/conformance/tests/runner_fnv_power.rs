//! The `fnv1a-utf16-v1` evaluators see each flaw they are there for: a wrong estimate
//! (by more than the 1e-9 relative tolerance, and not by less), a roundtrip or an
//! export that changes the session, a save outcome that is wrong, missing or comes
//! with a warning. Each test plants one flaw in the production subject and names the
//! check and the case that must fail; each was written against a cargo-mutants
//! survivor of `protocols/fnv1a_utf16_v1/checks/`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use bloomproof_conformance::Report;
use bloomproof_conformance::protocols::fnv1a_utf16_v1;
use bloomproof_conformance::run::{Subjects, run};
use bloomproof_conformance::subjects::fnv1a_utf16_v1::{FnvSubject, RustFnv};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{
    EstimatesAnswer, SaveAnswer, ScriptAnswer, StepAnswer,
};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{FnvCase, ScriptOp, StepExpect};
use common::planted::PlantedFnv;
use common::{failures, fnv_report};
use serde_json::json;

/// Every failure of `report`, whatever its check, as `check: case: what`.
/// Every failure of the checks of written cases: the generated checks, whose inputs
/// change with the seed, catch these flaws too (what they report is pinned in
/// `generated_power.rs`).
fn every_failure(report: &Report) -> Vec<String> {
    let mut every = Vec::new();
    for check in report
        .checks
        .iter()
        .filter(|c| !c.name.starts_with("generated_"))
    {
        let name = &check.name;
        every.extend(
            failures(report, name)
                .iter()
                .map(|f| format!("{name}: {f}")),
        );
    }
    every
}

/// The production answer to every estimate, with `edit` applied to the one of
/// m = 64, k = 3, n = 10 (the case `22-m64-k3-n10`).
fn estimate_of_64_3_10(edit: fn(&mut EstimatesAnswer)) -> Report {
    let fnv = PlantedFnv::new("flawed").on_estimates(move |real, m, k, n| {
        let mut answer = real.estimates(m, k, n)?;
        if (m, k, n) == (64, 3, 10) {
            edit(&mut answer);
        }
        Ok(answer)
    });
    fnv_report(fnv)
}

#[test]
fn an_estimate_off_by_a_relative_1e_7_fails() {
    // About 5e-9 off a value of about 0.052: more than 1e-9 relative, less than
    // 1e-9 / 0.052 absolute, so a tolerance that divides by the value lets it pass.
    let report = estimate_of_64_3_10(|answer| answer.classic *= 1.0 + 1e-7);
    assert_eq!(
        every_failure(&report),
        [
            "estimates_pinned: 22-m64-k3-n10: classic (within 1e-9 relative)",
            // The core check of the classic estimate alone.
            "classic_estimate_pinned: 27-m64-k3-n10: classic (within 1e-9 relative)"
        ]
    );
}

#[test]
fn an_estimate_off_by_a_relative_1e_12_passes() {
    let report = estimate_of_64_3_10(|answer| {
        answer.classic *= 1.0 + 1e-12;
        answer.finite_m *= 1.0 - 1e-12;
        answer.exact *= 1.0 + 1e-12;
    });
    assert_eq!(every_failure(&report), Vec::<String>::new());
}

#[test]
fn a_wrong_optimal_k_fails() {
    let report = estimate_of_64_3_10(|answer| answer.optimal_k += 1);
    assert_eq!(
        every_failure(&report),
        ["estimates_pinned: 22-m64-k3-n10: optimal_k"]
    );
}

/// The production answer to every script, with `edit` applied to the answer of each
/// step whose op `which` picks.
fn steps_edited(
    which: impl Fn(&ScriptOp) -> bool + Send + 'static,
    edit: impl Fn(&mut StepAnswer) + Send + 'static,
) -> PlantedFnv {
    PlantedFnv::new("flawed").on_session(move |real, script| {
        let mut answer: ScriptAnswer = real.session(script)?;
        for (op, step) in script.iter().zip(&mut answer.steps) {
            if which(op) {
                edit(step);
            }
        }
        Ok(answer)
    })
}

/// An importer that forgets the history: the session after `roundtrip` has none.
#[test]
fn a_roundtrip_that_loses_the_history_fails() {
    let fnv = steps_edited(
        |op| matches!(op, ScriptOp::Roundtrip {}),
        |step| step.view["history"] = json!([]),
    );
    let rule = "{\"op\":\"roundtrip\"}: the imported session equals the exported one";
    assert_eq!(
        every_failure(&fnv_report(fnv)),
        [
            // The other checks with a roundtrip step.
            format!("export_import_round_trip: 17-populated: step 10 {rule}"),
            format!("export_import_round_trip: 17-full-history: step 5 {rule}"),
            // Its expected view there names the history too.
            "export_import_round_trip: 17-full-history: step 5 {\"op\":\"roundtrip\"}: view"
                .to_string(),
            format!("export_import_round_trip: 17-counters/saturate-at-max: step 2 {rule}"),
            format!("export_import_round_trip: 17-counters/saturate-at-max: step 4 {rule}"),
            format!("export_import_round_trip: 17-layout: step 12 {rule}"),
            // The export after it compares the edited view with the export's.
            "export_import_round_trip: 17-layout: step 13 {\"op\":\"export\"}: exporting leaves the session unchanged"
                .to_string(),
            // Cases moved from core checks into the interop check of SESSION.md's decisions.
            format!("session_decisions_pinned: 26-drafts/1024-units: step 11 {rule}"),
            format!("session_decisions_pinned: 26-view-estimates: step 12 {rule}"),
        ]
    );
}

/// `17-populated` has no export step of its own (`roundtrip` exports inside the subject), so it
/// gets one at its end, in memory.
#[test]
fn an_export_that_changes_the_session_fails() {
    let mut spec = common::spec();
    let mut added = false;
    for protocol in &mut spec.protocols {
        if let Some(cases) = protocol
            .cases
            .as_any_mut()
            .downcast_mut::<bloomproof_conformance::protocols::Cases<FnvCase>>()
        {
            for case in &mut cases.list {
                if let FnvCase::Script(c) = case
                    && c.id == "17-populated"
                {
                    c.input.script.push(ScriptOp::Export {});
                    c.expect.steps.push(StepExpect::default());
                    added = true;
                }
            }
        }
    }
    assert!(added, "the spec has the case 17-populated");
    let check = |fnv: Box<dyn FnvSubject + Send>| {
        let mut subjects = Subjects::rust().with(fnv1a_utf16_v1::subject(fnv));
        run(&spec, &mut subjects, Some("export_import_round_trip"))
    };
    let fine = check(Box::new(RustFnv));
    assert_eq!(every_failure(&fine), Vec::<String>::new());
    // Exporting clears the query draft ("half typed" before the step).
    let flawed = check(Box::new(steps_edited(
        |op| matches!(op, ScriptOp::Export {}),
        |step| step.view["drafts"]["query"] = json!(""),
    )));
    assert_eq!(
        every_failure(&flawed),
        [
            "export_import_round_trip: 17-populated: step 12 {\"op\":\"export\"}: exporting leaves the session unchanged",
            // 17-layout's own export steps, with the query draft "say \"hi\"\n" before them.
            "export_import_round_trip: 17-layout: step 9 {\"op\":\"export\"}: exporting leaves the session unchanged",
            "export_import_round_trip: 17-layout: step 13 {\"op\":\"export\"}: exporting leaves the session unchanged",
        ]
    );
}

fn save_steps_edited(edit: fn(&mut Option<SaveAnswer>)) -> Vec<String> {
    let fnv = steps_edited(
        |op| matches!(op, ScriptOp::SaveLocal { units: 100_000, .. }),
        move |step| edit(&mut step.save),
    );
    // Only 21-hundred-thousand's step (17-layout saves 100 000 units too).
    every_failure(&fnv_report(fnv))
        .into_iter()
        .filter(|failure| failure.starts_with("local_save_limit: 21-hundred-thousand:"))
        .collect()
}

const SAVE_STEP: &str =
    "local_save_limit: 21-hundred-thousand: step 3 {\"op\":\"save_local\",\"units\":100000}";

/// 100 000 code units is within the limit: saved. Answered `kept`, with a warning.
#[test]
fn a_wrong_save_outcome_fails() {
    let found = save_steps_edited(|save| {
        let save = save.as_mut().unwrap();
        save.outcome = "kept".into();
        save.warning = Some("too large for local storage".into());
    });
    assert_eq!(found, [format!("{SAVE_STEP}: save outcome")]);
}

/// Saved, and stored whole, but with a warning.
#[test]
fn a_saved_state_with_a_warning_fails() {
    let found = save_steps_edited(|save| {
        save.as_mut().unwrap().warning = Some("saved".into());
    });
    assert_eq!(
        found,
        [format!(
            "{SAVE_STEP}: a saved state is stored whole, with no warning"
        )]
    );
}

/// Saved, with no warning, but stored short.
#[test]
fn a_saved_state_stored_short_fails() {
    let found = save_steps_edited(|save| save.as_mut().unwrap().stored_units -= 1);
    assert_eq!(
        found,
        [format!(
            "{SAVE_STEP}: a saved state is stored whole, with no warning"
        )]
    );
}

/// No save answer at all for a `save_local` step.
#[test]
fn a_missing_save_outcome_fails() {
    let found = save_steps_edited(|save| *save = None);
    assert_eq!(found, [format!("{SAVE_STEP}: save outcome")]);
}

/// The checks that fail in `report`, each with its class.
fn failing_checks(report: &Report) -> Vec<(String, bloomproof_conformance::report::Class)> {
    report
        .checks
        .iter()
        .filter(|c| !c.failures.is_empty())
        .map(|c| (c.name.clone(), c.class))
        .collect()
}

/// A rejected step that shows itself in the history (a reading seed 002 leaves open:
/// it says an invalid import keeps the filter, not the page) fails only the checks of
/// SESSION.md's decisions, never a core one; the same step that changes the bits fails
/// a core one.
#[test]
fn a_rejected_step_is_held_to_the_filter_in_core_and_to_the_view_elsewhere() {
    use bloomproof_conformance::report::Class;
    let in_the_history = steps_edited(
        |_| true,
        |step| {
            if step.error.is_some() {
                step.view["history"] = json!([]);
            }
        },
    );
    let failing = failing_checks(&fnv_report(in_the_history));
    assert!(
        !failing.is_empty(),
        "the interop checks judge the whole view"
    );
    assert!(
        failing.iter().all(|(_, class)| *class != Class::Core),
        "{failing:?}"
    );
    let in_the_bits = steps_edited(
        |_| true,
        |step| {
            if step.error.is_some()
                && let Some(bits) = step.view["bits"].as_str()
            {
                let flipped: String = bits
                    .chars()
                    .enumerate()
                    .map(|(i, c)| match (i, c) {
                        (0, '0') => '1',
                        (0, _) => '0',
                        (_, c) => c,
                    })
                    .collect();
                step.view["bits"] = json!(flipped);
            }
        },
    );
    let failing = failing_checks(&fnv_report(in_the_bits));
    assert!(
        failing.iter().any(|(_, class)| *class == Class::Core),
        "{failing:?}"
    );
}
