//! The `doc-membership-v1` reference against the seed's wire example, its
//! published fixture, and figures computed independently with Python's
//! hashlib.

use std::collections::BTreeSet;

use bloomproof_oracle::doc_membership::{
    DOMAIN_HEX, digest_hex, maybe_present, message_hex, occupied, packed_hex, position_set,
    positions, reduce_hex,
};
use bloomproof_oracle::hex::{self, HexError};

fn doc(n: usize) -> Vec<u8> {
    format!("doc-{n:02}").into_bytes()
}

#[test]
fn domain_literal_spells_the_domain() {
    assert_eq!(hex::decode(DOMAIN_HEX).unwrap(), b"doc-membership-v1\x00");
    assert_eq!(DOMAIN_HEX.len(), 36);
}

#[test]
fn seed_wire_example() {
    // Seed check 8: domain + 00 09 02 01 53 01 00 02 00 41.
    let expected = format!("{DOMAIN_HEX}00090201530100020041");
    assert_eq!(message_hex(DOMAIN_HEX, 9, 2, b"S", 1, b"\x00A"), expected);
    // Field by field, to make the layout visible.
    assert_eq!(
        expected,
        [DOMAIN_HEX, "0009", "02", "01", "53", "01", "0002", "0041"].concat()
    );
    // Digest and positions computed with Python's hashlib over the same bytes:
    //   hashlib.sha256(b"doc-membership-v1\0" + bytes.fromhex("00090201530100020041"))
    assert_eq!(
        digest_hex(DOMAIN_HEX, 9, 2, b"S", 1, b"\x00A"),
        "81a882f9152f9b182a78ff82ce444c6d4828eef206166f4c6afb829a0bb58b17"
    );
    assert_eq!(positions(DOMAIN_HEX, 9, 2, b"S", b"\x00A"), vec![7, 8]);
    // The one-record m=9 snapshot: bits 7 and 8 -> bytes 0x80 0x01.
    let bits = occupied(DOMAIN_HEX, &[b"\x00A".to_vec()], 9, 2, b"S");
    assert_eq!(packed_hex(&bits, 9), "8001");
}

#[test]
fn length_framing_separates_seed_and_item() {
    let a_bc = message_hex(DOMAIN_HEX, 16, 3, b"a", 0, b"bc");
    let ab_c = message_hex(DOMAIN_HEX, 16, 3, b"ab", 0, b"c");
    assert_ne!(a_bc, ab_c);
    // Exact messages, from Python: the concatenations seed+item are equal,
    // only the length fields tell them apart.
    assert_eq!(a_bc, format!("{DOMAIN_HEX}00100301610000026263"));
    assert_eq!(ab_c, format!("{DOMAIN_HEX}00100302616200000163"));
    assert_ne!(
        digest_hex(DOMAIN_HEX, 16, 3, b"a", 0, b"bc"),
        digest_hex(DOMAIN_HEX, 16, 3, b"ab", 0, b"c")
    );
}

#[test]
fn empty_seed_and_item_fields() {
    // m=8, k=1, no seed, index 0, empty item: only the fixed-width fields.
    assert_eq!(
        message_hex(DOMAIN_HEX, 8, 1, b"", 0, b""),
        [DOMAIN_HEX, "0008", "01", "00", "00", "0000"].concat()
    );
}

#[test]
fn member_positions_match_python() {
    // Computed with Python's hashlib:
    //   int.from_bytes(hashlib.sha256(message).digest(), "big") % m
    let expected: [[u32; 3]; 4] = [[4, 15, 12], [4, 6, 15], [7, 7, 8], [15, 1, 1]];
    for (n, want) in expected.iter().enumerate() {
        assert_eq!(
            positions(DOMAIN_HEX, 16, 3, b"lab", &doc(n)),
            want.to_vec(),
            "doc-{n:02}"
        );
    }
    // Repeats are kept in positions but collapse in the set.
    assert_eq!(
        position_set(DOMAIN_HEX, 16, 3, b"lab", &doc(2)),
        BTreeSet::from([7, 8])
    );
    // Largest declared profile (seed check 14, record 5).
    assert_eq!(
        positions(DOMAIN_HEX, 512, 8, &[b's'; 16], &[5u8; 64]),
        vec![207, 428, 249, 371, 470, 128, 459, 49]
    );
}

#[test]
fn published_fixture() {
    let members: Vec<Vec<u8>> = (0..4).map(doc).collect();
    let bits = occupied(DOMAIN_HEX, &members, 16, 3, b"lab");
    assert_eq!(bits.len(), 7);
    assert_eq!(bits, BTreeSet::from([1, 4, 6, 7, 8, 12, 15]));
    assert_eq!(packed_hex(&bits, 16), "d291");

    for member in &members {
        assert!(maybe_present(DOMAIN_HEX, &bits, 16, 3, b"lab", member));
    }
    let false_positives: Vec<String> = (4..64)
        .filter(|&n| maybe_present(DOMAIN_HEX, &bits, 16, 3, b"lab", &doc(n)))
        .map(|n| format!("doc-{n:02}"))
        .collect();
    assert_eq!(
        false_positives,
        ["doc-04", "doc-41", "doc-43", "doc-44", "doc-51"]
    );
}

