//! The doc-membership vectors of any version of the family ([`DocVersion`]):
//! positions, snapshots, rejections (a module each), and what they share: the boundary
//! m values, sweep draws, flags of parameters and items, all within the version's
//! bounds. `vectors/` holds `doc-membership-v1`'s ([`DocVersion::V1`]).
//!
//! Values come from `bloomproof-protocol` and `bloomproof-filter` (the version's
//! `DocFamily`); each is compared with `bloomproof-oracle` (its own SHA-256, hex-text
//! framing, digit-by-digit reduction, under the version's domain as the caller writes it
//! in hex) before it is kept.
//!
//! The hand-picked cases (`data/doc-membership-v1.hand-picked.json`) were picked for v1:
//! another version takes their inputs (its values its own), but
//! * a figure the data names by name (`{"published": "<name>"}`) is compared only when
//!   the version's checks file publishes a figure of that name; one it does not publish
//!   is skipped (v1's data naming a figure v1 does not publish is an error);
//! * a hand-picked case outside the version's bounds is left out, as is every fixed
//!   grid case outside them (the sweeps draw within them);
//! * the hand-picked rejections (v1's bound edges, each with the error v1's check
//!   order gives) are taken only by a version with v1's bounds; another has the swept
//!   rejections, built from its own bounds.

mod positions;
mod rejections;
mod snapshots;

use super::{FlagSet, param_flags};
use crate::prng::SplitMix64;
use crate::schemas::{hand_picked_schema, render};
use crate::{Coverage, Protocol, PublishedFigures, finish};
use bloomproof_protocol::doc_membership::{Bounds, DocFamily};
use bloomproof_protocol::doc_membership_v1 as protocol;
use bloomproof_vectors::{DocBounds, FileKind, Version};
use bloomproof_wire::hand_picked::doc::HandPickedFile;
use bloomproof_wire::protocols::doc_membership_v1::{
    DocPositionCase, DocRejectionCase, DocSnapshotCase,
};

/// A version of the doc-membership family as the writer takes it: the production value
/// (its name, domain and bounds), its domain for the oracle, and its checks file, whose
/// published figures the hand-picked data may name.
#[derive(Clone, Copy, Debug)]
pub struct DocVersion<'a> {
    /// The production crates' version: name, domain, bounds.
    pub family: &'static DocFamily,
    /// The domain as hex text, for the oracle: written apart from the production value
    /// (v1's is the oracle's own literal), so that a wrong domain in production is
    /// caught.
    pub domain_hex: &'a str,
    /// The version's `checks.json`: its path relative to the repository root (for
    /// errors) and its text.
    pub checks: (&'a str, &'a str),
}

impl DocVersion<'static> {
    /// `doc-membership-v1`: the files of `vectors/doc-membership-v1/`.
    pub const V1: DocVersion<'static> = DocVersion {
        family: &protocol::FAMILY,
        domain_hex: bloomproof_oracle::doc_membership::DOMAIN_HEX,
        checks: (crate::hand_picked::CHECKS_PATH, crate::hand_picked::CHECKS),
    };
}

/// The vector files of `version` (positions, snapshots, rejections), as (path relative
/// to the repository root, `vectors/<version>/<kind>.json`, contents), each read back by
/// the strict loader under the version's bounds.
///
/// # Errors
///
/// A message naming the file and case when production and the oracle disagree (e.g. a
/// domain in production other than `domain_hex`), when production rejects a valid input
/// or accepts an invalid one, when a figure the data names differs from the version's
/// published one, or when a written file does not load back to the same value.
pub fn doc_files(version: &DocVersion<'_>) -> Result<Vec<(String, String)>, String> {
    let doc = Doc::new(version)?;
    let loaded = doc.loaded();
    Ok(vec![
        finish(loaded, FileKind::DocPositions, doc.positions()?, |_| {
            Vec::new()
        })?,
        finish(loaded, FileKind::DocSnapshots, doc.snapshots()?, |case| {
            case.lookups.iter().map(|l| l.flags.clone()).collect()
        })?,
        finish(loaded, FileKind::DocRejections, doc.rejections()?, |_| {
            Vec::new()
        })?,
    ])
}

