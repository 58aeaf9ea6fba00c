//! Accumulated checks: about a million generated inputs per protocol, every output fed
//! into one SHA-256, compared with the digest published in `spec/accumulated.json`.
//!
//! The generator is defined byte by byte in `spec/README.md` ("Accumulated checks").
//! It runs in process only: through an adapter a million requests would take minutes,
//! so under `--impl` the runner prints a note instead. It is computed twice, once with
//! the production crate (`bloomproof-protocol`) and once with the independent oracle
//! (`bloomproof-oracle`), each with its own SHA-256 for the stream and the digest.
//!
//! By default the published checkpoint is checked (the digest after the first
//! `checkpoint.count` inputs), so the suite stays fast; `--accumulated-full` checks the
//! full count (about 20 s in an optimised build, most of it the oracle).

pub use bloomproof_format::accumulated::{AccumulatedFile, Checkpoint, Published};
use std::path::Path;
use std::time::{Duration, Instant};

/// The generator's name, and the first bytes of every stream block's hashed input.
pub const GENERATOR: &str = "bloomproof accumulated v1";

/// Reads `spec/accumulated.json` from the spec folder.
pub fn load(spec_dir: &Path) -> Result<AccumulatedFile, String> {
    let path = spec_dir.join("accumulated.json");
    let bytes =
        crate::embedded::read_file(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|err| format!("{}: not UTF-8: {}", path.display(), err.utf8_error()))?;
    parse(&text, &path.display().to_string())
}

/// Reads `accumulated.json` from the spec folder, or from the spec embedded in this
/// binary ([`crate::embedded::file`]) when `None`.
pub fn load_from(spec_dir: Option<&Path>) -> Result<AccumulatedFile, String> {
    let Some(dir) = spec_dir else {
        let name = format!("{}/accumulated.json", crate::embedded::LABEL);
        let bytes = crate::embedded::file("accumulated.json")
            .ok_or_else(|| format!("{name}: not embedded"))?;
        let text = std::str::from_utf8(bytes).map_err(|err| format!("{name}: {err}"))?;
        return parse(text, &name);
    };
    load(dir)
}

fn parse(text: &str, name: &str) -> Result<AccumulatedFile, String> {
    let file: AccumulatedFile =
        serde_json::from_str(text).map_err(|err| format!("{name}: {err}"))?;
    if file.format_version != 1 {
        return Err(format!("{name}: format_version is not 1"));
    }
    Ok(file)
}

/// The accumulated checks as `bloomproof conformance` and `cargo xtask conformance`
/// run them, after the report: one line per protocol and side on stderr, with its
/// time. Under `--impl` (`adapter`) a note says they were skipped (they run in process
/// only); a `--filter` skips them unless it contains `accumulated`. Returns whether
/// they passed (true when skipped).
pub fn check_in_process(
    spec_dir: Option<&Path>,
    adapter: bool,
    filter: Option<&str>,
    full: bool,
) -> bool {
    compute_in_process(spec_dir, adapter, filter, full).print()
}

/// What [`check_in_process`] prints, computed: the front end computes it while the
/// suite runs and prints it after the report.
#[derive(Debug)]
pub struct InProcess {
    /// The lines for stderr.
    lines: Vec<String>,
    /// Whether the checks passed (or were skipped).
    passed: bool,
}

impl InProcess {
    /// Prints the lines on stderr; returns whether the checks passed (true when skipped).
    pub fn print(&self) -> bool {
        for line in &self.lines {
            eprintln!("{line}");
        }
        self.passed
    }
}

/// [`check_in_process`] without printing.
pub fn compute_in_process(
    spec_dir: Option<&Path>,
    adapter: bool,
    filter: Option<&str>,
    full: bool,
) -> InProcess {
    if adapter {
        return InProcess {
            lines: vec![
                "accumulated: skipped under --impl (in process only: a million adapter requests \
                 would take minutes; see spec/README.md, \"Accumulated checks\")"
                    .to_string(),
            ],
            passed: true,
        };
    }
    if filter.is_some_and(|f| !f.contains("accumulated")) {
        return InProcess {
            lines: Vec::new(),
            passed: true,
        };
    }
    let file = match load_from(spec_dir) {
        Ok(file) => file,
        Err(err) => {
            return InProcess {
                lines: vec![format!("accumulated: {err}")],
                passed: false,
            };
        }
    };
    let scope = if full {
        "the full count"
    } else {
        "the published checkpoint; --accumulated-full checks the full count"
    };
    let mut lines = vec![format!("\naccumulated checks, in process ({scope}):")];
    let mut passed = true;
    for outcome in run(&file, full) {
        lines.push(format!("  {}", outcome.render()));
        passed &= outcome.passed();
    }
    InProcess { lines, passed }
}

/// The SHA-256 counter stream: block `i` is `SHA-256(GENERATOR || protocol ||
/// u64_be(i))`, the blocks read one after the other.
struct Stream {
    prefix: Vec<u8>,
    counter: u64,
    block: [u8; 32],
    used: usize,
    sha256: fn(&[u8]) -> [u8; 32],
}

