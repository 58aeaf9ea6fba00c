#!/usr/bin/env node
// The bloomproof adapter protocol (spec/ADAPTER.md) over stdin/stdout, for the
// JavaScript implementations of doc-membership-v1 and fnv1a-utf16-v1.
// One JSON request per line in, one JSON response per line out, in order; logs go to
// stderr; exits when stdin closes. Node built-ins only.
//
// Typed values (op `typed`) are mapped to JavaScript values by typed.mjs (see there and
// README.md); a TypeError from the snapshot answers kind "type", a RangeError kind
// "value", each with the `field` the error carries (m, k, seed, records, records[<i>], item,
// packed_bits).
//
// `read` reads a snapshot given as its parts with DocumentPrefilter.read, which verifies
// it (ADAPTER.md, "Reading a snapshot"). `mutate` builds a snapshot from buffers the
// adapter owns, makes one named attempt of ADAPTER.md's table for real (mutateSnapshot
// below), then observes the same snapshot through its ordinary operations.
//
// Input no request may hold (ADAPTER.md): stdin is read as bytes and each line decoded
// on its own, so a line that is not UTF-8 is answered `bad_request` (id null) and the
// next one served; a key repeated in any object of a request is refused (id null, the
// key named); a `session` script has at most SCRIPT_MAX steps.
//
// Run as a program it serves stdin/stdout; imported (tests) it only exports handle(),
// serveLines(), firstDuplicateKey(), mutateSnapshot(), observeSnapshot(), ATTEMPTS and
// SCRIPT_MAX.

import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import * as dm from './doc_membership_v1.mjs';
import * as fnv from './fnv1a_utf16_v1.mjs';
import * as session from './session.mjs';
import { typedValue, BadRequest } from './typed.mjs';
import { parseJson, toPlain } from './json.mjs';

const bad = (message) => new BadRequest(message);

/** The most steps of one `session` script (ADAPTER.md). */
export const SCRIPT_MAX = 1024;
/** The longest response line, in bytes, without its newline. */
export const RESPONSE_MAX = 1048576;
const QUOTE_MAX = 64;

/** A short quote of an untrusted string: at most QUOTE_MAX characters and its length. */
function quote(text) {
  if (text.length <= QUOTE_MAX) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, QUOTE_MAX) + '…')} (${Buffer.byteLength(text)} bytes)`;
}

/**
 * The first key that repeats within one object of `text`, a valid JSON text (JSON.parse
 * keeps the last value silently), or undefined. Holds only the keys of the objects it is
 * inside.
 */
export function firstDuplicateKey(text) {
  const open = []; // per open container: a Set of its keys (object) or null (array)
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // a string: find its end, skipping escapes
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      const keys = open[open.length - 1];
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(i, j + 1));
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b) { open.push(new Set()); expectKey = true; } // {
    else if (c === 0x5b) { open.push(null); expectKey = false; } // [
    else if (c === 0x7d || c === 0x5d) { open.pop(); expectKey = false; } // } ]
    else if (c === 0x2c) expectKey = Boolean(open[open.length - 1]); // ,
  }
  return undefined;
}

// ------------------------------------------------------------ argument decoding

function arg(req, name) {
  if (!Object.prototype.hasOwnProperty.call(req, name)) throw bad(`missing argument \`${name}\``);
  return req[name];
}

function hexArg(req, name) {
  const v = arg(req, name);
  if (typeof v !== 'string') throw bad(`\`${name}\` must be a hex string`);
  try { return dm.fromHex(v); } catch (e) { throw bad(`\`${name}\`: ${e.message}`); }
}

function hexListArg(req, name) {
  const v = arg(req, name);
  if (!Array.isArray(v)) throw bad(`\`${name}\` must be an array of hex strings`);
  return v.map((x, i) => {
    if (typeof x !== 'string') throw bad(`\`${name}[${i}]\` must be a hex string`);
    try { return dm.fromHex(x); } catch (e) { throw bad(`\`${name}[${i}]\`: ${e.message}`); }
  });
}

function intArg(req, name) {
  const v = arg(req, name);
  if (typeof v !== 'number' || !Number.isInteger(v)) throw bad(`\`${name}\` must be an integer`);
  return v;
}

/** m, k and the seed bytes of the nested `params` object {"m", "k", "seed_hex"}. */
function paramsArg(req) {
  const p = arg(req, 'params');
  if (p === null || typeof p !== 'object' || Array.isArray(p)) throw bad('`params` must be an object {m, k, seed_hex}');
  try {
    return { m: intArg(p, 'm'), k: intArg(p, 'k'), seed: hexArg(p, 'seed_hex') };
  } catch (e) {
    if (e instanceof BadRequest) throw bad(`\`params\`: ${e.message}`);
    throw e;
  }
}

function unitsArg(req, name) {
  const v = arg(req, name);
  if (!Array.isArray(v) || !v.every((u) => Number.isInteger(u) && u >= 0 && u <= 0xffff)) {
    throw bad(`\`${name}\` must be an array of UTF-16 code units 0..=65535`);
  }
  return v;
}

// ------------------------------------------------------------ doc-membership-v1

const triple = (r) => ({ maybe_present: r.maybe_present, exact_checked: r.exact_checked, duplicate: r.duplicate });

function snapshotOf(req) {
  const { m, k, seed } = paramsArg(req);
  const records = Object.freeze(hexListArg(req, 'records'));
  return new dm.DocumentPrefilter(records, m, k, seed);
}

// ------------------------------------------------------------ mutation attempts (op `mutate`)

