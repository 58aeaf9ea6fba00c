//! `crates/vectors-writer/data/fnv1a-utf16-v1.hand-picked.json`: the published
//! positions with the figures they must reproduce, the named strings of the boundary
//! grid, and the rejections.
//!
//! A string is a list of [`Piece`]s, concatenated.

use super::Figure;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The whole file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandPickedFile {
    /// The hand-picked position cases, in the order they are written.
    pub positions: Vec<Position>,
    /// Named strings, each run through the boundary grid's (m, k) pairs.
    pub strings: Vec<Named>,
    /// Exactly one of m and k out of range; the writer derives the field and flags.
    pub rejections: Vec<Rejection>,
    /// The file's own description of its format, for its readers.
    pub comment: String,
}

/// A hand-picked position case's inputs and expected figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// The case id.
    pub id: String,
    /// Flags given by hand; the writer adds the ones it derives.
    pub flags: Vec<String>,
    /// Number of bits.
    pub m: u32,
    /// Number of hash indices.
    pub k: u32,
    /// The string.
    pub units: Vec<Piece>,
    /// The figures it must reproduce.
    pub expect: PositionExpect,
}

/// Figures a hand-picked position case must reproduce (each one given is compared),
/// each a published figure by name or a value given by hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "the figures of the same names in the vector files"
)]
pub struct PositionExpect {
    pub positions: Option<Vec<Figure<u16>>>,
    pub h1: Option<Figure<u32>>,
    pub h2: Option<Figure<u32>>,
}

/// A named string of the boundary grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Named {
    /// The name, part of every case id made from it.
    pub name: String,
    /// The string.
    pub units: Vec<Piece>,
}

/// A hand-picked rejection: parameters with exactly one of m and k out of range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rejection {
    /// The case id.
    pub id: String,
    /// The m given.
    pub m: u64,
    /// The k given.
    pub k: u64,
    /// A valid string.
    pub units: Vec<Piece>,
}

/// A piece of a string: `{"text": "a"}` (its UTF-16 code units), `{"units": [55296]}`
/// (code units as they are, lone surrogates included) or
/// `{"repeat": {"times": 255, "of": [...]}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Piece {
    /// Text, as its UTF-16 code units.
    Text(String),
    /// Code units as they are.
    Units(Vec<u16>),
    /// `of`, concatenated, repeated `times` times.
    Repeat {
        /// How many times.
        times: usize,
        /// The pieces repeated.
        of: Vec<Piece>,
    },
}
