//! Accumulated checks: about a million generated inputs per protocol, every output fed
//! into one SHA-256, compared with the digest published in `spec/accumulated.json`.
//!
//! The generator is defined byte by byte in `spec/README.md` ("Accumulated checks").
//! The runner draws the inputs, asks the implementation for their outputs with its
//! ordinary `positions` operation (pipelined through an adapter), and feeds *those
//! answers* into a running SHA-256 of its own (the oracle's), never a digest the
//! implementation reports: the check `<protocol>/accumulated` of the report. Beside
//! it the oracle computes the same digest from its own outputs, so a wrong published
//! digest fails as loudly as a wrong implementation, and the first input whose answer
//! differs from the oracle's is named.
//!
//! By default the published checkpoint is checked (the digest after the first
//! `checkpoint.count` inputs); `--accumulated-full` checks the full count. Every digest
//! is computed streaming: memory stays bounded whatever the count (and the count is
//! bounded by [`COUNT_MAX`]).

pub use crate::protocol::Inputs;
use crate::protocol::Registry;
use crate::report::{CheckOutcome, Failure, Figures};
pub use crate::stream::{GENERATOR, Stream, low_16, positions_bytes};
pub use bloomproof_wire::accumulated::{AccumulatedFile, Checkpoint, Published};
use std::time::Instant;

/// The check name of the accumulated digests in a report (`<protocol>/accumulated`);
/// no documented check may take it.
pub const CHECK: &str = "accumulated";

/// The most inputs an `accumulated.json` may ask for: 2^20, the published count.
pub const COUNT_MAX: u64 = 1 << 20;

/// Inputs asked of the implementation at once (pipelined), so that memory stays
/// bounded whatever the count.
const CHUNK: usize = 1024;

/// Reads `accumulated.json` (its text), refusing anything the runner cannot check:
/// another format version, an unknown protocol or generator, a protocol listed twice,
/// a count of 0 or above [`COUNT_MAX`], a checkpoint above the count, a digest that is
/// not 64 lowercase hex digits. The protocols are the built-in registry's.
pub fn parse(text: &str) -> Result<AccumulatedFile, String> {
    parse_with(text, Registry::BUILT_IN)
}

/// [`parse`], the protocols those of `registry` (the loader's): an unknown one is
/// refused naming the registry's.
pub fn parse_with(text: &str, registry: Registry) -> Result<AccumulatedFile, String> {
    let file: AccumulatedFile =
        serde_json::from_str(text).map_err(|err| format!("not an accumulated file: {err}"))?;
    if file.format_version != 1 {
        return Err(format!(
            "`format_version` is {}; this runner reads 1",
            file.format_version
        ));
    }
    let mut seen = Vec::new();
    for published in &file.protocols {
        let name = &published.protocol;
        if registry.find(name).is_none() {
            return Err(format!(
                "unknown protocol {}: this run knows {}",
                crate::quote::prefix(name),
                registry.names().join(", ")
            ));
        }
        if seen.contains(&name) {
            return Err(format!("protocol {name} is listed twice"));
        }
        seen.push(name);
        if published.generator != GENERATOR {
            return Err(format!(
                "{name}: unknown generator {} (this runner has {GENERATOR:?})",
                crate::quote::prefix(&published.generator)
            ));
        }
        if !(1..=COUNT_MAX).contains(&published.count) {
            return Err(format!(
                "{name}: `count` is {}: it must be 1 to {COUNT_MAX}",
                published.count
            ));
        }
        if !(1..=published.count).contains(&published.checkpoint.count) {
            return Err(format!(
                "{name}: `checkpoint.count` is {}: it must be 1 to `count` ({})",
                published.checkpoint.count, published.count
            ));
        }
        for digest in [&published.digest, &published.checkpoint.digest] {
            if digest.len() != 64
                || !digest
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            {
                return Err(format!(
                    "{name}: digest {} is not 64 lowercase hex digits",
                    crate::quote::prefix(digest)
                ));
            }
        }
    }
    Ok(file)
}

/// Which SHA-256 feeds the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// `bloomproof-protocol`'s.
    Production,
    /// `bloomproof-oracle`'s.
    Oracle,
}

impl Side {
    fn sha256(self) -> fn(&[u8]) -> [u8; 32] {
        match self {
            Side::Production => bloomproof_protocol::doc_membership_v1::sha256,
            Side::Oracle => bloomproof_oracle::sha256::digest,
        }
    }
}

/// The next `n` inputs of `protocol` (an entry of `registry`) drawn from `stream`; none
/// for a protocol the registry does not have.
fn draw(
    registry: Registry,
    protocol: &str,
    stream: &mut Stream,
    n: usize,
) -> Option<Box<dyn Inputs>> {
    registry
        .find(protocol)
        .map(|entry| entry.accumulated(stream, n))
}