/** The attempts of ADAPTER.md's table, in its order. */
export const ATTEMPTS = Object.freeze([
  'assign_fields', 'mutate_returned_bits', 'mutate_returned_documents', 'mutate_returned_lookup',
  'mutate_records_after_build', 'mutate_seed_after_build', 'reconstruct', 'mutate_copy', 'bypass_guards',
]);

const TRIPLE = Object.freeze(['maybe_present', 'exact_checked', 'duplicate']);
const NOOP = Symbol('no-op');
const hasOwn = (o, key) => Object.prototype.hasOwnProperty.call(o, key);
const nameOf = (key) => (typeof key === 'symbol' ? `[${String(key)}]` : String(key));
const errorText = (e) => {
  const text = `${e && e.constructor ? e.constructor.name : 'Error'}: ${e && e.message !== undefined ? e.message : String(e)}`;
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};
/** A Reflect operation that returns false refused the step: count it as refused. */
function must(ok, what) {
  if (ok !== true) throw new TypeError(`${what} returned false (refused)`);
}
const protoSetter = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__').set;
const defineGetter = Object.prototype.__defineGetter__;

/**
 * The steps of one attempt. A step throws (refused: an exception, or a Reflect operation
 * returning false), returns NOOP (the language accepted it but it touches nothing, e.g.
 * `delete` of a property the object does not own), or goes through.
 */
class Steps {
  constructor() { this.list = []; this.notes = []; }
  run(label, fn) {
    let r;
    try { r = fn(); } catch (e) { this.list.push({ label, result: 'refused', why: errorText(e) }); return; }
    this.list.push({ label, result: r === NOOP ? 'noop' : 'done' });
  }
  note(text) { this.notes.push(text); }
  count(result) { return this.list.filter((s) => s.result === result).length; }
}

/** Every public property name of `obj`: its own and its prototypes' (up to Object.prototype). */
function publicNames(obj) {
  const names = new Set(['m', 'k', 'seed', 'bits', 'documents', 'documentCount']);
  for (let o = obj; o !== null && o !== undefined && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Reflect.ownKeys(o)) names.add(key);
  }
  return [...names];
}

/** The first object on target's prototype chain (not target itself) that owns `key`. */
function holderOf(target, key) {
  for (let o = Object.getPrototypeOf(target); o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    if (hasOwn(o, key)) return o;
  }
  return null;
}

/** The value of `key` on the other snapshot; a method is bound to it (it answers for other). */
function otherValue(otherSnap, key) {
  let v;
  try { v = Reflect.get(otherSnap, key); } catch { v = undefined; }
  return typeof v === 'function' ? v.bind(otherSnap) : v;
}

/**
 * assign_fields on `target` (normal use): every name gets the other snapshot's value by
 * ordinary assignment (`=`, Reflect.set, Object.assign), then every name is deleted
 * (delete, Reflect.deleteProperty), then a new field is added.
 */
function assignFields(steps, target, names, otherSnap, label) {
  for (const key of names) {
    const n = nameOf(key);
    const v = otherValue(otherSnap, key);
    steps.run(`${label}.${n} = other`, () => { target[key] = v; });
    steps.run(`Reflect.set(${label}, ${n})`, () => must(Reflect.set(target, key, v), 'Reflect.set'));
    steps.run(`Object.assign(${label}, {${n}})`, () => { Object.assign(target, { [key]: v }); });
  }
  for (const key of names) {
    const n = nameOf(key);
    steps.run(`delete ${label}.${n}`, () => { const own = hasOwn(target, key); delete target[key]; return own ? undefined : NOOP; });
    steps.run(`Reflect.deleteProperty(${label}, ${n})`, () => {
      const own = hasOwn(target, key);
      must(Reflect.deleteProperty(target, key), 'Reflect.deleteProperty');
      return own ? undefined : NOOP;
    });
  }
  steps.run(`${label}.extra = 1 (new field)`, () => { target.extra = 1; });
}

/**
 * bypass_guards on `target` (deliberate tampering): every name redefined past assignment
 * (Object.defineProperty with a value and with a getter, Reflect.defineProperty,
 * Object.defineProperties, __defineGetter__, and on the prototype that holds the
 * property), deleted on that prototype, a symbol field added, and the prototype replaced
 * by one that answers with the other's values.
 */
function bypassGuards(steps, target, names, otherSnap, label) {
  for (const key of names) {
    const n = nameOf(key);
    const v = otherValue(otherSnap, key);
    steps.run(`Object.defineProperty(${label}, ${n}, {value})`, () => {
      Object.defineProperty(target, key, { value: v, writable: true, enumerable: true, configurable: true });
    });
    steps.run(`Object.defineProperty(${label}, ${n}, {get})`, () => {
      Object.defineProperty(target, key, { get: () => v, enumerable: true, configurable: true });
    });
    steps.run(`Reflect.defineProperty(${label}, ${n})`, () => must(Reflect.defineProperty(target, key, { value: v }), 'Reflect.defineProperty'));
    steps.run(`Object.defineProperties(${label}, {${n}})`, () => { Object.defineProperties(target, { [key]: { value: v } }); });
    steps.run(`${label}.__defineGetter__(${n})`, () => { Reflect.apply(defineGetter, target, [key, () => v]); });
    const holder = holderOf(target, key);
    if (holder !== null) {
      steps.run(`prototype.${n} = other`, () => { holder[key] = v; });
      steps.run(`Object.defineProperty(prototype, ${n}, {value})`, () => {
        Object.defineProperty(holder, key, { value: v, writable: true, enumerable: true, configurable: true });
      });
      steps.run(`delete prototype.${n}`, () => { delete holder[key]; });
    }
  }
  steps.run(`Object.defineProperty(${label}, Symbol(extra))`, () => { Object.defineProperty(target, Symbol('extra'), { value: 1 }); });
  const fake = () => {
    const proto = Object.create(Object.getPrototypeOf(target));
    for (const key of names) {
      try { Object.defineProperty(proto, key, { value: otherValue(otherSnap, key), configurable: true }); } catch { /* skip */ }
    }
    return proto;
  };
  steps.run(`Object.setPrototypeOf(${label}, other-like)`, () => { Object.setPrototypeOf(target, fake()); });
  steps.run(`${label}.__proto__ = other-like`, () => { Reflect.apply(protoSetter, target, [fake()]); });
  steps.run(`Reflect.setPrototypeOf(${label}, other-like)`, () => must(Reflect.setPrototypeOf(target, fake()), 'Reflect.setPrototypeOf'));
}

