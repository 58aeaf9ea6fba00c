//! `<version>/snapshots`: snapshots and lookups, compared with the oracle.

use super::{Doc, SNAPSHOT_SEED, SNAPSHOT_SWEEP, sweep_bytes, sweep_len};
use crate::prng::SplitMix64;
use crate::{Figures, FlagSet, hand_picked};
use bloomproof_filter::DocumentPrefilter;
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_protocol::doc_membership_v1::Params;
use bloomproof_wire::protocols::doc_membership_v1::Triple;
use bloomproof_wire::protocols::doc_membership_v1::{DocLookup, DocSnapshotCase};
use bloomproof_wire::{DocParams, Hex, encode_hex};
use std::collections::BTreeSet;

impl Doc<'_> {
    /// One snapshot case: production snapshot and lookups, each compared with the oracle.
    /// Lookups: every distinct record (first-occurrence order), then `queries` that are
    /// not already listed.
    #[allow(clippy::too_many_arguments, reason = "a case's inputs")]
    fn snapshot_case(
        &self,
        id: String,
        mut case_flags: FlagSet,
        m: u32,
        k: u32,
        seed: &[u8],
        records: &[Vec<u8>],
        queries: &[Vec<u8>],
    ) -> Result<DocSnapshotCase, String> {
        let domain = self.version.domain_hex;
        let params = Params::of(self.version.family, m.into(), k.into(), seed)
            .map_err(|e| self.io(&id, e))?;
        let snapshot =
            DocumentPrefilter::with_params(params, records).map_err(|e| self.io(&id, e))?;
        let packed = snapshot.packed_bits();
        let occupied = oracle::occupied(domain, records, m, k, seed);
        let oracle_packed = oracle::packed_hex(&occupied, m);
        if encode_hex(&packed) != oracle_packed {
            return Err(self.io(
                &id,
                format!(
                    "packed bits differ: production {}, oracle {oracle_packed}",
                    encode_hex(&packed)
                ),
            ));
        }
        if snapshot.bits_set() as usize != occupied.len() {
            return Err(self.io(
                &id,
                format!(
                    "bits set differ: production {}, oracle {}",
                    snapshot.bits_set(),
                    occupied.len()
                ),
            ));
        }
        // The exact set, computed here independently of the filter crate.
        let distinct: BTreeSet<&[u8]> = records.iter().map(Vec::as_slice).collect();
        let production: BTreeSet<&[u8]> = snapshot.documents().iter().collect();
        if production != distinct {
            return Err(self.io(&id, "the document set differs from the distinct records"));
        }
        let mut listed: Vec<&[u8]> = Vec::new();
        for item in records.iter().chain(queries) {
            if !listed.contains(&item.as_slice()) {
                listed.push(item);
            }
        }
        self.params_flags(&mut case_flags, m, k, seed);
        case_flags.set("empty-snapshot", records.is_empty());
        case_flags.set("max-records", records.len() == self.bounds.records_max);
        let mut lookups = Vec::new();
        for item in listed {
            let got = snapshot.lookup(item).map_err(|e| self.io(&id, e))?;
            let maybe = oracle::maybe_present(domain, &occupied, m, k, seed, item);
            let member = distinct.contains(item);
            let want = (maybe, maybe, maybe && member);
            if (got.maybe_present, got.exact_checked, got.duplicate) != want {
                return Err(self.io(
                    &id,
                    format!(
                        "lookup of {} differs: production {got:?}, oracle {want:?}",
                        encode_hex(item)
                    ),
                ));
            }
            let mut flags = FlagSet::default();
            flags.set("member", member);
            flags.set("non-member", !member);
            flags.set(
                "repeated-record",
                records.iter().filter(|r| r.as_slice() == item).count() > 1,
            );
            flags.set("false-positive", !member && maybe);
            self.item_flags(&mut flags, item);
            let flags = flags.into_vec();
            case_flags.extend(&flags)?;
            lookups.push(DocLookup {
                item_hex: Hex(item.to_vec()),
                flags,
                expect: Triple {
                    maybe_present: got.maybe_present,
                    exact_checked: got.exact_checked,
                    duplicate: got.duplicate,
                },
            });
        }
        for record in records {
            self.item_flags(&mut case_flags, record);
        }
        Ok(DocSnapshotCase {
            id,
            flags: case_flags.into_vec(),
            params: DocParams {
                m: m.into(),
                k: k.into(),
                seed_hex: Hex(seed.to_vec()),
            },
            records_hex: records.iter().map(|r| Hex(r.clone())).collect(),
            packed_hex: Hex(packed),
            bits_set: snapshot.bits_set(),
            documents: snapshot.documents().len(),
            lookups,
        })
    }

    /// `snapshot_case` pushed onto `cases` when its inputs are within the version's bounds
    /// (a fixed case outside them is left out); the case, if kept.
    #[allow(
        clippy::too_many_arguments,
        reason = "a case's inputs, as snapshot_case takes them"
    )]
    fn push_snapshot<'c>(
        &self,
        cases: &'c mut Vec<DocSnapshotCase>,
        id: String,
        flags: FlagSet,
        m: u32,
        k: u32,
        seed: &[u8],
        records: &[Vec<u8>],
        queries: &[Vec<u8>],
    ) -> Result<Option<&'c DocSnapshotCase>, String> {
        let fits = self.params_fit(m, k, seed)
            && records.len() <= self.bounds.records_max
            && self.items_fit(records)
            && self.items_fit(queries);
        if !fits {
            return Ok(None);
        }
        cases.push(self.snapshot_case(id, flags, m, k, seed, records, queries)?);
        Ok(cases.last())
    }

    /// Checks the figures a hand-picked snapshot states (`expect` in the data file): each
    /// given one, and each named one the version publishes.
    fn reproduces(
        &self,
        case: &DocSnapshotCase,
        expect: &bloomproof_wire::hand_picked::doc::SnapshotExpect,
    ) -> Result<(), String> {
        let false_positives = case
            .lookups
            .iter()
            .filter(|lookup| lookup.flags.iter().any(|flag| flag == "false-positive"))
            .count();
        let published = &self.published;
        let mut figures = Figures::default();
        figures.compare_figure(
            "packed_hex",
            published,
            expect.packed_hex.as_ref(),
            &case.packed_hex,
        );
        figures.compare_figure(
            "bits_set",
            published,
            expect.bits_set.as_ref(),
            &case.bits_set,
        );
        figures.compare_figure(
            "documents",
            published,
            expect.documents.as_ref(),
            &case.documents,
        );
        figures.compare_figure(
            "false positives",
            published,
            expect.false_positives.as_ref(),
            &false_positives,
        );
        figures
            .verdict(hand_picked::PATH)
            .map_err(|err| self.io(&case.id, err))
    }

    /// Every snapshot case: the hand-picked ones, boundary grids, then the sweep.
    pub(crate) fn snapshots(&self) -> Result<Vec<DocSnapshotCase>, String> {
        let mut cases = Vec::new();
        for case in &self.hand_picked.snapshots {
            let hand_picked::Params { m, k, seed } = &case.params;
            let flags = FlagSet::given(&case.flags).map_err(|err| self.io(&case.id, err))?;
            let id = case.id.clone();
            let (records, queries) = (&case.records, &case.queries);
            if let Some(built) =
                self.push_snapshot(&mut cases, id, flags, *m, *k, seed, records, queries)?
            {
                self.reproduces(built, &case.expect)?;
            }
        }
        let boundary = ["boundary"];
        let item_max = self.item_max();
        let grid_records = self.fitting(vec![
            Vec::new(),
            item_max.clone(),
            b"a".to_vec(),
            vec![0x00],
            vec![0xff; 64],
        ]);
        let grid_queries = self.fitting(vec![
            b"b".to_vec(),
            vec![0x00, 0x00],
            vec![0xff; 63],
            b"A".to_vec(),
            vec![b'a'; 64],
            item_max[..item_max.len().saturating_sub(1)].to_vec(),
        ]);
        let [k_min, k_max] = self.bounds.k;
        for (n, m) in self.ms().into_iter().enumerate() {
            for k in [k_min, k_max] {
                let seed = if n % 2 == 0 {
                    Vec::new()
                } else {
                    self.seed_max()
                };
                self.push_snapshot(
                    &mut cases,
                    format!("boundary/m{m}-k{k}-seed{}", seed.len()),
                    FlagSet::new(&boundary),
                    m,
                    k,
                    &seed,
                    &grid_records,
                    &grid_queries,
                )?;
            }
        }
        self.push_snapshot(
            &mut cases,
            "boundary/one-record-64-times-m64-k3".into(),
            FlagSet::new(&boundary),
            64,
            3,
            b"dup",
            &vec![b"dup".to_vec(); 64],
            &texts(&["dupe", "du", "DUP"]),
        )?;
        let saturating: Vec<Vec<u8>> = (0..64).map(|i| format!("r{i}").into_bytes()).collect();
        self.push_snapshot(
            &mut cases,
            "boundary/saturated-m8-k8".into(),
            FlagSet::new(&boundary),
            8,
            8,
            b"",
            &saturating,
            &texts(&["r64", "x", ""]),
        )?;
        let mut rng = SplitMix64::new(SNAPSHOT_SEED);
        for n in 0..SNAPSHOT_SWEEP {
            let m = self.sweep_m(&mut rng);
            let k = self.sweep_k(&mut rng);
            let seed_len = sweep_len(&mut rng, self.bounds.seed_max);
            let seed = sweep_bytes(&mut rng, seed_len);
            let most = self.bounds.records_max;
            let count = match rng.below(10) {
                0..=4 => rng.range_usize(0, 8.min(most)),
                5..=7 => rng.range_usize(9.min(most), 32.min(most)),
                _ => rng.range_usize(33.min(most), most),
            };
            let mut records: Vec<Vec<u8>> = Vec::with_capacity(count);
            for _ in 0..count {
                if !records.is_empty() && rng.chance(15) {
                    let again = rng.pick(&records).cloned().unwrap_or_default();
                    records.push(again);
                } else {
                    records.push(self.snapshot_item(&mut rng));
                }
            }
            let mut queries: Vec<Vec<u8>> = (0..4).map(|_| self.snapshot_item(&mut rng)).collect();
            for _ in 0..2 {
                if let Some(member) = rng.pick(&records).cloned() {
                    queries.push(self.mutate(&mut rng, member));
                }
            }
            self.push_snapshot(
                &mut cases,
                format!("sweep/{n:04}"),
                FlagSet::new(&["sweep"]),
                m,
                k,
                &seed,
                &records,
                &queries,
            )?;
        }
        Ok(cases)
    }

    /// A record or query for the snapshot sweep: mostly short, sometimes up to the
    /// version's longest (64 bytes for v1).
    fn snapshot_item(&self, rng: &mut SplitMix64) -> Vec<u8> {
        let most = self.bounds.item_max;
        let len = match rng.below(10) {
            0..=4 => rng.range_usize(0, 6.min(most)),
            5..=8 => rng.range_usize(0, 32.min(most)),
            _ => rng.range_usize(33.min(most), most),
        };
        sweep_bytes(rng, len)
    }

    /// A near miss of a member: one bit flipped, one byte dropped or one byte added.
    fn mutate(&self, rng: &mut SplitMix64, mut item: Vec<u8>) -> Vec<u8> {
        match (rng.below(3), item.is_empty()) {
            (0, false) => {
                let at = rng.range_usize(0, item.len() - 1);
                item[at] ^= 1 << rng.below(8);
            }
            (1, false) => {
                item.pop();
            }
            _ if item.len() < self.bounds.item_max => item.push(rng.next_u64() as u8),
            _ => item[0] ^= 0x01,
        }
        item
    }
}

fn texts(items: &[&str]) -> Vec<Vec<u8>> {
    items.iter().map(|s| s.as_bytes().to_vec()).collect()
}
