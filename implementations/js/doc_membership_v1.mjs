// doc-membership-v1: the immutable Bloom prefilter in front of an exact set
// (spec/doc-membership-v1/PROTOCOL.md; seed 000). Written from the protocol text.
// Node built-ins only (node:crypto for SHA-256).
//
// Contract (the seed's Python contract, mapped to JavaScript):
//   exact bytes  = a Uint8Array (a Node Buffer is a Uint8Array and is accepted);
//                  a string, a plain Array of numbers, a DataView, another typed
//                  array, a number, a boolean ... is the wrong kind: TypeError.
//   records      = a frozen Array (Object.isFrozen) standing for the Python tuple;
//                  a mutable Array stands for a list: TypeError.
//   m, k         = an integer: a primitive number with Number.isInteger, or a bigint.
//                  A boolean, a non-integral number, NaN/Infinity, a Number wrapper
//                  object (how the adapter represents a Python float such as 16.0)
//                  or anything else: TypeError.
//   Out-of-bounds values: RangeError.
// Every error carries `.field`: m, k, seed, records, records[<i>], item or (for
// DocumentPrefilter.read) packed_bits.
// When several rules are broken at once, the first in this order decides (spec/ADAPTER.md):
// m type, k type, m bound, k bound, seed type, seed length, records type, records count
// (before de-duplication), then each record in index order (its type, then its length),
// then the lookup item (its type, then its length).
//
// Bytes passed in are copied (read through the typed-array intrinsics, so a shadowed
// `length` or iterator changes nothing); nothing returned shares memory with the snapshot.

import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';

export const PROTOCOL = 'doc-membership-v1';
/** "doc-membership-v1" followed by one zero byte: 18 bytes. */
export const DOMAIN = Object.freeze([...new TextEncoder().encode('doc-membership-v1'), 0]);
export const M_MIN = 8;
export const M_MAX = 512;
export const K_MIN = 1;
export const K_MAX = 8;
export const SEED_MAX = 16;
export const ITEM_MAX = 64;
export const RECORDS_MAX = 64;

// ---------------------------------------------------------------- helpers

// The typed-array intrinsics, captured once: they read a view's internal slots, so an own
// property shadowing `length` (Object.defineProperty(bytes, 'length', {value: 1})) or a
// replaced iterator cannot make a 65-byte record pass the bound check or change what is
// copied.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (name) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, name).get;
const typedArrayTag = intrinsic(Symbol.toStringTag);
const viewBuffer = intrinsic('buffer');
const viewByteOffset = intrinsic('byteOffset');
const viewByteLength = intrinsic('byteLength');
const typedArraySet = TypedArrayPrototype.set;
const isView = ArrayBuffer.isView;

/** True for a genuine Uint8Array (or subclass such as Buffer), false for anything else. */
export function isBytes(v) {
  return isView(v) && Reflect.apply(typedArrayTag, v, []) === 'Uint8Array';
}

/** The current length of a Uint8Array, read from its internal slots (0 once detached). */
function byteLength(v) {
  return Reflect.apply(viewByteLength, v, []);
}

/**
 * A private copy of a Uint8Array's current bytes: a fresh ArrayBuffer that shares nothing
 * with the caller's buffer (which may be resizable, shared with other views, or later
 * detached).
 */
function copyBytes(v) {
  const n = byteLength(v);
  const out = new Uint8Array(n);
  if (n > 0) {
    const view = new Uint8Array(Reflect.apply(viewBuffer, v, []), Reflect.apply(viewByteOffset, v, []), n);
    Reflect.apply(typedArraySet, out, [view]);
  }
  return out;
}

function fail(Kind, field, message) {
  const e = new Kind(`${field}: ${message}`);
  e.field = field;
  return e;
}

function describe(v) {
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  if (Array.isArray(v)) return Object.isFrozen(v) ? 'frozen Array' : 'Array';
  if (isView(v)) return Reflect.apply(typedArrayTag, v, []) ?? 'DataView';
  if (v instanceof Number) return 'Number object (float)';
  return Object.prototype.toString.call(v).slice(8, -1);
}

