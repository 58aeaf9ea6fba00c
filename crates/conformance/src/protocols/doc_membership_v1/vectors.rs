//! `doc-membership-v1`'s vector files through any implementation:
//!
//! * positions: `positions` and `frame` of every hash index: the positions, each
//!   message and digest;
//! * snapshots: `build` and `lookup_many`: the packed bits, the documents, each triple;
//! * rejections: `typed`: the error's kind and field.

use crate::report::{Failures, shown};
use crate::subject::SubjectError;
use crate::verdict::json;
use bloomproof_adapter::protocols::doc_membership_v1::{DocCall, DocReply, RawParams};
use bloomproof_vectors::VectorFile;
use bloomproof_wire::encode_hex;

fn raw(params: &bloomproof_wire::DocParams) -> RawParams {
    RawParams {
        m: params.m,
        k: params.k,
        seed: params.seed_hex.0.clone(),
    }
}

/// Runs the cases of `file` (one of the vector files of `protocol`, a version of this
/// family) on the subjects.
pub(super) fn check(
    protocol: &str,
    file: &VectorFile,
    subjects: &mut crate::protocol::Subjects,
    f: &mut Failures,
) {
    match file {
        VectorFile::DocPositions(file) => {
            let mut calls = Vec::new();
            for case in &file.cases {
                let params = raw(&case.params);
                calls.push(DocCall::Positions {
                    params: params.clone(),
                    item: case.item_hex.0.clone(),
                });
                for hash in &case.hashes {
                    calls.push(DocCall::Frame {
                        params: params.clone(),
                        index: hash.index,
                        item: case.item_hex.0.clone(),
                    });
                }
            }
            let mut answers = super::batch(subjects, protocol, &calls).into_iter();
            for case in &file.cases {
                let input = serde_json::json!({"params": case.params, "item_hex": case.item_hex});
                match answers.next() {
                    Some(Ok(DocReply::Positions(got))) if got == case.positions => {}
                    Some(answer) => f.fail(
                        &case.id,
                        "positions".into(),
                        input.clone(),
                        json(&case.positions),
                        shown(answer),
                    ),
                    None => f.fail(
                        &case.id,
                        "positions".into(),
                        input.clone(),
                        json(&case.positions),
                        "no answer".into(),
                    ),
                }
                for hash in &case.hashes {
                    match answers.next() {
                        Some(Ok(DocReply::Framed(got)))
                            if got.message == hash.message_hex.0
                                && got.digest == hash.digest_hex.0 => {}
                        Some(Ok(DocReply::Framed(got))) => f.fail(
                            &case.id,
                            format!("frame index {}: message and digest", hash.index),
                            input.clone(),
                            format!(
                                "{} {}",
                                encode_hex(&hash.message_hex.0),
                                encode_hex(&hash.digest_hex.0)
                            ),
                            format!("{} {}", encode_hex(&got.message), encode_hex(&got.digest)),
                        ),
                        Some(answer) => f.fail(
                            &case.id,
                            format!("frame index {}", hash.index),
                            input.clone(),
                            "a framed message".into(),
                            shown(answer),
                        ),
                        None => f.fail(
                            &case.id,
                            format!("frame index {}", hash.index),
                            input.clone(),
                            "a framed message".into(),
                            "no answer".into(),
                        ),
                    }
                }
            }
        }
        VectorFile::DocSnapshots(file) => {
            let mut calls = Vec::new();
            for case in &file.cases {
                let params = raw(&case.params);
                let records: Vec<Vec<u8>> = case.records_hex.iter().map(|h| h.0.clone()).collect();
                calls.push(DocCall::Build {
                    params: params.clone(),
                    records: records.clone(),
                });
                calls.push(DocCall::LookupMany {
                    params,
                    records,
                    items: case.lookups.iter().map(|l| l.item_hex.0.clone()).collect(),
                });
            }
            let mut answers = super::batch(subjects, protocol, &calls).into_iter();
            for case in &file.cases {
                let input =
                    serde_json::json!({"params": case.params, "records_hex": case.records_hex});
                match answers.next() {
                    Some(Ok(DocReply::Built(got)))
                        if got.packed_bits == case.packed_hex.0
                            && got.documents == case.documents => {}
                    Some(Ok(DocReply::Built(got))) => f.fail(
                        &case.id,
                        "build: packed bits and documents".into(),
                        input.clone(),
                        format!("{} {}", encode_hex(&case.packed_hex.0), case.documents),
                        format!("{} {}", encode_hex(&got.packed_bits), got.documents),
                    ),
                    Some(answer) => f.fail(
                        &case.id,
                        "build".into(),
                        input.clone(),
                        "a snapshot".into(),
                        shown(answer),
                    ),
                    None => f.fail(
                        &case.id,
                        "build".into(),
                        input.clone(),
                        "a snapshot".into(),
                        "no answer".into(),
                    ),
                }
                let want: Vec<_> = case.lookups.iter().map(|l| l.expect).collect();
                match answers.next() {
                    Some(Ok(DocReply::Triples(got))) if got == want => {}
                    Some(answer) => f.fail(
                        &case.id,
                        "lookup_many".into(),
                        input.clone(),
                        json(&want),
                        shown(answer),
                    ),
                    None => f.fail(
                        &case.id,
                        "lookup_many".into(),
                        input.clone(),
                        json(&want),
                        "no answer".into(),
                    ),
                }
            }
        }
        VectorFile::DocRejections(file) => {
            let calls: Vec<DocCall> = file
                .cases
                .iter()
                .map(|c| DocCall::Typed(c.input.clone()))
                .collect();
            for (case, answer) in file
                .cases
                .iter()
                .zip(super::batch(subjects, protocol, &calls))
            {
                let want = (case.expect.error.as_str(), case.expect.field.as_str());
                if let Err(SubjectError::Rejected {
                    kind,
                    field: Some(field),
                    ..
                }) = &answer
                    && (kind.as_str(), field.as_str()) == want
                {
                    continue;
                }
                f.fail(
                    &case.id,
                    "typed: rejected with this kind and field".into(),
                    serde_json::to_value(&case.input).unwrap_or_default(),
                    format!("{} error in {}", want.0, want.1),
                    shown(answer),
                );
            }
        }
        other => crate::protocol::foreign_vector_file(other, f),
    }
}
