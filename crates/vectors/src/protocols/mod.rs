//! The vector files by protocol: [`FileKind`] and [`VectorFile`], with a variant per
//! protocol and kind of case; each protocol's part of the strict loader, one module per
//! protocol, which checks its file kinds' cases ([`Checked`](crate::load::Checked)); and
//! [`file`], the one place that maps a file kind to its case type. A new protocol
//! version adds a module, its kinds' variants and their arms here.

use crate::load::{Checker, RawFile};
use bloomproof_protocol as protocol;
use bloomproof_wire::protocols::doc_membership_v1::{
    DocPositionCase, DocPositionsFile, DocRejectionCase, DocRejectionsFile, DocSnapshotCase,
    DocSnapshotsFile,
};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{
    FnvPositionCase, FnvPositionsFile, FnvRejectionCase, FnvRejectionsFile,
};
use bloomproof_wire::vectors::VectorFileOf;
use std::collections::BTreeMap;
use std::fmt;

mod doc_membership_v1;
mod fnv1a_utf16_v1;

pub use doc_membership_v1::DocBounds;

/// The bounds a file's per-case checks hold its cases to: its version's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    /// A doc-membership file's (the file's version's; `doc-membership-v1`'s unless
    /// its caller names the version's, [`Version::doc_bounds`]).
    pub(crate) doc: DocBounds,
}

/// A version of a family whose files the loader reads in its family's format, under the
/// version's name (the files' `protocol`), their cases held to the version's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version<'a> {
    /// The version's name: the `protocol` of its files.
    pub name: &'a str,
    /// The built-in protocol whose format (kinds, `$schema`, per-case checks) its files
    /// have, e.g. `doc-membership-v1` for any doc-membership version.
    pub format: &'a str,
    /// For a doc-membership version, its bounds and domain length, which its cases'
    /// checks use; `None` for the format's own (`doc-membership-v1`'s).
    pub doc_bounds: Option<DocBounds>,
}

impl Version<'_> {
    /// The bounds the cases of this version's files are held to.
    pub(crate) fn bounds(&self) -> Bounds {
        Bounds {
            doc: self.doc_bounds.unwrap_or(DocBounds::V1),
        }
    }
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds { doc: DocBounds::V1 }
    }
}

/// The cases of `raw`, parsed and checked as `kind`'s, with `raw`'s header.
pub(crate) fn file(kind: FileKind, checker: &mut Checker<'_>, raw: &RawFile<'_>) -> VectorFile {
    match kind {
        FileKind::DocPositions => VectorFile::DocPositions(checker.file(raw)),
        FileKind::DocSnapshots => VectorFile::DocSnapshots(checker.file(raw)),
        FileKind::DocRejections => VectorFile::DocRejections(checker.file(raw)),
        FileKind::FnvPositions => VectorFile::FnvPositions(checker.file(raw)),
        FileKind::FnvRejections => VectorFile::FnvRejections(checker.file(raw)),
    }
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
    /// Every file kind, in the order files are written and listed.
    pub const ALL: [FileKind; 5] = [
        FileKind::DocPositions,
        FileKind::DocSnapshots,
        FileKind::DocRejections,
        FileKind::FnvPositions,
        FileKind::FnvRejections,
    ];

    /// The `protocol` header value (and folder name): the protocol crate's `NAME`.
    pub fn protocol(self) -> &'static str {
        match self {
            FileKind::DocPositions | FileKind::DocSnapshots | FileKind::DocRejections => {
                protocol::doc_membership_v1::NAME
            }
            FileKind::FnvPositions | FileKind::FnvRejections => protocol::fnv1a_utf16_v1::NAME,
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

    /// The file's `protocol` header: its kind's protocol, or a version read in that
    /// protocol's format (`load_file_in`).
    pub fn protocol(&self) -> &str {
        each_file!(self, file => &file.protocol)
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