const isTypedArray = (v) => ArrayBuffer.isView(v) && !(v instanceof DataView);

/**
 * Changes a value the snapshot handed out, in place, by every means that fits its type;
 * `get` fetches a fresh one for each step. `ones` is the byte to write (0xff: every bit 1).
 */
function mutateInPlace(steps, label, get, ones = 0xff) {
  let sample;
  try { sample = get(); } catch (e) { steps.run(`get ${label}`, () => { throw e; }); return; }
  const bytesOf = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (sample === null || (typeof sample !== 'object' && typeof sample !== 'function')) {
    steps.note(`${label} is ${sample === null ? 'null' : `a ${typeof sample}`}: an immutable value, nothing to change in place`);
    return;
  }
  if (isTypedArray(sample)) {
    steps.run(`${label}.fill(0x${ones.toString(16)})`, () => { bytesOf(get()).fill(ones); });
    steps.run(`${label}[i] = 0x${ones.toString(16)} for every i`, () => { const v = bytesOf(get()); for (let i = 0; i < v.length; i++) v[i] = ones; });
    steps.run(`${label}[i] ^= 0xff for every i`, () => { const v = bytesOf(get()); for (let i = 0; i < v.length; i++) v[i] ^= 0xff; });
    steps.run(`DataView(${label}).setUint8(i, 0x${ones.toString(16)})`, () => {
      const v = get(); const dv = new DataView(v.buffer, v.byteOffset, v.byteLength);
      for (let i = 0; i < v.byteLength; i++) dv.setUint8(i, ones);
    });
    steps.run(`new Uint8Array(${label}.buffer).fill(0x${ones.toString(16)}) (the whole backing buffer)`, () => { new Uint8Array(get().buffer).fill(ones); });
    steps.run(`detach ${label}.buffer (structuredClone transfer)`, () => { const b = get().buffer; structuredClone(b, { transfer: [b] }); });
  } else if (sample instanceof DataView) {
    steps.run(`${label}.setUint8(i, 0x${ones.toString(16)})`, () => { const v = get(); for (let i = 0; i < v.byteLength; i++) v.setUint8(i, ones); });
  } else if (sample instanceof ArrayBuffer) {
    steps.run(`new Uint8Array(${label}).fill(0x${ones.toString(16)})`, () => { new Uint8Array(get()).fill(ones); });
  } else if (Array.isArray(sample)) {
    steps.run(`${label}.fill(1)`, () => { get().fill(1); });
    steps.run(`${label}[i] = 1 for every i`, () => { const v = get(); for (let i = 0; i < v.length; i++) v[i] = 1; });
  } else if (sample instanceof Set || sample instanceof Map) {
    steps.run(`${label}.clear()`, () => { get().clear(); });
  } else {
    steps.note(`${label} is an object of no known mutable kind`);
  }
}

/** Reads `key` of the snapshot the ordinary way: a method is called, a property read. */
function handedOut(snap, key) {
  const v = snap[key];
  return typeof v === 'function' ? Reflect.apply(v, snap, []) : v;
}

function mutateReturnedBits(steps, snap) {
  const keys = publicNames(snap).filter((key) => typeof key === 'string' && /bit|packed/i.test(key));
  for (const key of keys) {
    mutateInPlace(steps, typeof snap[key] === 'function' ? `${key}()` : key, () => handedOut(snap, key), 0xff);
  }
}

