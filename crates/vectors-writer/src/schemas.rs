//! JSON Schemas (draft 2020-12) of the vector files, written from the Rust types.
//!
//! Each file kind has its own schema, `vectors/schemas/<protocol>.<kind>.schema.json`,
//! with `protocol`, `kind`, `format_version` and `$schema` pinned to their one value.

use bloomproof_vectors::FileKind;
use bloomproof_wire::vectors::{FORMAT_VERSION, VectorFileOf};
use schemars::{JsonSchema, generate::SchemaSettings};

/// The schema of the vector files of `kind`, whose cases are `C`.
pub(crate) fn render<C: JsonSchema>(kind: FileKind) -> String {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<VectorFileOf<C>>();
    schema.insert(
        "title".into(),
        format!("bloomproof vectors: {} {}", kind.protocol(), kind.kind()).into(),
    );
    schema.insert(
        "description".into(),
        format!(
            "{}: written by `cargo xtask vectors`; see vectors/README.md.",
            kind.path()
        )
        .into(),
    );
    if let Some(properties) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        for (name, value) in [
            ("$schema", serde_json::Value::from(kind.schema_ref())),
            ("protocol", kind.protocol().into()),
            ("kind", kind.kind().into()),
            ("format_version", FORMAT_VERSION.into()),
        ] {
            if let Some(property) = properties
                .get_mut(name)
                .and_then(serde_json::Value::as_object_mut)
            {
                property.insert("const".into(), value);
            }
        }
    }
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// The JSON Schema of `protocol`'s hand-picked data file, whose entries are `what`
/// (cases, inputs): (path relative to the repository root, contents).
pub(crate) fn hand_picked_schema<T: JsonSchema>(protocol: &str, what: &str) -> (String, String) {
    let data = format!("crates/vectors-writer/data/{protocol}.hand-picked");
    (
        format!("{data}.schema.json"),
        bloomproof_wire::schema::render::<T>(&format!(
            "bloomproof hand-picked {protocol} vector {what} ({data}.json)"
        )),
    )
}

/// The JSON Schema of every registered protocol's hand-picked data, as (path relative
/// to the repository root, contents).
pub fn hand_picked() -> Vec<(String, String)> {
    crate::REGISTRY
        .iter()
        .map(|protocol| (protocol.hand_picked_schema)())
        .collect()
}

/// Every schema: (file kind, schema text), each registered protocol's in turn. The
/// file name is [`FileKind::schema_file`].
pub fn all() -> Vec<(FileKind, String)> {
    crate::REGISTRY
        .iter()
        .flat_map(|protocol| (protocol.schemas)())
        .collect()
}
