//! The immutable `doc-membership-v1` prefilter: a Bloom filter snapshot in front of an
//! exact document set.
//!
//! A [`DocumentPrefilter`] is built once from all its records and never changes
//! afterwards: the public API hands out only copies and shared views. A change of
//! membership means building a new snapshot.
//!
//! ```
//! use bloomproof_filter::DocumentPrefilter;
//!
//! let records: Vec<&[u8]> = vec![b"doc-00", b"doc-01", b"doc-02", b"doc-03"];
//! let snapshot = DocumentPrefilter::new(&records, 16, 3, b"lab").unwrap();
//! assert_eq!(snapshot.packed_bits(), [0xd2, 0x91]);
//! assert!(snapshot.lookup(b"doc-00").unwrap().duplicate);
//! ```
//!
//! The full input contract of the source document, including the *type* errors a
//! dynamic language can produce, is available through [`dynamic`].

pub mod dynamic;
mod error;

pub use bloomproof_protocol::doc_membership_v1::Params;
use bloomproof_protocol::doc_membership_v1::{self as protocol, BoundError, RECORDS_MAX};
pub use error::{ContractError, ErrorKind};
use std::collections::BTreeSet;

/// The three booleans of a lookup.
///
/// Only three combinations occur: `(false, false, false)` (definitely absent),
/// `(true, true, false)` (a false positive, or a distinct document whose bits are
/// all set) and `(true, true, true)` (an exact duplicate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lookup {
    /// All k bits of the item are set.
    pub maybe_present: bool,
    /// The exact set was consulted; equal to `maybe_present`.
    pub exact_checked: bool,
    /// The exact set holds these bytes (only ever true when checked).
    pub duplicate: bool,
}

/// The exact set of documents of a snapshot: a read-only view.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Documents(BTreeSet<Vec<u8>>);

impl Documents {
    /// Whether the set holds exactly these bytes.
    pub fn contains(&self, item: &[u8]) -> bool {
        self.0.contains(item)
    }

    /// Number of distinct documents.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The documents in byte order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.0.iter().map(Vec::as_slice)
    }
}

/// Number of 64-bit words holding the largest filter (512 bits).
const WORDS: usize = (protocol::M_MAX as usize).div_ceil(64);

/// An immutable snapshot: parameters, bits and the exact document set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DocumentPrefilter {
    params: Params,
    bits: [u64; WORDS],
    documents: Documents,
}

impl DocumentPrefilter {
    /// Builds a snapshot from raw parameters, checking the whole contract: `m` in
    /// 8..=512, `k` in 1..=8, a seed of at most 16 bytes, at most 64 records (before
    /// de-duplication), each at most 64 bytes.
    pub fn new<R: AsRef<[u8]>>(
        records: &[R],
        m: u64,
        k: u64,
        seed: &[u8],
    ) -> Result<Self, ContractError> {
        let params = Params::new(m, k, seed).map_err(ContractError::from)?;
        Self::with_params(params, records)
    }

    /// Builds a snapshot from validated parameters; checks the record contract.
    pub fn with_params<R: AsRef<[u8]>>(
        params: Params,
        records: &[R],
    ) -> Result<Self, ContractError> {
        if records.len() > RECORDS_MAX {
            return Err(too_many_records(records.len()));
        }
        let mut documents = BTreeSet::new();
        for (index, record) in records.iter().enumerate() {
            let record = record.as_ref();
            protocol::check_item(record).map_err(|err| record_error(index, &err))?;
            documents.insert(record.to_vec());
        }
        let mut bits = [0u64; WORDS];
        for document in &documents {
            let positions = protocol::positions(&params, document).map_err(ContractError::from)?;
            for &position in positions.as_slice() {
                bits[usize::from(position / 64)] |= 1 << (position % 64);
            }
        }
        Ok(DocumentPrefilter {
            params,
            bits,
            documents: Documents(documents),
        })
    }

    /// The parameters the snapshot was built with.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Number of bits.
    pub fn m(&self) -> u16 {
        self.params.m()
    }

    /// Number of hash indices.
    pub fn k(&self) -> u8 {
        self.params.k()
    }

    /// The seed.
    pub fn seed(&self) -> &[u8] {
        self.params.seed()
    }

    /// The exact document set (read-only).
    pub fn documents(&self) -> &Documents {
        &self.documents
    }

