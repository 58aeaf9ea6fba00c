//! The hand-picked `fnv1a-utf16-v1` inputs, read from
//! `data/fnv1a-utf16-v1.hand-picked.json` (compiled in): the published positions with
//! the figures they must reproduce, the named strings of the boundary grid, and the
//! rejections (the types: `bloomproof_wire::hand_picked::fnv`). (The m and k grids
//! and the sweeps are computed in `fnv.rs`.)
//!
//! A string is a list of pieces, concatenated: `{"text": "a"}` (its UTF-16 code
//! units), `{"units": [55296]}` (code units as they are, lone surrogates included) or
//! `{"repeat": {"times": 255, "of": [...]}}`.

use bloomproof_wire::hand_picked::fnv::{HandPickedFile, Piece};

/// Where the data lives, for error messages.
pub const PATH: &str = "crates/vectors-writer/data/fnv1a-utf16-v1.hand-picked.json";

const TEXT: &str = include_str!("../data/fnv1a-utf16-v1.hand-picked.json");

/// The protocol's checks file, whose `published_figures` the data names.
const CHECKS_PATH: &str = "spec/fnv1a-utf16-v1/checks.json";

const CHECKS: &str = include_str!("../../../spec/fnv1a-utf16-v1/checks.json");

/// The published figures the data names (`{"published": "<name>"}`).
pub fn published() -> Result<crate::PublishedFigures, String> {
    crate::PublishedFigures::read(CHECKS_PATH, CHECKS)
}

/// The code units of a list of pieces, concatenated.
pub fn units(pieces: &[Piece]) -> Vec<u16> {
    let mut out = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Text(text) => out.extend(text.encode_utf16()),
            Piece::Units(units) => out.extend_from_slice(units),
            Piece::Repeat { times, of } => out.extend(units(of).repeat(*times)),
        }
    }
    out
}

/// Reads the data file.
///
/// # Errors
///
/// A message naming the file and the JSON path of what does not fit the format.
pub fn read() -> Result<HandPickedFile, String> {
    crate::hand_picked::parse_json(PATH, TEXT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_concatenate_and_repeat() {
        let pieces: Vec<Piece> = serde_json::from_str(
            r#"[{"repeat": {"times": 2, "of": [{"text": "a"}, {"units": [55296]}]}}, {"text": "\ud83d\ude00"}]"#,
        )
        .unwrap();
        assert_eq!(units(&pieces), [97, 0xD800, 97, 0xD800, 0xD83D, 0xDE00]);
    }

    #[test]
    fn the_committed_file_reads() {
        let all = read().unwrap();
        assert!(!all.positions.is_empty());
        assert!(!all.strings.is_empty());
        assert!(!all.rejections.is_empty());
    }
}
