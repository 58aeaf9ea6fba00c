//! `fnv1a-utf16-v1`'s hooks: what a few of its checks add to their shape's evaluation
//! (the figures the sources published, recorded from the implementation's own
//! answers, and self-checks of the spec's cases), by check name. The machinery is
//! `crate::hooks`'.

use super::Fnv1aUtf16V1;
use crate::hooks::{Hook, Observed};
use crate::report::Figures;
use crate::verdict::{Verdict, json};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{
    FnvHashes, FnvPositionsExpect, FnvPositionsInput, ScriptAnswer,
};
use serde_json::Value;

/// What an evaluator of `fnv1a-utf16-v1` saw, handed to the hook of the case's check.
pub(crate) enum Seen<'a> {
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

impl Observed for Fnv1aUtf16V1 {
    type Seen<'a> = Seen<'a>;

    const FILE: &'static str = "crates/conformance/src/protocols/fnv1a_utf16_v1/hooks.rs";

    const HOOKS: &'static [Hook<Self>] = &[
        Hook {
            check: "base_hashes_pinned",
            shape: "hashes",
            passes_over: &[],
            run: hashes_of_a,
        },
        Hook {
            check: "positions_without_32_bit_wrap",
            shape: "hashes",
            passes_over: &["script"],
            run: exercises_a_wrap,
        },
        Hook {
            check: "repeated_positions_kept_in_order",
            shape: "hashes",
            passes_over: &["script"],
            run: repeats_a_position,
        },
        Hook {
            check: "a_to_h_fill_every_bit",
            shape: "hashes",
            passes_over: &["script"],
            run: m8_k1_positions,
        },
        Hook {
            check: "observed_rate_one_half",
            shape: "script",
            passes_over: &[],
            run: observed_rate,
        },
    ];

    fn nothing<'a>() -> Seen<'a> {
        Seen::Other
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
    use super::Fnv1aUtf16V1;
    use crate::hooks::Judge;
    use crate::model::Case;
    use crate::report::Figures;

    /// Each check has at most one hook, and every hook reads its own shape.
    #[test]
    fn each_hook_is_its_checks_only_one() {
        crate::hooks::assert_one_hook_per_check::<Fnv1aUtf16V1>();
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
        Judge::<Fnv1aUtf16V1>::new(shape, &mut figures)
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
                "check `observed_rate_one_half` has a hook \
                 (crates/conformance/src/protocols/fnv1a_utf16_v1/hooks.rs) \
                 that reads `script` cases, but this case's shape is `estimates`"
                    .to_string()
            )]
        );
        assert_eq!(judged("positions_without_32_bit_wrap", "script"), []);
        assert_eq!(judged("estimates_pinned", "estimates"), []);
    }
}
