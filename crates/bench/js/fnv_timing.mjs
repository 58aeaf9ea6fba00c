// Times the JavaScript fnv1a-utf16-v1 implementation on the benchmark strings, for
// `cargo xtask bench` (fnv_rust_vs_js).
//
//   node fnv_timing.mjs INPUT.json MODULE.mjs [ROUNDS]
//
// INPUT.json is written by `bloomproof-bench-probe fnv-input`: {m, k, cases: [{units,
// h1, h2, positions}]}, the same strings the Rust benchmark hashes, with the Rust
// answers. MODULE.mjs must export fnvPositions(m, k, units) -> {h1, h2, positions}.
// Every answer is checked against Rust's before any timing; then each round hashes
// every string `reps` times and the median round gives nanoseconds per string.
// Prints key=value lines.

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [inputPath, modulePath, roundsArg] = process.argv.slice(2);
if (!inputPath || !modulePath) {
  console.error('usage: node fnv_timing.mjs INPUT.json MODULE.mjs [ROUNDS]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 31);
const input = JSON.parse(readFileSync(inputPath, 'utf8'));
const { fnvPositions } = await import(pathToFileURL(resolve(modulePath)).href);
if (typeof fnvPositions !== 'function') {
  console.error(`${modulePath} does not export fnvPositions`);
  process.exit(1);
}

const { m, k, cases } = input;
let checksum = 0;
for (const [index, c] of cases.entries()) {
  const got = fnvPositions(m, k, c.units);
  const same =
    got.h1 === c.h1 &&
    got.h2 === c.h2 &&
    got.positions.length === c.positions.length &&
    got.positions.every((p, i) => p === c.positions[i]);
  if (!same) {
    console.error(`string ${index}: JavaScript ${JSON.stringify(got)} differs from Rust ` +
      `${JSON.stringify({ h1: c.h1, h2: c.h2, positions: c.positions })}`);
    process.exit(1);
  }
  checksum += got.h1 + got.h2 + got.positions.reduce((a, b) => a + b, 0);
}

const unitsList = cases.map((c) => c.units);
let sink = 0;
function pass(reps) {
  for (let r = 0; r < reps; r++) {
    for (const units of unitsList) {
      const out = fnvPositions(m, k, units);
      sink ^= out.positions[out.positions.length - 1];
    }
  }
}

// Warm up until the JIT has settled, then size a round to about 20 ms.
const warmEnd = process.hrtime.bigint() + 500_000_000n;
let reps = 1;
while (process.hrtime.bigint() < warmEnd) pass(reps);
for (;;) {
  const t0 = process.hrtime.bigint();
  pass(reps);
  if (Number(process.hrtime.bigint() - t0) > 20e6 || reps > 1 << 20) break;
  reps *= 2;
}
const perString = [];
for (let round = 0; round < rounds; round++) {
  const t0 = process.hrtime.bigint();
  pass(reps);
  const ns = Number(process.hrtime.bigint() - t0);
  perString.push(ns / (reps * unitsList.length));
}
perString.sort((a, b) => a - b);
console.log(`js_strings=${unitsList.length}`);
console.log(`js_checksum=${checksum}`);
console.log(`js_ns_per_string_median=${perString[perString.length >> 1].toFixed(3)}`);
console.log(`js_ns_per_string_min=${perString[0].toFixed(3)}`);
console.log(`js_node=${process.version}`);
console.log(`js_sink=${sink}`);
