// The adapter op `mutate` (spec/ADAPTER.md, "Mutation attempts"): every attempt is made
// for real, and afterwards every observed value of the snapshot equals a fresh snapshot's
// (and the independent oracle's). A deliberately mutable variant, run through the same
// code, makes every attempt's observation differ: the op observes, it does not trust.
//
//   node --test implementations/js/test/

import test from 'node:test';
import assert from 'node:assert/strict';
import * as dm from 'bloomproof-js/doc-membership-v1';
import { handle, mutateSnapshot, observeSnapshot, ATTEMPTS } from 'bloomproof-js/adapter';

const { DocumentPrefilter } = dm;
const hexOf = (s) => Buffer.from(s).toString('hex');
const xorHex = (h) => Buffer.from(Buffer.from(h, 'hex').map((b) => b ^ 0xff)).toString('hex');
const TRIPLE = ['maybe_present', 'exact_checked', 'duplicate'];

const FIXTURE = {
  m: 16, k: 3, seed: hexOf('lab'),
  records: ['doc-00', 'doc-01', 'doc-02', 'doc-03'].map(hexOf),
  other: { m: 32, k: 2, seed: hexOf('raw'), records: ['', '00', 'c3a9', 'ff', hexOf('doc-00')] },
  extra: ['doc-04', 'doc-05', 'doc-41', ''].map(hexOf),
};
const MAXIMUM = {
  m: 512, k: 8, seed: '73'.repeat(16),
  records: Array.from({ length: 64 }, (_, i) => i.toString(16).padStart(2, '0').repeat(64)),
  other: { m: 8, k: 1, seed: '', records: ['61'] },
  extra: ['', '00'.repeat(63)],
};
const WITH_REPEATS = {
  m: 9, k: 2, seed: '53',
  records: ['0041', '0041', '', 'ff'],
  other: { m: 9, k: 2, seed: '54', records: ['0041'] },
  extra: ['00', '41'],
};

/** The probes the runner sends: the records, each XORed with ff, other's records, the case's own. */
const probesOf = (c) => [...c.records, ...c.records.map(xorHex), ...c.other.records, ...c.extra];
const args = (c, attempt) => ({ m: c.m, k: c.k, seed: c.seed, records: c.records, other: c.other, attempt, probes: probesOf(c) });

/** What the runner expects, computed with the independent oracle (hex framing, BigInt reduction). */
function oracleObservation(c) {
  const seed = Buffer.from(c.seed, 'hex');
  const packed = new Uint8Array((c.m + 7) >> 3);
  const docs = new Set(c.records);
  for (const h of docs) for (const p of dm.referencePositions(c.m, c.k, seed, Buffer.from(h, 'hex'))) packed[p >> 3] |= 1 << (p & 7);
  const lookups = probesOf(c).map((h) => {
    const maybe = dm.referencePositions(c.m, c.k, seed, Buffer.from(h, 'hex')).every((p) => (packed[p >> 3] >> (p & 7)) & 1);
    return { maybe_present: maybe, exact_checked: maybe, duplicate: maybe && docs.has(h) };
  });
  return { m: c.m, k: c.k, seed: c.seed, packed_bits: Buffer.from(packed).toString('hex'), documents: docs.size, lookups };
}

/** The observation of a fresh snapshot that nothing was done to. */
function freshObservation(c) {
  const snap = dm.fromHexRecords(c.records, c.m, c.k, c.seed);
  return observeSnapshot(snap, probesOf(c));
}

const observed = ({ m, k, seed, packed_bits, documents, lookups }) => ({ m, k, seed, packed_bits, documents, lookups });

/** A case's `mutate` request as the wire spells it: nested `params`, hex `seed_hex`. */
const params = (c) => ({ m: c.m, k: c.k, seed_hex: c.seed });
const wireArgs = (c, attempt) => ({
  params: params(c), records: c.records, other: { params: params(c.other), records: c.other.records }, attempt, probes: probesOf(c),
});
/** A `mutate` result as the wire spells it, in the shape of `observed`. */
const fromWire = ({ params: p, packed_hex: packed, ...rest }) => ({ m: p.m, k: p.k, seed: p.seed_hex, packed_bits: packed, ...rest });

const EXPECTED_OUTCOME = {
  assign_fields: 'raised',
  mutate_returned_bits: 'done',
  mutate_returned_documents: 'done',
  mutate_returned_lookup: 'raised',
  mutate_records_after_build: 'done',
  mutate_seed_after_build: 'done',
  reconstruct: 'impossible',
  mutate_copy: 'done',
  bypass_guards: 'done', // the copies take the redefinitions; the snapshot refuses them
};

test('the attempts are exactly the table of ADAPTER.md', () => {
  assert.deepEqual([...ATTEMPTS].sort(), Object.keys(EXPECTED_OUTCOME).sort());
});

