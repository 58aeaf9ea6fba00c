//! The measures of a text that a local save's limit (`SESSION.md` 11) could be
//! counted in, and where each crosses the limit for a `save_local` state of a `fill`
//! (`SESSION.md` 6.6). The page says "characters" ([SESSION-11.1], core); SESSION.md
//! decides UTF-16 code units ([SESSION-11.4], interop). A core judgement reads
//! "characters" as any of the measures: it asks for a save only where even the most
//! (UTF-8 bytes) is within the limit, and for a refusal only where even the fewest
//! (user-perceived characters: code points but combining marks) is over it.

/// One text's length in each measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Measures {
    /// UTF-16 code units (SESSION.md's count).
    pub units: usize,
    /// UTF-8 bytes: the most of the four.
    pub bytes: usize,
    /// Unicode code points.
    pub points: usize,
    /// Code points that are not combining marks: the fewest, a lower bound of the
    /// user-perceived characters.
    pub fewest: usize,
}

/// Whether `c` is a combining mark of the blocks a fill draws from (Combining
/// Diacritical Marks and their Extended and Supplement blocks, for Symbols, Half
/// Marks).
pub(crate) fn combining(c: char) -> bool {
    matches!(c, '\u{300}'..='\u{36f}' | '\u{1ab0}'..='\u{1aff}' | '\u{1dc0}'..='\u{1dff}'
        | '\u{20d0}'..='\u{20ff}' | '\u{fe20}'..='\u{fe2f}')
}

/// The measures of `text`.
pub(crate) fn measures(text: &str) -> Measures {
    Measures {
        units: text.encode_utf16().count(),
        bytes: text.len(),
        points: text.chars().count(),
        fewest: text.chars().filter(|c| !combining(*c)).count(),
    }
}

/// The measures of the state `save_local` builds of `units` code units of `fill`,
/// counted without building it: whole copies of `fill`, then `"x"`s.
pub(crate) fn state_measures(units: usize, fill: Option<&str>) -> Measures {
    let one = measures(fill.unwrap_or("x"));
    let width = one.units.max(1);
    let (whole, rest) = (units / width, units % width);
    Measures {
        units,
        bytes: whole * one.bytes + rest,
        points: whole * one.points + rest,
        fewest: whole * one.fewest + rest,
    }
}

/// The shortest state of `fill` (in code units) whose `measure` is over `limit`: a
/// save there and one unit before it sit right on the limit in that measure. The
/// state is whole copies of `fill` then `"x"`s (one in every measure each), so its
/// measure need not grow with its length (a letter with two combining marks is one
/// character for three units, but two `"x"` are two): every count of whole copies near
/// the limit is tried. A `fill` that counts nothing in `measure` (combining marks
/// alone; no fill drawn is) gets `limit + 1`.
pub(crate) fn first_past(fill: &str, limit: usize, measure: fn(&Measures) -> usize) -> usize {
    let one = measures(fill);
    let (width, each) = (one.units.max(1), measure(&one));
    if each == 0 {
        return limit + 1;
    }
    let mut best = usize::MAX;
    for n in copies_near(limit, width, each) {
        let have = n * each;
        let units = if have > limit {
            n * width
        } else if limit + 1 - have < width {
            n * width + (limit + 1 - have)
        } else {
            continue;
        };
        best = best.min(units);
    }
    best
}

