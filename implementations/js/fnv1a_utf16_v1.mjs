// fnv1a-utf16-v1: the hashing core of the teaching filter (spec/fnv1a-utf16-v1/PROTOCOL.md).
//
// Written from the protocol text: 32-bit FNV-1a over UTF-16 code units (not bytes),
// h1 from basis 2166136261, h2 from basis 0xdeadbeef then forced odd, positions
// (h1 + i*h2) mod m computed exactly (no 32-bit wrap of the sum).
// Node built-ins only; no dependencies.

export const PROTOCOL = 'fnv1a-utf16-v1';
export const BASIS_H1 = 2166136261;
export const BASIS_H2 = 0xdeadbeef;
export const FNV_PRIME = 16777619;
export const M_MIN = 8;
export const M_MAX = 1024;
export const K_MIN = 1;
export const K_MAX = 12;
export const UNITS_MIN = 1;
export const UNITS_MAX = 256;
export const MAX_ENTRIES = 1024;

/**
 * 32-bit FNV-1a over a sequence of UTF-16 code units.
 * `units` is a string (its code units are used as-is, lone surrogates included)
 * or an array-like of integers 0..=65535.
 * Returns an unsigned 32-bit number.
 */
export function fnv1a32(basis, units) {
  let h = basis >>> 0;
  if (typeof units === 'string') {
    for (let j = 0; j < units.length; j++) {
      h = Math.imul(h ^ units.charCodeAt(j), FNV_PRIME) >>> 0;
    }
  } else {
    for (let j = 0; j < units.length; j++) {
      h = Math.imul(h ^ units[j], FNV_PRIME) >>> 0;
    }
  }
  return h;
}

/** h1: basis 2166136261. */
export function hash1(units) {
  return fnv1a32(BASIS_H1, units);
}

/** h2: basis 0xdeadbeef, then forced odd. */
export function hash2(units) {
  return (fnv1a32(BASIS_H2, units) | 1) >>> 0;
}

/**
 * The k positions of `units` in a filter of m bits, in hash-index order, repeats kept.
 * h1 + i*h2 < 2^32 + 11 * 2^32 < 2^53, so plain Number arithmetic is exact.
 * No parameter validation here (hot path); see checkParams / checkUnits.
 */
export function fnvPositions(m, k, units) {
  const h1 = hash1(units);
  const h2 = hash2(units);
  const positions = new Array(k);
  for (let i = 0; i < k; i++) {
    positions[i] = (h1 + i * h2) % m;
  }
  return { h1, h2, positions };
}

/** Code units of a JS string (lone surrogates kept). */
export function unitsOf(text) {
  const out = new Array(text.length);
  for (let j = 0; j < text.length; j++) out[j] = text.charCodeAt(j);
  return out;
}

/** A JS string from code units (any 0..=65535, lone surrogates kept). */
export function stringOfUnits(units) {
  let s = '';
  for (let j = 0; j < units.length; j += 4096) {
    s += String.fromCharCode.apply(null, Array.prototype.slice.call(units, j, j + 4096));
  }
  return s;
}

/** Is v an integer in lo..=hi (a JS number, integral)? */
function intIn(v, lo, hi) {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

/** Throws RangeError (with .field) when m or k is out of the protocol's bounds. */
export function checkParams(m, k) {
  if (!intIn(m, M_MIN, M_MAX)) {
    throw Object.assign(new RangeError(`m must be an integer ${M_MIN}..=${M_MAX}`), { field: 'm' });
  }
  if (!intIn(k, K_MIN, K_MAX)) {
    throw Object.assign(new RangeError(`k must be an integer ${K_MIN}..=${K_MAX}`), { field: 'k' });
  }
}
