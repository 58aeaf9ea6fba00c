// A small strict, lossless JSON reader and writer (RFC 8259), for the session import
// (spec/fnv1a-utf16-v1/SESSION.md, section 10) and for reading adapter requests without
// losing what JSON.parse loses: whether a number was written as an integer (`1` versus
// `1.0`, `1e0`, `-0`), integers beyond 2^53, and duplicate keys.
//
// parseJson(text, options) returns a tree:
//   object -> a null-prototype object; [DUPLICATE_KEYS] is true when a key repeated
//   array  -> Array
//   string -> string
//   number -> JsonNumber (its exact text; .isUnsignedInteger, .bigint, .number)
//   true / false / null
// Options: loneSurrogates (default false: a \uXXXX escape of an unpaired surrogate, or a
// raw unpaired surrogate in the text, is a syntax error), lastKeyWins (default false:
// duplicates are flagged; true: the last one wins, as JSON.parse does), maxDepth (128:
// the most arrays and objects nested in one another), finiteNumbers (default false; true:
// a number a double cannot hold, one that rounds to Infinity such as 1e400, is a syntax
// error, as in serde_json).
// Errors are JsonSyntaxError with a line and column.

export const DUPLICATE_KEYS = Symbol('duplicate keys');
/** On an object whose DUPLICATE_KEYS is true: the first key that appeared twice. */
export const FIRST_DUPLICATE_KEY = Symbol('first duplicate key');

export class JsonSyntaxError extends Error {}

export class JsonNumber {
  constructor(text) { this.text = text; Object.freeze(this); }
  /** Written without sign, fraction or exponent. */
  get isUnsignedInteger() { return /^(?:0|[1-9][0-9]*)$/.test(this.text); }
  /** The exact value when isUnsignedInteger (a bigint), else undefined. */
  get bigint() { return this.isUnsignedInteger ? BigInt(this.text) : undefined; }
  get number() { return Number(this.text); }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const isHigh = (c) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c) => c >= 0xdc00 && c <= 0xdfff;

/** What a lone surrogate is, for messages (SESSION.md section 10, step 2). */
export function loneSurrogateMessage(unit, escaped = true) {
  const what = isHigh(unit)
    ? 'a high (leading) surrogate not followed by a low (trailing) one'
    : 'a low (trailing) surrogate not preceded by a high (leading) one';
  const hex = unit.toString(16).padStart(4, '0');
  return escaped
    ? `lone surrogate in a \\u escape: \\u${hex} is ${what}; write a string with an unpaired surrogate as an array of code units`
    : `unpaired surrogate in the text: U+${hex.toUpperCase()} is ${what}`;
}

export function parseJson(text, { loneSurrogates = false, lastKeyWins = false, maxDepth = 128, finiteNumbers = false } = {}) {
  let i = 0;
  const n = text.length;

  const fail = (what, at = i) => {
    let line = 1;
    let col = 1;
    for (let j = 0; j < at && j < n; j++) {
      if (text.charCodeAt(j) === 10) { line++; col = 1; } else col++;
    }
    throw new JsonSyntaxError(`JSON syntax error at line ${line}, column ${col}: ${what}`);
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++; else break;
    }
  };
  const hex4 = () => {
    const h = text.slice(i, i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('invalid \\u escape');
    i += 4;
    return parseInt(h, 16);
  };

  function string() {
    i++; // opening quote
    let out = '';
    let run = i;
    for (;;) {
      if (i >= n) fail('EOF while parsing a string');
      const c = text.charCodeAt(i);
      if (c === 0x22) { out += text.slice(run, i); i++; return out; }
      if (c < 0x20) fail('control character in a string');
      if (c === 0x5c) {
        out += text.slice(run, i);
        i++;
        const e = text[i++];
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            const u = hex4();
            if (isHigh(u) && text.startsWith('\\u', i)) {
              const save = i;
              i += 2;
              const v = hex4();
              if (isLow(v)) { out += String.fromCharCode(u, v); break; }
              i = save;
            }
            if ((isHigh(u) || isLow(u)) && !loneSurrogates) fail(loneSurrogateMessage(u), i - 6);
            out += String.fromCharCode(u);
            break;
          }
          default: fail('invalid escape', i - 1);
        }
        run = i;
        continue;
      }
      if (!loneSurrogates && (isHigh(c) || isLow(c))) {
        if (isHigh(c) && i + 1 < n && isLow(text.charCodeAt(i + 1))) { i += 2; continue; }
        fail(loneSurrogateMessage(c, false));
      }
      i++;
    }
  }

  function value(depth) {
    ws();
    if (i >= n) fail('EOF while parsing a value');
    const c = text[i];
    if (c === '{') {
      if (depth >= maxDepth) fail('recursion limit exceeded');
      i++;
      const obj = Object.create(null);
      ws();
      if (text[i] === '}') { i++; return obj; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i >= n ? 'EOF while parsing an object' : 'key must be a string');
        const key = string();
        ws();
        if (text[i] !== ':') fail(i >= n ? 'EOF while parsing an object' : 'expected `:`');
        i++;
        const v = value(depth + 1);
        if (Object.prototype.hasOwnProperty.call(obj, key)) {
          if (lastKeyWins) obj[key] = v;
          else if (!obj[DUPLICATE_KEYS]) { obj[DUPLICATE_KEYS] = true; obj[FIRST_DUPLICATE_KEY] = key; }
        } else {
          obj[key] = v;
        }
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return obj; }
        fail(i >= n ? 'EOF while parsing an object' : 'expected `,` or `}`');
      }
    }
    if (c === '[') {
      if (depth >= maxDepth) fail('recursion limit exceeded');
      i++;
      const arr = [];
      ws();
      if (text[i] === ']') { i++; return arr; }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return arr; }
        fail(i >= n ? 'EOF while parsing a list' : 'expected `,` or `]`');
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      if (finiteNumbers && !Number.isFinite(Number(m[0]))) fail('number out of range (too large for a double)');
      i += m[0].length;
      return new JsonNumber(m[0]);
    }
    fail('expected value');
  }

  const v = value(0);
  ws();
  if (i < n) fail('trailing characters');
  return v;
}

/** Writes a tree compactly; numbers keep their text, strings as JSON.stringify. */
export function writeJson(v) {
  if (v instanceof JsonNumber) return v.text;
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return '[' + v.map(writeJson).join(',') + ']';
  if (v !== null && typeof v === 'object') {
    return '{' + Object.keys(v).map((k) => JSON.stringify(k) + ':' + writeJson(v[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}

/** A tree as plain JavaScript values (JsonNumber -> number, or what `number` makes of it). */
export function toPlain(v, number = (n) => n.number) {
  if (v instanceof JsonNumber) return number(v);
  if (Array.isArray(v)) return v.map((item) => toPlain(item, number));
  if (v !== null && typeof v === 'object') {
    const o = {};
    for (const k of Object.keys(v)) {
      Object.defineProperty(o, k, { value: toPlain(v[k], number), enumerable: true, writable: true, configurable: true });
    }
    return o;
  }
  return v;
}
