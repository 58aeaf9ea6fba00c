//! The doc-membership-v1 evaluators catch what they claim to: each test plants one flaw
//! (in a subject, or in a copied spec's expectation) that only one comparison of the
//! runner can see, and asserts the failure that names it. Written against the
//! survivors of a cargo-mutants run over `crates/conformance/src/protocols/doc_membership_v1/checks/`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use bloomproof_conformance::subjects::doc_membership_v1::DocSubject;
use bloomproof_wire::protocols::doc_membership_v1::Triple;
use common::planted::PlantedDoc;
use common::{doc_report, failures, report_with_edit};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

/// A build the subject was asked for: m and the records.
type Built = (u64, Vec<Vec<u8>>);

const DOC: &str = "doc-membership-v1";

fn has(failed: &[String], wanted: &str) -> bool {
    failed.iter().any(|f| f == wanted)
}

fn assert_has(failed: &[String], wanted: &str) {
    assert!(has(failed, wanted), "no {wanted:?} in {failed:#?}");
}

/// The production subject with every lookup answer passed through `flaw` (given the
/// item looked up), as a subject with a flaw in answering would give it.
fn answering(name: &'static str, flaw: impl Fn(&[u8], &mut Triple) + Send + 'static) -> PlantedDoc {
    PlantedDoc::new(name).on_lookup(move |real, p, records, items| {
        let mut answers = real.lookup(p, records, items)?;
        for (item, t) in items.iter().zip(&mut answers) {
            flaw(item, t);
        }
        Ok(answers)
    })
}

/// Answers `absent` as not present (false, false, false), every other item as the
/// production subject does.
fn absent(name: &'static str, absent: &'static [u8]) -> PlantedDoc {
    answering(name, move |item, t| {
        if item == absent {
            *t = Triple {
                maybe_present: false,
                exact_checked: false,
                duplicate: false,
            };
        }
    })
}

/// Looks up every record as a non-duplicate (true, true, false): a subject that
/// confirms candidates against the wrong set.
fn records_not_duplicates() -> PlantedDoc {
    answering("no duplicates", |_, t| t.duplicate = false)
}

#[test]
fn a_record_that_is_not_a_duplicate_fails_every_snapshot_check_that_states_it() {
    let report = doc_report(records_not_duplicates());
    // The lookup shape, with the whole triple stated for every record.
    let confirmed = failures(&report, "positive_members_exactly_confirmed");
    assert_has(&confirmed, "03-fixture/doc-00..03: lookup(doc-00)");
    // The build shape: records_are_duplicates with lookups beside it, and without.
    let boundaries = failures(&report, "parameter_boundaries_pinned");
    assert_has(
        &boundaries,
        "16-boundary/m8-k1-no-seed: lookup(a) of a record",
    );
    let maximum = failures(&report, "maximum_declared_snapshot_bounds");
    assert!(
        maximum
            .iter()
            .any(|f| f.starts_with("14-seed/64x64-m512-k8: lookup(")),
        "{maximum:?}"
    );
    // Bytes that are not printable text are named in hex: the record 00.
    let raw = failures(&report, "raw_bytes_empty_nul_and_unicode_forms_distinct");
    assert_has(&raw, "07-raw/empty-nul-e-acute: lookup(00) of a record");
}

#[test]
fn a_false_negative_is_named_as_one() {
    let flawed = answering("false negative", |item, t| {
        if item == b"doc-00" {
            t.maybe_present = false;
        }
    });
    let report = doc_report(flawed);
    let failed = failures(&report, "inserted_items_have_no_false_negatives");
    assert_has(&failed, "02-fixture/doc-00..03: maybe_present(doc-00)");
}

/// Flipping any one field of an expected lookup makes the spec disagree with the
/// oracle (and the implementation): the runner says so, field by field.
#[test]
fn a_wrong_expected_lookup_field_fails() {
    for field in ["maybe_present", "exact_checked", "duplicate"] {
        let report = report_with_edit(DOC, "01-empty/lab-16-3", |case| {
            let result = &mut case["expect"]["lookups"][0]["result"];
            result[field] = (!result[field].as_bool().unwrap()).into();
        });
        let failed = failures(&report, "empty_snapshot_definitely_absent");
        assert!(
            has(
                &failed,
                "01-empty/lab-16-3: oracle agrees with the spec on lookup()"
            ),
            "{field}: {failed:?}"
        );
        assert!(
            has(&failed, "01-empty/lab-16-3: lookup()"),
            "{field}: {failed:?}"
        );
    }
}

