// DocumentPrefilter.read and the adapter op `read` (spec/ADAPTER.md, "Reading a snapshot"):
// an intact snapshot is accepted and answers like the one built from its records; every
// kind of damage is rejected with the documented field, and when several checks fail the
// first in the documented order decides.
//
//   node --test implementations/js/test/

import test from 'node:test';
import assert from 'node:assert/strict';
import * as dm from 'bloomproof-js/doc-membership-v1';
import { handle } from 'bloomproof-js/adapter';

const { DocumentPrefilter } = dm;
const ascii = (s) => new TextEncoder().encode(s);
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const unhex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const name = (i) => `doc-${String(i).padStart(2, '0')}`;
const LAB = ascii('lab');
const FIXTURE = Object.freeze([0, 1, 2, 3].map((i) => ascii(name(i))));
const UNIVERSE = Array.from({ length: 64 }, (_, i) => ascii(name(i)));

/** The packed bits the oracle (hex framing, BigInt reduction) gives for `records`. */
function oraclePacked(records, m, k, seed) {
  const out = new Uint8Array((m + 7) >> 3);
  for (const r of records) for (const p of dm.referencePositions(m, k, seed, r)) out[p >> 3] |= 1 << (p & 7);
  return out;
}
const withBit = (packed, p, on) => {
  const out = Uint8Array.from(packed);
  if (on) out[p >> 3] |= 1 << (p & 7); else out[p >> 3] &= ~(1 << (p & 7));
  return out;
};
const isSet = (packed, p) => (packed[p >> 3] & (1 << (p & 7))) !== 0;

/** {kind, field, message} of what `fn` throws (kind: type or value), or null. */
function errorOf(fn) {
  try { fn(); } catch (e) {
    if (typeof e.field !== 'string') throw e;
    return { kind: e instanceof TypeError ? 'type' : e instanceof RangeError ? 'value' : 'other', field: e.field, message: e.message };
  }
  return null;
}

const read = (packed, records = FIXTURE, m = 16, k = 3, seed = LAB) => DocumentPrefilter.read(m, k, seed, packed, records);

function sameSnapshot(a, b, probes = UNIVERSE) {
  assert.equal(a.m, b.m);
  assert.equal(a.k, b.k);
  assert.equal(hex(a.seed), hex(b.seed));
  assert.equal(a.bits, b.bits);
  assert.equal(hex(a.packedBits()), hex(b.packedBits()));
  assert.equal(a.documentCount, b.documentCount);
  assert.deepEqual(a.documents.map(hex), b.documents.map(hex));
  for (const p of probes) assert.deepEqual({ ...a.lookup(p) }, { ...b.lookup(p) }, `lookup ${hex(p)}`);
}

test('the seed fixture: d291 is read back and answers like the built snapshot', () => {
  assert.equal(hex(oraclePacked(FIXTURE, 16, 3, LAB)), 'd291');
  const snap = read(unhex('d291'));
  assert.ok(snap instanceof DocumentPrefilter);
  assert.ok(Object.isFrozen(snap));
  sameSnapshot(snap, new DocumentPrefilter(FIXTURE, 16, 3, LAB));
  assert.equal(hex(snap.packedBits()), 'd291');
  assert.equal(snap.documentCount, 4);
  // The published false positives stay false positives, never duplicates.
  for (const fp of [4, 41, 43, 44, 51]) assert.deepEqual({ ...snap.lookup(UNIVERSE[fp]) }, { maybe_present: true, exact_checked: true, duplicate: false });
});

test('repeated and reordered records are read like build takes them', () => {
  const records = Object.freeze([FIXTURE[3], FIXTURE[0], FIXTURE[0], FIXTURE[2], FIXTURE[1], FIXTURE[3]]);
  const snap = read(unhex('d291'), records);
  sameSnapshot(snap, new DocumentPrefilter(FIXTURE, 16, 3, LAB));
  assert.equal(snap.documentCount, 4);
});

test('an empty snapshot: all-zero bits read back, any set bit is packed_bits', () => {
  const snap = read(unhex('0000'), Object.freeze([]));
  assert.equal(snap.bits, 0n);
  assert.deepEqual({ ...snap.lookup(new Uint8Array(0)) }, { maybe_present: false, exact_checked: false, duplicate: false });
  const e = errorOf(() => read(unhex('0080'), Object.freeze([])));
  assert.deepEqual([e.kind, e.field], ['value', 'packed_bits']);
  assert.match(e.message, /bit 15 is set but no record sets it/);
});

