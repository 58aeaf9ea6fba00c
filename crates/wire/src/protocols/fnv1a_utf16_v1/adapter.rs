//! `fnv1a-utf16-v1`'s adapter operations and their results (`spec/ADAPTER.md`).

use super::session::{DraftField, Op, Panel, Text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A `fnv1a-utf16-v1` operation (arguments: `spec/ADAPTER.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "the arguments are documented in spec/ADAPTER.md"
)]
pub enum FnvOp {
    /// Hashes and positions -> `{"h1", "h2", "positions"}`.
    Positions {
        m: u64,
        k: u64,
        /// UTF-16 code units.
        units: Vec<u16>,
    },
    /// A session script -> `{"initial": view, "steps": [..]}` (`spec/fnv1a-utf16-v1/SESSION.md`).
    Session { script: Vec<ScriptOp> },
    /// The estimates -> `{"classic", "finite_m", "exact", "optimal_k"}`.
    Estimates { m: u32, k: u32, n: u32 },
}

/// A string in a script as the case writes it: text, or UTF-16 code units (for lone
/// surrogates). The runner forwards it in the form written, so a case can test that
/// an implementation reads both forms; the session model reads either as one
/// [`Text`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TextValue {
    /// Text (encoded to UTF-16).
    Text(String),
    /// UTF-16 code units.
    Units(Vec<u16>),
}

/// One step of a session script. The first seven are the page's own operations;
/// the rest are script helpers every adapter implements (see `spec/README.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "a field that only names its value (the field, the string, the panel) has no doc"
)]
pub enum ScriptOp {
    /// Types into a field (raw text, kept verbatim).
    SetDraft {
        field: DraftField,
        /// The raw text.
        value: String,
    },
    /// Creates the filter from the m and k drafts.
    Create {},
    /// Inserts a string.
    Insert { value: TextValue },
    /// Queries a string.
    Query { value: TextValue },
    /// Inserts "a" to "h", in order.
    InsertExample {},
    /// Clears the filter, keeps the drafts.
    Reset {},
    /// Opens or closes a detail panel.
    SetPanel {
        panel: Panel,
        /// Open or closed.
        open: bool,
    },
    /// Inserts `prefix + i` for i in `0..count`, in order, as one step (all or nothing).
    InsertMany {
        /// The common prefix.
        prefix: String,
        /// How many strings.
        count: u32,
    },
    /// Exports the session, imports the text into a fresh session and continues with
    /// it. The view must equal the one before.
    Roundtrip {},
    /// Imports this JSON document (serialised compactly).
    Import { document: serde_json::Value },
    /// Imports this raw text.
    ImportText { text: String },
    /// Exports the session, pads it with trailing spaces to exactly `bytes` bytes and
    /// imports that.
    ImportPadded {
        /// Total size in bytes.
        bytes: usize,
    },
    /// Applies the local-save rule to a serialised state of exactly `units` UTF-16
    /// code units, with the current export as the previous copy.
    SaveLocal {
        /// Size of the state, in UTF-16 code units.
        units: usize,
        /// What the state is made of (adapter protocol 3; absent: `"x"`): `fill`
        /// repeated as many whole times as fit in `units` code units, then `"x"` up
        /// to exactly `units` ([`save_state`]). A non-empty, well-formed text.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fill: Option<String>,
    },
    /// Exports the session; the step's answer carries the export text as `export`.
    /// The session is unchanged. (Cross-reading hands the text to another
    /// implementation's `import_text`.)
    Export {},
}

impl From<&TextValue> for Text {
    fn from(value: &TextValue) -> Self {
        match value {
            TextValue::Text(text) => Text::from(text.as_str()),
            TextValue::Units(units) => Text::from(units.as_slice()),
        }
    }
}

/// The state a `save_local` step builds (`SESSION.md` 6.6): `fill` (`"x"` when
/// absent) repeated as many whole times as fit in `units` UTF-16 code units, then
/// `"x"` until it is exactly `units` code units. `None` for an empty `fill`, which
/// builds nothing.
pub fn save_state(units: usize, fill: Option<&str>) -> Option<String> {
    let fill = fill.unwrap_or("x");
    let width = fill.encode_utf16().count();
    if width == 0 {
        return None;
    }
    // `repeat` copies by doubling: a few large copies, not one push a fill.
    let mut state = fill.repeat(units / width);
    state.push_str(&"x".repeat(units % width));
    Some(state)
}

