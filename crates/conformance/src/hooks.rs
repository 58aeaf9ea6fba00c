//! What a few single checks add to their shape's evaluation, looked up by check name
//! in the table of the case's protocol, each tied to the shape of the cases it reads.
//!
//! A case's shape picks its evaluator and its data states what it expects; the
//! evaluators never name a check. What is left is each protocol's hooks
//! (`protocols/<protocol>/hooks.rs`, one table per protocol): the figures a source
//! document published (each recorded from the implementation's own answers in this
//! run), and a few self-checks of the spec (a case of `positions_without_32_bit_wrap`
//! must exercise a wrap). Those tables are the only code outside tests that names a
//! check; the loader refuses a spec that does not document every check named in its
//! protocol's table. This module is the machinery every protocol shares: it names no
//! protocol, no check and no case type.

use crate::model::Case;
use crate::report::{Failure, Figures};
use crate::verdict::Verdict;
use serde::Serialize;

/// One protocol's hooks: what its evaluators see ([`Observed::Seen`], handed to the
/// hook of the case's check) and its table of hooks.
pub(crate) trait Observed: Sized + 'static {
    /// What an evaluator of this protocol saw.
    type Seen<'a>;

    /// The file of this protocol's hooks, named by the loader's errors.
    const FILE: &'static str;

    /// Every hook of this protocol, at most one per check. The loader refuses a case of
    /// a hooked check whose shape is neither the hook's `shape` nor one it passes over.
    const HOOKS: &'static [Hook<Self>];

    /// What an evaluator that sees nothing a hook reads hands over.
    fn nothing<'a>() -> Self::Seen<'a>;
}

/// One check's hook: what it adds to the cases of one shape.
pub(crate) struct Hook<P: Observed> {
    /// The check, in the hook's protocol.
    pub(crate) check: &'static str,
    /// The shape of the cases `run` reads.
    pub(crate) shape: &'static str,
    /// The other shapes the check's cases have, of which `run` reads nothing (their
    /// expectations in the data say all there is to check).
    pub(crate) passes_over: &'static [&'static str],
    /// What the hook does with what the evaluator saw.
    pub(crate) run: for<'a> fn(&mut Verdict<'_>, &P::Seen<'a>, &mut Figures),
}

/// The checks of `P` that have a hook.
pub(crate) fn checks<P: Observed>() -> impl Iterator<Item = &'static str> {
    P::HOOKS.iter().map(|hook| hook.check)
}

/// The hook of `check` in `P`, if it has one: a check of the same name in another
/// protocol never picks it up.
fn find<P: Observed>(check: &str) -> Option<&'static Hook<P>> {
    P::HOOKS.iter().find(|hook| hook.check == check)
}

/// Why a case of `check` in `P` cannot have `shape`: its check's hook reads cases of
/// another shape and does not pass over this one. `None` when it fits.
pub(crate) fn misfit<P: Observed>(check: &str, shape: &str) -> Option<String> {
    find::<P>(check)?.misfit(shape)
}

impl<P: Observed> Hook<P> {
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
            "check `{}` has a hook ({}) that reads `{}` cases{passes}, \
             but this case's shape is `{shape}`",
            self.check,
            P::FILE,
            self.shape
        ))
    }
}

/// Judges one case of protocol `P`: its shape's evaluator records the mismatches, then
/// the hook of the case's check in `P`, if it has one for the case's shape, runs on
/// what the evaluator saw and records the figures.
pub(crate) struct Judge<'f, P: Observed> {
    shape: &'static str,
    figures: &'f mut Figures,
    protocol: std::marker::PhantomData<P>,
}

impl<'f, P: Observed> Judge<'f, P> {
    /// Judging a case of `P` whose shape is `shape`, recording figures into `figures`.
    pub(crate) fn new(shape: &'static str, figures: &'f mut Figures) -> Self {
        Judge {
            shape,
            figures,
            protocol: std::marker::PhantomData,
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
            P::nothing()
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
        evaluate: impl FnOnce(&mut Verdict<'_>) -> P::Seen<'c>,
    ) -> Vec<Failure> {
        let mut failures = Vec::new();
        let mut v = Verdict::new(case, &mut failures);
        let seen = evaluate(&mut v);
        if let Some(hook) = find::<P>(&case.check) {
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

/// Asserts that each check of `P` has at most one hook and that every hook fits its
/// own shape (each protocol's tests call it on its table).
#[cfg(test)]
pub(crate) fn assert_one_hook_per_check<P: Observed>() {
    let hooked: Vec<&str> = checks::<P>().collect();
    let mut unique = hooked.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), hooked.len(), "{hooked:?}");
    for hook in P::HOOKS {
        assert_eq!(misfit::<P>(hook.check, hook.shape), None, "{}", hook.check);
    }
}
