//! Every fuzz target's function over every file of its committed corpus
//! (`fuzz/corpus/<target>/`) and over deterministic mutations of each file, on the
//! stable toolchain, in the normal `cargo test --workspace`.
//!
//! Corpus files named `valid-*` must be accepted and `invalid-*` refused (so the
//! seeds really reach past the parsers); every other input must only not panic. The
//! corpus is written by `python3 fuzz/seed_corpus.py`.

use bloomproof_fuzzing::{Outcome, SPEC_FILES, TARGETS, run, split_spec_input};
use std::path::{Path, PathBuf};

/// Mutations per corpus file (plus the file itself).
const MUTATIONS: usize = 256;

/// Tokens spliced into inputs: JSON structure and numbers at the edges of the types.
const TOKENS: [&[u8]; 16] = [
    b"\"",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"null",
    b"-1",
    b"0",
    b"1e999",
    b"18446744073709551615",
    b"18446744073709551616",
    b"4294967296",
    b"\\ud800",
    b"\xff",
];

/// Bytes written over one byte of an input.
const BYTES: &[u8] = b"09azAZ\"\\{}[],:- \n\x00\x7f\x80";

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .map_err(|err| format!("{}: {err}", dir.display()))
        .expect("the corpus folder reads")
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let bytes = std::fs::read(&path)
                .map_err(|err| format!("{name}: {err}"))
                .expect("a corpus file reads");
            (name, bytes)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files
}

/// xorshift64*: a fixed, dependency-free generator, seeded per file.
struct Rng(u64);

