//! Cross-reading, on the wire: the session scripts every implementation runs and
//! exports (`crates/matrix/data/cross-sessions.json`), a session another producer
//! exported (a `--session-from` file), and the grids of what each reader made of what each producer
//! wrote, as `matrix.json` carries them. The reading itself is
//! `bloomproof_matrix::cross`.

use crate::protocols::fnv1a_utf16_v1::ScriptOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The most differences one cell keeps; the rest are counted.
pub const DIFFERENCES_KEPT: usize = 20;

/// `crates/matrix/data/cross-sessions.json`: the session scripts of
/// cross-reading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionsFile {
    /// What the file is, for its readers.
    pub comment: String,
    /// The scripts, in the order they are run.
    pub sessions: Vec<SessionCase>,
}

/// A session script every implementation runs and exports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionCase {
    /// Its id, named in every difference.
    pub id: String,
    /// What the script exercises, for readers of the data file.
    pub about: String,
    /// The script; it ends with an `export` step.
    pub script: Vec<ScriptOp>,
}

/// A session another producer exported, as a `--session-from NAME=FILE` file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportedSession {
    /// The export text, exactly as the producer wrote it.
    pub export: String,
    /// The view the producer showed when it exported (the shape of a session step's
    /// view, `spec/fnv1a-utf16-v1/SESSION.md` section 7).
    pub view: Value,
}

/// One protocol's grid: producers as rows, readers as columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Grid {
    /// The protocol.
    pub protocol: String,
    /// The producers (rows), in order.
    pub producers: Vec<String>,
    /// The readers (columns), in order.
    pub readers: Vec<String>,
    /// One cell per (producer, reader), row by row.
    pub cells: Vec<GridCell>,
    /// The implementations that take no part: their handshake does not list the
    /// protocol, so nothing of theirs was read or written (not run, never a difference).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<String>,
}

/// What one reader made of what one producer wrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GridCell {
    /// Who wrote (A).
    pub producer: String,
    /// Who read (B).
    pub reader: String,
    /// Whether every comparison held.
    pub passed: bool,
    /// How many values were compared.
    pub compared: usize,
    /// What differed (at most [`DIFFERENCES_KEPT`]; `more` counts the rest).
    pub differences: Vec<Difference>,
    /// Differences not kept.
    pub more: usize,
}

/// One thing that differed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Difference {
    /// The snapshot or session, and the item.
    pub case: String,
    /// What was compared.
    pub what: String,
    /// The value it should have had.
    pub expected: String,
    /// What was given.
    pub actual: String,
}

impl GridCell {
    /// An empty cell: nothing compared yet, so it passes.
    pub fn new(producer: &str, reader: &str) -> Self {
        GridCell {
            producer: producer.to_string(),
            reader: reader.to_string(),
            passed: true,
            compared: 0,
            differences: Vec::new(),
            more: 0,
        }
    }

    /// Counts one comparison of `what` in `case`; a difference is recorded.
    pub fn compare(&mut self, case: &str, what: &str, expected: String, actual: String) {
        self.compared += 1;
        if expected != actual {
            self.differ(case, what, expected, actual);
        }
    }

    /// Records a difference (kept while fewer than [`DIFFERENCES_KEPT`], counted
    /// after) and fails the cell.
    pub fn differ(&mut self, case: &str, what: &str, expected: String, actual: String) {
        self.passed = false;
        if self.differences.len() < DIFFERENCES_KEPT {
            self.differences.push(Difference {
                case: case.to_string(),
                what: what.to_string(),
                expected,
                actual,
            });
        } else {
            self.more += 1;
        }
    }
}
