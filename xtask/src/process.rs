//! Processes and tool installs, for every task: the target folder, building `bloomproof`,
//! running a named step, killing a process group, quoting for `sh`, a small worker
//! pool, a temporary folder, and installing what a task needs (Debian packages,
//! Chromium, the Playwright install of `crates/explorer/e2e`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Where Debian's chromium package puts the browser.
const CHROMIUM: &str = "/usr/bin/chromium";

/// The cargo target folder: `$CARGO_TARGET_DIR` (relative to the root when relative),
/// else `target/`.
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from) {
        Some(dir) if dir.is_absolute() => dir,
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// Builds the runner (`cargo build -p bloomproof --locked`); returns the binary.
pub fn build_runner(root: &Path) -> Result<PathBuf, String> {
    build_bloomproof(root, false)
}

/// Builds `bloomproof` (`--release` when `release`, `--locked` always), its compiler
/// messages shown; returns the binary's path as cargo reports it, so that a
/// `$CARGO_TARGET_DIR` or a profile's own folder needs no guessing.
pub fn build_bloomproof(root: &Path, release: bool) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["build", "-q", "-p", "bloomproof", "--locked"]);
    if release {
        command.arg("--release");
    }
    command
        .arg("--message-format=json-render-diagnostics")
        .current_dir(root)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit());
    let shown = if release { " --release" } else { "" };
    println!("==> cargo build -q -p bloomproof --locked{shown}");
    let output = command
        .output()
        .map_err(|err| format!("cannot run cargo build: {err}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo build -p bloomproof{shown} failed ({})",
            output.status
        ));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| {
            message["reason"] == "compiler-artifact" && message["target"]["name"] == "bloomproof"
        })
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo reported no bloomproof executable".to_string())
}

