//! The vector files of `vectors/` (format described in `vectors/README.md`): serde
//! types with unknown fields rejected. `bloomproof-vectors` loads them strictly;
//! `bloomproof-vectors-generate` writes them and their JSON Schemas, generated from
//! these types.
//!
//! Every file is one JSON object with the same header (`$schema`, `protocol`, `kind`,
//! `format_version`, `generator`, `case_count`, `flags`) and a `cases` array whose
//! element type depends on the file's protocol and kind ([`FileKind`]).

use crate::adapter::{Triple, TypedCall};
use crate::{DocParams, Hex, RejectExpect};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The format version of the vector files.
pub const FORMAT_VERSION: u32 = 4;

// ---------------------------------------------------------------------------------
// The file and its header

/// Which file: a protocol and a kind of case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileKind {
    /// `vectors/doc-membership-v1/positions.json`.
    DocPositions,
    /// `vectors/doc-membership-v1/snapshots.json`.
    DocSnapshots,
    /// `vectors/doc-membership-v1/rejections.json`.
    DocRejections,
    /// `vectors/fnv1a-utf16-v1/positions.json`.
    FnvPositions,
    /// `vectors/fnv1a-utf16-v1/rejections.json`.
    FnvRejections,
}

impl FileKind {
    /// Every file kind, in the order files are generated and listed.
    pub const ALL: [FileKind; 5] = [
        FileKind::DocPositions,
        FileKind::DocSnapshots,
        FileKind::DocRejections,
        FileKind::FnvPositions,
        FileKind::FnvRejections,
    ];

    /// The `protocol` header value (and folder name); `bloomproof-vectors` tests that
    /// it is the protocol crate's `NAME`.
    pub fn protocol(self) -> &'static str {
        match self {
            FileKind::DocPositions | FileKind::DocSnapshots | FileKind::DocRejections => {
                "doc-membership-v1"
            }
            FileKind::FnvPositions | FileKind::FnvRejections => "fnv1a-utf16-v1",
        }
    }

    /// The `kind` header value (and file stem): `positions`, `snapshots` or
    /// `rejections`.
    pub fn kind(self) -> &'static str {
        match self {
            FileKind::DocPositions | FileKind::FnvPositions => "positions",
            FileKind::DocSnapshots => "snapshots",
            FileKind::DocRejections | FileKind::FnvRejections => "rejections",
        }
    }

    /// The kind for a `protocol` and `kind` header pair, if there is one.
    pub fn from_header(protocol: &str, kind: &str) -> Option<FileKind> {
        FileKind::ALL
            .into_iter()
            .find(|file| file.protocol() == protocol && file.kind() == kind)
    }

    /// The file's path relative to the repository root, e.g.
    /// `vectors/doc-membership-v1/positions.json`.
    pub fn path(self) -> String {
        format!("vectors/{}/{}.json", self.protocol(), self.kind())
    }

    /// The schema's file name under `vectors/schemas/`, e.g.
    /// `doc-membership-v1.positions.schema.json`.
    pub fn schema_file(self) -> String {
        format!("{}.{}.schema.json", self.protocol(), self.kind())
    }

    /// The `$schema` header value: the schema's path relative to the vector file.
    pub fn schema_ref(self) -> String {
        format!("../schemas/{}", self.schema_file())
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.protocol(), self.kind())
    }
}

/// One vector file: the header and the cases.
///
/// The header fields come first in this order in generated files; `cases` is last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VectorFileOf<C> {
    /// Path of this file's JSON Schema, relative to the file:
    /// `../schemas/<protocol>.<kind>.schema.json`.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// The protocol: `doc-membership-v1` or `fnv1a-utf16-v1`.
    pub protocol: String,
    /// The kind of case: `positions`, `snapshots` or `rejections`.
    pub kind: String,
    /// Vector format version (the schema pins the current one; readers refuse others).
    pub format_version: u32,
    /// What wrote the file: `cargo xtask vectors (bloomproof-vectors-generate <version>)`.
    pub generator: String,
    /// Number of entries in `cases`; a mismatch is a load error.
    pub case_count: usize,
    /// Every flag used in this file (by a case or a lookup), with what it means.
    /// Exactly the flags used: an undeclared or an unused flag is a load error.
    pub flags: BTreeMap<String, String>,
    /// The cases, each with an id unique in the file.
    pub cases: Vec<C>,
}