function mutateReturnedDocuments(steps, snap, otherRecords) {
  const get = () => snap.documents;
  let sample;
  try { sample = get(); } catch (e) { steps.run('get documents', () => { throw e; }); return; }
  if (Array.isArray(sample)) {
    steps.run('documents.length = 0', () => { get().length = 0; });
    steps.run('documents.splice(0) (remove all)', () => { const d = get(); d.splice(0, d.length); });
    steps.run('documents.pop() until empty', () => { const d = get(); while (d.length > 0) d.pop(); });
    steps.run('documents.shift() until empty', () => { const d = get(); while (d.length > 0) d.shift(); });
    steps.run('delete documents[i] for every i', () => { const d = get(); for (let i = d.length - 1; i >= 0; i--) delete d[i]; });
    steps.run('Reflect.deleteProperty(documents, i) for every i', () => {
      const d = get(); for (let i = d.length - 1; i >= 0; i--) must(Reflect.deleteProperty(d, i), 'Reflect.deleteProperty');
    });
    steps.run('documents.push(...other records)', () => { get().push(...otherRecords()); });
    steps.run('documents.splice(0, n, ...other records) (replace all)', () => { const d = get(); d.splice(0, d.length, ...otherRecords()); });
    steps.run('documents[i] = other record', () => { const d = get(); otherRecords().forEach((r, i) => { d[i] = r; }); });
    steps.run('Object.defineProperty(documents, i, other record)', () => {
      const d = get(); otherRecords().forEach((r, i) => { Object.defineProperty(d, i, { value: r, writable: true, enumerable: true, configurable: true }); });
    });
    steps.run('Object.setPrototypeOf(documents, Set.prototype)', () => { Object.setPrototypeOf(get(), Set.prototype); });
  } else if (sample instanceof Set) {
    steps.run('documents.clear()', () => { get().clear(); });
    steps.run('documents.delete(d) for every d', () => { const d = get(); for (const x of [...d]) d.delete(x); });
    steps.run('documents.add(other record)', () => { const d = get(); for (const r of otherRecords()) d.add(r); });
  } else if (sample instanceof Map) {
    steps.run('documents.clear()', () => { get().clear(); });
    steps.run('documents.set(other record)', () => { const d = get(); for (const r of otherRecords()) d.set(dm.toHex(r), r); });
  } else {
    steps.note(`documents is ${sample === null ? 'null' : typeof sample}: nothing to remove or add`);
  }
  // The documents themselves: rewrite each handed-out record's bytes in place.
  const n = (() => { try { const d = get(); return Array.isArray(d) ? d.length : d instanceof Set || d instanceof Map ? d.size : 0; } catch { return 0; } })();
  for (let i = 0; i < n; i++) {
    const element = () => { const d = get(); return Array.isArray(d) ? d[i] : [...d.values()][i]; };
    mutateInPlace(steps, `documents[${i}]`, element, 0x00);
  }
  try {
    const c = snap.documentCount;
    if (c !== undefined) steps.note(`documentCount is a ${typeof c}: an immutable value`);
  } catch { /* observed later */ }
}

function mutateReturnedLookup(steps, snap, probes) {
  probes.forEach((probe, i) => {
    let r;
    try { r = snap.lookup(probe); } catch (e) { steps.run(`lookup(probes[${i}])`, () => { throw e; }); return; }
    if (r === null || typeof r !== 'object') { steps.note(`lookup(probes[${i}]) is a ${typeof r}: immutable`); return; }
    for (const f of TRIPLE) {
      steps.run(`lookup(probes[${i}]).${f} = !${f}`, () => { r[f] = !r[f]; });
      steps.run(`Reflect.set(lookup(probes[${i}]), ${f}, !${f})`, () => must(Reflect.set(r, f, !r[f]), 'Reflect.set'));
      steps.run(`Object.defineProperty(lookup(probes[${i}]), ${f}, !${f})`, () => {
        Object.defineProperty(r, f, { value: !r[f], writable: true, enumerable: true, configurable: true });
      });
    }
    steps.run(`Object.assign(lookup(probes[${i}]), flipped)`, () => {
      Object.assign(r, Object.fromEntries(TRIPLE.map((f) => [f, !r[f]])));
    });
    for (const key of new Set([...TRIPLE, ...Reflect.ownKeys(r)])) {
      steps.run(`delete lookup(probes[${i}]).${nameOf(key)}`, () => { const own = hasOwn(r, key); delete r[key]; return own ? undefined : NOOP; });
    }
    steps.run(`Object.setPrototypeOf(lookup(probes[${i}]), null)`, () => { Object.setPrototypeOf(r, null); });
  });
}

/** XOR every byte of a view with 0xff, in place. */
const xorAll = (v) => { for (let i = 0; i < v.length; i++) v[i] ^= 0xff; };

/** Appends one 0xff byte to a length-tracking view over a resizable ArrayBuffer. */
function growByFF(v) {
  const buf = v.buffer;
  if (!buf.resizable) throw new TypeError('the buffer is not resizable');
  const n = v.length;
  buf.resize(n + 1);
  v[n] = 0xff;
}

const detach = (v) => { const b = v.buffer; structuredClone(b, { transfer: [b] }); };

function mutateRecordsAfterBuild(steps, records, otherRecords) {
  steps.note('the contract admits only a frozen Array of records (a mutable Array is a TypeError), each a Uint8Array the adapter owns over a resizable ArrayBuffer');
  records.forEach((r, i) => steps.run(`records[${i}][j] ^= 0xff for every j`, () => xorAll(r)));
  records.forEach((r, i) => steps.run(`records[${i}]: append 0xff (resize its buffer)`, () => growByFF(r)));
  steps.run('records.push(...other records)', () => { records.push(...otherRecords()); });
  steps.run('records.splice(n, 0, ...other records)', () => { records.splice(records.length, 0, ...otherRecords()); });
  steps.run('records[n] = other record', () => { otherRecords().forEach((r, i) => { records[records.length + i] = r; }); });
  steps.run('Reflect.set(records, n, other record)', () => {
    otherRecords().forEach((r) => must(Reflect.set(records, records.length, r), 'Reflect.set'));
  });
  steps.run('Object.defineProperty(records, n, other record)', () => {
    otherRecords().forEach((r) => { Object.defineProperty(records, records.length, { value: r, writable: true, enumerable: true, configurable: true }); });
  });
  steps.run('records.reverse()', () => { records.reverse(); return records.length < 2 ? NOOP : undefined; });
  steps.run('reverse records by swapping elements', () => {
    for (let i = 0, j = records.length - 1; i < j; i++, j--) { const t = records[i]; records[i] = records[j]; records[j] = t; }
    return records.length < 2 ? NOOP : undefined;
  });
  records.forEach((r, i) => steps.run(`detach records[${i}].buffer (structuredClone transfer)`, () => detach(r)));
}

