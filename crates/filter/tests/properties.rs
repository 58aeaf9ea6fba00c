//! Property tests of the `doc-membership-v1` snapshot: for random parameters,
//! records and queries, production equals the independent oracle (bits,
//! packed bits, lookups), and the snapshot laws of the protocol hold.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::BTreeSet;

use bloomproof_filter::dynamic::{self, Value};
use bloomproof_filter::{DocumentPrefilter, ErrorKind, Lookup};
use bloomproof_oracle::doc_membership as oracle;
use proptest::prelude::*;

const ABSENT: Lookup = Lookup {
    maybe_present: false,
    exact_checked: false,
    duplicate: false,
};
const FALSE_POSITIVE: Lookup = Lookup {
    maybe_present: true,
    exact_checked: true,
    duplicate: false,
};
const DUPLICATE: Lookup = Lookup {
    maybe_present: true,
    exact_checked: true,
    duplicate: true,
};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An item: mostly short strings over a tiny alphabet (so records repeat and
/// queries hit members), sometimes any bytes up to the 64-byte bound.
fn item() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(prop::sample::select(vec![0u8, b'a', b'b', 0xff]), 0..=3),
        1 => prop::collection::vec(any::<u8>(), 0..=64),
    ]
}

/// Parameters with small m weighted, so filters fill up and false positives occur.
fn params() -> impl Strategy<Value = (u64, u64, Vec<u8>)> {
    (
        prop_oneof![3 => 8u64..=40, 1 => 41u64..=512, 1 => Just(512u64)],
        1u64..=8,
        prop::collection::vec(any::<u8>(), 0..=16),
    )
}

fn records() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(item(), 0..=24)
}

fn occupied(records: &[Vec<u8>], m: u64, k: u64, seed: &[u8]) -> BTreeSet<u32> {
    oracle::occupied(oracle::DOMAIN_HEX, records, m as u32, k as u32, seed)
}

