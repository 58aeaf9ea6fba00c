//! The oracle's own hex helpers.

use bloomproof_oracle::hex::{HexError, decode, encode};

#[test]
fn encode_is_lowercase_two_digits_per_byte() {
    assert_eq!(encode(b""), "");
    assert_eq!(encode(&[0x00, 0x0f, 0xa0, 0xff, 0x41]), "000fa0ff41");
}

#[test]
fn decode_round_trips_every_byte() {
    let all: Vec<u8> = (0..=255).collect();
    let text = encode(&all);
    assert_eq!(text.len(), 512);
    assert_eq!(decode(&text), Ok(all.clone()));
    assert_eq!(decode(&text.to_uppercase()), Ok(all));
    assert_eq!(decode(""), Ok(Vec::new()));
}

#[test]
fn decode_rejects_odd_length() {
    let err = decode("abc").unwrap_err();
    assert_eq!(err, HexError::OddLength { digits: 3 });
    assert_eq!(err.to_string(), "odd number of hex digits (3)");
}

#[test]
fn decode_rejects_invalid_digit_naming_it_and_its_offset() {
    let err = decode("0123g5").unwrap_err();
    assert_eq!(
        err,
        HexError::InvalidDigit {
            found: 'g',
            offset: 4
        }
    );
    assert_eq!(err.to_string(), "invalid hex digit 'g' at offset 4");
    // An invalid digit is reported even when the length is also odd.
    assert_eq!(
        decode(" 0a"),
        Err(HexError::InvalidDigit {
            found: ' ',
            offset: 0
        })
    );
    // No prefix, no non-ASCII lookalikes, no panic on multi-byte characters.
    assert!(matches!(
        decode("0x00"),
        Err(HexError::InvalidDigit { found: 'x', .. })
    ));
    assert!(matches!(
        decode("é0"),
        Err(HexError::InvalidDigit { found: 'é', .. })
    ));
}

#[test]
fn hex_error_is_a_std_error() {
    let err: Box<dyn std::error::Error> = Box::new(HexError::OddLength { digits: 1 });
    assert_eq!(err.to_string(), "odd number of hex digits (1)");
}
