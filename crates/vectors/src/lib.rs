//! # bloomproof-vectors: the strict loader of the test vectors
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
//! The file types are `bloomproof_wire::vectors` (re-exported here as [`model`]), and
//! [`FileKind`] and [`VectorFile`] name each file's protocol and kind.
//! This crate is the strict loader ([`load_file`], [`parse`], [`parse_bytes`]), which
//! refuses any malformed file with a [`VectorError`] naming the file and case, and never
//! panics (it is a fuzz target). The writer, which needs production and the oracle,
//! is the separate crate `bloomproof-vectors-writer`; `vectors/README.md` documents
//! the format for implementers.
//!
//! ```no_run
//! let file = bloomproof_vectors::load_file("vectors/doc-membership-v1/positions.json")?;
//! println!("{} cases", file.case_count());
//! # Ok::<(), bloomproof_vectors::VectorError>(())
//! ```

mod load;
mod protocols;

pub use bloomproof_wire::vectors as model;
pub use load::{
    Problem, VectorError, load_file, load_file_in, parse, parse_bytes, parse_named, parse_named_in,
};
pub use protocols::{DocBounds, FileKind, VectorFile, Version};

#[cfg(test)]
mod tests {
    use super::FileKind;
    use bloomproof_protocol::PROTOCOLS;
    use std::collections::BTreeSet;

    /// Every registered protocol has files, and every file kind names a registered
    /// protocol.
    #[test]
    fn file_kinds_name_the_protocols_as_the_protocol_crate_does() {
        let named: BTreeSet<&str> = FileKind::ALL.iter().map(|kind| kind.protocol()).collect();
        assert_eq!(named, PROTOCOLS.iter().copied().collect::<BTreeSet<_>>());
    }
}