/// `vectors/doc-membership-v1/positions.json`.
pub type DocPositionsFile = VectorFileOf<DocPositionCase>;
/// `vectors/doc-membership-v1/snapshots.json`.
pub type DocSnapshotsFile = VectorFileOf<DocSnapshotCase>;
/// `vectors/doc-membership-v1/rejections.json`.
pub type DocRejectionsFile = VectorFileOf<DocRejectionCase>;
/// `vectors/fnv1a-utf16-v1/positions.json`.
pub type FnvPositionsFile = VectorFileOf<FnvPositionCase>;
/// `vectors/fnv1a-utf16-v1/rejections.json`.
pub type FnvRejectionsFile = VectorFileOf<FnvRejectionCase>;

/// Any vector file, typed by its kind.
#[derive(Clone, Debug, PartialEq)]
pub enum VectorFile {
    /// `doc-membership-v1` positions: every stage of every hash index.
    DocPositions(DocPositionsFile),
    /// `doc-membership-v1` snapshots: packed bits, document counts, lookups.
    DocSnapshots(DocSnapshotsFile),
    /// `doc-membership-v1` rejections: typed inputs and the expected error.
    DocRejections(DocRejectionsFile),
    /// `fnv1a-utf16-v1` positions: code units, base hashes, positions.
    FnvPositions(FnvPositionsFile),
    /// `fnv1a-utf16-v1` rejections: out-of-range parameters and the expected error.
    FnvRejections(FnvRejectionsFile),
}

macro_rules! each_file {
    ($self:expr, $file:ident => $body:expr) => {
        match $self {
            VectorFile::DocPositions($file) => $body,
            VectorFile::DocSnapshots($file) => $body,
            VectorFile::DocRejections($file) => $body,
            VectorFile::FnvPositions($file) => $body,
            VectorFile::FnvRejections($file) => $body,
        }
    };
}

#[allow(
    missing_docs,
    reason = "accessors named after the file kind and the header fields they read"
)]
impl VectorFile {
    pub fn file_kind(&self) -> FileKind {
        match self {
            VectorFile::DocPositions(_) => FileKind::DocPositions,
            VectorFile::DocSnapshots(_) => FileKind::DocSnapshots,
            VectorFile::DocRejections(_) => FileKind::DocRejections,
            VectorFile::FnvPositions(_) => FileKind::FnvPositions,
            VectorFile::FnvRejections(_) => FileKind::FnvRejections,
        }
    }

    pub fn case_count(&self) -> usize {
        each_file!(self, file => file.cases.len())
    }

    pub fn flags(&self) -> &BTreeMap<String, String> {
        each_file!(self, file => &file.flags)
    }

    pub fn generator(&self) -> &str {
        each_file!(self, file => &file.generator)
    }

    /// The case ids, in file order.
    pub fn ids(&self) -> Vec<&str> {
        each_file!(self, file => file.cases.iter().map(|case| case.id.as_str()).collect())
    }
}

// ---------------------------------------------------------------------------------
// doc-membership-v1

/// One hash index of a `doc-membership-v1` position case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocHash {
    /// The hash index `i`, `0..k`; entry `i` of `hashes` has index `i`.
    pub index: u8,
    /// The framed message: domain, m (2 bytes), k, len(seed), seed, i, len(item)
    /// (2 bytes), item; integers big-endian.
    pub message_hex: Hex,
    /// SHA-256 of the message (32 bytes).
    pub digest_hex: Hex,
    /// The digest read as a big-endian integer, mod m.
    pub position: u16,
}

/// `doc-membership-v1/positions`: one item under one parameter set, every stage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocPositionCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// The parameters: m in 8..=512, k in 1..=8, a seed of 0..=16 bytes.
    pub params: DocParams,
    /// The item, 0..=64 bytes.
    pub item_hex: Hex,
    /// One entry per hash index, in index order (`k` entries).
    pub hashes: Vec<DocHash>,
    /// The `k` positions in index order, repeats kept (equal to `hashes[i].position`).
    pub positions: Vec<u16>,
}

