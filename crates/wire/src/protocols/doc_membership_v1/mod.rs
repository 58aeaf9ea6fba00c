//! `doc-membership-v1` (the immutable prefilter in front of an exact document set): its wire types, one module per file family.
//!
//! * [`spec`]: its cases in `spec/doc-membership-v1/cases.json`, tagged by shape;
//! * [`adapter`]: its adapter operations and their results (`spec/ADAPTER.md`);
//! * [`vectors`]: the cases of its files under `vectors/doc-membership-v1/`.
//!
//! Each is re-exported where every protocol's types are read: [`crate::spec`],
//! [`crate::adapter`] and [`crate::vectors`].

pub mod adapter;
pub mod spec;
pub mod vectors;