test('packed_bits of the wrong kind is a type error, of the wrong length a value error', () => {
  for (const bad of ['d291', [0xd2, 0x91], new DataView(new ArrayBuffer(2)), new Uint16Array([0x91d2]), null, 0xd291]) {
    assert.deepEqual(errorOf(() => read(bad)).field, 'packed_bits');
    assert.equal(errorOf(() => read(bad)).kind, 'type');
  }
  for (const h of ['', 'd2', 'd29100', 'd291d291']) {
    const e = errorOf(() => read(unhex(h)));
    assert.deepEqual([e.kind, e.field], ['value', 'packed_bits'], h);
    assert.match(e.message, /exactly ceil\(m\/8\) = 2 bytes/);
  }
});

test('a bit at or above m is packed_bits (m = 12: bits 12..15 are unused)', () => {
  const records = Object.freeze([ascii('a'), ascii('b')]);
  const good = oraclePacked(records, 12, 2, LAB);
  sameSnapshot(read(good, records, 12, 2), new DocumentPrefilter(records, 12, 2, LAB));
  for (const p of [12, 13, 14, 15]) {
    const e = errorOf(() => read(withBit(good, p, true), records, 12, 2));
    assert.deepEqual([e.kind, e.field], ['value', 'packed_bits']);
    assert.match(e.message, new RegExp(`bit ${p} is set, at or above m = 12`));
  }
});

test('the shared-bit fault: clearing bit 4 names records[0] (doc-00), and doc-01 once doc-00 is dropped', () => {
  const damaged = withBit(unhex('d291'), 4, false);
  assert.equal(hex(damaged), 'c291');
  let e = errorOf(() => read(damaged));
  assert.deepEqual([e.kind, e.field], ['value', 'records[0]']);
  assert.match(e.message, /position 4 /);
  // The brief's case: records doc-01..doc-03, bit 4 cleared -> records[0], which is doc-01.
  // (doc-00's other bits would also be extra bits, but check 4 comes before check 5.)
  const withoutDoc00 = Object.freeze(FIXTURE.slice(1));
  e = errorOf(() => read(damaged, withoutDoc00));
  assert.deepEqual([e.kind, e.field], ['value', 'records[0]']);
  assert.match(e.message, /position 4 /);
  // Reordered: doc-02 first (it does not use bit 4), then doc-01 -> records[1].
  e = errorOf(() => read(damaged, Object.freeze([FIXTURE[2], FIXTURE[1], FIXTURE[3]])));
  assert.equal(e.field, 'records[1]');
});

test('a bit no record sets is packed_bits, naming the lowest such bit', () => {
  const e = errorOf(() => read(withBit(withBit(unhex('d291'), 9, true), 2, true)));
  assert.deepEqual([e.kind, e.field], ['value', 'packed_bits']);
  assert.match(e.message, /bit 2 is set but no record sets it/);
  // Dropping doc-00 without touching the bits leaves its own bits extra.
  const rest = Object.freeze(FIXTURE.slice(1));
  const restBits = oraclePacked(rest, 16, 3, LAB);
  const extra = [];
  for (let p = 0; p < 16; p++) if (isSet(unhex('d291'), p) && !isSet(restBits, p)) extra.push(p);
  assert.ok(extra.length > 0);
  const e2 = errorOf(() => read(unhex('d291'), rest));
  assert.deepEqual([e2.kind, e2.field], ['value', 'packed_bits']);
  assert.match(e2.message, new RegExp(`bit ${extra[0]} is set but no record sets it`));
});

test('every single-bit change of every profile is caught with the right field', () => {
  const base = ['', '00', '61', '6100', 'ff', '41', '3030', 'c3a9'].map(unhex);
  const profiles = [[8, 1, ''], [9, 2, '53'], [16, 3, '6c6162'], [31, 4, '00'], [512, 8, '73'.repeat(16)]];
  for (const [m, k, seedHex] of profiles) {
    const seed = unhex(seedHex);
    for (const mask of [0b00000001, 0b10100101, 0b11111111, 0b01011010]) {
      const records = Object.freeze(base.filter((_, i) => mask & (1 << i)));
      const good = oraclePacked(records, m, k, seed);
      sameSnapshot(DocumentPrefilter.read(m, k, seed, good, records), new DocumentPrefilter(records, m, k, seed), base);
      for (let p = 0; p < good.length * 8; p++) {
        const e = errorOf(() => DocumentPrefilter.read(m, k, seed, withBit(good, p, !isSet(good, p)), records));
        assert.ok(e, `m=${m} bit ${p} flipped was accepted`);
        let field = 'packed_bits';
        if (p < m && isSet(good, p)) {
          // Cleared: the first record (given order) with p among its positions.
          field = `records[${records.findIndex((r) => dm.referencePositions(m, k, seed, r).includes(p))}]`;
        }
        assert.deepEqual([e.kind, e.field], ['value', field], `m=${m} k=${k} bit ${p}`);
      }
    }
  }
});