function mutateSeedAfterBuild(steps, seed) {
  steps.note('the seed is a Uint8Array the adapter owns over a resizable ArrayBuffer');
  steps.run('seed[j] ^= 0xff for every j', () => xorAll(seed));
  steps.run('seed: append 0xff (resize its buffer)', () => growByFF(seed));
  steps.run('detach seed.buffer (structuredClone transfer)', () => detach(seed));
}

const CLASS_CTOR = /cannot be invoked without 'new'/;

function reconstruct(steps, snap, Impl, args) {
  steps.run('Impl.call(snapshot, ...other)', () => { Impl.call(snap, ...args); });
  steps.run('Impl.apply(snapshot, other)', () => { Impl.apply(snap, args); });
  steps.run('Reflect.apply(Impl, snapshot, other)', () => { Reflect.apply(Impl, snap, args); });
  steps.run('Function.prototype.call.call(Impl, snapshot, ...other)', () => { Function.prototype.call.call(Impl, snap, ...args); });
  steps.run('Impl.bind(snapshot)(...other)', () => { Impl.bind(snap)(...args); });
  let ctor;
  try { ctor = snap.constructor; } catch { ctor = undefined; }
  if (typeof ctor === 'function' && ctor !== Impl) {
    steps.run('snapshot.constructor.call(snapshot, ...other)', () => { ctor.call(snap, ...args); });
  }
  for (const init of ['init', 'initialize', 'initialise', 'reinit', 'reset']) {
    let f;
    try { f = snap[init]; } catch { f = undefined; }
    if (typeof f === 'function') steps.run(`snapshot.${init}(...other)`, () => { Reflect.apply(f, snap, args); });
  }
  steps.note('a class constructor runs only under `new`, which makes a new object: JavaScript cannot run it again on an existing one');
}

function mutateCopy(steps, snap, names, otherSnap, change = assignFields) {
  const means = [
    ['structuredClone', () => structuredClone(snap)],
    ['v8.deserialize(v8.serialize())', () => v8.deserialize(v8.serialize(snap))],
    ['JSON round trip', () => JSON.parse(JSON.stringify(snap))],
    ['Object.assign({}, snapshot)', () => Object.assign({}, snap)],
    ['{...snapshot}', () => ({ ...snap })],
    ['Object.fromEntries(Object.entries(snapshot))', () => Object.fromEntries(Object.entries(snap))],
    ['Object.create(prototype, own descriptors)', () => Object.create(Object.getPrototypeOf(snap), Object.getOwnPropertyDescriptors(snap))],
    ['Object.create(snapshot)', () => Object.create(snap)],
  ];
  for (const method of ['clone', 'copy', 'deepCopy', 'deepClone']) {
    let f;
    try { f = snap[method]; } catch { f = undefined; }
    if (typeof f === 'function') means.push([`snapshot.${method}()`, () => Reflect.apply(f, snap, [])]);
  }
  for (const [label, make] of means) {
    let copy;
    try { copy = make(); } catch (e) { steps.run(`copy by ${label}`, () => { throw e; }); continue; }
    if (copy === null || typeof copy !== 'object') { steps.note(`${label} gave a ${typeof copy}`); continue; }
    change(steps, copy, names, otherSnap, `copy(${label})`);
  }
}

/**
 * Observes a snapshot through its ordinary operations. A value that cannot be read, has
 * the wrong kind, or disagrees with another ordinary operation is reported as null (with a
 * note), so that the runner's comparison fails on it.
 */
export function observeSnapshot(snap, probesHex, notes = []) {
  const read = (what, fn) => {
    try { return fn(); } catch (e) { notes.push(`observing ${what} threw ${errorText(e)}`); return null; }
  };
  const integer = (what, v) => {
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    if (typeof v === 'bigint') return Number(v);
    notes.push(`${what} is not an integer`);
    return null;
  };
  const bytes = (what, v) => {
    if (dm.isBytes(v)) return dm.toHex(v);
    notes.push(`${what} is not a Uint8Array`);
    return null;
  };
  const m = read('m', () => integer('m', snap.m));
  const k = read('k', () => integer('k', snap.k));
  const seed = read('seed', () => bytes('seed', snap.seed));
  const packed = read('packedBits()', () => bytes('packedBits()', snap.packedBits()));
  const documents = read('documents', () => {
    const d = snap.documents;
    const n = Array.isArray(d) ? d.length : (d instanceof Set || d instanceof Map) ? d.size : null;
    if (n === null) { notes.push('documents is not an array, set or map'); return null; }
    const c = snap.documentCount;
    if (c !== undefined && c !== n) { notes.push(`documentCount ${String(c)} differs from documents (${n})`); return null; }
    return n;
  });
  const lookups = probesHex.map((hex, i) => read(`lookup(probes[${i}])`, () => {
    const probe = dm.fromHex(hex); // a fresh buffer: nothing an attempt did can reach it
    const r = snap.lookup(probe);
    const out = {};
    for (const f of TRIPLE) out[f] = r !== null && typeof r === 'object' && typeof r[f] === 'boolean' ? r[f] : null;
    if (typeof snap.maybePresent === 'function' && snap.maybePresent(dm.fromHex(hex)) !== out.maybe_present) {
      notes.push(`maybePresent(probes[${i}]) disagrees with lookup`);
      out.maybe_present = null;
    }
    if (typeof snap.has === 'function' && out.maybe_present === true && snap.has(dm.fromHex(hex)) !== out.duplicate) {
      notes.push(`has(probes[${i}]) disagrees with lookup`);
      out.duplicate = null;
    }
    return out;
  }));
  return { m, k, seed, packed_bits: packed, documents, lookups };
}

