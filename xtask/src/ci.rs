//! `cargo xtask ci`: the whole test command. Each step runs in order; the run stops at
//! the first failing step and names it. Consecutive steps marked `beside` (independent,
//! and each leaving cores idle alone: the two halves of the test run; the accumulated
//! digests of three languages; the two planted-bug galleries and the browser suite) run at the same time, their output printed whole, step
//! by step, once all of them have ended.

use std::process::{Command, ExitStatus};
use std::time::Instant;

/// One step: a name and the command line.
struct Step {
    name: &'static str,
    program: &'static str,
    args: Vec<&'static str>,
    env: Vec<(&'static str, &'static str)>,
    beside: bool,
    /// Builds in the main workspace's target folder (for a manifest outside the
    /// workspace, which would otherwise get a folder of its own).
    main_target: bool,
}

fn cargo(name: &'static str, args: &[&'static str]) -> Step {
    Step {
        name,
        program: "cargo",
        args: args.to_vec(),
        env: Vec::new(),
        beside: false,
        main_target: false,
    }
}

fn tool(name: &'static str, program: &'static str, args: &[&'static str]) -> Step {
    Step {
        name,
        program,
        args: args.to_vec(),
        env: Vec::new(),
        beside: false,
        main_target: false,
    }
}

/// The same step, run beside its neighbours that are also marked.
fn beside(step: Step) -> Step {
    Step {
        beside: true,
        ..step
    }
}

/// The step that runs `spec/derive/<protocol>.py --check` (`-` as `_` in the name).
/// The strings live as long as the task: a step's fields are `'static`.
fn derivation(protocol: &str) -> Step {
    let name = format!("{protocol} spec is its derivation").leak();
    let script = format!("spec/derive/{}.py", protocol.replace('-', "_")).leak();
    tool(name, "python3", &[script, "--check"])
}

fn steps() -> Vec<Step> {
    let mut steps = vec![
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
                    // The criterion benches (their dependency is optional: see
                    // crates/bench/Cargo.toml).
                    "--features",
                    "bloomproof-bench/criterion",
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
        // The tests are built first, then run as two halves side by side: `cargo test`
        // runs its test binaries one after another, and a binary whose last test runs
        // alone (a whole suite through an adapter, a process waited for) leaves a core
        // idle. Cargo holds the target folder's lock only while it builds, so the two
        // runs overlap. Each half resolves every dependency with the whole test build's
        // features (`feature_sets.rs`), so neither builds anything: the runner's half
        // takes the explorer's tests too, whose server asks for `serde_core`'s default
        // features, which the runner's own tests alone would build without. The runner's
        // tests are about half of the tests' CPU.
        cargo(
            "cargo test: build every test",
            &["test", "--workspace", "--locked", "--no-run"],
        ),
        beside(Step {
            env: vec![("INSTA_UPDATE", "no")],
            ..cargo(
                "cargo test: the conformance runner and the explorer",
                &[
                    "test",
                    "--locked",
                    "--package",
                    "bloomproof-conformance",
                    "--package",
                    "bloomproof-explorer",
                ],
            )
        }),
        beside(Step {
            env: vec![("INSTA_UPDATE", "no")],
            ..cargo(
                "cargo test: every other package",
                &[
                    "test",
                    "--workspace",
                    "--locked",
                    "--exclude",
                    "bloomproof-conformance",
                    "--exclude",
                    "bloomproof-explorer",
                ],
            )
        }),
        // The benchmarks and their probe are type-checked by clippy (`--all-targets`);
        // a release build of them here cost more than a minute of CI for no more.
        // In the main target folder, with the workspace's profile (.cargo/config.toml)
        // and feature set (fuzz/Cargo.toml), the dependencies clippy checked are not
        // checked again.
        Step {
            main_target: true,
            ..cargo(
                "fuzz targets compile",
                &[
                    "check",
                    "--manifest-path",
                    "fuzz/Cargo.toml",
                    "--bins",
                    "--no-default-features",
                ],
            )
        },
        cargo("schemas are fresh", &["xtask", "schemas", "--check"]),
        cargo("vectors are fresh", &["xtask", "vectors", "--check"]),
    ];
    // Each registered protocol's spec files are what its derivation script writes
    // (`spec/derive/<name, - as _>.py --check`).
    steps.extend(
        bloomproof_conformance::protocols::REGISTRY
            .iter()
            .map(|protocol| derivation(protocol.name())),
    );
    steps.extend([
        tool(
            "fuzz seed corpus is its script's output",
            "python3",
            &["fuzz/seed_corpus.py", "--check"],
        ),
        // More generated inputs than a local run draws (spec/README.md, "Generated
        // checks"); the vector files and the accumulated checkpoint as checks. Our own
        // implementation must pass every class, not only core.
        cargo(
            "conformance",
            &["xtask", "conformance", "--random", "256", "--require", "all"],
        ),
        // Each implementation installed as its ecosystem installs it (pip into a fresh
        // venv, npm into a fresh project), its tests and its vector checker run against
        // the installed copy.
        cargo(
            "Python package: pip install ./implementations/python into a fresh venv; pytest and every vector against the installed package",
            &["xtask", "packages", "python"],
        ),
        cargo(
            "JavaScript package: npm install ./implementations/js into a fresh project; node --test and every vector against the installed package",
            &["xtask", "packages", "js"],
        ),
        beside(tool(
            "accumulated digests are their derivation",
            "python3",
            &["spec/derive/accumulated.py", "--check"],
        )),
        beside(tool(
            "Python implementation: accumulated digests",
            "python3",
            &["implementations/python/check_accumulated.py"],
        )),
        beside(tool(
            "JavaScript implementation: accumulated digests",
            "node",
            &["implementations/js/check_accumulated.mjs"],
        )),
        cargo(
            "build the bloomproof binary",
            &["build", "-p", "bloomproof", "--locked"],
        ),
        // The browser suite mostly waits on Chromium (14 CPU s in 47 s); beside the
        // gallery the two took 60 s instead of 36 + 47 (load 1.3). The two galleries
        // run beside each other too: each runs two entries at a time, and an entry's
        // run through an adapter mostly waits on the pipe between runner and adapter.
        // `--seeds 3`: each entry caught by generated inputs alone is caught at two
        // more seeds (a small sweep: one run of the generated checks per entry and
        // seed; `cargo xtask gallery --seeds 100` is the full one).
        beside(cargo(
            "planted-bug gallery (Python): every planted bug is caught, at every seed of a sweep of 3 where generated inputs alone catch it",
            &["xtask", "gallery", "--seeds", "3", "python"],
        )),
        beside(cargo(
            "planted-bug gallery (JavaScript): every planted bug is caught, at every seed of a sweep of 3 where generated inputs alone catch it",
            &["xtask", "gallery", "--seeds", "3", "js"],
        )),
        beside(cargo("explorer in a real browser", &["xtask", "e2e"])),
        cargo(
            "results matrix: the suite through every implementation (Rust in process and adapter, Python, JavaScript), cross-reading with the explorer's export, the page in Chromium",
            &[
                "xtask",
                "matrix",
                "--session-from",
                "explorer={target}/e2e/explorer-session.json",
            ],
        ),
        cargo(
            "faithful variants: every reading the sources allow passes every core check and fails exactly the interop checks it lists",
            &["xtask", "gallery", "faithful"],
        ),
    ]);
    steps
}

/// The CPU time, in seconds, user and system, of every child process this process has
/// waited for (and theirs, each waited for by its parent): fields 16 and 17 of
/// `/proc/self/stat`, in the kernel's user-visible clock ticks, 100 a second on Linux
/// (`USER_HZ`). `None` where there is no such file.
fn children_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3, so field n is at index n - 3.
    let ticks = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
    Some((ticks(16)? + ticks(17)?) as f64 / 100.0)
}

