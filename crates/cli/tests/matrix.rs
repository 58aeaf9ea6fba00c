//! `bloomproof matrix` from the binary alone: from an empty folder, with the embedded
//! spec, against the three adapters of this repository and a fourth given on the
//! command line; and its refusals.

mod common;

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .canonicalize()
        .expect("the file exists")
        .display()
        .to_string()
}

#[test]
fn the_matrix_runs_from_an_empty_folder_against_four_adapters() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let impls = [
        format!("rust-adapter={BIN} adapter"),
        format!(
            "python=python3 {}",
            repo("implementations/python/bloomproof_py/adapter.py")
        ),
        format!("javascript=node {}", repo("implementations/js/adapter.mjs")),
        format!(
            "proxied=python3 {} passthrough -- {BIN} adapter",
            repo("gallery/liar.py")
        ),
    ];
    let args: Vec<String> = impls
        .into_iter()
        .flat_map(|i| ["--impl".into(), i])
        .collect();
    let (out, stdout) = common::matrix_in(dir.path(), &args);
    let matrix: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("matrix.json")).expect("matrix.json is written"),
    )
    .expect("it is JSON");
    let names: Vec<&str> = matrix["implementations"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|i| i["name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        names,
        ["rust", "rust-adapter", "python", "javascript", "proxied"]
    );
    // Five columns, five rows: every pair cross-read, in both protocols.
    for grid in matrix["cross"].as_array().expect("grids") {
        assert_eq!(grid["cells"].as_array().map(Vec::len), Some(25));
    }
    for file in [
        "index.html",
        "failures.html",
        "summary.md",
        "badges/proxied.json",
    ] {
        assert!(out.join(file).is_file(), "{file}");
    }
    assert!(stdout.starts_with("bloomproof matrix: passed"), "{stdout}");
    assert!(
        stdout.contains("the matrix is in bloomproof-matrix: index.html"),
        "{stdout}"
    );
}

#[test]
fn a_bad_implementation_flag_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("a temp dir");
    for (args, says) in [
        (&["--impl", "no-equals-sign"][..], "--impl takes NAME=VALUE"),
        (&["--impl", "Upper=true"], "lowercase ASCII letters"),
        (&["--impl", "rust=true"], "listed twice"),
        (
            &["--implementations", "/nonexistent/file.json"],
            "/nonexistent/file.json",
        ),
        (
            &["--session-from", "page=/nonexistent.json"],
            "page=/nonexistent.json",
        ),
    ] {
        let output = Command::new(BIN)
            .current_dir(dir.path())
            .arg("matrix")
            .args(args)
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(
            !dir.path().join("bloomproof-matrix").exists(),
            "{args:?} wrote"
        );
    }
}
