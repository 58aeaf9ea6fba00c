//! Cross-reading: what one implementation writes, every implementation reads.
//!
//! For every ordered pair (A, B) of implementations, A = B included:
//! * **`doc-membership-v1`**: A builds a few snapshots (`build`: its packed bits) and
//!   looks items up in them (`lookup_many`); B reads each snapshot from A's parts
//!   (`read`: parameters, A's packed bits, records) and looks the same items up. B's
//!   answers must equal A's and the oracle's, and A's packed bits the oracle's.
//! * **`fnv1a-utf16-v1`**: A runs a few session scripts ending in an `export` step; B
//!   imports A's export text (`import_text` on a new session) and B's view must equal
//!   A's view at the export (every key, both ways; numbers within 1e-9 relative, as the
//!   runner compares views).
//!
//! Sessions exported by other producers (the explorer page, say) take part as extra
//! rows: an [`ExportedSession`] file holds the text and the view the producer showed.
//! Every request goes through the subjects, so the adapter's caps and timeouts bound
//! the whole run.

use bloomproof_conformance::protocols::fnv1a_utf16_v1::checks::partial_match;
use bloomproof_conformance::protocols::{doc_membership_v1, fnv1a_utf16_v1};
use bloomproof_conformance::run::Subjects;
use bloomproof_conformance::subject::SubjectError;
use bloomproof_conformance::subjects::doc_membership_v1::{DocSubject, RawParams};
use bloomproof_conformance::subjects::fnv1a_utf16_v1::FnvSubject;
use bloomproof_wire::cross::SessionsFile;
pub use bloomproof_wire::cross::{
    DIFFERENCES_KEPT, Difference, ExportedSession, Grid, GridCell, SessionCase,
};
use bloomproof_wire::protocols::doc_membership_v1::Triple;
use bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp;
use serde_json::Value;

/// A value as JSON text, for a cell's message.
fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|err| format!("(not printable as JSON: {err})"))
}

/// A snapshot every implementation builds and reads.
#[derive(Clone, Debug)]
pub struct SnapshotCase {
    /// Its id.
    pub id: &'static str,
    /// m, k, seed.
    pub params: RawParams,
    /// The records.
    pub records: Vec<Vec<u8>>,
    /// The items looked up: members, non-members, and for the seed's fixture its five
    /// false positives among them.
    pub items: Vec<Vec<u8>>,
}

/// The snapshots: the seed's fixture (m 16, k 3, seed `lab`, doc-00..doc-03, looked up
/// with doc-00..doc-63: the four members and the five false positives doc-04, doc-41,
/// doc-43, doc-44, doc-51 among them); m 509 (not a multiple of 8), k 5, a 16-byte
/// seed, an empty and a 64-byte record; an empty snapshot with m 13, k 2 and an empty
/// seed.
pub fn snapshots() -> Vec<SnapshotCase> {
    let numbered = |prefix: &str, count: usize| -> Vec<Vec<u8>> {
        (0..count)
            .map(|i| format!("{prefix}{i:02}").into_bytes())
            .collect()
    };
    let mut wide_records = vec![Vec::new(), vec![0xff; 64]];
    wide_records.extend(numbered("rec-", 40));
    let mut wide_items = wide_records.clone();
    wide_items.extend(numbered("query-", 100));
    wide_items.push(vec![0x00; 64]);
    vec![
        SnapshotCase {
            id: "seed-fixture",
            params: RawParams {
                m: 16,
                k: 3,
                seed: b"lab".to_vec(),
            },
            records: numbered("doc-", 4),
            items: numbered("doc-", 64),
        },
        SnapshotCase {
            id: "m509-k5",
            params: RawParams {
                m: 509,
                k: 5,
                seed: (0u8..16).collect(),
            },
            records: wide_records,
            items: wide_items,
        },
        SnapshotCase {
            id: "empty-m13-k2",
            params: RawParams {
                m: 13,
                k: 2,
                seed: Vec::new(),
            },
            records: Vec::new(),
            items: vec![Vec::new(), b"a".to_vec(), vec![0xff; 64]],
        },
    ]
}