/// The counts of whole copies of a fill (`width` code units, `each` in the measure)
/// that can start the shortest state over `limit`: n copies and r < `width` `"x"`s
/// measure n * `each` + r, so below (`limit` + 1 - `width`) / `each` copies no state
/// is over, and past `limit` / `each` + 1 copies every state is longer than one with
/// fewer. One count each side to spare; a few counts, not the whole range.
fn copies_near(limit: usize, width: usize, each: usize) -> std::ops::RangeInclusive<usize> {
    let low = (limit + 1).saturating_sub(width) / each;
    low.saturating_sub(1)..=limit / each + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use bloomproof_wire::protocols::fnv1a_utf16_v1::save_state;

    /// The counts without building agree with the state built (hand-checked points:
    /// 50000 emoji are 100000 units, 200000 bytes, 50000 code points).
    #[test]
    fn state_measures_agree_with_the_state_built() {
        let emoji = state_measures(100_000, Some("\u{1F600}"));
        assert_eq!(
            (emoji.units, emoji.bytes, emoji.points, emoji.fewest),
            (100_000, 200_000, 50_000, 50_000)
        );
        for fill in [
            "x",
            "\u{e9}",
            "\u{1F600}",
            "e\u{301}\u{302}",
            "a\u{65e5}\u{1F600}",
        ] {
            for units in [0, 1, 2, 3, 7, 100_000, 100_001] {
                let built = save_state(units, Some(fill)).unwrap_or_default();
                assert_eq!(
                    measures(&built),
                    state_measures(units, Some(fill)),
                    "{fill:?} {units}"
                );
            }
        }
    }

    /// Where each measure first passes 100000, by hand: `é` is 2 bytes a unit (50001
    /// units are 100002 bytes), an emoji 4 bytes and one code point for 2 units (200001
    /// units are 100001 code points: 100000 emoji and an `x`), `e` with two combining
    /// marks one character for 3 units (299999 units are 99999 copies and `xx`: 100001
    /// characters, though 300000 are 100000), `x` one of each.
    #[test]
    fn each_measure_passes_the_limit_where_derived_by_hand() {
        let bytes = |m: &Measures| m.bytes;
        let points = |m: &Measures| m.points;
        let fewest = |m: &Measures| m.fewest;
        assert_eq!(first_past("\u{e9}", 100_000, bytes), 50_001);
        assert_eq!(first_past("\u{1F600}", 100_000, bytes), 50_001);
        assert_eq!(first_past("\u{1F600}", 100_000, points), 200_001);
        assert_eq!(first_past("e\u{301}\u{302}", 100_000, fewest), 299_999);
        assert_eq!(first_past("x", 100_000, bytes), 100_001);
        // No shorter state is over, and that one is (a scan of every length).
        for fill in [
            "\u{e9}",
            "\u{1F600}",
            "e\u{301}\u{302}",
            "a\u{65e5}\u{1F600}o\u{301}",
        ] {
            for measure in [bytes, points, fewest, |m: &Measures| m.units] {
                let past = first_past(fill, 1000, measure);
                assert!(
                    measure(&state_measures(past, Some(fill))) > 1000,
                    "{fill:?}"
                );
                assert!(
                    (0..past).all(|u| measure(&state_measures(u, Some(fill))) <= 1000),
                    "{fill:?}"
                );
            }
        }
    }

    /// A fill that counts nothing in the measure (combining marks alone, in the
    /// fewest) never passes the limit by its copies: one past the limit, as documented.
    #[test]
    fn a_fill_that_counts_nothing_gets_one_past_the_limit() {
        let fewest = |m: &Measures| m.fewest;
        assert_eq!(first_past("\u{301}\u{302}", 100_000, fewest), 100_001);
        assert_eq!(first_past("\u{301}", 7, fewest), 8);
    }

    /// The counts of copies tried, by hand: 100000 over a 3-unit fill counting 1 is
    /// (100001 - 3) / 1 = 99998 less one, to 100000 / 1 + 1; an emoji counting 4 bytes
    /// for 2 units from 99999 / 4 = 24999 less one to 25001; a fill wider than the
    /// limit from none.
    #[test]
    fn the_copies_tried_are_the_few_near_the_limit() {
        assert_eq!(copies_near(100_000, 3, 1), 99_997..=100_001);
        assert_eq!(copies_near(100_000, 2, 4), 24_998..=25_001);
        assert_eq!(copies_near(2, 5, 1), 0..=3);
    }
}
