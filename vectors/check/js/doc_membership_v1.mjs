// doc-membership-v1: the immutable Bloom prefilter in front of an exact set
// (PROTOCOLS.md, protocol 1; seed 000). Written from the protocol text.
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
// Every error carries `.field`: m, k, seed, records, records[<i>] or item.
// Checks run in the seed's order: m and k types, m and k bounds, seed type, seed
// length, records type, records count (before de-duplication), each record.
//
// Bytes passed in are copied; nothing returned shares memory with the snapshot.

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

const typedArrayTag = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;

/** True for a genuine Uint8Array (or subclass such as Buffer), false for anything else. */
export function isBytes(v) {
  return ArrayBuffer.isView(v) && typedArrayTag.call(v) === 'Uint8Array';
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
  if (ArrayBuffer.isView(v)) return typedArrayTag.call(v) ?? 'DataView';
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
  if (v.length > max) throw fail(RangeError, field, `at most ${max} bytes, got ${v.length}`);
  return Uint8Array.from(v);
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

/** SHA-256 (FIPS 180-4) of a Uint8Array, as a 32-byte Uint8Array. */
export function sha256(bytes) {
  return new Uint8Array(createHash('sha256').update(bytes).digest());
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
 * An immutable snapshot: built once from all records, then only queried.
 *   new DocumentPrefilter(records, m = 64, k = 3, seed = new Uint8Array())
 * Fields (read-only accessors): m, k, seed (a fresh copy), bits (a bigint, bit p = 1n << p),
 * documents (a fresh frozen array of fresh Uint8Array copies, sorted by hex), documentCount.
 * Methods: maybePresent(item), lookup(item), packedBits(), has(item).
 */
export class DocumentPrefilter {
  #m; #k; #seed; #packed; #bits; #documents;

  constructor(records, m = 64, k = 3, seed = EMPTY) {
    const { m: mm, k: kk, seed: s } = validateParams(m, k, seed);
    if (!Array.isArray(records) || !Object.isFrozen(records)) {
      throw fail(TypeError, 'records', `must be a frozen Array (the tuple), got ${describe(records)}`);
    }
    if (records.length > RECORDS_MAX) {
      throw fail(RangeError, 'records', `at most ${RECORDS_MAX} records before de-duplication, got ${records.length}`);
    }
    const documents = new Map(); // hex -> bytes
    for (let i = 0; i < records.length; i++) {
      const r = checkBytes(`records[${i}]`, records[i], ITEM_MAX);
      documents.set(toHex(r), r);
    }
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

  get m() { return this.#m; }
  get k() { return this.#k; }
  get seed() { return Uint8Array.from(this.#seed); }
  get bits() { return this.#bits; }
  get documentCount() { return this.#documents.size; }
  get documents() {
    return Object.freeze([...this.#documents.keys()].sort().map((h) => Uint8Array.from(this.#documents.get(h))));
  }

  /** Little-endian packing, ceil(m/8) bytes, unused high bits zero. A fresh copy. */
  packedBits() { return Uint8Array.from(this.#packed); }

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
