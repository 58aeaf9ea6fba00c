//! Property tests: for random parameters and items, production hashing equals
//! the independent oracle (its own SHA-256, hex framing, digit-by-digit
//! reduction) in both protocols.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use bloomproof_oracle::{doc_membership as doc_oracle, fnv1a_utf16 as fnv_oracle};
use bloomproof_protocol::{doc_membership_v1 as doc, fnv1a_utf16_v1 as fnv};
use proptest::prelude::*;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes from a small alphabet (so framing edge cases like 0x00 and 0xff
/// show up) or fully random, of any allowed length.
fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(
            prop::sample::select(vec![0u8, 1, b'a', b'b', 0x80, 0xff]),
            0..=max
        ),
        prop::collection::vec(any::<u8>(), 0..=max),
    ]
}

/// Valid doc-membership-v1 parameters: m 8..=512 (edges weighted), k 1..=8, seed 0..=16 bytes.
fn doc_params() -> impl Strategy<Value = (u16, u8, Vec<u8>)> {
    (
        prop_oneof![
            1 => Just(8u16),
            1 => Just(9u16),
            1 => Just(511u16),
            1 => Just(512u16),
            6 => 8u16..=512,
        ],
        1u8..=8,
        bytes(doc::SEED_MAX),
    )
}

/// UTF-16 code-unit strings, including lone and paired surrogates.
fn units() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(
        prop_oneof![
            2 => any::<u16>(),
            1 => 0xd800u16..=0xdbff,
            1 => 0xdc00u16..=0xdfff,
            1 => Just(0u16),
            1 => Just(u16::MAX),
            2 => 0x20u16..0x7f,
        ],
        0..=300,
    )
}