/// Runs `command` as the step `what` of `task`, its output straight to the terminal,
/// with a line before and one after (the time); an error names the step.
pub fn step(task: &str, what: &str, command: &mut Command) -> Result<(), String> {
    println!("==> {task}: {what}");
    let started = Instant::now();
    let status = command
        .status()
        .map_err(|error| format!("{what}: cannot start {:?}: {error}", command.get_program()))?;
    println!(
        "<== {task}: {what}: {} in {:.1}s",
        if status.success() { "done" } else { "FAILED" },
        started.elapsed().as_secs_f64()
    );
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// Whether `program --version` runs and succeeds.
pub fn found(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// Installs Debian packages for `task`, or explains what to install when that is not
/// possible here (not root, or no apt-get).
pub fn apt_install(task: &str, packages: &[&str], missing: &str) -> Result<(), String> {
    let manual = format!(
        "{missing}: install Debian's package{} {} (as root: apt-get update && apt-get install -y {})",
        if packages.len() == 1 { "" } else { "s" },
        packages.join(" and "),
        packages.join(" ")
    );
    if !is_root() || !found("apt-get") {
        return Err(format!(
            "{manual}; this is {}, so {task} cannot install it",
            if is_root() {
                "not a machine with apt-get"
            } else {
                "not root"
            }
        ));
    }
    step(
        task,
        "apt-get update",
        Command::new("apt-get")
            .args(["update", "-q"])
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
    .map_err(|error| format!("{error}\n{manual}"))?;
    step(
        task,
        &format!("apt-get install -y {}", packages.join(" ")),
        Command::new("apt-get")
            .args(["install", "-y", "-q"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
    .map_err(|error| format!("{error}\n{manual}"))
}

/// Node.js and npm, installed for `task` when missing.
pub fn node(task: &str) -> Result<(), String> {
    if found("node") && found("npm") {
        Ok(())
    } else {
        apt_install(task, &["nodejs", "npm"], "Node.js or npm is missing")
    }
}

/// The browser: `$CHROMIUM`, else Debian's, installed for `task` when missing.
pub fn chromium(task: &str) -> Result<PathBuf, String> {
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
        apt_install(
            task,
            &["chromium"],
            &format!("Chromium is missing at {CHROMIUM}"),
        )?;
    }
    if Path::new(CHROMIUM).is_file() {
        Ok(PathBuf::from(CHROMIUM))
    } else {
        Err(format!(
            "the chromium package was installed but {CHROMIUM} is still missing"
        ))
    }
}

/// The Playwright install of `crates/explorer/e2e` (playwright-core and axe-core, no
/// browser download), `npm ci` there for `task` when it is missing; returns its folder.
pub fn playwright(task: &str, root: &Path) -> Result<PathBuf, String> {
    let e2e = root.join("crates/explorer/e2e");
    if ["playwright-core", "axe-core"]
        .iter()
        .any(|package| !e2e.join("node_modules").join(package).is_dir())
    {
        step(
            task,
            "npm ci (playwright-core and axe-core, no browser download)",
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&e2e)
                .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1"),
        )?;
    }
    Ok(e2e)
}

/// Stops a process that overran its time, with everything it started (its process
/// group, when it leads one), before it is reaped.
pub fn kill(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
}

/// `'text'` for `sh`, unless every character is safe as it is.
pub fn shell_quote(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// Runs `work` over `items`, `jobs` at a time; calls `ready` on each result in item
/// order as soon as it and every earlier one are done; returns the results in order.
pub fn parallel<T: Sync, R: Send>(
    jobs: usize,
    items: &[T],
    work: impl Fn(usize, &T) -> R + Sync,
    ready: impl FnMut(usize, &R) + Send,
) -> Vec<R> {
    struct State<R, F> {
        results: Vec<Option<R>>,
        next: usize,
        ready: F,
    }
    let state = Mutex::new(State {
        results: items.iter().map(|_| None).collect(),
        next: 0,
        ready,
    });
    let claimed = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(items.len()) {
            scope.spawn(|| {
                loop {
                    let index = claimed.fetch_add(1, Ordering::SeqCst);
                    let Some(item) = items.get(index) else { break };
                    let result = work(index, item);
                    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
                    let State {
                        results,
                        next,
                        ready,
                    } = &mut *state;
                    if let Some(slot) = results.get_mut(index) {
                        *slot = Some(result);
                    }
                    while let Some(Some(result)) = results.get(*next) {
                        ready(*next, result);
                        *next += 1;
                    }
                }
            });
        }
    });
    let state = state.into_inner().unwrap_or_else(PoisonError::into_inner);
    state.results.into_iter().flatten().collect()
}

/// A temporary folder, emptied when made and removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// `name` under the system's temporary folder.
    pub fn new(name: &str) -> Result<Self, String> {
        Self::at(std::env::temp_dir().join(name))
    }

    /// The folder `path`.
    pub fn at(path: PathBuf) -> Result<Self, String> {
        if path.exists() {
            std::fs::remove_dir_all(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        std::fs::create_dir_all(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Self(path))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The stdout of `program args` run in `root`, trimmed; empty when it cannot start or
/// fails (for figures a report states as found, such as the commit or the date).
pub fn text(root: &Path, program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .current_dir(root)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .unwrap_or_default()
}

/// Runs `command` with the terminal as its output; an error names the command and
/// its exit status.
pub fn run(command: &mut Command) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|err| format!("{command:?}: {err}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed: {status}"))
    }
}

/// The stdout of `command`, which must succeed; an error names the command, its exit
/// status and everything it printed.
pub fn stdout(command: &mut Command) -> Result<String, String> {
    let output = command
        .output()
        .map_err(|err| format!("{command:?}: {err}"))?;
    if !output.status.success() {
        return Err(format!(
            "{command:?} failed: {}\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Python's arguments that print the path of its own executable.
pub const PYTHON_EXECUTABLE: &[&str] = &["-c", "import sys; print(sys.executable)"];

/// The path of the executable `runtime` (a name on `PATH`) runs, as `runtime args`
/// prints it; `runtime` itself when it cannot tell. A name on `PATH` may be a version
/// manager's shim (a shell script that finds the interpreter anew at every start):
/// through one, every adapter process of a conformance run paid for it again (the
/// Python gallery spent a fifth of its CPU in pyenv's shim).
pub fn executable(runtime: &str, args: &[&str]) -> String {
    Command::new(runtime)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|text| text.trim().to_owned())
        .filter(|path| !path.is_empty() && Path::new(path).is_absolute())
        .unwrap_or_else(|| runtime.to_owned())
}

/// `PATH` with the folder of the Python executable first ([`executable`]), and that
/// executable, when the `python3` found on `PATH` is another file (a shim); `None` when
/// it is that executable already, or either cannot be found.
pub fn python_first_on_path() -> Option<(String, std::ffi::OsString)> {
    let python = PathBuf::from(executable("python3", PYTHON_EXECUTABLE));
    let folder = python.parent().filter(|_| python.is_absolute())?;
    let path = std::env::var_os("PATH")?;
    let folders: Vec<PathBuf> = std::env::split_paths(&path).collect();
    let found = folders
        .iter()
        .map(|f| f.join("python3"))
        .find(|candidate| candidate.is_file())?;
    if found.canonicalize().ok()? == python.canonicalize().ok()? {
        return None;
    }
    let first = std::iter::once(folder.to_path_buf()).chain(folders);
    let joined = std::env::join_paths(first).ok()?;
    Some((python.display().to_string(), joined))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quote_leaves_plain_paths_and_quotes_the_rest() {
        assert_eq!(shell_quote("/tmp/a-b_c.py"), "/tmp/a-b_c.py");
        assert_eq!(shell_quote("/tmp/a b"), "'/tmp/a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn parallel_keeps_the_order_and_reports_each_result_once_in_order() {
        let items: Vec<usize> = (0..20).collect();
        let mut seen = Vec::new();
        let results = parallel(3, &items, |i, n| i * 100 + n, |i, _| seen.push(i));
        assert_eq!(results, (0..20).map(|n| n * 101).collect::<Vec<_>>());
        assert_eq!(seen, items);
    }

    /// A program that cannot tell its path is named as given; Python tells its own, and
    /// the `PATH` made for the steps finds that very file first.
    #[test]
    fn the_python_executable_is_found_first_on_the_path_made_for_it() {
        assert_eq!(
            executable("bloomproof-no-such-program", PYTHON_EXECUTABLE),
            "bloomproof-no-such-program"
        );
        let python = executable("python3", PYTHON_EXECUTABLE);
        if !Path::new(&python).is_absolute() {
            return; // no Python here: nothing to put first
        }
        let Some((told, path)) = python_first_on_path() else {
            return; // `python3` on PATH is the interpreter already
        };
        assert_eq!(told, python);
        let first = std::env::split_paths(&path)
            .map(|folder| folder.join("python3"))
            .find(|candidate| candidate.is_file())
            .expect("a python3 on the new PATH");
        assert_eq!(
            first.canonicalize().ok(),
            Path::new(&python).canonicalize().ok()
        );
    }
}