impl ScriptOp {
    /// The least adapter protocol version whose adapters take this step: 3 for a
    /// `save_local` with a `fill`, else 2.
    pub fn adapter_protocol(&self) -> u32 {
        match self {
            ScriptOp::SaveLocal { fill: Some(_), .. } => 3,
            _ => 2,
        }
    }

    /// The page's own operation this step is, or `None` for a script helper
    /// (`insert_many`, `roundtrip`, the imports, `save_local`, `export`).
    pub fn page_op(&self) -> Option<Op> {
        Some(match self {
            ScriptOp::SetDraft { field, value } => Op::SetDraft {
                field: *field,
                value: value.clone(),
            },
            ScriptOp::Create {} => Op::Create {},
            ScriptOp::Insert { value } => Op::Insert {
                value: value.into(),
            },
            ScriptOp::Query { value } => Op::Query {
                value: value.into(),
            },
            ScriptOp::InsertExample {} => Op::InsertExample {},
            ScriptOp::Reset {} => Op::Reset {},
            ScriptOp::SetPanel { panel, open } => Op::SetPanel {
                panel: *panel,
                open: *open,
            },
            ScriptOp::InsertMany { .. }
            | ScriptOp::Roundtrip {}
            | ScriptOp::Import { .. }
            | ScriptOp::ImportText { .. }
            | ScriptOp::ImportPadded { .. }
            | ScriptOp::SaveLocal { .. }
            | ScriptOp::Export {} => return None,
        })
    }
}

/// The result of `positions` (`fnv1a-utf16-v1`): base hashes and positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnvHashes {
    /// FNV-1a over the units from 2166136261.
    pub h1: u32,
    /// FNV-1a over the units from 0xdeadbeef, forced odd.
    pub h2: u32,
    /// The positions in order.
    pub positions: Vec<u16>,
}

/// The answer to a `save_local` step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveAnswer {
    /// `saved` or `kept`.
    pub outcome: String,
    /// Length of the stored copy, in UTF-16 code units.
    pub stored_units: usize,
    /// The warning, when the state was not saved (null otherwise).
    pub warning: Option<String>,
}

/// A step's rejection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepError {
    /// The error kind (`spec/fnv1a-utf16-v1/SESSION.md`).
    pub kind: String,
    /// The message, in the implementation's words.
    pub message: String,
}

/// The answer to one script step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepAnswer {
    /// The session's view after the step (after a rejected step: unchanged).
    pub view: Value,
    /// The rejection, if the step was rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<StepError>,
    /// For `save_local`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<SaveAnswer>,
    /// For `export`: the export text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<String>,
}

/// The result of `session`: the answer to a whole script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptAnswer {
    /// The view of the new session, before any step.
    pub initial: Value,
    /// One answer per step.
    pub steps: Vec<StepAnswer>,
}

/// The result of `estimates`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(
    missing_docs,
    reason = "the estimates are defined in spec/fnv1a-utf16-v1/SESSION.md"
)]
pub struct EstimatesAnswer {
    pub classic: f64,
    pub finite_m: f64,
    /// Exact under ideal uniform hashing.
    pub exact: f64,
    pub optimal_k: u32,
}

#[cfg(test)]
mod tests {
    use super::save_state;

    /// SESSION.md 6.6 by hand: whole fills, then `x` up to exactly `units` code units.
    #[test]
    fn a_save_state_is_whole_fills_then_x_by_hand() {
        assert_eq!(save_state(5, None).as_deref(), Some("xxxxx"));
        assert_eq!(save_state(5, Some("ab")).as_deref(), Some("ababx"));
        assert_eq!(save_state(6, Some("ab")).as_deref(), Some("ababab"));
        assert_eq!(save_state(7, Some("abc")).as_deref(), Some("abcabcx"));
        // A fill of two code units (one astral character), and one that does not fit once.
        assert_eq!(
            save_state(5, Some("\u{1f600}")).as_deref(),
            Some("\u{1f600}\u{1f600}x")
        );
        assert_eq!(save_state(1, Some("\u{1f600}")).as_deref(), Some("x"));
        assert_eq!(
            save_state(2, Some("\u{e9}")).as_deref(),
            Some("\u{e9}\u{e9}")
        );
        assert_eq!(save_state(0, Some("ab")).as_deref(), Some(""));
        assert_eq!(save_state(3, Some("")), None);
        let long = save_state(100_001, Some("ab")).unwrap_or_default();
        assert_eq!(long.encode_utf16().count(), 100_001);
        assert!(long.starts_with("abab") && long.ends_with("abx"));
    }
}
