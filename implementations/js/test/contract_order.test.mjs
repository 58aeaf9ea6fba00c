// The contract order when several rules are broken at once (spec/ADAPTER.md, "Typed
// values"): m type, k type, m bound, k bound, seed type, seed length, records type,
// records count, then each record in index order (its type, then its length), then the
// lookup item (its type, then its length). The first broken rule decides the error.
//
//   node --test implementations/js/test/

import test from 'node:test';
import assert from 'node:assert/strict';
import * as dm from 'bloomproof-js/doc-membership-v1';
import { handle } from 'bloomproof-js/adapter';

const { DocumentPrefilter } = dm;

// The rules, in the documented order, with the error each one alone gives.
const RULES = [
  ['m type', 'type', 'm'],
  ['k type', 'type', 'k'],
  ['m bound', 'value', 'm'],
  ['k bound', 'value', 'k'],
  ['seed type', 'type', 'seed'],
  ['seed length', 'value', 'seed'],
  ['records type', 'type', 'records'],
  ['records count', 'value', 'records'],
  ['records[0] type', 'type', 'records[0]'],
  ['records[0] length', 'value', 'records[0]'],
  ['records[1] type', 'type', 'records[1]'],
  ['records[1] length', 'value', 'records[1]'],
  ['item type', 'type', 'item'],
  ['item length', 'value', 'item'],
];

/**
 * Typed JSON values (spec/README.md) breaking exactly the rules in `broken` (a set of rule
 * names). Two rules on the same value are broken by one value that breaks both (a float 7.5
 * for m, a str of 17 characters for the seed, a list of 65 records, ...).
 */
function typedInputs(broken) {
  const has = (r) => broken.has(r);
  const int = (n) => ({ int: n });
  let m = int(16);
  if (has('m type') && has('m bound')) m = { float: 7.5 };
  else if (has('m type')) m = { bool: true };
  else if (has('m bound')) m = int(7);
  let k = int(3);
  if (has('k type') && has('k bound')) k = { float: 0.5 };
  else if (has('k type')) k = { bool: false };
  else if (has('k bound')) k = int(0);
  let seed = { bytes: '6c6162' };
  if (has('seed type') && has('seed length')) seed = { str: 's'.repeat(17) };
  else if (has('seed type')) seed = { str: 'lab' };
  else if (has('seed length')) seed = { bytes: '73'.repeat(17) };
  const record = (i) => {
    const type = has(`records[${i}] type`);
    const length = has(`records[${i}] length`);
    if (type && length) return { str: 'a'.repeat(65) };
    if (type) return { bytearray: '61' };
    if (length) return { bytes: '61'.repeat(65) };
    return { bytes: `646f632d30${30 + i}` };
  };
  const list = [record(0), record(1)];
  if (has('records count')) while (list.length < 65) list.push({ bytes: '2a' });
  const records = has('records type') ? { list } : { tuple: list };
  let item = { bytes: '646f632d3030' };
  if (has('item type') && has('item length')) item = { str: 'b'.repeat(65) };
  else if (has('item type')) item = { memoryview: '62' };
  else if (has('item length')) item = { bytes: '62'.repeat(65) };
  return { records, m, k, seed, item };
}

/** The same inputs as the JavaScript values they stand for (typed.mjs's mapping, by hand). */
function jsValue(t) {
  const [[tag, v]] = Object.entries(t);
  switch (tag) {
    case 'int': return v;
    case 'bool': return v;
    case 'float': return new Number(v); // eslint-disable-line no-new-wrappers
    case 'str': return v;
    case 'bytes': return Uint8Array.from(Buffer.from(v, 'hex'));
    case 'bytearray': return Array.from(Buffer.from(v, 'hex'));
    case 'memoryview': return new DataView(Uint8Array.from(Buffer.from(v, 'hex')).buffer);
    case 'list': return v.map(jsValue);
    case 'tuple': return Object.freeze(v.map(jsValue));
    default: throw new Error(tag);
  }
}

function directError(inputs) {
  const [records, m, k, seed, item] = ['records', 'm', 'k', 'seed', 'item'].map((n) => jsValue(inputs[n]));
  try {
    new DocumentPrefilter(records, m, k, seed).lookup(item);
  } catch (e) {
    assert.equal(typeof e.field, 'string', `error without field: ${e.message}`);
    return { kind: e instanceof TypeError ? 'type' : e instanceof RangeError ? 'value' : 'other', field: e.field };
  }
  return null;
}