test('the documented order of the checks of read', () => {
  const long = new Uint8Array(65);
  // 1 before 2: the parameter and records contract comes before packed_bits.
  assert.equal(errorOf(() => read(unhex('d2'), FIXTURE, 7)).field, 'm');
  assert.equal(errorOf(() => read(unhex('d2'), FIXTURE, 16, true)).field, 'k');
  assert.equal(errorOf(() => read(unhex('d2'), FIXTURE, 16, 3, 'lab')).field, 'seed');
  assert.equal(errorOf(() => read(unhex('d2'), [...FIXTURE])).field, 'records');
  assert.equal(errorOf(() => read(unhex('d2'), Object.freeze([FIXTURE[0], long]))).field, 'records[1]');
  assert.equal(errorOf(() => read('d291', Object.freeze([FIXTURE[0], 'doc-01']))).kind, 'type');
  // 2 before 3: wrong length and a bit above m (m = 12) -> the length message.
  let e = errorOf(() => read(unhex('00f000'), Object.freeze([]), 12));
  assert.equal(e.field, 'packed_bits');
  assert.match(e.message, /exactly/);
  // 3 before 4: a bit above m and a record missing a position.
  e = errorOf(() => read(unhex('00f0'), Object.freeze([ascii('a')]), 12));
  assert.equal(e.field, 'packed_bits');
  assert.match(e.message, /at or above m/);
  // 4 before 5: a record missing a position and an extra bit -> the record.
  e = errorOf(() => read(withBit(withBit(unhex('d291'), 4, false), 0, true)));
  assert.equal(e.field, 'records[0]');
  // 4, in the given order: every record misses -> records[0].
  assert.equal(errorOf(() => read(unhex('0000'))).field, 'records[0]');
  // 5 before 6 (through the adapter: items come last).
  const req = (packed, items) => JSON.stringify({
    id: 1, protocol: 'doc-membership-v1', op: 'read', params: { m: 16, k: 3, seed_hex: '6c6162' }, packed_hex: packed,
    records: FIXTURE.map(hex), items,
  });
  assert.deepEqual(handle(req('d391', ['00'.repeat(65)])).error.field, 'packed_bits');
  assert.deepEqual(handle(req('d291', ['00'.repeat(65)])).error, {
    kind: 'value', field: 'item', message: 'item: at most 64 bytes, got 65',
  });
});

test('read copies what it is given', () => {
  const packed = unhex('d291');
  const records = Object.freeze(FIXTURE.map((r) => Uint8Array.from(r)));
  const seed = Uint8Array.from(LAB);
  const snap = DocumentPrefilter.read(16, 3, seed, packed, records);
  packed.fill(0xff);
  seed.fill(0);
  for (const r of records) r.fill(0x5a);
  sameSnapshot(snap, new DocumentPrefilter(FIXTURE, 16, 3, LAB));
});

test('adapter op read: results in input order, errors with kind and field', () => {
  const ask = (fields) => handle(JSON.stringify({ id: 'r', protocol: 'doc-membership-v1', op: 'read', ...fields }));
  const params = { m: 16, k: 3, seed_hex: '6c6162' };
  const base = { params, packed_hex: 'D291', records: FIXTURE.map(hex) };
  const items = UNIVERSE.map(hex);
  const fresh = new DocumentPrefilter(FIXTURE, 16, 3, LAB);
  assert.deepEqual(ask({ ...base, items }), {
    id: 'r', result: { results: UNIVERSE.map((u) => ({ ...fresh.lookup(u) })) },
  });
  const records = FIXTURE.slice(1).map(hex);
  const r = ask({ ...base, packed_hex: 'c291', records, items });
  assert.equal(r.error.kind, 'value');
  assert.equal(r.error.field, 'records[0]');
  assert.match(r.error.message, /position 4/);
  assert.equal(ask({ ...base, packed_hex: 'd2', items }).error.field, 'packed_bits');
  assert.equal(ask({ ...base, params: { ...params, m: 7 }, packed_hex: 'd2', items }).error.field, 'm');
  // Not of the documented JSON types: bad_request.
  for (const broken of [{ packed_hex: 'd29' }, { packed_hex: 53905 }, { items: 'd291' }, { params: { ...params, m: '16' } },
    { params: { m: 16, k: 3 } }, { params: [16, 3, ''] }]) {
    assert.equal(ask({ ...base, items, ...broken }).error.kind, 'bad_request', JSON.stringify(broken));
  }
  const { packed_hex: _, ...withoutPacked } = base;
  assert.equal(ask({ ...withoutPacked, items }).error.kind, 'bad_request');
});
