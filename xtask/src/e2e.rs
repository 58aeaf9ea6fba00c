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

use crate::process::{chromium, node, playwright, step, target_dir};
use std::process::Command;
use std::time::Instant;

/// Runs the explorer's browser test, installing what is missing first.
pub fn run() -> Result<(), String> {
    let started = Instant::now();
    let root = super::root();
    let browser = chromium("e2e")?;
    node("e2e")?;
    let e2e = playwright("e2e", &root)?;
    step(
        "e2e",
        "cargo build -p bloomproof --locked",
        Command::new("cargo")
            .args(["build", "-p", "bloomproof", "--locked"])
            .current_dir(&root),
    )?;
    let binary = target_dir(&root).join("debug").join("bloomproof");
    step(
        "e2e",
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
