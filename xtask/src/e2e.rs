//! `cargo xtask e2e`: the explorer page's end-to-end test in a real browser.
//!
//! Installs what is missing, then runs the test:
//! 1. Debian's Chromium at `/usr/bin/chromium` (`apt-get update && apt-get
//!    install -y chromium`, as root; otherwise it says what to install);
//! 2. Node.js and npm when `node` is absent (`apt-get install -y nodejs npm`);
//! 3. the npm packages of `crates/explorer/e2e` (`npm ci`) when `node_modules`
//!    lacks `playwright-core` or `axe-core` (Playwright drives the system
//!    Chromium; no browser is downloaded);
//! 4. `cargo build -p bloomproof --locked`;
//! 5. `node --test explorer.test.mjs`, which exports the page
//!    (`bloomproof explore --export target/e2e/site`), runs the suite against the
//!    page served by `bloomproof explore --port 0` and again against the exported
//!    folder served by `python3 -m http.server` (each server stopped once the page
//!    has loaded), opens the single-file page from a `file://` URL, runs axe-core,
//!    writes the screenshots to `target/e2e/screenshots/` (never into the work
//!    tree: the README's copies in `crates/explorer/e2e/screenshots/` are
//!    refreshed on purpose) and `target/e2e/explorer-session.json` and
//!    `target/e2e/timing.json`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Where Debian's chromium package puts the browser.
const CHROMIUM: &str = "/usr/bin/chromium";

fn run_step(what: &str, command: &mut Command) -> Result<(), String> {
    println!("==> e2e: {what}");
    let started = Instant::now();
    let status = command
        .status()
        .map_err(|error| format!("{what}: cannot start {:?}: {error}", command.get_program()))?;
    println!(
        "<== e2e: {what}: {} in {:.1}s",
        if status.success() { "done" } else { "FAILED" },
        started.elapsed().as_secs_f64()
    );
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

fn found(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// Installs Debian packages, or explains what to install when that is not possible here.
fn apt_install(packages: &[&str], missing: &str) -> Result<(), String> {
    let manual = format!(
        "{missing}: install Debian's package{} {} (as root: apt-get update && apt-get install -y {})",
        if packages.len() == 1 { "" } else { "s" },
        packages.join(" and "),
        packages.join(" ")
    );
    if !is_root() || !found("apt-get") {
        return Err(format!(
            "{manual}; this is {}, so e2e cannot install it",
            if is_root() {
                "not a machine with apt-get"
            } else {
                "not root"
            }
        ));
    }
    run_step(
        "apt-get update",
        Command::new("apt-get")
            .args(["update", "-q"])
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
    .map_err(|error| format!("{error}\n{manual}"))?;
    run_step(
        &format!("apt-get install -y {}", packages.join(" ")),
        Command::new("apt-get")
            .args(["install", "-y", "-q"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
    .map_err(|error| format!("{error}\n{manual}"))
}

fn chromium() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("CHROMIUM").map(PathBuf::from) {
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!(
                "CHROMIUM={} is not a file; unset it to use {CHROMIUM}",
                path.display()
            ))
        };
    }
    if !Path::new(CHROMIUM).is_file() {
        apt_install(&["chromium"], &format!("Chromium is missing at {CHROMIUM}"))?;
    }
    if Path::new(CHROMIUM).is_file() {
        Ok(PathBuf::from(CHROMIUM))
    } else {
        Err(format!(
            "the chromium package was installed but {CHROMIUM} is still missing"
        ))
    }
}

fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// Runs the explorer's browser test, installing what is missing first.
pub fn run(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err(format!("e2e takes no arguments, got {args:?}"));
    }
    let started = Instant::now();
    let root = super::root();
    let e2e = root.join("crates/explorer/e2e");
    let browser = chromium()?;
    if !found("node") || !found("npm") {
        apt_install(&["nodejs", "npm"], "Node.js or npm is missing")?;
    }
    if ["playwright-core", "axe-core"]
        .iter()
        .any(|package| !e2e.join("node_modules").join(package).is_dir())
    {
        run_step(
            "npm ci (playwright-core and axe-core, no browser download)",
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&e2e)
                .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1"),
        )?;
    }
    run_step(
        "cargo build -p bloomproof --locked",
        Command::new("cargo")
            .args(["build", "-p", "bloomproof", "--locked"])
            .current_dir(&root),
    )?;
    let binary = target_dir(&root).join("debug").join("bloomproof");
    run_step(
        "node --test explorer.test.mjs (Chromium driven by Playwright)",
        Command::new("node")
            .args(["--test", "--test-concurrency=1", "explorer.test.mjs"])
            .current_dir(&e2e)
            .env("BLOOMPROOF_BIN", &binary)
            .env("BLOOMPROOF_TARGET", target_dir(&root))
            .env("CHROMIUM", &browser),
    )?;
    println!(
        "e2e passed in {:.0}s; screenshots in {}",
        started.elapsed().as_secs_f64(),
        target_dir(&root).join("e2e").join("screenshots").display()
    );
    Ok(())
}
