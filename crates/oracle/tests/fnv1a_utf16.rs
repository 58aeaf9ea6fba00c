//! The `fnv1a-utf16-v1` reference against the published check figures and
//! hand-derived values.

use bloomproof_oracle::fnv1a_utf16::{h1, h2, positions, utf16_units};

#[test]
fn published_hashes_of_a() {
    let units = utf16_units("a");
    assert_eq!(units, vec![0x61]);
    assert_eq!(h1(&units), 3_826_002_220);
    assert_eq!(h2(&units), 428_013_963);
}

#[test]
fn empty_string_hashes_are_the_bases() {
    assert_eq!(h1(&[]), 2_166_136_261);
    assert_eq!(h2(&[]), 0xdead_beef); // already odd
}

#[test]
fn published_positions_m8_k1() {
    let got: Vec<u32> = ["a", "b", "c", "d", "e", "f", "g", "h"]
        .iter()
        .map(|s| {
            let p = positions(8, 1, &utf16_units(s));
            assert_eq!(p.len(), 1);
            p[0]
        })
        .collect();
    assert_eq!(got, vec![4, 5, 2, 3, 0, 1, 6, 7]);
    assert_eq!(positions(8, 1, &utf16_units("i")), vec![4]);
}

#[test]
fn utf16_surrogate_pairs_and_no_normalisation() {
    assert_eq!(utf16_units("😀"), vec![0xD83D, 0xDE00]);
    assert_eq!(utf16_units("\u{10000}"), vec![0xD800, 0xDC00]);
    assert_eq!(utf16_units("\u{10FFFF}"), vec![0xDBFF, 0xDFFF]);
    assert_eq!(utf16_units("\u{FFFF}"), vec![0xFFFF]);
    assert_eq!(utf16_units(""), Vec::<u16>::new());
    assert_eq!(utf16_units("é"), vec![0x00E9]);
    assert_eq!(utf16_units("e\u{301}"), vec![0x0065, 0x0301]);
    assert_ne!(utf16_units("é"), utf16_units("e\u{301}"));
    assert_ne!(h1(&utf16_units("é")), h1(&utf16_units("e\u{301}")));
    // Agreement with the standard library on a mixed string (a test-only
    // cross-check; the oracle itself never calls encode_utf16).
    let mixed = "a é\u{301}😀\u{10FFFF}\u{D7FF}\u{E000}z";
    assert_eq!(
        utf16_units(mixed),
        mixed.encode_utf16().collect::<Vec<u16>>()
    );
}

#[test]
fn hashes_over_surrogates_match_python() {
    // Python: units of "😀é" via .encode("utf-16-be"), FNV-1a over the units.
    let units = utf16_units("😀é");
    assert_eq!(units, vec![0xD83D, 0xDE00, 0x00E9]);
    assert_eq!(h1(&units), 811_076_483);
    assert_eq!(h2(&units), 1_159_828_881);
    assert_eq!(
        positions(1021, 12, &units),
        vec![209, 657, 84, 532, 980, 407, 855, 282, 730, 157, 605, 32]
    );
}

#[test]
fn exact_sum_is_not_wrapped_to_32_bits() {
    // "a": h1 = 3826002220, h2 = 428013963. For i = 2 the sum is
    // 3826002220 + 856027926 = 4682030146 >= 2^32 = 4294967296.
    let units = utf16_units("a");
    let exact: u64 = 3_826_002_220 + 2 * 428_013_963;
    assert_eq!(exact, 4_682_030_146);
    assert!(exact >= 1 << 32);
    let wrapped = exact - (1 << 32); // what a u32 wrapping sum would hold
    assert_eq!(wrapped, 387_062_850);
    let m = 1000;
    assert_eq!(exact % m, 146);
    assert_eq!(wrapped % m, 850);
    // The oracle gives the exact value, and it differs from the wrapped one.
    let got = positions(1000, 3, &units);
    assert_eq!(got, vec![220, 183, 146]);
    assert_ne!(u64::from(got[2]), wrapped % m);
}

#[test]
fn repeats_kept_and_outside_the_protocol_never_panics() {
    // m = 1: every position is 0, repeats are listed.
    assert_eq!(positions(1, 4, &utf16_units("x")), vec![0, 0, 0, 0]);
    assert!(positions(0, 5, &utf16_units("x")).is_empty());
    assert!(positions(8, 0, &utf16_units("x")).is_empty());
    let big = positions(u32::MAX, 3, &utf16_units("a"));
    // u32::MAX = 4294967295; exact sums 3826002220, 4254016183, 4682030146.
    assert_eq!(big, vec![3_826_002_220, 4_254_016_183, 387_062_851]);
}
