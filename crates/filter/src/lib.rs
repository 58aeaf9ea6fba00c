//! The immutable doc-membership prefilter: a Bloom filter snapshot in front of an
//! exact document set, for any version of the family (its [`Params`] carry their
//! version, a `bloomproof_protocol::doc_membership::DocFamily`; `doc-membership-v1`
//! unless built with `Params::of`).
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

use bloomproof_protocol::doc_membership::BoundError;
use bloomproof_protocol::doc_membership::fast::{FramedItem, Framing};
pub use bloomproof_protocol::doc_membership_v1::Params;
pub use error::{ContractError, ErrorKind};
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock, PoisonError};

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
///
/// The documents are kept distinct and in byte order, concatenated in one buffer,
/// with a small open-addressing index (one byte per slot, at most 128 slots) keyed by
/// a word of the SHA-256 digest that a lookup has already computed, so a positive
/// lookup confirms a duplicate with one probe and one comparison instead of a search.
#[derive(Clone, Debug)]
pub struct Documents {
    /// Distinct documents in byte order, concatenated.
    bytes: Box<[u8]>,
    /// Where each document ends in `bytes` (at most 64 documents of 64 bytes).
    ends: Box<[u16]>,
    /// Open addressing, linear probing: 0 is an empty slot, otherwise the document's
    /// index plus one. Its length is a power of two, at least twice the documents
    /// (empty without documents).
    slots: Box<[u8]>,
}

impl PartialEq for Documents {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes && self.ends == other.ends
    }
}

impl Eq for Documents {}

impl Hash for Documents {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.bytes.hash(state);
        self.ends.hash(state);
    }
}

impl Documents {
    /// Whether the set holds exactly these bytes.
    pub fn contains(&self, item: &[u8]) -> bool {
        let mut low = 0;
        let mut high = self.len();
        while low < high {
            let middle = low + (high - low) / 2;
            match self.get(middle).map(|document| document.cmp(item)) {
                Some(core::cmp::Ordering::Less) => low = middle + 1,
                Some(core::cmp::Ordering::Greater) => high = middle,
                Some(core::cmp::Ordering::Equal) => return true,
                None => return false,
            }
        }
        false
    }

    /// Number of distinct documents.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The documents in byte order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.len()).filter_map(|index| self.get(index))
    }

    /// Heap bytes the set holds: the documents' bytes, their end offsets (two bytes
    /// each) and the probe index (one byte per slot).
    pub fn heap_bytes(&self) -> usize {
        self.bytes.len() + size_of_val(&*self.ends) + self.slots.len()
    }

    /// Heap bytes of the probe index alone (one byte per slot).
    pub fn index_bytes(&self) -> usize {
        self.slots.len()
    }

    /// Document `index` in byte order.
    #[inline]
    fn get(&self, index: usize) -> Option<&[u8]> {
        let end = usize::from(*self.ends.get(index)?);
        let start = match index.checked_sub(1) {
            Some(before) => usize::from(*self.ends.get(before)?),
            None => 0,
        };
        self.bytes.get(start..end)
    }

    /// Builds the set from distinct, sorted documents and each one's key.
    fn new(sorted: &[&[u8]], keys: &[u32]) -> Self {
        let mut bytes = Vec::with_capacity(sorted.iter().map(|d| d.len()).sum());
        let mut ends = Vec::with_capacity(sorted.len());
        for document in sorted {
            bytes.extend_from_slice(document);
            // At most CEILINGS.records_max (64) documents of CEILINGS.item_max (64) bytes: fits in u16.
            ends.push(bytes.len() as u16);
        }
        let slot_count = if sorted.is_empty() {
            0
        } else {
            (2 * sorted.len()).next_power_of_two()
        };
        let mut slots = vec![0u8; slot_count].into_boxed_slice();
        let mask = slot_count.wrapping_sub(1);
        for (index, &key) in keys.iter().enumerate() {
            let mut slot = key as usize & mask;
            while slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            // At most CEILINGS.records_max (64) documents: index + 1 fits in a byte.
            slots[slot] = (index + 1) as u8;
        }
        Documents {
            bytes: bytes.into_boxed_slice(),
            ends: ends.into_boxed_slice(),
            slots,
        }
    }

    /// Whether the set holds `item`, whose key is `key`: probes the index.
    #[inline]
    fn contains_keyed(&self, item: &[u8], key: u32) -> bool {
        let mask = self.slots.len().wrapping_sub(1);
        let mut slot = key as usize & mask;
        while let Some(&entry) = self.slots.get(slot) {
            let Some(document) = usize::from(entry)
                .checked_sub(1)
                .and_then(|index| self.get(index))
            else {
                return false;
            };
            if document == item {
                return true;
            }
            slot = (slot + 1) & mask;
        }
        false
    }
}

