//! What a few single checks add to their shape's evaluation, looked up by protocol and
//! check name, each tied to the shape of the cases it reads.
//!
//! A case's shape picks its evaluator and its data states what it expects; the
//! evaluators never name a check. What is left is here, in one table: the figures a
//! source document published (each recorded from the implementation's own answers in
//! this run), and a few self-checks of the spec (a case of
//! `positions_without_32_bit_wrap` must exercise a wrap). This module is the only code
//! outside tests that names a check; the loader refuses a spec that does not document
//! every check named here.

use crate::model::{Case, Hex};
use crate::protocols::doc_membership_v1::checks::text;
use crate::protocols::{doc_membership_v1, fnv1a_utf16_v1};
use crate::report::{Failure, Figures};
use crate::verdict::{Verdict, json};
use bloomproof_wire::doc_membership_v1::BuildInput;
use bloomproof_wire::fnv1a_utf16_v1::{FnvHashes, ScriptAnswer};
use bloomproof_wire::fnv1a_utf16_v1::{FnvPositionsExpect, FnvPositionsInput};
use serde::Serialize;
use serde_json::Value;

/// What an evaluator saw, handed to the hook of the case's check.
pub(crate) enum Seen<'a> {
    /// A `build` case and the packed bits the implementation built, if it built any.
    Build {
        input: &'a BuildInput,
        packed: Option<Vec<u8>>,
    },
    /// A `universe` case: the member snapshot's packed bits and, once looked up, the
    /// non-members' answers.
    Universe {
        packed: Option<Vec<u8>>,
        lookups: Option<UniverseLookups>,
    },
    /// A `fault` case: the pair and bit the implementation's positions gave and the
    /// member its reader named, as far as they were reached.
    Fault {
        removed: Option<Vec<u8>>,
        cleared: Option<u32>,
        damaged: Option<Vec<u8>>,
    },
    /// An `exhaustive` case: the snapshots and queries compared.
    Exhaustive { snapshots: usize, queries: usize },
    /// A `hashes` case and the implementation's answer, if any.
    Hashes {
        input: &'a FnvPositionsInput,
        expect: &'a FnvPositionsExpect,
        got: Option<FnvHashes>,
    },
    /// A `script` case and the implementation's answer, if any.
    Script { answer: Option<ScriptAnswer> },
    /// A case of another shape (no hook reads it).
    Other,
}

/// The non-members' answers in a `universe` case.
pub(crate) struct UniverseLookups {
    pub(crate) tested: usize,
    pub(crate) positives: Vec<Hex>,
    pub(crate) false_duplicates: usize,
}

/// One check's hook: what it adds to the cases of one shape.
struct Hook {
    protocol: &'static str,
    check: &'static str,
    /// The shape of the cases `run` reads (the [`Seen`] it matches).
    shape: &'static str,
    /// The other shapes the check's cases have, of which `run` reads nothing (their
    /// expectations in the data say all there is to check).
    passes_over: &'static [&'static str],
    run: fn(&mut Verdict<'_>, &Seen<'_>, &mut Figures),
}