test('the oracle agrees with the seed figures (d291, 4 documents)', () => {
  const o = oracleObservation(FIXTURE);
  assert.equal(o.packed_bits, 'd291');
  assert.equal(o.documents, 4);
  assert.deepEqual(freshObservation(FIXTURE), o);
});

for (const [label, c] of [['seed fixture', FIXTURE], ['maximum bounds', MAXIMUM], ['repeated records, m = 9', WITH_REPEATS]]) {
  test(`every attempt leaves every observation equal to a fresh snapshot's (${label})`, () => {
    const fresh = freshObservation(c);
    assert.deepEqual(fresh, oracleObservation(c));
    for (const attempt of ATTEMPTS) {
      const r = mutateSnapshot(args(c, attempt));
      assert.deepEqual(observed(r), fresh, attempt);
      assert.equal(r.outcome, EXPECTED_OUTCOME[attempt], `${attempt}: ${r.detail}`);
      assert.equal(typeof r.detail, 'string');
      assert.ok(r.detail.startsWith(`${attempt}: `), r.detail);
    }
  });
}

test('through handle(): the documented result keys, JSON-safe, for every attempt', () => {
  const fresh = oracleObservation(FIXTURE);
  for (const attempt of ATTEMPTS) {
    const line = JSON.stringify({ id: attempt, protocol: 'doc-membership-v1', op: 'mutate', ...wireArgs(FIXTURE, attempt) });
    const response = JSON.parse(JSON.stringify(handle(line)));
    assert.equal(response.id, attempt);
    assert.deepEqual(Object.keys(response.result).sort(), ['detail', 'documents', 'lookups', 'outcome', 'packed_hex', 'params']);
    assert.deepEqual(Object.keys(response.result.params).sort(), ['k', 'm', 'seed_hex']);
    assert.deepEqual(observed(fromWire(response.result)), fresh, attempt);
  }
});

test('the attempts change nothing shared: the class, its prototype and Object.prototype are intact', () => {
  const describe = (o) => Reflect.ownKeys(o).map((key) => {
    const d = Object.getOwnPropertyDescriptor(o, key);
    return [String(key), d.value, d.get, d.set, d.writable, d.configurable];
  });
  const before = [describe(DocumentPrefilter.prototype), describe(DocumentPrefilter), describe(Object.prototype), Object.getPrototypeOf(DocumentPrefilter.prototype)];
  for (let round = 0; round < 2; round++) for (const attempt of ATTEMPTS) mutateSnapshot(args(FIXTURE, attempt));
  const after = [describe(DocumentPrefilter.prototype), describe(DocumentPrefilter), describe(Object.prototype), Object.getPrototypeOf(DocumentPrefilter.prototype)];
  assert.deepEqual(after, before);
  assert.deepEqual(freshObservation(FIXTURE), oracleObservation(FIXTURE));
});

test('bad requests: unknown attempt, malformed other, missing arguments', () => {
  const base = { id: 3, protocol: 'doc-membership-v1', op: 'mutate', ...wireArgs(FIXTURE, 'assign_fields') };
  const other = { params: params(FIXTURE.other), records: FIXTURE.other.records };
  const ask = (patch) => handle(JSON.stringify({ ...base, ...patch }));
  assert.equal(ask({ attempt: 'set_bits_directly' }).error.kind, 'bad_request');
  assert.match(ask({ attempt: 'set_bits_directly' }).error.message, /unknown attempt/);
  for (const patch of [{ attempt: 3 }, { other: null }, { other: [] }, { other: { ...other, params: { ...other.params, m: '32' } } },
    { other: { ...other, params: { ...other.params, seed_hex: 'zz' } } }, { other: { params: other.params } },
    { other: { ...other, params: null } }, { params: { m: 16, k: 3 } }, { probes: 'd291' }, { records: ['0'] }]) {
    assert.equal(ask(patch).error.kind, 'bad_request', JSON.stringify(patch));
  }
  const { other: _, ...withoutOther } = base;
  assert.equal(handle(JSON.stringify(withoutOther)).error.kind, 'bad_request');
  // A contract error of the snapshot itself: value error with the field.
  const m7 = { params: { ...base.params, m: 7 } };
  assert.deepEqual([ask(m7).error.kind, ask(m7).error.field], ['value', 'm']);
  assert.deepEqual([ask({ records: ['00'.repeat(65)] }).error.kind, ask({ records: ['00'.repeat(65)] }).error.field], ['value', 'records[0]']);
});

// ---------------------------------------------------------------- a deliberately mutable variant

/**
 * A snapshot written the careless way, through the same interface: an ES5 constructor
 * (callable again on an existing object), its state in one shared own object behind
 * public accessors with setters, configurable prototype members, the caller's seed and
 * record buffers kept without copying, its internal arrays handed out, and lookup results
 * cached as mutable objects. Each class is fresh, so one test's damage stays in it.
 */
