//! What the oracle says a doc-membership snapshot holds and answers (under a version's
//! domain): the one place
//! the generated checks and cross-reading (`bloomproof-matrix`) take a snapshot's expected
//! bits and lookups from.

use bloomproof_oracle::doc_membership as oracle;
use bloomproof_wire::protocols::doc_membership_v1::Triple;
use std::collections::{BTreeSet, HashMap};

/// The oracle's view of one snapshot: its occupied positions and the triple of each item.
pub struct OracleSnapshot {
    /// The positions set by the records.
    pub occupied: BTreeSet<u32>,
    /// The packed bits, as hex.
    pub packed_hex: String,
    /// One lookup triple per item, in order.
    pub triples: Vec<Triple>,
    /// The position set of each record, in order.
    pub record_positions: Vec<BTreeSet<u32>>,
}

/// The snapshot of `records` with `(m, k, seed)` and the lookups of `items`, by the oracle.
///
/// Each distinct record or item is hashed by the oracle once: a record repeated, or
/// looked up as an item, reuses its position set (the oracle's `occupied` and
/// `maybe_present` each hash every record and item again; the sets are the same).
pub fn snapshot(
    domain: &str,
    records: &[Vec<u8>],
    m: u32,
    k: u32,
    seed: &[u8],
    items: &[Vec<u8>],
) -> OracleSnapshot {
    let mut known: HashMap<&[u8], BTreeSet<u32>> = HashMap::new();
    let record_positions: Vec<BTreeSet<u32>> = records
        .iter()
        .map(|record| position_set(domain, &mut known, (m, k, seed), record).clone())
        .collect();
    let occupied: BTreeSet<u32> = record_positions.iter().flatten().copied().collect();
    let documents: BTreeSet<&Vec<u8>> = records.iter().collect();
    let triples = items
        .iter()
        .map(|item| {
            let maybe = position_set(domain, &mut known, (m, k, seed), item).is_subset(&occupied);
            Triple {
                maybe_present: maybe,
                exact_checked: maybe,
                duplicate: maybe && documents.contains(item),
            }
        })
        .collect();
    let packed_hex = oracle::packed_hex(&occupied, m);
    OracleSnapshot {
        occupied,
        packed_hex,
        triples,
        record_positions,
    }
}

/// The oracle's position set of `item`, hashed on its first use only.
fn position_set<'a, 'k>(
    domain: &str,
    known: &'k mut HashMap<&'a [u8], BTreeSet<u32>>,
    (m, k, seed): (u32, u32, &[u8]),
    item: &'a [u8],
) -> &'k BTreeSet<u32> {
    known
        .entry(item)
        .or_insert_with(|| oracle::position_set(domain, m, k, seed, item))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The snapshot with each set hashed once equals the oracle's own `occupied` and
    /// `maybe_present`, which hash every record and item afresh: repeats, items that are
    /// records, items that are not, no records, m = 0.
    #[test]
    fn hashing_each_item_once_gives_the_oracles_answers() {
        let domain = oracle::DOMAIN_HEX;
        let records: Vec<Vec<u8>> = [&b"a"[..], b"b", b"a", b"", b"doc-04", b"b"]
            .iter()
            .map(|r| r.to_vec())
            .collect();
        let items: Vec<Vec<u8>> = [&b"a"[..], b"c", b"", b"doc-41", b"b", b"zz"]
            .iter()
            .map(|r| r.to_vec())
            .collect();
        for (m, k, seed) in [
            (16, 3, &b"lab"[..]),
            (8, 1, b""),
            (512, 8, b"seed"),
            (0, 2, b""),
        ] {
            for records in [&records[..], &records[..1], &[]] {
                let got = snapshot(domain, records, m, k, seed, &items);
                let occupied = oracle::occupied(domain, records, m, k, seed);
                assert_eq!(got.occupied, occupied);
                assert_eq!(got.packed_hex, oracle::packed_hex(&occupied, m));
                for (record, set) in records.iter().zip(&got.record_positions) {
                    assert_eq!(*set, oracle::position_set(domain, m, k, seed, record));
                }
                let documents: BTreeSet<&Vec<u8>> = records.iter().collect();
                for (item, triple) in items.iter().zip(&got.triples) {
                    let maybe = oracle::maybe_present(domain, &occupied, m, k, seed, item);
                    assert_eq!(triple.maybe_present, maybe);
                    assert_eq!(triple.exact_checked, maybe);
                    assert_eq!(triple.duplicate, maybe && documents.contains(item));
                }
            }
        }
    }
}
