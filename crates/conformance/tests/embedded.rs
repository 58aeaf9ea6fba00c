//! The spec compiled into the binary is `spec/` on disk, file for file and byte for
//! byte, and its version is the version of `spec/`.

use bloomproof_conformance::embedded::{self, FILES};
use std::path::Path;

#[test]
fn the_embedded_spec_is_spec_on_disk() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let on_disk = embedded::files_in(&dir).unwrap_or_else(|err| panic!("{err}"));
    let mut differences = Vec::new();
    for (name, bytes) in &on_disk {
        match embedded::file(name) {
            None => differences.push(format!("spec/{name} is not embedded")),
            Some(embedded) if embedded != bytes.as_slice() => {
                differences.push(format!("spec/{name} differs from its embedded copy"));
            }
            Some(_) => {}
        }
    }
    for (name, _) in FILES {
        if !on_disk.iter().any(|(n, _)| n == name) {
            differences.push(format!("{name} is embedded but not in spec/"));
        }
    }
    assert!(
        differences.is_empty(),
        "the embedded spec differs from spec/: rebuild\n{}",
        differences.join("\n")
    );
    assert_eq!(embedded::version(&on_disk), embedded::embedded_version());
}

#[test]
fn the_embedded_spec_has_every_protocol_and_schema() {
    let names: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
    for name in [
        "doc-membership-v1/checks.json",
        "doc-membership-v1/cases.json",
        "fnv1a-utf16-v1/checks.json",
        "fnv1a-utf16-v1/cases.json",
        "schemas/checks.schema.json",
        "schemas/doc-membership-v1.cases.schema.json",
        "schemas/fnv1a-utf16-v1.cases.schema.json",
    ] {
        assert!(names.contains(&name), "{name} is not embedded: {names:?}");
    }
    let spec =
        bloomproof_conformance::load_embedded().unwrap_or_else(|errors| panic!("{errors:?}"));
    assert_eq!(
        spec.protocols.len(),
        bloomproof_conformance::PROTOCOLS.len()
    );
}

#[test]
fn an_embedded_load_error_names_the_embedded_file() {
    let errors = bloomproof_conformance::load::load_files(
        Path::new(embedded::LABEL),
        &[("doc-membership-v1/checks.json", b"{".as_slice())],
    )
    .err()
    .unwrap_or_default();
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        text.iter()
            .any(|e| e.starts_with("(embedded spec)/doc-membership-v1/checks.json: not valid JSON")),
        "{text:?}"
    );
}
