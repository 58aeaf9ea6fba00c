//! First difference: an implementation whose answers differ is asked for its stages,
//! and the failure names the first stage and byte that differ, with its field. Each
//! subject here plants one realistic difference and the report must name it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use bloomproof_conformance::Report;
use bloomproof_conformance::protocols::doc_membership_v1::V1;
use bloomproof_conformance::protocols::doc_membership_v1::diagnose::doc_first_difference;
use bloomproof_conformance::protocols::fnv1a_utf16_v1::diagnose::fnv_first_difference;
use bloomproof_conformance::subject::SubjectError;
use bloomproof_conformance::subjects::doc_membership_v1::{DocSubject, RawParams, RustDoc};
use bloomproof_conformance::subjects::fnv1a_utf16_v1::{FnvSubject, RustFnv};
use bloomproof_protocol::doc_membership_v1 as protocol;
use bloomproof_wire::protocols::doc_membership_v1::{Built, Framed, Triple};
use common::planted::{PlantedDoc, PlantedFnv, with_h1};
use common::report;
use std::collections::BTreeSet;

/// The rendered failures of one check.
fn failures_of(report: &Report, check: &str) -> String {
    report
        .checks
        .iter()
        .find(|c| c.name == check)
        .map(|c| c.render_failures())
        .unwrap_or_default()
}

/// Which one-byte framing difference a [`Framing`] subject plants.
#[derive(Clone, Copy)]
enum Plant {
    /// The item length written as one byte instead of two.
    ItemLengthOneByte,
    /// m written little-endian.
    MLittleEndian,
}

/// The messages of doc-membership-v1 with one framing difference.
#[derive(Clone, Copy)]
struct Framing {
    plant: Plant,
}

impl Framing {
    fn message(&self, p: &RawParams, index: u8, item: &[u8]) -> Vec<u8> {
        let m = u16::try_from(p.m).unwrap();
        let mut out = protocol::DOMAIN.to_vec();
        match self.plant {
            Plant::MLittleEndian => out.extend(m.to_le_bytes()),
            Plant::ItemLengthOneByte => out.extend(m.to_be_bytes()),
        }
        out.push(u8::try_from(p.k).unwrap());
        out.push(u8::try_from(p.seed.len()).unwrap());
        out.extend(&p.seed);
        out.push(index);
        let len = u16::try_from(item.len()).unwrap();
        match self.plant {
            Plant::ItemLengthOneByte => out.push(u8::try_from(len).unwrap()),
            Plant::MLittleEndian => out.extend(len.to_be_bytes()),
        }
        out.extend(item);
        out
    }

    fn own_positions(&self, p: &RawParams, item: &[u8]) -> Vec<u16> {
        (0..u8::try_from(p.k).unwrap())
            .map(|i| {
                let digest = protocol::sha256(&self.message(p, i, item));
                let r = digest
                    .iter()
                    .fold(0u64, |r, &b| (r * 256 + u64::from(b)) % p.m);
                u16::try_from(r).unwrap()
            })
            .collect()
    }

    fn own_bits(&self, p: &RawParams, records: &[Vec<u8>]) -> BTreeSet<u16> {
        records
            .iter()
            .flat_map(|r| self.own_positions(p, r))
            .collect()
    }
}

/// A whole implementation of doc-membership-v1 with one framing difference: its
/// messages, digests, positions, snapshots and lookups all follow from it. `frame`
/// answers only when `answers_frame`.
fn framing(plant: Plant, answers_frame: bool) -> PlantedDoc {
    let f = Framing { plant };
    PlantedDoc::new("planted framing difference")
        .on_frame(move |_, p, index, item| {
            if !answers_frame {
                return Err(SubjectError::Broken("unknown op frame".into()));
            }
            let message = f.message(p, index, item);
            Ok(Framed {
                digest: protocol::sha256(&message).to_vec(),
                message,
            })
        })
        .on_positions(move |real, p, item| {
            real.positions(p, item)?;
            Ok(f.own_positions(p, item))
        })
        .on_build(move |real, p, records| {
            let built = real.build(p, records)?;
            let mut packed = vec![0u8; built.packed_bits.len()];
            for q in f.own_bits(p, records) {
                packed[usize::from(q / 8)] |= 1 << (q % 8);
            }
            Ok(Built {
                packed_bits: packed,
                documents: built.documents,
            })
        })
        .on_lookup(move |real, p, records, items| {
            real.lookup(p, records, items)?;
            let bits = f.own_bits(p, records);
            Ok(items
                .iter()
                .map(|item| {
                    let maybe = f.own_positions(p, item).iter().all(|q| bits.contains(q));
                    Triple {
                        maybe_present: maybe,
                        exact_checked: maybe,
                        duplicate: maybe && records.contains(item),
                    }
                })
                .collect())
        })
}

