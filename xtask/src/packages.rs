//! `cargo xtask packages [python|js]`: the two implementations installed from this
//! checkout as their ecosystems install them, and tested as installed.
//!
//! * Python: a fresh virtual environment in `<target>/packages/venv`, then
//!   `pip install ./implementations/python pytest`; `bloomproof_py` must then import
//!   from the environment (not from the checkout), `pytest implementations/python/tests`
//!   runs against it, and its `bloomproof-py-check-vectors` command checks `vectors/`.
//! * JavaScript: a fresh project in `<target>/packages/js`, then `npm install
//!   --install-links ./implementations/js` (a copy, as from a registry, not a link); the
//!   tests of `implementations/js/test` run there (`node --test`, `BLOOMPROOF_ROOT` naming
//!   this checkout), so `bloomproof-js/...` resolves to the installed copy, and its
//!   `bloomproof-js-check-vectors` command checks `vectors/`.

use crate::process::{TempDir, node, step, target_dir};
use std::path::Path;
use std::process::Command;

/// Which implementations: both when `None`.
pub fn run(only: Option<&str>) -> Result<(), String> {
    let root = super::root();
    let folder = target_dir(&root).join("packages");
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    if only.is_none_or(|o| o == "python") {
        python(&root, &folder.join("venv"))?;
    }
    if only.is_none_or(|o| o == "js") {
        js(&root, &folder.join("js"))?;
    }
    Ok(())
}

fn python(root: &Path, venv: &Path) -> Result<(), String> {
    let _fresh = TempDir::at(venv.to_path_buf())?;
    let bin = venv.join("bin");
    step(
        "packages",
        "python3 -m venv (a fresh environment)",
        Command::new("python3").arg("-m").arg("venv").arg(venv),
    )?;
    step(
        "packages",
        "pip install ./implementations/python pytest",
        Command::new(bin.join("pip"))
            .args(["install", "-q", "./implementations/python", "pytest"])
            .current_dir(root),
    )?;
    let output = Command::new(bin.join("python"))
        .args(["-c", "import bloomproof_py; print(bloomproof_py.__file__)"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run the environment's python: {e}"))?;
    let imported = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    if !output.status.success() || !Path::new(&imported).starts_with(venv) {
        return Err(format!(
            "bloomproof_py imports from {imported:?}, not from the environment {} ({})",
            venv.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    println!("packages: bloomproof_py imports from {imported}");
    step(
        "packages",
        "pytest implementations/python/tests (the installed package)",
        Command::new(bin.join("pytest"))
            .args(["-q", "implementations/python/tests"])
            .current_dir(root)
            .env("PYTHONDONTWRITEBYTECODE", "1"),
    )?;
    step(
        "packages",
        "bloomproof-py-check-vectors (every vector file)",
        Command::new(bin.join("bloomproof-py-check-vectors")).current_dir(root),
    )
}

fn js(root: &Path, project: &Path) -> Result<(), String> {
    node("packages")?;
    let _fresh = TempDir::at(project.to_path_buf())?;
    let write = |name: &str, text: &str| {
        let path = project.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    write(
        "package.json",
        "{\"name\": \"bloomproof-js-install-test\", \"private\": true, \"type\": \"module\"}\n",
    )?;
    step(
        "packages",
        "npm install --install-links ./implementations/js (into a fresh project)",
        Command::new("npm")
            .args(["install", "--install-links", "--no-audit", "--no-fund"])
            .arg(root.join("implementations/js"))
            .current_dir(project),
    )?;
    let tests = project.join("test");
    std::fs::create_dir_all(&tests).map_err(|e| format!("{}: {e}", tests.display()))?;
    let from = root.join("implementations/js/test");
    for entry in std::fs::read_dir(&from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        std::fs::copy(entry.path(), tests.join(entry.file_name()))
            .map_err(|e| format!("{}: {e}", entry.path().display()))?;
    }
    step(
        "packages",
        "node --test test/ (implementations/js/test against the installed package)",
        Command::new("node")
            .args(["--test", "test/"])
            .current_dir(project)
            .env("BLOOMPROOF_ROOT", root),
    )?;
    step(
        "packages",
        "bloomproof-js-check-vectors (every vector file)",
        Command::new(project.join("node_modules/.bin/bloomproof-js-check-vectors"))
            .current_dir(root),
    )
}