/// One version being written: its values and what the files' cases share.
pub(crate) struct Doc<'a> {
    version: &'a DocVersion<'a>,
    bounds: Bounds,
    published: PublishedFigures,
    hand_picked: crate::hand_picked::HandPicked,
}

impl<'a> Doc<'a> {
    fn new(version: &'a DocVersion<'a>) -> Result<Self, String> {
        let (path, text) = version.checks;
        let mut published = PublishedFigures::read(path, text)?;
        if version.family.name() != protocol::NAME {
            published = published.skipping_unpublished();
        }
        Ok(Doc {
            version,
            bounds: *version.family.bounds(),
            published,
            hand_picked: crate::hand_picked::read()?,
        })
    }

    /// The version's name.
    fn name(&self) -> &'static str {
        self.version.family.name()
    }

    /// How the loader reads the version's files: v1's format, the version's bounds.
    fn loaded(&self) -> Version<'static> {
        Version {
            name: self.name(),
            format: protocol::NAME,
            doc_bounds: Some(DocBounds::of(self.version.family)),
        }
    }

    fn io(&self, id: &str, what: impl std::fmt::Display) -> String {
        format!("vectors/{}: case `{id}`: {what}", self.name())
    }

    /// The boundary grids' m values: [`MS`] within the version's bounds, then its
    /// bounds that [`MS`] lacks.
    fn ms(&self) -> Vec<u32> {
        let [low, high] = self.bounds.m;
        let mut ms: Vec<u32> = MS
            .into_iter()
            .filter(|m| (low..=high).contains(m))
            .collect();
        for edge in [low, high] {
            if !ms.contains(&edge) {
                ms.push(edge);
            }
        }
        ms
    }

    /// Whether parameters are within the version's bounds.
    fn params_fit(&self, m: u32, k: u32, seed: &[u8]) -> bool {
        let b = &self.bounds;
        (b.m[0]..=b.m[1]).contains(&m) && (b.k[0]..=b.k[1]).contains(&k) && seed.len() <= b.seed_max
    }

    /// Whether every item is within the version's bound.
    fn items_fit<T: AsRef<[u8]>>(&self, items: &[T]) -> bool {
        items
            .iter()
            .all(|item| item.as_ref().len() <= self.bounds.item_max)
    }

    /// The items of `items` within the version's bound.
    fn fitting(&self, items: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        items
            .into_iter()
            .filter(|item| item.len() <= self.bounds.item_max)
            .collect()
    }

    /// A seed of the version's longest, every byte distinct (16 bytes for v1).
    fn seed_max(&self) -> Vec<u8> {
        let mut seed = seed16();
        seed.truncate(self.bounds.seed_max);
        seed
    }

    /// An item of the version's longest, with varied bytes (64 bytes for v1).
    fn item_max(&self) -> Vec<u8> {
        let mut item = item64();
        item.truncate(self.bounds.item_max);
        item
    }

    fn item_flags(&self, flags: &mut FlagSet, item: &[u8]) {
        flags.set("empty-item", item.is_empty());
        flags.set("max-item", item.len() == self.bounds.item_max);
    }

    fn params_flags(&self, flags: &mut FlagSet, m: u32, k: u32, seed: &[u8]) {
        let b = &self.bounds;
        param_flags(flags, (m, b.m[0], b.m[1]), (k, b.k[0], b.k[1]));
        flags.set("empty-seed", seed.is_empty());
        flags.set("max-seed", seed.len() == b.seed_max);
    }

    fn sweep_m(&self, rng: &mut SplitMix64) -> u32 {
        let [low, high] = self.bounds.m;
        if rng.chance(25) {
            rng.pick(&self.ms()).copied().unwrap_or(low)
        } else {
            rng.range(low.into(), high.into()) as u32
        }
    }

    fn sweep_k(&self, rng: &mut SplitMix64) -> u32 {
        let [low, high] = self.bounds.k;
        rng.range(low.into(), high.into()) as u32
    }
}

/// `doc-membership-v1`'s entry in the writer's registry.
pub(crate) const PROTOCOL: Protocol = Protocol {
    name: protocol::NAME,
    files: || doc_files(&DocVersion::V1),
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