/// One lookup in a snapshot case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocLookup {
    /// The query, 0..=64 bytes.
    pub item_hex: Hex,
    /// Flags from the file's `flags` table: `member` or `non-member`, and
    /// `repeated-record`, `false-positive`, `empty-item`, `max-item` where they apply.
    pub flags: Vec<String>,
    /// The lookup's answer, the adapter protocol's triple: `maybe_present` (all k bits
    /// of the item are set), `exact_checked` (the exact set was consulted: always equal
    /// to `maybe_present`), `duplicate` (the exact set holds these bytes; only ever true
    /// when checked).
    pub expect: Triple,
}

/// `doc-membership-v1/snapshots`: one snapshot built from all its records at once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocSnapshotCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// The parameters: m in 8..=512, k in 1..=8, a seed of 0..=16 bytes.
    pub params: DocParams,
    /// The records in the order given to the constructor (0..=64, repeats allowed).
    pub records_hex: Vec<Hex>,
    /// The filter as `ceil(m/8)` little-endian bytes: bit `p` is bit `p % 8` of byte
    /// `p / 8`; unused high bits zero.
    pub packed_hex: Hex,
    /// Number of set bits.
    pub bits_set: u32,
    /// Number of distinct documents (records after de-duplication by exact bytes).
    pub documents: usize,
    /// Lookups and their three booleans: every distinct record, then non-members.
    pub lookups: Vec<DocLookup>,
}

/// `doc-membership-v1/rejections`: a construction (and, when `input.item` is present,
/// a lookup) with typed values that must be rejected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocRejectionCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// The constructor's arguments as typed values of any kind (a wrong kind or an
    /// out-of-range value is the fault), and when `item` is given, the construction
    /// succeeds and the lookup of `item` is what must be rejected: the adapter
    /// protocol's `typed` call and the spec's `typed_rejection` input.
    pub input: TypedCall,
    /// The expected error.
    pub expect: RejectExpect,
}

// ---------------------------------------------------------------------------------
// fnv1a-utf16-v1

/// `fnv1a-utf16-v1/positions`: one string under one parameter set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvPositionCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// Number of bits, 8..=1024.
    pub m: u32,
    /// Number of hash indices, 1..=12.
    pub k: u32,
    /// The string's UTF-16 code units, 1..=256 of them (what is hashed).
    pub units: Vec<u16>,
    /// The string, present exactly when `units` is valid UTF-16 (no lone surrogate);
    /// its UTF-16 encoding is `units`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// FNV-1a over the units from 2166136261.
    pub h1: u32,
    /// FNV-1a over the units from 0xdeadbeef, forced odd.
    pub h2: u32,
    /// `(h1 + i*h2) mod m` for `i` in `0..k`, the sum exact (no 32-bit wrap).
    pub positions: Vec<u16>,
}

/// `fnv1a-utf16-v1/rejections`: parameters out of range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvRejectionCase {
    /// Stable id, unique in the file: `<group>/<name>`.
    pub id: String,
    /// Flags from the file's `flags` table.
    pub flags: Vec<String>,
    /// The m given (at most 2^53 - 1).
    pub m: u64,
    /// The k given (at most 2^53 - 1).
    pub k: u64,
    /// A valid string's code units.
    pub units: Vec<u16>,
    /// The expected error (always a `value` error).
    pub expect: RejectExpect,
}

/// What every case has: an id and flags.
#[allow(missing_docs, reason = "the fields of the same names")]
pub trait CaseHeader {
    fn id(&self) -> &str;
    fn flags(&self) -> &[String];
}

macro_rules! case_header {
    ($($ty:ty),*) => {
        $(impl CaseHeader for $ty {
            fn id(&self) -> &str {
                &self.id
            }
            fn flags(&self) -> &[String] {
                &self.flags
            }
        })*
    };
}

case_header!(
    DocPositionCase,
    DocSnapshotCase,
    DocRejectionCase,
    FnvPositionCase,
    FnvRejectionCase
);

macro_rules! into_vector_file {
    ($($case:ty => $variant:ident),*) => {
        $(impl From<VectorFileOf<$case>> for VectorFile {
            fn from(file: VectorFileOf<$case>) -> Self {
                VectorFile::$variant(file)
            }
        })*
    };
}

into_vector_file!(
    DocPositionCase => DocPositions,
    DocSnapshotCase => DocSnapshots,
    DocRejectionCase => DocRejections,
    FnvPositionCase => FnvPositions,
    FnvRejectionCase => FnvRejections
);