#[test]
fn an_illegal_triple_for_a_non_member_fails() {
    let flawed = answering("illegal", |item, t| {
        if item == b"doc-10" {
            t.exact_checked = true;
        }
    });
    let report = doc_report(flawed);
    let failed = failures(
        &report,
        "finite_universe_false_positives_never_become_duplicates",
    );
    assert_has(
        &failed,
        "04-fixture/doc-00..63: lookup(doc-10) is a legal triple",
    );
}

/// A snapshot packed big-endian: the fixture's bit count is right and its bytes are
/// not, and the runner asks the implementation for the first differing stage.
#[test]
fn wrong_packed_bits_with_the_right_count_are_diagnosed() {
    let flawed = PlantedDoc::new("big endian").on_build(|real, p, records| {
        let mut built = real.build(p, records)?;
        built.packed_bits.reverse();
        Ok(built)
    });
    let report = doc_report(flawed);
    let failed = failures(
        &report,
        "finite_universe_false_positives_never_become_duplicates",
    );
    assert_has(&failed, "04-fixture/doc-00..63: packed bits");
    assert_has(
        &failed,
        "04-fixture/doc-00..63: first difference (stages, asked of the implementation)",
    );
}

/// A non-member hashed wrongly (doc-04, the seed's first false positive, at positions
/// of its own) and so answered absent: the false positives differ, and the runner
/// screens the item whose answer the oracle disputes, finding its wrong stage.
#[test]
fn a_missed_false_positive_is_diagnosed_at_the_disputed_item() {
    let flawed = absent("doc-04 hashed wrong", b"doc-04").on_positions(|real, p, item| {
        let m = u16::try_from(p.m).unwrap();
        let positions = real.positions(p, item)?;
        Ok(if item == b"doc-04" {
            positions.into_iter().map(|q| (q + 1) % m).collect()
        } else {
            positions
        })
    });
    let report = doc_report(flawed);
    let failed = failures(
        &report,
        "finite_universe_false_positives_never_become_duplicates",
    );
    assert_has(&failed, "04-fixture/doc-00..63: false positives");
    let diagnosis = report
        .checks
        .iter()
        .flat_map(|c| &c.failures)
        .find(|f| {
            f.case == "04-fixture/doc-00..63"
                && f.what == "first difference (stages, asked of the implementation)"
        })
        .expect("a diagnosis");
    assert!(diagnosis.actual.contains("doc-04"), "{}", diagnosis.actual);
}

#[test]
fn an_expectation_of_different_snapshots_or_a_lost_bit_fails() {
    let report = report_with_edit(DOC, "05-fixture/reversed-plus-records", |case| {
        case["expect"]["same_snapshot"] = false.into();
    });
    let failed = failures(&report, "order_and_duplicate_insertion_idempotent");
    assert_has(
        &failed,
        "05-fixture/reversed-plus-records: different snapshots",
    );
    let second = report_with_edit(DOC, "06-fixture/doc-00..07", |case| {
        case["expect"]["only_sets_bits"] = false.into();
    });
    let failed = failures(&second, "compatible_extension_only_sets_bits");
    assert_has(
        &failed,
        "06-fixture/doc-00..07: every base bit is set in the extension",
    );
}

/// An extension whose snapshot has another length: every base byte may be covered
/// and it is still no extension of the same filter.
#[test]
fn an_extension_of_another_length_fails() {
    let flawed = PlantedDoc::new("longer").on_build(|real, p, records| {
        let mut built = real.build(p, records)?;
        if records.len() == 8 {
            built.packed_bits.push(0);
        }
        Ok(built)
    });
    let report = doc_report(flawed);
    let failed = failures(&report, "compatible_extension_only_sets_bits");
    assert_has(
        &failed,
        "06-fixture/doc-00..07: every base bit is set in the extension",
    );
}

/// Every subset of the base list is built once per profile: the subject sees all
/// 2^8 of them, each a different set.
#[test]
fn the_exhaustive_check_builds_every_subset() {
    let seen: Arc<Mutex<Vec<Built>>> = Arc::default();
    let log = Arc::clone(&seen);
    let recording = PlantedDoc::new("recording").on_build(move |real, p, records| {
        log.lock().unwrap().push((p.m, records.to_vec()));
        real.build(p, records)
    });
    let report = doc_report(recording);
    assert!(
        failures(&report, "all_small_subsets_independent_position_set_oracle").is_empty(),
        "{:?}",
        failures(&report, "all_small_subsets_independent_position_set_oracle")
    );
    let seen = seen.lock().unwrap();
    // The exhaustive case's base list and the m of its four profiles (spec/derive).
    let base: [&[u8]; 8] = [
        b"",
        b"\x00",
        b"a",
        b"a\x00",
        b"\xff",
        b"A",
        b"00",
        "é".as_bytes(),
    ];
    for m in [8u64, 9, 16, 31] {
        let subsets: BTreeSet<Vec<Vec<u8>>> = seen
            .iter()
            .filter(|(pm, _)| *pm == m)
            .map(|(_, records)| records.clone())
            .filter(|records| records.iter().all(|r| base.contains(&r.as_slice())))
            .collect();
        assert!(
            subsets.len() >= 256,
            "m {m}: {} distinct subsets",
            subsets.len()
        );
    }
}