/** A Uint8Array the adapter owns: a length-tracking view over a resizable ArrayBuffer. */
function ownedBytes(hex) {
  const bytes = dm.fromHex(hex);
  const view = new Uint8Array(new ArrayBuffer(bytes.length, { maxByteLength: bytes.length + 64 }));
  view.set(bytes);
  return view;
}

function summarise(attempt, steps) {
  const done = steps.list.filter((s) => s.result === 'done');
  const refused = steps.list.filter((s) => s.result === 'refused');
  const noop = steps.count('noop');
  const parts = [`${attempt}: ${steps.list.length} steps, ${done.length} went through, ${refused.length} refused, ${noop} no-op`];
  if (done.length > 0) {
    const shown = done.slice(0, 3).map((s) => s.label).join('; ');
    parts.push(`went through: ${shown}${done.length > 3 ? `; +${done.length - 3} more` : ''}`);
  }
  if (refused.length > 0) parts.push(`refused e.g. ${refused[0].label}: ${refused[0].why}`);
  for (const n of steps.notes) parts.push(n);
  return parts.join('. ');
}

/**
 * Op `mutate`: builds a snapshot of `records` (hex) under m, k, seed (hex) from buffers
 * the adapter owns, makes the named attempt for real, then observes the same snapshot.
 * `other` is {m, k, seed, records} (hex). `Impl` is the snapshot class (a test passes a
 * deliberately mutable one to show that the result is observed, not assumed).
 */
export function mutateSnapshot({ m, k, seed, records, other, attempt, probes }, Impl = dm.DocumentPrefilter) {
  if (!ATTEMPTS.includes(attempt)) throw bad(`unknown attempt \`${attempt}\` (one of ${ATTEMPTS.join(', ')})`);
  const ownedRecords = Object.freeze(records.map(ownedBytes));
  const ownedSeed = ownedBytes(seed);
  const snap = new Impl(ownedRecords, m, k, ownedSeed);
  const otherRecords = () => other.records.map(dm.fromHex);
  const otherArgs = () => [Object.freeze(otherRecords()), other.m, other.k, dm.fromHex(other.seed)];
  const otherSnap = new Impl(...otherArgs());
  const names = publicNames(snap);
  const steps = new Steps();
  switch (attempt) {
    case 'assign_fields': assignFields(steps, snap, names, otherSnap, 'snapshot'); break;
    case 'mutate_returned_bits': mutateReturnedBits(steps, snap); break;
    case 'mutate_returned_documents': mutateReturnedDocuments(steps, snap, otherRecords); break;
    case 'mutate_returned_lookup': mutateReturnedLookup(steps, snap, probes.map(dm.fromHex)); break;
    case 'mutate_records_after_build': mutateRecordsAfterBuild(steps, ownedRecords, otherRecords); break;
    case 'mutate_seed_after_build': mutateSeedAfterBuild(steps, ownedSeed); break;
    case 'reconstruct': reconstruct(steps, snap, Impl, otherArgs()); break;
    case 'mutate_copy': mutateCopy(steps, snap, names, otherSnap); break;
    case 'bypass_guards':
      bypassGuards(steps, snap, names, otherSnap, 'snapshot');
      mutateCopy(steps, snap, names, otherSnap, bypassGuards);
      break;
    default: throw bad(`unknown attempt \`${attempt}\``);
  }
  const notes = [];
  const observed = observeSnapshot(snap, probes, notes);
  let outcome;
  if (steps.count('done') > 0) outcome = 'done';
  else if (attempt === 'reconstruct' && steps.list.length > 0
    && steps.list.every((s) => s.result === 'refused' && CLASS_CTOR.test(s.why))) outcome = 'impossible';
  else outcome = 'raised';
  for (const n of notes) steps.note(n);
  return { outcome, detail: summarise(attempt, steps), ...observed };
}

function mutateRequest(req) {
  const params = (obj, where) => {
    try {
      const { m, k, seed } = paramsArg(obj);
      return { m, k, seed: dm.toHex(seed), records: hexListArg(obj, 'records').map(dm.toHex) };
    } catch (e) {
      if (e instanceof BadRequest && where) throw bad(`${where}: ${e.message}`);
      throw e;
    }
  };
  const own = params(req, '');
  const o = arg(req, 'other');
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw bad('`other` must be an object {params, records}');
  const other = params(o, '`other`');
  const attempt = arg(req, 'attempt');
  if (typeof attempt !== 'string') throw bad('`attempt` must be a string');
  if (!ATTEMPTS.includes(attempt)) throw bad(`unknown attempt \`${attempt}\` (one of ${ATTEMPTS.join(', ')})`);
  const probeBytes = hexListArg(req, 'probes');
  // A probe is an item: one longer than 64 bytes is a value error naming `item` (ADAPTER.md, the error table).
  probeBytes.forEach((probe, i) => {
    try { dm.validateItem(probe); } catch (e) {
      if (e instanceof RangeError) throw Object.assign(new RangeError(`item: probes[${i}]: ${e.message}`), { field: 'item' });
      throw e;
    }
  });
  const probes = probeBytes.map(dm.toHex);
  // The wire spells the observed parameters as `params` and the bits as `packed_hex`.
  const { m, k, seed, packed_bits: packedHex, ...rest } = mutateSnapshot({ ...own, other, attempt, probes });
  return { ...rest, params: { m, k, seed_hex: seed }, packed_hex: packedHex };
}

