//! No code: `tests/immutability.rs` tries each mutation of a `bloomproof_filter`
//! snapshot under `tests/immutability/` and expects the compiler error beside it. The
//! tests live here rather than in `crates/filter` because trybuild builds its project
//! with every dev-dependency of the crate it runs in, and the filter's include proptest.