/// The index key of an item: the last word of its index-0 digest.
#[inline(always)]
fn key_of(state: &[u32; 8]) -> u32 {
    state[7]
}

/// Smallest batch that [`DocumentPrefilter::lookup_batch`] spreads over the cores;
/// smaller batches run on the calling thread, where handing work to the pool costs
/// more than it saves. One doubling above the break-even `cargo xtask bench` measured
/// (`batch_parallel_min`, BENCHMARKS.md: all cores faster from 64 queries up, 2.8x
/// slower at 32), so that noise in the break-even does not send a batch to all cores
/// where one is cheaper.
pub const BATCH_PARALLEL_MIN: usize = 128;

/// Queries per task of a parallel batch shared by the caller and `helpers` threads: a
/// thirty-second of each thread's share, from 8 to 256 (beyond that, more tasks only
/// cost more hand-overs).
///
/// The floor of 8 is for small batches: a task of 32 members of the maximum snapshot
/// costs about 17 us (k = 8 two-block digests each), a quarter of a whole 256-query
/// batch, so with tasks that large the thread that takes the last one finishes up to
/// 17 us after the other. Tasks of 8 bound that to about 4 us, for 32 hand-overs of a
/// lock held for a few nanoseconds each (crates/bench/NOTES.md).
fn batch_grain(len: usize, helpers: usize) -> usize {
    (len / (32 * (helpers + 1))).clamp(8, 256)
}

/// Helper threads beside the calling thread on `cores` cores: one fewer.
fn helper_count(cores: usize) -> usize {
    cores.saturating_sub(1)
}

/// A pool of `helpers` threads, `None` for none (or when the system refuses threads:
/// batches then run on the calling thread alone).
fn helper_pool(helpers: usize) -> Option<rayon::ThreadPool> {
    if helpers == 0 {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(helpers)
        .thread_name(|i| format!("bloomproof-batch-{i}"))
        .build()
        .ok()
}

/// The threads that help the calling thread with a parallel batch: one fewer than the
/// cores, started on first use and kept for the process. `None` on one core.
///
/// A pool of its own rather than rayon's global one: the caller works too, so a pool
/// of one thread per core would leave one thread more than there are cores, idle
/// threads spinning beside the working ones.
fn batch_helpers() -> Option<&'static rayon::ThreadPool> {
    static HELPERS: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    HELPERS
        .get_or_init(|| {
            let cores = std::thread::available_parallelism().map_or(1, usize::from);
            helper_pool(helper_count(cores))
        })
        .as_ref()
}

/// Whether a batch of `len` queries runs on `helpers` threads beside the caller.
fn batch_in_parallel(len: usize, helpers: usize) -> bool {
    helpers > 0 && len >= BATCH_PARALLEL_MIN
}