/// The session scripts of `crates/matrix/data/cross-sessions.json` (embedded):
/// the seed's example, surrogates and two forms of é at m 1000, a history past its cap,
/// and no filter at all. The file is part of this crate, so a malformed one is a bug
/// that the cross-reading tests catch; the error names the field.
pub fn sessions() -> Result<Vec<SessionCase>, String> {
    let text = include_str!("../data/cross-sessions.json");
    let file: SessionsFile =
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(text))
            .map_err(|err| format!("crates/matrix/data/cross-sessions.json: {err}"))?;
    Ok(file.sessions)
}

fn triples(answers: &[Triple]) -> Vec<String> {
    answers.iter().map(json).collect()
}

fn item_text(item: &[u8]) -> String {
    match std::str::from_utf8(item) {
        Ok(text) if !text.chars().any(char::is_control) => json(&text),
        _ => format!("0x{}", bloomproof_wire::encode_hex(item)),
    }
}

fn oracle_answers(case: &SnapshotCase) -> (String, Vec<Triple>) {
    let (m, k) = (
        u32::try_from(case.params.m).unwrap_or(u32::MAX),
        u32::try_from(case.params.k).unwrap_or(u32::MAX),
    );
    let expected = bloomproof_conformance::protocols::doc_membership_v1::expected::snapshot(
        bloomproof_conformance::protocols::doc_membership_v1::V1.domain_hex,
        &case.records,
        m,
        k,
        &case.params.seed,
        &case.items,
    );
    (expected.packed_hex, expected.triples)
}

/// What a producer wrote for one snapshot: its packed bits and its lookups, or why it
/// gave none.
type Written = Result<(Vec<u8>, Vec<Triple>), String>;

fn doc_grid(participants: &mut [&mut (String, Subjects)]) -> Grid {
    let names: Vec<String> = participants.iter().map(|(n, _)| n.clone()).collect();
    let cases = snapshots();
    let oracle: Vec<(String, Vec<Triple>)> = cases.iter().map(oracle_answers).collect();
    // What each producer wrote, per case.
    let written: Vec<Vec<Written>> = participants
        .iter_mut()
        .map(|(_, subjects)| {
            cases
                .iter()
                .map(|case| {
                    let built = doc_of(subjects)
                        .and_then(|doc| doc.build(&case.params, &case.records))
                        .map_err(|e| format!("build: {e}"))?;
                    let looked = doc_of(subjects)
                        .and_then(|doc| doc.lookup(&case.params, &case.records, &case.items))
                        .map_err(|e| format!("lookup_many: {e}"))?;
                    Ok((built.packed_bits, looked))
                })
                .collect()
        })
        .collect();
    let mut cells = Vec::new();
    for (producer, by_case) in names.iter().zip(&written) {
        for (reader, (_, subjects)) in names.iter().zip(participants.iter_mut()) {
            let mut cell = GridCell::new(producer, reader);
            for ((case, wrote), (packed, expected)) in cases.iter().zip(by_case).zip(&oracle) {
                let (bits, looked) = match wrote {
                    Ok(wrote) => wrote,
                    Err(why) => {
                        cell.differ(
                            case.id,
                            &format!("{producer} writes the snapshot"),
                            "packed bits and lookups".to_string(),
                            why.clone(),
                        );
                        continue;
                    }
                };
                cell.compare(
                    case.id,
                    &format!("{producer}'s packed bits, against the oracle"),
                    packed.clone(),
                    bloomproof_wire::encode_hex(bits),
                );
                let read = match doc_of(subjects)
                    .and_then(|doc| doc.read(&case.params, &case.records, bits, &case.items))
                {
                    Ok(read) => read,
                    Err(err) => {
                        cell.differ(
                            case.id,
                            &format!("{reader} reads {producer}'s snapshot"),
                            format!("{} lookups", case.items.len()),
                            err.to_string(),
                        );
                        continue;
                    }
                };
                if read.len() != case.items.len() || looked.len() != case.items.len() {
                    cell.differ(
                        case.id,
                        "one answer per item",
                        case.items.len().to_string(),
                        format!(
                            "{reader} read {}, {producer} looked up {}",
                            read.len(),
                            looked.len()
                        ),
                    );
                    continue;
                }
                let (want, by_producer, by_reader) =
                    (triples(expected), triples(looked), triples(&read));
                for (index, item) in case.items.iter().enumerate() {
                    let at = format!("{} item {}", case.id, item_text(item));
                    cell.compare(
                        &at,
                        &format!("{reader}'s read against {producer}'s lookup_many"),
                        by_producer[index].clone(),
                        by_reader[index].clone(),
                    );
                    cell.compare(
                        &at,
                        &format!("{reader}'s read against the oracle"),
                        want[index].clone(),
                        by_reader[index].clone(),
                    );
                }
            }
            cells.push(cell);
        }
    }
    Grid {
        protocol: bloomproof_conformance::protocols::doc_membership_v1::NAME.to_string(),
        producers: names.clone(),
        readers: names,
        cells,
        not_run: Vec::new(),
    }
}

