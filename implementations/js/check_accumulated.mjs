#!/usr/bin/env node
// Checks the accumulated digests of spec/accumulated.json with the JavaScript
// implementation in this folder.
//
//   node implementations/js/check_accumulated.mjs [--quick] [spec/accumulated.json]
//
// The generator (spec/README.md, "Accumulated checks") draws inputs from a SHA-256
// counter stream; doc_membership_v1.mjs and fnv1a_utf16_v1.mjs compute every input's
// outputs (doc-membership-v1: the k positions; fnv1a-utf16-v1: h1, h2 and the
// positions), which are fed into one running SHA-256. For each protocol it prints the
// digest, the published one, the time and `ok` or `DIFFERS`; exit code 1 when one
// differs. `--quick` stops at the published checkpoint. No dependencies.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as dm from './doc_membership_v1.mjs';
import * as fnv from './fnv1a_utf16_v1.mjs';

const GENERATOR = 'bloomproof accumulated v1';

/** Block i is SHA-256(generator || protocol || u64_be(i)); blocks are read in order. */
class Stream {
  constructor(protocol) {
    this.prefix = Buffer.from(GENERATOR + protocol, 'ascii');
    this.counter = 0n;
    this.block = new Uint8Array(0);
    this.used = 0;
  }

  byte() {
    if (this.used === this.block.length) {
      const input = Buffer.alloc(this.prefix.length + 8);
      this.prefix.copy(input, 0);
      input.writeBigUInt64BE(this.counter, this.prefix.length);
      this.block = dm.sha256Digest(input);
      this.counter += 1n;
      this.used = 0;
    }
    return this.block[this.used++];
  }

  u16() {
    const high = this.byte();
    return (high << 8) | this.byte();
  }

  take(n) {
    const out = new Uint8Array(n);
    for (let j = 0; j < n; j++) out[j] = this.byte();
    return out;
  }
}

function u16be(out, value) {
  out.push((value >>> 8) & 0xff, value & 0xff);
}

function u32be(out, value) {
  out.push((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
}

function docOne(stream) {
  const m = 8 + (stream.u16() % 505);
  const k = 1 + (stream.byte() % 8);
  const seed = stream.take(stream.byte() % 17);
  const item = stream.take(stream.byte() % 65);
  const out = [];
  for (const p of dm.positions(m, k, seed, item)) u16be(out, p);
  return out;
}

function unit(cls, v) {
  switch (cls) {
    case 0: case 1: case 2: return v % 0x80;
    case 3: return 0x80 + (v % 0x780);
    case 4: return v;
    case 5: return 0xd800 + (v % 0x400);
    case 6: return 0xdc00 + (v % 0x400);
    default: return 0xffff - (v % 16);
  }
}

function fnvOne(stream) {
  const m = 8 + (stream.u16() % 1017);
  const k = 1 + (stream.byte() % 12);
  const t = stream.byte();
  const u = stream.byte();
  const length = t < 192 ? 1 + (u % 16) : t < 240 ? 1 + (u % 64) : 1 + u;
  const units = new Array(length);
  for (let j = 0; j < length; j++) {
    const cls = stream.byte() % 8;
    units[j] = unit(cls, stream.u16());
  }
  const { h1, h2, positions } = fnv.fnvPositions(m, k, units);
  const out = [];
  u32be(out, h1);
  u32be(out, h2);
  for (const p of positions) u16be(out, p);
  return out;
}

const ONE = { 'doc-membership-v1': docOne, 'fnv1a-utf16-v1': fnvOne };

function run(entry, quick) {
  const one = ONE[entry.protocol];
  const stream = new Stream(entry.protocol);
  const running = createHash('sha256');
  const checkpoint = entry.checkpoint.count;
  const count = quick ? checkpoint : entry.count;
  let atCheckpoint = null;
  for (let n = 0; n < count; n++) {
    running.update(Uint8Array.from(one(stream)));
    if (n + 1 === checkpoint) atCheckpoint = running.copy().digest('hex');
  }
  return { atCheckpoint, digest: running.digest('hex'), count };
}

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const path = resolve(args.find((a) => a !== '--quick') ?? join('spec', 'accumulated.json'));
const published = JSON.parse(readFileSync(path, 'utf8'));
let failed = 0;
let skipped = 0;
for (const entry of published.protocols) {
  if (!(entry.protocol in ONE)) {
    // As the adapter's handshake says; the runner reports it as not run.
    console.log(`accumulated.${entry.protocol}: a protocol this package does not implement: skipped`);
    skipped += 1;
    continue;
  }
  if (entry.generator !== GENERATOR) {
    console.log(`${entry.protocol}: unknown generator ${JSON.stringify(entry.generator)}: DIFFERS`);
    failed += 1;
    continue;
  }
  const start = process.hrtime.bigint();
  const { atCheckpoint, digest, count } = run(entry, quick);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const want = quick ? entry.checkpoint.digest : entry.digest;
  const checkpointOk = atCheckpoint === entry.checkpoint.digest;
  const ok = digest === want && checkpointOk;
  if (!ok) failed += 1;
  console.log(`accumulated.${entry.protocol}: ${digest} (published ${want}, ${count} inputs, ${seconds.toFixed(1)} s) ${ok ? 'ok' : 'DIFFERS'}`);
  if (!checkpointOk) {
    console.log(`  checkpoint after ${entry.checkpoint.count}: ${atCheckpoint} (published ${entry.checkpoint.digest}) DIFFERS`);
  }
}
console.log(`${published.protocols.length - failed - skipped} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
