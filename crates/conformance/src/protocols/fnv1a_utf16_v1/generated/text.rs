//! Text where the measures differ, for the generated sessions of `fnv1a-utf16-v1`:
//! groups of strings that a lossy conversion, a count in another unit or an escaping
//! rule would confuse (drawn together, so that an implementation keying anything by a
//! lossy form answers one of them wrongly), and drafts of the characters escaping
//! rules touch.

use bloomproof_wire::protocols::fnv1a_utf16_v1::TextValue;
use proptest::prelude::*;

fn text(s: &str) -> TextValue {
    TextValue::Text(s.to_string())
}

fn units(u: &[u16]) -> TextValue {
    TextValue::Units(u.to_vec())
}

/// The groups, each of at most four strings (a group script inserts, then queries,
/// every one of them). Where a group holds strings that a lossy form merges, they
/// come in the order that makes the second one a `new` insertion the merge would call
/// a `duplicate`.
pub(super) fn groups() -> Vec<Vec<TextValue>> {
    let emoji = "😀";
    vec![
        // A lone surrogate against U+FFFD (what a lossy UTF-8 or UTF-16 decoding writes
        // in its place) and against "?" (what a lossy encoding writes), a lone low one.
        vec![
            units(&[0xD800]),
            text("\u{FFFD}"),
            units(&[0xDC00]),
            text("?"),
        ],
        // A pair against its halves alone and reversed.
        vec![
            text(emoji),
            units(&[0xD83D]),
            units(&[0xDE00, 0xD83D]),
            units(&[0xD83D, 0x61]),
        ],
        // A lone surrogate inside a string, and the string without it.
        vec![
            units(&[0x61, 0xD800]),
            text("a\u{FFFD}"),
            text("a"),
            units(&[0xDBFF, 0x61]),
        ],
        // Composed and decomposed forms (NFC and NFD), and a singleton NFC maps away.
        vec![
            text("é"),
            text("e\u{301}"),
            text("\u{C5}"),
            text("\u{212B}"),
        ],
        // Compatibility forms (NFKC) and widths.
        vec![text("fi"), text("\u{FB01}"), text("A"), text("\u{FF21}")],
        // Case variants, with a case mapping that changes the length.
        vec![text("a"), text("A"), text("straße"), text("STRASSE")],
        // A string and its prefixes, and the string with a NUL after it (where a C string
        // ends).
        vec![text("ab"), text("a"), text("abc"), text("ab\u{0}")],
        // Two pairs of strings with the same h1 (32-bit FNV-1a from 2166136261) and
        // different h2: an implementation keying entries by h1 merges each pair.
        vec![text("d-xj"), text("xFla"), text("d-xi"), text("xFlb")],
        // 256 and 257 UTF-16 code units where code points (128, 129) and UTF-8 bytes
        // (512, 514) count otherwise; 129 emoji (258 units).
        vec![
            text(&emoji.repeat(128)),
            text(&format!("{}a", emoji.repeat(128))),
            text(&emoji.repeat(129)),
            text(&format!("{}e", "e\u{301}".repeat(128))),
        ],
        // 256 units of two- and three-byte UTF-8 (512 and 768 bytes: within the limit),
        // 256 lone surrogates (accepted), 257 (too long).
        vec![
            text(&"é".repeat(256)),
            text(&"日".repeat(256)),
            TextValue::Units(vec![0xD800; 256]),
            TextValue::Units(vec![0xDC00; 257]),
        ],
        // What HTML escaping touches, quotes, a backslash and a slash.
        vec![
            text("<a href=\"x\">&amp;</a>"),
            text("'\""),
            text("\\/"),
            text("a&b<c>d"),
        ],
        // Control characters: NUL, the C0 range's ends, DEL, the short escapes and VT.
        vec![
            text("\u{0}"),
            text("\u{1}\u{1F}\u{7F}"),
            text("\t\n\r\u{8}\u{C}\u{B}"),
            text(" "),
        ],
        // Bidi controls and the line and paragraph separators.
        vec![
            text("\u{202E}abc\u{202C}"),
            text("\u{2066}\u{2067}\u{2068}x\u{2069}"),
            text("\u{2028}\u{2029}"),
            text("\u{202A}\u{202B}\u{202D}"),
        ],
        // Spaces that trimming or whitespace normalisation would merge, a BOM and a zero
        // width space.
        vec![
            text(" a"),
            text("a "),
            text("\u{A0}a"),
            text("\u{FEFF}a\u{200B}"),
        ],
    ]
}

/// One string of `group`.
pub(super) fn one_of(group: Vec<TextValue>) -> impl Strategy<Value = TextValue> {
    proptest::sample::select(group)
}

/// An insert or query draft of the characters escaping rules touch (drafts are
/// well-formed text, carried verbatim by the view and the export).
pub(super) fn draft() -> impl Strategy<Value = String> {
    proptest::sample::select(vec![
        "<&>\"'\\/",
        "\u{0}\u{1F}\u{7F}\t\n",
        "\u{202E}x\u{2069}\u{2028}\u{2029}",
        "e\u{301}😀\u{FFFD}",
        " a ",
    ])
    .prop_map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bloomproof_oracle::fnv1a_utf16 as oracle;

    fn of(value: &TextValue) -> Vec<u16> {
        match value {
            TextValue::Text(s) => s.encode_utf16().collect(),
            TextValue::Units(u) => u.clone(),
        }
    }

    /// The groups are as their comments say: at most four strings each (a group
    /// script's steps fit in 16), no string twice in a group, the h1 pairs share h1 and
    /// not h2 (the oracle's hashes), and the length group straddles 256 code units
    /// where code points and UTF-8 bytes count otherwise.
    #[test]
    fn the_groups_hold_what_they_claim() {
        let groups = groups();
        assert_eq!(groups.len(), 14);
        for group in &groups {
            assert!((2..=4).contains(&group.len()), "{group:?}");
            for (i, a) in group.iter().enumerate() {
                for b in &group[i + 1..] {
                    assert_ne!(of(a), of(b), "{group:?}");
                }
            }
        }
        let h1 = |s: &str| oracle::h1(&s.encode_utf16().collect::<Vec<_>>());
        let h2 = |s: &str| oracle::h2(&s.encode_utf16().collect::<Vec<_>>());
        for (a, b) in [("d-xj", "xFla"), ("d-xi", "xFlb")] {
            assert_eq!(h1(a), h1(b), "{a} {b}");
            assert_ne!(h2(a), h2(b), "{a} {b}");
        }
        let lengths: Vec<(usize, usize, usize)> = groups[8]
            .iter()
            .map(|t| match t {
                TextValue::Text(s) => (s.encode_utf16().count(), s.chars().count(), s.len()),
                TextValue::Units(_) => (0, 0, 0),
            })
            .collect();
        assert_eq!(
            lengths,
            [
                (256, 128, 512),
                (257, 129, 513),
                (258, 129, 516),
                (257, 257, 385)
            ]
        );
    }
}