impl Rng {
    fn new(name: &str) -> Self {
        // FNV-1a of the name, never zero.
        let seed = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..bound` (`0` when `bound` is 0).
    fn below(&mut self, bound: usize) -> usize {
        if bound == 0 {
            0
        } else {
            (self.next() % bound as u64) as usize
        }
    }
}

/// The `index`-th mutation of `input`: truncations first (every length class), then
/// random byte flips, token splices, deletions and duplications of spans.
fn mutate(input: &[u8], index: usize, rng: &mut Rng) -> Vec<u8> {
    let len = input.len();
    if index < 16 {
        // Truncations at 1/16 steps, then a byte before the end.
        return match index {
            15 => input[..len.saturating_sub(1)].to_vec(),
            i => input[..len * i / 16].to_vec(),
        };
    }
    let mut out = input.to_vec();
    for _ in 0..=rng.below(3) {
        let at = rng.below(out.len() + 1);
        match rng.below(5) {
            0 if !out.is_empty() => {
                let at = at.min(out.len() - 1);
                out[at] ^= 1 << rng.below(8);
            }
            1 if !out.is_empty() => {
                let at = at.min(out.len() - 1);
                out[at] = BYTES[rng.below(BYTES.len())];
            }
            2 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                out.splice(at..at, token.iter().copied());
            }
            3 => {
                let end = (at + 1 + rng.below(64)).min(out.len());
                out.drain(at.min(end)..end);
            }
            _ => {
                let end = (at + 1 + rng.below(64)).min(out.len());
                let span = out[at.min(end)..end].to_vec();
                out.splice(at..at, span);
            }
        }
    }
    out
}

fn exercise(target: &str) {
    let started = std::time::Instant::now();
    let files = corpus(target);
    // The files are independent: spread over the cores (the test binaries of
    // `cargo test` run one after another, so a long single-threaded test holds the
    // other core idle).
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let files = &files;
    let runs: usize = std::thread::scope(|scope| {
        // Every `threads`-th file to each worker: the corpus is sorted by name, and
        // files of one kind (and size) sit together.
        let workers: Vec<_> = (0..threads)
            .map(|first| {
                scope.spawn(move || {
                    files
                        .iter()
                        .skip(first)
                        .step_by(threads)
                        .map(|file| exercise_file(target, file))
                        .sum::<usize>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a corpus worker panicked"))
            .sum()
    });
    eprintln!(
        "{target}: {} corpus files, {runs} inputs in {:.2?}",
        files.len(),
        started.elapsed()
    );
}

/// Runs `target` on one corpus file and on its mutations; how many inputs that was.
fn exercise_file(target: &str, (name, bytes): &(String, Vec<u8>)) -> usize {
    let outcome = run(target, bytes).expect("a known target");
    let expected = if name.starts_with("valid-") {
        Some(Outcome::Accepted)
    } else if name.starts_with("invalid-") {
        Some(Outcome::Rejected)
    } else {
        None
    };
    if let Some(expected) = expected {
        assert_eq!(
            outcome, expected,
            "fuzz/corpus/{target}/{name}: the seed no longer does what its name says \
             (if the format changed on purpose, rerun `python3 fuzz/seed_corpus.py`)"
        );
    }
    let mut rng = Rng::new(name);
    for index in 0..MUTATIONS {
        let mutated = mutate(bytes, index, &mut rng);
        run(target, &mutated);
    }
    1 + MUTATIONS
}

#[test]
fn targets_are_listed_once_with_a_corpus_and_a_fuzz_target() {
    for target in TARGETS {
        assert!(corpus_dir(target).is_dir(), "fuzz/corpus/{target}/");
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fuzz/fuzz_targets")
            .join(format!("{target}.rs"));
        assert!(source.is_file(), "{}", source.display());
    }
    assert_eq!(run("no_such_target", b""), None);
}

#[test]
fn spec_cases_corpus() {
    exercise("spec_cases");
}

#[test]
fn vectors_corpus() {
    exercise("vectors");
}

#[test]
fn session_import_corpus() {
    exercise("session_import");
}

#[test]
fn adapter_request_corpus() {
    exercise("adapter_request");
}

/// The loader's in-memory entry reads the real spec exactly as `load` reads the folder.
#[test]
fn parse_protocol_reads_the_real_spec_as_load_does() {
    let spec_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let spec = bloomproof_conformance::load(&spec_dir).expect("the real spec loads");
    assert_eq!(
        spec.protocols.len(),
        bloomproof_conformance::PROTOCOLS.len()
    );
    for loaded in &spec.protocols {
        let read = |file: &str| {
            std::fs::read_to_string(spec_dir.join(&loaded.protocol).join(file))
                .expect("a spec file")
        };
        let parsed = bloomproof_conformance::load::parse_protocol(
            &loaded.protocol,
            &read("checks.json"),
            &read("cases.json"),
        )
        .expect("the real spec parses");
        let names = |checks: &[bloomproof_conformance::model::DocumentedCheck]| {
            checks.iter().map(|c| c.name.clone()).collect::<Vec<_>>()
        };
        assert_eq!(names(&parsed.checks), names(&loaded.checks));
        assert_eq!(parsed.case_ids, loaded.case_ids);
    }
    let refused = bloomproof_conformance::load::parse_protocol("fnv1a-utf16-v1", "{}", "")
        .expect_err("empty texts are refused");
    assert!(
        refused[0]
            .to_string()
            .starts_with("fnv1a-utf16-v1/checks.json: ")
    );
}

/// The files a `spec_cases` input stands for are both files of every protocol folder
/// of `spec/`, with their bytes on disk, and an input without a naming line is the
/// first protocol's cases.
#[test]
fn spec_files_are_every_protocol_folders_files() {
    let spec_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let spec = bloomproof_conformance::load(&spec_dir).expect("the real spec loads");
    let mut expected = Vec::new();
    for loaded in &spec.protocols {
        for file in ["checks.json", "cases.json"] {
            let text = std::fs::read_to_string(spec_dir.join(&loaded.protocol).join(file))
                .expect("a spec file");
            expected.push((format!("{}/{file}", loaded.protocol), text));
        }
    }
    let listed: Vec<(String, String)> = SPEC_FILES
        .iter()
        .map(|(name, text)| (name.clone(), text.to_string()))
        .collect();
    assert_eq!(listed, expected);
    let first = format!("{}/cases.json", spec.protocols[0].protocol);
    assert_eq!(split_spec_input(b"{}"), (first.as_str(), &b"{}"[..]));
    let named = format!("{}\n{{}}", expected[2].0);
    assert_eq!(
        split_spec_input(named.as_bytes()),
        (expected[2].0.as_str(), &b"{}"[..])
    );
}

/// Each mutation strategy is reachable and stays deterministic.
#[test]
fn mutations_are_deterministic() {
    let input = br#"{"id":1,"protocol":"fnv1a-utf16-v1"}"#;
    let first: Vec<Vec<u8>> = {
        let mut rng = Rng::new("x");
        (0..64).map(|i| mutate(input, i, &mut rng)).collect()
    };
    let second: Vec<Vec<u8>> = {
        let mut rng = Rng::new("x");
        (0..64).map(|i| mutate(input, i, &mut rng)).collect()
    };
    assert_eq!(first, second);
    assert_eq!(first[0], b"");
    assert!(first.iter().any(|m| m.len() > input.len()));
}
