//! The README's adapter skeleton ("Zero to green") is whole and passes the handshake:
//! run as written, it is accepted, its one operation passes where a check asks only for
//! it, and the protocol it does not list is reported as not run. The block is read from
//! the README itself, so the README cannot drift from what works.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

fn skeleton() -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("the README");
    let marker =
        "<!-- skeleton: crates/cli/tests/readme_skeleton.rs runs this block -->\n```python\n";
    let start = readme.find(marker).expect("the skeleton's marker") + marker.len();
    let end = start + readme[start..].find("```\n").expect("the block's end");
    readme[start..end].to_string()
}

#[test]
fn the_readme_skeleton_passes_the_handshake() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my_adapter.py");
    std::fs::write(&path, skeleton()).unwrap();
    let command = format!("python3 {}", path.display());
    let out = Command::new(BIN)
        .current_dir(dir.path())
        .args(["conformance", "--impl", &command, "--no-times"])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    // Checks ran (most fail: exit 1), not a refused handshake (exit 2).
    assert_eq!(out.status.code(), Some(1), "{report}\n{err}");
    assert!(
        report.contains(
            "adapter: my-bloom 0.0.1 (Python), adapter protocol 3, implements doc-membership-v1"
        ),
        "{report}"
    );
    assert!(report.contains("not run: fnv1a-utf16-v1 ("), "{report}");
    assert!(
        !report.contains("fnv1a-utf16-v1  "),
        "an fnv check ran:\n{report}"
    );
    // A few KB for a run where nearly everything fails.
    assert!(
        report.len() < 16 * 1024,
        "{} bytes:\n{report}",
        report.len()
    );
}

/// Every `<!-- sample: ARGS -->` block of the README is what `bloomproof ARGS` prints, but
/// for the spec version (16 hex digits there, whichever spec this is): the samples are
/// output, not prose that drifts.
#[test]
fn the_readme_samples_are_what_the_binary_prints() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("the README");
    let mut samples = 0;
    for (at, _) in readme.match_indices("<!-- sample: ") {
        let rest = &readme[at + "<!-- sample: ".len()..];
        let args = &rest[..rest.find(" -->").expect("the marker's end")];
        let body = &rest[rest
            .find("```text\n")
            .expect("a text block after the marker")
            + 8..];
        let shown = &body[..body.find("```\n").expect("the block's end")];
        let out = Command::new(BIN)
            .args(args.split_whitespace())
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&out.stdout);
        let version = |text: &str| -> String {
            text.lines()
                .map(|line| match line.strip_prefix("spec version: ") {
                    Some(v) if v.len() == 16 && v.bytes().all(|b| b.is_ascii_hexdigit()) => {
                        "spec version: <16 hex digits>\n".to_string()
                    }
                    _ => format!("{line}\n"),
                })
                .collect()
        };
        assert_eq!(
            version(shown),
            version(&printed),
            "the README's sample of `bloomproof {args}` is stale; the binary prints:\n{printed}"
        );
        samples += 1;
    }
    assert!(samples > 0, "the README holds no sample");
}

/// The skeleton survives what the adapter protocol's own checks send (a line that is not
/// JSON, a line that is JSON but not an object, a missing field, a negative `m`): each
/// gets a `bad_request` answer and the next request is still answered, so the runner
/// never has to start it again. Before, each of these lines ended it.
#[test]
fn the_readme_skeleton_survives_bad_lines() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my_adapter.py");
    std::fs::write(&path, skeleton()).unwrap();
    let mut child = Command::new("python3")
        .arg(&path)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let lines = [
        "this is not JSON",
        "[1, 2]",
        "3",
        r#"{"id": 1, "op": "sha256"}"#,
        r#"{"id": 2, "op": "sha256", "data": "zz"}"#,
        r#"{"id": 3, "op": "positions", "params": {"m": -1, "k": 2}, "message": "00"}"#,
        r#"{"id": 4, "op": "build", "params": {"m": -16, "k": 3, "seed": ""}, "items": []}"#,
        r#"{"id": 5, "op": "sha256", "data": "616263"}"#,
    ];
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let answers: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(
        answers.len(),
        lines.len(),
        "one answer per line:\n{stdout}\n{stderr}"
    );
    for (line, answer) in lines.iter().zip(&answers[..lines.len() - 1]) {
        assert_eq!(answer["error"]["kind"], "bad_request", "{line} -> {answer}");
    }
    for answer in &answers[..3] {
        assert!(answer["id"].is_null(), "{answer}");
    }
    // SHA-256("abc"), FIPS 180-2's first example.
    assert_eq!(
        answers[lines.len() - 1],
        serde_json::json!({"id": 5, "result": {"digest": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}})
    );
}