/// The running digest of the first `count` inputs of `protocol` as the oracle
/// computes them, the stream fed by `side`'s SHA-256, as lowercase hex; streaming.
pub fn digest(protocol: &str, side: Side, count: u64) -> Result<String, String> {
    if !crate::PROTOCOLS.contains(&protocol) {
        return Err(format!(
            "no accumulated generator for protocol {protocol:?}"
        ));
    }
    let mut stream = Stream::new(protocol, side.sha256());
    let mut hasher = bloomproof_oracle::sha256::Hasher::new();
    let mut done = 0u64;
    while done < count {
        let n = usize::try_from((count - done).min(CHUNK as u64)).unwrap_or(CHUNK);
        let Some(inputs) = draw(Registry::BUILT_IN, protocol, &mut stream, n) else {
            break;
        };
        for index in 0..inputs.len() {
            hasher.update(&inputs.oracle_outputs(index));
        }
        done += n as u64;
    }
    Ok(bloomproof_wire::encode_hex(&hasher.finish()))
}

/// The accumulated check of one protocol as a report shows it: the digest of the
/// implementation's answers (`full`: at the full count, else the checkpoint) against
/// the published one, the oracle's digest against it too, and the first input whose
/// answer differs from the oracle's. The digest is recorded as the figure
/// `accumulated.<checkpoint|full>`. The protocol is looked up in `registry` (the
/// run's: `Spec::registry`).
pub fn run_check(
    registry: Registry,
    published: &Published,
    full: bool,
    subjects: &mut crate::protocol::Subjects,
    figures: &mut Figures,
) -> CheckOutcome {
    let started = Instant::now();
    let (count, expected) = if full {
        (published.count, &published.digest)
    } else {
        (published.checkpoint.count, &published.checkpoint.digest)
    };
    let protocol = published.protocol.as_str();
    let mut outcome = CheckOutcome {
        protocol: protocol.to_string(),
        name: CHECK.to_string(),
        cases: 1,
        class: crate::report::Class::Core,
        inside_implementation: None,
        failures: Vec::new(),
        more_failures: 0,
        crashed: false,
        elapsed_ms: None,
    };
    let case = format!("accumulated/{}", if full { "full" } else { "checkpoint" });
    let fail =
        |outcome: &mut CheckOutcome, what: String, input, expected: String, actual: String| {
            outcome.failures.push(Failure {
                case: case.clone(),
                what,
                input,
                expected,
                actual,
            });
        };
    let mut stream = Stream::new(protocol, Side::Oracle.sha256());
    let mut theirs = bloomproof_oracle::sha256::Hasher::new();
    let mut ours = bloomproof_oracle::sha256::Hasher::new();
    let mut first_difference = None;
    let mut unanswered = None;
    let mut done = 0u64;
    while done < count {
        let n = usize::try_from((count - done).min(CHUNK as u64)).unwrap_or(CHUNK);
        let Some(inputs) = draw(registry, protocol, &mut stream, n) else {
            break;
        };
        let answers = inputs.ask(subjects);
        // The stream is the same on every run, so are the oracle's outputs of a chunk:
        // kept for the next implementation when a scope of `memo` is alive (a matrix).
        let wants = crate::generated::memo::get_or(
            "accumulated",
            || format!("{protocol} {done} {n}"),
            || {
                (0..inputs.len())
                    .map(|index| inputs.oracle_outputs(index))
                    .collect::<Vec<Vec<u8>>>()
            },
        );
        for (offset, answer) in answers.into_iter().enumerate().take(inputs.len()) {
            let index = done + offset as u64;
            let want = wants.get(offset).cloned().unwrap_or_default();
            ours.update(&want);
            match answer {
                Ok(got) => {
                    if got != want && first_difference.is_none() {
                        first_difference = Some((index, inputs.show(offset), want, got.clone()));
                    }
                    theirs.update(&got);
                }
                Err(err) => {
                    if unanswered.is_none() {
                        unanswered = Some((index, inputs.show(offset), err));
                    }
                }
            }
        }
        done += n as u64;
        if unanswered.is_some() {
            break;
        }
    }
    let label = if full { "full" } else { "checkpoint" };
    let hex = bloomproof_wire::encode_hex;
    if let Some((index, input, err)) = unanswered {
        fail(
            &mut outcome,
            format!("accumulated input #{index} answered (the digest needs every answer)"),
            input,
            "an answer".to_string(),
            err,
        );
    } else {
        let digest = hex(&theirs.finish());
        figures.set(&format!("accumulated.{label}"), &digest);
        if digest != *expected {
            fail(
                &mut outcome,
                format!(
                    "accumulated digest of the implementation's answers to {count} inputs equals the published one"
                ),
                serde_json::json!({"generator": GENERATOR, "count": count}),
                expected.clone(),
                digest,
            );
        }
        if let Some((index, input, want, got)) = first_difference {
            fail(
                &mut outcome,
                format!(
                    "first accumulated input whose answer differs from the oracle's: #{index} (outputs as spec/README.md lays them out)"
                ),
                input,
                hex(&want),
                hex(&got),
            );
        }
    }
    // The oracle's own digest says whether the spec file is right, and only when the
    // stream ran to its end (an unanswered input stops it early).
    let oracle = hex(&ours.finish());
    if done == count && oracle != *expected {
        fail(
            &mut outcome,
            format!(
                "the oracle's accumulated digest of {count} inputs equals the published one (the spec file is wrong)"
            ),
            serde_json::json!({"generator": GENERATOR, "count": count}),
            expected.clone(),
            oracle,
        );
    }
    outcome.elapsed_ms = Some(started.elapsed().as_secs_f64() * 1e3);
    outcome
}

