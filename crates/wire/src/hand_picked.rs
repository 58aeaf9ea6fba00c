//! The vector writer's input files: the hand-picked cases of the vector files, which
//! `bloomproof-vectors-writer` expands and verifies against the oracle
//! (`crates/vectors-writer/data/<protocol>.hand-picked.json`). These types only read
//! and write the files; the expansion (shorthands, flags, parameters) is the
//! writer's.

pub mod doc;
pub mod fnv;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A figure a hand-picked case must reproduce: one of the source's published figures,
/// named as in `published_figures` of `spec/<protocol>/checks.json` (the one place a
/// published figure is written: `{"published": "fixture.packed_little_endian_hex"}`),
/// or a value given here, derived by hand rather than published.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Figure<T> {
    /// A published figure, by its name.
    Published(Published),
    /// A value given in the data file.
    Given(T),
}

/// The name of a published figure (`published_figures` of the protocol's `checks.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// The figure's `name`.
    pub published: String,
}
