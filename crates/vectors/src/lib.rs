//! # bloomproof-vectors: generated test vectors for both protocols
//!
//! Vector files let an implementation in any language check itself against
//! `doc-membership-v1` and `fnv1a-utf16-v1` stage by stage, without running Rust:
//!
//! | file | what each case pins |
//! |---|---|
//! | `vectors/doc-membership-v1/positions.json` | framed message, SHA-256 digest and position of every hash index |
//! | `vectors/doc-membership-v1/snapshots.json` | packed bits, bit count, document count and lookup triples of a snapshot |
//! | `vectors/doc-membership-v1/rejections.json` | typed inputs and the expected `type`/`value` error and field |
//! | `vectors/fnv1a-utf16-v1/positions.json` | code units, text, h1, h2 and positions |
//! | `vectors/fnv1a-utf16-v1/rejections.json` | out-of-range m or k and the expected error |
//!
//! This crate holds:
//!
//! * the format ([`model`]), with JSON Schemas generated from it ([`schemas`]);
//! * the strict loader ([`load_file`], [`parse`], [`parse_bytes`]), which refuses any
//!   malformed file with a [`VectorError`] naming the file and case, and never panics;
//! * the generator ([`generate`]): every value computed by the production crates and
//!   checked against the independent oracle (`bloomproof-oracle`) before anything is
//!   returned; rendered files are loaded back and must give the same value;
//! * the freshness check ([`fresh`]) behind `cargo xtask vectors --check`.
//!
//! The generator owns the files: nobody edits them by hand. `vectors/README.md`
//! documents the format for implementers.
//!
//! ```no_run
//! let file = bloomproof_vectors::load_file("vectors/doc-membership-v1/positions.json")?;
//! println!("{} cases", file.case_count());
//! # Ok::<(), bloomproof_vectors::VectorError>(())
//! ```

pub mod flags;
pub mod fresh;
mod generate;
mod load;
pub mod model;
pub mod prng;
pub mod schemas;

pub use generate::{GENERATOR, generate, render};
pub use load::{Problem, VectorError, load_file, parse, parse_bytes, parse_named};
pub use model::{FileKind, VectorFile};