function docMembership(req) {
  switch (req.op) {
    case 'sha256':
      return { digest: dm.toHex(dm.sha256(hexArg(req, 'data'))) };
    case 'frame': {
      const p = paramsArg(req);
      const { m, k, seed } = dm.validateParams(p.m, p.k, p.seed);
      const index = intArg(req, 'index');
      if (index < 0 || index >= k) throw Object.assign(new RangeError(`index: must be 0..${k - 1}`), { field: 'index' });
      const item = dm.validateItem(hexArg(req, 'item'));
      const message = dm.frameMessage(m, k, seed, index, item);
      return { message: dm.toHex(message), digest: dm.toHex(dm.sha256(message)) };
    }
    case 'positions': {
      const p = paramsArg(req);
      const { m, k, seed } = dm.validateParams(p.m, p.k, p.seed);
      return { positions: dm.positions(m, k, seed, dm.validateItem(hexArg(req, 'item'))) };
    }
    case 'build': {
      const snap = snapshotOf(req);
      return { packed_hex: dm.toHex(snap.packedBits()), documents: snap.documentCount };
    }
    case 'lookup': {
      const snap = snapshotOf(req);
      return triple(snap.lookup(hexArg(req, 'item')));
    }
    case 'lookup_many': {
      const snap = snapshotOf(req);
      const items = hexListArg(req, 'items');
      return { results: items.map((it, i) => {
        try { return triple(snap.lookup(it)); } catch (e) { if (e.field === 'item') e.field = 'item'; throw e; }
      }) };
    }
    case 'typed': {
      const records = typedValue(arg(req, 'records'), 'records');
      const m = typedValue(arg(req, 'm'), 'm');
      const k = typedValue(arg(req, 'k'), 'k');
      const seed = typedValue(arg(req, 'seed'), 'seed');
      const hasItem = Object.prototype.hasOwnProperty.call(req, 'item') && req.item !== null;
      const item = hasItem ? typedValue(req.item, 'item') : undefined;
      const snap = new dm.DocumentPrefilter(records, m, k, seed);
      return { lookup: hasItem ? triple(snap.lookup(item)) : null };
    }
    case 'read': {
      const { m, k, seed } = paramsArg(req);
      const packed = hexArg(req, 'packed_hex');
      const records = Object.freeze(hexListArg(req, 'records'));
      const items = hexListArg(req, 'items');
      const snap = dm.DocumentPrefilter.read(m, k, seed, packed, records);
      return { results: items.map((it) => triple(snap.lookup(it))) };
    }
    case 'mutate':
      return mutateRequest(req);
    default:
      throw bad(`unknown op \`${req.op}\` for doc-membership-v1`);
  }
}

// ------------------------------------------------------------ fnv1a-utf16-v1

function fnvProtocol(req, line) {
  switch (req.op) {
    case 'positions': {
      const m = intArg(req, 'm');
      const k = intArg(req, 'k');
      const units = unitsArg(req, 'units');
      fnv.checkParams(m, k);
      if (units.length < fnv.UNITS_MIN || units.length > fnv.UNITS_MAX) {
        throw Object.assign(new RangeError(`units: a string has ${fnv.UNITS_MIN}..=${fnv.UNITS_MAX} code units, got ${units.length}`), { field: 'units' });
      }
      return fnv.fnvPositions(m, k, units);
    }
    case 'estimates': {
      const [m, k, n] = ['m', 'k', 'n'].map((name) => {
        const v = intArg(req, name);
        // Clamped, not rejected, except below 0: out of bounds, a value error naming it (ADAPTER.md, the error table).
        if (v < 0) throw Object.assign(new RangeError(`${name}: ${name} = ${v} is out of bounds: estimates take integers from 0`), { field: name });
        if (v > 0xffffffff) throw bad(`${name}: ${v} is past the wire's width (an estimates input is below 2^32)`);
        return v;
      });
      const e = session.estimates(m, k, n);
      return { classic: e.classic, finite_m: e.finite_m, exact: e.exact, optimal_k: e.optimal_k };
    }
    case 'session': {
      // Re-read the line losslessly: an `import` document must keep `1.0` apart from `1`,
      // integers beyond 2^53 and repeated keys, which JSON.parse would lose.
      let tree;
      try { tree = parseJson(line, { loneSurrogates: true, lastKeyWins: true }); } catch (e) { throw bad(e.message); }
      const script = tree.script;
      if (!Array.isArray(script)) throw bad('`script` must be an array of steps');
      if (script.length > SCRIPT_MAX) {
        throw bad(`\`script\` has ${script.length} steps: a script has at most ${SCRIPT_MAX} (split it)`);
      }
      return session.runScript(script, (msg) => bad(msg));
    }
    default:
      throw bad(`unknown op \`${req.op}\` for fnv1a-utf16-v1`);
  }
}

/** Every protocol served, by name, with its handler: the handshake lists these. */
const SERVED = new Map([
  [dm.PROTOCOL, docMembership],
  [fnv.PROTOCOL, fnvProtocol],
]);

// ------------------------------------------------------------ framing

/** Levels of arrays and objects a request may nest, itself the first (ADAPTER.md, "Input no request may hold"). */
const NESTING_MAX = 127;

