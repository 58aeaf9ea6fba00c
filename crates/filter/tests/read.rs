//! Reading a snapshot given as its parts verifies it, in the documented order.

#![allow(clippy::unwrap_used)]

use bloomproof_filter::{DocumentPrefilter, ErrorKind, Params};

const MEMBERS: [&[u8]; 4] = [b"doc-00", b"doc-01", b"doc-02", b"doc-03"];

fn lab() -> Params {
    Params::new(16, 3, b"lab").unwrap()
}

fn field_of(records: &[&[u8]], bits: &[u8]) -> String {
    let err = DocumentPrefilter::read(lab(), records, bits).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    err.field().to_string()
}

#[test]
fn an_intact_snapshot_reads_back_equal() {
    let built = DocumentPrefilter::with_params(lab(), &MEMBERS).unwrap();
    let read = DocumentPrefilter::read(lab(), &MEMBERS, &[0xd2, 0x91]).unwrap();
    assert_eq!(read, built);
    let reordered: Vec<&[u8]> = MEMBERS.iter().rev().chain(&MEMBERS).copied().collect();
    assert_eq!(
        DocumentPrefilter::read(lab(), &reordered, &[0xd2, 0x91]).unwrap(),
        built
    );
}

#[test]
fn the_seeds_fault_names_the_damaged_member() {
    // doc-00 removed and its shared bit 4 cleared: doc-01 misses bit 4.
    let err = DocumentPrefilter::read(lab(), &MEMBERS[1..], &[0xc2, 0x91]).unwrap_err();
    assert_eq!((err.kind(), err.field()), (ErrorKind::Value, "records[0]"));
    assert!(err.message().contains("position 4"), "{err}");
}

#[test]
fn every_check_in_its_order() {
    assert_eq!(field_of(&MEMBERS, &[0xd2]), "packed_bits");
    assert_eq!(field_of(&MEMBERS, &[0xd2, 0x91, 0x00]), "packed_bits");
    // bit 0 is not set by any member: an extra bit.
    assert_eq!(field_of(&MEMBERS, &[0xd3, 0x91]), "packed_bits");
    // A missing bit is named before an extra one.
    assert_eq!(field_of(&MEMBERS, &[0xc3, 0x91]), "records[0]");
    // The record contract comes before the bits.
    assert_eq!(field_of(&[&[0u8; 65]], &[0xd2]), "records[0]");
    let m9 = Params::new(9, 2, b"S").unwrap();
    let err = DocumentPrefilter::read(m9, &[b"\x00A"], &[0x00, 0x02]).unwrap_err();
    assert_eq!(err.field(), "packed_bits");
    assert!(err.message().contains("bit 9"), "{err}");
    // Every unused bit of the last byte is checked, up to its top bit.
    let m9 = Params::new(9, 2, b"S").unwrap();
    let built = DocumentPrefilter::with_params(m9, &[b"\x00A"])
        .unwrap()
        .packed_bits();
    let top = [built[0], built[1] | 0x80];
    let err = DocumentPrefilter::read(m9, &[b"\x00A"], &top).unwrap_err();
    assert_eq!(err.field(), "packed_bits");
    assert!(err.message().contains("bit 15"), "{err}");
}
