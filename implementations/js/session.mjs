// The fnv1a-utf16-v1 teaching-filter session (spec/fnv1a-utf16-v1/SESSION.md):
// state, the seven page operations, the view, the ideal-model estimates (with the exact
// dynamic programme), export/import format v1 with full validation, and the local-save
// rule. Plus runScript(), the adapter's `session` op (section 12) with the helper steps
// of section 6. No import but the two sibling modules: it runs in Node (the adapter) and in
// the browser (the explorer page imports this very file).
//
// Strings are JavaScript strings used as sequences of UTF-16 code units (lone
// surrogates included); script values may be JSON strings or arrays of code units.

import { fnvPositions, unitsOf, stringOfUnits } from './fnv1a_utf16_v1.mjs';
import { parseJson, writeJson, JsonNumber, JsonSyntaxError, DUPLICATE_KEYS, FIRST_DUPLICATE_KEY, toPlain } from './json.mjs';

// ------------------------------------------------------------------ constants (section 2)

export const M_MIN = 8;
export const M_MAX = 1024;
export const K_MIN = 1;
export const K_MAX = 12;
export const MAX_UNITS = 256;
export const MAX_ENTRIES = 1024;
export const HISTORY_CAP = 256;
export const DRAFT_MAX_UNITS = 1024;
export const EXAMPLE = Object.freeze(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
export const FORMAT = 'bloomproof-session';
export const FORMAT_VERSION = 1;
export const PROTOCOL = 'fnv1a-utf16-v1';
export const IMPORT_MAX_BYTES = 2097152;
export const LOCAL_SAVE_MAX_UNITS = 100000;
/** Import step 2: arrays and objects nested deeper than this are a syntax error. */
export const MAX_DEPTH = 127;

const INSERT_OUTCOMES = new Set(['new', 'duplicate']);
const QUERY_OUTCOMES = new Set(['definitely_absent', 'false_positive', 'truly_present']);
const U64_MAX = (1n << 64n) - 1n;

/** A counter plus one, stopping at its maximum, 2^64 - 1 (SESSION.md 5.4). */
const saturating = (n) => (n < U64_MAX ? n + 1n : n);

/** A rejected operation: nothing changed. `kind` is one of the ten names of section 5.10. */
export class SessionError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

const err = (kind, message) => new SessionError(kind, message);

// ------------------------------------------------------------------ strings (section 4)

/** Every high surrogate followed by a low one, every low one preceded by a high one. */
export function isWellFormed(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
      return false;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/** The display form: exactly JSON.stringify of the string (well-formed JSON.stringify). */
export function display(s) {
  return JSON.stringify(s);
}

/** A string of the session from a script value: a string, or an array of code units. */
export function textOf(value) {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((u) => Number.isInteger(u) && u >= 0 && u <= 0xffff)) {
    return stringOfUnits(value);
  }
  return undefined;
}

/** Text of the export: a JSON string when well-formed, else an array of code units. */
function textJson(s) {
  return isWellFormed(s) ? JSON.stringify(s) : JSON.stringify(unitsOf(s));
}

/** `value` is one or more ASCII digits whose decimal value equals `param` (section 5.1). */
function denotes(value, param) {
  if (!/^[0-9]+$/.test(value)) return false;
  const digits = value.replace(/^0+(?=.)/, '');
  return digits.length <= 4 && Number(digits) === param;
}

// ------------------------------------------------------------------ estimates (section 8)

// The exact estimate after t = k*n throws is a dynamic programme over the throws; the
// state after t throws is the start of the next n's, so each (m, k) keeps its programme
// and extends it on demand: a series 0..n, or an insertion that adds one entry, costs
// only the new throws (k*m steps per entry) instead of starting again. The arithmetic
// is the same, step for step, whichever n is asked first.
const exactRuns = new Map();
const EXACT_RUNS_MAX = 64;

function exactRun(m, k) {
  const key = `${m},${k}`;
  let run = exactRuns.get(key);
  if (run === undefined) {
    if (exactRuns.size >= EXACT_RUNS_MAX) exactRuns.clear();
    const stay = new Float64Array(m + 1); // x/m: the throw lands on one of the x set bits
    const move = new Float64Array(m + 1); // (m-(x-1))/m: it lands on a clear bit, x-1 -> x
    for (let x = 0; x <= m; x++) { stay[x] = x / m; move[x] = (m - (x - 1)) / m; }
    const hit = new Float64Array(m + 1); // (x/m)^k: a query's k positions all among x set bits
    for (let x = 0; x <= m; x++) hit[x] = Math.pow(x / m, k);
    const P = new Float64Array(m + 1);
    P[0] = 1;
    run = { m, k, stay, move, hit, P, Q: new Float64Array(m + 1), lo: 0, throws: 0, rates: [0] };
    exactRuns.set(key, run);
  }
  return run;
}

/** Runs throws until `t`: the probabilities P[x] that x bits are set. */
function advance(run, t) {
  const { m, stay, move } = run;
  let { P, Q, lo } = run;
  // Probabilities below 1e-300 are flushed to 0 (subnormal arithmetic is ~10x slower);
  // every non-zero result is at least (1/1024)^12 ~ 7e-37, so the error is < 1e-260
  // relative. `lo` is the lowest x with P[x] != 0 (the mass only moves up).
  for (let throwNo = run.throws + 1; throwNo <= t; throwNo++) {
    const hi = throwNo < m ? throwNo : m;
    for (let x = 0; x <= lo; x++) Q[x] = 0;
    let newLo = -1;
    for (let x = lo > 0 ? lo : 1; x <= hi; x++) {
      let v = P[x] * stay[x] + P[x - 1] * move[x];
      if (v < 1e-300) v = 0; else if (newLo < 0) newLo = x;
      Q[x] = v;
    }
    if (newLo >= 0) lo = newLo;
    const swap = P; P = Q; Q = swap;
  }
  run.P = P; run.Q = Q; run.lo = lo; run.throws = Math.max(run.throws, t);
}

function exactRate(m, k, n) {
  if (k * n === 0) return 0;
  const run = exactRun(m, k);
  for (let next = run.rates.length; next <= n; next++) {
    advance(run, k * next);
    const top = Math.min(m, k * next);
    let sum = 0;
    for (let x = 0; x <= top; x++) sum += run.P[x] * run.hit[x];
    run.rates.push(sum);
  }
  return run.rates[n];
}

/** UTF-8 bytes of a string (a lone surrogate counts 3, as its replacement character). */
export function utf8Length(s) {
  // Node counts without encoding; the browser encodes (either writes U+FFFD for a lone
  // surrogate).
  return globalThis.Buffer ? globalThis.Buffer.byteLength(s, 'utf8') : UTF8.encode(s).length;
}

const UTF8 = new TextEncoder();

function classicRate(m, k, n) {
  return Math.pow(-Math.expm1(-(k * n) / m), k);
}

/**
 * Ideal-model estimates for m bits, k hashes, n distinct entries (inputs clamped):
 * {m, k, n, classic, finite_m, exact, optimal_k}.
 */
export function estimates(m, k, n) {
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  m = clamp(m, M_MIN, M_MAX);
  k = clamp(k, K_MIN, K_MAX);
  n = clamp(n, 0, MAX_ENTRIES);
  const t = k * n;
  const classic = classicRate(m, k, n);
  const finiteM = Math.pow(-Math.expm1(t * Math.log1p(-1 / m)), k);
  const exact = exactRate(m, k, n);
  let optimalK = 1;
  let best = classicRate(m, 1, n);
  for (let kk = 2; kk <= K_MAX; kk++) {
    const r = classicRate(m, kk, n);
    if (r < best) { best = r; optimalK = kk; }
  }
  return { m, k, n, classic, finite_m: finiteM, exact, optimal_k: optimalK };
}

// ------------------------------------------------------------------ the filter (section 3)

function emptyFilter(m, k) {
  return {
    m, k,
    bits: new Uint8Array(m),
    entries: [],
    entrySet: new Set(),
    counters: { neg: 0n, fp: 0n },
    last: null,
    history: [],
  };
}

function cloneFilter(f) {
  if (f === null) return null;
  return {
    m: f.m, k: f.k,
    bits: Uint8Array.from(f.bits),
    entries: f.entries.slice(),
    entrySet: new Set(f.entrySet),
    counters: { ...f.counters },
    last: f.last, // records are never mutated after creation
    history: f.history.slice(),
  };
}

function record(f, kind, s, before, outcome, h) {
  const positions = h.positions.map((p, index) => ({
    index, position: p, before: before[p] === 1, after: f.bits[p] === 1,
  }));
  f.last = Object.freeze({ kind, s, h1: h.h1, h2: h.h2, positions, outcome });
  f.history.unshift(Object.freeze({ kind, s, outcome }));
  if (f.history.length > HISTORY_CAP) f.history.length = HISTORY_CAP;
}

/** The insert commit (5.3): no checks. Returns the outcome. */
function commitInsert(f, s) {
  const h = fnvPositions(f.m, f.k, s);
  const isNew = !f.entrySet.has(s);
  const before = isNew ? Uint8Array.from(f.bits) : f.bits;
  if (isNew) {
    for (const p of h.positions) f.bits[p] = 1;
    f.entries.push(s);
    f.entrySet.add(s);
    f.counters = { neg: 0n, fp: 0n };
  }
  const outcome = isNew ? 'new' : 'duplicate';
  record(f, 'insert', s, before, outcome, h);
  return outcome;
}

/** The query commit (5.4): no checks. Returns the outcome. */
function commitQuery(f, s) {
  const h = fnvPositions(f.m, f.k, s);
  let outcome;
  if (f.entrySet.has(s)) outcome = 'truly_present';
  else if (h.positions.every((p) => f.bits[p] === 1)) {
    outcome = 'false_positive';
    f.counters = { neg: saturating(f.counters.neg), fp: saturating(f.counters.fp) };
  } else {
    outcome = 'definitely_absent';
    f.counters = { neg: saturating(f.counters.neg), fp: f.counters.fp };
  }
  record(f, 'query', s, f.bits, outcome, h);
  return outcome;
}

function addPrefixEntry(f, s) {
  for (const p of fnvPositions(f.m, f.k, s).positions) f.bits[p] = 1;
  f.entries.push(s);
  f.entrySet.add(s);
}

// ------------------------------------------------------------------ the session

const FIELDS = ['m', 'k', 'insert', 'query'];

export class Session {
  #drafts = { m: '64', k: '3', insert: '', query: '' };
  #panels = { positions: false, model: false };
  #active = null;

  // ---- state copies (all-or-nothing helpers)
  snapshotState() {
    return { drafts: { ...this.#drafts }, panels: { ...this.#panels }, active: cloneFilter(this.#active) };
  }

  restoreState(s) {
    this.#drafts = { ...s.drafts };
    this.#panels = { ...s.panels };
    this.#active = cloneFilter(s.active);
  }

  // ---- operations (section 5)

  setDraft(field, value) {
    if (!FIELDS.includes(field)) throw new TypeError(`set_draft: unknown field ${JSON.stringify(field)}`);
    if (typeof value !== 'string') throw new TypeError('set_draft: the value is a string');
    // Drafts are always well-formed text (SESSION.md, section 3): an export must carry them
    // as JSON strings, which cannot hold a lone surrogate.
    if (!isWellFormed(value)) throw new TypeError('set_draft: a draft is well-formed text (no lone surrogate)');
    if (value.length > DRAFT_MAX_UNITS) {
      throw err('too_long', `${field} draft: ${value.length} UTF-16 code units, at most ${DRAFT_MAX_UNITS}`);
    }
    this.#drafts[field] = value;
    if (this.#active && (field === 'm' || field === 'k') && !denotes(value, this.#active[field])) {
      this.#active = null;
    }
  }

  create() {
    const m = parseDraft('m', this.#drafts.m, M_MIN, M_MAX);
    const k = parseDraft('k', this.#drafts.k, K_MIN, K_MAX);
    this.#active = emptyFilter(m, k);
  }

  #checkString(op, value) {
    if (!this.#active) throw err('no_active_filter', `${op}: no active filter; create the filter first`);
    const s = textOf(value);
    if (s === undefined) throw new TypeError(`${op}: the value is a string or an array of code units 0..=65535`);
    if (s.length === 0) throw err('empty_string', `${op}: empty string; strings have 1..=${MAX_UNITS} UTF-16 code units`);
    if (s.length > MAX_UNITS) throw err('too_long', `${op}: ${s.length} UTF-16 code units, at most ${MAX_UNITS}`);
    return s;
  }

  insert(value) {
    const s = this.#checkString('insert', value);
    const f = this.#active;
    if (!f.entrySet.has(s) && f.entries.length >= MAX_ENTRIES) {
      throw err('too_many_entries', `insert: the filter already keeps ${f.entries.length} distinct strings, at most ${MAX_ENTRIES}; a new distinct string is rejected (a duplicate is still accepted)`);
    }
    return commitInsert(f, s);
  }

  query(value) {
    return commitQuery(this.#active, this.#checkString('query', value));
  }

  insertExample() {
    const f = this.#active;
    if (!f) throw err('no_active_filter', 'insert_example: no active filter; create the filter first');
    const missing = EXAMPLE.filter((s) => !f.entrySet.has(s)).length;
    if (f.entries.length + missing > MAX_ENTRIES) {
      throw err('too_many_entries', `insert_example: ${f.entries.length} entries + ${missing} new example strings exceed ${MAX_ENTRIES}`);
    }
    for (const s of EXAMPLE) commitInsert(f, s);
  }

  reset() {
    if (!this.#active) throw err('no_active_filter', 'reset: no active filter; create the filter first');
    this.#active = emptyFilter(this.#active.m, this.#active.k);
  }

  setPanel(panel, open) {
    if (panel !== 'positions' && panel !== 'model') throw new TypeError(`set_panel: unknown panel ${JSON.stringify(panel)}`);
    if (typeof open !== 'boolean') throw new TypeError('set_panel: `open` is a boolean');
    this.#panels[panel] = open;
  }

  // ---- the view (section 7)

  view() {
    const f = this.#active;
    const counters = f ? f.counters : { neg: 0n, fp: 0n };
    const neg = Number(counters.neg);
    const fp = Number(counters.fp);
    let bits = null;
    let bitsSet = 0;
    if (f) {
      let out = '';
      for (let p = 0; p < f.m; p++) { out += f.bits[p] ? '1' : '0'; bitsSet += f.bits[p]; }
      bits = out;
    }
    return {
      active: f !== null,
      params: f ? { m: f.m, k: f.k } : null,
      drafts: { ...this.#drafts },
      bits,
      bits_set: bitsSet,
      distinct_entries: f ? f.entries.length : 0,
      counters: { negative_queries: neg, false_positives: fp },
      rate: counters.neg === 0n ? { state: 'undefined' }
        : { state: 'defined', false_positives: fp, negative_queries: neg, value: fp / neg },
      last_operation: f && f.last ? {
        kind: f.last.kind,
        units: unitsOf(f.last.s),
        display: display(f.last.s),
        h1: f.last.h1,
        h2: f.last.h2,
        positions: f.last.positions.map((p) => ({ ...p })),
        outcome: f.last.outcome,
      } : null,
      history: f ? f.history.map((h) => ({ kind: h.kind, units: unitsOf(h.s), display: display(h.s), outcome: h.outcome })) : [],
      panels: { ...this.#panels },
      estimates: f ? estimates(f.m, f.k, f.entries.length) : null,
    };
  }

  // ---- export (section 9)

  exportText() {
    const f = this.#active;
    const compact = (v) => writeJson(v);
    const counters = f ? f.counters : { neg: 0n, fp: 0n };
    const list = (items) => (items.length === 0 ? '[]' : '[\n' + items.map((x) => '    ' + x).join(',\n') + '\n  ]');
    const last = f && f.last
      ? '{"kind":' + JSON.stringify(f.last.kind) + ',"value":' + textJson(f.last.s) + ',"display":' + JSON.stringify(display(f.last.s))
        + ',"h1":' + f.last.h1 + ',"h2":' + f.last.h2 + ',"positions":' + compact(f.last.positions.map((p) => ({ index: p.index, position: p.position, before: p.before, after: p.after })))
        + ',"outcome":' + JSON.stringify(f.last.outcome) + '}'
      : 'null';
    const fields = [
      ['format', JSON.stringify(FORMAT)],
      ['version', String(FORMAT_VERSION)],
      ['protocol', JSON.stringify(PROTOCOL)],
      ['params', f ? compact({ m: f.m, k: f.k }) : 'null'],
      ['drafts', compact({ m: this.#drafts.m, k: this.#drafts.k, insert: this.#drafts.insert, query: this.#drafts.query })],
      ['entries', list(f ? f.entries.map(textJson) : [])],
      ['counters', `{"negative_queries":${counters.neg},"false_positives":${counters.fp}}`],
      ['last_operation', last],
      ['history', list(f ? f.history.map((h) => '{"kind":' + JSON.stringify(h.kind) + ',"value":' + textJson(h.s) + ',"outcome":' + JSON.stringify(h.outcome) + '}') : [])],
      ['panels', compact({ positions: this.#panels.positions, model: this.#panels.model })],
    ];
    return '{\n' + fields.map(([k, v]) => `  ${JSON.stringify(k)}: ${v}`).join(',\n') + '\n}\n';
  }

  // ---- import (section 10)

  /** Replaces the whole session with the imported one, or throws SessionError and changes nothing. */
  importText(text) {
    const imported = readExport(text);
    this.#drafts = imported.drafts;
    this.#panels = imported.panels;
    this.#active = imported.active;
  }

  static fromExport(text) {
    const s = new Session();
    s.importText(text);
    return s;
  }
}

function parseDraft(field, draft, lo, hi) {
  if (!/^[0-9]+$/.test(draft)) {
    throw err('invalid_draft', `${field}: draft ${JSON.stringify(draft)} is not a decimal integer (ASCII digits 0-9 only: no sign, spaces, decimal point or exponent)`);
  }
  const digits = draft.replace(/^0+(?=.)/, '');
  const v = digits.length > 4 ? Infinity : Number(digits);
  if (v < lo || v > hi) {
    throw err('out_of_range', `${field} = ${digits} is out of range: must be an integer in ${lo}..=${hi}`);
  }
  return v;
}

// ------------------------------------------------------------------ import (section 10)

const invalid = (path, what) => err('invalid', `${path}: ${what}`);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonNumber);

function exactKeys(v, path, required, optional = []) {
  if (!isObject(v)) throw invalid(path, 'expected an object');
  if (v[DUPLICATE_KEYS]) throw invalid(path, 'a key appears twice');
  for (const key of Object.keys(v)) {
    if (!required.includes(key) && !optional.includes(key)) throw invalid(`${path}.${key}`, 'unknown field');
  }
  for (const key of required) {
    if (!Object.prototype.hasOwnProperty.call(v, key)) throw invalid(`${path}.${key}`, 'missing field');
  }
}

function uintIn(v, path, max) {
  if (!(v instanceof JsonNumber) || !v.isUnsignedInteger || v.bigint > max) {
    throw invalid(path, `expected an integer 0..=${max}`);
  }
  return v.bigint;
}

function str(v, path) {
  if (typeof v !== 'string') throw invalid(path, 'expected a string');
  return v;
}

function bool(v, path) {
  if (typeof v !== 'boolean') throw invalid(path, 'expected true or false');
  return v;
}

function arr(v, path) {
  if (!Array.isArray(v)) throw invalid(path, 'expected an array');
  return v;
}

function text(v, path) {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    return stringOfUnits(v.map((u, i) => Number(uintIn(u, `${path}[${i}]`, 0xffffn))));
  }
  throw invalid(path, 'expected a string or an array of code units');
}

function outcomeName(v, path) {
  if (!INSERT_OUTCOMES.has(v) && !QUERY_OUTCOMES.has(v)) throw invalid(path, 'unknown outcome');
  return v;
}

function kindName(v, path) {
  if (v !== 'insert' && v !== 'query') throw invalid(path, 'kind is "insert" or "query"');
  return v;
}

/** Step 3: the path of the first key that appears twice in one object, at any depth, or null. */
function firstDuplicateKey(v, path = '$') {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = firstDuplicateKey(v[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
  } else if (isObject(v)) {
    if (v[DUPLICATE_KEYS]) return `${path}.${v[FIRST_DUPLICATE_KEY]}`;
    for (const key of Object.keys(v)) {
      const found = firstDuplicateKey(v[key], `${path}.${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

const TOP = ['format', 'version', 'protocol', 'params', 'drafts', 'entries', 'counters', 'last_operation', 'history', 'panels'];

/** Stage C: the whole shape of version 1, into plain values. */
function shapeV1(doc) {
  exactKeys(doc, '$', TOP.filter((f) => f !== 'params' && f !== 'last_operation'), ['params', 'last_operation']);
  const out = {};
  out.protocol = str(doc.protocol, '$.protocol');
  const params = doc.params ?? null;
  if (params !== null) {
    exactKeys(params, '$.params', ['m', 'k']);
    out.params = { m: Number(uintIn(params.m, '$.params.m', 0xffffffffn)), k: Number(uintIn(params.k, '$.params.k', 0xffffffffn)) };
  } else out.params = null;
  exactKeys(doc.drafts, '$.drafts', ['m', 'k', 'insert', 'query']);
  out.drafts = {};
  for (const f of FIELDS) out.drafts[f] = str(doc.drafts[f], `$.drafts.${f}`);
  out.entries = arr(doc.entries, '$.entries').map((e, i) => text(e, `$.entries[${i}]`));
  exactKeys(doc.counters, '$.counters', ['negative_queries', 'false_positives']);
  out.counters = {
    neg: uintIn(doc.counters.negative_queries, '$.counters.negative_queries', U64_MAX),
    fp: uintIn(doc.counters.false_positives, '$.counters.false_positives', U64_MAX),
  };
  const last = doc.last_operation ?? null;
  if (last !== null) {
    exactKeys(last, '$.last_operation', ['kind', 'value', 'display', 'h1', 'h2', 'positions', 'outcome']);
    out.last = {
      kind: kindName(last.kind, '$.last_operation.kind'),
      s: text(last.value, '$.last_operation.value'),
      display: str(last.display, '$.last_operation.display'),
      h1: Number(uintIn(last.h1, '$.last_operation.h1', 0xffffffffn)),
      h2: Number(uintIn(last.h2, '$.last_operation.h2', 0xffffffffn)),
      positions: arr(last.positions, '$.last_operation.positions').map((p, i) => {
        const path = `$.last_operation.positions[${i}]`;
        exactKeys(p, path, ['index', 'position', 'before', 'after']);
        return {
          index: Number(uintIn(p.index, `${path}.index`, 255n)),
          position: Number(uintIn(p.position, `${path}.position`, 65535n)),
          before: bool(p.before, `${path}.before`),
          after: bool(p.after, `${path}.after`),
        };
      }),
      outcome: outcomeName(last.outcome, '$.last_operation.outcome'),
    };
  } else out.last = null;
  out.history = arr(doc.history, '$.history').map((h, i) => {
    const path = `$.history[${i}]`;
    exactKeys(h, path, ['kind', 'value', 'outcome']);
    return { kind: kindName(h.kind, `${path}.kind`), s: text(h.value, `${path}.value`), outcome: outcomeName(h.outcome, `${path}.outcome`) };
  });
  exactKeys(doc.panels, '$.panels', ['positions', 'model']);
  out.panels = { positions: bool(doc.panels.positions, '$.panels.positions'), model: bool(doc.panels.model, '$.panels.model') };
  return out;
}

/** Reads an export text (stages A to D); returns {drafts, panels, active} or throws SessionError. */
export function readExport(textIn) {
  // Stage A: size, then strict JSON.
  const bytes = utf8Length(textIn);
  if (bytes > IMPORT_MAX_BYTES) throw err('too_large', `file is ${bytes} bytes, at most ${IMPORT_MAX_BYTES}`);
  let doc;
  try {
    doc = parseJson(textIn, { maxDepth: MAX_DEPTH, finiteNumbers: true });
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw err('syntax', e.message);
    throw e;
  }
  // Stage B: no key twice (at any depth), then format and version.
  const duplicate = firstDuplicateKey(doc);
  if (duplicate !== null) throw invalid(duplicate, 'this key appears twice in one object (every key is unique)');
  if (!isObject(doc)) throw invalid('$', 'a session is a JSON object');
  if (typeof doc.format !== 'string') throw invalid('$.format', 'missing or not a string');
  if (doc.format !== FORMAT) throw invalid('$.format', `${JSON.stringify(doc.format)} is not ${JSON.stringify(FORMAT)}`);
  const version = doc.version;
  if (!(version instanceof JsonNumber) || !version.isUnsignedInteger || version.bigint > U64_MAX) {
    throw invalid('$.version', 'missing or not a non-negative integer');
  }
  if (version.bigint !== 1n) {
    throw err('unsupported_version', `version: unsupported session format version ${version.text}; this reader knows versions 1..=1`);
  }
  // Stage C: the shape.
  const v = shapeV1(doc);
  // Stage D: the rules.
  if (v.protocol !== PROTOCOL) throw invalid('$.protocol', `${JSON.stringify(v.protocol)} is not ${JSON.stringify(PROTOCOL)}`);
  for (const f of FIELDS) {
    if (v.drafts[f].length > DRAFT_MAX_UNITS) throw err('too_long', `drafts.${f}: ${v.drafts[f].length} code units, at most ${DRAFT_MAX_UNITS}`);
  }
  if (v.params === null) {
    if (v.entries.length) throw invalid('entries', 'must be empty with no filter');
    if (v.counters.neg !== 0n || v.counters.fp !== 0n) throw invalid('counters', 'must be 0 with no filter');
    if (v.last !== null) throw invalid('last_operation', 'must be null with no filter');
    if (v.history.length) throw invalid('history', 'must be empty with no filter');
    return { drafts: v.drafts, panels: v.panels, active: null };
  }
  const { m, k } = v.params;
  if (m < M_MIN || m > M_MAX) throw err('out_of_range', `params.m = ${m} is out of range: must be an integer in ${M_MIN}..=${M_MAX}`);
  if (k < K_MIN || k > K_MAX) throw err('out_of_range', `params.k = ${k} is out of range: must be an integer in ${K_MIN}..=${K_MAX}`);
  if (!denotes(v.drafts.m, m)) throw invalid('drafts.m', `${JSON.stringify(v.drafts.m)} does not denote params.m = ${m}`);
  if (!denotes(v.drafts.k, k)) throw invalid('drafts.k', `${JSON.stringify(v.drafts.k)} does not denote params.k = ${k}`);
  if (v.entries.length > MAX_ENTRIES) throw err('too_many_entries', `entries: ${v.entries.length} entries, at most ${MAX_ENTRIES}`);
  const seen = new Set();
  v.entries.forEach((s, i) => {
    if (s.length === 0) throw err('empty_string', `entries[${i}]: empty string`);
    if (s.length > MAX_UNITS) throw err('too_long', `entries[${i}]: ${s.length} code units, at most ${MAX_UNITS}`);
    if (seen.has(s)) throw invalid(`entries[${i}]`, 'repeats an earlier entry');
    seen.add(s);
  });
  if (v.counters.fp > v.counters.neg) {
    throw invalid('counters', `false_positives = ${v.counters.fp} exceeds negative_queries = ${v.counters.neg}`);
  }
  if (v.history.length > HISTORY_CAP) throw err('too_long', `history: ${v.history.length} items, at most ${HISTORY_CAP}`);
  v.history.forEach((h, i) => {
    if (h.s.length === 0) throw err('empty_string', `history[${i}].value: empty string`);
    if (h.s.length > MAX_UNITS) throw err('too_long', `history[${i}].value: ${h.s.length} code units, at most ${MAX_UNITS}`);
    const ok = h.kind === 'insert' ? INSERT_OUTCOMES.has(h.outcome) : QUERY_OUTCOMES.has(h.outcome);
    if (!ok) throw invalid(`history[${i}].outcome`, `${h.outcome} is not an outcome of ${h.kind}`);
  });
  // 15: the entries are accounted for by the history.
  const news = [];
  for (let i = v.history.length - 1; i >= 0; i--) if (v.history[i].outcome === 'new') news.push(v.history[i].s);
  const complete = v.history.length < HISTORY_CAP;
  if (news.length > v.entries.length) throw invalid('entries', 'fewer entries than new insertions in the history');
  const prefixLength = v.entries.length - news.length;
  for (let j = 0; j < news.length; j++) {
    if (v.entries[prefixLength + j] !== news[j]) {
      throw invalid(`entries[${prefixLength + j}]`, 'does not match the new insertions of the history, in order');
    }
  }
  if (complete && prefixLength !== 0) throw invalid('entries', `${prefixLength} entries are not accounted for by the history`);
  // 16: replay.
  const f = emptyFilter(m, k);
  for (let j = 0; j < prefixLength; j++) addPrefixEntry(f, v.entries[j]);
  for (let i = v.history.length - 1; i >= 0; i--) {
    const h = v.history[i];
    const got = h.kind === 'insert' ? commitInsert(f, h.s) : commitQuery(f, h.s);
    if (got !== h.outcome) throw invalid(`history[${i}].outcome`, `${h.outcome}, but replaying the history gives ${got}`);
  }
  // 17: counters.
  const r = f.counters;
  if (news.length > 0 || complete) {
    if (v.counters.neg !== r.neg || v.counters.fp !== r.fp) {
      throw invalid('counters', `${v.counters.neg}/${v.counters.fp} disagree with the replayed history, which gives ${r.neg}/${r.fp}`);
    }
  } else {
    const dn = v.counters.neg - r.neg;
    const df = v.counters.fp - r.fp;
    // At 2^64 - 1 the counters may have saturated (5.4): the second difference is
    // then not compared with the first.
    const saturated = v.counters.neg === U64_MAX;
    if (dn < 0n || df < 0n || (df > dn && !saturated)) {
      throw invalid('counters', `${v.counters.neg}/${v.counters.fp} cannot extend the replayed ${r.neg}/${r.fp}`);
    }
  }
  // 18: last operation.
  if (v.history.length === 0) {
    if (v.last !== null) throw invalid('last_operation', 'must be null with an empty history');
  } else {
    if (v.last === null) throw invalid('last_operation', 'missing although the history is not empty');
    const a = v.last;
    const b = f.last;
    if (a.kind !== b.kind) throw invalid('last_operation.kind', 'does not match the replay');
    if (a.s !== b.s) throw invalid('last_operation.value', 'does not match the replay');
    if (a.outcome !== b.outcome) throw invalid('last_operation.outcome', 'does not match the replay');
    if (a.display !== display(b.s)) throw invalid('last_operation.display', 'does not match the replay');
    if (a.h1 !== b.h1) throw invalid('last_operation.h1', 'does not match the replay');
    if (a.h2 !== b.h2) throw invalid('last_operation.h2', 'does not match the replay');
    if (a.positions.length !== k) throw invalid('last_operation.positions', `${a.positions.length} items, expected k = ${k}`);
    a.positions.forEach((p, i) => {
      const q = b.positions[i];
      if (p.index !== q.index || p.position !== q.position || p.before !== q.before || p.after !== q.after) {
        throw invalid(`last_operation.positions[${i}]`, 'does not match the replay');
      }
    });
  }
  f.counters = { neg: v.counters.neg, fp: v.counters.fp };
  return { drafts: v.drafts, panels: v.panels, active: f };
}

// ------------------------------------------------------------------ local save (section 11)

/**
 * The local-save rule for a serialised state of `stateUnits` UTF-16 code units (the
 * state itself when it is saved) and the previously stored copy (or null).
 * Returns {outcome, stored, warning}: `stored` is what is stored afterwards.
 */
/** A state longer than this is not built: only its length matters (it is never stored). */
const SAVE_STATE_BUILT = 8 * LOCAL_SAVE_MAX_UNITS;

/**
 * The state of a `save_local` step (sections 6 and 11): `fill` ('x' when absent) repeated
 * as many whole times as fit in `units` UTF-16 code units, then 'x' until it is exactly
 * `units` code units; past SAVE_STATE_BUILT, a stand-in with its length alone.
 */
export function saveState(units, fill = 'x') {
  if (units > SAVE_STATE_BUILT) return { length: units };
  return fill.repeat(Math.floor(units / fill.length)) + 'x'.repeat(units % fill.length);
}

export function saveLocal(state, previous) {
  if (state.length <= LOCAL_SAVE_MAX_UNITS) return { outcome: 'saved', stored: state, warning: null };
  const tail = previous === null
    ? 'it was not saved, and there is no previous copy.'
    : 'it was not saved, the previous copy is kept.';
  return {
    outcome: 'kept',
    stored: previous,
    warning: `The session is ${state.length} UTF-16 code units when serialised, over the ${LOCAL_SAVE_MAX_UNITS} that are saved locally: ${tail} Export the whole session before reloading or leaving the page.`,
  };
}

// ------------------------------------------------------------------ scripts (sections 6, 12)

function stepKeys(step, keys, optional = []) {
  for (const key of Object.keys(step)) {
    if (key !== 'op' && !keys.includes(key) && !optional.includes(key)) throw new TypeError(`step ${step.op}: unknown key \`${key}\``);
  }
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(step, key)) throw new TypeError(`step ${step.op}: missing key \`${key}\``);
  }
}

function plainInt(v, what) {
  if (!(v instanceof JsonNumber) || !v.isUnsignedInteger) throw new TypeError(`${what}: a non-negative integer`);
  return Number(v.bigint);
}

/**
 * Runs one script step (a lossless JSON tree from json.mjs, or plain values) on `session`.
 * Returns {save?}; throws SessionError when the step is rejected, TypeError when the step
 * itself is malformed.
 */
function runStep(session, rawStep) {
  if (!isObject(rawStep) || typeof rawStep.op !== 'string') throw new TypeError('a step is an object with an `op`');
  const step = rawStep;
  const plain = (key) => toPlain(step[key]);
  switch (step.op) {
    case 'set_draft':
      stepKeys(step, ['field', 'value']);
      session.setDraft(plain('field'), plain('value'));
      return {};
    case 'create':
      stepKeys(step, []);
      session.create();
      return {};
    case 'insert':
    case 'query': {
      stepKeys(step, ['value']);
      const value = plain('value');
      if (textOf(value) === undefined) throw new TypeError(`${step.op}: the value is a string or an array of code units`);
      if (step.op === 'insert') session.insert(value); else session.query(value);
      return {};
    }
    case 'insert_example':
      stepKeys(step, []);
      session.insertExample();
      return {};
    case 'reset':
      stepKeys(step, []);
      session.reset();
      return {};
    case 'set_panel':
      stepKeys(step, ['panel', 'open']);
      session.setPanel(plain('panel'), plain('open'));
      return {};
    case 'insert_many': {
      stepKeys(step, ['prefix', 'count']);
      const prefix = plain('prefix');
      if (typeof prefix !== 'string') throw new TypeError('insert_many: prefix is a string');
      const count = plainInt(step.count, 'insert_many: count');
      const saved = session.snapshotState();
      for (let i = 0; i < count; i++) {
        try {
          session.insert(prefix + String(i));
        } catch (e) {
          session.restoreState(saved);
          if (e instanceof SessionError) throw err(e.kind, `insert_many at ${i}: ${e.message}`);
          throw e;
        }
      }
      return {};
    }
    case 'roundtrip': {
      stepKeys(step, []);
      const fresh = Session.fromExport(session.exportText());
      session.restoreState(fresh.snapshotState());
      return {};
    }
    case 'import':
      stepKeys(step, ['document']);
      session.importText(writeJson(step.document));
      return {};
    case 'import_text': {
      stepKeys(step, ['text']);
      const t = plain('text');
      if (typeof t !== 'string') throw new TypeError('import_text: text is a string');
      session.importText(t);
      return {};
    }
    case 'import_padded': {
      stepKeys(step, ['bytes']);
      const bytes = plainInt(step.bytes, 'import_padded: bytes');
      const exported = session.exportText();
      const have = utf8Length(exported);
      if (have > bytes) throw new Error(`import_padded: the export is already ${have} bytes, more than ${bytes}`);
      session.importText(exported + ' '.repeat(bytes - have));
      return {};
    }
    case 'save_local': {
      stepKeys(step, ['units'], ['fill']);
      const units = plainInt(step.units, 'save_local: units');
      let fill;
      if (Object.prototype.hasOwnProperty.call(step, 'fill')) {
        fill = plain('fill');
        if (typeof fill !== 'string' || fill.length === 0) throw new TypeError('save_local: fill is a non-empty string');
      }
      const previous = session.exportText();
      const r = saveLocal(saveState(units, fill), previous);
      return { save: { outcome: r.outcome, stored_units: r.stored === null ? 0 : r.stored.length, warning: r.warning } };
    }
    case 'export':
      stepKeys(step, []);
      return { export: session.exportText() };
    default:
      throw new TypeError(`unknown step op ${JSON.stringify(step.op)}`);
  }
}

/**
 * The adapter's `session` answer: {initial, steps: [{view, error?, save?, export?}]}.
 * `script` is an array of steps, as lossless trees (json.mjs) or plain JSON values.
 * `badRequest(message)` makes the error thrown for a malformed step.
 */
export function runScript(script, badRequest = (m) => new TypeError(m)) {
  const session = new Session();
  const initial = session.view();
  const steps = [];
  script.forEach((rawStep, i) => {
    const step = rawStep instanceof JsonNumber || !isObject(rawStep) ? rawStep : lossless(rawStep);
    let answer;
    try {
      const r = runStep(session, step);
      answer = { view: session.view() };
      if (r.save) answer.save = r.save;
      if (r.export !== undefined) answer.export = r.export;
    } catch (e) {
      if (e instanceof SessionError) {
        answer = { view: session.view(), error: { kind: e.kind, message: e.message } };
      } else if (e instanceof TypeError) {
        throw badRequest(`script step ${i}: ${e.message}`);
      } else {
        throw e;
      }
    }
    steps.push(answer);
  });
  return { initial, steps };
}

/** Plain JSON values (from JSON.parse) -> a tree whose numbers are JsonNumber. */
function lossless(v) {
  if (typeof v === 'number') return new JsonNumber(JSON.stringify(v));
  if (Array.isArray(v)) return v.map(lossless);
  if (v instanceof JsonNumber) return v;
  if (v !== null && typeof v === 'object') {
    const o = Object.create(null);
    for (const k of Object.keys(v)) o[k] = lossless(v[k]);
    if (v[DUPLICATE_KEYS]) o[DUPLICATE_KEYS] = true;
    return o;
  }
  return v;
}