/// The line that closes a run: its wall time, and the CPU time of all its processes
/// against the floor that CPU time puts under any schedule of them on this machine.
fn closing_line(total: usize, wall: f64, cpu: Option<f64>) -> String {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    match cpu {
        Some(cpu) => format!(
            "\nall {total} steps passed in {wall:.0}s; their processes' CPU time (user and \
             system) {cpu:.0}s: on {cores} cores no schedule of these steps ends before \
             {:.0}s",
            cpu / cores as f64
        ),
        None => format!("\nall {total} steps passed in {wall:.0}s"),
    }
}

/// Runs every step.
pub fn run() -> Result<(), String> {
    let root = super::root();
    let steps = steps();
    let total = steps.len();
    let started = Instant::now();
    let cpu_at_start = children_cpu_seconds();
    // Every Python process of every step (adapters above all: thousands) starts the
    // interpreter itself, not a version manager's shim that finds it anew each time.
    let path = crate::process::python_first_on_path().map(|(python, path)| {
        println!(
            "==> python3 on PATH is not the interpreter it runs: {python}'s folder comes first on PATH for every step"
        );
        path
    });
    let mut index = 0;
    while index < total {
        // A run of `beside` steps starts together; any other step runs alone.
        let mut end = index + 1;
        if steps[index].beside {
            while end < total && steps[end].beside {
                end += 1;
            }
        }
        let group = &steps[index..end];
        for (offset, step) in group.iter().enumerate() {
            println!(
                "\n==> ci step {}/{total}: {} ({} {}){}",
                index + offset + 1,
                step.name,
                step.program,
                step.args.join(" "),
                if group.len() > 1 {
                    ", beside the others of its group"
                } else {
                    ""
                }
            );
        }
        let step_started = Instant::now();
        let cpu_before = children_cpu_seconds();
        let results: Vec<Result<(ExitStatus, f64), String>> = if group.len() == 1 {
            vec![
                run_step(&group[0], &root, path.as_deref(), false)
                    .map(|(status, _)| (status, step_started.elapsed().as_secs_f64())),
            ]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = group
                    .iter()
                    .map(|step| {
                        let root = &root;
                        let path = path.as_deref();
                        scope.spawn(move || {
                            let started = Instant::now();
                            run_step(step, root, path, true).map(|(status, output)| {
                                let seconds = started.elapsed().as_secs_f64();
                                print!("\n--- output of `{}` ---\n{output}", step.name);
                                (status, seconds)
                            })
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|handle| {
                        handle
                            .join()
                            .unwrap_or_else(|_| Err("the step's thread panicked".to_string()))
                    })
                    .collect()
            })
        };
        let cpu = children_cpu_seconds()
            .zip(cpu_before)
            .map(|(after, before)| after - before);
        for (offset, (step, result)) in group.iter().zip(results).enumerate() {
            let (status, seconds) = result?;
            println!(
                "<== {} {} in {seconds:.1}s{}",
                step.name,
                if status.success() { "passed" } else { "FAILED" },
                match cpu {
                    Some(cpu) if group.len() == 1 => format!(", CPU {cpu:.1}s"),
                    Some(cpu) if offset + 1 == group.len() => {
                        format!(
                            ", CPU of the {} steps beside each other {cpu:.1}s",
                            group.len()
                        )
                    }
                    _ => String::new(),
                }
            );
            if !status.success() {
                println!("\nci: {} passed, 1 failed", index + offset);
                return Err(format!("step `{}` failed ({status})", step.name));
            }
        }
        index = end;
    }
    let cpu = children_cpu_seconds()
        .zip(cpu_at_start)
        .map(|(after, before)| after - before);
    println!(
        "{}\nci: {total} passed, 0 failed",
        closing_line(total, started.elapsed().as_secs_f64(), cpu)
    );
    Ok(())
}

/// Runs one step from the repository root, with `PATH` set to `path` when given. With
/// `capture`, its stdout and stderr are collected (as text, stderr after stdout) instead
/// of going straight to the terminal.
fn run_step(
    step: &Step,
    root: &std::path::Path,
    path: Option<&std::ffi::OsStr>,
    capture: bool,
) -> Result<(ExitStatus, String), String> {
    let mut command = Command::new(step.program);
    command.args(&step.args).current_dir(root);
    if let Some(path) = path {
        command.env("PATH", path);
    }
    // A developer's TRYBUILD=overwrite must never rewrite expected compiler output.
    command.env_remove("TRYBUILD");
    for (key, value) in &step.env {
        command.env(key, value);
    }
    if step.main_target {
        command.env("CARGO_TARGET_DIR", crate::process::target_dir(root));
    }
    let cannot_start =
        |err: std::io::Error| format!("step `{}`: cannot start {}: {err}", step.name, step.program);
    if capture {
        let output = command.output().map_err(cannot_start)?;
        let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&output.stderr));
        Ok((output.status, text))
    } else {
        let status = command.status().map_err(cannot_start)?;
        Ok((status, String::new()))
    }
}

