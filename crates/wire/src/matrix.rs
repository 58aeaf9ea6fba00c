//! The results matrix: the list of implementations (`implementations/matrix.json`)
//! and the matrix document `bloomproof matrix` writes (`matrix.json`).
//! How a report is judged into cells is `bloomproof_matrix::judge`.

use crate::report::Failure;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The implementations file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Implementations {
    /// The schema of this file, for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Every implementation the matrix runs, in the order of its rows and columns.
    pub implementations: Vec<Implementation>,
}

/// One implementation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Implementation {
    /// A short unique name: 1 to 64 lowercase ASCII letters, digits and `-`, starting
    /// with a letter or digit (it names the badge file and the page's anchors).
    pub name: String,
    /// The adapter command (`spec/ADAPTER.md`), run with `sh -c` from the folder
    /// `bloomproof matrix` runs in; `{bloomproof}` stands for the `bloomproof` binary
    /// itself. Absent: the production Rust crates, in process. Its language and
    /// version are those its handshake gives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The checks this implementation is known to fail, each with the reason. A listed
    /// check that passes is an error (the list is stale).
    #[serde(default)]
    pub expected_failures: Vec<ExpectedFailure>,
}

/// A check an implementation is known to fail.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectedFailure {
    /// `<protocol>/<check>`, as the report names it.
    pub check: String,
    /// Why it fails, for the reader of the matrix (not empty).
    pub reason: String,
}

impl Implementations {
    /// Reads an implementations file's text, refusing unknown fields, an empty list,
    /// a bad or repeated name, an empty reason and a check listed twice; `origin`
    /// names the file in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self, String> {
        let list: Implementations =
            serde_json::from_str(text).map_err(|err| format!("{origin}: {err}"))?;
        list.check(origin)?;
        Ok(list)
    }

    /// Refuses an empty list, a bad or repeated name, an empty reason and a check
    /// listed twice; `origin` names where the list came from in errors.
    pub fn check(&self, origin: &str) -> Result<(), String> {
        let list = self;
        if list.implementations.is_empty() {
            return Err(format!("{origin}: no implementation is listed"));
        }
        let mut names = std::collections::BTreeSet::new();
        for (index, implementation) in list.implementations.iter().enumerate() {
            let at = format!("{origin}: implementations[{index}]");
            let name = &implementation.name;
            check_name(name).map_err(|why| format!("{at}: {why}"))?;
            if !names.insert(name.as_str()) {
                return Err(format!("{at}: name {name:?} is listed twice"));
            }
            let mut checks = std::collections::BTreeSet::new();
            for (entry, expected) in implementation.expected_failures.iter().enumerate() {
                let at = format!("{at} ({name}): expected_failures[{entry}]");
                if expected.reason.trim().is_empty() {
                    return Err(format!("{at}: {}: the reason is empty", expected.check));
                }
                if !checks.insert(expected.check.as_str()) {
                    return Err(format!("{at}: {} is listed twice", expected.check));
                }
            }
        }
        Ok(())
    }
}

/// The longest name of an implementation or of a session producer, in characters: a
/// name is a file name (`badges/<name>.json`) and an anchor of the page.
pub const NAME_MAX: usize = 64;

/// Refuses a name of an implementation (or of a session given to the matrix) that is
/// not 1 to [`NAME_MAX`] lowercase ASCII letters, digits and `-`, not starting with
/// `-`. The error quotes at most a short prefix of the name.
pub fn check_name(name: &str) -> Result<(), String> {
    let well_formed = name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.is_empty()
        && !name.starts_with('-');
    if !well_formed {
        return Err(format!(
            "name {}: lowercase ASCII letters, digits and `-`, not starting with `-`",
            crate::quote_prefix(name)
        ));
    }
    if name.len() > NAME_MAX {
        return Err(format!(
            "name {}: {} characters, more than a name may have ({NAME_MAX}: it names the badge file)",
            crate::quote_prefix(name),
            name.len()
        ));
    }
    Ok(())
}

/// Where a check of an implementation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every case passed; not listed.
    Passed,
    /// Failed, and listed as an expected failure.
    ExpectedFailure,
    /// Passed, but listed as an expected failure: an error.
    Stale,
    /// Failed, and not listed: an error.
    Unexpected,
}

impl Status {
    /// Whether this status fails the matrix.
    pub fn is_error(self) -> bool {
        matches!(self, Status::Stale | Status::Unexpected)
    }

    /// A word for the page and the summary.
    pub fn label(self) -> &'static str {
        match self {
            Status::Passed => "pass",
            Status::ExpectedFailure => "expected failure",
            Status::Stale => "STALE",
            Status::Unexpected => "FAIL",
        }
    }
}

