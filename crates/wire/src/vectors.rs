//! The vector files of `vectors/` (format described in `vectors/README.md`): serde
//! types with unknown fields rejected. `bloomproof-vectors` loads them strictly;
//! `bloomproof-vectors-writer` writes them and their JSON Schemas, written from
//! these types.
//!
//! Every file is one JSON object with the same header (`$schema`, `protocol`, `kind`,
//! `format_version`, `generator`, `case_count`, `flags`) and a `cases` array whose
//! element type depends on the file's protocol and kind (`bloomproof_vectors::FileKind`).
//!
//! Each protocol's own vector cases are defined in its module of [`crate::protocols`]
//! (`protocols/<protocol>/vectors.rs`) and read from there
//! (`bloomproof_wire::protocols::doc_membership_v1::<Type>`): this module holds only
//! what every protocol shares.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The format version of the vector files.
pub const FORMAT_VERSION: u32 = 4;

// ---------------------------------------------------------------------------------
// The file and its header

/// One vector file: the header and the cases.
///
/// The header fields come first in this order in the files written; `cases` is last.
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
    /// What wrote the file: `cargo xtask vectors (bloomproof-vectors-writer <version>)`.
    pub generator: String,
    /// Number of entries in `cases`; a mismatch is a load error.
    pub case_count: usize,
    /// Every flag used in this file (by a case or a lookup), with what it means.
    /// Exactly the flags used: an undeclared or an unused flag is a load error.
    pub flags: BTreeMap<String, String>,
    /// The cases, each with an id unique in the file.
    pub cases: Vec<C>,
}

/// What every case has: an id and flags.
#[allow(missing_docs, reason = "the fields of the same names")]
pub trait CaseHeader {
    fn id(&self) -> &str;
    fn flags(&self) -> &[String];
}

macro_rules! case_header {
    ($($ty:ty),*) => {
        $(impl $crate::vectors::CaseHeader for $ty {
            fn id(&self) -> &str {
                &self.id
            }
            fn flags(&self) -> &[String] {
                &self.flags
            }
        })*
    };
}

pub(crate) use case_header;
