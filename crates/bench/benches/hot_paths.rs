//! The hot paths of both protocols, each beside its floor, for `cargo xtask bench`.
//!
//! Benchmark ids (directories under `target/criterion/`):
//!
//! * `doc_lookup/{member,nonmember,floor_member,floor_nonmember}_<variant>`: 64
//!   lookups per iteration; the floors run the block function alone on the same
//!   messages, pre-framed and pre-padded.
//! * `doc_build/{max_snapshot,floor}`: the 64-record maximum snapshot.
//! * `batch_lookup/{batch,parallel,one_core}_<n>`: batches of 32, 64, 128, 256, 4096
//!   and 65536 queries (half members) against the maximum snapshot: `lookup_batch` (on
//!   all cores from `BATCH_PARALLEL_MIN` queries), `lookup_batch_parallel` (always on
//!   all cores) and `lookup_batch_sequential`. The sizes below 256 show where all cores
//!   stop paying (`batch_parallel_min` in `cargo xtask bench`).
//! * `fnv/{positions,floor,floor_chained}_256`: 64 strings of 256 code units per iteration.
#![allow(
    clippy::unwrap_used,
    reason = "benchmark setup: a failure is a bug to see at once"
)]
#![allow(
    missing_docs,
    reason = "criterion_main! generates an undocumented main"
)]

use bloomproof_bench::{
    BATCH_SIZES, DOC_VARIANTS, all_padded_blocks, batch_queries, fnv_floor, fnv_floor_chained,
    fnv_params, fnv_strings, max_snapshot_params, max_snapshot_records, non_member_padded_blocks,
    sha256_floor,
};
use bloomproof_filter::DocumentPrefilter;
use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn doc_lookup(c: &mut Criterion) {
    let mut group = c.benchmark_group("doc_lookup");
    for variant in DOC_VARIANTS {
        let name = variant.name();
        let params = variant.params();
        let snapshot = variant.snapshot();
        let members = variant.members();
        let non_members = variant.non_members();
        let member_floor = all_padded_blocks(&params, &members);
        let non_member_floor = non_member_padded_blocks(&snapshot, &non_members);

        group.bench_function(format!("member_{name}"), |b| {
            b.iter(|| {
                for item in black_box(&members) {
                    black_box(snapshot.lookup(item).unwrap());
                }
            });
        });
        group.bench_function(format!("floor_member_{name}"), |b| {
            b.iter(|| black_box(sha256_floor(black_box(&member_floor))));
        });
        group.bench_function(format!("nonmember_{name}"), |b| {
            b.iter(|| {
                for item in black_box(&non_members) {
                    black_box(snapshot.lookup(item).unwrap());
                }
            });
        });
        group.bench_function(format!("floor_nonmember_{name}"), |b| {
            b.iter(|| black_box(sha256_floor(black_box(&non_member_floor))));
        });
    }
    group.finish();
}

fn doc_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("doc_build");
    let params = max_snapshot_params();
    let records = max_snapshot_records();
    let floor = all_padded_blocks(&params, &records);
    group.bench_function("max_snapshot", |b| {
        b.iter(|| DocumentPrefilter::with_params(params, black_box(&records)).unwrap());
    });
    group.bench_function("floor", |b| {
        b.iter(|| black_box(sha256_floor(black_box(&floor))));
    });
    group.finish();
}

fn batch_lookup(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch_lookup");
    let snapshot =
        DocumentPrefilter::with_params(max_snapshot_params(), &max_snapshot_records()).unwrap();
    for len in BATCH_SIZES {
        let queries = batch_queries(len);
        let items: Vec<&[u8]> = queries.iter().map(Vec::as_slice).collect();
        let one = snapshot.lookup_batch_sequential(&items);
        assert_eq!(snapshot.lookup_batch(&items), one);
        assert_eq!(snapshot.lookup_batch_parallel(&items), one);
        group.bench_function(format!("batch_{len}"), |b| {
            b.iter(|| black_box(snapshot.lookup_batch(black_box(&items))));
        });
        group.bench_function(format!("parallel_{len}"), |b| {
            b.iter(|| black_box(snapshot.lookup_batch_parallel(black_box(&items))));
        });
        group.bench_function(format!("one_core_{len}"), |b| {
            b.iter(|| black_box(snapshot.lookup_batch_sequential(black_box(&items))));
        });
    }
    group.finish();
}

fn fnv_positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("fnv");
    let params = fnv_params();
    let strings = fnv_strings();
    group.bench_function("positions_256", |b| {
        b.iter(|| {
            for units in black_box(&strings) {
                black_box(fnv::hashes_and_positions(&params, units));
            }
        });
    });
    group.bench_function("floor_256", |b| {
        b.iter(|| {
            for units in black_box(&strings) {
                black_box(fnv_floor(units));
            }
        });
    });
    group.bench_function("floor_chained_256", |b| {
        b.iter(|| black_box(fnv_floor_chained(black_box(&strings))));
    });
    group.finish();
}

criterion_group!(benches, doc_lookup, doc_build, batch_lookup, fnv_positions);
criterion_main!(benches);
