//! Each protocol's part of the strict loader: one module per protocol, which checks its
//! file kinds' cases ([`Checked`](crate::load::Checked)), and [`file`], the one place that
//! maps a file kind to its case type. A new protocol version adds a module and its
//! kinds' arms here.

use crate::load::{Checker, RawFile};
use bloomproof_wire::vectors::{FileKind, VectorFile};

mod doc_membership_v1;
mod fnv1a_utf16_v1;

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
