//! `fnv1a-utf16-v1`'s vector files through any implementation:
//!
//! * positions: `positions`: h1, h2, the positions;
//! * rejections: `positions` with m or k out of range: rejected, naming the field (the
//!   adapter protocol does not fix the kind of that error).

use crate::report::{Failures, shown};
use crate::subject::SubjectError;
use crate::verdict::json;
use bloomproof_adapter::protocols::fnv1a_utf16_v1::{FnvCall, FnvReply};
use bloomproof_vectors::VectorFile;

/// Runs the cases of `file` (one of this protocol's vector files) on the subjects.
pub(super) fn check(file: &VectorFile, subjects: &mut crate::protocol::Subjects, f: &mut Failures) {
    match file {
        VectorFile::FnvPositions(file) => {
            let calls: Vec<FnvCall> = file
                .cases
                .iter()
                .map(|c| FnvCall::Positions {
                    m: u64::from(c.m),
                    k: u64::from(c.k),
                    units: c.units.clone(),
                })
                .collect();
            for (case, answer) in file.cases.iter().zip(super::batch(subjects, &calls)) {
                match answer {
                Ok(FnvReply::Hashes(got))
                    if (got.h1, got.h2, &got.positions) == (case.h1, case.h2, &case.positions) => {}
                answer => f.fail(
                    &case.id,
                    "h1, h2 and positions".into(),
                    serde_json::json!({"m": case.m, "k": case.k, "units": case.units}),
                    json(&serde_json::json!({"h1": case.h1, "h2": case.h2, "positions": case.positions})),
                    shown(answer),
                ),
            }
            }
        }
        VectorFile::FnvRejections(file) => {
            let calls: Vec<FnvCall> = file
                .cases
                .iter()
                .map(|c| FnvCall::Positions {
                    m: c.m,
                    k: c.k,
                    units: c.units.clone(),
                })
                .collect();
            for (case, answer) in file.cases.iter().zip(super::batch(subjects, &calls)) {
                if let Err(SubjectError::Rejected {
                    field: Some(field), ..
                }) = &answer
                    && *field == case.expect.field
                {
                    continue;
                }
                f.fail(
                    &case.id,
                    "positions: rejected naming this field".into(),
                    serde_json::json!({"m": case.m, "k": case.k, "units": case.units}),
                    format!("an error in {}", case.expect.field),
                    shown(answer),
                );
            }
        }
        other => crate::protocol::foreign_vector_file(other, f),
    }
}