/// What a session producer wrote: (case id, export text, view at the export), or why
/// it wrote nothing.
type Exported = Result<(String, String, Value), (String, String)>;

/// The participant's `doc-membership-v1` subject.
fn doc_of(subjects: &mut Subjects) -> Result<&mut (dyn DocSubject + Send + 'static), SubjectError> {
    subjects
        .get_mut::<dyn DocSubject + Send>(doc_membership_v1::NAME)
        .ok_or_else(|| SubjectError::Broken(format!("no {} subject", doc_membership_v1::NAME)))
}

/// The participant's `fnv1a-utf16-v1` subject.
fn fnv_of(subjects: &mut Subjects) -> Result<&mut (dyn FnvSubject + Send + 'static), SubjectError> {
    subjects
        .get_mut::<dyn FnvSubject + Send>(fnv1a_utf16_v1::NAME)
        .ok_or_else(|| SubjectError::Broken(format!("no {} subject", fnv1a_utf16_v1::NAME)))
}

fn export_of(subjects: &mut Subjects, case: &SessionCase) -> Exported {
    let fail = |why: String| (case.id.to_string(), why);
    let answer = fnv_of(subjects)
        .and_then(|fnv| fnv.session(&case.script))
        .map_err(|e| fail(format!("session: {e}")))?;
    let last = answer
        .steps
        .last()
        .filter(|_| answer.steps.len() == case.script.len())
        .ok_or_else(|| {
            fail(format!(
                "{} step answers for {} steps",
                answer.steps.len(),
                case.script.len()
            ))
        })?;
    if let Some(rejected) = answer.steps.iter().find_map(|s| s.error.as_ref()) {
        return Err(fail(format!(
            "a step was rejected: {}: {}",
            rejected.kind, rejected.message
        )));
    }
    let text = last
        .export
        .clone()
        .ok_or_else(|| fail("the export step gave no `export` text".to_string()))?;
    Ok((case.id.to_string(), text, last.view.clone()))
}

fn same_view(expected: &Value, actual: &Value) -> Result<(), String> {
    partial_match(expected, actual, "view")?;
    partial_match(actual, expected, "view")
        .map_err(|diff| format!("{diff} (a key the producer's view does not have)"))
}

