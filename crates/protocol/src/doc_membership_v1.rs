//! `doc-membership-v1`, the first version of the doc-membership family
//! ([`crate::doc_membership`]): its name, its domain and its bounds, as the value
//! [`FAMILY`]. Every function of the family is reachable from here too, so code of this
//! version names one module.
//!
//! The domain is the name and one zero byte (18 bytes); the bounds are m 8..=512,
//! k 1..=8, a seed of at most 16 bytes, records and queries of at most 64 bytes, at
//! most 64 records a snapshot.

pub use crate::doc_membership::{
    BoundError, Bounds, DocFamily, Field, Message, Params, Positions, digest, fast, message,
    position, positions, reduce, sha256,
};

/// Protocol name, as used in spec files, vectors and reports.
pub const NAME: &str = "doc-membership-v1";
/// The domain that starts every message: the protocol name and one zero byte (18
/// bytes).
pub const DOMAIN: &[u8; NAME.len() + 1] = &{
    let mut domain = [0; NAME.len() + 1];
    let mut at = 0;
    while at < NAME.len() {
        domain[at] = NAME.as_bytes()[at];
        at += 1;
    }
    domain
};
/// Smallest allowed number of bits.
pub const M_MIN: u32 = 8;
/// Largest allowed number of bits.
pub const M_MAX: u32 = 512;
/// Smallest allowed number of hash indices.
pub const K_MIN: u32 = 1;
/// Largest allowed number of hash indices.
pub const K_MAX: u32 = 8;
/// Largest allowed seed, in bytes.
pub const SEED_MAX: usize = 16;
/// Largest allowed record or query, in bytes.
pub const ITEM_MAX: usize = 64;
/// Largest allowed number of records given to one snapshot (before de-duplication).
pub const RECORDS_MAX: usize = 64;
/// Longest possible framed message under the bounds above.
pub const MESSAGE_MAX: usize = DOMAIN.len() + 2 + 1 + 1 + SEED_MAX + 1 + 2 + ITEM_MAX;

/// The bounds above, as one value.
pub const BOUNDS: Bounds = Bounds {
    m: [M_MIN, M_MAX],
    k: [K_MIN, K_MAX],
    seed_max: SEED_MAX,
    item_max: ITEM_MAX,
    records_max: RECORDS_MAX,
};

/// `doc-membership-v1` as a version of the family.
pub static FAMILY: DocFamily = DocFamily::new(NAME, DOMAIN, BOUNDS);

impl Params {
    /// `doc-membership-v1`'s parameters ([`FAMILY`]): checks `m` in 8..=512, `k` in
    /// 1..=8 and a seed of at most 16 bytes.
    pub fn new(m: u64, k: u64, seed: &[u8]) -> Result<Self, BoundError> {
        Self::of(&FAMILY, m, k, seed)
    }
}

/// Checks that an item (record or query) is at most 64 bytes.
pub fn check_item(item: &[u8]) -> Result<(), BoundError> {
    FAMILY.check_item(item)
}
