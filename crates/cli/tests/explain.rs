//! `bloomproof explain` and `bloomproof positions`: every stage agrees with the
//! independent oracle, and bad input gives one clear line on stderr and exit code 2.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use bloomproof_oracle::{doc_membership as doc, fnv1a_utf16 as fnv};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

/// Runs the binary with the words of `line` and then `last` as its arguments (`last`
/// for values with spaces or too long to write out).
fn run(line: &str, last: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(line.split_whitespace())
        .args(last)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn doc_positions_json_matches_the_oracle() {
    let (code, out, err) = run(
        "positions doc-membership-v1 --m 16 --k 3 --seed-hex 6c6162 --item-text doc-04",
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    for index in 0..3u32 {
        let stage = &json["stages"][index as usize];
        assert_eq!(
            stage["message_hex"],
            doc::message_hex(doc::DOMAIN_HEX, 16, 3, b"lab", index, b"doc-04")
        );
        assert_eq!(
            stage["digest_hex"],
            doc::digest_hex(doc::DOMAIN_HEX, 16, 3, b"lab", index, b"doc-04")
        );
    }
    let positions: Vec<u32> = serde_json::from_value(json["positions"].clone()).unwrap();
    assert_eq!(
        positions,
        doc::positions(doc::DOMAIN_HEX, 16, 3, b"lab", b"doc-04")
    );
    let occupied = doc::position_set(doc::DOMAIN_HEX, 16, 3, b"lab", b"doc-04");
    assert_eq!(json["packed_hex"], doc::packed_hex(&occupied, 16));
    assert_eq!(
        json["params"],
        serde_json::json!({"m": 16, "k": 3, "seed_hex": "6c6162"})
    );
    assert_eq!(json["item_hex"], "646f632d3034");
    // The spec's field names, nothing else: it reads back strictly as the one type.
    serde_json::from_value::<bloomproof_wire::positions::DocPositions>(json).unwrap();
}

#[test]
fn doc_explain_labels_every_field() {
    let (code, out, _) = run(
        "explain doc-membership-v1 --m 9 --k 2 --seed-text S --item-hex 0041",
        &[],
    );
    assert_eq!(code, 0);
    // The seed's published wire bytes for index 1.
    assert!(
        out.contains("646f632d6d656d626572736869702d76310000090201530100020041"),
        "{out}"
    );
    for label in [
        "domain",
        "len(seed)",
        "len(item)",
        "sha256",
        "reduction",
        "limb 3",
        "packed bits",
    ] {
        assert!(out.contains(label), "missing {label}: {out}");
    }
}

#[test]
fn fnv_positions_json_matches_the_oracle_with_a_lone_surrogate() {
    let (code, out, err) = run(
        "positions fnv1a-utf16-v1 --m 1000 --k 12 --units-hex",
        &["d800, 0061"],
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let units = [0xd800, 0x61];
    assert_eq!(json["h1"], fnv::h1(&units));
    assert_eq!(json["h2"], fnv::h2(&units));
    let positions: Vec<u32> = serde_json::from_value(json["positions"].clone()).unwrap();
    assert_eq!(positions, fnv::positions(1000, 12, &units));
    serde_json::from_value::<bloomproof_wire::positions::FnvPositions>(json).unwrap();
}

#[test]
fn fnv_explain_shows_the_arithmetic() {
    let (code, out, _) = run("explain fnv1a-utf16-v1 --m 1000 --k 3 --text a", &[]);
    assert_eq!(code, 0);
    // The seed's figures and an exact sum past 2^32 whose wrap would differ.
    assert!(
        out.contains("h1 = 3826002220") && out.contains("h2 = 428013963"),
        "{out}"
    );
    assert!(out.contains("= 4682030146; mod 1000 = 146"), "{out}");
    assert!(out.contains("a 32-bit wrap would give 850: wrong"), "{out}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let long = "00".repeat(65);
    let cases: [((&str, &[&str]), &str); 9] = [
        (
            (
                "explain doc-membership-v1 --m 16 --k 3 --seed-hex 6c616 --item-text x",
                &[],
            ),
            "--seed-hex: bad hex \"6c616\": odd number of hex digits (5)",
        ),
        (
            ("explain doc-membership-v1 --m 513 --k 3 --item-text x", &[]),
            "m = 513 is out of bounds",
        ),
        (
            ("explain doc-membership-v1 --m 16 --k 9 --item-text x", &[]),
            "k = 9 is out of bounds",
        ),
        (
            (
                "explain doc-membership-v1 --m 16 --k 3 --item-hex",
                &[&long],
            ),
            "item is 65 bytes long",
        ),
        (
            ("positions fnv1a-utf16-v1 --m 8 --k 3 --units-hex d80", &[]),
            "each code unit takes exactly four",
        ),
        (
            ("positions fnv1a-utf16-v1 --m 8 --k 13 --text a", &[]),
            "k = 13 is out of bounds",
        ),
        // Issue 24 (F18): a character that is not a hex digit is named as written, at
        // its place in what was given (spaces count).
        (
            ("explain fnv1a-utf16-v1 --m 8 --k 3 --units-hex", &["éééé"]),
            "character 0 (counting from 0, spaces included), 'é', is not a hex digit",
        ),
        (
            (
                "explain fnv1a-utf16-v1 --m 8 --k 3 --units-hex",
                &["0061 00zz"],
            ),
            "character 7 (counting from 0, spaces included), 'z', is not a hex digit",
        ),
        (
            ("explain doc-membership-v1 --m 16 --k 3 --item-hex", &["é1"]),
            "'é' at offset 0 is not a hex digit",
        ),
    ];
    for (args, needle) in cases {
        let (code, out, err) = run(args.0, args.1);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// Issue 12: a huge bad value is quoted by a short prefix and its length, never echoed
/// whole (a 120 KB `--units-hex` used to come back in full).
#[test]
fn a_huge_bad_value_is_quoted_short() {
    let units = "zzzz".repeat(30_000);
    let seed = "g".repeat(120_001);
    let cases: [(&str, &[&str]); 2] = [
        ("explain fnv1a-utf16-v1 --m 64 --k 3 --units-hex", &[&units]),
        (
            "explain doc-membership-v1 --m 16 --k 3 --seed-hex",
            &[&seed, "--item-text", "x"],
        ),
    ];
    for (line, last) in cases {
        let (code, out, err) = run(line, last);
        assert_eq!(code, 2, "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.len() < 300, "{} bytes: {err}", err.len());
        assert!(
            err.contains("…\" (120000 bytes)") || err.contains("…\" (120001 bytes)"),
            "{err}"
        );
    }
}

#[test]
fn each_input_is_given_exactly_one_way() {
    let doc = "explain doc-membership-v1 --m 16 --k 3";
    let cases = [
        (
            format!("{doc} --seed-hex 00 --seed-text a --item-text x"),
            "cannot be used with",
        ),
        (
            format!("{doc} --item-hex 00 --item-text x"),
            "cannot be used with",
        ),
        (
            doc.to_string(),
            "--item-hex <ITEM_HEX>|--item-text <ITEM_TEXT>",
        ),
        (
            "positions fnv1a-utf16-v1 --m 8 --k 1 --text a --units-hex 0061".to_string(),
            "cannot be used with",
        ),
        (
            "positions fnv1a-utf16-v1 --m 8 --k 1".to_string(),
            "--text <TEXT>|--units-hex <UNITS_HEX>",
        ),
    ];
    for (line, needle) in cases {
        let (code, out, err) = run(&line, &[]);
        assert_eq!(code, 2, "{line}");
        assert!(out.is_empty(), "{line}: {out}");
        assert!(err.contains(needle), "{line}: {err}");
    }
    let (code, out, _) = run(&format!("{doc} --item-text x"), &[]);
    assert_eq!(code, 0, "no seed is the empty seed");
    assert!(out.contains("seed = "), "{out}");
}