function makeMutableVariant() {
  const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  function MutableSnapshot(records, m, k, seed) {
    const packed = new Uint8Array((m + 7) >> 3);
    const documents = [];
    for (const r of records) {
      if (!documents.some((d) => equal(d, r))) documents.push(r);
      for (const p of dm.positions(m, k, seed, r)) packed[p >> 3] |= 1 << (p & 7);
    }
    this.state = { m, k, seed, packed, documents, cache: new Map() };
  }
  const field = (name) => ({
    get() { return this.state[name]; }, set(v) { this.state[name] = v; }, enumerable: true, configurable: true,
  });
  Object.defineProperties(MutableSnapshot.prototype, {
    m: field('m'), k: field('k'), seed: field('seed'), documents: field('documents'), bits: field('packed'),
    documentCount: { get() { return this.state.documents.length; }, configurable: true },
  });
  MutableSnapshot.prototype.packedBits = function packedBits() { return this.state.packed; };
  MutableSnapshot.prototype.lookup = function lookup(item) {
    const key = Buffer.from(item).toString('hex');
    if (this.state.cache.has(key)) return this.state.cache.get(key);
    const { m, k, seed, packed, documents } = this.state;
    const maybe = dm.positions(m, k, seed, item).every((p) => ((packed[p >> 3] >> (p & 7)) & 1) === 1);
    const r = { maybe_present: maybe, exact_checked: maybe, duplicate: maybe && documents.some((d) => equal(d, item)) };
    this.state.cache.set(key, r);
    return r;
  };
  return MutableSnapshot;
}

test('the mutable variant, untouched, observes exactly like the real snapshot', () => {
  const Variant = makeMutableVariant();
  const snap = new Variant(Object.freeze(FIXTURE.records.map((h) => Uint8Array.from(Buffer.from(h, 'hex')))),
    FIXTURE.m, FIXTURE.k, Uint8Array.from(Buffer.from(FIXTURE.seed, 'hex')));
  assert.deepEqual(observeSnapshot(snap, probesOf(FIXTURE)), oracleObservation(FIXTURE));
});

for (const attempt of ATTEMPTS) {
  test(`the mutable variant: ${attempt} makes the observation differ`, () => {
    const r = mutateSnapshot(args(FIXTURE, attempt), makeMutableVariant());
    assert.notDeepEqual(observed(r), oracleObservation(FIXTURE), `${attempt} went unnoticed: ${r.detail}`);
    assert.equal(r.outcome, 'done', r.detail);
    // The result stays JSON: a damaged value is reported as null, never dropped.
    const json = JSON.parse(JSON.stringify(r));
    assert.deepEqual(Object.keys(json).sort(), ['detail', 'documents', 'k', 'lookups', 'm', 'outcome', 'packed_bits', 'seed']);
    assert.equal(json.lookups.length, probesOf(FIXTURE).length);
  });
}

test('the mutable variant: what each attempt changed is what the runner would name', () => {
  const differs = (attempt) => {
    const r = observed(mutateSnapshot(args(FIXTURE, attempt), makeMutableVariant()));
    const o = oracleObservation(FIXTURE);
    return Object.keys(o).filter((key) => JSON.stringify(r[key]) !== JSON.stringify(o[key]));
  };
  assert.ok(differs('mutate_returned_bits').includes('packed_bits'));
  assert.ok(differs('mutate_returned_documents').includes('documents'));
  assert.deepEqual(differs('mutate_returned_lookup'), ['lookups']);
  assert.deepEqual(differs('mutate_records_after_build'), ['lookups']);
  assert.ok(differs('mutate_seed_after_build').includes('seed'));
  for (const attempt of ['assign_fields', 'reconstruct', 'mutate_copy', 'bypass_guards']) assert.ok(differs(attempt).includes('m'), attempt);
});

test('observeSnapshot reports a broken value as null rather than trusting it', () => {
  const Variant = makeMutableVariant();
  const snap = new Variant(Object.freeze([Uint8Array.of(1)]), 16, 3, new Uint8Array(0));
  snap.state.m = '16';
  snap.state.seed = 'lab';
  snap.state.documents = new Map();
  snap.state.cache.set('01', { maybe_present: 1 });
  const notes = [];
  const o = observeSnapshot(snap, ['01'], notes);
  assert.equal(o.m, null);
  assert.equal(o.seed, null);
  assert.equal(o.documents, 0);
  assert.deepEqual(o.lookups, [{ maybe_present: null, exact_checked: null, duplicate: null }]);
  assert.ok(notes.length >= 2);
  for (const f of TRIPLE) assert.ok(f in o.lookups[0]);
});
