//! `doc-membership-v1` (the immutable prefilter in front of an exact document set): its wire types, one module per file family.
//!
//! * [`spec`]: its cases in `spec/doc-membership-v1/cases.json`, tagged by shape;
//! * [`adapter`]: its adapter operations and their results (`spec/ADAPTER.md`);
//! * [`vectors`]: the cases of its files under `vectors/doc-membership-v1/`.
//!
//! Their types are re-exported here, in this protocol's own namespace: a path names
//! the protocol a type belongs to. What every protocol shares stays in [`crate::spec`],
//! [`crate::adapter`] and [`crate::vectors`].

pub mod adapter;
pub mod spec;
pub mod vectors;

pub use adapter::*;
pub use spec::*;
pub use vectors::*;
