//! `doc-membership-v1` vectors: positions, snapshots, rejections (a module each), and
//! what they share: the boundary m values, sweep draws, flags of parameters and items.
//!
//! Values come from `bloomproof-protocol` and `bloomproof-filter`; each is compared with
//! `bloomproof-oracle` (its own SHA-256, hex-text framing, digit-by-digit reduction)
//! before it is kept.

mod positions;
mod rejections;
mod snapshots;

pub(super) use positions::positions;
pub(super) use rejections::rejections;
pub(super) use snapshots::snapshots;

use super::{FlagSet, param_flags};
use crate::prng::SplitMix64;
use crate::schemas::{hand_picked_schema, render};
use crate::{Coverage, Protocol, finish};
use bloomproof_protocol::doc_membership_v1 as protocol;
use bloomproof_vectors::FileKind;
use bloomproof_wire::hand_picked::doc::HandPickedFile;
use bloomproof_wire::protocols::doc_membership_v1::{
    DocPositionCase, DocRejectionCase, DocSnapshotCase,
};

/// `doc-membership-v1`'s entry in the generator's registry.
pub(crate) const PROTOCOL: Protocol = Protocol {
    name: protocol::NAME,
    files: || {
        Ok(vec![
            finish(FileKind::DocPositions, positions()?, |_| Vec::new())?,
            finish(FileKind::DocSnapshots, snapshots()?, |case| {
                case.lookups.iter().map(|l| l.flags.clone()).collect()
            })?,
            finish(FileKind::DocRejections, rejections()?, |_| Vec::new())?,
        ])
    },
    schemas: || {
        vec![
            (
                FileKind::DocPositions,
                render::<DocPositionCase>(FileKind::DocPositions),
            ),
            (
                FileKind::DocSnapshots,
                render::<DocSnapshotCase>(FileKind::DocSnapshots),
            ),
            (
                FileKind::DocRejections,
                render::<DocRejectionCase>(FileKind::DocRejections),
            ),
        ]
    },
    coverage: &[
        Coverage {
            kind: FileKind::DocPositions,
            flags: &[
                "boundary",
                "sweep",
                "empty-item",
                "max-item",
                "empty-seed",
                "max-seed",
                "min-m",
                "max-m",
                "min-k",
                "max-k",
                "m-not-multiple-of-8",
                "repeated-position",
            ],
            min_cases: 2000,
        },
        Coverage {
            kind: FileKind::DocSnapshots,
            flags: &[
                "repeated-record",
                "non-member",
                "false-positive",
                "member",
                "empty-snapshot",
                "max-records",
                "sweep",
            ],
            min_cases: 300,
        },
        Coverage {
            kind: FileKind::DocRejections,
            flags: &[
                "type-error",
                "value-error",
                "truncation-trap",
                "multiple-faults",
                "sweep",
            ],
            min_cases: 1,
        },
    ],
    hand_picked_schema: || hand_picked_schema::<HandPickedFile>(protocol::NAME, "cases"),
};

/// The m values every boundary grid covers.
const MS: [u32; 14] = [8, 9, 15, 16, 17, 31, 63, 64, 65, 100, 255, 256, 511, 512];
/// Sweep sizes.
const POSITION_SWEEP: usize = 2000;
const SNAPSHOT_SWEEP: usize = 300;
const REJECTION_SWEEP: usize = 300;
/// Fixed PRNG seeds, one per file.
const POSITION_SEED: u64 = 0x646f_632d_706f_7331; // "doc-pos1"
const SNAPSHOT_SEED: u64 = 0x646f_632d_736e_6131; // "doc-sna1"
const REJECTION_SEED: u64 = 0x646f_632d_7265_6a31; // "doc-rej1"

/// A 16-byte seed with every byte distinct.
fn seed16() -> Vec<u8> {
    (0..16u8).map(|i| 0xf0 ^ i.wrapping_mul(7)).collect()
}

/// A 64-byte item with varied bytes.
fn item64() -> Vec<u8> {
    (0..64u8)
        .map(|i| i.wrapping_mul(37).wrapping_add(5))
        .collect()
}

fn io(id: &str, what: impl std::fmt::Display) -> String {
    format!("vectors/{}: case `{id}`: {what}", protocol::NAME)
}

fn item_flags(flags: &mut FlagSet, item: &[u8]) {
    flags.set("empty-item", item.is_empty());
    flags.set("max-item", item.len() == protocol::ITEM_MAX);
}

fn params_flags(flags: &mut FlagSet, m: u32, k: u32, seed: &[u8]) {
    param_flags(
        flags,
        (m, protocol::M_MIN, protocol::M_MAX),
        (k, protocol::K_MIN, protocol::K_MAX),
    );
    flags.set("empty-seed", seed.is_empty());
    flags.set("max-seed", seed.len() == protocol::SEED_MAX);
}

/// A sweep length: the bounds more often than their share, else uniform.
fn sweep_len(rng: &mut SplitMix64, max: usize) -> usize {
    match rng.below(20) {
        0..=2 => 0,
        3..=5 => max,
        _ => rng.range_usize(0, max),
    }
}

/// Sweep bytes: uniform, or from a small alphabet (repeats and structure), or one
/// repeated byte.
fn sweep_bytes(rng: &mut SplitMix64, len: usize) -> Vec<u8> {
    match rng.below(4) {
        0 => {
            let alphabet = [0x00, 0xff, b'a', 0x80];
            (0..len)
                .map(|_| rng.pick(&alphabet).copied().unwrap_or(0))
                .collect()
        }
        1 => vec![rng.next_u64() as u8; len],
        _ => rng.bytes(len),
    }
}

fn sweep_m(rng: &mut SplitMix64) -> u32 {
    if rng.chance(25) {
        rng.pick(&MS).copied().unwrap_or(protocol::M_MIN)
    } else {
        rng.range(protocol::M_MIN.into(), protocol::M_MAX.into()) as u32
    }
}

fn sweep_k(rng: &mut SplitMix64) -> u32 {
    rng.range(protocol::K_MIN.into(), protocol::K_MAX.into()) as u32
}
