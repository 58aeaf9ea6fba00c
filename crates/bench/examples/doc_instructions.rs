//! The doc-membership hot paths as a plain loop, for an instruction count (a profiler
//! on a loaded machine, where wall time says little):
//!
//! ```sh
//! cargo build --profile bench -p bloomproof-bench --example doc_instructions
//! valgrind --tool=callgrind target/release/examples/doc_instructions build 1
//! valgrind --tool=callgrind target/release/examples/doc_instructions build 101
//! ```
//!
//! `build N` builds the maximum snapshot of `doc_build` (64 records of 64 bytes, m =
//! 512, k = 8, 16-byte seed) N times; `lookup N` looks up its 64 members and 64
//! non-members N times. The difference between two runs' counts, divided by the
//! records (or lookups) between them, is the cost of one, the process's start and end
//! cancelled. Under valgrind the CPU offers no SHA extensions, so `sha2` takes its
//! software block function (`sha2::sha256::soft`), the same count on both sides of
//! any change to the framing: count the rest apart (crates/bench/NOTES.md).
#![allow(
    clippy::unwrap_used,
    reason = "benchmark setup: a failure is a bug to see at once"
)]

use bloomproof_bench::{max_snapshot_params, max_snapshot_records};
use bloomproof_filter::DocumentPrefilter;
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, times) = match args.as_slice() {
        [mode, times] => (mode.as_str(), times.parse::<usize>().ok()),
        _ => ("", None),
    };
    let Some(times) = times else {
        eprintln!("usage: doc_instructions build|lookup N");
        std::process::exit(2);
    };
    let params = max_snapshot_params();
    let records = max_snapshot_records();
    let mut seen = 0u32;
    match mode {
        "build" => {
            for _ in 0..times {
                let built = DocumentPrefilter::with_params(params, black_box(&records)).unwrap();
                seen += built.bits_set();
            }
        }
        "lookup" => {
            let built = DocumentPrefilter::with_params(params, &records).unwrap();
            let others: Vec<Vec<u8>> = records
                .iter()
                .map(|record| record.iter().map(|byte| byte ^ 0x80).collect())
                .collect();
            for _ in 0..times {
                for item in records.iter().chain(&others) {
                    seen += u32::from(built.lookup(black_box(item)).unwrap().maybe_present);
                }
            }
        }
        _ => {
            eprintln!("usage: doc_instructions build|lookup N");
            std::process::exit(2);
        }
    }
    println!("{seen}");
}
