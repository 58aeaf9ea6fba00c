//! The `bloomproof` command-line tool's library: the parts of the binary that other
//! crates reuse.
//!
//! * [`adapter`]: the serving side of the adapter protocol (`bloomproof adapter`),
//!   answering requests with the production crates; the fuzz target `adapter_request`
//!   drives [`adapter::parse_request`] and [`adapter::answer`].
//! * [`front`]: `bloomproof conformance`, its flags, printing and exit codes (0 all
//!   passed, 1 a check failed, 2 the spec or the adapter could not be loaded or
//!   started).
//! * [`matrix`]: `bloomproof matrix`, the results matrix of several implementations
//!   side by side, with cross-reading.

/// The serving side of the adapter protocol: `bloomproof_adapter::serve`.
pub use bloomproof_adapter::serve as adapter;
pub mod front;
pub mod matrix;
