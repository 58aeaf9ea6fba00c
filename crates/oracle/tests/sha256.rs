//! The oracle's own SHA-256 against published and independently computed
//! digests.

use bloomproof_oracle::sha256::{digest, hex_digest};

// FIPS 180-4 / NIST CSRC "Examples with intermediate values" and the
// long-message example from FIPS 180-2 appendix B.

#[test]
fn nist_empty_message() {
    assert_eq!(
        hex_digest(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}

#[test]
fn nist_abc_one_block() {
    assert_eq!(
        hex_digest(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn nist_448_bit_message_two_blocks() {
    assert_eq!(
        hex_digest(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
}

#[test]
fn nist_one_million_a() {
    let message = vec![b'a'; 1_000_000];
    assert_eq!(
        hex_digest(&message),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    );
}

#[test]
fn digest_and_hex_digest_agree() {
    let raw = digest(b"abc");
    assert_eq!(raw[0], 0xba);
    assert_eq!(raw[31], 0xad);
    assert_eq!(bloomproof_oracle::hex::encode(&raw), hex_digest(b"abc"));
}

/// The bytes `(31*i + 7) mod 256` for `i` in `0..len`.
fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| ((31 * i + 7) % 256) as u8).collect()
}

// Lengths around the padding boundaries: 55 bytes is the longest message
// that pads within one block, 56..=63 need a second block, 64 is exactly one
// block of data, and 119/120 are the same edge one block later.
//
// These expected digests were computed with Python's hashlib
// (Python 3.11.7), e.g.
//   python3 -c "import hashlib; print(hashlib.sha256(b'a'*55).hexdigest())"
//   python3 -c "import hashlib; print(hashlib.sha256(bytes((i*31+7)%256 for i in range(55))).hexdigest())"
const BOUNDARY_A: &[(usize, &str)] = &[
    (
        55,
        "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
    ),
    (
        56,
        "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
    ),
    (
        63,
        "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
    ),
    (
        64,
        "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
    ),
    (
        65,
        "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0",
    ),
    (
        119,
        "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
    ),
    (
        120,
        "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
    ),
    (
        128,
        "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e",
    ),
];

const BOUNDARY_PATTERN: &[(usize, &str)] = &[
    (
        55,
        "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b",
    ),
    (
        56,
        "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63",
    ),
    (
        63,
        "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076",
    ),
    (
        64,
        "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd",
    ),
    (
        65,
        "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0",
    ),
    (
        119,
        "3d610547d68216dedf7435a4fb6260353911f6b3fd3f18805ddb8be285d726fe",
    ),
    (
        120,
        "1f80156a804cb7862ad113e8200e9d74499723e7c7854d5f48776d3148e09656",
    ),
    (
        128,
        "cc548ca2dec1f6fe4f58b2e27aa9c7521607df1130d140b55a4dad0665302356",
    ),
];

#[test]
fn padding_boundaries_repeated_a() {
    for &(len, expected) in BOUNDARY_A {
        assert_eq!(hex_digest(&vec![b'a'; len]), expected, "{len} x 'a'");
    }
}

#[test]
fn padding_boundaries_byte_pattern() {
    for &(len, expected) in BOUNDARY_PATTERN {
        assert_eq!(
            hex_digest(&pattern(len)),
            expected,
            "pattern of {len} bytes"
        );
    }
}
