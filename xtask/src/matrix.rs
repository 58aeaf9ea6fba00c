//! `cargo xtask matrix`: `bloomproof matrix` with this repository's implementations
//! (`vectors/check/implementations.json`, commands relative to the repository's root)
//! and the explorer's export, into `target/matrix/`; then the page in Chromium
//! (`xtask/matrix/matrix.test.mjs`), on that matrix and on one with a planted failure
//! (`target/matrix-failing/`: the Rust implementation beside a lying adapter), at
//! 375 and 1280 px, light and dark.
//!
//! Fails on what fails the matrix (an unexpected failure, a stale expected failure, an
//! implementation that cannot be run, a cross-reading cell that differs), on a planted
//! failure the matrix does not report, or on a page test that fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The implementations file, relative to the repository's root.
pub const IMPLEMENTATIONS: &str = "vectors/check/implementations.json";

/// What `{target}` stands for in a `--session-from` file: the cargo target folder
/// (`target/`, or `$CARGO_TARGET_DIR`), where `cargo xtask e2e` writes the explorer's
/// export (`{target}/e2e/explorer-session.json`).
const TARGET_WORD: &str = "{target}";

/// The lying implementation of the failing matrix: the Rust adapter behind a proxy
/// that answers every lookup `duplicate: true`.
const LIAR: &str =
    "liar=python3 vectors/check/gallery/liar.py always_duplicate -- {bloomproof} adapter";

const USAGE: &str = "usage: cargo xtask matrix [--implementations FILE] [--session-from NAME=FILE]... \
[--timeout SECS] [--no-browser]";

/// The options of one matrix run.
#[derive(Debug)]
pub struct Options {
    /// The implementations file.
    pub implementations: PathBuf,
    /// Extra session producers: (name, file of `{"export", "view"}`).
    pub sessions: Vec<(String, PathBuf)>,
    /// Per adapter request.
    pub timeout: Duration,
    /// Whether to test the page in Chromium.
    pub browser: bool,
}

