//! `doc-membership-v1`'s files: what the loader checks in each case beyond its types
//! (the protocol's bounds, k hashes and positions, a 32-byte digest, a message as long as
//! its fields, packed bits of `ceil(m/8)` bytes that count `bits_set`, lookup triples
//! that can be, a rejection's field). The bounds and the domain's length are the file's
//! version's ([`DocBounds`]): `doc-membership-v1`'s, or another version's its caller
//! names ([`crate::Version`]).

use crate::load::{Checked, check_reject_expect};
use crate::protocols::Bounds;
use bloomproof_protocol::doc_membership::DocFamily;
use bloomproof_wire::DocParams;
use bloomproof_wire::protocols::doc_membership_v1::{
    DocPositionCase, DocRejectionCase, DocSnapshotCase,
};
use std::collections::BTreeSet;

/// The bounds of one version of the doc-membership family that a file's cases are
/// checked against: the length of the domain that starts every message, and the
/// inclusive bounds of m, k, the seed, an item and the records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocBounds {
    /// The domain's length in bytes (`doc-membership-v1` and a zero byte: 18).
    pub domain_len: usize,
    /// Smallest and largest m.
    pub m: [u32; 2],
    /// Smallest and largest k.
    pub k: [u32; 2],
    /// Longest seed, in bytes.
    pub seed_max: usize,
    /// Longest record or query, in bytes.
    pub item_max: usize,
    /// Most records of one snapshot.
    pub records_max: usize,
}

impl DocBounds {
    /// `doc-membership-v1`'s.
    pub const V1: DocBounds = DocBounds::of(&bloomproof_protocol::doc_membership_v1::FAMILY);

    /// The bounds of the version `family`.
    pub const fn of(family: &DocFamily) -> DocBounds {
        let bounds = family.bounds();
        DocBounds {
            domain_len: family.domain().len(),
            m: bounds.m,
            k: bounds.k,
            seed_max: bounds.seed_max,
            item_max: bounds.item_max,
            records_max: bounds.records_max,
        }
    }
}

impl Checked for DocPositionCase {
    fn problems(&self, bounds: &Bounds) -> Vec<String> {
        check_doc_position(&bounds.doc, self)
    }
}

impl Checked for DocSnapshotCase {
    fn inner_flags(&self) -> Vec<(String, &[String])> {
        self.lookups
            .iter()
            .enumerate()
            .map(|(index, lookup)| (format!("lookups[{index}]: "), lookup.flags.as_slice()))
            .collect()
    }

    fn problems(&self, bounds: &Bounds) -> Vec<String> {
        check_doc_snapshot(&bounds.doc, self)
    }
}

impl Checked for DocRejectionCase {
    fn problems(&self, _: &Bounds) -> Vec<String> {
        check_doc_rejection(self)
    }
}

fn check_doc_params(out: &mut Vec<String>, bounds: &DocBounds, params: &DocParams) {
    let (m, k, seed) = (params.m, params.k, params.seed_hex.bytes());
    let [m_min, m_max] = bounds.m;
    if !(u64::from(m_min)..=u64::from(m_max)).contains(&m) {
        out.push(format!("params.m = {m} is outside {m_min}..={m_max}"));
    }
    let [k_min, k_max] = bounds.k;
    if !(u64::from(k_min)..=u64::from(k_max)).contains(&k) {
        out.push(format!("params.k = {k} is outside {k_min}..={k_max}"));
    }
    if seed.len() > bounds.seed_max {
        out.push(format!(
            "params.seed_hex is {} bytes: at most {} are allowed",
            seed.len(),
            bounds.seed_max
        ));
    }
}

fn check_doc_item(out: &mut Vec<String>, bounds: &DocBounds, place: &str, item: &[u8]) {
    if item.len() > bounds.item_max {
        out.push(format!(
            "{place} is {} bytes: at most {} are allowed",
            item.len(),
            bounds.item_max
        ));
    }
}

