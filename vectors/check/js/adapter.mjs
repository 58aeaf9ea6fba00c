#!/usr/bin/env node
// The bloomproof adapter protocol (spec/ADAPTER.md) over stdin/stdout, for the
// JavaScript implementations of doc-membership-v1 and fnv1a-utf16-v1.
// One JSON request per line in, one JSON response per line out, in order; logs go to
// stderr; exits when stdin closes. Node built-ins only.
//
// Typed values (op `typed`) are mapped to JavaScript values by typed.mjs (see there and
// README.md); a TypeError from the snapshot answers kind "type", a RangeError kind
// "value", each with the `field` the error carries (m, k, seed, records, records[<i>], item).

import { createInterface } from 'node:readline';
import * as dm from './doc_membership_v1.mjs';
import * as fnv from './fnv1a_utf16_v1.mjs';
import * as session from './session.mjs';
import { typedValue, BadRequest } from './typed.mjs';
import { parseJson } from './json.mjs';

const bad = (message) => new BadRequest(message);

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
  const m = intArg(req, 'm');
  const k = intArg(req, 'k');
  const seed = hexArg(req, 'seed');
  const records = Object.freeze(hexListArg(req, 'records'));
  return new dm.DocumentPrefilter(records, m, k, seed);
}

function fingerprint(snap, probes) {
  return JSON.stringify({
    m: snap.m, k: snap.k, seed: dm.toHex(snap.seed), bits: snap.bits.toString(16),
    packed: dm.toHex(snap.packedBits()), documents: snap.documents.map(dm.toHex),
    count: snap.documentCount, lookups: probes.map((p) => triple(snap.lookup(p))),
  });
}

function immutabilityProbe(req) {
  const m = intArg(req, 'm');
  const k = intArg(req, 'k');
  const seed = hexArg(req, 'seed');
  const recordBytes = hexListArg(req, 'records');
  const records = Object.freeze(recordBytes);
  const probes = hexListArg(req, 'probes');
  const snap = new dm.DocumentPrefilter(records, m, k, seed);
  const before = fingerprint(snap, probes);
  const attempts = [];
  const attempt = (text, fn) => {
    let how;
    try {
      const r = fn();
      how = r === false ? 'refused (returned false)' : 'allowed, but it reaches only a copy or nothing';
    } catch (e) {
      how = `refused: ${e.constructor.name}: ${e.message}`;
    }
    attempts.push({ attempt: `${text} -> ${how}`, unchanged: fingerprint(snap, probes) === before });
  };
  for (const field of ['m', 'k', 'seed', 'bits', 'documents', 'documentCount']) {
    attempt(`assign snapshot.${field}`, () => { snap[field] = field === 'bits' ? 0n : 0; });
    attempt(`Reflect.set(snapshot, '${field}', ...)`, () => Reflect.set(snap, field, field === 'bits' ? (1n << 600n) - 1n : 1));
    attempt(`Object.defineProperty(snapshot, '${field}', {value})`, () => { Object.defineProperty(snap, field, { value: 0 }); });
    attempt(`delete snapshot.${field}`, () => { delete snap[field]; });
  }
  attempt('add a new property to the snapshot', () => { snap.extra = 1; });
  attempt('Object.setPrototypeOf(snapshot, {})', () => { Object.setPrototypeOf(snap, {}); });
  attempt('replace DocumentPrefilter.prototype.lookup', () => {
    dm.DocumentPrefilter.prototype.lookup = () => ({ maybe_present: true, exact_checked: true, duplicate: true });
  });
  attempt('replace DocumentPrefilter.prototype.maybePresent', () => { dm.DocumentPrefilter.prototype.maybePresent = () => true; });
  attempt("redefine the 'bits' getter on DocumentPrefilter.prototype", () => {
    Object.defineProperty(dm.DocumentPrefilter.prototype, 'bits', { get: () => 0n });
  });
  attempt('fill the array returned by packedBits() with 0xff', () => { snap.packedBits().fill(0xff); });
  attempt('fill the array returned by packedBits() with 0', () => { snap.packedBits().fill(0); });
  attempt('fill the bytes returned by seed with 0xff', () => { snap.seed.fill(0xff); });
  attempt('push onto the documents array', () => { snap.documents.push(new Uint8Array([1, 2, 3])); });
  attempt('empty the documents array (length = 0)', () => { snap.documents.length = 0; });
  attempt('overwrite the bytes of every returned document', () => { for (const d of snap.documents) d.fill(0x5a); });
  attempt('fill the caller\'s record buffers after construction', () => { for (const r of recordBytes) r.fill(0x5a); });
  attempt('fill the caller\'s seed buffer after construction', () => { seed.fill(0x5a); });
  attempt('assign fields of a returned lookup result', () => {
    const r = snap.lookup(probes[0] ?? new Uint8Array(0));
    r.maybe_present = true; r.duplicate = true;
  });
  attempt('Object.freeze / Object.seal the snapshot again', () => { Object.freeze(snap); Object.seal(snap); });
  return { attempts };
}