#[test]
fn order_and_repeats_do_not_change_the_bits() {
    let members: Vec<Vec<u8>> = (0..4).map(doc).collect();
    let mut shuffled: Vec<Vec<u8>> = members.iter().rev().cloned().collect();
    shuffled.extend(members.iter().cloned());
    assert_eq!(
        occupied(DOMAIN_HEX, &members, 16, 3, b"lab"),
        occupied(DOMAIN_HEX, &shuffled, 16, 3, b"lab")
    );
}

#[test]
fn shared_bit_fault_injection() {
    // Seed check 10: doc-00 and doc-01 share bit 4; clearing it breaks doc-01.
    let members: Vec<Vec<u8>> = (0..4).map(doc).collect();
    let shared: BTreeSet<u32> = position_set(DOMAIN_HEX, 16, 3, b"lab", &doc(0))
        .intersection(&position_set(DOMAIN_HEX, 16, 3, b"lab", &doc(1)))
        .copied()
        .collect();
    assert_eq!(shared.first(), Some(&4));
    let mut damaged = occupied(DOMAIN_HEX, &members, 16, 3, b"lab");
    damaged.remove(&4);
    assert!(!maybe_present(DOMAIN_HEX, &damaged, 16, 3, b"lab", &doc(1)));
}

#[test]
fn packed_bits_are_little_endian() {
    assert_eq!(packed_hex(&BTreeSet::from([0]), 8), "01");
    assert_eq!(packed_hex(&BTreeSet::from([7]), 8), "80");
    assert_eq!(packed_hex(&BTreeSet::from([8]), 9), "0001");
    assert_eq!(packed_hex(&BTreeSet::new(), 17), "000000");
    assert_eq!(packed_hex(&BTreeSet::from([0, 9, 16]), 17), "010201");
    // Positions at or above m are not bits of the filter.
    assert_eq!(packed_hex(&BTreeSet::from([9]), 9), "0000");
}

#[test]
fn reduce_hex_hand_checked() {
    assert_eq!(reduce_hex("ff", 9), Ok(3)); // 255 = 28*9 + 3
    assert_eq!(reduce_hex("FF", 9), Ok(3));
    // 2^256 - 1: 2^6 = 64 = 1 mod 9, so 2^256 = 2^4 = 7 mod 9, minus 1 is 6.
    assert_eq!(reduce_hex(&"f".repeat(64), 9), Ok(6));
    assert_eq!(reduce_hex("", 9), Ok(0));
    assert_eq!(reduce_hex("0", 9), Ok(0));
    assert_eq!(reduce_hex("100", 16), Ok(0));
    assert_eq!(reduce_hex("abc", 1000), Ok(0xabc % 1000)); // odd digit count is fine
    // Against u64 arithmetic where the number fits.
    let text = "0123456789abcdef";
    for m in [1u32, 2, 7, 16, 97, 512, 65_521, u32::MAX] {
        let exact = 0x0123_4567_89ab_cdef_u64 % u64::from(m);
        assert_eq!(reduce_hex(text, m), Ok(exact as u32), "m = {m}");
    }
}

#[test]
fn reduce_hex_rejects_non_digits() {
    let err = reduce_hex("12x4", 9).unwrap_err();
    assert_eq!(
        err,
        HexError::InvalidDigit {
            found: 'x',
            offset: 2
        }
    );
    assert_eq!(err.to_string(), "invalid hex digit 'x' at offset 2");
}

#[test]
fn outside_the_protocol_never_panics() {
    // m = 0: no positions, vacuous membership, no packed bytes.
    assert_eq!(reduce_hex("ff", 0), Ok(0));
    assert!(reduce_hex("zz", 0).is_err());
    assert!(positions(DOMAIN_HEX, 0, 3, b"lab", b"x").is_empty());
    assert!(occupied(DOMAIN_HEX, &[b"x".to_vec()], 0, 3, b"lab").is_empty());
    assert!(maybe_present(
        DOMAIN_HEX,
        &BTreeSet::new(),
        0,
        3,
        b"lab",
        b"x"
    ));
    assert_eq!(packed_hex(&BTreeSet::from([0]), 0), "");
    // k = 0: no positions.
    assert!(positions(DOMAIN_HEX, 16, 0, b"lab", b"x").is_empty());
    // Oversized fields widen to an even number of digits; results still come.
    let wide = message_hex(
        DOMAIN_HEX,
        0x1_0000,
        0x100,
        &[7u8; 300],
        0x100,
        &vec![1u8; 0x1_0000],
    );
    assert_eq!(wide.len() % 2, 0);
    assert!(wide.starts_with(&format!("{DOMAIN_HEX}010000")));
    assert_eq!(
        digest_hex(DOMAIN_HEX, 0x1_0000, 0x100, b"", 0x100, b"").len(),
        64
    );
    assert_eq!(
        positions(DOMAIN_HEX, u32::MAX, 300, &[0u8; 20], &[0u8; 70]).len(),
        300
    );
}