fn parse(args: &[String], root: &Path) -> Result<Options, String> {
    let mut options = Options {
        implementations: root.join(IMPLEMENTATIONS),
        sessions: Vec::new(),
        timeout: bloomproof_conformance::adapter::DEFAULT_TIMEOUT,
        browser: true,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{flag} takes a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--implementations" => options.implementations = PathBuf::from(value(arg)?),
            "--session-from" => {
                let given = value(arg)?;
                let (name, file) = given.split_once('=').ok_or_else(|| {
                    format!("--session-from takes NAME=FILE, got {given:?}\n{USAGE}")
                })?;
                if name.is_empty() || file.is_empty() {
                    return Err(format!("--session-from takes NAME=FILE, got {given:?}"));
                }
                options
                    .sessions
                    .push((name.to_string(), PathBuf::from(file)));
            }
            "--timeout" => {
                options.timeout = bloomproof_conformance::adapter::parse_timeout(&value(arg)?)?;
            }
            "--no-browser" => options.browser = false,
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(options)
}

/// `bloomproof matrix` from the repository's root with `extra` arguments; its exit
/// status. `quiet`: its output is kept back, and shown only when it did not run (exit
/// status other than 0 or 1).
fn bloomproof_matrix(
    root: &Path,
    binary: &Path,
    options: &Options,
    extra: &[String],
    quiet: bool,
) -> Result<std::process::ExitStatus, String> {
    let mut command = Command::new(binary);
    command
        .arg("matrix")
        .args(["--spec", "spec"])
        .args(["--vectors", "vectors"])
        .args(["--timeout", &options.timeout.as_secs_f64().to_string()])
        .args(extra)
        .current_dir(root)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    println!("==> bloomproof matrix {}", extra.join(" "));
    if !quiet {
        return command
            .status()
            .map_err(|e| format!("cannot run {}: {e}", binary.display()));
    }
    let output = command
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    if !matches!(output.status.code(), Some(0 | 1)) {
        print!("{}", String::from_utf8_lossy(&output.stdout));
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(output.status)
}

/// Runs the matrix.
pub fn run(args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let root = super::root();
    let options = parse(args, &root)?;
    let binary = crate::gallery::build(&root)?;
    let target = crate::gallery::target_dir(&root);
    let out = target.join("matrix");
    let mut extra = vec![
        "--implementations".to_string(),
        options.implementations.display().to_string(),
        "--out".to_string(),
        out.display().to_string(),
    ];
    for (name, file) in &options.sessions {
        let file = file
            .to_string_lossy()
            .replace(TARGET_WORD, &target.display().to_string());
        extra.push("--session-from".to_string());
        extra.push(format!("{name}={file}"));
    }
    let status = bloomproof_matrix(&root, &binary, &options, &extra, false)?;
    // Exit 1 is a matrix that failed: its page is still written, and tested below.
    let failed = match status.code() {
        Some(0) => false,
        Some(1) => true,
        _ => return Err(format!("bloomproof matrix did not run ({status})")),
    };
    let failing = target.join("matrix-failing");
    if options.browser {
        let planted = bloomproof_matrix(
            &root,
            &binary,
            &options,
            &[
                "--impl".to_string(),
                LIAR.to_string(),
                "--out".to_string(),
                failing.display().to_string(),
            ],
            true,
        )?;
        if planted.code() != Some(1) {
            return Err(format!(
                "the matrix with a lying implementation should fail (exit 1), got {planted}"
            ));
        }
        page_test(&root, &[&out, &failing])?;
    }
    println!("matrix: in {:.0}s", started.elapsed().as_secs_f64());
    if failed {
        Err(format!(
            "the matrix failed: {} (summary above)",
            out.join("summary.md").display()
        ))
    } else {
        Ok(())
    }
}

// ------------------------------------------------------------------ the page in Chromium

/// Installs Debian packages with apt-get when this is root on such a machine, as
/// `cargo xtask e2e` does; otherwise says what to install.
fn install(packages: &str, missing: &str) -> Result<(), String> {
    let manual = format!("{missing}: as root, apt-get update && apt-get install -y {packages}");
    let root_user = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root_user {
        return Err(format!("{manual} (this is not root)"));
    }
    println!("==> matrix: {missing}: apt-get install -y {packages}");
    let status = Command::new("sh")
        .args([
            "-c",
            &format!("apt-get update -q && apt-get install -y -q {packages}"),
        ])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .map_err(|e| format!("{manual} (cannot run apt-get: {e})"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{manual} (apt-get failed: {status})"))
    }
}

/// Tests the page in Chromium with the Playwright install of `crates/explorer/e2e`
/// (`npm ci` there when it is missing, as `cargo xtask e2e` does); Chromium is
/// `$CHROMIUM` or Debian's `/usr/bin/chromium`, installed when missing.
fn page_test(root: &Path, folders: &[&Path]) -> Result<(), String> {
    let playwright = root.join("crates/explorer/e2e");
    let chromium = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if !chromium.is_file() {
        install(
            "chromium",
            &format!("Chromium is missing at {}", chromium.display()),
        )?;
    }
    let runs = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !runs("node") || !runs("npm") {
        install("nodejs npm", "Node.js or npm is missing")?;
    }
    if !playwright.join("node_modules/playwright-core").is_dir() {
        println!(
            "==> matrix: npm ci in {} (playwright-core, no browser download)",
            playwright.display()
        );
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&playwright)
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .status()
            .map_err(|e| format!("cannot run npm ci: {e}"))?;
        if !status.success() {
            return Err(format!(
                "npm ci in {} failed ({status})",
                playwright.display()
            ));
        }
    }
    println!("==> matrix: the page in Chromium (node --test xtask/matrix/matrix.test.mjs)");
    let status = Command::new("node")
        .args(["--test", "xtask/matrix/matrix.test.mjs"])
        .current_dir(root)
        .env("MATRIX_DIR", folders[0])
        .env("MATRIX_FAILING_DIR", folders.get(1).unwrap_or(&folders[0]))
        .env("PLAYWRIGHT_FROM", &playwright)
        .env("CHROMIUM", &chromium)
        .status()
        .map_err(|e| format!("cannot run node: {e}"))?;
    if status.success() {
        println!(
            "matrix: the page passed in Chromium; screenshots in {}",
            folders
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        );
        Ok(())
    } else {
        Err(format!(
            "the matrix page test failed in Chromium ({status})"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listed_implementations_file_is_valid() {
        let root = super::super::root();
        let file = root.join(IMPLEMENTATIONS);
        let text = std::fs::read_to_string(&file).expect("the file exists");
        let list = bloomproof_format::matrix::Implementations::parse(&text, IMPLEMENTATIONS)
            .expect("it parses");
        let names: Vec<&str> = list
            .implementations
            .iter()
            .map(|i| i.name.as_str())
            .collect();
        assert_eq!(names, ["rust", "rust-adapter", "python", "javascript"]);
        assert_eq!(list.implementations[0].command, None);
    }

    #[test]
    fn arguments_are_read_strictly() {
        let root = Path::new("/r");
        let given = |args: &[&str]| {
            parse(
                &args.iter().map(ToString::to_string).collect::<Vec<_>>(),
                root,
            )
        };
        let options = given(&["--session-from", "page=/tmp/s.json", "--no-browser"])
            .expect("valid arguments");
        assert_eq!(
            options.sessions,
            [("page".to_string(), PathBuf::from("/tmp/s.json"))]
        );
        assert!(!options.browser);
        assert_eq!(options.implementations, root.join(IMPLEMENTATIONS));
        for bad in [
            &["--session-from", "page"][..],
            &["--session-from", "=x"],
            &["--implementations"],
            &["--timeout", "0"],
            &["--what"],
        ] {
            assert!(given(bad).is_err(), "{bad:?}");
        }
    }
}
