#!/usr/bin/env node
// Verifies every generated vector file vectors/<protocol>/*.json with the JavaScript
// implementations in this folder (independent of the Rust code that generated them).
//
//   node implementations/js/check_vectors.mjs [vectors-dir]
//
// Every stage is checked: framed message hex, digest hex, positions, packed bits,
// bits set, document count, lookup triples, h1/h2, and the expected errors of negative
// vectors. Each failure is printed with its file and case id; the last line is exactly
// `N passed, M failed` (N, M count cases). Exit code 1 on any failure, and on any
// malformed file (unknown or missing top-level key, wrong $schema/protocol/kind/format
// version, case_count mismatch, duplicate id, undeclared or unused flag, unknown or
// missing case key, malformed hex); a malformed file counts all its cases as failed
// (at least one). An empty or missing vectors folder is a failure, never "0 passed".

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, basename, resolve } from 'node:path';
import * as dm from './doc_membership_v1.mjs';
import * as fnv from './fnv1a_utf16_v1.mjs';
import { typedValue } from './typed.mjs';

// The folder given, or the vectors folder of the checkout it runs in (the repository root).
const root = resolve(process.argv[2] ?? 'vectors');
const NOT_PROTOCOLS = new Set(['schemas']);
// Version 3 wrote a snapshot lookup's three booleans beside item_hex (not under
// expect); version 2 also a rejection's typed arguments at case level (not under
// input); version 1 also m, k, seed_hex flat and packed_bits_hex.
const FORMAT_VERSION = 4;
const TRIPLE = ['maybe_present', 'exact_checked', 'duplicate'];
const TOP_KEYS = ['$schema', 'protocol', 'kind', 'format_version', 'generator', 'case_count', 'flags', 'cases'];
const HEX = /^(?:[0-9a-f]{2})*$/;

// The case shape of each (protocol, kind): required and optional keys.
const SHAPES = {
  'doc-membership-v1': {
    positions: { required: ['id', 'flags', 'params', 'item_hex', 'hashes', 'positions'], optional: [] },
    snapshots: { required: ['id', 'flags', 'params', 'records_hex', 'packed_hex', 'bits_set', 'documents', 'lookups'], optional: [] },
    rejections: { required: ['id', 'flags', 'input', 'expect'], optional: [] },
  },
  'fnv1a-utf16-v1': {
    positions: { required: ['id', 'flags', 'm', 'k', 'units', 'h1', 'h2', 'positions'], optional: ['text'] },
    rejections: { required: ['id', 'flags', 'm', 'k', 'units', 'expect'], optional: [] },
  },
};

class Malformed extends Error {}

let passed = 0;
let failed = 0;
const out = (line) => process.stdout.write(line + '\n');

// ------------------------------------------------------------ small helpers

const eq = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function keysExactly(obj, required, optional, where) {
  if (!isObj(obj)) throw new Malformed(`${where}: not an object`);
  for (const k of Object.keys(obj)) {
    if (!required.includes(k) && !optional.includes(k)) throw new Malformed(`${where}: unknown key \`${k}\``);
  }
  for (const k of required) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) throw new Malformed(`${where}: missing key \`${k}\``);
  }
}

function hex(v, where) {
  if (typeof v !== 'string' || !HEX.test(v)) throw new Malformed(`${where}: malformed hex ${JSON.stringify(v)}`);
  return dm.fromHex(v);
}

function uint(v, where) {
  if (!Number.isSafeInteger(v) || v < 0) throw new Malformed(`${where}: not a non-negative integer: ${JSON.stringify(v)}`);
  return v;
}

function bool(v, where) {
  if (typeof v !== 'boolean') throw new Malformed(`${where}: not a boolean`);
  return v;
}

function popcount(bytes) {
  let n = 0;
  for (const b of bytes) for (let x = b; x; x &= x - 1) n++;
  return n;
}

