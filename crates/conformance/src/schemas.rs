//! JSON Schemas of the spec files, the adapter messages, the session export file and the
//! report, written from the Rust types.

use crate::model::ChecksFile;
pub use bloomproof_wire::schema::render;

/// Every schema file, as (file name under `spec/schemas/`, contents): the checks
/// file's, each registered protocol's cases file's, then the shared ones.
pub fn all() -> Vec<(String, String)> {
    let checks = (
        "checks.schema.json",
        render::<ChecksFile>("bloomproof documented checks (spec/<protocol>/checks.json)"),
    );
    let shared: Vec<(&str, String)> = vec![
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
            render::<bloomproof_wire::protocols::fnv1a_utf16_v1::session::file::FileV1>(
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
    ];
    std::iter::once(checks)
        .map(|(name, text)| (name.to_string(), text))
        .chain(crate::protocols::REGISTRY.iter().map(|entry| {
            (
                format!("{}.cases.schema.json", entry.name()),
                entry.cases_schema(),
            )
        }))
        .chain(
            shared
                .into_iter()
                .map(|(name, text)| (name.to_string(), text)),
        )
        .collect()
}
