//! The spec format, re-exported: the types of `checks.json` and `cases.json` that every
//! protocol shares are [`bloomproof_wire::spec`]'s, and the shared vocabulary (hex,
//! typed values, parameters) the wire crate's too. A protocol's own case types are read
//! from its module (`bloomproof_wire::protocols::doc_membership_v1::DocCase`), never
//! from here.

pub use bloomproof_wire::spec::{
    Case, CasesFile, ChecksFile, Class, DocumentedCheck, FORMAT_VERSION, GeneratedCase,
    GeneratedExpect, GeneratedInput, Generator, KnownGap, PublishedFigure, Rule, RulesFile,
    SourceDocument, SourcePassage, Span,
};
pub use bloomproof_wire::{
    ContractExpect, DocParams, ErrorKindName, Hex, RejectExpect, TypedValue,
};
