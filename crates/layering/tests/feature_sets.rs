//! CI builds `xtask` (`cargo xtask ci`) and the `bloomproof` binary before and after
//! `cargo test --workspace --no-run`, and runs the tests in two halves (the runner's and
//! the explorer's packages, and the rest of the workspace: `xtask/src/ci.rs`): each
//! reuses the test build's compiled dependencies only if cargo resolves every dependency
//! they share with the same features. Where it does not, the dependency and everything
//! above it (the runner and the workspace crates) are compiled twice, and a half that
//! builds holds the target folder's lock while the other waits. The manifests of `xtask`
//! and `crates/cli` ask for the test build's features by hand (as a workspace-hack crate
//! would); this test holds the four builds to it.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Each package `cargo tree` resolves for `args` (its name and version) and its features,
/// comma-separated. Workspace packages and proc macros (built for the host, apart) are
/// left out.
fn features(args: &[&str]) -> BTreeMap<String, String> {
    let output = Command::new(env!("CARGO"))
        .args([
            "tree", "--locked", "--prefix", "none", "--format", "{p}|{f}",
        ])
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("could not run `cargo tree`");
    assert!(
        output.status.success(),
        "`cargo tree {}` failed:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        // A package shown before is marked ` (*)`, after its features.
        .filter_map(|line| line.trim_end_matches(" (*)").split_once('|'))
        .filter(|(package, _)| !package.contains("(/") && !package.ends_with("(proc-macro)"))
        .map(|(package, features)| (package.to_owned(), features.to_owned()))
        .collect()
}

#[test]
fn the_builds_ci_makes_resolve_the_test_builds_features() {
    let test_build = features(&["--workspace", "--edges", "normal,build,dev"]);
    assert!(
        test_build
            .keys()
            .any(|package| package.starts_with("serde_json ")),
        "{test_build:?}"
    );
    let builds: [(&str, &[&str]); 4] = [
        (
            "xtask's build",
            &["--package", "xtask", "--edges", "normal,build"],
        ),
        (
            "bloomproof's build",
            &["--package", "bloomproof", "--edges", "normal,build"],
        ),
        (
            "the runner's and the explorer's tests",
            &[
                "--package",
                "bloomproof-conformance",
                "--package",
                "bloomproof-explorer",
                "--edges",
                "normal,build,dev",
            ],
        ),
        (
            "the other packages' tests",
            &[
                "--workspace",
                "--exclude",
                "bloomproof-conformance",
                "--exclude",
                "bloomproof-explorer",
                "--edges",
                "normal,build,dev",
            ],
        ),
    ];
    let mut differ = Vec::new();
    for (build, args) in builds {
        for (package, features) in features(args) {
            let tested = test_build.get(&package);
            if tested != Some(&features) {
                differ.push(format!(
                    "{build}: {package} with [{features}], the test build's with [{}]",
                    tested.map_or("(not built)", String::as_str)
                ));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "ask for the test build's features in the manifest (see xtask/Cargo.toml):\n{}",
        differ.join("\n")
    );
}
