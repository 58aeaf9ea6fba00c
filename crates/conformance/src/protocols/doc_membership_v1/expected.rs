//! What the oracle says a `doc-membership-v1` snapshot holds and answers: the one place
//! the generated checks and cross-reading (`bloomproof-matrix`) take a snapshot's expected
//! bits and lookups from.

use crate::subject::Triple;
use bloomproof_oracle::doc_membership as oracle;
use std::collections::BTreeSet;

/// The oracle's view of one snapshot: its occupied positions and the triple of each item.
pub struct OracleSnapshot {
    /// The positions set by the records.
    pub occupied: BTreeSet<u32>,
    /// The packed bits, as hex.
    pub packed_hex: String,
    /// One lookup triple per item, in order.
    pub triples: Vec<Triple>,
}

/// The snapshot of `records` with `(m, k, seed)` and the lookups of `items`, by the oracle.
pub fn snapshot(
    records: &[Vec<u8>],
    m: u32,
    k: u32,
    seed: &[u8],
    items: &[Vec<u8>],
) -> OracleSnapshot {
    let occupied = oracle::occupied(records, m, k, seed);
    let documents: BTreeSet<&Vec<u8>> = records.iter().collect();
    let triples = items
        .iter()
        .map(|item| {
            let maybe = oracle::maybe_present(&occupied, m, k, seed, item);
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
    }
}
