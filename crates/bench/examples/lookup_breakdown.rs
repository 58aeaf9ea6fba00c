//! Where a member lookup's time goes beyond the SHA-256 floor, step by step, for the four
//! lookup variants of `cargo xtask bench` (see BENCHMARKS.md):
//!
//! ```sh
//! cargo run --profile bench -p bloomproof-bench --example lookup_breakdown [ROUNDS]
//! ```
//!
//! Each step adds one part of the lookup to the one before, on the same 64 members:
//!
//! 1. `floor`: the block function on ready, hand-padded blocks (`sha256_floor`);
//! 2. `states`: items framed before timing (`FramedItem`), then the k digests, the
//!    hash index rewritten in place between them;
//! 3. `positions`: and each digest reduced mod m and its bit tested;
//! 4. `framed`: and each item framed inside the timing (`FramedItem::with`);
//! 5. `lookup`: `DocumentPrefilter::lookup`, which adds the exact-set probe and the
//!    answer;
//!
//! and, apart from the steps, `frame`: the framing of step 4 alone, no block function.
//! Step 4's increase over step 3 less `frame` is what the framing costs the block
//! function that reads it right after (a store-forwarding stall: the block function
//! reads 16-byte lanes that narrower writes have just filled).
//!
//! Rounds are interleaved and each figure is the fastest round, so that load from
//! other processes shifts all of them alike. A diagnostic: no goal is checked here.
#![allow(
    clippy::unwrap_used,
    reason = "benchmark setup: a failure is a bug to see at once"
)]

use bloomproof_bench::{
    DOC_VARIANTS, LOOKUPS_PER_ITER, all_padded_blocks, max_snapshot_params, max_snapshot_records,
    sha256_floor,
};
use bloomproof_filter::DocumentPrefilter;
use bloomproof_protocol::doc_membership_v1::fast::FramedItem;
use std::hint::black_box;
use std::time::Instant;

/// Nanoseconds `f` takes.
fn time(f: impl FnOnce()) -> f64 {
    let started = Instant::now();
    f();
    started.elapsed().as_secs_f64() * 1e9
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .unwrap_or(3000);
    println!("fastest of {rounds} interleaved rounds, per lookup, and as a multiple of the floor");
    for variant in DOC_VARIANTS {
        let params = variant.params();
        let snapshot = variant.snapshot();
        let members = variant.members();
        let floor_blocks = all_padded_blocks(&params, &members);
        let framed: Vec<FramedItem> = members
            .iter()
            .map(|item| FramedItem::new(&params, item).unwrap())
            .collect();
        let mut best = [f64::MAX; 6];
        for _ in 0..rounds {
            let figures = [
                time(|| {
                    black_box(sha256_floor(black_box(&floor_blocks)));
                }),
                {
                    let mut framed = framed.clone();
                    time(|| {
                        for item in black_box(&mut framed) {
                            for index in 0..params.k() {
                                black_box(item.state(index));
                            }
                        }
                    })
                },
                {
                    let mut framed = framed.clone();
                    time(|| {
                        for item in black_box(&mut framed) {
                            for index in 0..params.k() {
                                black_box(snapshot.bit(item.position(index)));
                            }
                        }
                    })
                },
                time(|| {
                    for item in black_box(&members) {
                        FramedItem::with(&params, item, |framed| {
                            for index in 0..params.k() {
                                black_box(snapshot.bit(framed.position(index)));
                            }
                        })
                        .unwrap();
                    }
                }),
                time(|| {
                    for item in black_box(&members) {
                        black_box(snapshot.lookup(item).unwrap());
                    }
                }),
                time(|| {
                    for item in black_box(&members) {
                        FramedItem::with(&params, item, |framed| {
                            black_box(framed.blocks(0)[0][63]);
                        })
                        .unwrap();
                    }
                }),
            ];
            for (best, figure) in best.iter_mut().zip(figures) {
                *best = best.min(figure);
            }
        }
        let floor = best[0];
        let per = |ns: f64| ns / LOOKUPS_PER_ITER as f64;
        println!("{}:", variant.name());
        for (name, ns) in ["floor", "states", "positions", "framed", "lookup", "frame"]
            .iter()
            .zip(best)
        {
            println!("  {name:<10} {:8.1} ns  {:.3}", per(ns), ns / floor);
        }
    }
    let params = max_snapshot_params();
    let records = max_snapshot_records();
    let floor_blocks = all_padded_blocks(&params, &records);
    let (mut build, mut floor) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        floor = floor.min(time(|| {
            black_box(sha256_floor(black_box(&floor_blocks)));
        }));
        build = build.min(time(|| {
            black_box(DocumentPrefilter::with_params(params, black_box(&records)).unwrap());
        }));
    }
    println!(
        "build of the maximum snapshot: {:.2} us, floor {:.2} us, {:.3}",
        build / 1e3,
        floor / 1e3,
        build / floor
    );
}
