// Typed values of spec/README.md ("the contract of a dynamic language") as the JavaScript
// values they stand for. Used by adapter.mjs (op `typed`) and check_vectors.mjs
// (rejection vectors).
//
//   {"bytes": hex}      -> Uint8Array (exact bytes)
//   {"str": text}       -> string
//   {"bytearray": hex}  -> a plain (mutable) Array of numbers
//   {"memoryview": hex} -> a DataView over a fresh ArrayBuffer
//   {"int": n}          -> a primitive number that is an integer (a bigint if the JSON
//                          integer is outside the safe-integer range)
//   {"bool": b}         -> boolean
//   {"float": x}        -> new Number(x): a Number wrapper object, the "marked float".
//                          In JavaScript a primitive 16.0 IS the integer 16, so a float
//                          that must stay distinguishable from an integer is boxed; the
//                          snapshot accepts only primitive integers (or bigints), so a
//                          boxed number is the wrong kind (TypeError).
//   {"tuple": [...]}    -> Object.freeze([...]): the snapshot's records must be frozen
//   {"list": [...]}     -> a plain mutable Array (the wrong kind for records)
// Anything else (unknown tag, several keys, bad hex) is a BadRequest, never a contract
// error.

import { fromHex } from './doc_membership_v1.mjs';

/** A request or vector that cannot be read (not a contract error of the implementation). */
export class BadRequest extends Error {}

const bad = (message) => new BadRequest(message);

/** A typed JSON value (spec/README.md) -> the JavaScript value it stands for. */
export function typedValue(t, where = 'value') {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) throw bad(`${where}: a typed value must be an object`);
  const keys = Object.keys(t);
  if (keys.length !== 1) throw bad(`${where}: a typed value has exactly one key, got ${JSON.stringify(keys)}`);
  const [tag] = keys;
  const v = t[tag];
  const hex = () => {
    if (typeof v !== 'string') throw bad(`${where}: ${tag} takes a hex string`);
    try { return fromHex(v); } catch (e) { throw bad(`${where}: ${e.message}`); }
  };
  const list = () => {
    if (!Array.isArray(v)) throw bad(`${where}: ${tag} takes an array`);
    return v.map((x, i) => typedValue(x, `${where}[${i}]`));
  };
  switch (tag) {
    case 'bytes': return hex();
    case 'str':
      if (typeof v !== 'string') throw bad(`${where}: str takes a string`);
      return v;
    case 'bytearray': return Array.from(hex());
    case 'memoryview': { const b = hex(); return new DataView(b.buffer, b.byteOffset, b.byteLength); }
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw bad(`${where}: int takes an integer`);
      return Number.isSafeInteger(v) ? v : BigInt(v);
    case 'bool':
      if (typeof v !== 'boolean') throw bad(`${where}: bool takes true or false`);
      return v;
    case 'float': {
      // A number written with a fraction or an exponent reaches here boxed (adapter.mjs,
      // requestValue): for a float either spelling is one.
      const x = v instanceof Number ? v.valueOf() : v;
      if (typeof x !== 'number') throw bad(`${where}: float takes a number`);
      // eslint-disable-next-line no-new-wrappers
      return new Number(x);
    }
    case 'tuple': return Object.freeze(list());
    case 'list': return list();
    default: throw bad(`${where}: unknown typed-value tag \`${tag}\``);
  }
}

