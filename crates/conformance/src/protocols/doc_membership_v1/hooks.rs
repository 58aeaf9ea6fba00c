//! The doc-membership family's hooks: what a few of its checks add to their shape's
//! evaluation (the figures a version publishes, recorded from the implementation's own
//! answers to that version's cases), by check name, for any version whose spec
//! documents them (all or none); the run sets each figure beside the running version's
//! `published_figures`. The machinery is `crate::hooks`'.

use super::DocMembership;
use super::checks::text;
use crate::hooks::{Hook, Observed};
use crate::model::Hex;
use crate::report::Figures;
use crate::verdict::Verdict;
use bloomproof_wire::protocols::doc_membership_v1::BuildInput;

/// What an evaluator of `doc-membership-v1` saw, handed to the hook of the case's check.
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
    /// A case of another shape (no hook reads it).
    Other,
}

/// The non-members' answers in a `universe` case.
pub(crate) struct UniverseLookups {
    pub(crate) tested: usize,
    pub(crate) positives: Vec<Hex>,
    pub(crate) false_duplicates: usize,
}

impl Observed for DocMembership {
    type Seen<'a> = Seen<'a>;

    const FILE: &'static str = "crates/conformance/src/protocols/doc_membership_v1/hooks.rs";

    const HOOKS: &'static [Hook<Self>] = &[
        Hook {
            check: "empty_snapshot_definitely_absent",
            shape: "build",
            passes_over: &[],
            run: empty_snapshot,
        },
        Hook {
            check: "finite_universe_false_positives_never_become_duplicates",
            shape: "universe",
            passes_over: &[],
            run: fixture_figures,
        },
        Hook {
            check: "clearing_shared_bit_breaks_no_false_negative_contract",
            shape: "fault",
            passes_over: &[],
            run: fault_figures,
        },
        Hook {
            check: "all_small_subsets_independent_position_set_oracle",
            shape: "exhaustive",
            passes_over: &[],
            run: exhaustive_figures,
        },
    ];

    fn nothing<'a>() -> Seen<'a> {
        Seen::Other
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

#[cfg(test)]
mod tests {
    use super::DocMembership;

    /// Each check has at most one hook, and every hook reads its own shape.
    #[test]
    fn each_hook_is_its_checks_only_one() {
        crate::hooks::assert_one_hook_per_check::<DocMembership>();
    }
}
