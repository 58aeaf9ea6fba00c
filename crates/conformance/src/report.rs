//! The report: one outcome per documented check, the published figures, the totals.
//! The types are wire types, defined in `bloomproof_wire::report`.

use bloomproof_wire::report::PublishedFigure;
pub use bloomproof_wire::report::{CheckOutcome, Class, Failure, FigureLine, Figures, Report};

/// The figure lines of one protocol's run: every observed figure in recording order,
/// beside its published value, then every published figure that a check of `ran`
/// should have observed and did not (shown as not observed).
pub fn figure_lines(
    observed: &Figures,
    published: &[PublishedFigure],
    ran: &[&str],
) -> Vec<FigureLine> {
    let published_value = |name: &str| {
        published
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.value.clone())
    };
    let mut lines: Vec<FigureLine> = observed
        .0
        .iter()
        .map(|(name, value)| {
            let published = published_value(name);
            FigureLine {
                name: name.clone(),
                differs: published.as_ref().is_some_and(|p| p != value),
                observed: Some(value.clone()),
                published,
            }
        })
        .collect();
    for figure in published {
        if ran.contains(&figure.check.as_str())
            && !observed.0.iter().any(|(name, _)| *name == figure.name)
        {
            lines.push(FigureLine {
                name: figure.name.clone(),
                observed: None,
                published: Some(figure.value.clone()),
                differs: false,
            });
        }
    }
    lines
}

/// The most failures one vector check keeps (the count of the rest is given).
const FAILURES_KEPT: usize = 20;

/// Collects the failures of one file's cases, keeping the first `FAILURES_KEPT` (20).
#[derive(Default)]
pub struct Failures {
    pub(crate) kept: Vec<Failure>,
    pub(crate) more: usize,
}

impl Failures {
    /// Adds one failing comparison of case `case`.
    pub fn fail(
        &mut self,
        case: &str,
        what: String,
        input: serde_json::Value,
        expected: String,
        actual: String,
    ) {
        if self.kept.len() < FAILURES_KEPT {
            self.kept.push(Failure {
                case: case.to_string(),
                what,
                input,
                expected,
                actual,
            });
        } else {
            self.more += 1;
        }
    }
}

/// An answer as a failure shows it.
pub(crate) fn shown<T: std::fmt::Debug>(answer: crate::subject::Answer<T>) -> String {
    match answer {
        Ok(value) => format!("{value:?}"),
        Err(err) => err.to_string(),
    }
}