function adapterError(inputs) {
  const r = handle(JSON.stringify({ id: 7, protocol: 'doc-membership-v1', op: 'typed', ...inputs }));
  if (!r.error) return null;
  assert.equal(typeof r.error.field, 'string', JSON.stringify(r));
  return { kind: r.error.kind, field: r.error.field };
}

const expected = (i) => ({ kind: RULES[i][1], field: RULES[i][2] });

test('each rule alone gives its own error (direct and through the adapter op typed)', () => {
  RULES.forEach(([rule], i) => {
    const inputs = typedInputs(new Set([rule]));
    assert.deepEqual(directError(inputs), expected(i), rule);
    assert.deepEqual(adapterError(inputs), expected(i), rule);
  });
  assert.equal(directError(typedInputs(new Set())), null);
  assert.deepEqual(handle(JSON.stringify({ id: 7, protocol: 'doc-membership-v1', op: 'typed', ...typedInputs(new Set()) })).result,
    { lookup: { maybe_present: true, exact_checked: true, duplicate: true } });
});

test('every adjacent pair of the order: the earlier rule decides', () => {
  for (let i = 0; i + 1 < RULES.length; i++) {
    const inputs = typedInputs(new Set([RULES[i][0], RULES[i + 1][0]]));
    const what = `${RULES[i][0]} + ${RULES[i + 1][0]}`;
    assert.deepEqual(directError(inputs), expected(i), what);
    assert.deepEqual(adapterError(inputs), expected(i), what);
  }
});

test('the adjacent pairs, spelled out', () => {
  const direct = (records, m, k, seed, item = new Uint8Array(0)) => {
    try { new DocumentPrefilter(records, m, k, seed).lookup(item); } catch (e) {
      return `${e instanceof TypeError ? 'type' : 'value'} ${e.field}`;
    }
    return 'ok';
  };
  const b = (n, byte = 0x61) => new Uint8Array(n).fill(byte);
  const tuple = (...xs) => Object.freeze(xs);
  const lab = b(3);
  const cases = [
    // m type + k type
    [[tuple(), true, false, lab], 'type m'],
    // k type + m bound: m=7 with k=true is a type error on k (types before bounds)
    [[tuple(), 7, true, lab], 'type k'],
    // m bound + k bound
    [[tuple(), 513, 9, lab], 'value m'],
    // k bound + seed type
    [[tuple(), 16, 0, 'lab'], 'value k'],
    // seed type + seed length: a 17-character string
    [[tuple(), 16, 3, 's'.repeat(17)], 'type seed'],
    // seed length + records type
    [[[], 16, 3, b(17)], 'value seed'],
    // records type + records count: a mutable Array of 65 records
    [[Array.from({ length: 65 }, () => b(1)), 16, 3, lab], 'type records'],
    // records count + records[0] type
    [[tuple('a', ...Array.from({ length: 64 }, () => b(1))), 16, 3, lab], 'value records'],
    // records[0] type + records[0] length: a 65-character string
    [[tuple('a'.repeat(65)), 16, 3, lab], 'type records[0]'],
    // records[0] length + records[1] type
    [[tuple(b(65), 'a'), 16, 3, lab], 'value records[0]'],
    // records[1] type + records[1] length
    [[tuple(b(1), Array.from(b(65))), 16, 3, lab], 'type records[1]'],
    // records[1] length (the last record) + item type
    [[tuple(b(1), b(65)), 16, 3, lab, 'a'], 'value records[1]'],
    // item type + item length
    [[tuple(b(1)), 16, 3, lab, 'a'.repeat(65)], 'type item'],
    // a bigint m out of range + boolean k: still the type of k first
    [[tuple(), 10n ** 30n, true, lab], 'type k'],
    // a float m that is integral (16.0) + k bound
    [[tuple(), new Number(16), 0, lab], 'type m'], // eslint-disable-line no-new-wrappers
  ];
  for (const [args, want] of cases) assert.equal(direct(...args), want, `${want}`);
});

test('every combination of the fourteen rules: the first broken one decides', () => {
  // 2^14 - 1 combinations; the lowest rule in the set decides.
  for (let mask = 1; mask < 1 << RULES.length; mask++) {
    const broken = new Set(RULES.filter((_, i) => mask & (1 << i)).map(([rule]) => rule));
    const first = RULES.findIndex(([rule]) => broken.has(rule));
    const inputs = typedInputs(broken);
    const got = directError(inputs);
    if (got === null || got.kind !== expected(first).kind || got.field !== expected(first).field) {
      assert.fail(`${[...broken].join(' + ')}: expected ${JSON.stringify(expected(first))}, got ${JSON.stringify(got)}`);
    }
  }
});