/// A subject whose every exhaustive snapshot is wrong: the runner names at most 20
/// mismatches of the case (and the first difference once), however many there are.
#[test]
fn exhaustive_mismatches_are_capped_at_twenty() {
    let flawed = PlantedDoc::new("all wrong").on_build(|real, p, records| {
        let mut built = real.build(p, records)?;
        for byte in &mut built.packed_bits {
            *byte = !*byte;
        }
        Ok(built)
    });
    let report = doc_report(flawed);
    let failed = failures(&report, "all_small_subsets_independent_position_set_oracle");
    let bits = failed
        .iter()
        .filter(|f| f.contains(": bits of subset"))
        .count();
    assert_eq!(bits, 20, "{failed:?}");
    let flawed = answering("all absent", |_, t| t.duplicate = !t.duplicate);
    let second = doc_report(flawed);
    let failed = failures(&second, "all_small_subsets_independent_position_set_oracle");
    let lookups = failed.iter().filter(|f| f.contains(": lookup(")).count();
    assert_eq!(lookups, 20, "{failed:?}");
}

const FAULT: &str = "clearing_shared_bit_breaks_no_false_negative_contract";
const FRAMING: &str = "hash_domain_framing_and_little_endian_bit_protocol";

/// Positions shifted by one: the pairs that share a bit are the same, so the removed
/// item is right and the cleared bit is not; the runner asks for the first difference.
#[test]
fn a_wrong_cleared_bit_is_diagnosed_even_when_the_removed_item_is_right() {
    let flawed = PlantedDoc::new("shifted").on_positions(|real, p, item| {
        let m = u16::try_from(p.m).unwrap();
        Ok(real
            .positions(p, item)?
            .into_iter()
            .map(|q| (q + 1) % m)
            .collect())
    });
    let report = doc_report(flawed);
    let failed = failures(&report, FAULT);
    assert_has(&failed, "10-fixture/doc-00..03: cleared bit");
    assert!(
        !has(&failed, "10-fixture/doc-00..03: removed item"),
        "{failed:?}"
    );
    assert_has(
        &failed,
        "10-fixture/doc-00..03: first difference (stages, asked of the implementation)",
    );
}

/// A reader that accepts every snapshot and answers nothing; and the bits it is
/// handed for the damaged read are the intact ones less exactly the shared bit.
#[test]
fn an_intact_read_without_answers_fails_and_only_the_shared_bit_is_cleared() {
    let handed: Arc<Mutex<Vec<Vec<u8>>>> = Arc::default();
    let log = Arc::clone(&handed);
    let flawed = PlantedDoc::new("silent reader").on_read(move |real, p, records, bits, items| {
        log.lock().unwrap().push(bits.to_vec());
        real.read(p, records, bits, items).map(|_| Vec::new())
    });
    let report = doc_report(flawed);
    let failed = failures(&report, FAULT);
    assert_has(
        &failed,
        "10-fixture/doc-00..03: every member passes maybe_present in the intact snapshot, read back",
    );
    let handed = handed.lock().unwrap();
    let intact = vec![0xd2, 0x91];
    let at = handed
        .iter()
        .position(|b| *b == intact)
        .expect("the intact read");
    // The fault's damaged read follows the intact one: d291 less bit 4.
    assert_eq!(handed[at + 1], vec![0xc2, 0x91]);
}

/// The seed's form of the fault (no reader) with a lookup that answers one member
/// absent, as many answers as members: the intact snapshot's lookup fails.
#[test]
fn a_member_absent_from_the_intact_snapshot_fails_the_fault_without_a_reader() {
    let flawed = absent("doc-01 absent", b"doc-01");
    let report = doc_report(flawed);
    let failed = failures(&report, "shared_bit_fault_is_a_false_negative");
    assert_has(
        &failed,
        "23-fixture/doc-00..03-without-reader: every member passes maybe_present in the intact snapshot",
    );
}

