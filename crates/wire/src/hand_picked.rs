//! The generator's input files: the hand-picked cases of the vector files, which
//! `bloomproof-vectors-generate` expands and verifies against the oracle
//! (`crates/vectors-generate/data/<protocol>.hand-picked.json`). These types only read
//! and write the files; the expansion (shorthands, flags, parameters) is the
//! generator's.

pub mod doc;
pub mod fnv;
