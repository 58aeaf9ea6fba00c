//! The spec files: `spec/<protocol>/checks.json` and `spec/<protocol>/cases.json`.
//!
//! A case names its check as a plain string (`"check"`, which `checks.json` must
//! document) and its shape (`"shape"`), which picks how it is evaluated: the shape fixes
//! the form of `input` and `expect`, and every case states in `expect` all that it
//! asserts. Several checks share a shape; a check never needs a type of its own. Unknown
//! fields are refused at every depth. `spec/schemas/` is written from these types.
//!
//! Each protocol's own case types are defined in its module of [`crate::protocols`]
//! (`protocols/<protocol>/spec.rs`) and read from there
//! (`bloomproof_wire::protocols::doc_membership_v1::<Type>`): this module holds only
//! what every protocol shares.

pub use crate::report::{Class, PublishedFigure};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The format version of the spec files this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// `checks.json`: the documented checks of one protocol.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChecksFile {
    /// Path of the JSON Schema of this file, relative to the file.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// The protocol, e.g. `doc-membership-v1`.
    pub protocol: String,
    /// Spec format version; this runner reads version 1.
    pub format_version: u32,
    /// Number of entries in `checks`; a mismatch is a load error.
    pub check_count: usize,
    /// The checks, each reported by name.
    pub checks: Vec<DocumentedCheck>,
    /// Figures the source document published. A run shows each beside the value the
    /// implementation gave and marks a difference.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub published_figures: Vec<PublishedFigure>,
}

/// One documented check.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentedCheck {
    /// Stable name, reported as `<protocol>/<name>`.
    pub name: String,
    /// What the check asserts, in one or two sentences.
    pub asserts: String,
    /// Where the rule comes from: the seed document and section, or `bloomproof`
    /// for checks this project adds to pin the protocol down.
    pub source: String,
    /// Its conformance class: `core` (what the source documents state), `interop`
    /// (bloomproof's own decisions that make implementations agree), `hardening`
    /// (tamper resistance beyond the sources) or, in `adapter-protocol.json`, `adapter`
    /// (the adapter protocol's own rules). Core and adapter checks always count in the
    /// verdict; the others under `--require`.
    pub class: Class,
    /// The ids of the rules it enforces (`spec/rules.json`): every case of the check
    /// pins them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// What part of the check runs inside the implementation (its adapter), where the
    /// runner cannot watch it; the report prints it beside the check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inside_implementation: Option<String>,
}

/// `spec/rules.json`: every normative rule and worked example of the protocol
/// documents, by stable id.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    /// Path of the JSON Schema of this file, relative to the file.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// Spec format version; this runner reads version 1.
    pub format_version: u32,
    /// What the file is, for readers.
    pub comment: String,
    /// Number of entries in `rules`; a mismatch is a load error.
    pub rule_count: usize,
    /// The rules.
    pub rules: Vec<Rule>,
    /// Rules no case pins yet, each with the reason.
    pub known_gaps: Vec<KnownGap>,
}

/// One rule: its id and where it is stated.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable id (`DOC-HASH-MESSAGE`, `SESSION-5.1`, `ADAPTER-FRAMING`).
    pub id: String,
    /// The document that states it, relative to the spec folder.
    pub document: String,
    /// The section heading that states it, for documents that do not tag each rule
    /// with `[ID]` (SESSION.md, ADAPTER.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// Its origin: `core` (a source document states it), `interop` (this project's
    /// decision, so that implementations agree), `hardening` (tamper resistance beyond
    /// the sources) or `adapter` (the wire any adapter speaks to be tested at all).
    pub class: Class,
    /// For a `core` rule (and only for one): the source passage it restates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourcePassage>,
    /// For every other class: why bloomproof decided so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
}

/// The source document a core rule restates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum SourceDocument {
    /// Seed 000, the Persian lesson whose Python prefilter `doc-membership-v1` restates.
    #[serde(rename = "seed 000")]
    Seed000,
    /// Seed 002, the French interactive page `fnv1a-utf16-v1` restates.
    #[serde(rename = "seed 002")]
    Seed002,
}

impl SourceDocument {
    /// The name `rules.json` spells it with.
    pub fn name(self) -> &'static str {
        match self {
            SourceDocument::Seed000 => "seed 000",
            SourceDocument::Seed002 => "seed 002",
        }
    }
}

/// Where a source document states a core rule, and what it says, in this project's
/// words (never a quotation or translation of the seed).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourcePassage {
    /// The source document.
    pub document: SourceDocument,
    /// Its section, paragraph and lines (`section 2, paragraph 3 (line 17)`).
    #[serde(rename = "where")]
    pub place: String,
    /// What the passage says, in this project's words.
    pub says: String,
}

/// A rule without a case, and why.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KnownGap {
    /// The rule's id.
    pub rule: String,
    /// Why no case pins it.
    pub reason: String,
}

