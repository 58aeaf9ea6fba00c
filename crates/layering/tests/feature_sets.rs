//! CI builds `xtask` (`cargo xtask ci`) and the `bloomproof` binary before and after
//! `cargo test --workspace`: each reuses the test build's compiled dependencies only if
//! cargo resolves every dependency they share with the same features. Where it does not,
//! the dependency and everything above it (the runner and the workspace crates) are
//! compiled twice. The manifests of `xtask` and `crates/cli` ask for the test build's
//! features by hand (as a workspace-hack crate would); this test holds them to it.

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
fn the_binaries_ci_builds_resolve_the_test_builds_features() {
    let test_build = features(&["--workspace", "--edges", "normal,build,dev"]);
    assert!(
        test_build
            .keys()
            .any(|package| package.starts_with("serde_json ")),
        "{test_build:?}"
    );
    let mut differ = Vec::new();
    for binary in ["xtask", "bloomproof"] {
        for (package, features) in features(&["--package", binary, "--edges", "normal,build"]) {
            let tested = test_build.get(&package);
            if tested != Some(&features) {
                differ.push(format!(
                    "{binary}'s build: {package} with [{features}], the test build's with [{}]",
                    tested.map_or("(not built)", String::as_str)
                ));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "ask for the test build's features in the binary's manifest (see xtask/Cargo.toml):\n{}",
        differ.join("\n")
    );
}