/** Validates an integer argument's kind; returns it as a number (not yet bound-checked). */
function checkIntKind(field, v) {
  if (typeof v === 'bigint') {
    // Keep huge values huge enough to fail the bound check, exactly.
    return v > 1_000_000n ? Infinity : v < -1_000_000n ? -Infinity : Number(v);
  }
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw fail(TypeError, field, `must be an exact integer, got ${describe(v)} (no implicit conversion)`);
}

function checkBound(field, v, lo, hi) {
  if (!(v >= lo && v <= hi)) throw fail(RangeError, field, `must be ${lo}..=${hi}, got ${v}`);
}

/** Validates exact bytes of at most `max` bytes; returns a private copy. */
function checkBytes(field, v, max) {
  if (!isBytes(v)) {
    throw fail(TypeError, field, `must be exact bytes (Uint8Array), got ${describe(v)} (no implicit encoding)`);
  }
  const n = byteLength(v);
  if (n > max) throw fail(RangeError, field, `at most ${max} bytes, got ${n}`);
  return copyBytes(v);
}

export function toHex(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Strict hex decoding (even length, hex digits only, either case). Throws RangeError. */
export function fromHex(text) {
  if (typeof text !== 'string' || text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) {
    throw new RangeError(`malformed hex: ${JSON.stringify(text)}`);
  }
  return Uint8Array.from(Buffer.from(text, 'hex'));
}

/**
 * The parameter contract, in the seed's order (m and k types, m and k bounds, seed type,
 * seed length). Returns {m, k, seed} with m and k as numbers and a private copy of seed.
 */
export function validateParams(m, k, seed) {
  const mm = checkIntKind('m', m);
  const kk = checkIntKind('k', k);
  checkBound('m', mm, M_MIN, M_MAX);
  checkBound('k', kk, K_MIN, K_MAX);
  return { m: mm, k: kk, seed: checkBytes('seed', seed, SEED_MAX) };
}

/** The item contract: exact bytes of 0..=64 bytes. Returns a private copy. */
export function validateItem(item, field = 'item') {
  return checkBytes(field, item, ITEM_MAX);
}

// ---------------------------------------------------------------- hashing

/**
 * SHA-256 of bytes (or of a string's UTF-8) as a Buffer: one call of `crypto.hash` where
 * Node has it (20.12 and later; no Hash object to build and collect, about half the
 * time a short message), else a Hash object.
 */
export const sha256Digest = typeof crypto.hash === 'function'
  ? (data) => crypto.hash('sha256', data, 'buffer')
  : (data) => createHash('sha256').update(data).digest();

/** SHA-256 (FIPS 180-4) of a Uint8Array, as a 32-byte Uint8Array. */
export function sha256(bytes) {
  return new Uint8Array(sha256Digest(bytes));
}

/**
 * The framed message of hash index `index` (all multi-byte integers big-endian):
 * domain(18) | m(2) | k(1) | len(seed)(1) | seed | index(1) | len(item)(2) | item.
 * Low-level: the caller passes valid values (see DocumentPrefilter for the contract).
 */
export function frameMessage(m, k, seed, index, item) {
  const out = new Uint8Array(18 + 2 + 1 + 1 + seed.length + 1 + 2 + item.length);
  let o = 0;
  out.set(DOMAIN, o); o += 18;
  out[o++] = (m >>> 8) & 0xff; out[o++] = m & 0xff;
  out[o++] = k & 0xff;
  out[o++] = seed.length & 0xff;
  out.set(seed, o); o += seed.length;
  out[o++] = index & 0xff;
  out[o++] = (item.length >>> 8) & 0xff; out[o++] = item.length & 0xff;
  out.set(item, o);
  return out;
}

/** int(digest, big-endian) mod m, one byte (8-bit limb) at a time: r*256+b < 2^18, exact. */
export function reduceDigest(digest, m) {
  let r = 0;
  for (let j = 0; j < digest.length; j++) r = (r * 256 + digest[j]) % m;
  return r;
}

/** Positions p_0..p_(k-1) in hash-index order, repeats kept. Low-level (no validation). */
export function positions(m, k, seed, item) {
  const out = new Array(k);
  for (let i = 0; i < k; i++) out[i] = reduceDigest(sha256(frameMessage(m, k, seed, i, item)), m);
  return out;
}

/**
 * Independent reference in the spirit of the seed's oracle: frames the message as
 * hex text and reduces the digest as a BigInt. Shares only SHA-256 with `positions`.
 */
export function referencePositions(m, k, seed, item) {
  const h = (n, w) => n.toString(16).padStart(w, '0');
  const out = [];
  for (let i = 0; i < k; i++) {
    const wire = '646f632d6d656d626572736869702d763100' + h(m, 4) + h(k, 2) + h(seed.length, 2)
      + toHex(seed) + h(i, 2) + h(item.length, 4) + toHex(item);
    const digestHex = createHash('sha256').update(Buffer.from(wire, 'hex')).digest('hex');
    out.push(Number(BigInt('0x' + digestHex) % BigInt(m)));
  }
  return out;
}

// ---------------------------------------------------------------- snapshot

const EMPTY = new Uint8Array(0);

/**
 * The construction contract, in the documented order (m type, k type, m bound, k bound,
 * seed type, seed length, records type, records count, then each record in index order:
 * its type, then its length). Each record is read once. Returns {m, k, seed, records}:
 * numbers, and private copies of the seed and of every record in the given order
 * (repeats kept).
 */
function validateSnapshotArgs(records, m, k, seed) {
  const { m: mm, k: kk, seed: s } = validateParams(m, k, seed);
  if (!Array.isArray(records) || !Object.isFrozen(records)) {
    throw fail(TypeError, 'records', `must be a frozen Array (the tuple), got ${describe(records)}`);
  }
  const n = records.length;
  if (n > RECORDS_MAX) {
    throw fail(RangeError, 'records', `at most ${RECORDS_MAX} records before de-duplication, got ${n}`);
  }
  const copies = new Array(n);
  for (let i = 0; i < n; i++) copies[i] = checkBytes(`records[${i}]`, records[i], ITEM_MAX);
  return { m: mm, k: kk, seed: s, records: copies };
}

const bitIsSet = (packed, p) => (packed[p >> 3] & (1 << (p & 7))) !== 0;

/**
 * An immutable snapshot: built once from all records, then only queried.
 *   new DocumentPrefilter(records, m = 64, k = 3, seed = new Uint8Array())
 *   DocumentPrefilter.read(m, k, seed, packedBits, records)   a snapshot given as its parts, verified
 * Fields (read-only accessors): m, k, seed (a fresh copy), bits (a bigint, bit p = 1n << p),
 * documents (a fresh frozen array of fresh Uint8Array copies, sorted by hex), documentCount.
 * Methods: maybePresent(item), lookup(item), packedBits(), has(item).
 */
export class DocumentPrefilter {
  #m; #k; #seed; #packed; #bits; #documents;

  constructor(records, m = 64, k = 3, seed = EMPTY) {
    const { m: mm, k: kk, seed: s, records: copies } = validateSnapshotArgs(records, m, k, seed);
    const documents = new Map(); // hex -> bytes
    for (const r of copies) documents.set(toHex(r), r);
    const packed = new Uint8Array((mm + 7) >> 3);
    for (const doc of documents.values()) {
      for (const p of positions(mm, kk, s, doc)) packed[p >> 3] |= 1 << (p & 7);
    }
    let bits = 0n;
    for (let j = packed.length - 1; j >= 0; j--) bits = (bits << 8n) | BigInt(packed[j]);
    this.#m = mm;
    this.#k = kk;
    this.#seed = s;
    this.#packed = packed;
    this.#bits = bits;
    this.#documents = documents;
    Object.freeze(this);
  }

  /**
   * Reads a snapshot given as its parts (another implementation's output, a stored one, a
   * damaged one) and VERIFIES it, in this order; the first failure decides the error:
   *   1. m, k, seed, records: exactly as for the constructor (same errors, same order);
   *   2. packedBits: a Uint8Array (else TypeError) of exactly ceil(m/8) bytes (else
   *      RangeError), field `packed_bits`;
   *   3. no bit at or above m is set: else RangeError, field `packed_bits`;
   *   4. each record, in the given order, has all k of its positions set: else RangeError,
   *      field `records[<i>]` of the first record that misses one (the message names the
   *      position);
   *   5. no bit is set that no record sets: else RangeError, field `packed_bits` (the
   *      message names the lowest such bit).
   * A reader never answers from bits that would give a false negative. The result is an
   * ordinary immutable snapshot, equal to `new DocumentPrefilter(records, m, k, seed)`.
   */
  static read(m, k, seed, packedBits, records) {
    const v = validateSnapshotArgs(records, m, k, seed);
    if (!isBytes(packedBits)) {
      throw fail(TypeError, 'packed_bits', `must be exact bytes (Uint8Array), got ${describe(packedBits)} (no implicit encoding)`);
    }
    const given = copyBytes(packedBits);
    const size = (v.m + 7) >> 3;
    if (given.length !== size) {
      throw fail(RangeError, 'packed_bits', `must be exactly ceil(m/8) = ${size} bytes for m = ${v.m}, got ${given.length}`);
    }
    for (let p = v.m; p < size * 8; p++) {
      if (bitIsSet(given, p)) throw fail(RangeError, 'packed_bits', `bit ${p} is set, at or above m = ${v.m}`);
    }
    const union = new Uint8Array(size);
    for (let i = 0; i < v.records.length; i++) {
      const ps = positions(v.m, v.k, v.seed, v.records[i]);
      for (let j = 0; j < ps.length; j++) {
        if (!bitIsSet(given, ps[j])) {
          throw fail(RangeError, `records[${i}]`,
            `position ${ps[j]} (hash index ${j}) is not set in packed_bits: the record would be a false negative`);
        }
        union[ps[j] >> 3] |= 1 << (ps[j] & 7);
      }
    }
    for (let p = 0; p < v.m; p++) {
      if (bitIsSet(given, p) && !bitIsSet(union, p)) {
        throw fail(RangeError, 'packed_bits', `bit ${p} is set but no record sets it`);
      }
    }
    return new DocumentPrefilter(Object.freeze(v.records), v.m, v.k, v.seed);
  }

  get m() { return this.#m; }
  get k() { return this.#k; }
  get seed() { return copyBytes(this.#seed); }
  get bits() { return this.#bits; }
  get documentCount() { return this.#documents.size; }
  get documents() {
    return Object.freeze([...this.#documents.keys()].sort().map((h) => copyBytes(this.#documents.get(h))));
  }

  /** Little-endian packing, ceil(m/8) bytes, unused high bits zero. A fresh copy. */
  packedBits() { return copyBytes(this.#packed); }

  /** True when all k bits of item are set. */
  maybePresent(item) {
    const it = checkBytes('item', item, ITEM_MAX);
    return this.#maybe(it);
  }

  #maybe(it) {
    for (const p of positions(this.#m, this.#k, this.#seed, it)) {
      if ((this.#packed[p >> 3] & (1 << (p & 7))) === 0) return false;
    }
    return true;
  }

  /** Exact byte equality with a stored document (no Bloom step). */
  has(item) {
    const it = checkBytes('item', item, ITEM_MAX);
    return this.#documents.has(toHex(it));
  }

  /** {maybe_present, exact_checked, duplicate}: the exact set is consulted only after a positive. */
  lookup(item) {
    const it = checkBytes('item', item, ITEM_MAX);
    const maybe = this.#maybe(it);
    return Object.freeze({
      maybe_present: maybe,
      exact_checked: maybe,
      duplicate: maybe ? this.#documents.has(toHex(it)) : false,
    });
  }
}
Object.freeze(DocumentPrefilter.prototype);
Object.freeze(DocumentPrefilter);

/** Convenience: a snapshot from hex strings (validated like the constructor). */
export function fromHexRecords(recordsHex, m, k, seedHex) {
  return new DocumentPrefilter(Object.freeze(recordsHex.map(fromHex)), m, k, fromHex(seedHex));
}