/// The set bits of a snapshot, read through its public API.
fn set_bits(snapshot: &DocumentPrefilter) -> BTreeSet<u32> {
    (0..snapshot.m())
        .filter(|&p| snapshot.bit(p))
        .map(u32::from)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Bits, packed bits and every lookup equal the oracle's.
    #[test]
    fn snapshot_equals_oracle(
        (m, k, seed) in params(),
        records in records(),
        queries in prop::collection::vec(item(), 0..16),
    ) {
        let snapshot = DocumentPrefilter::new(&records, m, k, &seed).unwrap();
        prop_assert_eq!((u64::from(snapshot.m()), u64::from(snapshot.k()), snapshot.seed()), (m, k, seed.as_slice()));
        prop_assert_eq!(
            (snapshot.params().m(), snapshot.params().k(), snapshot.params().seed()),
            (snapshot.m(), snapshot.k(), snapshot.seed())
        );
        let want = occupied(&records, m, k, &seed);
        prop_assert_eq!(set_bits(&snapshot), want.clone());
        prop_assert_eq!(snapshot.bits_set() as usize, want.len());
        prop_assert_eq!(hex(&snapshot.packed_bits()), oracle::packed_hex(&want, m as u32));
        let documents: BTreeSet<Vec<u8>> = records.iter().cloned().collect();
        prop_assert_eq!(snapshot.documents().len(), documents.len());
        prop_assert_eq!(snapshot.documents().is_empty(), documents.is_empty());
        prop_assert_eq!(
            snapshot.documents().iter().map(<[u8]>::to_vec).collect::<Vec<_>>(),
            documents.iter().cloned().collect::<Vec<_>>()
        );
        let all: Vec<&[u8]> = queries.iter().chain(&records).map(Vec::as_slice).collect();
        for &query in &all {
            let maybe = oracle::maybe_present(oracle::DOMAIN_HEX, &want, m as u32, k as u32, &seed, query);
            let expected = Lookup {
                maybe_present: maybe,
                exact_checked: maybe,
                duplicate: maybe && documents.contains(query),
            };
            prop_assert_eq!(snapshot.lookup(query).unwrap(), expected);
            prop_assert_eq!(snapshot.maybe_present(query).unwrap(), maybe);
            prop_assert_eq!(snapshot.documents().contains(query), documents.contains(query));
        }
        // The dynamic contract builds the same snapshot from a tuple of exact bytes.
        let tuple = Value::Tuple(records.iter().cloned().map(Value::Bytes).collect());
        let built = dynamic::build(
            &tuple,
            &Value::Int(i128::from(m)),
            &Value::Int(i128::from(k)),
            &Value::Bytes(seed.clone()),
        )
        .unwrap();
        prop_assert_eq!(&built, &snapshot);
        for &query in &all {
            prop_assert_eq!(
                dynamic::lookup(&built, &Value::Bytes(query.to_vec())).unwrap(),
                snapshot.lookup(query).unwrap()
            );
        }
    }

    /// Batched lookups equal single ones, in input order, sequential or on the pool
    /// (batches long enough to be cut into several tasks included).
    #[test]
    fn batch_lookups_equal_single_ones(
        (m, k, seed) in params(),
        records in records(),
        queries in prop::collection::vec(item(), 0..300),
        odd in any::<bool>(),
    ) {
        let snapshot = DocumentPrefilter::new(&records, m, k, &seed).unwrap();
        let mut all: Vec<&[u8]> = queries.iter().map(Vec::as_slice).collect();
        all.extend(records.iter().map(Vec::as_slice));
        let too_long = [0u8; 65];
        if odd {
            all.insert(all.len() / 2, &too_long);
        }
        let single: Vec<_> = all.iter().map(|q| snapshot.lookup(q)).collect();
        prop_assert_eq!(&snapshot.lookup_batch_parallel(&all), &single);
        prop_assert_eq!(&snapshot.lookup_batch_sequential(&all), &single);
        prop_assert_eq!(&snapshot.lookup_batch(&all), &single);
    }

    /// The document set's memory is what its documentation says: the bytes, two
    /// bytes of end offset per document, and a probe index of the smallest power
    /// of two at least twice the documents (none without documents).
    #[test]
    fn document_set_memory(
        (m, k, seed) in params(),
        records in records(),
    ) {
        let snapshot = DocumentPrefilter::new(&records, m, k, &seed).unwrap();
        let documents: BTreeSet<&Vec<u8>> = records.iter().collect();
        let count = documents.len();
        let index = if count == 0 { 0 } else { (2 * count).next_power_of_two() };
        prop_assert_eq!(snapshot.documents().index_bytes(), index);
        let bytes: usize = documents.iter().map(|d| d.len()).sum();
        prop_assert_eq!(snapshot.documents().heap_bytes(), bytes + 2 * count + index);
        prop_assert_eq!(snapshot.heap_bytes_beyond_documents() as u64, m.div_ceil(8));
    }

    /// No false negatives: every record is an exact duplicate; every lookup
    /// is one of the three legal triples.
    #[test]
    fn no_false_negatives_and_legal_triples(
        (m, k, seed) in params(),
        records in records(),
        queries in prop::collection::vec(item(), 0..32),
    ) {
        let snapshot = DocumentPrefilter::new(&records, m, k, &seed).unwrap();
        for record in &records {
            prop_assert_eq!(snapshot.lookup(record).unwrap(), DUPLICATE);
        }
        for query in &queries {
            let got = snapshot.lookup(query).unwrap();
            prop_assert!([ABSENT, FALSE_POSITIVE, DUPLICATE].contains(&got), "{:?}", got);
            prop_assert_eq!(got.duplicate, records.contains(query));
        }
    }

    /// Insertion order and repeats do not change the snapshot.
    #[test]
    fn order_and_repetition_do_not_matter(
        (m, k, seed) in params(),
        records in records(),
        permutation in any::<prop::sample::Index>(),
        repeats in prop::collection::vec(any::<prop::sample::Index>(), 0..16),
    ) {
        let snapshot = DocumentPrefilter::new(&records, m, k, &seed).unwrap();
        let mut shuffled = records.clone();
        if !shuffled.is_empty() {
            let len = shuffled.len();
            shuffled.rotate_left(permutation.index(len));
            shuffled.reverse();
            for repeat in &repeats {
                if shuffled.len() < 64 {
                    shuffled.push(records[repeat.index(len)].clone());
                }
            }
        }
        let other = DocumentPrefilter::new(&shuffled, m, k, &seed).unwrap();
        prop_assert_eq!(&other, &snapshot);
        prop_assert_eq!(other.packed_bits(), snapshot.packed_bits());
    }

    /// Extending the record set only sets bits.
    #[test]
    fn extension_only_sets_bits(
        (m, k, seed) in params(),
        records in records(),
        more in records(),
    ) {
        let small = DocumentPrefilter::new(&records, m, k, &seed).unwrap();
        let all: Vec<Vec<u8>> = records.iter().chain(&more).cloned().collect();
        let large = DocumentPrefilter::new(&all, m, k, &seed).unwrap();
        for (a, b) in small.packed_bits().iter().zip(large.packed_bits()) {
            prop_assert_eq!(a & b, *a);
        }
        prop_assert!(set_bits(&small).is_subset(&set_bits(&large)));
        prop_assert!(small.bits_set() <= large.bits_set());
        for record in &all {
            prop_assert_eq!(large.lookup(record).unwrap(), DUPLICATE);
        }
    }

    /// Packed bits are ceil(m/8) bytes and never set a bit at or above m;
    /// `bit` is false at and above m.
    #[test]
    fn packed_bits_stay_below_m(
        m in 8u64..=512,
        k in 1u64..=8,
        seed in prop::collection::vec(any::<u8>(), 0..=16),
        count in 0usize..=64,
        fill in any::<u8>(),
    ) {
        // Many distinct long records, so the top bits get set when they can.
        let records: Vec<Vec<u8>> = (0..count).map(|i| vec![fill ^ i as u8; 1 + i % 64]).collect();
        let snapshot = DocumentPrefilter::new(&records, m, k, &seed).unwrap();
        let packed = snapshot.packed_bits();
        prop_assert_eq!(packed.len() as u64, m.div_ceil(8));
        for (index, byte) in packed.iter().enumerate() {
            for bit in 0..8u64 {
                let p = index as u64 * 8 + bit;
                let set = byte >> bit & 1 == 1;
                prop_assert!(!set || p < m, "bit {} set with m = {}", p, m);
                if p < m {
                    prop_assert_eq!(set, snapshot.bit(p as u16));
                }
            }
        }
        for p in m..=1024 {
            prop_assert!(!snapshot.bit(p as u16));
        }
        prop_assert!(!snapshot.bit(u16::MAX));
    }

    /// The record and query contract: at most 64 records, each and every
    /// query at most 64 bytes; errors name the field.
    #[test]
    fn contract_bounds(count in 0usize..=70, len in 0usize..=70, query_len in 0usize..=70, bad in any::<prop::sample::Index>()) {
        let mut records = vec![vec![b'x'; 3]; count];
        let bad_index = if count == 0 { None } else { Some(bad.index(count)) };
        if let Some(index) = bad_index {
            records[index] = vec![b'y'; len];
        }
        let result = DocumentPrefilter::new(&records, 16, 3, b"lab");
        if count > 64 {
            let err = result.unwrap_err();
            prop_assert_eq!((err.kind(), err.field()), (ErrorKind::Value, "records"));
        } else if let (Some(index), true) = (bad_index, len > 64) {
            let err = result.unwrap_err();
            prop_assert_eq!(err.kind(), ErrorKind::Value);
            prop_assert_eq!(err.field(), format!("records[{index}]"));
        } else {
            let snapshot = result.unwrap();
            let query = vec![b'q'; query_len];
            match snapshot.lookup(&query) {
                Ok(_) => prop_assert!(query_len <= 64),
                Err(err) => {
                    prop_assert!(query_len > 64);
                    prop_assert_eq!((err.kind(), err.field()), (ErrorKind::Value, "item"));
                    prop_assert!(snapshot.maybe_present(&query).is_err());
                }
            }
        }
    }
}