/// Every hook, at most one per (protocol, check). The loader refuses a case of a
/// hooked check whose shape is neither the hook's `shape` nor one it passes over.
static HOOKS: &[Hook] = &[
    Hook {
        protocol: doc_membership_v1::NAME,
        check: "empty_snapshot_definitely_absent",
        shape: "build",
        passes_over: &[],
        run: empty_snapshot,
    },
    Hook {
        protocol: doc_membership_v1::NAME,
        check: "finite_universe_false_positives_never_become_duplicates",
        shape: "universe",
        passes_over: &[],
        run: fixture_figures,
    },
    Hook {
        protocol: doc_membership_v1::NAME,
        check: "clearing_shared_bit_breaks_no_false_negative_contract",
        shape: "fault",
        passes_over: &[],
        run: fault_figures,
    },
    Hook {
        protocol: doc_membership_v1::NAME,
        check: "all_small_subsets_independent_position_set_oracle",
        shape: "exhaustive",
        passes_over: &[],
        run: exhaustive_figures,
    },
    Hook {
        protocol: fnv1a_utf16_v1::NAME,
        check: "base_hashes_pinned",
        shape: "hashes",
        passes_over: &[],
        run: hashes_of_a,
    },
    Hook {
        protocol: fnv1a_utf16_v1::NAME,
        check: "positions_without_32_bit_wrap",
        shape: "hashes",
        passes_over: &["script"],
        run: exercises_a_wrap,
    },
    Hook {
        protocol: fnv1a_utf16_v1::NAME,
        check: "repeated_positions_kept_in_order",
        shape: "hashes",
        passes_over: &["script"],
        run: repeats_a_position,
    },
    Hook {
        protocol: fnv1a_utf16_v1::NAME,
        check: "a_to_h_fill_every_bit",
        shape: "hashes",
        passes_over: &["script"],
        run: m8_k1_positions,
    },
    Hook {
        protocol: fnv1a_utf16_v1::NAME,
        check: "observed_rate_one_half",
        shape: "script",
        passes_over: &[],
        run: observed_rate,
    },
];

/// The checks of `protocol` that have a hook.
pub(crate) fn checks(protocol: &str) -> impl Iterator<Item = &'static str> {
    HOOKS
        .iter()
        .filter(move |hook| hook.protocol == protocol)
        .map(|hook| hook.check)
}

/// The hook of `check` in `protocol`, if it has one: a check of the same name in the
/// other protocol never picks it up.
fn find(protocol: &str, check: &str) -> Option<&'static Hook> {
    HOOKS
        .iter()
        .find(|hook| hook.protocol == protocol && hook.check == check)
}

/// Why a case of `check` in `protocol` cannot have `shape`: its check's hook reads
/// cases of another shape and does not pass over this one. `None` when it fits.
pub(crate) fn misfit(protocol: &str, check: &str, shape: &str) -> Option<String> {
    find(protocol, check)?.misfit(shape)
}

impl Hook {
    /// Why a case of this hook's check cannot have `shape`, or `None` when it fits.
    fn misfit(&self, shape: &str) -> Option<String> {
        if self.shape == shape || self.passes_over.contains(&shape) {
            return None;
        }
        let passes: Vec<String> = self
            .passes_over
            .iter()
            .map(|other| format!("`{other}`"))
            .collect();
        let passes = if passes.is_empty() {
            String::new()
        } else {
            format!(" (and passes over {})", passes.join(", "))
        };
        Some(format!(
            "check `{}` has a hook (crates/conformance/src/hooks.rs) that reads `{}` cases{passes}, \
             but this case's shape is `{shape}`",
            self.check, self.shape
        ))
    }
}

/// Judges one case of a protocol: its shape's evaluator records the mismatches, then
/// the hook of the case's check in that protocol, if it has one for the case's shape,
/// runs on what the evaluator saw and records the figures.
pub(crate) struct Judge<'f> {
    protocol: &'static str,
    shape: &'static str,
    figures: &'f mut Figures,
}

impl<'f> Judge<'f> {
    /// Judging a case of `protocol` whose shape is `shape`, recording figures into
    /// `figures`.
    pub(crate) fn new(
        protocol: &'static str,
        shape: &'static str,
        figures: &'f mut Figures,
    ) -> Self {
        Judge {
            protocol,
            shape,
            figures,
        }
    }