fn fixture() -> RawParams {
    RawParams {
        m: 16,
        k: 3,
        seed: b"lab".to_vec(),
    }
}

#[test]
fn an_item_length_framed_as_one_byte_is_named_at_its_byte() {
    let mut subject = framing(Plant::ItemLengthOneByte, true);
    // domain 18 + m 2 + k 1 + len(seed) 1 + seed 3 + index 1: len(item) starts at 26.
    assert_eq!(
        doc_first_difference(V1.domain_hex, &mut subject, &fixture(), &[b"doc-04"]),
        "item \"doc-04\", hash index 0: message byte 26: expected 00, got 06 (item length, high byte; the message is 33 bytes, expected 34)"
    );
    let report = report(framing(Plant::ItemLengthOneByte, true), RustFnv);
    let text = failures_of(&report, "every_stage_pinned");
    assert!(
        text.contains("case 15-fixture/doc-04: first difference")
            && text.contains("message byte 26: expected 00, got 06 (item length, high byte;"),
        "{text}"
    );
    // A 16-byte seed moves the field 13 bytes on: 18 + 2 + 1 + 1 + 16 + 1 = 39; the
    // item is 64 bytes.
    assert!(
        text.contains("message byte 39: expected 00, got 40 (item length, high byte;"),
        "{text}"
    );
    // A build that differs is diagnosed too, at the first record whose stages differ.
    let text = failures_of(&report, "inserted_items_have_no_false_negatives")
        + &failures_of(
            &report,
            "finite_universe_false_positives_never_become_duplicates",
        );
    assert!(
        text.contains("first difference") && text.contains("(item length, high byte;"),
        "{text}"
    );
}

#[test]
fn m_little_endian_is_named_at_its_high_byte() {
    let mut subject = framing(Plant::MLittleEndian, true);
    assert_eq!(
        doc_first_difference(V1.domain_hex, &mut subject, &fixture(), &[b"doc-04"]),
        "item \"doc-04\", hash index 0: message byte 18: expected 00, got 10 (m, high byte)"
    );
}

#[test]
fn an_implementation_without_frame_gets_the_position_and_a_note() {
    let mut subject = framing(Plant::ItemLengthOneByte, false);
    let line = doc_first_difference(V1.domain_hex, &mut subject, &fixture(), &[b"doc-04"]);
    assert!(
        line.starts_with("item \"doc-04\", hash index ")
            && line.contains(": position: expected ")
            && line
                .contains("the frame op gave no stages: implementation failed: unknown op frame"),
        "{line}"
    );
    // The report still holds the plain failures, and the run goes on.
    let report = report(subject, RustFnv);
    let text = failures_of(&report, "every_stage_pinned");
    assert!(text.contains("case 15-fixture/doc-04: frame"), "{text}");
}

/// An adapter that answers only the handshake and `sha256` (the README's skeleton): every
/// stage request is refused, so no stage was compared, and the line says which
/// operations the check needs instead of "no stage differs for the 0 item(s)".
#[test]
fn refused_stage_operations_are_named_not_called_agreeing() {
    let refused = |op: &str| SubjectError::Rejected {
        kind: "bad_request".into(),
        field: None,
        message: format!("not implemented yet: {op}"),
    };
    let mut subject = PlantedDoc::new("sha256 only")
        .on_positions(move |_, _, _| Err(refused("positions")))
        .on_build(move |_, _, _| Err(refused("build")));
    let line = doc_first_difference(
        V1.domain_hex,
        &mut subject,
        &fixture(),
        &[b"doc-04", b"doc-00"],
    );
    assert!(
        line.starts_with("not diagnosed: this check needs `positions` and `build`, which the implementation did not answer (`positions`: rejected: bad_request error: not implemented yet: positions; `build`: "),
        "{line}"
    );
    assert!(!line.contains("no stage differs"), "{line}");
}

