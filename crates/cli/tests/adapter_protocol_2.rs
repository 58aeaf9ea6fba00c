//! An adapter of adapter protocol 2 (ADAPTER.md "Changes", version 3) still runs and
//! passes everything it passed: the runner accepts its handshake, sends it no request
//! that needs version 3 (a `save_local` with a `fill`, which it would refuse), reports
//! the cases left out plainly (`not run:` for a check left with none, `left out:` for
//! a check that ran without some), and every other check runs the same inputs to the
//! same verdict as through an adapter of version 3.

mod common;

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

/// `bloomproof adapter` behind a proxy that speaks adapter protocol 2.
fn protocol_2() -> String {
    common::proxy("protocol_2.py", "")
}

/// The JSON report of the fnv checks through `command`, and the exit status.
fn conformance(command: &str) -> (Option<i32>, serde_json::Value, String) {
    let (code, text, stderr) =
        common::conformance_through(command, &["--format", "json", "fnv1a-utf16-v1/"]);
    let report = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
    (code, report, format!("{text}\n{stderr}"))
}

#[test]
fn an_adapter_of_protocol_2_passes_without_the_fill_cases() {
    let (code, old, shown) = conformance(&protocol_2());
    assert_eq!(code, Some(0), "{shown}");
    assert_eq!(old["adapter"]["adapter_protocol"], 2, "{shown}");
    assert_eq!(old["failed"], 0, "{shown}");
    let (code, new, shown_new) = conformance(&format!("'{BIN}' adapter"));
    assert_eq!(code, Some(0), "{shown_new}");
    assert_eq!(new["adapter"]["adapter_protocol"], 3, "{shown_new}");
    assert!(new.get("left_out").is_none(), "{shown_new}");

    // What was left out, by check: the fixed check whole, the generated checks' fill
    // cases.
    let left: Vec<(String, bool, Vec<String>)> = old["left_out"]
        .as_array()
        .expect("left_out")
        .iter()
        .map(|l| {
            assert_eq!(l["needs"], 3);
            (
                l["check"].as_str().unwrap_or_default().to_string(),
                l["whole"].as_bool().unwrap_or_default(),
                serde_json::from_value(l["cases"].clone()).unwrap_or_default(),
            )
        })
        .collect();
    let fnv = |name: &str| format!("fnv1a-utf16-v1/{name}");
    assert_eq!(
        left,
        [
            (
                fnv("generated_sessions_agree_with_model"),
                false,
                vec!["25-generated/save-fills".to_string()]
            ),
            (
                fnv("generated_sessions_follow_the_page"),
                false,
                vec!["33-generated/save-fills-page".to_string()]
            ),
            (
                fnv("local_save_counts_code_units"),
                true,
                ["astral", "bmp", "cjk", "three-units", "combining"]
                    .map(|c| format!("34-fill-{c}"))
                    .to_vec()
            ),
        ]
    );

    // Every other check ran, on the same cases less those left out, and passed.
    let checks = |report: &serde_json::Value| -> Vec<(String, u64, usize)> {
        report["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or_default().to_string(),
                    c["cases"].as_u64().unwrap_or_default(),
                    c["failures"].as_array().map_or(0, Vec::len),
                )
            })
            .collect()
    };
    let expected: Vec<(String, u64, usize)> = checks(&new)
        .into_iter()
        .filter(|(name, ..)| name != "local_save_counts_code_units")
        .map(|(name, cases, failures)| {
            let fewer = left
                .iter()
                .any(|(check, whole, _)| !whole && *check == fnv(&name));
            (name, cases - u64::from(fewer), failures)
        })
        .collect();
    assert_eq!(checks(&old), expected);
    assert!(checks(&old).iter().all(|(_, _, failures)| *failures == 0));

    // The text report names each left-out case and the version it needs.
    let text = Command::new(BIN)
        .args([
            "conformance",
            "--impl",
            &protocol_2(),
            "--no-times",
            "--seed",
            "7",
        ])
        .arg("local_save")
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("not run: fnv1a-utf16-v1/local_save_counts_code_units (cases 34-fill-astral, 34-fill-bmp, 34-fill-cjk, 34-fill-three-units, 34-fill-combining): they need adapter protocol 3, the adapter speaks 2"),
        "{text}"
    );
}

/// The matrix names what it left out of a protocol-2 adapter's run: its badge says how
/// many cases and the version they need, `matrix.json` lists them by check, and the
/// page's tally of fnv1a-utf16-v1 says the check left out whole and the cases left out
/// of the checks that ran.
#[test]
fn the_matrix_names_the_cases_left_out() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let args = ["--impl".to_string(), format!("old={}", protocol_2())];
    let (out, _) = common::matrix_in(dir.path(), &args);
    let read = |path: std::path::PathBuf| std::fs::read_to_string(path).expect("written");
    let badge: serde_json::Value =
        serde_json::from_str(&read(out.join("badges/old.json"))).expect("JSON");
    let message = badge["message"].as_str().unwrap_or_default();
    assert!(
        message.ends_with("cases left out (adapter protocol 3)"),
        "{message}"
    );
    let matrix: serde_json::Value =
        serde_json::from_str(&read(out.join("matrix.json"))).expect("JSON");
    let old = matrix["implementations"]
        .as_array()
        .and_then(|all| all.iter().find(|i| i["name"] == "old"))
        .expect("the implementation `old`");
    let left = &old["left_out"];
    let cases: usize = left
        .as_array()
        .expect("left_out")
        .iter()
        .map(|l| l["cases"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(
        message.contains(&format!("; {cases} cases left out")),
        "{message}"
    );
    assert!(
        left.as_array().expect("left_out").iter().any(|l| l["check"]
            == "fnv1a-utf16-v1/local_save_counts_code_units"
            && l["whole"] == true),
        "{left}"
    );
    let page = read(out.join("index.html"));
    assert!(
        page.contains("1 check left out (they need adapter protocol 3)"),
        "the page names the check left out whole"
    );
    assert!(
        page.contains("cases left out (they need adapter protocol 3)"),
        "the page names the cases left out"
    );
}

/// `--require every-case` fails a run that left cases out, naming how many, the
/// version they need and the one the adapter speaks; the matrix fails the same way.
/// An adapter of the current protocol leaves nothing out and passes with the flag.
#[test]
fn every_case_required_fails_a_run_that_left_cases_out() {
    let (code, text, stderr) = common::conformance_through(
        &protocol_2(),
        &["--require", "every-case", "fnv1a-utf16-v1/"],
    );
    assert_eq!(code, Some(1), "{text}\n{stderr}");
    assert!(text.contains(" 0 failed"), "{text}");
    assert!(
        stderr.contains("left out of")
            && stderr.contains("(they need adapter protocol 3, the adapter speaks 2)"),
        "{stderr}"
    );
    let (code, text, stderr) = common::conformance_through(
        &format!("'{BIN}' adapter"),
        &["--require", "every-case", "fnv1a-utf16-v1/"],
    );
    assert_eq!(code, Some(0), "{text}\n{stderr}");

    let dir = tempfile::tempdir().expect("a temp dir");
    let output = Command::new(BIN)
        .current_dir(dir.path())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .args(["matrix", "--require", "every-case", "--impl"])
        .arg(format!("old={}", protocol_2()))
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        format!("{stdout}{stderr}")
            .contains("cases left out (adapter protocol 3), and --require every-case counts them"),
        "{stdout}\n{stderr}"
    );
}
