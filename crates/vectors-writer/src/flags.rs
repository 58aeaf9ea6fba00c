//! Every flag a vector may carry, with its description.
//!
//! A file's `flags` table holds exactly the flags its cases and lookups use, with the
//! descriptions below. Flags are derived from the case's content wherever they can
//! be (for example `repeated-position` is set because two positions are equal, never
//! by hand), and by construction for rejections.

/// Every flag and its description, sorted by name.
pub const ALL: &[(&str, &str)] = &[
    (
        "boundary",
        "a hand-picked edge case, not from the sweep: a bound of the protocol (smallest or largest m, k, seed, item, string or record count) or just past it, or a named edge of the contract (a kind of value, a byte pattern, a special string)",
    ),
    (
        "empty-item",
        "the item (or, in a snapshot, some record or query) is empty: 0 bytes",
    ),
    (
        "empty-seed",
        "the seed is empty: 0 bytes, so len(seed) is 00 and no seed bytes follow",
    ),
    (
        "empty-snapshot",
        "the snapshot has no records: every bit is 0 and every lookup is (false, false, false)",
    ),
    (
        "false-positive",
        "a non-member whose k bits are all set: the lookup is (true, true, false); on a case, at least one lookup is one",
    ),
    (
        "lone-surrogate",
        "the code units hold an unpaired surrogate (a high surrogate not followed by a low one, or a low one not preceded by a high one): not valid UTF-16, so `text` is absent; the units are still hashed as they are",
    ),
    (
        "m-not-multiple-of-8",
        "m is not a multiple of 8: the last packed byte has unused high bits, which must be zero",
    ),
    (
        "max-item",
        "the item (or, in a snapshot, some record or query) has the largest allowed length: 64 bytes",
    ),
    (
        "max-k",
        "k is the largest allowed: 8 (doc-membership-v1) or 12 (fnv1a-utf16-v1)",
    ),
    (
        "max-length",
        "the string has the largest allowed length: 256 UTF-16 code units",
    ),
    (
        "max-m",
        "m is the largest allowed: 512 (doc-membership-v1) or 1024 (fnv1a-utf16-v1)",
    ),
    (
        "max-records",
        "the snapshot is built from the largest allowed number of records: 64, counted before de-duplication",
    ),
    (
        "max-seed",
        "the seed has the largest allowed length: 16 bytes",
    ),
    ("max-unit", "the code units include 0xFFFF"),
    (
        "member",
        "the query is one of the records: the lookup is (true, true, true)",
    ),
    ("min-k", "k is the smallest allowed: 1"),
    (
        "min-length",
        "the string has the smallest allowed length: 1 UTF-16 code unit",
    ),
    ("min-m", "m is the smallest allowed: 8"),
    (
        "multiple-faults",
        "more than one input is wrong; the expected error is the first in the source document's check order: the types of m and k, then the bounds of m and k, then the seed's type, then its length, then the records' type, then their count, then each record in order (its type, then its length)",
    ),
    (
        "non-member",
        "the query is none of the records: the lookup is (false, false, false) or, for a false positive, (true, true, false)",
    ),
    (
        "published",
        "a figure published by the source document, or its worked example",
    ),
    (
        "repeated-position",
        "two hash indices give the same position (positions are listed in index order, repeats kept)",
    ),
    (
        "repeated-record",
        "a record occurs more than once in the records given (it is one document; the bound of 64 records counts it every time)",
    ),
    (
        "surrogate-pair",
        "the code units hold a valid surrogate pair (a character outside the Basic Multilingual Plane, such as most emoji, takes two units)",
    ),
    (
        "sweep",
        "from the deterministic pseudo-random sweep (SplitMix64 with a fixed seed per file)",
    ),
    (
        "truncation-trap",
        "an out-of-range integer that an implementation truncating it to 8, 16 or 32 bits (or a length to one byte) would wrongly accept as a valid value",
    ),
    (
        "type-error",
        "the expected error is a type error: a value of the wrong kind (str, bytearray, memoryview, int, bool, float, list or tuple where another kind is wanted)",
    ),
    (
        "value-error",
        "the expected error is a value error: a value of the right kind outside its bounds",
    ),
    (
        "wrap-would-differ",
        "for some i, h1 + i*h2 >= 2^32 and ((h1 + i*h2) mod 2^32) mod m differs from (h1 + i*h2) mod m: an implementation wrapping the sum to 32 bits gets a wrong position",
    ),
    ("zero-unit", "the code units include 0x0000"),
];

/// The description of `flag`, if it is one of [`ALL`].
pub fn description(flag: &str) -> Option<&'static str> {
    ALL.iter()
        .find(|(name, _)| *name == flag)
        .map(|(_, description)| *description)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_unique_and_described() {
        for pair in ALL.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} / {}", pair[0].0, pair[1].0);
        }
        assert!(ALL.iter().all(|(_, description)| !description.is_empty()));
        assert_eq!(description("sweep").map(str::is_empty), Some(false));
        assert_eq!(description("nope"), None);
    }
}