impl Stream {
    fn new(protocol: &str, sha256: fn(&[u8]) -> [u8; 32]) -> Self {
        let mut prefix = GENERATOR.as_bytes().to_vec();
        prefix.extend_from_slice(protocol.as_bytes());
        Stream {
            prefix,
            counter: 0,
            block: [0; 32],
            used: 32,
            sha256,
        }
    }

    fn byte(&mut self) -> u8 {
        if self.used == 32 {
            let mut input = self.prefix.clone();
            input.extend_from_slice(&self.counter.to_be_bytes());
            self.block = (self.sha256)(&input);
            self.counter += 1;
            self.used = 0;
        }
        let b = self.block[self.used];
        self.used += 1;
        b
    }

    fn u16(&mut self) -> u16 {
        u16::from_be_bytes([self.byte(), self.byte()])
    }

    fn take(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.byte()).collect()
    }
}

/// One `doc-membership-v1` input.
struct DocInput {
    m: u16,
    k: u8,
    seed: Vec<u8>,
    item: Vec<u8>,
}

fn doc_input(stream: &mut Stream) -> DocInput {
    let m = 8 + stream.u16() % 505;
    let k = 1 + stream.byte() % 8;
    let seed_len = stream.byte() % 17;
    let seed = stream.take(usize::from(seed_len));
    let item_len = stream.byte() % 65;
    let item = stream.take(usize::from(item_len));
    DocInput { m, k, seed, item }
}

/// One `fnv1a-utf16-v1` input.
struct FnvInput {
    m: u16,
    k: u8,
    units: Vec<u16>,
}

fn fnv_input(stream: &mut Stream) -> FnvInput {
    let m = 8 + stream.u16() % 1017;
    let k = 1 + stream.byte() % 12;
    let t = stream.byte();
    let u = usize::from(stream.byte());
    let len = if t < 192 {
        1 + u % 16
    } else if t < 240 {
        1 + u % 64
    } else {
        1 + u
    };
    let units = (0..len)
        .map(|_| {
            let class = stream.byte() % 8;
            let v = stream.u16();
            match class {
                0..=2 => v % 0x80,
                3 => 0x80 + v % 0x780,
                4 => v,
                5 => 0xD800 + v % 0x400,
                6 => 0xDC00 + v % 0x400,
                _ => 0xFFFF - v % 16,
            }
        })
        .collect();
    FnvInput { m, k, units }
}

/// Which implementation computes the outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// `bloomproof-protocol`, with its SHA-256.
    Production,
    /// `bloomproof-oracle`, with its own SHA-256.
    Oracle,
}

impl Side {
    /// `production` or `oracle`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Production => "production",
            Side::Oracle => "oracle",
        }
    }

    fn sha256(self) -> fn(&[u8]) -> [u8; 32] {
        match self {
            Side::Production => bloomproof_protocol::doc_membership_v1::sha256,
            Side::Oracle => bloomproof_oracle::sha256::digest,
        }
    }
}

/// Appends the outputs of one `doc-membership-v1` input: the `k` positions, each as
/// `u16` big-endian.
fn doc_outputs(side: Side, input: &DocInput, out: &mut Vec<u8>) -> Result<(), String> {
    use bloomproof_protocol::doc_membership_v1 as doc;
    match side {
        Side::Production => {
            let params = doc::Params::new(u64::from(input.m), u64::from(input.k), &input.seed)
                .map_err(|err| format!("production refused a generated input: {err:?}"))?;
            let positions = doc::fast::positions(&params, &input.item)
                .map_err(|err| format!("production refused a generated item: {err:?}"))?;
            for p in positions.as_slice() {
                out.extend_from_slice(&p.to_be_bytes());
            }
        }
        Side::Oracle => {
            for p in bloomproof_oracle::doc_membership::positions(
                u32::from(input.m),
                u32::from(input.k),
                &input.seed,
                &input.item,
            ) {
                out.extend_from_slice(&low_16(p).to_be_bytes());
            }
        }
    }
    Ok(())
}

/// Appends the outputs of one `fnv1a-utf16-v1` input: `h1`, `h2` as `u32` big-endian,
/// then the `k` positions as `u16` big-endian.
fn fnv_outputs(side: Side, input: &FnvInput, out: &mut Vec<u8>) -> Result<(), String> {
    use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
    match side {
        Side::Production => {
            let params = fnv::Params::new(u64::from(input.m), u64::from(input.k))
                .map_err(|err| format!("production refused a generated input: {err:?}"))?;
            let (hashes, positions) = fnv::hashes_and_positions(&params, &input.units);
            out.extend_from_slice(&hashes.h1.to_be_bytes());
            out.extend_from_slice(&hashes.h2.to_be_bytes());
            for p in positions.as_slice() {
                out.extend_from_slice(&p.to_be_bytes());
            }
        }
        Side::Oracle => {
            use bloomproof_oracle::fnv1a_utf16 as oracle;
            out.extend_from_slice(&oracle::h1(&input.units).to_be_bytes());
            out.extend_from_slice(&oracle::h2(&input.units).to_be_bytes());
            for p in oracle::positions(u32::from(input.m), u32::from(input.k), &input.units) {
                out.extend_from_slice(&low_16(p).to_be_bytes());
            }
        }
    }
    Ok(())
}