    /// Whether logical bit `position` is set (false at or above m).
    pub fn bit(&self, position: u16) -> bool {
        position < self.m() && self.bits[usize::from(position / 64)] & (1 << (position % 64)) != 0
    }

    /// Number of set bits.
    pub fn bits_set(&self) -> u32 {
        self.bits.iter().map(|word| word.count_ones()).sum()
    }

    /// The filter as `ceil(m/8)` little-endian bytes: logical bit `p` is bit `p % 8`
    /// of byte `p / 8`; unused high bits are zero.
    pub fn packed_bits(&self) -> Vec<u8> {
        let len = usize::from(self.m()).div_ceil(8);
        self.bits
            .iter()
            .flat_map(|word| word.to_le_bytes())
            .take(len)
            .collect()
    }

    /// Whether all k bits of `item` are set. Errors only for an item over 64 bytes.
    pub fn maybe_present(&self, item: &[u8]) -> Result<bool, ContractError> {
        let positions = protocol::positions(&self.params, item).map_err(query_error)?;
        Ok(positions.as_slice().iter().all(|&p| self.bit(p)))
    }

    /// The three-field lookup: the exact set is consulted only after a positive.
    pub fn lookup(&self, item: &[u8]) -> Result<Lookup, ContractError> {
        let maybe_present = self.maybe_present(item)?;
        Ok(Lookup {
            maybe_present,
            exact_checked: maybe_present,
            duplicate: maybe_present && self.documents.contains(item),
        })
    }
}

pub(crate) fn too_many_records(given: usize) -> ContractError {
    ContractError::new(
        ErrorKind::Value,
        "records",
        format!(
            "{given} records given: at most {RECORDS_MAX} are allowed (counted before de-duplication)"
        ),
    )
}

pub(crate) fn record_error(index: usize, err: &BoundError) -> ContractError {
    ContractError::new(
        ErrorKind::Value,
        format!("records[{index}]"),
        format!(
            "record is {} bytes long: must be {}..={} bytes",
            err.given, err.min, err.max
        ),
    )
}

fn query_error(err: BoundError) -> ContractError {
    ContractError::new(
        ErrorKind::Value,
        "item",
        format!(
            "query is {} bytes long: must be {}..={} bytes",
            err.given, err.min, err.max
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn universe() -> Vec<Vec<u8>> {
        (0..64)
            .map(|i| format!("doc-{i:02}").into_bytes())
            .collect()
    }

    #[test]
    fn seed_fixture_figures() {
        let universe = universe();
        let snapshot = DocumentPrefilter::new(&universe[..4], 16, 3, b"lab").unwrap();
        assert_eq!(snapshot.bits_set(), 7);
        assert_eq!(snapshot.packed_bits(), [0xd2, 0x91]);
        let fps: Vec<String> = universe[4..]
            .iter()
            .filter(|x| snapshot.maybe_present(x).unwrap())
            .map(|x| String::from_utf8(x.clone()).unwrap())
            .collect();
        assert_eq!(fps, ["doc-04", "doc-41", "doc-43", "doc-44", "doc-51"]);
    }

    #[test]
    fn packed_bits_never_exceed_m() {
        let records: Vec<Vec<u8>> = (0..64u8).map(|i| vec![i; 64]).collect();
        for m in [8, 9, 15, 31, 63, 65, 511, 512] {
            let snapshot = DocumentPrefilter::new(&records, m, 8, b"s").unwrap();
            let packed = snapshot.packed_bits();
            assert_eq!(packed.len() as u64, m.div_ceil(8));
            let used = m % 8;
            if used != 0 {
                assert_eq!(packed[packed.len() - 1] >> used, 0, "m = {m}");
            }
        }
    }

    #[test]
    fn contract_errors_name_field_and_bound() {
        let err = DocumentPrefilter::new(&[[0u8; 65]], 16, 3, b"").unwrap_err();
        assert_eq!((err.kind(), err.field()), (ErrorKind::Value, "records[0]"));
        assert!(err.to_string().contains("0..=64"), "{err}");
        let too_many = vec![b"a"; 65];
        let err = DocumentPrefilter::new(&too_many, 16, 3, b"").unwrap_err();
        assert_eq!(err.field(), "records");
        let snapshot = DocumentPrefilter::new::<&[u8]>(&[], 16, 3, b"").unwrap();
        let err = snapshot.lookup(&[0; 65]).unwrap_err();
        assert_eq!((err.kind(), err.field()), (ErrorKind::Value, "item"));
    }
}