/// `cases.json`: every case of one protocol.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CasesFile<C> {
    /// Path of the JSON Schema of this file, relative to the file.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// The protocol, e.g. `doc-membership-v1`.
    pub protocol: String,
    /// Spec format version; this runner reads version 1.
    pub format_version: u32,
    /// Number of entries in `cases`; a mismatch is a load error.
    pub case_count: usize,
    /// Every flag a case may carry, with what it means.
    pub flags: BTreeMap<String, String>,
    /// The cases, each tagged with its `shape`.
    pub cases: Vec<C>,
}

/// Fields every case has, whatever its shape: a stable `id`, unique in the file
/// (`<check number>-<group>/<name>`); the `check` it belongs to, a name `checks.json`
/// documents; optional `flags` from the file's `flags` table and a `comment` for
/// readers; the `input` the implementation is given, and in `expect` everything a
/// conforming implementation shows on it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[expect(
    missing_docs,
    reason = "described together in the struct's documentation"
)]
pub struct Case<I, E> {
    pub id: String,
    pub check: String,
    /// Every rule id this case pins: its check's, then its own (spec/README.md,
    /// "Rule ids"); the loader fails a case that names none or leaves one of its
    /// check's out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    pub input: I,
    pub expect: E,
}

// ---------------------------------------------------------------------------------
// generated inputs (both protocols)

/// An inclusive range `[min, max]`.
pub type Span = [u32; 2];

/// The domain a `generated` case draws from: fresh inputs on every run, from a seed
/// the report prints (`--seed N` replays them, `--random N` draws N instead of
/// `count`). Each range is inclusive; the generator reads the ones it needs (the
/// loader refuses a case that lacks one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneratedInput {
    /// What is drawn and compared.
    pub generator: Generator,
    /// Inputs drawn per run unless `--random N` asks for another number.
    pub count: u32,
    /// The filter size m.
    pub m: Span,
    /// The number of hash indices k.
    pub k: Span,
    /// `doc-membership-v1`: seed length in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_bytes: Option<Span>,
    /// `doc-membership-v1`: item and record length in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_bytes: Option<Span>,
    /// `doc-membership-v1`: records per snapshot (repeats included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<Span>,
    /// `fnv1a-utf16-v1`: string length in UTF-16 code units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<Span>,
    /// `fnv1a-utf16-v1` estimates: the number of distinct entries n.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<Span>,
    /// `fnv1a-utf16-v1` sessions: steps per script.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Span>,
}

/// A `generated` case, as either protocol's cases file holds it.
pub type GeneratedCase = Case<GeneratedInput, GeneratedExpect>;

/// What a `generated` case asserts: each listed answer equals the reference's on
/// every drawn input (`oracle` or `session_model`), and every answer keeps the
/// invariants (k positions, each below m; `ceil(m/8)` packed bytes; no bit at or
/// above m).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneratedExpect {
    /// `oracle` (`crates/oracle`) or `session_model` (`crates/session`).
    pub equal_to: String,
    /// The answers compared, by operation (`positions`, `frame`, `build`,
    /// `lookup_many`, `read`, `read_damaged`, `typed`, `typed_field`, `estimates`,
    /// `view`, `error`, `save`, `export`).
    pub compared: Vec<String>,
}

macro_rules! case_common {
    ($ty:ident { $($variant:ident: $shape:literal),* $(,)? }) => {
        impl $ty {
            /// The case's id.
            pub fn id(&self) -> &str {
                match self { $($ty::$variant(case) => &case.id,)* }
            }

            /// The check the case belongs to.
            pub fn check(&self) -> &str {
                match self { $($ty::$variant(case) => &case.check,)* }
            }

            /// The rule ids the case pins beyond its check's.
            pub fn rules(&self) -> &[String] {
                match self { $($ty::$variant(case) => &case.rules,)* }
            }

            /// The case's flags.
            pub fn flags(&self) -> &[String] {
                match self { $($ty::$variant(case) => &case.flags,)* }
            }

            /// The case's shape: its `shape` tag in the data.
            pub fn shape(&self) -> &'static str {
                match self { $($ty::$variant(_) => $shape,)* }
            }
        }

        impl $crate::spec::ShapedCase for $ty {
            fn parts(&self) -> (&str, &str, &[String], &'static str) {
                (self.id(), self.check(), self.rules(), self.shape())
            }

            fn generated(
                &self,
            ) -> Option<&$crate::spec::Case<$crate::spec::GeneratedInput, $crate::spec::GeneratedExpect>> {
                match self {
                    $ty::Generated(case) => Some(case),
                    _ => None,
                }
            }
        }
    };
}

/// What every protocol's case enum (`DocCase`, `FnvCase`) answers whatever the case's
/// shape (each enum's `case_common!` implements it: every protocol has a `Generated`
/// variant).
pub trait ShapedCase {
    /// The case's id, check, rules beyond its check's, and shape.
    fn parts(&self) -> (&str, &str, &[String], &'static str);

    /// The case, when it is a generated one.
    fn generated(&self) -> Option<&Case<GeneratedInput, GeneratedExpect>>;
}

pub use crate::protocols::Generator;
pub(crate) use case_common;