/**
 * The request tree as plain values, except that a number written with a fraction, an
 * exponent or as `-0` becomes a boxed Number: no integer argument accepts it (ADAPTER.md,
 * Framing: `16.0`, `1e1` and `-0` are not integers), while `{"float": x}` unboxes it.
 */
function requestValue(tree) {
  // eslint-disable-next-line no-new-wrappers
  return toPlain(tree, (n) => (/^-?(?:0|[1-9][0-9]*)$/.test(n.text) && n.text !== '-0' ? n.number : new Number(n.number)));
}

/** This implementation's version, as its handshake gives it. */
export const VERSION = '0.1.0';

/** The adapter protocol version this adapter speaks (spec/ADAPTER.md, "Handshake"). */
export const ADAPTER_PROTOCOL = 3;

/** The handshake's answer: the version spoken (the runner judges a difference), who
 * answers, the protocols implemented. */
export function started() {
  return {
    adapter_protocol: ADAPTER_PROTOCOL,
    implementation: { name: 'bloomproof-js', language: 'JavaScript', version: `${VERSION} on Node ${process.versions.node}` },
    protocols: [...SERVED.keys()],
  };
}

export function handle(line) {
  let req;
  try {
    req = requestValue(parseJson(line, { loneSurrogates: false, lastKeyWins: true, maxDepth: NESTING_MAX }));
  } catch (e) {
    return { id: null, error: { kind: 'bad_request', message: `not JSON: ${e.message}` } };
  }
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    return { id: null, error: { kind: 'bad_request', message: 'a request is a JSON object' } };
  }
  const duplicate = firstDuplicateKey(line);
  if (duplicate !== undefined) {
    // Which of two ids, or two values, was meant is ambiguous: refused, id null.
    return { id: null, error: { kind: 'bad_request', message: `duplicate key ${quote(duplicate)} in the request` } };
  }
  // An integer id past 2^53 - 1 is no longer the number sent once JSON.parse made it a
  // float (9007199254740993 reads as 9007199254740992): answering it would echo an id
  // never sent, so it is refused with id null, as spec/ADAPTER.md allows.
  const idOk = (typeof req.id === 'string') || (Number.isSafeInteger(req.id) && req.id >= 0);
  const id = idOk ? req.id : null;
  try {
    if (Number.isInteger(req.id) && req.id > Number.MAX_SAFE_INTEGER) {
      throw bad('`id` is past 2^53 - 1: this adapter reads numbers as floats and cannot answer it with the same digits (use a smaller id or a string)');
    }
    if (!idOk) throw bad('`id` must be a non-negative integer or a string');
    if (typeof req.op !== 'string') throw bad('`op` must be a string');
    let result;
    if (req.op === 'start' && !('protocol' in req)) result = started();
    else if (SERVED.has(req.protocol)) result = SERVED.get(req.protocol)(req, line);
    else throw bad(`unknown protocol ${typeof req.protocol === 'string' ? quote(req.protocol) : String(JSON.stringify(req.protocol)).slice(0, QUOTE_MAX)}`);
    return { id, result };
  } catch (e) {
    if (e instanceof BadRequest) return { id, error: { kind: 'bad_request', message: e.message } };
    if (e instanceof TypeError && typeof e.field === 'string') {
      return { id, error: { kind: 'type', message: e.message, field: e.field } };
    }
    if (e instanceof RangeError && typeof e.field === 'string') {
      return { id, error: { kind: 'value', message: e.message, field: e.field } };
    }
    process.stderr.write(`adapter: request ${JSON.stringify(id)} failed: ${e && e.stack ? e.stack : e}\n`);
    return { id, error: { kind: 'internal', message: String(e && e.message ? e.message : e) } };
  }
}

function isMain() {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * Serves a stream of request lines given as byte chunks: `write(text)` gets each response
 * line. Returns { push(chunk), end() }. Each line is decoded on its own (fatal UTF-8, a
 * byte-order mark kept, so it is no JSON), a trailing CR dropped, a blank line skipped.
 */
/** A response line at most RESPONSE_MAX bytes (ADAPTER.md, "Sizes and processes"): a
 * longer answer is refused as bad_request with the request's id instead of written. */
export function responseLine(response) {
  const text = JSON.stringify(response);
  const bytes = Buffer.byteLength(text);
  if (bytes <= RESPONSE_MAX) return text;
  return JSON.stringify({ id: response.id, error: { kind: 'bad_request', message: `the answer would be a ${bytes}-byte line: a response line has at most ${RESPONSE_MAX} bytes (1 MiB); ask for less at a time` } });
}

export function serveLines(write) {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pending = [];
  const serve = (bytes) => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    let line;
    try {
      line = decoder.decode(bytes.subarray(0, end));
    } catch {
      write(JSON.stringify({ id: null, error: { kind: 'bad_request', message: 'the request line is not UTF-8' } }) + '\n');
      return;
    }
    // Blank lines carry no request: skipped, so that responses stay aligned with requests.
    if (line.trim() === '') return;
    write(responseLine(handle(line)) + '\n');
  };
  return {
    push(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        const part = chunk.subarray(start, nl);
        serve(pending.length ? Buffer.concat([...pending, part]) : part);
        pending = [];
        start = nl + 1;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    },
    end() {
      if (pending.length) serve(Buffer.concat(pending));
      pending = [];
    },
  };
}

if (isMain()) {
  // process.stdout is synchronous for pipes and files on Linux: each response is flushed.
  const lines = serveLines((text) => process.stdout.write(text));
  process.stdin.on('data', (chunk) => lines.push(chunk));
  process.stdin.on('end', () => lines.end());
}