/// The cases of `read_snapshot_verifies_its_bits` failed in `report`, by id.
fn read_cases_failed(report: &bloomproof_conformance::Report) -> BTreeSet<String> {
    failures(report, "read_snapshot_verifies_its_bits")
        .iter()
        .filter_map(|f| f.split_once(": ").map(|(id, _)| id.to_string()))
        .collect()
}

/// A reader that never looks at the bits (it answers as a build of the records would)
/// fails every case whose snapshot must be refused, and only those; a reader that
/// refuses every snapshot fails every intact one.
#[test]
fn a_reader_is_judged_on_every_snapshot_it_must_refuse_or_answer() {
    let trusting = PlantedDoc::new("trusting reader")
        .on_read(|real, p, records, _bits, items| real.lookup(p, records, items));
    let failed = read_cases_failed(&doc_report(trusting));
    for id in [
        "17-fault/doc-00-removed-bit-4-cleared",
        "17-fault/last-record-misses-its-own-bit",
        "17-bits/one-byte-short",
        "17-bits/one-extra-bit",
        "17-bits/top-bit-of-last-byte",
    ] {
        assert!(failed.contains(id), "{id} not in {failed:#?}");
    }
    assert!(
        failed.iter().all(|id| !id.starts_with("17-intact/")),
        "{failed:#?}"
    );
    let refusing = PlantedDoc::new("refusing reader").on_read(|_, _, _, _, _| {
        Err(bloomproof_conformance::subject::SubjectError::Rejected {
            kind: "value".into(),
            field: Some("packed_bits".into()),
            message: "refused".into(),
        })
    });
    let failed = read_cases_failed(&doc_report(refusing));
    for id in [
        "17-intact/fixture",
        "17-intact/empty-m8",
        "17-intact/max-bounds",
    ] {
        assert!(failed.contains(id), "{id} not in {failed:#?}");
    }
}

/// A reader that refuses the damaged snapshot but names no record: the failure says
/// which record it should have named, in the list it was given.
#[test]
fn a_refusal_naming_the_wrong_field_says_which_record_was_due() {
    use bloomproof_conformance::subject::SubjectError;
    let flawed = PlantedDoc::new("wrong field").on_read(|real, p, records, bits, items| {
        real.read(p, records, bits, items).map_err(|err| match err {
            SubjectError::Rejected { kind, message, .. } => SubjectError::Rejected {
                kind,
                field: Some("packed_bits".into()),
                message,
            },
            other => other,
        })
    });
    let report = doc_report(flawed);
    let failure = report
        .checks
        .iter()
        .filter(|c| c.name == FAULT)
        .flat_map(|c| &c.failures)
        .find(|f| f.what == "reading the damaged snapshot: the error names the damaged member")
        .expect("the failure");
    // Without doc-00, the damaged doc-01 comes first.
    assert_eq!(failure.expected, "records[0]");
}

/// A frame whose message is wrong, and packed bits in the wrong byte order: the
/// framing check fails on each and diagnoses the wrong frame.
#[test]
fn wrong_frames_and_packing_fail_the_framing_check() {
    let flawed = PlantedDoc::new("wrong frame").on_frame(|real, p, index, item| {
        let mut framed = real.frame(p, index, item)?;
        framed.message.push(0);
        Ok(framed)
    });
    let report = doc_report(flawed);
    let failed = failures(&report, FRAMING);
    assert_has(
        &failed,
        "08-wire/m9-k2-S-i1-0041: first difference (stages, asked of the implementation)",
    );
    let flawed = PlantedDoc::new("big endian").on_build(|real, p, records| {
        let mut built = real.build(p, records)?;
        built.packed_bits.reverse();
        Ok(built)
    });
    let second = doc_report(flawed);
    let failed = failures(&second, FRAMING);
    assert_has(&failed, "08-packing/m9-k2-S-0041: packed bits (spec)");
}

/// The exhaustive check enumerates every subset, so its base list is bounded: 17
/// records (2^17 subsets) are refused as the case's own fault.
#[test]
fn an_exhaustive_base_past_sixteen_records_fails() {
    let report = report_with_edit(DOC, "13-seed/8-records-4-profiles", |case| {
        let base: Vec<String> = (0..17u8).map(|i| format!("{i:02x}")).collect();
        case["input"]["base_hex"] = base.into();
    });
    let failed = failures(&report, "all_small_subsets_independent_position_set_oracle");
    assert_eq!(failed, ["13-seed/8-records-4-profiles: base size"]);
    // Sixteen records are the most it takes (2^16 subsets, one profile here).
    let report = report_with_edit(DOC, "13-seed/8-records-4-profiles", |case| {
        let base: Vec<String> = (0..16u8).map(|i| format!("{i:02x}")).collect();
        case["input"]["base_hex"] = base.into();
        case["input"]["profiles"] = serde_json::json!([{"m": 8, "k": 1, "seed_hex": ""}]);
        case["expect"] = serde_json::json!({"snapshots": 65536, "queries": 786432});
    });
    let failed = failures(&report, "all_small_subsets_independent_position_set_oracle");
    assert_eq!(failed, Vec::<String>::new());
}

