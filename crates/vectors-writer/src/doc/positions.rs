//! `<version>/positions`: every stage of every hash index, compared with the oracle.

use super::{Doc, POSITION_SEED, POSITION_SWEEP, sweep_bytes, sweep_len};
use crate::hand_picked;
use crate::prng::SplitMix64;
use crate::{FlagSet, has_repeat};
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_protocol::doc_membership_v1::{self as protocol, Params};
use bloomproof_wire::protocols::doc_membership_v1::{DocHash, DocPositionCase};
use bloomproof_wire::{DocParams, Hex, encode_hex};

impl Doc<'_> {
    /// One position case: production stages, each compared with the oracle.
    fn position_case(
        &self,
        id: String,
        mut flags: FlagSet,
        m: u32,
        k: u32,
        seed: &[u8],
        item: &[u8],
    ) -> Result<DocPositionCase, String> {
        let domain = self.version.domain_hex;
        let params = Params::of(self.version.family, m.into(), k.into(), seed)
            .map_err(|e| self.io(&id, e))?;
        let mut hashes = Vec::new();
        for index in 0..params.k() {
            let message = protocol::message(&params, index, item).map_err(|e| self.io(&id, e))?;
            let digest = protocol::digest(&params, index, item).map_err(|e| self.io(&id, e))?;
            let position = protocol::reduce(&digest, params.m());
            let message_hex = encode_hex(message.as_bytes());
            let oracle_message = oracle::message_hex(domain, m, k, seed, index.into(), item);
            if message_hex != oracle_message {
                return Err(self.io(
                    &id,
                    format!(
                        "hash {index}: message differs: production {message_hex}, oracle {oracle_message}"
                    ),
                ));
            }
            let digest_hex = encode_hex(&digest);
            let oracle_digest = oracle::digest_hex(domain, m, k, seed, index.into(), item);
            if digest_hex != oracle_digest {
                return Err(self.io(
                    &id,
                    format!(
                        "hash {index}: digest differs: production {digest_hex}, oracle {oracle_digest}"
                    ),
                ));
            }
            let oracle_position =
                oracle::reduce_hex(&oracle_digest, m).map_err(|e| self.io(&id, e))?;
            if u32::from(position) != oracle_position {
                return Err(self.io(
                    &id,
                    format!(
                        "hash {index}: position differs: production {position}, oracle {oracle_position}"
                    ),
                ));
            }
            hashes.push(DocHash {
                index,
                message_hex: Hex(message.as_bytes().to_vec()),
                digest_hex: Hex(digest.to_vec()),
                position,
            });
        }
        let positions = protocol::positions(&params, item)
            .map_err(|e| self.io(&id, e))?
            .as_slice()
            .to_vec();
        let staged: Vec<u16> = hashes.iter().map(|h| h.position).collect();
        let oracle_positions = oracle::positions(domain, m, k, seed, item);
        let widened: Vec<u32> = positions.iter().map(|&p| u32::from(p)).collect();
        if positions != staged || widened != oracle_positions {
            return Err(self.io(
                &id,
                format!(
                    "positions differ: production {positions:?}, per hash {staged:?}, oracle {oracle_positions:?}"
                ),
            ));
        }
        self.params_flags(&mut flags, m, k, seed);
        self.item_flags(&mut flags, item);
        flags.set("repeated-position", has_repeat(&positions));
        Ok(DocPositionCase {
            id,
            flags: flags.into_vec(),
            params: DocParams {
                m: m.into(),
                k: k.into(),
                seed_hex: Hex(seed.to_vec()),
            },
            item_hex: Hex(item.to_vec()),
            hashes,
            positions,
        })
    }

    /// [`Doc::position_case`] pushed onto `cases` when its inputs are within the version's
    /// bounds (a fixed case outside them is left out).
    #[allow(
        clippy::too_many_arguments,
        reason = "a case's inputs, as position_case takes them"
    )]
    fn push_position(
        &self,
        cases: &mut Vec<DocPositionCase>,
        id: String,
        flags: FlagSet,
        m: u32,
        k: u32,
        seed: &[u8],
        item: &[u8],
    ) -> Result<(), String> {
        if self.params_fit(m, k, seed) && self.items_fit(&[item]) {
            cases.push(self.position_case(id, flags, m, k, seed, item)?);
        }
        Ok(())
    }

    /// Every position case: the hand-picked ones (published examples), boundary grids,
    /// then the sweep.
    pub(crate) fn positions(&self) -> Result<Vec<DocPositionCase>, String> {
        let mut cases = Vec::new();
        for case in &self.hand_picked.positions {
            let hand_picked::Params { m, k, seed } = &case.params;
            let flags = FlagSet::given(&case.flags).map_err(|err| self.io(&case.id, err))?;
            self.push_position(&mut cases, case.id.clone(), flags, *m, *k, seed, &case.item)?;
        }
        let boundary = ["boundary"];
        let [k_min, k_max] = self.bounds.k;
        for m in self.ms() {
            for k in [k_min, k_max] {
                for seed in [Vec::new(), self.seed_max()] {
                    for item in [Vec::new(), self.item_max()] {
                        self.push_position(
                            &mut cases,
                            format!("boundary/m{m}-k{k}-seed{}-item{}", seed.len(), item.len()),
                            FlagSet::new(&boundary),
                            m,
                            k,
                            &seed,
                            &item,
                        )?;
                    }
                }
            }
        }
        for m in [8, 9, 512] {
            for k in 2..k_max {
                self.push_position(
                    &mut cases,
                    format!("boundary/m{m}-k{k}-seed-lab-doc-00"),
                    FlagSet::new(&boundary),
                    m,
                    k,
                    b"lab",
                    b"doc-00",
                )?;
            }
        }
        let seeds: [(&str, Vec<u8>); 3] = [
            ("seed00x16", vec![0x00; 16]),
            ("seedffx16", vec![0xff; 16]),
            ("seed00", vec![0x00]),
        ];
        let items: [(&str, Vec<u8>); 10] = [
            ("item00", vec![0x00]),
            ("itemff", vec![0xff]),
            ("item80", vec![0x80]),
            ("item0000", vec![0x00, 0x00]),
            ("item00x64", vec![0x00; 64]),
            ("itemffx64", vec![0xff; 64]),
            ("item-abc", b"abc".to_vec()),
            ("item-e-acute-composed", "\u{e9}".as_bytes().to_vec()),
            ("item-e-acute-decomposed", "e\u{301}".as_bytes().to_vec()),
            ("item-nul-a", b"\x00a".to_vec()),
        ];
        for (seed_name, seed) in &seeds {
            for (item_name, item) in &items {
                self.push_position(
                    &mut cases,
                    format!("boundary/bytes-{seed_name}-{item_name}"),
                    FlagSet::new(&boundary),
                    255,
                    8,
                    seed,
                    item,
                )?;
            }
        }
        for seed_len in [1usize, 15] {
            for item_len in [1usize, 2, 15, 16, 17, 31, 32, 33, 63] {
                let seed: Vec<u8> = (0..seed_len)
                    .map(|i| (i as u8).wrapping_add(0x30))
                    .collect();
                let item: Vec<u8> = (0..item_len).map(|i| (i as u8).wrapping_mul(11)).collect();
                self.push_position(
                    &mut cases,
                    format!("boundary/lengths-seed{seed_len}-item{item_len}"),
                    FlagSet::new(&boundary),
                    100,
                    4,
                    &seed,
                    &item,
                )?;
            }
        }
        let mut rng = SplitMix64::new(POSITION_SEED);
        for n in 0..POSITION_SWEEP {
            let m = self.sweep_m(&mut rng);
            let k = self.sweep_k(&mut rng);
            let seed_len = sweep_len(&mut rng, self.bounds.seed_max);
            let seed = sweep_bytes(&mut rng, seed_len);
            let item_len = sweep_len(&mut rng, self.bounds.item_max);
            let item = sweep_bytes(&mut rng, item_len);
            self.push_position(
                &mut cases,
                format!("sweep/{n:04}"),
                FlagSet::new(&["sweep"]),
                m,
                k,
                &seed,
                &item,
            )?;
        }
        Ok(cases)
    }
}
