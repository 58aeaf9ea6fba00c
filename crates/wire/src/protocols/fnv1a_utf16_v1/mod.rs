//! `fnv1a-utf16-v1` (the interactive teaching filter): its wire types, one module per file family.
//!
//! * [`spec`]: its cases in `spec/fnv1a-utf16-v1/cases.json`, tagged by shape;
//! * [`adapter`]: its adapter operations and their results (`spec/ADAPTER.md`);
//! * [`vectors`]: the cases of its files under `vectors/fnv1a-utf16-v1/`.
//!
//! Each is re-exported where every protocol's types are read: [`crate::spec`],
//! [`crate::adapter`] and [`crate::vectors`].

pub mod adapter;
pub mod spec;
pub mod vectors;
