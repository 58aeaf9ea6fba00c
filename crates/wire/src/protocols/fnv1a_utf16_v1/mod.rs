//! `fnv1a-utf16-v1` (the interactive teaching filter): its wire types, one module per file family.
//!
//! * [`spec`]: its cases in `spec/fnv1a-utf16-v1/cases.json`, tagged by shape;
//! * [`adapter`]: its adapter operations and their results (`spec/ADAPTER.md`);
//! * [`vectors`]: the cases of its files under `vectors/fnv1a-utf16-v1/`;
//! * [`session`]: its session model's operations, view and export file (`bloomproof-session`
//!   holds the rules), kept in a module of its own (not re-exported here: its `Op` and
//!   `Text` are the session's, not the adapter's).
//!
//! Their types are re-exported here, in this protocol's own namespace: a path names
//! the protocol a type belongs to. What every protocol shares stays in [`crate::spec`],
//! [`crate::adapter`] and [`crate::vectors`].

pub mod adapter;
pub mod session;
pub mod spec;
pub mod vectors;

pub use adapter::*;
pub use spec::*;
pub use vectors::*;
