//! JSON Schemas of the spec files, the adapter messages, the session export file and the
//! report, generated from the Rust types.

use crate::model::{CasesFile, ChecksFile, DocCase, FnvCase};
use schemars::{JsonSchema, generate::SchemaSettings};

/// One type's schema (JSON Schema 2020-12) with a title, as a file's text.
pub fn render<T: JsonSchema>(title: &str) -> String {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<T>();
    schema.insert("title".into(), title.into());
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// Every schema file, as (file name under `spec/schemas/`, contents).
pub fn all() -> Vec<(&'static str, String)> {
    vec![
        (
            "checks.schema.json",
            render::<ChecksFile>("bloomproof documented checks (spec/<protocol>/checks.json)"),
        ),
        (
            "doc-membership-v1.cases.schema.json",
            render::<CasesFile<DocCase>>("bloomproof doc-membership-v1 cases"),
        ),
        (
            "fnv1a-utf16-v1.cases.schema.json",
            render::<CasesFile<FnvCase>>("bloomproof fnv1a-utf16-v1 cases"),
        ),
        (
            "adapter.schema.json",
            render::<bloomproof_wire::adapter::Messages>(
                "bloomproof adapter messages (spec/ADAPTER.md): each property is one request or result",
            ),
        ),
        (
            "accumulated.schema.json",
            render::<bloomproof_wire::accumulated::AccumulatedFile>(
                "bloomproof accumulated checks: the published digests (spec/accumulated.json)",
            ),
        ),
        (
            "session-file.schema.json",
            render::<bloomproof_wire::session::file::FileV1>(
                "bloomproof session export file, version 1 (spec/fnv1a-utf16-v1/SESSION.md)",
            ),
        ),
        (
            "rules.schema.json",
            render::<bloomproof_wire::spec::RulesFile>("bloomproof rule ids (spec/rules.json)"),
        ),
        (
            "adapter-protocol.schema.json",
            render::<bloomproof_wire::adapter_checks::WireFile>(
                "bloomproof adapter protocol checks (spec/adapter-protocol.json)",
            ),
        ),
        (
            "report.schema.json",
            render::<bloomproof_wire::report::Report>(
                "bloomproof conformance report (`bloomproof conformance --format json`)",
            ),
        ),
    ]
}
