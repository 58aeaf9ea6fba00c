//! Cross-reading catches a flawed reader and a flawed exporter, and shows them in the
//! grid: the reader's column and the exporter's row fail, every other cell passes.

// The planted subjects of the conformance tests, shared rather than copied.
#[allow(dead_code, clippy::unwrap_used, clippy::panic)]
#[path = "../../conformance/tests/common/planted.rs"]
mod planted;

use bloomproof_conformance::protocols::{doc_membership_v1, fnv1a_utf16_v1};
use bloomproof_conformance::run::Subjects;
use bloomproof_conformance::subjects::doc_membership_v1::DocSubject;
use bloomproof_conformance::subjects::fnv1a_utf16_v1::{FnvSubject, RustFnv};
use bloomproof_matrix::cross::{self, ExportedSession, Grid};
use bloomproof_wire::protocols::doc_membership_v1::Triple;
use bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp;
use planted::{PlantedDoc, PlantedFnv};

/// Reads a snapshot from its bits alone: no verification, no exact set (every maybe
/// is taken for a duplicate).
fn bits_only_reader() -> PlantedDoc {
    PlantedDoc::new("bits-only reader").on_read(|real, params, _records, packed_bits, items| {
        let set = |p: u16| {
            packed_bits
                .get(usize::from(p / 8))
                .is_some_and(|byte| byte & (1 << (p % 8)) != 0)
        };
        items
            .iter()
            .map(|item| {
                let maybe = real.positions(params, item)?.into_iter().all(set);
                Ok(Triple {
                    maybe_present: maybe,
                    exact_checked: maybe,
                    duplicate: maybe,
                })
            })
            .collect()
    })
}

/// Exports sessions without their `false_positives` counter.
fn counter_dropper() -> PlantedFnv {
    PlantedFnv::new("counter dropper").on_session(|real, script| {
        let mut answer = real.session(script)?;
        for step in &mut answer.steps {
            if let Some(text) = &step.export {
                let mut document: serde_json::Value =
                    serde_json::from_str(text).expect("the export is JSON");
                if let Some(counters) = document
                    .get_mut("counters")
                    .and_then(serde_json::Value::as_object_mut)
                {
                    counters.remove("false_positives");
                }
                step.export = Some(document.to_string());
            }
        }
        Ok(answer)
    })
}

fn participants() -> Vec<(String, Subjects)> {
    vec![
        ("rust".to_string(), Subjects::rust()),
        (
            "flawed".to_string(),
            Subjects::rust()
                .with(doc_membership_v1::subject(Box::new(bits_only_reader())))
                .with(fnv1a_utf16_v1::subject(Box::new(counter_dropper()))),
        ),
    ]
}

fn cell<'a>(grid: &'a Grid, producer: &str, reader: &str) -> &'a cross::GridCell {
    grid.cells
        .iter()
        .find(|c| c.producer == producer && c.reader == reader)
        .expect("the cell exists")
}

#[test]
fn every_snapshot_and_session_is_well_formed() {
    assert_eq!(cross::snapshots().len(), 3);
    let seed = &cross::snapshots()[0];
    assert_eq!(seed.items.len(), 64);
    assert!(cross::snapshots().iter().any(|s| s.params.m % 8 != 0));
    for session in cross::sessions().expect("the sessions file reads") {
        assert!(session.script.len() > 1, "{} did not parse", session.id);
        assert_eq!(
            session.script.last(),
            Some(&ScriptOp::Export {}),
            "{}",
            session.id
        );
    }
}

#[test]
fn honest_implementations_read_each_other() {
    let mut honest = vec![
        ("a".to_string(), Subjects::rust()),
        ("b".to_string(), Subjects::rust()),
    ];
    let grids = cross::run(&mut honest, &[]);
    assert_eq!(grids.len(), 2);
    for grid in &grids {
        assert_eq!(grid.cells.len(), 4, "{}", grid.protocol);
        for cell in &grid.cells {
            assert!(cell.passed, "{cell:?}");
            assert!(cell.compared > 0);
        }
    }
    // 3 snapshots: 64 + 143 + 3 items, each compared with A and with the oracle, plus
    // one packed-bits comparison per snapshot.
    assert_eq!(grids[0].cells[0].compared, 3 + 2 * (64 + 143 + 3));
    assert_eq!(grids[1].cells[0].compared, 4);
    assert_eq!(cross::errors(&grids), Vec::<String>::new());
}

/// A participant whose handshake lists one protocol takes part in that protocol's grid
/// alone, and is named in the other grid's `not_run`; one in process (no handshake)
/// takes part in both.
#[test]
fn a_participant_of_one_protocol_is_in_its_grid_alone() {
    let (doc, fnv) = (doc_membership_v1::NAME, fnv1a_utf16_v1::NAME);
    let mut participants = vec![
        ("rust".to_string(), Subjects::rust()),
        (
            "doc-only".to_string(),
            Subjects::rust()
                .with(doc_membership_v1::subject(Box::new(
                    PlantedDoc::new("doc only").listing(&[doc]),
                )))
                .with(fnv1a_utf16_v1::subject(Box::new(
                    PlantedFnv::new("doc only").listing(&[doc]),
                ))),
        ),
    ];
    let grids = cross::run(&mut participants, &[]);
    let grid = |protocol: &str| {
        grids
            .iter()
            .find(|g| g.protocol == protocol)
            .expect("a grid per protocol")
    };
    let cells = |grid: &Grid| -> Vec<(String, String)> {
        grid.cells
            .iter()
            .map(|c| (c.producer.clone(), c.reader.clone()))
            .collect()
    };
    assert_eq!(grid(doc).not_run, Vec::<String>::new());
    assert_eq!(grid(doc).cells.len(), 4, "{:?}", cells(grid(doc)));
    assert_eq!(grid(fnv).not_run, vec!["doc-only".to_string()]);
    assert_eq!(
        cells(grid(fnv)),
        vec![("rust".to_string(), "rust".to_string())],
        "only the participant that implements it reads and writes it"
    );
    assert_eq!(cross::errors(&grids), Vec::<String>::new());
}