function docMembership(req) {
  switch (req.op) {
    case 'sha256':
      return { digest: dm.toHex(dm.sha256(hexArg(req, 'data'))) };
    case 'frame': {
      const { m, k, seed } = dm.validateParams(intArg(req, 'm'), intArg(req, 'k'), hexArg(req, 'seed'));
      const index = intArg(req, 'index');
      if (index < 0 || index >= k) throw Object.assign(new RangeError(`index: must be 0..${k - 1}`), { field: 'index' });
      const item = dm.validateItem(hexArg(req, 'item'));
      const message = dm.frameMessage(m, k, seed, index, item);
      return { message: dm.toHex(message), digest: dm.toHex(dm.sha256(message)) };
    }
    case 'positions': {
      const { m, k, seed } = dm.validateParams(intArg(req, 'm'), intArg(req, 'k'), hexArg(req, 'seed'));
      return { positions: dm.positions(m, k, seed, dm.validateItem(hexArg(req, 'item'))) };
    }
    case 'build': {
      const snap = snapshotOf(req);
      return { packed_bits: dm.toHex(snap.packedBits()), documents: snap.documentCount };
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
    case 'immutability_probe':
      return immutabilityProbe(req);
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
      const e = session.estimates(intArg(req, 'm'), intArg(req, 'k'), intArg(req, 'n'));
      return { classic: e.classic, finite_m: e.finite_m, exact: e.exact, optimal_k: e.optimal_k };
    }
    case 'session': {
      // Re-read the line losslessly: an `import` document must keep `1.0` apart from `1`,
      // integers beyond 2^53 and repeated keys, which JSON.parse would lose.
      let tree;
      try { tree = parseJson(line, { loneSurrogates: true, lastKeyWins: true }); } catch (e) { throw bad(e.message); }
      const script = tree.script;
      if (!Array.isArray(script)) throw bad('`script` must be an array of steps');
      return session.runScript(script, (msg) => bad(msg));
    }
    default:
      throw bad(`unknown op \`${req.op}\` for fnv1a-utf16-v1`);
  }
}

// ------------------------------------------------------------ framing

function handle(line) {
  let req;
  try { req = JSON.parse(line); } catch (e) {
    return { id: null, error: { kind: 'bad_request', message: `not JSON: ${e.message}` } };
  }
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    return { id: null, error: { kind: 'bad_request', message: 'a request is a JSON object' } };
  }
  const idOk = (typeof req.id === 'string') || (Number.isInteger(req.id) && req.id >= 0);
  const id = idOk ? req.id : null;
  try {
    if (!idOk) throw bad('`id` must be a non-negative integer or a string');
    if (typeof req.op !== 'string') throw bad('`op` must be a string');
    let result;
    if (req.protocol === dm.PROTOCOL) result = docMembership(req);
    else if (req.protocol === fnv.PROTOCOL) result = fnvProtocol(req, line);
    else throw bad(`unknown protocol ${JSON.stringify(req.protocol)}`);
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

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
rl.on('line', (line) => {
  // Blank lines carry no request: skipped, so that responses stay aligned with requests.
  if (line.trim() === '') return;
  // process.stdout is synchronous for pipes and files on Linux: each response is flushed.
  process.stdout.write(JSON.stringify(handle(line)) + '\n');
});
