// Import (spec/fnv1a-utf16-v1/SESSION.md, section 10): the inputs that the three
// implementations once answered differently, each with the documented kind: a key twice
// (step 3, before the version is read), a byte-order mark and raw control characters,
// lone surrogate escapes (named by their kind: a lone \udc00 is a low, trailing surrogate),
// nesting past 127 levels and numbers beyond a double's range (step 2).
//
//   node --test implementations/js/test/

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './root.mjs';
import { readExport, SessionError } from 'bloomproof-js/session';
import { parseJson, JsonSyntaxError } from 'bloomproof-js/json';

const FIXTURE = readFileSync(join(ROOT, 'spec', 'fnv1a-utf16-v1', 'session-v1.json'), 'utf8');

/** The fixture's text with the single occurrence of `from` replaced. */
function fixture(from, to) {
  assert.equal(FIXTURE.split(from).length, 2, from);
  return FIXTURE.replace(from, to);
}

/** The error an import of `text` gives, or null when it is accepted. */
function errorOf(text) {
  try {
    readExport(text);
    return null;
  } catch (e) {
    if (e instanceof SessionError) return e;
    throw e;
  }
}
const kindOf = (text) => errorOf(text)?.kind ?? null;
const doc = (version, x) => `{"format": "bloomproof-session", "version": ${version}, "x": ${x}}`;

test('the fixture reads', () => {
  assert.equal(kindOf(FIXTURE), null);
});

test('a key twice, anywhere, is invalid before the version is read', () => {
  for (const [a, b] of [['1', '99'], ['99', '1'], ['1', '1']]) {
    const e = errorOf(fixture('"version": 1,', `"version": ${a}, "version": ${b},`));
    assert.equal(e.kind, 'invalid', `${a} then ${b}`);
    assert.equal(e.message, '$.version: this key appears twice in one object (every key is unique)');
  }
  assert.equal(kindOf(fixture('"version": 1,', '"versio\\u006e": 99, "version": 1,')), 'invalid');
  assert.match(errorOf(fixture('"query":"i"}', '"query":"i","query":"i"}')).message, /^\$\.drafts\.query: /);
  const item = '{"kind":"query","value":"a","outcome":"truly_present"}';
  assert.match(errorOf(fixture(item, item.slice(0, -1) + ',"outcome":"truly_present"}')).message, /^\$\.history\[1\]\.outcome: /);
  assert.match(errorOf(fixture('"before":true,', '"before":true,"before":true,')).message,
    /^\$\.last_operation\.positions\[0\]\.before: /);
  assert.equal(kindOf('{"format": "bloomproof-session", "version": 2, "x": [{"y": 1, "y": 1}]}'), 'invalid');
  // The empty key, which a truthiness test on the key would miss.
  assert.equal(kindOf('{"format": "bloomproof-session", "version": 99, "": 1, "": 1}'), 'invalid');
  // Step 2 first: a repeated key in a text that is not JSON is a syntax error.
  assert.equal(kindOf('{"format": "bloomproof-session", "version": 1, "version": 1,}'), 'syntax');
});

test('a byte-order mark and raw control characters are syntax errors', () => {
  assert.equal(kindOf('\ufeff' + FIXTURE), 'syntax');
  assert.equal(kindOf(FIXTURE + '\ufeff'), 'syntax');
  assert.equal(kindOf(fixture('"query":"i"}', '"query":"\ufeffi"}')), null);
  for (const raw of ['\x00', '\x01', '\x1f', '\t', '\n']) {
    assert.equal(kindOf(fixture('"insert":""', `"insert":"${raw}"`)), 'syntax', JSON.stringify(raw));
  }
  assert.equal(kindOf(fixture('"insert":""', '"insert":"\x7f\u2028"')), null);
});

test('a lone surrogate escape is named as a high (leading) or a low (trailing) one', () => {
  const low = errorOf(fixture('"query":"i"}', '"query":"\\udc00x"}'));
  assert.equal(low.kind, 'syntax');
  assert.match(low.message, /\\udc00 is a low \(trailing\) surrogate not preceded by a high \(leading\) one/);
  assert.doesNotMatch(low.message, /leading surrogate/);
  for (const escape of ['\\ud800x', '\\ud800\\u0041', '\\ud800']) {
    const high = errorOf(fixture('"query":"i"}', `"query":"${escape}"}`));
    assert.match(high.message, /\\ud800 is a high \(leading\) surrogate not followed by a low \(trailing\) one/, escape);
  }
  assert.match(errorOf(fixture('"query":"i"}', '"query":"\\ude00\\ud83d"}')).message, /\\ude00 is a low \(trailing\)/);
  assert.equal(kindOf(fixture('"query":"i"}', '"query":"\\ud83d\\ude00\\uD83D\\uDE00"}')), null);
  // A raw unpaired surrogate in the text is named the same way.
  assert.throws(() => parseJson('["\udc00"]'), (e) => e instanceof JsonSyntaxError && /U\+DC00 is a low \(trailing\)/.test(e.message));
});

test('at most 127 nested levels, and numbers a double can hold', () => {
  assert.equal(kindOf(doc(2, '['.repeat(126) + ']'.repeat(126))), 'unsupported_version');
  assert.equal(kindOf(doc(2, '['.repeat(127) + ']'.repeat(127))), 'syntax');
  assert.equal(kindOf('['.repeat(127) + ']'.repeat(127)), 'invalid');
  assert.equal(kindOf('['.repeat(128) + ']'.repeat(128)), 'syntax');
  for (const big of ['1e400', '-1e400', '1E+999', '9'.repeat(400), '-' + '9'.repeat(400) + '.5']) {
    assert.equal(kindOf(doc(2, big)), 'syntax', big);
  }
  for (const fine of ['1e-400', '1e308', '9'.repeat(300), '-0', '18446744073709551616']) {
    assert.equal(kindOf(doc(2, fine)), 'unsupported_version', fine);
  }
  assert.equal(kindOf(fixture('"version": 1,', '"version": 1e400,')), 'syntax');
  // The reader's defaults are unchanged for other callers.
  assert.doesNotThrow(() => parseJson('[1e400]'));
});