/// One cell of the results table: one check of one implementation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Cell {
    /// `<protocol>/<check>`.
    pub check: String,
    /// Where it stands.
    pub status: Status,
    /// The check's conformance class: one the matrix does not require counts apart.
    pub class: crate::report::Class,
    /// Number of cases run.
    pub cases: usize,
    /// The listed reason, for an expected failure or a stale entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Every failing case.
    pub failures: Vec<Failure>,
}

/// One implementation's row of the matrix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ImplementationResult {
    /// Its name in the implementations file.
    pub name: String,
    /// Its language.
    pub language: String,
    /// Its adapter command as listed (`null`: in process).
    pub command: Option<String>,
    /// Its version, as its handshake gave it (`unknown` when it could not be run).
    pub version: String,
    /// The name the report gave it.
    pub report_name: String,
    /// Checks passed among those the verdict counts (core, adapter protocol and the
    /// classes the matrix requires).
    pub passed: usize,
    /// Checks run among those the verdict counts.
    pub total: usize,
    /// Each class's checks passed and run, in the order of `Class::ALL`.
    #[serde(default)]
    pub classes: Vec<ClassTally>,
    /// The protocols whose checks (and cross-reading) were not run: the adapter's
    /// handshake does not list them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<String>,
    /// The cases the run left out: they need a later adapter protocol than the
    /// adapter's handshake speaks (a check left out whole has no cell).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<crate::report::LeftOut>,
    /// One cell per check, in spec order.
    pub cells: Vec<Cell>,
    /// Why the implementation could not be run at all, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ImplementationResult {
    /// The shields.io endpoint badge: `{"schemaVersion": 1, "label", "message",
    /// "color"}`: green when every check passed, yellow when only expected failures
    /// failed, red otherwise.
    pub fn badge(&self) -> serde_json::Value {
        let expected = self
            .cells
            .iter()
            .filter(|cell| cell.status == Status::ExpectedFailure)
            .count();
        let color = if self.error.is_some() || self.cells.iter().any(|c| c.status.is_error()) {
            "red"
        } else if expected > 0 {
            "yellow"
        } else {
            "brightgreen"
        };
        let message = if self.error.is_some() {
            "not run".to_string()
        } else {
            self.covered()
        };
        serde_json::json!({
            "schemaVersion": 1,
            "label": format!("bloomproof {}", self.name),
            "message": message,
            "color": color,
        })
    }
}

/// One class's checks of one implementation: passed and run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassTally {
    /// The class.
    pub class: crate::report::Class,
    /// Its checks that passed.
    pub passed: usize,
    /// Its checks run.
    pub total: usize,
}

impl ImplementationResult {
    /// What the implementation's results cover, as its badge says it: each class's
    /// passed/run, then the protocols not run and the cases left out (`core 35/35,
    /// interop 40/48, adapter protocol 12/12; doc-membership-v1 not run; 10 cases left
    /// out (adapter protocol 3)`).
    pub fn covered(&self) -> String {
        let mut text = self
            .classes
            .iter()
            .map(|c| format!("{} {}/{}", c.class.heading(), c.passed, c.total))
            .collect::<Vec<_>>()
            .join(", ");
        if text.is_empty() {
            text = format!("{}/{}", self.passed, self.total);
        }
        for protocol in &self.not_run {
            text.push_str(&format!("; {protocol} not run"));
        }
        if let Some((cases, needs)) = crate::report::LeftOut::counted(&self.left_out) {
            text.push_str(&format!(
                "; {cases} {} left out (adapter protocol {needs})",
                if cases == 1 { "case" } else { "cases" }
            ));
        }
        text
    }
}

/// A check as the matrix shows it: its name and what the spec says of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatrixCheck {
    /// `<protocol>/<check>`, as the report names it.
    pub name: String,
    /// What the check asserts (its `asserts` in `checks.json`).
    pub asserts: String,
    /// Where its rule comes from (its `source` in `checks.json`).
    pub source: String,
    /// Its conformance class: a check of a class the matrix does not require is
    /// counted apart and never fails the matrix.
    pub class: crate::report::Class,
}

/// The whole matrix, as `matrix.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Matrix {
    /// The spec version every implementation ran (64 hex digits).
    pub spec_version: String,
    /// When the matrix ran, RFC 3339 in UTC.
    pub ran_at: String,
    /// Every check, in spec order (the rows of the table).
    pub checks: Vec<MatrixCheck>,
    /// One entry per implementation, in the order of the implementations file.
    pub implementations: Vec<ImplementationResult>,
    /// Cross-reading: one grid per protocol, as `bloomproof_matrix::cross` reads them.
    pub cross: Vec<crate::cross::Grid>,
    /// Everything that fails the matrix, one line each; empty when it passed.
    pub errors: Vec<String>,
    /// The classes besides core and the adapter protocol whose failures fail the
    /// matrix (`--require`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub require: Vec<crate::report::Class>,
}
