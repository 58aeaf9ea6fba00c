//! The self-contained runner: `bloomproof conformance` runs the spec built into the
//! binary from any directory, `bloomproof spec export` writes that spec out, and the
//! report names the spec's version.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bloomproof_conformance::embedded;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn an_adapter_run_from_an_empty_directory_is_the_run_inside_the_repository() {
    let adapter = repo().join("implementations/python/bloomproof_py/adapter.py");
    let command = format!("python3 {}", adapter.display());
    let empty = tempfile::tempdir().unwrap();
    let outside = run(
        empty.path(),
        // One seed, so that both runs draw the same generated inputs.
        &[
            "conformance",
            "--no-times",
            "--seed",
            "1",
            "--impl",
            &command,
        ],
    );
    assert_eq!(outside.status.code(), Some(0), "{}", stderr(&outside));
    let inside = run(
        &repo(),
        &[
            "conformance",
            "--no-times",
            "--seed",
            "1",
            "--spec",
            "spec",
            "--impl",
            &command,
        ],
    );
    assert_eq!(inside.status.code(), Some(0), "{}", stderr(&inside));
    assert_eq!(stdout(&outside), stdout(&inside));
    let text = stdout(&outside);
    assert!(text.contains(" passed, 0 failed\n"), "{text}");
    let version = embedded::embedded_version();
    assert!(
        text.contains(&format!("\nspec version: {}\n", &version[..16])),
        "{text}"
    );
    // Nothing was written into the empty directory.
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0);
}

#[test]
fn the_json_report_names_the_full_version() {
    let empty = tempfile::tempdir().unwrap();
    let out = run(
        empty.path(),
        &["conformance", "--format", "json", "empty_snapshot"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["spec_version"].as_str(),
        Some(embedded::embedded_version().as_str())
    );
}

#[test]
fn spec_export_writes_spec_byte_for_byte_and_refuses_to_overwrite() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("exported");
    let dir_arg = dir.to_str().unwrap();
    let out = run(temp.path(), &["spec", "export", dir_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let exported = embedded::files_in(&dir).unwrap();
    let on_disk = embedded::files_in(&repo().join("spec")).unwrap();
    assert_eq!(
        exported.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        on_disk.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    for ((name, a), (_, b)) in exported.iter().zip(&on_disk) {
        assert!(a == b, "{name} differs from spec/{name}");
    }
    // Every document the suite enforces is written beside the JSON, byte for byte, and
    // the binary prints each one.
    for (name, _) in embedded::DOCUMENTS {
        let on_disk = std::fs::read(repo().join("spec").join(name)).unwrap();
        assert_eq!(std::fs::read(dir.join(name)).unwrap(), on_disk, "{name}");
        let shown = run(temp.path(), &["spec", "show", name]);
        assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
        assert_eq!(shown.stdout, on_disk, "spec show {name}");
    }
    for name in ["ADAPTER.md", "SESSION.md", "doc-membership-v1/PROTOCOL.md"] {
        assert!(
            embedded::DOCUMENTS.iter().any(|(n, _)| n.ends_with(name)),
            "{name}"
        );
    }
    let unknown = run(temp.path(), &["spec", "show", "PROTOCOL.md"]);
    assert_eq!(
        unknown.status.code(),
        Some(2),
        "two documents have that file name"
    );
    assert!(stderr(&unknown).contains("fnv1a-utf16-v1/PROTOCOL.md"));
    let rules = run(temp.path(), &["spec", "rules"]);
    assert_eq!(rules.status.code(), Some(0), "{}", stderr(&rules));
    assert!(stdout(&rules).contains(
        "DOC-HASH-MESSAGE  [core]  (doc-membership-v1/PROTOCOL.md)\n  source: seed 000, section 2"
    ));
    assert!(
        stdout(&rules)
            .contains("SESSION-8.5  [interop]  (fnv1a-utf16-v1/SESSION.md)\n  decision: ")
    );
    assert!(stdout(&rules).contains("\n  doc-membership-v1/08-"));
    assert!(stdout(&rules).ends_with(" known gaps\n"));
    // The exported folder runs, with the embedded spec's version.
    let run_exported = run(
        temp.path(),
        &["conformance", "--spec", dir_arg, "empty_snapshot"],
    );
    assert_eq!(
        run_exported.status.code(),
        Some(0),
        "{}",
        stderr(&run_exported)
    );
    assert!(stdout(&run_exported).contains(&embedded::embedded_version()[..16]));

    // Not empty: refused, exit 2, one clear line; nothing changed.
    std::fs::write(dir.join("mine.txt"), "keep").unwrap();
    std::fs::write(dir.join("doc-membership-v1/cases.json"), "edited").unwrap();
    let again = run(temp.path(), &["spec", "export", dir_arg]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("is not empty"),
        "{}",
        stderr(&again)
    );
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    assert_eq!(
        std::fs::read_to_string(dir.join("doc-membership-v1/cases.json")).unwrap(),
        "edited"
    );
    // --force overwrites the spec files and leaves others.
    let forced = run(temp.path(), &["spec", "export", "--force", dir_arg]);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    assert_eq!(
        std::fs::read(dir.join("doc-membership-v1/cases.json")).unwrap(),
        std::fs::read(repo().join("spec/doc-membership-v1/cases.json")).unwrap()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("mine.txt")).unwrap(),
        "keep"
    );

    // A file in the way: exit 2.
    let file = temp.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let onto_file = run(temp.path(), &["spec", "export", file.to_str().unwrap()]);
    assert_eq!(onto_file.status.code(), Some(2));
    assert!(
        stderr(&onto_file).contains("is not a folder"),
        "{}",
        stderr(&onto_file)
    );
}

fn version_of(spec: &Path) -> String {
    let out = run(
        spec,
        &[
            "conformance",
            "--spec",
            spec.to_str().unwrap(),
            "--format",
            "json",
            "empty_snapshot",
        ],
    );
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|err| panic!("{err}: {}", stderr(&out)));
    report["spec_version"].as_str().unwrap().to_string()
}

#[test]
fn one_changed_byte_of_a_case_changes_the_version() {
    let temp = tempfile::tempdir().unwrap();
    let copy = temp.path().join("spec");
    let out = run(temp.path(), &["spec", "export", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let before = version_of(&copy);
    assert_eq!(before, embedded::embedded_version());

    // One byte of one case's comment: the case still loads and passes.
    let cases = copy.join("doc-membership-v1/cases.json");
    let mut bytes = std::fs::read(&cases).unwrap();
    let at = bytes
        .windows(12)
        .position(|w| w == b"\"comment\": \"")
        .expect("a case comment")
        + 12;
    bytes[at] = if bytes[at] == b'x' { b'y' } else { b'x' };
    std::fs::write(&cases, &bytes).unwrap();
    let after = version_of(&copy);
    assert_eq!(after.len(), 64);
    assert_ne!(before, after);
}
