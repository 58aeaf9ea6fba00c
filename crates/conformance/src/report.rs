//! The report: one outcome per documented check, the published figures, the totals.
//! The types are wire types, defined in `bloomproof_format::report`.

pub use bloomproof_format::report::{CheckOutcome, Failure, FigureLine, Figures, Report};