/// A subject wrong only on the snapshot of the first base record alone: the failure
/// names that subset by its mask, 0x0001.
#[test]
fn an_exhaustive_failure_names_its_subset() {
    let flawed = PlantedDoc::new("one subset").on_build(|real, p, records| {
        let mut built = real.build(p, records)?;
        if p.m == 8 && records == [Vec::<u8>::new()] {
            built.packed_bits[0] ^= 0xff;
        }
        Ok(built)
    });
    let report = doc_report(flawed);
    let failed = failures(&report, "all_small_subsets_independent_position_set_oracle");
    assert!(
        failed
            .iter()
            .any(|f| f.starts_with("13-seed/8-records-4-profiles: bits of subset 0x0001 under")),
        "{failed:?}"
    );
}

/// After a mutation attempt, a snapshot that answers present for the bitwise
/// complement of a record (a probe no record equals) has changed: the complements are
/// among the probes for that.
#[test]
fn a_mutation_that_makes_a_complement_present_fails() {
    let flawed =
        PlantedDoc::new("complement").on_mutate(|real, p, records, other, attempt, probes| {
            let mut mutation = real.mutate(p, records, other, attempt, probes)?;
            let complement: Option<Vec<u8>> = records
                .first()
                .map(|r| r.iter().map(|b| b ^ 0xff).collect());
            for (probe, t) in probes.iter().zip(&mut mutation.observed.lookups) {
                if !probe.is_empty() && complement.as_ref() == Some(probe) {
                    t.maybe_present = true;
                    t.exact_checked = true;
                }
            }
            Ok(mutation)
        });
    let report = doc_report(flawed);
    let failed = failures(&report, "snapshot_fields_are_immutable");
    assert!(!failed.is_empty(), "{failed:?}");
}

/// The expected and actual texts of the failure `case: what` of `check`.
fn shown(report: &bloomproof_conformance::Report, check: &str, at: &str) -> (String, String) {
    report
        .checks
        .iter()
        .filter(|c| c.name == check)
        .flat_map(|c| &c.failures)
        .find(|f| format!("{}: {}", f.case, f.what) == at)
        .map(|f| (f.expected.clone(), f.actual.clone()))
        .expect("the failure is in the report")
}

/// Failures show wire values as compact JSON, as an implementation in any language
/// reads them: triples and expectations as objects, bytes as hex strings, positions as
/// arrays.
#[test]
fn failures_show_values_as_json() {
    let (yes, no) = (
        r#"{"maybe_present":true,"exact_checked":true,"duplicate":true}"#,
        r#"{"maybe_present":true,"exact_checked":true,"duplicate":false}"#,
    );
    let report = doc_report(records_not_duplicates());
    // A spec expectation (the lookup shape) and an oracle triple (the build shape).
    for (check, at) in [
        (
            "positive_members_exactly_confirmed",
            "03-fixture/doc-00..03: lookup(doc-00)",
        ),
        (
            "parameter_boundaries_pinned",
            "16-boundary/m8-k1-no-seed: lookup(a) of a record",
        ),
    ] {
        assert_eq!(shown(&report, check, at), (yes.into(), no.into()), "{at}");
    }
    let big_endian = PlantedDoc::new("big endian").on_build(|real, p, records| {
        let mut built = real.build(p, records)?;
        built.packed_bits.reverse();
        Ok(built)
    });
    let report = doc_report(big_endian);
    assert_eq!(
        shown(
            &report,
            "parameter_boundaries_pinned",
            "16-boundary/m9-k2: packed bits equal the oracle's"
        ),
        (r#""1a01""#.into(), r#""011a""#.into())
    );
    let (_, diagnosis) = shown(
        &report,
        "finite_universe_false_positives_never_become_duplicates",
        "04-fixture/doc-00..63: first difference (stages, asked of the implementation)",
    );
    assert_eq!(
        diagnosis,
        "item \"doc-00\", one-record snapshot: packed byte 0: expected 10, got 90 \
         (bits 0..=7: expected positions [4], got [4,7]; the positions equal the oracle's)"
    );
}
