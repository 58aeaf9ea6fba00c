//! The vector files (`vectors/<protocol>/*.json`, written by `cargo xtask vectors`)
//! through any implementation: `--vectors DIR` adds one check per file to the report,
//! `<protocol>/vectors.<kind>` (`vectors.positions`, `vectors.snapshots`,
//! `vectors.rejections`), every case sent with the ordinary operations of the adapter
//! protocol, pipelined, and every answer compared with the file's expectation.
//!
//! * positions (doc): `positions` and `frame` of every hash index: the positions,
//!   each message and digest;
//! * snapshots (doc): `build` and `lookup_many`: the packed bits, the documents, each
//!   triple;
//! * rejections (doc): `typed`: the error's kind and field;
//! * positions (fnv): `positions`: h1, h2, the positions;
//! * rejections (fnv): `positions` with m or k out of range: rejected, naming the field
//!   (the adapter protocol does not fix the kind of that error).

use crate::protocols::{doc_membership_v1, fnv1a_utf16_v1};
use crate::report::{CheckOutcome, Failure};
use crate::subject::{Answer, DocCall, DocReply, FnvCall, FnvReply, RawParams, SubjectError};
use crate::verdict::json;
use bloomproof_wire::encode_hex;
use bloomproof_wire::vectors::VectorFile;
use std::path::Path;
use std::time::Instant;

/// The most failures one vector check keeps (the count of the rest is given).
const FAILURES_KEPT: usize = 20;

/// One loaded vector file: its path relative to the vectors folder and its cases.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// `doc-membership-v1/positions.json`, ...
    pub name: String,
    /// The file.
    pub file: VectorFile,
}

impl Loaded {
    /// The protocol of the file.
    pub fn protocol(&self) -> &'static str {
        self.file.file_kind().protocol()
    }

    /// The check name in the report: `vectors.<kind>`.
    pub fn check(&self) -> &'static str {
        match self.file {
            VectorFile::DocPositions(_) | VectorFile::FnvPositions(_) => "vectors.positions",
            VectorFile::DocSnapshots(_) => "vectors.snapshots",
            VectorFile::DocRejections(_) | VectorFile::FnvRejections(_) => "vectors.rejections",
        }
    }
}

/// Loads every vector file of `dir` (`<protocol>/<kind>.json` for the two protocols),
/// or the errors (each naming its file); a folder with none is an error.
pub fn load(dir: &Path) -> Result<Vec<Loaded>, Vec<String>> {
    let mut loaded = Vec::new();
    let mut errors = Vec::new();
    for protocol in crate::PROTOCOLS {
        for kind in ["positions", "snapshots", "rejections"] {
            let name = format!("{protocol}/{kind}.json");
            let path = dir.join(protocol).join(format!("{kind}.json"));
            if !path.exists() {
                continue;
            }
            match bloomproof_vectors::load_file(&path) {
                Ok(file) => loaded.push(Loaded { name, file }),
                Err(err) => errors.push(format!("{}: {err}", path.display())),
            }
        }
    }
    if loaded.is_empty() && errors.is_empty() {
        errors.push(format!(
            "{}: no vector file (<protocol>/<kind>.json) in the folder",
            dir.display()
        ));
    }
    if errors.is_empty() {
        Ok(loaded)
    } else {
        Err(errors)
    }
}

/// Collects the failures of one file's cases, keeping the first [`FAILURES_KEPT`].
struct Failures {
    kept: Vec<Failure>,
    more: usize,
}

impl Failures {
    fn fail(
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

fn raw(params: &bloomproof_wire::DocParams) -> RawParams {
    RawParams {
        m: params.m,
        k: params.k,
        seed: params.seed_hex.0.clone(),
    }
}

/// Runs the cases of one vector file on the subjects: one check outcome.
pub fn run_check(loaded: &Loaded, subjects: &mut crate::run::Subjects) -> CheckOutcome {
    let started = Instant::now();
    let mut f = Failures {
        kept: Vec::new(),
        more: 0,
    };
    let cases = loaded.file.case_count();
    match &loaded.file {
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
            let mut answers = doc_membership_v1::batch(subjects, &calls).into_iter();
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
            let mut answers = doc_membership_v1::batch(subjects, &calls).into_iter();
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
                .zip(doc_membership_v1::batch(subjects, &calls))
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
            for (case, answer) in file
                .cases
                .iter()
                .zip(fnv1a_utf16_v1::batch(subjects, &calls))
            {
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
            for (case, answer) in file
                .cases
                .iter()
                .zip(fnv1a_utf16_v1::batch(subjects, &calls))
            {
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
    }
    if f.more > 0 {
        f.kept.push(Failure {
            case: loaded.name.clone(),
            what: format!("{} more failing comparisons not shown", f.more),
            input: serde_json::Value::Null,
            expected: String::new(),
            actual: String::new(),
        });
    }
    CheckOutcome {
        protocol: loaded.protocol().to_string(),
        name: loaded.check().to_string(),
        cases,
        level: crate::report::Level::Required,
        inside_implementation: None,
        failures: f.kept,
        more_failures: 0,
        crashed: false,
        elapsed_ms: Some(started.elapsed().as_secs_f64() * 1e3),
    }
}

fn shown<T: std::fmt::Debug>(answer: Answer<T>) -> String {
    match answer {
        Ok(value) => format!("{value:?}"),
        Err(err) => err.to_string(),
    }
}