    /// [`Judge::judge`] for a shape whose evaluator sees nothing a hook reads.
    pub(crate) fn plain<I: Serialize, E>(
        self,
        case: &Case<I, E>,
        evaluate: impl FnOnce(&mut Verdict<'_>),
    ) -> Vec<Failure> {
        self.judge(case, |v| {
            evaluate(v);
            Seen::Other
        })
    }

    /// Judges `case`: `evaluate` (its shape's evaluator) records the mismatches and
    /// says what it saw, then the hook of the case's check, if it has one, runs on that
    /// when the case has the hook's shape. A case of a shape the hook neither reads
    /// nor passes over (a spec the loader did not check) is a failure, never a hook
    /// silently skipped.
    pub(crate) fn judge<'c, I: Serialize, E>(
        self,
        case: &'c Case<I, E>,
        evaluate: impl FnOnce(&mut Verdict<'_>) -> Seen<'c>,
    ) -> Vec<Failure> {
        let mut failures = Vec::new();
        let mut v = Verdict::new(case, &mut failures);
        let seen = evaluate(&mut v);
        if let Some(hook) = find(self.protocol, &case.check) {
            if hook.shape == self.shape {
                (hook.run)(&mut v, &seen, self.figures);
            } else if let Some(misfit) = hook.misfit(self.shape) {
                v.fail(
                    "the case's shape fits its check's hook",
                    "a fitting shape",
                    misfit,
                );
            }
        }
        failures
    }
}

fn empty_snapshot(v: &mut Verdict<'_>, seen: &Seen<'_>, _: &mut Figures) {
    if let Seen::Build { input, packed } = seen {
        v.holds(
            "the snapshot has no records",
            input.records_hex.is_empty(),
            || "records given".into(),
        );
        if let Some(packed) = packed {
            let ones: u32 = packed.iter().map(|b| b.count_ones()).sum();
            v.eq("bits set in an empty snapshot", &0, &ones);
        }
    }
}

fn fixture_figures(_: &mut Verdict<'_>, seen: &Seen<'_>, figures: &mut Figures) {
    let Seen::Universe { packed, lookups } = seen else {
        return;
    };
    if let Some(packed) = packed {
        let ones: u32 = packed.iter().map(|b| b.count_ones()).sum();
        figures.set("fixture.occupied_bits", ones);
        figures.set(
            "fixture.packed_little_endian_hex",
            bloomproof_wire::encode_hex(packed),
        );
    }
    if let Some(seen) = lookups {
        figures.set("fixture.tested_nonmembers", seen.tested);
        figures.set("fixture.realized_false_positives", seen.positives.len());
        figures.set(
            "fixture.false_positive_items",
            seen.positives
                .iter()
                .map(|h| text(&h.0))
                .collect::<Vec<_>>(),
        );
        figures.set("fixture.false_duplicate_decisions", seen.false_duplicates);
    }
}

fn fault_figures(_: &mut Verdict<'_>, seen: &Seen<'_>, figures: &mut Figures) {
    let Seen::Fault {
        removed,
        cleared,
        damaged,
    } = seen
    else {
        return;
    };
    if let (Some(removed), Some(cleared)) = (removed, cleared) {
        figures.set("shared_bit_fault.removed_item", text(removed));
        figures.set("shared_bit_fault.cleared_bit", cleared);
    }
    if let Some(damaged) = damaged {
        figures.set("shared_bit_fault.damaged_member", text(damaged));
    }
}

fn exhaustive_figures(_: &mut Verdict<'_>, seen: &Seen<'_>, figures: &mut Figures) {
    if let Seen::Exhaustive { snapshots, queries } = seen {
        figures.set("independent_oracle_snapshot_count", snapshots);
        figures.set("independent_oracle_queries", queries);
    }
}

fn hashes_of_a(_: &mut Verdict<'_>, seen: &Seen<'_>, figures: &mut Figures) {
    if let Seen::Hashes {
        input,
        got: Some(got),
        ..
    } = seen
        && input.text.as_deref() == Some("a")
    {
        figures.set("a.h1", got.h1);
        figures.set("a.h2", got.h2);
    }
}

fn exercises_a_wrap(v: &mut Verdict<'_>, seen: &Seen<'_>, _: &mut Figures) {
    if let Seen::Hashes { input, expect, .. } = seen {
        let (h1, h2) = (u64::from(expect.h1), u64::from(expect.h2));
        // Below 2^32 the wrapped sum is the sum itself, so only a sum at or above it
        // can differ.
        let differs = (0..input.k).any(|i| {
            let sum = h1 + i * h2;
            sum % input.m != (sum % (1 << 32)) % input.m
        });
        if !differs {
            v.fail(
                "the case exercises a wrap (spec)",
                "some h1 + i*h2 >= 2^32 whose wrapped position differs",
                "none",
            );
        }
    }
}

fn repeats_a_position(v: &mut Verdict<'_>, seen: &Seen<'_>, _: &mut Figures) {
    if let Seen::Hashes { expect, .. } = seen {
        let mut sorted = expect.positions.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() == expect.positions.len() {
            v.fail(
                "the case repeats a position (spec)",
                "a repeat",
                json(&expect.positions),
            );
        }
    }
}

fn m8_k1_positions(_: &mut Verdict<'_>, seen: &Seen<'_>, figures: &mut Figures) {
    if let Seen::Hashes {
        input,
        got: Some(got),
        ..
    } = seen
        && let (8, 1, Some(text), Some(position)) =
            (input.m, input.k, &input.text, got.positions.first())
    {
        figures.set(&format!("m8_k1.position({text})"), position);
    }
}

fn observed_rate(_: &mut Verdict<'_>, seen: &Seen<'_>, figures: &mut Figures) {
    if let Seen::Script {
        answer: Some(answer),
    } = seen
        && let Some(rate) = answer.steps.last().and_then(|step| step.view.get("rate"))
    {
        let count = |key: &str| rate.get(key).map(Value::to_string).unwrap_or_default();
        figures.set(
            "insert_a_query_i_a_b.observed_rate",
            format!("{}/{}", count("false_positives"), count("negative_queries")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{HOOKS, Judge, find};
    use crate::model::Case;
    use crate::protocols::fnv1a_utf16_v1;
    use crate::report::Figures;

    #[test]
    fn each_hook_is_found_by_its_protocol_and_check() {
        for hook in HOOKS {
            let (protocol, check) = (hook.protocol, hook.check);
            // Each (protocol, check) has one hook, found by both names: a check of the
            // same name in another protocol is another check.
            assert!(
                find(protocol, check).is_some_and(|found| std::ptr::eq(found, hook)),
                "{protocol} {check}"
            );
            assert!(crate::PROTOCOLS.contains(&protocol), "{protocol}");
        }
    }

    /// The failures of judging a case of `check` with shape `shape` (an evaluator
    /// that finds nothing wrong).
    fn judged(check: &str, shape: &'static str) -> Vec<(String, String, String)> {
        let case = Case {
            id: "c".to_string(),
            check: check.to_string(),
            rules: Vec::new(),
            flags: Vec::new(),
            comment: None,
            input: (),
            expect: (),
        };
        let mut figures = Figures::default();
        Judge::new(fnv1a_utf16_v1::NAME, shape, &mut figures)
            .plain(&case, |_| {})
            .into_iter()
            .map(|f| (f.what, f.expected, f.actual))
            .collect()
    }

    /// A spec the loader did not check can still hand a hooked check a case of another
    /// shape: that is a failure, never a hook skipped in silence.
    #[test]
    fn a_case_of_a_shape_its_hook_does_not_read_fails() {
        assert_eq!(
            judged("observed_rate_one_half", "estimates"),
            [(
                "the case's shape fits its check's hook".to_string(),
                "a fitting shape".to_string(),
                "check `observed_rate_one_half` has a hook (crates/conformance/src/hooks.rs) \
                 that reads `script` cases, but this case's shape is `estimates`"
                    .to_string()
            )]
        );
        assert_eq!(judged("positions_without_32_bit_wrap", "script"), []);
        assert_eq!(judged("estimates_pinned", "estimates"), []);
    }
}
