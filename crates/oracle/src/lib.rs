//! # bloomproof-oracle: the independent reference
//!
//! This crate recomputes both Bloom-filter protocols of bloomproof
//! (`doc-membership-v1` and `fnv1a-utf16-v1`, see the two `spec/*/PROTOCOL.md`) from their
//! definitions, so that the production crates can be checked against
//! something that does not share their mistakes.
//!
//! It is deliberately independent of production:
//!
//! * it depends on **no other crate at all** (in particular on no
//!   `bloomproof-*` crate and not on `sha2`); a test runs `cargo metadata`
//!   and fails if a workspace crate ever becomes a dependency, directly or
//!   transitively;
//! * it has its own SHA-256 ([`sha256`]), written from FIPS 180-4: constants,
//!   padding, message schedule and compression, plain and unoptimised;
//! * for the doc-membership family ([`doc_membership`]) it builds each hash message
//!   as **hex text** from the version's domain given as hex text (v1's a fixed
//!   literal, [`doc_membership::DOMAIN_HEX`]) and fixed-width hex fields,
//!   decodes it with its own hex decoder ([`hex`]), and reduces the hex digest
//!   modulo `m` **one hex digit at a time** (`r = (16*r + digit) mod m`)
//!   instead of interpreting the digest as a big integer;
//! * for `fnv1a-utf16-v1` ([`fnv1a_utf16`]) it computes UTF-16 code units
//!   from code points itself, runs FNV in wide arithmetic, and reduces the
//!   exact sum `h1 + i*h2` written as a **decimal digit string** one digit at
//!   a time (`r = (10*r + digit) mod m`); its false-positive estimates
//!   ([`estimates`]) follow the distribution of the *clear* bits, throw by throw;
//! * the input contract of `doc-membership-v1` ([`contract`]) is a list of Python
//!   type and bound tests in the source's order, written from the contract table.
//!
//! The code favours being obviously correct over being fast. No function
//! panics on any input: text inputs are validated and rejected with a
//! [`hex::HexError`] naming what was wrong, and parameters outside a
//! protocol's bounds give documented (if meaningless) results.

pub mod contract;
pub mod doc_membership;
pub mod estimates;
pub mod fnv1a_utf16;
pub mod hex;
pub mod sha256;

pub use hex::HexError;
