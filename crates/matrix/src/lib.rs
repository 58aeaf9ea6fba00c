//! The results matrix: the conformance suite against every implementation of a list,
//! in parallel, then cross-reading among them ([`cross`]), each
//! implementation judged against its expected failures ([`judge()`]); written as a page
//! (`index.html`, and `failures.html`, the failures alone), `matrix.json`, `summary.md`
//! and one badge per implementation ([`page`]).
//!
//! `bloomproof matrix` runs it from any folder with the spec built into the binary;
//! `cargo xtask matrix` runs it with this repository's implementations
//! (`implementations/matrix.json`) and tests the page in Chromium.
//!
//! The matrix fails (and names implementation, check and case) on an unexpected
//! failure, a stale expected failure, an implementation that cannot be run, or a
//! cross-reading cell that differs.

pub mod cross;
pub mod judge;
pub mod page;
pub mod run;

pub use bloomproof_wire::matrix::{
    Cell, ExpectedFailure, Implementation, ImplementationResult, Implementations, Matrix,
    MatrixCheck, Status,
};
pub use judge::judge;
pub use run::{Options, compute};