/// An immutable snapshot: parameters, bits and the exact document set.
///
/// The bits are exactly `ceil(m/8)` little-endian bytes (the packed form), so a
/// snapshot holds `ceil(m/8)` bytes plus a fixed header beyond its documents.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DocumentPrefilter {
    params: Params,
    bits: Box<[u8]>,
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

    /// Builds a snapshot from validated parameters (of any version); checks the
    /// record contract against the version's bounds.
    pub fn with_params<R: AsRef<[u8]>>(
        params: Params,
        records: &[R],
    ) -> Result<Self, ContractError> {
        let family = params.family();
        if records.len() > family.bounds().records_max {
            return Err(too_many_records(records.len(), family.bounds().records_max));
        }
        let mut sorted: Vec<&[u8]> = Vec::with_capacity(records.len());
        for (index, record) in records.iter().enumerate() {
            let record = record.as_ref();
            family
                .check_item(record)
                .map_err(|err| record_error(index, &err))?;
            sorted.push(record);
        }
        sorted.sort_unstable();
        sorted.dedup();
        let mut bits = vec![0u8; usize::from(params.m()).div_ceil(8)].into_boxed_slice();
        let mut keys = Vec::with_capacity(sorted.len());
        // The parameters' part of every message laid out once, not once per record.
        let framing = Framing::new(&params);
        for document in &sorted {
            let key = framing
                .with(document, |framed| {
                    let mut set =
                        |position: u16| bits[usize::from(position / 8)] |= 1 << (position % 8);
                    let state = framed.state(0);
                    set(framed.reduce(&state));
                    for index in 1..params.k() {
                        set(framed.position(index));
                    }
                    key_of(&state)
                })
                .map_err(ContractError::from)?;
            keys.push(key);
        }
        Ok(DocumentPrefilter {
            params,
            bits,
            documents: Documents::new(&sorted, &keys),
        })
    }

    /// Reads a snapshot given as its parts (as another implementation wrote it) and
    /// verifies it, so that a damaged snapshot can never answer a false negative.
    ///
    /// The checks run in this order; the first failure decides: the record contract
    /// (as [`with_params`](Self::with_params)); `packed_bits` exactly `ceil(m/8)`
    /// bytes; no bit at or above m; every record, in the order given, has all its k
    /// positions set (else the error names `records[i]`); no bit is set that no
    /// record sets. Each is a value error naming its field.
    pub fn read<R: AsRef<[u8]>>(
        params: Params,
        records: &[R],
        packed_bits: &[u8],
    ) -> Result<Self, ContractError> {
        let built = Self::with_params(params, records)?;
        let bits_error =
            |message: String| ContractError::new(ErrorKind::Value, "packed_bits", message);
        if packed_bits.len() != built.bits.len() {
            return Err(bits_error(format!(
                "{} bytes given: m = {} needs exactly {}",
                packed_bits.len(),
                built.m(),
                built.bits.len()
            )));
        }
        let given = |position: u16| {
            packed_bits
                .get(usize::from(position / 8))
                .is_some_and(|byte| byte & (1 << (position % 8)) != 0)
        };
        let m = built.m();
        let width = u16::try_from(packed_bits.len() * 8).unwrap_or(u16::MAX);
        if let Some(high) = (m..width).find(|&p| given(p)) {
            return Err(bits_error(format!(
                "bit {high} is set: bits stop below m = {m}"
            )));
        }
        let framing = Framing::new(&built.params);
        for (index, record) in records.iter().enumerate() {
            let positions = framing
                .positions(record.as_ref())
                .map_err(|err| record_error(index, &err))?;
            if let Some(&missing) = positions.as_slice().iter().find(|&&p| !given(p)) {
                return Err(ContractError::new(
                    ErrorKind::Value,
                    format!("records[{index}]"),
                    format!("position {missing} of this record is not set in packed_bits"),
                ));
            }
        }
        if let Some(extra) = (0..m).find(|&p| given(p) && !built.bit(p)) {
            return Err(bits_error(format!(
                "bit {extra} is set, but no record sets it"
            )));
        }
        Ok(built)
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
    #[inline]
    pub fn bit(&self, position: u16) -> bool {
        position < self.m()
            && self
                .bits
                .get(usize::from(position / 8))
                .is_some_and(|byte| byte & (1 << (position % 8)) != 0)
    }

    /// Heap bytes the snapshot holds other than its [`Documents`] (their bytes and
    /// their index): the `ceil(m/8)` bytes of bits. With
    /// `size_of::<DocumentPrefilter>() - size_of::<Documents>()`, what a snapshot
    /// costs beyond its document set.
    pub fn heap_bytes_beyond_documents(&self) -> usize {
        self.bits.len()
    }

    /// Number of set bits.
    pub fn bits_set(&self) -> u32 {
        self.bits.iter().map(|byte| byte.count_ones()).sum()
    }

    /// The filter as `ceil(m/8)` little-endian bytes: logical bit `p` is bit `p % 8`
    /// of byte `p / 8`; unused high bits are zero.
    pub fn packed_bits(&self) -> Vec<u8> {
        self.bits.to_vec()
    }

    /// Whether all k bits of `item` are set. Errors only for an item over the version's bound.
    ///
    /// Hashes stop at the first clear bit: a non-member usually costs fewer than k
    /// SHA-256 computations.
    #[inline]
    pub fn maybe_present(&self, item: &[u8]) -> Result<bool, ContractError> {
        self.probe(item).map(|key| key.is_some())
    }

    /// The three-field lookup: the exact set is consulted only after a positive.
    #[inline]
    pub fn lookup(&self, item: &[u8]) -> Result<Lookup, ContractError> {
        let key = self.probe(item)?;
        Ok(Lookup {
            maybe_present: key.is_some(),
            exact_checked: key.is_some(),
            duplicate: key.is_some_and(|key| self.documents.contains_keyed(item, key)),
        })
    }

    /// The item's index key when all k bits are set, `None` at the first clear bit.
    #[inline(always)]
    fn probe(&self, item: &[u8]) -> Result<Option<u32>, ContractError> {
        FramedItem::with(&self.params, item, |framed| {
            let state = framed.state(0);
            if !self.bit_below_m(framed.reduce(&state)) {
                return None;
            }
            for index in 1..self.params.k() {
                if !self.bit_below_m(framed.position(index)) {
                    return None;
                }
            }
            Some(key_of(&state))
        })
        .map_err(query_error)
    }

    /// Bit `position`, which the protocol keeps below m.
    #[inline(always)]
    fn bit_below_m(&self, position: u16) -> bool {
        self.bits
            .get(usize::from(position / 8))
            .is_some_and(|byte| byte & (1 << (position % 8)) != 0)
    }

    /// [`lookup`](Self::lookup) of every item, results in input order.
    ///
    /// A batch of at least [`BATCH_PARALLEL_MIN`] items is spread over all cores
    /// ([`lookup_batch_parallel`](Self::lookup_batch_parallel)); a smaller one runs on
    /// the calling thread ([`lookup_batch_sequential`](Self::lookup_batch_sequential)).
    pub fn lookup_batch(&self, items: &[&[u8]]) -> Vec<Result<Lookup, ContractError>> {
        let helpers = batch_helpers().map_or(0, rayon::ThreadPool::current_num_threads);
        if batch_in_parallel(items.len(), helpers) {
            self.lookup_batch_parallel(items)
        } else {
            self.lookup_batch_sequential(items)
        }
    }

    /// [`lookup`](Self::lookup) of every item on the calling thread, results in input
    /// order.
    pub fn lookup_batch_sequential(&self, items: &[&[u8]]) -> Vec<Result<Lookup, ContractError>> {
        items.iter().map(|item| self.lookup(item)).collect()
    }

    /// [`lookup`](Self::lookup) of every item on all cores, results in input order,
    /// whatever the batch's size: the calling thread and one helper thread per other
    /// core (started once per process, kept between calls) take tasks of 8 to 256
    /// items in turn until none is left.
    ///
    /// Taking tasks in turn keeps the cores finishing together even when the costly
    /// queries (members: k compressions each) sit in one part of the batch and the
    /// cheap ones (most non-members stop at the first clear bit) in another. Each task
    /// writes its results straight into its own part of the output vector.
    pub fn lookup_batch_parallel(&self, items: &[&[u8]]) -> Vec<Result<Lookup, ContractError>> {
        let Some(helpers) = batch_helpers() else {
            return self.lookup_batch_sequential(items);
        };
        let helper_threads = helpers.current_num_threads();
        let grain = batch_grain(items.len(), helper_threads);
        let unset = Lookup {
            maybe_present: false,
            exact_checked: false,
            duplicate: false,
        };
        let mut out = vec![Ok(unset); items.len()];
        let tasks = Mutex::new(items.chunks(grain).zip(out.chunks_mut(grain)));
        let work = || {
            loop {
                let task = tasks.lock().unwrap_or_else(PoisonError::into_inner).next();
                let Some((task, results)) = task else { break };
                for (item, result) in task.iter().zip(results) {
                    *result = self.lookup(item);
                }
            }
        };
        helpers.in_place_scope(|scope| {
            for _ in 0..helper_threads {
                scope.spawn(|_| work());
            }
            work();
        });
        out
    }
}

