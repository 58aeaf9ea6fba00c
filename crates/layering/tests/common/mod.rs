//! What the layering tests share.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// `cargo metadata --format-version 1` of the workspace, with the resolved graph of every
/// dependency (`deps`) or of the workspace's own packages alone (`--no-deps`).
pub fn cargo_metadata(deps: bool) -> Value {
    let mut command = Command::new(env!("CARGO"));
    command
        .args(["metadata", "--format-version", "1"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    if !deps {
        command.arg("--no-deps");
    }
    let output = command.output().expect("could not run `cargo metadata`");
    assert!(
        output.status.success(),
        "`cargo metadata` failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("`cargo metadata` printed invalid JSON")
}
