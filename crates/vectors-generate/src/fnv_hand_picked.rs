//! The hand-picked `fnv1a-utf16-v1` inputs, read from
//! `data/fnv1a-utf16-v1.hand-picked.json` (compiled in): the published positions with
//! the figures they must reproduce, the named strings of the boundary grid, and the
//! rejections. (The m and k grids and the sweeps are computed in `fnv.rs`.)
//!
//! A string is a list of pieces, concatenated: `{"text": "a"}` (its UTF-16 code
//! units), `{"units": [55296]}` (code units as they are, lone surrogates included) or
//! `{"repeat": {"times": 255, "of": [...]}}`.

use serde::Deserialize;

/// Where the data lives, for error messages.
pub const PATH: &str = "crates/vectors-generate/data/fnv1a-utf16-v1.hand-picked.json";

const TEXT: &str = include_str!("../data/fnv1a-utf16-v1.hand-picked.json");

/// Every hand-picked input of the data file, each list in file order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandPicked {
    pub positions: Vec<Position>,
    /// Named strings, each run through the boundary grid's (m, k) pairs.
    pub strings: Vec<Named>,
    /// Exactly one of m and k out of range; the generator derives the field and flags.
    pub rejections: Vec<Rejection>,
    /// The file's own description of its format (not used).
    #[serde(rename = "comment")]
    _about: String,
}

/// A hand-picked position case's inputs and expected figures.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub id: String,
    pub flags: Vec<String>,
    pub m: u32,
    pub k: u32,
    pub units: Vec<Piece>,
    pub expect: PositionExpect,
}

/// Figures a hand-picked position case must reproduce (each one given is compared).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionExpect {
    pub positions: Option<Vec<u16>>,
    pub h1: Option<u32>,
    pub h2: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Named {
    pub name: String,
    pub units: Vec<Piece>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rejection {
    pub id: String,
    pub m: u64,
    pub k: u64,
    pub units: Vec<Piece>,
}

/// A piece of a string (see the module docs).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Piece {
    Text(String),
    Units(Vec<u16>),
    Repeat { times: usize, of: Vec<Piece> },
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
pub fn read() -> Result<HandPicked, String> {
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
