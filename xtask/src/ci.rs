//! `cargo xtask ci`: the whole test command. Each step runs in order; the run stops at
//! the first failing step and names it.

use std::process::Command;
use std::time::Instant;

/// One step: a name and the command line.
struct Step {
    name: &'static str,
    program: &'static str,
    args: Vec<&'static str>,
    env: Vec<(&'static str, &'static str)>,
}

fn cargo(name: &'static str, args: &[&'static str]) -> Step {
    Step {
        name,
        program: "cargo",
        args: args.to_vec(),
        env: Vec::new(),
    }
}

fn steps() -> Vec<Step> {
    vec![
        cargo("rustfmt", &["fmt", "--all", "--check"]),
        cargo(
            "rustfmt (fuzz targets)",
            &["fmt", "--manifest-path", "fuzz/Cargo.toml", "--check"],
        ),
        Step {
            env: vec![("RUSTFLAGS", "")],
            ..cargo(
                "clippy",
                &[
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--locked",
                    "--",
                    "-D",
                    "warnings",
                ],
            )
        },
        Step {
            env: vec![("RUSTDOCFLAGS", "-D warnings")],
            ..cargo("rustdoc", &["doc", "--workspace", "--no-deps", "--locked"])
        },
        Step {
            env: vec![("INSTA_UPDATE", "no")],
            ..cargo("cargo test", &["test", "--workspace", "--locked"])
        },
        // The benchmarks and their probe are type-checked by clippy (`--all-targets`);
        // a release build of them here cost more than a minute of CI for no more.
        cargo(
            "fuzz targets compile",
            &[
                "check",
                "--manifest-path",
                "fuzz/Cargo.toml",
                "--bins",
                "--no-default-features",
            ],
        ),
        cargo("schemas are fresh", &["xtask", "schemas", "--check"]),
        cargo("vectors are fresh", &["xtask", "vectors", "--check"]),
        Step {
            name: "doc-membership-v1 spec is its derivation",
            program: "python3",
            args: vec!["spec/derive/doc_membership_v1.py", "--check"],
            env: Vec::new(),
        },
        Step {
            name: "fnv1a-utf16-v1 spec is its derivation",
            program: "python3",
            args: vec!["spec/derive/fnv1a_utf16_v1.py", "--check"],
            env: Vec::new(),
        },
        Step {
            name: "accumulated digests are their derivation",
            program: "python3",
            args: vec!["spec/derive/accumulated.py", "--check"],
            env: Vec::new(),
        },
        cargo("conformance", &["xtask", "conformance"]),
        Step {
            name: "Python implementation: unit tests",
            program: "python3",
            args: vec![
                "-m",
                "unittest",
                "discover",
                "-s",
                "vectors/check/python/tests",
            ],
            env: Vec::new(),
        },
        Step {
            name: "Python implementation: every vector",
            program: "python3",
            args: vec!["vectors/check/python/check_vectors.py"],
            env: Vec::new(),
        },
        Step {
            name: "Python implementation: accumulated digests",
            program: "python3",
            args: vec!["vectors/check/python/check_accumulated.py"],
            env: Vec::new(),
        },
        Step {
            name: "JavaScript implementation: unit tests",
            program: "node",
            args: vec!["--test", "vectors/check/js/test/"],
            env: Vec::new(),
        },
        Step {
            name: "JavaScript implementation: every vector",
            program: "node",
            args: vec!["vectors/check/js/check_vectors.mjs"],
            env: Vec::new(),
        },
        Step {
            name: "JavaScript implementation: accumulated digests",
            program: "node",
            args: vec!["vectors/check/js/check_accumulated.mjs"],
            env: Vec::new(),
        },
        cargo(
            "build the bloomproof binary",
            &["build", "-p", "bloomproof", "--locked"],
        ),
        cargo(
            "planted-bug gallery: every planted bug is caught",
            &["xtask", "gallery"],
        ),
        cargo("explorer in a real browser", &["xtask", "e2e"]),
        cargo(
            "results matrix: the suite through every implementation (Rust in process and adapter, Python, JavaScript), cross-reading with the explorer's export, the page in Chromium",
            &[
                "xtask",
                "matrix",
                "--session-from",
                "explorer={target}/e2e/explorer-session.json",
            ],
        ),
    ]
}

/// Runs every step.
pub fn run(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err(format!("ci takes no arguments, got {args:?}"));
    }
    let root = super::root();
    let steps = steps();
    let total = steps.len();
    let started = Instant::now();
    for (index, step) in steps.iter().enumerate() {
        println!(
            "\n==> ci step {}/{total}: {} ({} {})",
            index + 1,
            step.name,
            step.program,
            step.args.join(" ")
        );
        let step_started = Instant::now();
        let mut command = Command::new(step.program);
        command.args(&step.args).current_dir(&root);
        // A developer's TRYBUILD=overwrite must never rewrite expected compiler output.
        command.env_remove("TRYBUILD");
        for (key, value) in &step.env {
            command.env(key, value);
        }
        let status = command
            .status()
            .map_err(|err| format!("step `{}`: cannot start {}: {err}", step.name, step.program))?;
        println!(
            "<== {} {} in {:.1}s",
            step.name,
            if status.success() { "passed" } else { "FAILED" },
            step_started.elapsed().as_secs_f64()
        );
        if !status.success() {
            println!("\nci: {index} passed, 1 failed");
            return Err(format!("step `{}` failed ({status})", step.name));
        }
    }
    println!(
        "\nall {total} steps passed in {:.0}s\nci: {total} passed, 0 failed",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
