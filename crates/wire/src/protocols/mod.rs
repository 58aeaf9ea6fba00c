//! The protocols' own wire types, one module per protocol (its cases, its adapter
//! messages, its vector files), and the few types that name every protocol: the
//! generators of `generated` cases ([`Generator`]), the vector files ([`FileKind`],
//! [`VectorFile`]) and the adapter schema's list of messages ([`Messages`]).
//!
//! This is the one file of this crate that a new protocol version touches: a `mod`
//! line, a line in each re-export below, and its variants in the enums.

use crate::adapter::*;
use crate::vectors::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

pub mod doc_membership_v1;
pub mod fnv1a_utf16_v1;

/// Every protocol's case types, re-exported by [`crate::spec`].
pub(crate) mod spec {
    pub use super::doc_membership_v1::spec::*;
    pub use super::fnv1a_utf16_v1::spec::*;
}

/// Every protocol's adapter operations and results, re-exported by [`crate::adapter`].
pub(crate) mod adapter {
    pub use super::doc_membership_v1::adapter::*;
    pub use super::fnv1a_utf16_v1::adapter::*;
}

/// Every protocol's vector cases, re-exported by [`crate::vectors`].
pub(crate) mod vectors {
    pub use super::doc_membership_v1::vectors::*;
    pub use super::fnv1a_utf16_v1::vectors::*;
}

/// What a `generated` case draws and compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Generator {
    /// `doc-membership-v1`: one item under random parameters: `positions` and
    /// `frame` of every hash index, compared with the oracle.
    DocHashing,
    /// `doc-membership-v1`: a random record set and items: `build`, `lookup_many`,
    /// `read` of the honest snapshot and of a damaged one, compared with the oracle.
    DocSnapshots,
    /// `fnv1a-utf16-v1`: one string of code units of every class under random m and
    /// k: `positions`, compared with the oracle.
    FnvHashes,
    /// `fnv1a-utf16-v1`: `estimates` at a random (m, k, n), compared with the
    /// oracle's own computation.
    FnvEstimates,
    /// `fnv1a-utf16-v1`: a random session script, every step compared with the
    /// reference session model.
    FnvSessions,
}

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

/// Every message of the protocol, for generating the adapter schema: each property
/// is one message type (the schema's `$defs` hold them all).
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct Messages {
    /// The handshake's request (without `id`).
    start_request: Start,
    /// The handshake's result.
    start: Started,
    /// A `doc-membership-v1` request (without `id` and `protocol`).
    doc_request: DocOp,
    /// A `fnv1a-utf16-v1` request (without `id` and `protocol`).
    fnv_request: FnvOp,
    sha256: DigestResult,
    frame: Framed,
    /// `positions` (`doc-membership-v1`).
    doc_positions: PositionsResult,
    build: Built,
    lookup: Triple,
    /// `lookup_many` and `read`.
    lookup_many: TriplesResult,
    typed: TypedResult,
    mutate: MutateResult,
    /// `positions` (`fnv1a-utf16-v1`).
    fnv_positions: FnvHashes,
    session: ScriptAnswer,
    estimates: EstimatesAnswer,
    /// A whole response line.
    response: Response,
}