/// A position is below m <= 1024: its low 16 bits are the position.
fn low_16(p: u32) -> u16 {
    (p & 0xFFFF) as u16
}

/// The running digest of the first `count` inputs of `protocol`, computed by `side`,
/// as lowercase hex.
pub fn digest(protocol: &str, side: Side, count: u64) -> Result<String, String> {
    let mut stream = Stream::new(protocol, side.sha256());
    let mut outputs = Vec::new();
    for _ in 0..count {
        match protocol {
            "doc-membership-v1" => doc_outputs(side, &doc_input(&mut stream), &mut outputs)?,
            "fnv1a-utf16-v1" => fnv_outputs(side, &fnv_input(&mut stream), &mut outputs)?,
            other => return Err(format!("no accumulated generator for protocol {other:?}")),
        }
    }
    Ok(bloomproof_format::encode_hex(&(side.sha256())(&outputs)))
}

/// One accumulated comparison: a protocol, a side, a count, the digest and the time.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The protocol.
    pub protocol: String,
    /// Who computed it.
    pub side: Side,
    /// How many inputs.
    pub count: u64,
    /// The digest computed here (or why none was).
    pub computed: Result<String, String>,
    /// The published digest for that count.
    pub published: String,
    /// How long it took.
    pub elapsed: Duration,
}

impl Outcome {
    /// Whether the computed digest equals the published one.
    pub fn passed(&self) -> bool {
        self.computed.as_ref().is_ok_and(|d| *d == self.published)
    }

    /// `accumulated.<protocol>.<side>: <digest> (published <digest>, N inputs, T s)`,
    /// with `DIFFERS` when it differs.
    pub fn render(&self) -> String {
        let computed = match &self.computed {
            Ok(d) => d.clone(),
            Err(err) => format!("error: {err}"),
        };
        let mark = if self.passed() { "" } else { " DIFFERS" };
        format!(
            "accumulated.{}.{}: {computed} (published {}, {} inputs, {:.2} s){mark}",
            self.protocol,
            self.side.name(),
            self.published,
            self.count,
            self.elapsed.as_secs_f64()
        )
    }
}

/// Runs every published accumulated check with production and the oracle: the full
/// count when `full`, else the checkpoint. Each (protocol, side) is independent and
/// runs on a thread of its own; the outcomes come in file order, production first.
pub fn run(file: &AccumulatedFile, full: bool) -> Vec<Outcome> {
    let jobs: Vec<(&Published, Side)> = file
        .protocols
        .iter()
        .flat_map(|published| [(published, Side::Production), (published, Side::Oracle)])
        .collect();
    let one = |(published, side): (&Published, Side)| {
        let (count, expected) = if full {
            (published.count, &published.digest)
        } else {
            (published.checkpoint.count, &published.checkpoint.digest)
        };
        let start = Instant::now();
        let computed = if published.generator == GENERATOR {
            digest(&published.protocol, side, count)
        } else {
            Err(format!("unknown generator {:?}", published.generator))
        };
        Outcome {
            protocol: published.protocol.clone(),
            side,
            count,
            computed,
            published: expected.clone(),
            elapsed: start.elapsed(),
        }
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .into_iter()
            .map(|job| scope.spawn(move || one(job)))
            .collect();
        handles
            .into_iter()
            .map(|handle| match handle.join() {
                Ok(outcome) => outcome,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")
    }

    #[test]
    fn checkpoints_match_the_published_digests() {
        let file = load(&spec_dir()).unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(file.protocols.len(), 2);
        for outcome in run(&file, false) {
            assert!(outcome.passed(), "{}", outcome.render());
        }
    }

    /// The full count, as `--accumulated-full` checks it: run with
    /// `cargo test --release -p bloomproof-conformance --lib -- --ignored accumulated`.
    #[test]
    #[ignore = "the full count takes seconds even optimised"]
    fn full_counts_match_the_published_digests() {
        let file = load(&spec_dir()).unwrap_or_else(|err| panic!("{err}"));
        for outcome in run(&file, true) {
            eprintln!("{}", outcome.render());
            assert!(outcome.passed(), "{}", outcome.render());
        }
    }

    #[test]
    fn the_embedded_copy_loads_and_is_the_file() {
        let embedded = load_from(None).unwrap_or_else(|err| panic!("{err}"));
        let on_disk = load(&spec_dir()).unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(format!("{embedded:?}"), format!("{on_disk:?}"));
    }

    #[test]
    fn a_wrong_digest_differs() {
        let mut file = load(&spec_dir()).unwrap_or_else(|err| panic!("{err}"));
        file.protocols.truncate(1);
        file.protocols[0].checkpoint.count = 3;
        let outcomes = run(&file, false);
        assert!(outcomes.iter().all(|o| !o.passed()));
        assert!(outcomes[0].render().ends_with("DIFFERS"));
        assert_eq!(outcomes[0].computed, outcomes[1].computed);
    }
}