/// Valid fnv1a-utf16-v1 parameters: m 8..=1024, k 1..=12.
fn fnv_params() -> impl Strategy<Value = (u16, u8)> {
    (
        prop_oneof![
            1 => Just(8u16),
            1 => Just(1023u16),
            1 => Just(1024u16),
            6 => 8u16..=1024,
        ],
        1u8..=12,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Message bytes, digests and positions equal the oracle's for every index.
    #[test]
    fn doc_membership_equals_oracle((m, k, seed) in doc_params(), item in bytes(doc::ITEM_MAX)) {
        let params = doc::Params::new(u64::from(m), u64::from(k), &seed).unwrap();
        prop_assert_eq!((params.m(), params.k(), params.seed()), (m, k, seed.as_slice()));
        let (m32, k32) = (u32::from(m), u32::from(k));
        let want: Vec<u32> = doc_oracle::positions(doc_oracle::DOMAIN_HEX, m32, k32, &seed, &item);
        prop_assert_eq!(want.len(), usize::from(k));
        let got = doc::positions(&params, &item).unwrap();
        prop_assert_eq!(
            got.as_slice().iter().map(|&p| u32::from(p)).collect::<Vec<_>>(),
            want.clone()
        );
        let fast = doc::fast::positions(&params, &item).unwrap();
        prop_assert_eq!(fast.as_slice(), got.as_slice());
        let mut framed = doc::fast::FramedItem::new(&params, &item).unwrap();
        for index in 0..k {
            let message = doc::message(&params, index, &item).unwrap();
            prop_assert_eq!(
                hex(message.as_bytes()),
                doc_oracle::message_hex(doc_oracle::DOMAIN_HEX, m32, k32, &seed, u32::from(index), &item)
            );
            let digest_hex = doc_oracle::digest_hex(doc_oracle::DOMAIN_HEX, m32, k32, &seed, u32::from(index), &item);
            let digest = doc::digest(&params, index, &item).unwrap();
            prop_assert_eq!(hex(&digest), digest_hex.clone());
            prop_assert_eq!(hex(&doc::sha256(message.as_bytes())), digest_hex.clone());
            let reduced = doc::reduce(&digest, m);
            prop_assert_eq!(
                u32::from(reduced),
                doc_oracle::reduce_hex(&digest_hex, m32).unwrap()
            );
            prop_assert_eq!(u32::from(reduced), want[usize::from(index)]);
            prop_assert_eq!(u32::from(doc::position(&params, index, &item).unwrap()), want[usize::from(index)]);
            prop_assert_eq!(u32::from(framed.position(index)), want[usize::from(index)]);
        }
        // Out-of-order indices on one framed item still give the right positions.
        for index in (0..k).rev() {
            prop_assert_eq!(u32::from(framed.position(index)), want[usize::from(index)]);
        }
    }

    /// The reduction of any 256-bit number equals the oracle's digit-by-digit one, for any m.
    #[test]
    fn reduce_equals_oracle(digest in any::<[u8; 32]>(), m in prop_oneof![1u16..=1024, any::<u16>().prop_filter("nonzero", |m| *m != 0)]) {
        prop_assert_eq!(
            u32::from(doc::reduce(&digest, m)),
            doc_oracle::reduce_hex(&hex(&digest), u32::from(m)).unwrap()
        );
    }

    /// Items over 64 bytes and out-of-bounds parameters are rejected, naming the field.
    #[test]
    fn doc_bounds(m in 0u64..2000, k in 0u64..20, seed_len in 0usize..40, item_len in 0usize..130) {
        let seed = vec![7u8; seed_len];
        let result = doc::Params::new(m, k, &seed);
        let m_ok = (8..=512).contains(&m);
        let k_ok = (1..=8).contains(&k);
        let seed_ok = seed_len <= 16;
        match result {
            Ok(params) => {
                prop_assert!(m_ok && k_ok && seed_ok);
                let item = vec![1u8; item_len];
                match doc::positions(&params, &item) {
                    Ok(positions) => {
                        prop_assert!(item_len <= 64);
                        prop_assert_eq!(positions.as_slice().len() as u64, k);
                        prop_assert!(positions.as_slice().iter().all(|&p| u64::from(p) < m));
                    }
                    Err(err) => {
                        prop_assert!(item_len > 64);
                        prop_assert!(doc::fast::positions(&params, &item).is_err());
                        prop_assert_eq!(err.field, doc::Field::Item);
                        prop_assert_eq!((err.given, err.min, err.max), (item_len as u64, 0, 64));
                        prop_assert!(doc::message(&params, 0, &item).is_err());
                        prop_assert!(doc::digest(&params, 0, &item).is_err());
                        prop_assert!(doc::check_item(&item).is_err());
                    }
                }
            }
            Err(err) => {
                let want = if !m_ok {
                    (doc::Field::M, m, 8, 512)
                } else if !k_ok {
                    (doc::Field::K, k, 1, 8)
                } else {
                    prop_assert!(!seed_ok);
                    (doc::Field::Seed, seed_len as u64, 0, 16)
                };
                prop_assert_eq!((err.field, err.given, err.min, err.max), want);
            }
        }
    }

    /// h1, h2 and every position equal the oracle's, for random unit strings
    /// (lone surrogates included) and random parameters.
    #[test]
    fn fnv_equals_oracle(units in units(), (m, k) in fnv_params()) {
        let params = fnv::Params::new(u64::from(m), u64::from(k)).unwrap();
        prop_assert_eq!((params.m(), params.k()), (m, k));
        let hashes = fnv::base_hashes(&units);
        prop_assert_eq!(hashes.h1, fnv_oracle::h1(&units));
        prop_assert_eq!(hashes.h2, fnv_oracle::h2(&units));
        prop_assert_eq!(hashes.h2 % 2, 1);
        let want = fnv_oracle::positions(u32::from(m), u32::from(k), &units);
        let widen = |ps: &[u16]| ps.iter().map(|&p| u32::from(p)).collect::<Vec<_>>();
        prop_assert_eq!(widen(&fnv::positions(&params, hashes)), want.clone());
        prop_assert_eq!(widen(fnv::positions_inline(&params, hashes).as_slice()), want.clone());
        let (again, inline) = fnv::hashes_and_positions(&params, &units);
        prop_assert_eq!(again, hashes);
        prop_assert_eq!(widen(inline.as_slice()), want.clone());
        for (index, &p) in (0..k).zip(&want) {
            prop_assert_eq!(u32::from(fnv::position(hashes, index, m)), p);
        }
    }

    /// Positions for arbitrary base hashes (not only reachable ones) equal the exact formula.
    #[test]
    fn fnv_positions_for_any_hashes(h1 in any::<u32>(), h2 in any::<u32>(), (m, k) in fnv_params()) {
        let params = fnv::Params::new(u64::from(m), u64::from(k)).unwrap();
        let hashes = fnv::BaseHashes { h1, h2: h2 | 1 };
        let want: Vec<u16> = (0..u128::from(k))
            .map(|i| ((u128::from(h1) + i * u128::from(h2 | 1)) % u128::from(m)) as u16)
            .collect();
        prop_assert_eq!(fnv::positions(&params, hashes), want.clone());
        let inline = fnv::positions_inline(&params, hashes);
        prop_assert_eq!(inline.as_slice(), want.as_slice());
    }

    /// Rust strings: `units` is UTF-16 exactly as the oracle computes it from code points.
    #[test]
    fn fnv_units_equal_oracle(text in "\\PC{0,40}") {
        prop_assert_eq!(fnv::units(&text), fnv_oracle::utf16_units(&text));
    }

    /// Out-of-bounds m and k are rejected, naming the field (m first).
    #[test]
    fn fnv_bounds(m in 0u64..3000, k in 0u64..30) {
        let m_ok = (8..=1024).contains(&m);
        let k_ok = (1..=12).contains(&k);
        match fnv::Params::new(m, k) {
            Ok(_) => prop_assert!(m_ok && k_ok),
            Err(err) => {
                let want = if !m_ok { (fnv::Field::M, m, 8, 1024) } else { (fnv::Field::K, k, 1, 12) };
                prop_assert_eq!((err.field, err.given, err.min, err.max), want);
            }
        }
    }
}
