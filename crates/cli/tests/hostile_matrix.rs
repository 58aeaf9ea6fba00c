//! The fourth hardening round (issue 39): the matrix writes only inside its folder and
//! escapes what adapters say; every file the user names is read by the bounded reader;
//! names are checked before anything runs; an adapter started again must be who it was.
//! Each test drives the binary as a user (or an attacker) would and ends within seconds.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs the binary in `dir` with `args`, killed after 20 s (a hang is a failure, not a
/// test that never ends).
/// `bloomproof matrix --implementations <list>` and `args`, in `dir`.
fn matrix(dir: &Path, list: &Path, args: &[&str]) -> Output {
    let list = list.to_str().unwrap();
    run(
        dir,
        &[&["matrix", "--implementations", list], args].concat(),
    )
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            let output = child.wait_with_output().unwrap();
            panic!("{args:?} still ran after 20 s: {}", text(&output.stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// A Python adapter whose handshake gives `name`, `language` and `version` (Python
/// string literals), then answers every request with an `internal` error; with
/// `Some(n)`, it answers `n` requests and exits on the next.
fn adapter(
    dir: &Path,
    file: &str,
    name: &str,
    language: &str,
    version: &str,
    answers: Option<usize>,
) -> String {
    let limit = answers.map_or("None".to_string(), |n| n.to_string());
    let path = dir.join(file);
    std::fs::write(
        &path,
        format!(
            "import sys, json\nlimit = {limit}\nsys.stdin.readline()\nprint(json.dumps({{'id':0,'result':{{'adapter_protocol':2,'implementation':{{'name':{name},'language':{language},'version':{version}}},'protocols':['doc-membership-v1','fnv1a-utf16-v1']}}}}), flush=True)\nfor n, line in enumerate(sys.stdin, 1):\n    try:\n        i = json.loads(line).get('id')\n    except Exception:\n        i = None\n    if limit is not None and n > limit:\n        sys.exit(1)\n    print(json.dumps({{'id':i,'error':{{'kind':'internal','message':'no'}}}}), flush=True)\n"
        ),
    )
    .unwrap();
    format!("python3 {}", path.display())
}

/// An implementations file listing one implementation, `name`, run by `command`.
fn implementations(dir: &Path, name: &str, command: &str) -> PathBuf {
    let path = dir.join("implementations.json");
    let list = serde_json::json!({"implementations": [{"name": name, "command": command}]});
    std::fs::write(&path, list.to_string()).unwrap();
    path
}

const HOSTILE_LANGUAGE: &str =
    "'sh\\x1b]0;owned\\x07\\x1b[2J\\n**Passed.**\\n| forged | row |\\n<script>alert(1)</script>'";
const HOSTILE_VERSION: &str = "'1`x`|y <script>z</script>\\r\\n# Passed'";

#[test]
fn f1_adapter_text_is_escaped_on_stdout_and_in_summary_md() {
    let dir = tempfile::tempdir().unwrap();
    let command = adapter(
        dir.path(),
        "evil.py",
        "'evil'",
        HOSTILE_LANGUAGE,
        HOSTILE_VERSION,
        Some(0),
    );
    let list = implementations(dir.path(), "evil", &command);
    let output = matrix(dir.path(), &list, &["--out", "out"]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    for (what, shown) in [("stdout", &stdout), ("stderr", &stderr)] {
        assert!(
            !shown.contains(['\u{1b}', '\u{7}', '\r']),
            "{what} holds a raw control character: {shown:?}"
        );
        assert!(
            !shown.lines().any(|l| l.trim() == "**Passed.**"),
            "{what}: {shown}"
        );
    }
    assert!(stdout.contains("\\u{1b}]0;owned\\u{7}"), "{stdout}");
    let summary = std::fs::read_to_string(dir.path().join("out/summary.md")).unwrap();
    assert!(!summary.contains(['\u{1b}', '\u{7}', '\r']), "{summary:?}");
    assert!(!summary.contains("<script>"), "{summary}");
    assert!(
        !summary.lines().any(|l| l.starts_with("| forged")
            || l.trim() == "**Passed.**"
            || l.starts_with("# Passed")),
        "{summary}"
    );
    // The implementation's row is one line, with as many unescaped cell bars as the
    // header has: no `|` of the adapter's opens a cell.
    let bars = |line: &str| line.replace("\\|", "").matches('|').count();
    let header = summary
        .lines()
        .find(|l| l.starts_with("| implementation"))
        .unwrap();
    let row = summary.lines().find(|l| l.starts_with("| evil")).unwrap();
    assert_eq!(bars(row), bars(header), "{row}");
    assert!(!row.contains("`x`"), "a code span opens: {row}");
    let page = std::fs::read_to_string(dir.path().join("out/index.html")).unwrap();
    assert!(
        !page.contains("<script>alert"),
        "the page holds the adapter's script"
    );
    assert!(!page.contains('\u{1b}'));
}

#[test]
fn f2_a_link_in_the_matrix_folder_is_refused_and_nothing_outside_changes() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "keep").unwrap();
    let list = implementations(dir.path(), "rust-adapter", &format!("{BIN} adapter"));
    // A committed folder: a link where summary.md goes, and nothing else.
    let out = dir.path().join("bloomproof-matrix");
    std::fs::create_dir(&out).unwrap();
    symlink("../victim.txt", out.join("summary.md")).unwrap();
    let output = matrix(dir.path(), &list, &[]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is not a previous matrix output"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    // The same link in a folder that passes for a previous output (it has the
    // marker), and with --force: refused by name, still never followed.
    std::fs::write(
        out.join(".bloomproof-matrix"),
        "Written by `bloomproof matrix`\n",
    )
    .unwrap();
    for force in [false, true] {
        let output = matrix(dir.path(), &list, if force { &["--force"] } else { &[] });
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr
                .contains("summary.md is a symbolic link: an export writes only inside its folder"),
            "{stderr}"
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    }
    // A link as the badges folder: nothing is written or removed through it.
    std::fs::remove_file(out.join("summary.md")).unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("rust-adapter.json"), "mine").unwrap();
    symlink(&elsewhere, out.join("badges")).unwrap();
    let output = matrix(dir.path(), &list, &[]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("badges is a symbolic link"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(elsewhere.join("rust-adapter.json")).unwrap(),
        "mine"
    );
}

#[test]
fn f3_a_folder_the_matrix_did_not_write_is_refused_and_never_emptied() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    std::fs::create_dir_all(docs.join("badges")).unwrap();
    std::fs::write(docs.join("badges/mine.svg"), "my badge").unwrap();
    std::fs::write(docs.join("index.html"), "my page").unwrap();
    let list = implementations(dir.path(), "rust-adapter", &format!("{BIN} adapter"));
    let started = Instant::now();
    let output = matrix(dir.path(), &list, &["--out", "docs"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("docs is not empty and is not a previous matrix output (it has no .bloomproof-matrix file)"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("matrix: rust-adapter"),
        "it ran first: {stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        std::fs::read_to_string(docs.join("index.html")).unwrap(),
        "my page"
    );
    assert!(docs.join("badges/mine.svg").is_file());
    // With --force the matrix writes its files there and removes nothing else.
    let output = matrix(dir.path(), &list, &["--out", "docs", "--force"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        std::fs::read_to_string(docs.join("badges/mine.svg")).unwrap(),
        "my badge"
    );
    assert!(docs.join("badges/rust-adapter.json").is_file());
    let marker = std::fs::read_to_string(docs.join(".bloomproof-matrix")).unwrap();
    assert!(
        marker.lines().any(|l| l == "badges/rust-adapter.json"),
        "{marker}"
    );
    // Run again into its own output, with another implementation: no --force needed;
    // the badge it wrote before goes, the user's stays.
    let list = implementations(dir.path(), "again", &format!("{BIN} adapter"));
    let output = matrix(dir.path(), &list, &["--out", "docs"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(!docs.join("badges/rust-adapter.json").exists());
    assert!(docs.join("badges/again.json").is_file());
    assert_eq!(
        std::fs::read_to_string(docs.join("badges/mine.svg")).unwrap(),
        "my badge"
    );
}

/// A folder holding a vector file `positions.json` of `doc-membership-v1` that is
/// `make` makes of its path.
fn vectors_with(dir: &Path, make: impl FnOnce(&Path)) -> PathBuf {
    let vectors = dir.join("vectors");
    std::fs::create_dir_all(vectors.join("doc-membership-v1")).unwrap();
    make(&vectors.join("doc-membership-v1/positions.json"));
    vectors
}

/// Makes a file at the path given.
type Maker = Box<dyn FnOnce(&Path)>;

fn fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[test]
fn f16_f22_every_file_named_is_read_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Maker, &str)> = vec![
        ("fifo", Box::new(fifo), "not a regular file"),
        (
            "zero",
            Box::new(|p: &Path| symlink("/dev/zero", p).unwrap()),
            "not a regular file",
        ),
        (
            "huge",
            Box::new(|p: &Path| {
                std::fs::File::create(p)
                    .unwrap()
                    .set_len(400 << 20)
                    .unwrap()
            }),
            "419430400 bytes, larger than a vector file may be (8388608 bytes, 8 MiB)",
        ),
    ];
    for (name, make, says) in cases {
        let case = dir.path().join(name);
        std::fs::create_dir(&case).unwrap();
        let vectors = vectors_with(&case, make);
        let vectors = vectors.to_str().unwrap();
        for args in [
            vec!["matrix", "--vectors", vectors, "--out", "out"],
            vec!["conformance", "--vectors", vectors, "positions"],
        ] {
            let output = run(&case, &args);
            let stderr = text(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{name} {args:?}: {stderr}");
            assert!(
                stderr.contains("positions.json: ") && stderr.contains(says),
                "{name} {args:?}: {stderr}"
            );
            assert!(!case.join("out").exists(), "{name}: a folder was written");
        }
    }
    // --implementations and --session-from: a FIFO, /dev/zero, a file past the cap.
    let fifo_file = dir.path().join("fifo.json");
    fifo(&fifo_file);
    let big = dir.path().join("big.json");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(20 << 20)
        .unwrap();
    for (flag, value, says) in [
        (
            "--implementations",
            fifo_file.display().to_string(),
            "not a regular file (an implementations file cannot be a FIFO",
        ),
        (
            "--implementations",
            "/dev/zero".to_string(),
            "not a regular file",
        ),
        (
            "--implementations",
            big.display().to_string(),
            "larger than an implementations file may be",
        ),
        (
            "--session-from",
            format!("page={}", fifo_file.display()),
            "not a regular file (a session file cannot be a FIFO",
        ),
        (
            "--session-from",
            "page=/dev/zero".to_string(),
            "not a regular file",
        ),
        (
            "--session-from",
            format!("page={}", big.display()),
            "larger than a session file may be (16777216 bytes, 16 MiB)",
        ),
    ] {
        let output = run(dir.path(), &["matrix", flag, &value, "--out", "out"]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(stderr.contains(says), "{flag} {value}: {stderr}");
        assert!(!dir.path().join("out").exists());
    }
}

#[test]
fn f17_every_name_is_checked_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("session.json");
    std::fs::write(&session, "{}").unwrap();
    let long = format!("--impl={}={BIN} adapter", "a".repeat(300));
    for (args, says) in [
        (
            vec![
                "--session-from".to_string(),
                format!("rust={}", session.display()),
            ],
            "name \"rust\" is an implementation's name",
        ),
        (
            vec![
                "--session-from".to_string(),
                format!("Page={}", session.display()),
            ],
            "lowercase ASCII letters",
        ),
        (
            vec![
                "--session-from".to_string(),
                format!("page={}", session.display()),
                "--session-from".to_string(),
                format!("page={}", session.display()),
            ],
            "is given twice",
        ),
        (vec![long], "300 characters, more than a name may have (64"),
    ] {
        let mut all = vec!["matrix".to_string()];
        all.extend(args.iter().cloned());
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let output = run(dir.path(), &all);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("matrix: rust"),
            "{args:?} ran first: {stderr}"
        );
        assert!(
            !dir.path().join("bloomproof-matrix").exists(),
            "{args:?} wrote"
        );
    }
}

#[test]
fn f5_an_adapter_started_again_as_someone_else_ends_the_run() {
    let dir = tempfile::tempdir().unwrap();
    // The first start names itself `first`; every later one `second`. It crashes after
    // answering three requests, so the runner starts it again.
    let seen = dir.path().join("started-once");
    let name = format!(
        "('second' if __import__('os').path.exists({seen:?}) else (open({seen:?}, 'w').close(), 'first')[1])"
    );
    let command = adapter(dir.path(), "turncoat.py", &name, "'Python'", "'1'", Some(3));
    let output = run(
        dir.path(),
        &["conformance", "--impl", &command, "doc-membership-v1"],
    );
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_ne!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let all = format!("{stdout}\n{stderr}");
    assert!(
        all.contains("its handshake named another implementation: first first (Python 1; protocols doc-membership-v1, fnv1a-utf16-v1), then second (Python 1;"),
        "{all}"
    );
}

#[test]
fn names_of_invisible_characters_alone_are_refused_by_code_point() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["'\\u200b\\u2060\\ufeff'", "'\\u2060'"] {
        let command = adapter(dir.path(), "invisible.py", name, "'Python'", "'1'", None);
        let output = run(dir.path(), &["conformance", "--impl", &command]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains("gave an implementation name of invisible characters only (U+"),
            "{name}: {stderr}"
        );
        assert!(
            !stderr.contains('\u{2060}') && !stderr.contains('\u{200b}'),
            "{stderr:?}"
        );
    }
    assert!(
        text(
            &run(
                dir.path(),
                &[
                    "conformance",
                    "--impl",
                    &adapter(
                        dir.path(),
                        "a.py",
                        "'\\u200b\\u2060\\ufeff'",
                        "'Python'",
                        "'1'",
                        None
                    )
                ]
            )
            .stderr
        )
        .contains("(U+200B U+2060 U+FEFF)")
    );
}

#[test]
fn f13_the_js_adapter_answers_large_ids_digit_for_digit_or_refuses_them() {
    let dir = tempfile::tempdir().unwrap();
    let js = repo("implementations/js/adapter.mjs");
    let output = run(
        dir.path(),
        &[
            "conformance",
            "--spec",
            repo("spec").to_str().unwrap(),
            "--impl",
            &format!("node {}", js.display()),
            "id_echoed_digit_for_digit",
        ],
    );
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    assert!(stdout.contains("1 passed, 0 failed"), "{stdout}");
}