/** Collects differences for one case. */
class Diffs {
  constructor() { this.list = []; }
  check(what, expected, actual) {
    if (!eq(expected, actual)) this.list.push(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function errorOf(fn) {
  try { fn(); } catch (e) {
    if (e instanceof TypeError && typeof e.field === 'string') return { error: 'type', field: e.field };
    if (e instanceof RangeError && typeof e.field === 'string') return { error: 'value', field: e.field };
    return { error: `unexpected ${e && e.constructor ? e.constructor.name : typeof e}: ${e && e.message}` };
  }
  return null;
}

// ------------------------------------------------------------ doc-membership-v1

// The nested parameters of a doc-membership-v1 case: exactly m, k and seed_hex.
function docParams(c) {
  keysExactly(c.params, ['m', 'k', 'seed_hex'], [], 'params');
  return {
    m: uint(c.params.m, 'params.m'),
    k: uint(c.params.k, 'params.k'),
    seed: hex(c.params.seed_hex, 'params.seed_hex'),
  };
}

function docPositions(c, d) {
  const { m, k, seed } = docParams(c);
  const item = hex(c.item_hex, 'item_hex');
  if (!Array.isArray(c.hashes)) throw new Malformed('hashes: not an array');
  if (!Array.isArray(c.positions)) throw new Malformed('positions: not an array');
  const err = errorOf(() => { dm.validateParams(m, k, seed); dm.validateItem(item); });
  if (err) { d.check('parameters accepted', null, err); return; }
  d.check('number of hashes', k, c.hashes.length);
  const positions = dm.positions(m, k, seed, item);
  c.hashes.forEach((h, i) => {
    keysExactly(h, ['index', 'message_hex', 'digest_hex', 'position'], [], `hashes[${i}]`);
    hex(h.message_hex, `hashes[${i}].message_hex`);
    hex(h.digest_hex, `hashes[${i}].digest_hex`);
    uint(h.index, `hashes[${i}].index`);
    d.check(`hashes[${i}].index`, i, h.index);
    if (i >= k) return;
    const message = dm.frameMessage(m, k, seed, i, item);
    const digest = dm.sha256(message);
    d.check(`hashes[${i}].message_hex`, h.message_hex, dm.toHex(message));
    d.check(`hashes[${i}].digest_hex`, h.digest_hex, dm.toHex(digest));
    d.check(`hashes[${i}].position`, h.position, positions[i]);
  });
  d.check('positions', c.positions, positions);
}

function docSnapshots(c, d) {
  const { m, k, seed } = docParams(c);
  if (!Array.isArray(c.records_hex)) throw new Malformed('records_hex: not an array');
  const records = Object.freeze(c.records_hex.map((r, i) => hex(r, `records_hex[${i}]`)));
  hex(c.packed_hex, 'packed_hex');
  uint(c.bits_set, 'bits_set');
  uint(c.documents, 'documents');
  if (!Array.isArray(c.lookups)) throw new Malformed('lookups: not an array');
  let snap;
  const err = errorOf(() => { snap = new dm.DocumentPrefilter(records, m, k, seed); });
  if (err) { d.check('construction accepted', null, err); return; }
  const packed = snap.packedBits();
  d.check('packed_hex', c.packed_hex, dm.toHex(packed));
  d.check('bits_set', c.bits_set, popcount(packed));
  d.check('documents', c.documents, snap.documentCount);
  c.lookups.forEach((l, i) => {
    const where = `lookups[${i}]`;
    keysExactly(l, ['item_hex', 'flags', 'expect'], [], where);
    const item = hex(l.item_hex, `${where}.item_hex`);
    const e = l.expect;
    keysExactly(e, TRIPLE, [], `${where}.expect`);
    for (const key of TRIPLE) bool(e[key], `${where}.expect.${key}`);
    let r;
    const lerr = errorOf(() => { r = snap.lookup(item); });
    if (lerr) { d.check(`${where} (item ${l.item_hex}) accepted`, null, lerr); return; }
    d.check(`${where} (item ${l.item_hex})`,
      { maybe_present: e.maybe_present, exact_checked: e.exact_checked, duplicate: e.duplicate },
      { maybe_present: r.maybe_present, exact_checked: r.exact_checked, duplicate: r.duplicate });
  });
}

function rejectExpect(e) {
  keysExactly(e, ['error', 'field'], [], 'expect');
  if (e.error !== 'type' && e.error !== 'value') throw new Malformed(`expect.error: unknown kind ${JSON.stringify(e.error)}`);
  if (typeof e.field !== 'string') throw new Malformed('expect.field: not a string');
  return { error: e.error, field: e.field };
}

function typed(v, where) {
  try { return typedValue(v, where); } catch (e) { throw new Malformed(e.message); }
}

function docRejections(c, d) {
  const expect = rejectExpect(c.expect);
  // The constructor's typed arguments, and the item whose lookup must fail, if any.
  const call = c.input;
  keysExactly(call, ['records', 'm', 'k', 'seed'], ['item'], 'input');
  const records = typed(call.records, 'input.records');
  const m = typed(call.m, 'input.m');
  const k = typed(call.k, 'input.k');
  const seed = typed(call.seed, 'input.seed');
  const hasItem = call.item !== undefined && call.item !== null;
  const item = hasItem ? typed(call.item, 'input.item') : undefined;
  let snap;
  const cerr = errorOf(() => { snap = new dm.DocumentPrefilter(records, m, k, seed); });
  if (hasItem) {
    // The construction must succeed; the lookup is what must be rejected.
    if (cerr) { d.check('construction accepted (the lookup is what fails)', null, cerr); return; }
    d.check('lookup rejected with', expect, errorOf(() => snap.lookup(item)));
  } else {
    d.check('construction rejected with', expect, cerr);
  }
}

// ------------------------------------------------------------ fnv1a-utf16-v1

function units(v, where) {
  if (!Array.isArray(v) || !v.every((u) => Number.isInteger(u) && u >= 0 && u <= 0xffff)) {
    throw new Malformed(`${where}: not an array of code units 0..=65535`);
  }
  return v;
}

function isValidUtf16(u) {
  for (let j = 0; j < u.length; j++) {
    if (u[j] >= 0xd800 && u[j] <= 0xdbff) {
      if (j + 1 < u.length && u[j + 1] >= 0xdc00 && u[j + 1] <= 0xdfff) { j++; continue; }
      return false;
    }
    if (u[j] >= 0xdc00 && u[j] <= 0xdfff) return false;
  }
  return true;
}

function fnvPositionCase(c, d) {
  const m = uint(c.m, 'm');
  const k = uint(c.k, 'k');
  const u = units(c.units, 'units');
  uint(c.h1, 'h1');
  uint(c.h2, 'h2');
  if (!Array.isArray(c.positions)) throw new Malformed('positions: not an array');
  const err = errorOf(() => fnv.checkParams(m, k));
  if (err) { d.check('parameters accepted', null, err); return; }
  d.check('units count within 1..=256', true, u.length >= fnv.UNITS_MIN && u.length <= fnv.UNITS_MAX);
  const validUtf16 = isValidUtf16(u);
  const hasText = c.text !== undefined && c.text !== null;
  // `text` is present exactly when the units are valid UTF-16 (vectors/README.md).
  if (hasText !== validUtf16) {
    throw new Malformed(hasText ? 'text present although the units hold a lone surrogate'
      : 'text absent although the units are valid UTF-16');
  }
  if (hasText) {
    if (typeof c.text !== 'string') throw new Malformed('text: not a string');
    d.check('units of text', u, fnv.unitsOf(c.text));
    // Hashing the string itself must give the same answer as hashing its units.
    const fromText = fnv.fnvPositions(m, k, c.text);
    d.check('h1 (from text)', c.h1, fromText.h1);
  }
  const r = fnv.fnvPositions(m, k, u);
  d.check('h1', c.h1, r.h1);
  d.check('h2', c.h2, r.h2);
  d.check('positions', c.positions, r.positions);
}

function fnvRejectionCase(c, d) {
  const expect = rejectExpect(c.expect);
  const m = uint(c.m, 'm');
  const k = uint(c.k, 'k');
  units(c.units, 'units');
  d.check('parameters rejected with', expect, errorOf(() => fnv.checkParams(m, k)));
}

const VERIFY = {
  'doc-membership-v1': { positions: docPositions, snapshots: docSnapshots, rejections: docRejections },
  'fnv1a-utf16-v1': { positions: fnvPositionCase, rejections: fnvRejectionCase },
};

// ------------------------------------------------------------ files

function caseCount(doc) {
  return doc && Array.isArray(doc.cases) ? Math.max(doc.cases.length, 1) : 1;
}

function fileLevel(doc, protocol, kind, rel) {
  if (!isObj(doc)) throw new Malformed('the file is not a JSON object');
  keysExactly(doc, TOP_KEYS, [], 'top level');
  if (doc.protocol !== protocol) throw new Malformed(`protocol ${JSON.stringify(doc.protocol)} does not match the folder ${protocol}`);
  if (!SHAPES[protocol][kind]) throw new Malformed(`unknown kind of file for ${protocol}: ${kind}.json`);
  if (doc.kind !== kind) throw new Malformed(`kind ${JSON.stringify(doc.kind)} does not match the file name ${kind}.json`);
  const schema = `../schemas/${protocol}.${kind}.schema.json`;
  if (doc.$schema !== schema) throw new Malformed(`$schema ${JSON.stringify(doc.$schema)}, expected ${JSON.stringify(schema)}`);
  if (doc.format_version !== FORMAT_VERSION) {
    throw new Malformed(`format_version ${JSON.stringify(doc.format_version)}, expected ${FORMAT_VERSION}`);
  }
  if (typeof doc.generator !== 'string') throw new Malformed('generator: not a string');
  if (!Array.isArray(doc.cases)) throw new Malformed('cases: not an array');
  if (doc.case_count !== doc.cases.length) throw new Malformed(`case_count ${JSON.stringify(doc.case_count)} but ${doc.cases.length} cases`);
  if (!isObj(doc.flags) || !Object.values(doc.flags).every((v) => typeof v === 'string')) {
    throw new Malformed('flags: not an object of descriptions');
  }
  // Ids unique, flags declared (per case, reported there) and every declared flag used.
  const used = new Set();
  const ids = new Set();
  doc.cases.forEach((c, i) => {
    const id = isObj(c) ? c.id : undefined;
    if (typeof id !== 'string') throw new Malformed(`cases[${i}]: no string id`);
    if (ids.has(id)) throw new Malformed(`case ${id}: id repeated`);
    ids.add(id);
    for (const f of [c.flags, ...(Array.isArray(c.lookups) ? c.lookups.map((l) => l && l.flags) : [])]) {
      if (Array.isArray(f)) f.forEach((x) => used.add(x));
    }
  });
  const unused = Object.keys(doc.flags).filter((f) => !used.has(f));
  if (unused.length) throw new Malformed(`flags declared but used by no case: ${unused.join(', ')}`);
}

function checkFlags(list, declared, where) {
  if (!Array.isArray(list) || !list.every((f) => typeof f === 'string')) throw new Malformed(`${where}flags: not an array of strings`);
  // A sorted list of distinct names (vectors/README.md).
  for (let i = 1; i < list.length; i++) {
    if (!(list[i - 1] < list[i])) throw new Malformed(`${where}flags: not a sorted list of distinct names`);
  }
  for (const f of list) {
    if (!Object.prototype.hasOwnProperty.call(declared, f)) throw new Malformed(`${where}flag \`${f}\` is not declared in the file's flags table`);
  }
}

function verifyFile(path, protocol) {
  const rel = `${protocol}/${basename(path)}`;
  const kind = basename(path, '.json');
  let doc;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
    fileLevel(doc, protocol, kind, rel);
  } catch (e) {
    const n = caseCount(doc);
    out(`MALFORMED ${rel}: ${e.message} (all ${n} case(s) counted as failed)`);
    failed += n;
    return;
  }
  const shape = SHAPES[protocol][kind];
  const verify = VERIFY[protocol][kind];
  let filePassed = 0;
  let fileFailed = 0;
  for (const c of doc.cases) {
    const d = new Diffs();
    try {
      keysExactly(c, shape.required, shape.optional, 'case');
      checkFlags(c.flags, doc.flags, '');
      if (Array.isArray(c.lookups)) {
        c.lookups.forEach((l, i) => {
          if (!isObj(l)) return;
          checkFlags(l.flags, doc.flags, `lookups[${i}].`);
          // A case's flags include every flag of its lookups (vectors/README.md).
          const missing = l.flags.filter((f) => !c.flags.includes(f));
          if (missing.length) throw new Malformed(`lookups[${i}] flag(s) ${missing.join(', ')} missing from the case's flags`);
        });
      }
      verify(c, d);
    } catch (e) {
      d.list.push(e instanceof Malformed ? `malformed case: ${e.message}` : `crashed: ${e && e.stack ? e.stack : e}`);
    }
    if (d.list.length === 0) { filePassed++; continue; }
    fileFailed++;
    out(`FAIL ${rel} case ${c.id}`);
    for (const line of d.list) out(`    ${line}`);
  }
  passed += filePassed;
  failed += fileFailed;
  process.stderr.write(`${rel}: ${filePassed} passed, ${fileFailed} failed\n`);
}

const started = process.hrtime.bigint();
let files = 0;
let protocolDirs = [];
try {
  protocolDirs = readdirSync(root).filter((n) => !NOT_PROTOCOLS.has(n) && statSync(join(root, n)).isDirectory()).sort();
} catch (e) {
  out(`MALFORMED ${root}: cannot read the vectors folder: ${e.message}`);
  failed += 1;
}
for (const protocol of protocolDirs) {
  if (!SHAPES[protocol]) {
    // As the adapter's handshake says; the runner reports it as not run.
    out(`skipped ${protocol}/: a protocol this package does not implement`);
    continue;
  }
  const names = readdirSync(join(root, protocol)).filter((n) => n.endsWith('.json')).sort();
  if (names.length === 0) {
    out(`MALFORMED ${protocol}/: no vector file`);
    failed += 1;
  }
  for (const name of names) {
    files++;
    verifyFile(join(root, protocol, name), protocol);
  }
}
if (files === 0 && failed === 0) {
  out(`MALFORMED ${root}: no vector file found`);
  failed += 1;
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
process.stderr.write(`${files} files in ${ms.toFixed(0)} ms\n`);
out(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