test('read takes the same errors in the same order for its first step', () => {
  // Every combination of the records and parameter rules (no item: read takes none), with a
  // wrong-length packed_bits on top, which comes after all of them.
  const construction = RULES.filter(([rule]) => !rule.startsWith('item'));
  for (let mask = 1; mask < 1 << construction.length; mask++) {
    const broken = new Set(construction.filter((_, i) => mask & (1 << i)).map(([rule]) => rule));
    const first = construction.findIndex(([rule]) => broken.has(rule));
    const inputs = typedInputs(broken);
    const [records, m, k, seed] = ['records', 'm', 'k', 'seed'].map((n) => jsValue(inputs[n]));
    let got = null;
    try { DocumentPrefilter.read(m, k, seed, new Uint8Array(1), records); } catch (e) {
      got = { kind: e instanceof TypeError ? 'type' : 'value', field: e.field };
    }
    assert.deepEqual(got, expected(first), [...broken].join(' + '));
  }
});

test('a shadowed length or iterator cannot get a long record past its bound, and bytes are copied', () => {
  const long = new Uint8Array(65).fill(0x61);
  Object.defineProperty(long, 'length', { value: 1 });
  long[Symbol.iterator] = function* () { yield 0x61; };
  const err = (fn) => { try { fn(); } catch (e) { return `${e.constructor.name} ${e.field}`; } return 'ok'; };
  assert.equal(err(() => new DocumentPrefilter(Object.freeze([long]), 16, 3, new Uint8Array(0))), 'RangeError records[0]');
  assert.equal(err(() => new DocumentPrefilter(Object.freeze([]), 16, 3, long)), 'RangeError seed');
  const snap = new DocumentPrefilter(Object.freeze([]), 16, 3, new Uint8Array(0));
  assert.equal(err(() => snap.lookup(long)), 'RangeError item');
  // A short record with a lying iterator is copied from its real bytes.
  const r = Uint8Array.from([1, 2, 3]);
  r[Symbol.iterator] = function* () { yield 9; };
  Object.defineProperty(r, 'length', { value: 0 });
  const s = new DocumentPrefilter(Object.freeze([r]), 16, 3, new Uint8Array(0));
  assert.deepEqual(s.documents.map((d) => Array.from(d)), [[1, 2, 3]]);
});

test('records and seed from shared, pooled, resizable or later detached buffers are copied', () => {
  const pool = Buffer.from('doc-00doc-01lab'); // a Buffer from the shared pool
  const records = Object.freeze([pool.subarray(0, 6), pool.subarray(6, 12)]);
  const seed = pool.subarray(12, 15);
  const rab = new ArrayBuffer(6, { maxByteLength: 70 });
  const growing = new Uint8Array(rab);
  growing.set(Buffer.from('doc-02'));
  const all = Object.freeze([...records, growing]);
  const snap = new DocumentPrefilter(all, 16, 3, seed);
  const reference = new DocumentPrefilter(Object.freeze(['doc-00', 'doc-01', 'doc-02'].map((t) => new TextEncoder().encode(t))), 16, 3, new TextEncoder().encode('lab'));
  new Uint8Array(pool.buffer).fill(0); // the whole pool slab
  rab.resize(70);
  growing.fill(0x7a);
  structuredClone(rab, { transfer: [rab] }); // detach
  assert.equal(growing.length, 0);
  assert.equal(Buffer.from(snap.packedBits()).toString('hex'), Buffer.from(reference.packedBits()).toString('hex'));
  assert.equal(Buffer.from(snap.seed).toString(), 'lab');
  assert.deepEqual(snap.documents.map((d) => Buffer.from(d).toString()), ['doc-00', 'doc-01', 'doc-02']);
  // A detached view reads as no bytes at all (its length is 0): it is the empty record.
  const gone = new Uint8Array(new ArrayBuffer(4));
  structuredClone(gone.buffer, { transfer: [gone.buffer] });
  const empty = new DocumentPrefilter(Object.freeze([gone]), 16, 3, new Uint8Array(0));
  assert.deepEqual(empty.documents.map((d) => d.length), [0]);
});