pub(crate) fn too_many_records(given: usize, max: usize) -> ContractError {
    ContractError::new(
        ErrorKind::Value,
        "records",
        format!("{given} records given: at most {max} are allowed (counted before de-duplication)"),
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
    use bloomproof_protocol::doc_membership as protocol;

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
    fn lookup_agrees_with_the_positions_and_the_exact_set() {
        let universe = universe();
        for (m, k, seed) in [
            (8, 1, &b""[..]),
            (9, 2, b"S"),
            (16, 3, b"lab"),
            (512, 8, b"s"),
        ] {
            for members in [0, 1, 4, 33, 64] {
                let snapshot = DocumentPrefilter::new(&universe[..members], m, k, seed).unwrap();
                assert_eq!(snapshot.documents().len(), members);
                for item in &universe {
                    let positions = protocol::positions(snapshot.params(), item).unwrap();
                    let maybe = positions.as_slice().iter().all(|&p| snapshot.bit(p));
                    let exact = universe[..members].contains(item);
                    assert_eq!(snapshot.documents().contains(item), exact);
                    let want = Lookup {
                        maybe_present: maybe,
                        exact_checked: maybe,
                        duplicate: maybe && exact,
                    };
                    assert_eq!(snapshot.lookup(item).unwrap(), want, "{m} {k} {members}");
                    assert_eq!(snapshot.maybe_present(item).unwrap(), maybe);
                }
            }
        }
    }

    #[test]
    fn documents_are_distinct_sorted_and_order_free() {
        let mut records: Vec<Vec<u8>> = universe()[..8].to_vec();
        records.extend([b"".to_vec(), b"\x00".to_vec(), b"doc-03".to_vec()]);
        let forward = DocumentPrefilter::new(&records, 64, 4, b"x").unwrap();
        records.reverse();
        let backward = DocumentPrefilter::new(&records, 64, 4, b"x").unwrap();
        assert_eq!(forward, backward);
        let listed: Vec<&[u8]> = forward.documents().iter().collect();
        let mut want: Vec<&[u8]> = records.iter().map(Vec::as_slice).collect();
        want.sort_unstable();
        want.dedup();
        assert_eq!(listed, want);
        assert_eq!(forward.documents().index_bytes(), 32);
        assert_eq!(forward.heap_bytes_beyond_documents(), 8);
    }

    #[test]
    fn batches_from_batch_parallel_min_on_two_threads_run_in_parallel() {
        assert!(batch_in_parallel(BATCH_PARALLEL_MIN, 1));
        assert!(batch_in_parallel(BATCH_PARALLEL_MIN + 1, 64));
        assert!(!batch_in_parallel(BATCH_PARALLEL_MIN - 1, 2));
        assert!(!batch_in_parallel(BATCH_PARALLEL_MIN, 0));
        assert_eq!(batch_grain(256, 1), 8);
        assert_eq!(batch_grain(512, 1), 8);
        assert_eq!(batch_grain(1024, 1), 16);
        assert_eq!(batch_grain(4096, 1), 64);
        assert_eq!(batch_grain(16384, 1), 256);
        assert_eq!(batch_grain(65536, 1), 256);
        assert_eq!(batch_grain(8192, 1), 128);
        assert_eq!(batch_grain(8192, 0), 256);
        assert_eq!(batch_grain(8192, 3), 64);
        assert_eq!(batch_grain(1 << 20, 63), 256);
        assert_eq!(batch_grain(100, 0), 8);
        assert_eq!(batch_grain(511, 0), 15);
        assert!(!batch_in_parallel(0, 0));
    }

    #[test]
    fn one_helper_thread_per_core_beside_the_caller() {
        assert_eq!(helper_count(0), 0);
        assert_eq!(helper_count(1), 0);
        assert_eq!(helper_count(2), 1);
        assert_eq!(helper_count(8), 7);
        assert!(helper_pool(0).is_none());
        let threads = |helpers| helper_pool(helpers).map(|pool| pool.current_num_threads());
        assert_eq!(threads(1), Some(1));
        assert_eq!(threads(3), Some(3));
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let helpers = batch_helpers().map_or(0, rayon::ThreadPool::current_num_threads);
        assert_eq!(helpers, helper_count(cores), "{cores} cores");
    }

    #[test]
    fn batch_lookup_keeps_input_order_sequential_or_parallel() {
        let universe = universe();
        let snapshot = DocumentPrefilter::new(&universe[..16], 64, 3, b"lab").unwrap();
        let mut items: Vec<&[u8]> = Vec::new();
        for round in 0..9 {
            items.extend(universe.iter().map(Vec::as_slice));
            if round % 3 == 0 {
                items.push(&[0u8; 65]);
            }
        }
        let one: Vec<_> = items.iter().map(|item| snapshot.lookup(item)).collect();
        assert!(one.iter().any(Result::is_err));
        assert_eq!(snapshot.lookup_batch_parallel(&items), one);
        assert_eq!(snapshot.lookup_batch_sequential(&items), one);
        assert_eq!(snapshot.lookup_batch(&items), one);
        // Long enough for lookup_batch to run it on the pool.
        let long: Vec<&[u8]> = items
            .iter()
            .cycle()
            .take(BATCH_PARALLEL_MIN + 7)
            .copied()
            .collect();
        let want: Vec<_> = long.iter().map(|item| snapshot.lookup(item)).collect();
        assert_eq!(snapshot.lookup_batch(&long), want);
        assert_eq!(snapshot.lookup_batch_parallel(&long), want);
        assert_eq!(snapshot.lookup_batch(&[]), []);
        assert_eq!(snapshot.lookup_batch_parallel(&[]), []);
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
