//! [`DraftField`]: which of the page's four text fields a draft or an error is about.
//!
//! Its own module so that the errors ([`crate::error`]) and the model
//! ([`crate::model`]) both use it without importing each other.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One of the four text fields of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DraftField {
    /// The number of bits.
    M,
    /// The number of hash indices.
    K,
    /// The string to insert.
    Insert,
    /// The string to query.
    Query,
}

impl DraftField {
    /// The serde name: `m`, `k`, `insert` or `query`.
    pub fn as_str(&self) -> &'static str {
        match self {
            DraftField::M => "m",
            DraftField::K => "k",
            DraftField::Insert => "insert",
            DraftField::Query => "query",
        }
    }
}

impl fmt::Display for DraftField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
