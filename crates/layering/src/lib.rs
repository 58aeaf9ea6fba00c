//! No code. `tests/architecture.rs` holds ARCHITECTURE.md to a short map of every
//! crate; `tests/oracle_independence.rs` holds the oracle to no workspace crate and no
//! `sha2` among its dependencies; `tests/circles.rs` holds every crate to no import
//! circle of more than two files; `tests/layers.rs` holds every workspace crate to the layer table of
//! ARCHITECTURE.md (read from `cargo metadata`: no dependency the table does not list,
//! none upward); `tests/subjects.rs` holds the conformance evaluators to their subjects
//! (no production crate named in `crates/conformance/src` but where the table of that
//! test allows it).
