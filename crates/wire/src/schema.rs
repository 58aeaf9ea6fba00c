//! The one rendering of a type's JSON Schema as a committed file's text.

use schemars::{JsonSchema, generate::SchemaSettings};

/// One type's schema (JSON Schema 2020-12) with a title, as a file's text (pretty
/// printed, one final newline).
pub fn render<T: JsonSchema>(title: &str) -> String {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<T>();
    schema.insert("title".into(), title.into());
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