#[test]
fn a_flawed_reader_fails_its_column_and_a_flawed_exporter_its_row() {
    let grids = cross::run(&mut participants(), &[]);
    let doc = &grids[0];
    assert!(cell(doc, "rust", "rust").passed);
    assert!(cell(doc, "flawed", "rust").passed);
    let reader = cell(doc, "rust", "flawed");
    assert!(!reader.passed);
    assert!(!cell(doc, "flawed", "flawed").passed);
    // The seed's first false positive is answered as a duplicate.
    let first = &reader.differences[0];
    assert_eq!(first.case, "seed-fixture item \"doc-04\"");
    assert_eq!(first.what, "flawed's read against rust's lookup_many");
    assert_eq!(
        first.expected,
        r#"{"maybe_present":true,"exact_checked":true,"duplicate":false}"#
    );
    assert_eq!(
        first.actual,
        r#"{"maybe_present":true,"exact_checked":true,"duplicate":true}"#
    );

    let fnv = &grids[1];
    assert!(cell(fnv, "rust", "rust").passed);
    assert!(cell(fnv, "rust", "flawed").passed);
    for reader in ["rust", "flawed"] {
        let dropped = cell(fnv, "flawed", reader);
        assert!(!dropped.passed);
        assert_eq!(dropped.differences[0].case, "seed-example");
        assert!(
            dropped.differences[0]
                .actual
                .starts_with("rejected: invalid"),
            "{dropped:?}"
        );
    }
    let errors = cross::errors(&grids);
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert!(errors[0].starts_with(
        "cross-reading doc-membership-v1: rust -> flawed: seed-fixture item \"doc-04\""
    ));
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("cross-reading fnv1a-utf16-v1: flawed -> rust: seed-example"))
    );
}

#[test]
fn a_session_from_a_file_is_read_by_everyone() {
    let mut producer = RustFnv;
    let script = &cross::sessions().expect("the sessions file reads")[0].script;
    let answer = producer.session(script).expect("the script runs");
    let last = answer.steps.last().expect("a last step");
    let honest = ExportedSession {
        export: last.export.clone().expect("an export"),
        view: last.view.clone(),
    };
    let mut lying = honest.clone();
    lying.view["bits"] = serde_json::json!("00001001");
    let files = [
        ("page".to_string(), honest),
        ("lying-page".to_string(), lying),
    ];
    let grids = cross::run(&mut participants(), &files);
    let fnv = &grids[1];
    assert_eq!(fnv.producers, ["rust", "flawed", "page", "lying-page"]);
    assert!(cell(fnv, "page", "rust").passed);
    assert!(cell(fnv, "page", "flawed").passed);
    let lie = cell(fnv, "lying-page", "rust");
    assert!(!lie.passed);
    assert_eq!(lie.differences[0].case, "file");
    assert_eq!(
        lie.differences[0].actual,
        "view.bits: expected \"00001001\", got \"00001000\""
    );
}

/// A reader whose answers `flaw` changes (given the items), against the honest Rust
/// implementation: the doc-membership-v1 grid.
fn doc_grid_with_reader(flaw: impl Fn(&[Vec<u8>], &mut Vec<Triple>) + Send + 'static) -> Grid {
    let reader = PlantedDoc::new("reader").on_read(move |real, params, records, bits, items| {
        let mut answers = real.read(params, records, bits, items)?;
        flaw(items, &mut answers);
        Ok(answers)
    });
    let mut participants = vec![
        ("rust".to_string(), Subjects::rust()),
        (
            "reader".to_string(),
            Subjects::rust().with(doc_membership_v1::subject(Box::new(reader))),
        ),
    ];
    cross::run(&mut participants, &[]).swap_remove(0)
}

#[test]
fn a_cell_keeps_twenty_differences_and_counts_the_rest() {
    let grid = doc_grid_with_reader(|_, answers| {
        for t in answers.iter_mut() {
            t.duplicate = !t.duplicate;
        }
    });
    let cell = cell(&grid, "rust", "reader");
    assert_eq!(cell.differences.len(), cross::DIFFERENCES_KEPT);
    assert!(cell.more > 0, "{}", cell.more);
    let errors = cross::errors(std::slice::from_ref(&grid));
    let line = errors
        .iter()
        .find(|e| e.contains("rust -> reader"))
        .expect("the reader's cell is an error");
    let others = cross::DIFFERENCES_KEPT - 1 + cell.more;
    assert!(line.ends_with(&format!(" (and {others} more)")), "{line}");
}

#[test]
fn a_reader_that_drops_an_answer_fails_one_answer_per_item() {
    let grid = doc_grid_with_reader(|_, answers| {
        answers.pop();
    });
    let cell = cell(&grid, "rust", "reader");
    assert!(
        cell.differences
            .iter()
            .any(|d| d.what == "one answer per item"),
        "{cell:?}"
    );
}

/// An item that is not printable text is named in hex.
#[test]
fn an_item_with_control_bytes_is_named_in_hex() {
    let grid = doc_grid_with_reader(|items, answers| {
        for (item, t) in items.iter().zip(answers.iter_mut()) {
            if item.as_slice() == [0u8; 64] {
                t.duplicate = !t.duplicate;
            }
        }
    });
    let cell = cell(&grid, "rust", "reader");
    let name = format!("m509-k5 item 0x{}", "00".repeat(64));
    assert!(cell.differences.iter().any(|d| d.case == name), "{cell:?}");
}