fn fnv_grid(
    participants: &mut [&mut (String, Subjects)],
    files: &[(String, ExportedSession)],
) -> Grid {
    let names: Vec<String> = participants.iter().map(|(n, _)| n.clone()).collect();
    let cases = match sessions() {
        Ok(cases) => cases,
        Err(why) => {
            let mut cell = GridCell::new("runner", "runner");
            cell.differ(
                "cross-sessions.json",
                "the embedded sessions load",
                "a valid file".into(),
                why,
            );
            return Grid {
                protocol: bloomproof_conformance::protocols::fnv1a_utf16_v1::NAME.to_string(),
                producers: vec![cell.producer.clone()],
                readers: vec![cell.reader.clone()],
                cells: vec![cell],
                not_run: Vec::new(),
            };
        }
    };
    let mut producers: Vec<(String, Vec<Exported>)> = participants
        .iter_mut()
        .map(|(name, subjects)| {
            let exports = cases.iter().map(|case| export_of(subjects, case)).collect();
            (name.clone(), exports)
        })
        .collect();
    for (name, file) in files {
        producers.push((
            name.clone(),
            vec![Ok((
                "file".to_string(),
                file.export.clone(),
                file.view.clone(),
            ))],
        ));
    }
    let mut cells = Vec::new();
    for (producer, exports) in &producers {
        for (reader, (_, subjects)) in names.iter().zip(participants.iter_mut()) {
            let mut cell = GridCell::new(producer, reader);
            for exported in exports {
                let (case, text, view) = match exported {
                    Ok(exported) => exported,
                    Err((case, why)) => {
                        cell.differ(
                            case,
                            &format!("{producer} exports the session"),
                            "an export text and a view".to_string(),
                            why.clone(),
                        );
                        continue;
                    }
                };
                cell.compared += 1;
                let import = [ScriptOp::ImportText { text: text.clone() }];
                let what = format!("{reader}'s view after importing {producer}'s export");
                match fnv_of(subjects).and_then(|fnv| fnv.session(&import)) {
                    Ok(answer) => match answer.steps.first() {
                        Some(step) => match &step.error {
                            Some(bloomproof_wire::protocols::fnv1a_utf16_v1::StepError {
                                kind,
                                message,
                            }) => cell.differ(
                                case,
                                &what,
                                "the import accepted".to_string(),
                                format!("rejected: {kind}: {message}"),
                            ),
                            None => {
                                if let Err(diff) = same_view(view, &step.view) {
                                    cell.differ(
                                        case,
                                        &what,
                                        format!("{producer}'s view at the export"),
                                        diff,
                                    );
                                }
                            }
                        },
                        None => cell.differ(
                            case,
                            &what,
                            "one step answer".to_string(),
                            "none".to_string(),
                        ),
                    },
                    Err(err) => cell.differ(case, &what, "an answer".to_string(), err.to_string()),
                }
            }
            cells.push(cell);
        }
    }
    Grid {
        protocol: bloomproof_conformance::protocols::fnv1a_utf16_v1::NAME.to_string(),
        producers: producers.into_iter().map(|(name, _)| name).collect(),
        readers: names,
        cells,
        not_run: Vec::new(),
    }
}

/// Whether `subjects` implement `protocol`: in process always, through an adapter when
/// its handshake lists it.
fn implements(subjects: &Subjects, protocol: &str) -> bool {
    subjects
        .subjects
        .first()
        .and_then(|s| s.started())
        .is_none_or(|started| started.protocols.iter().any(|p| p == protocol))
}

/// Runs cross-reading among `participants` (name, subjects), with the sessions of
/// `files` as extra producers: one grid per protocol. A participant whose handshake
/// does not list a protocol takes no part in its grid, and is named in the grid's
/// `not_run`.
pub fn run(
    participants: &mut [(String, Subjects)],
    files: &[(String, ExportedSession)],
) -> Vec<Grid> {
    let mut grids = Vec::new();
    for protocol in [doc_membership_v1::NAME, fnv1a_utf16_v1::NAME] {
        let not_run: Vec<String> = participants
            .iter()
            .filter(|(_, subjects)| !implements(subjects, protocol))
            .map(|(name, _)| name.clone())
            .collect();
        let mut taking_part: Vec<&mut (String, Subjects)> = participants
            .iter_mut()
            .filter(|(_, subjects)| implements(subjects, protocol))
            .collect();
        let mut grid = if protocol == doc_membership_v1::NAME {
            doc_grid(&mut taking_part)
        } else {
            fnv_grid(&mut taking_part, files)
        };
        grid.not_run = not_run;
        grids.push(grid);
    }
    grids
}

/// One error line per failing cell: `cross-reading <protocol>: <A> -> <B>: <case>:
/// <what>: expected ..., got ...` (the first difference), for the matrix's verdict.
pub fn errors(grids: &[Grid]) -> Vec<String> {
    grids
        .iter()
        .flat_map(|grid| {
            grid.cells.iter().filter(|c| !c.passed).map(|cell| {
                let first = cell.differences.first().map_or_else(String::new, |d| {
                    format!(
                        ": {}: {}: expected {}, got {}",
                        d.case, d.what, d.expected, d.actual
                    )
                });
                let others = cell.differences.len().saturating_sub(1) + cell.more;
                format!(
                    "cross-reading {}: {} -> {}{first}{}",
                    grid.protocol,
                    cell.producer,
                    cell.reader,
                    if others > 0 {
                        format!(" (and {others} more)")
                    } else {
                        String::new()
                    }
                )
            })
        })
        .collect()
}
