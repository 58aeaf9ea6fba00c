//! `--fail-fast`: which failure stops a run early ([`FailFast`]), apart from the run
//! ([`mod@crate::run`]), the adapter protocol's checks ([`crate::adapter_checks`]) and the
//! spec that carries it ([`crate::load::Spec::fail_fast`]), which all name it.

use crate::report::{Class, Failure};

/// Where a `--fail-fast` run ([`crate::load::Spec::fail_fast`]) stops: after the first
/// check, in report order, that fails and that the verdict counts, every check before
/// it run (the report is the one a single thread gives), none after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FailFast {
    /// The classes besides core and the adapter protocol the verdict counts
    /// (`--require`): a failed check of another class does not stop the run.
    pub classes: Vec<Class>,
    /// `--fail-fast=fixed`: only a failure of a case that draws no generated input (a
    /// case of shape `generated`, or a request spelling the seed draws) stops the run,
    /// a failure that every seed gives.
    pub fixed: bool,
}

impl FailFast {
    /// Whether a check of `class` with `failures` stops the run, `generated` telling a
    /// case id that draws generated inputs.
    pub fn stops(
        &self,
        class: Class,
        failures: &[Failure],
        generated: impl Fn(&str) -> bool,
    ) -> bool {
        (class.always_counts() || self.classes.contains(&class))
            && !failures.is_empty()
            && (!self.fixed || failures.iter().any(|f| !generated(&f.case)))
    }
}