/// The published figure a run of the accumulated check of `published` shows beside
/// its digest.
pub fn published_figure(published: &Published, full: bool) -> crate::model::PublishedFigure {
    let (label, digest) = if full {
        ("full", &published.digest)
    } else {
        ("checkpoint", &published.checkpoint.digest)
    };
    crate::model::PublishedFigure {
        name: format!("accumulated.{label}"),
        check: CHECK.to_string(),
        value: serde_json::Value::String(digest.clone()),
        source: "accumulated.json".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")
    }

    fn file() -> AccumulatedFile {
        let text = std::fs::read_to_string(spec_dir().join("accumulated.json"))
            .unwrap_or_else(|err| panic!("{err}"));
        parse(&text).unwrap_or_else(|err| panic!("{err}"))
    }

    #[test]
    fn checkpoints_match_the_published_digests() {
        for published in &file().protocols {
            let mut figures = Figures::default();
            let outcome = run_check(
                Registry::BUILT_IN,
                published,
                false,
                &mut crate::protocol::Subjects::rust(),
                &mut figures,
            );
            assert!(outcome.passed(), "{}", outcome.render_failures());
            assert_eq!(
                figures.0,
                vec![(
                    "accumulated.checkpoint".to_string(),
                    serde_json::json!(published.checkpoint.digest)
                )]
            );
            for side in [Side::Production, Side::Oracle] {
                assert_eq!(
                    digest(&published.protocol, side, published.checkpoint.count),
                    Ok(published.checkpoint.digest.clone())
                );
            }
        }
    }

    /// The full count, as `--accumulated-full` checks it: run with
    /// `cargo test --release -p bloomproof-conformance --lib -- --ignored accumulated`.
    #[test]
    #[ignore = "the full count takes seconds even optimised"]
    fn full_counts_match_the_published_digests() {
        for published in &file().protocols {
            let mut figures = Figures::default();
            let outcome = run_check(
                Registry::BUILT_IN,
                published,
                true,
                &mut crate::protocol::Subjects::rust(),
                &mut figures,
            );
            assert!(outcome.passed(), "{}", outcome.render_failures());
        }
    }

    #[test]
    fn the_embedded_copy_is_the_file() {
        let bytes = crate::embedded::file("accumulated.json").unwrap_or_default();
        let embedded = parse(std::str::from_utf8(bytes).unwrap_or_default());
        assert_eq!(embedded, Ok(file()));
    }

    #[test]
    fn a_wrong_digest_differs_and_names_the_oracle_too() {
        let mut published = file().protocols.remove(0);
        published.checkpoint.count = 3;
        let mut figures = Figures::default();
        let outcome = run_check(
            Registry::BUILT_IN,
            &published,
            false,
            &mut crate::protocol::Subjects::rust(),
            &mut figures,
        );
        let whats: Vec<&str> = outcome.failures.iter().map(|f| f.what.as_str()).collect();
        assert_eq!(whats.len(), 2, "{whats:?}");
        assert!(whats[0].starts_with("accumulated digest of the implementation's answers to 3"));
        assert!(whats[1].starts_with("the oracle's accumulated digest of 3"));
        assert_eq!(outcome.failures[0].actual, outcome.failures[1].actual);
    }

    #[test]
    fn files_the_runner_cannot_check_are_refused() {
        let good = std::fs::read_to_string(spec_dir().join("accumulated.json")).unwrap_or_default();
        for (from, to, says) in [
            (
                "\"count\": 1048576",
                "\"count\": 1000000000000",
                "`count` is 1000000000000: it must be 1 to 1048576",
            ),
            (
                "\"count\": 4096",
                "\"count\": 2000000",
                "`checkpoint.count` is 2000000",
            ),
            ("\"count\": 4096", "\"count\": 0", "`checkpoint.count` is 0"),
            (
                "\"format_version\": 1",
                "\"format_version\": 2",
                "`format_version` is 2",
            ),
            ("accumulated v1\"", "accumulated v2\"", "unknown generator"),
            (
                "\"digest\": \"2",
                "\"digest\": \"Z",
                "is not 64 lowercase hex digits",
            ),
        ] {
            assert!(good.contains(from), "{from}");
            let bad = good.replacen(from, to, 1);
            let err = parse(&bad).err().unwrap_or_default();
            assert!(err.contains(says), "{from} -> {to}: {err}");
        }
        assert!(
            parse("{")
                .err()
                .unwrap_or_default()
                .starts_with("not an accumulated file")
        );
    }

    /// The oracle's streaming SHA-256 equals its one-shot digest however the input is
    /// split.
    #[test]
    fn streaming_equals_one_shot() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 300] {
            let mut hasher = bloomproof_oracle::sha256::Hasher::new();
            hasher.update(&data[..split]);
            hasher.update(&data[split..]);
            assert_eq!(hasher.finish(), bloomproof_oracle::sha256::digest(&data));
        }
    }
}