/// A case with no item to ask about (a generated snapshot of no records) is not
/// "no stage differs for the 0 item(s)": nothing was compared.
#[test]
fn a_case_without_items_is_not_called_agreeing() {
    let line = doc_first_difference(V1.domain_hex, &mut RustDoc::v1(), &fixture(), &[]);
    assert_eq!(
        line,
        "not diagnosed: the case has no item whose stages could be asked for"
    );
}

#[test]
fn agreeing_stages_say_so() {
    let line = doc_first_difference(
        V1.domain_hex,
        &mut RustDoc::v1(),
        &fixture(),
        &[b"doc-04", b"doc-00"],
    );
    assert!(
        line.starts_with("no stage differs for the 2 item(s) checked"),
        "{line}"
    );
}

fn fnv(basis: u32, units: &[u16]) -> u32 {
    units
        .iter()
        .fold(basis, |h, &u| (h ^ u32::from(u)).wrapping_mul(16_777_619))
}

/// FNV-1a with h1 from another basis (the 64-bit basis's low 32 bits).
fn wrong_basis() -> PlantedFnv {
    PlantedFnv::new("h1 from the wrong basis").on_positions(|real, m, k, units| {
        let hashes = real.positions(m, k, units)?;
        let h1 = fnv(0x8422_2325, units);
        Ok(with_h1(hashes, h1, m, k))
    })
}

/// Reads every surrogate code unit as U+FFFD, as a string decoder would.
fn replaces_surrogates() -> PlantedFnv {
    PlantedFnv::new("surrogates read as fffd").on_positions(|real, m, k, units| {
        let read: Vec<u16> = units
            .iter()
            .map(|&u| {
                if (0xd800..0xe000).contains(&u) {
                    0xfffd
                } else {
                    u
                }
            })
            .collect();
        real.positions(m, k, &read)
    })
}

#[test]
fn a_wrong_h1_basis_is_named_at_h1() {
    let units = [0x61u16];
    let got = wrong_basis().positions(8, 3, &units).unwrap();
    let line = fnv_first_difference(&mut wrong_basis(), 8, 3, &units, &got).unwrap();
    assert!(
        line.starts_with(&format!("h1: expected 3826002220, got {}", got.h1))
            && line.contains("no one code unit read differently explains it"),
        "{line}"
    );
    let report = report(RustDoc::v1(), wrong_basis());
    let text = failures_of(&report, "base_hashes_pinned");
    assert!(
        text.contains("first difference") && text.contains("actual:   h1: expected "),
        "{text}"
    );
}

#[test]
fn a_lone_surrogate_read_differently_is_named_at_its_code_unit() {
    let units = [0x61u16, 0x62, 0xd800, 0x63];
    let got = replaces_surrogates().positions(64, 4, &units).unwrap();
    assert_eq!(
        fnv_first_difference(&mut replaces_surrogates(), 64, 4, &units, &got).unwrap(),
        "code unit 2: expected d800, got fffd (h1 and h2 of the first 3 units are those of the string with that unit)"
    );
}

#[test]
fn a_wrapped_sum_is_named_at_its_position() {
    // Sums h1 + i*h2 in 32 bits.
    let wraps = PlantedFnv::new("32-bit sum").on_positions(|real, m, k, units| {
        let mut hashes = real.positions(m, k, units)?;
        hashes.positions = (0..k)
            .map(|i| {
                let sum = hashes.h1.wrapping_add((i as u32).wrapping_mul(hashes.h2));
                u16::try_from(u64::from(sum) % m).unwrap()
            })
            .collect();
        Ok(hashes)
    });
    let report = report(RustDoc::v1(), wraps);
    let text = failures_of(&report, "positions_without_32_bit_wrap");
    assert!(
        text.contains("h1 and h2 equal the oracle's; the sum is at least 2^32: wrapped to 32 bits it would give"),
        "{text}"
    );
}