fn check_doc_position(bounds: &DocBounds, case: &DocPositionCase) -> Vec<String> {
    let mut out = Vec::new();
    let seed = case.params.seed_hex.bytes();
    let item = case.item_hex.bytes();
    check_doc_params(&mut out, bounds, &case.params);
    check_doc_item(&mut out, bounds, "item_hex", item);
    let k = case.params.k;
    if case.hashes.len() as u64 != k {
        out.push(format!(
            "`hashes` has {} entries but k = {k}",
            case.hashes.len()
        ));
    }
    if case.positions.len() as u64 != k {
        out.push(format!(
            "`positions` has {} entries but k = {k}",
            case.positions.len()
        ));
    }
    let message_len = bounds.domain_len + 2 + 1 + 1 + seed.len() + 1 + 2 + item.len();
    for (index, hash) in case.hashes.iter().enumerate() {
        if usize::from(hash.index) != index {
            out.push(format!(
                "hashes[{index}].index is {} (entry i has index i)",
                hash.index
            ));
        }
        if hash.message_hex.bytes().len() != message_len {
            out.push(format!(
                "hashes[{index}].message_hex is {} bytes; the fields make {message_len}",
                hash.message_hex.bytes().len()
            ));
        }
        if hash.digest_hex.bytes().len() != 32 {
            out.push(format!(
                "hashes[{index}].digest_hex is {} bytes, not 32",
                hash.digest_hex.bytes().len()
            ));
        }
        if u64::from(hash.position) >= case.params.m {
            out.push(format!(
                "hashes[{index}].position {} is not below m = {}",
                hash.position, case.params.m
            ));
        }
        if case.positions.get(index) != Some(&hash.position) {
            out.push(format!(
                "positions[{index}] differs from hashes[{index}].position"
            ));
        }
    }
    out
}

fn check_doc_snapshot(bounds: &DocBounds, case: &DocSnapshotCase) -> Vec<String> {
    let mut out = Vec::new();
    check_doc_params(&mut out, bounds, &case.params);
    if case.records_hex.len() > bounds.records_max {
        out.push(format!(
            "{} records: at most {} are allowed",
            case.records_hex.len(),
            bounds.records_max
        ));
    }
    for (index, record) in case.records_hex.iter().enumerate() {
        check_doc_item(
            &mut out,
            bounds,
            &format!("records_hex[{index}]"),
            record.bytes(),
        );
    }
    let packed = case.packed_hex.bytes();
    let want_len = case.params.m.div_ceil(8);
    if packed.len() as u64 != want_len {
        out.push(format!(
            "packed_hex is {} bytes; m = {} needs ceil(m/8) = {want_len}",
            packed.len(),
            case.params.m
        ));
    }
    let ones: u32 = packed.iter().map(|byte| byte.count_ones()).sum();
    if ones != case.bits_set {
        out.push(format!(
            "bits_set is {} but packed_hex has {ones} bits set",
            case.bits_set
        ));
    }
    let distinct: BTreeSet<&[u8]> = case.records_hex.iter().map(|r| r.bytes()).collect();
    if case.documents != distinct.len() {
        out.push(format!(
            "documents is {} but the records hold {} distinct byte strings",
            case.documents,
            distinct.len()
        ));
    }
    for (index, lookup) in case.lookups.iter().enumerate() {
        check_doc_item(
            &mut out,
            bounds,
            &format!("lookups[{index}].item_hex"),
            lookup.item_hex.bytes(),
        );
        let answer = &lookup.expect;
        if answer.exact_checked != answer.maybe_present {
            out.push(format!(
                "lookups[{index}].expect: exact_checked must equal maybe_present"
            ));
        }
        if answer.duplicate && !answer.maybe_present {
            out.push(format!(
                "lookups[{index}].expect: duplicate is true but maybe_present is false"
            ));
        }
    }
    out
}

fn check_doc_rejection(case: &DocRejectionCase) -> Vec<String> {
    let mut out = Vec::new();
    check_reject_expect(&mut out, &case.expect.field);
    if case.input.item.is_some() && case.expect.field != "item" {
        out.push(format!(
            "`input.item` is given, so the construction succeeds and the error is the lookup's (field `item`), not {:?}",
            case.expect.field
        ));
    }
    out
}