#[cfg(test)]
mod tests {
    /// The children's CPU time grows by what a waited-for child spent (a busy loop of
    /// about 0.3 s in a shell), and the closing line states the floor it sets.
    #[test]
    fn children_cpu_counts_a_waited_child() {
        let Some(before) = super::children_cpu_seconds() else {
            return; // no /proc: nothing is printed either
        };
        let status = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"])
            .status()
            .expect("sh runs");
        assert!(status.success());
        let after = super::children_cpu_seconds().expect("still readable");
        assert!(after > before, "{before} -> {after}");
        let line = super::closing_line(3, 10.0, Some(8.0));
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        assert!(
            line.contains(&format!("{:.0}s", 8.0 / cores as f64)),
            "{line}"
        );
        assert_eq!(
            super::closing_line(3, 10.0, None),
            "\nall 3 steps passed in 10s"
        );
    }

    /// The README's numbered list of CI steps ("## Testing") is `steps()`, in order,
    /// each item starting with the name the run prints: the list cannot drift from CI.
    #[test]
    fn the_readme_lists_every_ci_step_by_its_name() {
        let readme =
            std::fs::read_to_string(super::super::root().join("README.md")).unwrap_or_default();
        let start = readme
            .find("`cargo xtask ci` runs these steps")
            .unwrap_or(readme.len());
        let end = readme[start..]
            .find("**The planted-bug galleries.**")
            .map_or(readme.len(), |at| start + at);
        let items: Vec<&str> = readme[start..end]
            .lines()
            .filter_map(|line| {
                let (number, rest) = line.split_once(". ")?;
                number.parse::<usize>().ok().map(|_| rest)
            })
            .collect();
        let steps = super::steps();
        let names: Vec<&str> = steps.iter().map(|step| step.name).collect();
        assert_eq!(
            items.len(),
            names.len(),
            "the README lists {} CI steps, CI runs {}: {names:#?}",
            items.len(),
            names.len()
        );
        for (index, (item, name)) in items.iter().zip(&names).enumerate() {
            assert!(
                item.starts_with(name),
                "README step {} is {item:?}; CI prints {name:?}",
                index + 1
            );
        }
        let total = format!("ci step N/{}", names.len());
        assert!(readme.contains(&total), "the README names {total}");
    }
}
