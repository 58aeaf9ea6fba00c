// Input no request may hold (spec/ADAPTER.md): a line that is not UTF-8, a duplicate
// key, a script past the cap; each answered `bad_request`, and the next request served.
//
//   node --test implementations/js/test/

import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { handle, serveLines, firstDuplicateKey, SCRIPT_MAX } from 'bloomproof-js/adapter';

const ADAPTER = fileURLToPath(import.meta.resolve('bloomproof-js/adapter'));
const SHA = '{"id":7,"protocol":"doc-membership-v1","op":"sha256","data":"6162"}';
const DIGEST = 'fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603';
const session = (steps, id = 9) => JSON.stringify({ id, protocol: 'fnv1a-utf16-v1', op: 'session', script: steps });

test('a repeated key is refused, id null, naming the key, at any depth', () => {
  let r = handle('{"id":1,"protocol":"doc-membership-v1","op":"sha256","data":"61","data":"62"}');
  assert.deepEqual(r, { id: null, error: { kind: 'bad_request', message: 'duplicate key "data" in the request' } });
  r = handle('{"id":1,"id":2,"protocol":"doc-membership-v1","op":"sha256","data":"61"}');
  assert.equal(r.id, null);
  assert.match(r.error.message, /duplicate key "id"/);
  r = handle('{"id":4,"protocol":"fnv1a-utf16-v1","op":"session","script":[{"op":"import","document":{"version":1,"version":99}}]}');
  assert.equal(r.id, null);
  assert.equal(r.error.kind, 'bad_request');
  assert.match(r.error.message, /duplicate key "version"/);
  const key = 'k'.repeat(100000);
  r = handle(`{"${key}":1,"${key}":2}`);
  assert.ok(r.error.message.length < 200, r.error.message.length);
  assert.match(r.error.message, /\(100000 bytes\)/);
});

test('firstDuplicateKey tells keys from values, escapes and nesting apart', () => {
  assert.equal(firstDuplicateKey('{"a":"a","b":["a","a"],"c":{"a":1},"d":{"a":{"a":2}}}'), undefined);
  assert.equal(firstDuplicateKey('{"a\\"":1,"a\\u0022":2}'), 'a"');
  assert.equal(firstDuplicateKey('[{"x":1},{"x":1,"y":{},"x":2}]'), 'x');
  assert.equal(firstDuplicateKey('{"s":"}{\\"s\\":","s":1}'), 's');
  const ok = handle('{"id":5,"protocol":"doc-membership-v1","op":"mutate","params":{"m":16,"k":3,"seed_hex":""},"records":[],"other":{"params":{"m":16,"k":3,"seed_hex":""},"records":[]},"attempt":"reconstruct","probes":[]}');
  assert.ok(ok.result, JSON.stringify(ok));
});

test('a script past the cap is refused with its id; one at the cap runs', () => {
  const step = { op: 'set_panel', panel: 'model', open: true };
  assert.equal(SCRIPT_MAX, 1024);
  const r = handle(session(Array(SCRIPT_MAX + 1).fill(step)));
  assert.deepEqual(r, { id: 9, error: { kind: 'bad_request', message: '`script` has 1025 steps: a script has at most 1024 (split it)' } });
  assert.equal(handle(session(Array(SCRIPT_MAX).fill(step))).result.steps.length, SCRIPT_MAX);
});

test('lines are split from byte chunks, each decoded on its own', () => {
  const out = [];
  const lines = serveLines((text) => out.push(JSON.parse(text)));
  const bytes = Buffer.concat([
    Buffer.from('{"id":1,"protocol":"doc-membership-v1","op":"sha256","data":"\xff"}\n', 'latin1'),
    Buffer.from([0xc3, 0x28, 0x0d, 0x0a, 0x0a, 0xef, 0xbb, 0xbf]),
    Buffer.from(`${SHA}\n${SHA}`),
  ]);
  for (let i = 0; i < bytes.length; i += 5) lines.push(bytes.subarray(i, i + 5));
  lines.end();
  assert.equal(out.length, 4, JSON.stringify(out));
  for (const r of out.slice(0, 2)) {
    assert.deepEqual(r, { id: null, error: { kind: 'bad_request', message: 'the request line is not UTF-8' } });
  }
  assert.equal(out[2].id, null, 'a byte-order mark is kept: not JSON');
  assert.match(out[2].error.message, /^not JSON/);
  assert.deepEqual(out[3], { id: 7, result: { digest: DIGEST } });
});

test('over stdin/stdout: a bad byte does not end the adapter', () => {
  const input = Buffer.concat([Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(`${SHA}\n`)]);
  const run = spawnSync(process.execPath, [ADAPTER], { input, timeout: 60000 });
  assert.equal(run.status, 0, String(run.stderr));
  const out = String(run.stdout).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  assert.deepEqual(out.map((r) => r.id), [null, 7]);
  assert.equal(out[0].error.kind, 'bad_request');
});

test('the handshake: start is answered with the version, who answers and the protocols', () => {
  const r = handle('{"id":0,"op":"start","adapter_protocol":3}');
  assert.equal(r.id, 0);
  assert.equal(r.result.adapter_protocol, 3);
  assert.deepEqual(r.result.protocols, ['doc-membership-v1', 'fnv1a-utf16-v1']);
  assert.deepEqual(Object.keys(r.result.implementation).sort(), ['language', 'name', 'version']);
  assert.equal(r.result.implementation.name, 'bloomproof-js');
  // Its own version, whatever the runner speaks: the runner judges the difference.
  assert.equal(handle('{"id":"s","op":"start","adapter_protocol":2}').result.adapter_protocol, 3);
});

const nested = (depth, id = 1) => `{"id":${id},"protocol":"fnv1a-utf16-v1","op":"session","script":[{"op":"import","document":{"x":${'['.repeat(depth - 4)}${']'.repeat(depth - 4)}}}]}`;

test('a request of 127 levels is read; of 128 and more refused, id null', () => {
  assert.ok('result' in handle(nested(127)));
  for (const depth of [128, 129, 5000]) {
    const r = handle(nested(depth));
    assert.equal(r.id, null, String(depth));
    assert.equal(r.error.kind, 'bad_request', String(depth));
  }
});

test('error table rows: frame index, mutate probe, negative estimates input', () => {
  const doc = '"protocol":"doc-membership-v1","params":{"m":16,"k":3,"seed_hex":""}';
  for (const index of [3, -1, 256]) {
    const r = handle(`{"id":2,${doc},"op":"frame","index":${index},"item":""}`);
    assert.deepEqual([r.id, r.error.kind, r.error.field], [2, 'value', 'index'], String(index));
  }
  const probe = handle(`{"id":4,${doc},"op":"mutate","records":[],"other":{"params":{"m":16,"k":3,"seed_hex":""},"records":[]},"attempt":"assign_fields","probes":["${'00'.repeat(65)}"]}`);
  assert.deepEqual([probe.error.kind, probe.error.field], ['value', 'item']);
  const negative = handle('{"id":3,"protocol":"fnv1a-utf16-v1","op":"estimates","m":8,"k":-1,"n":-3}');
  assert.deepEqual([negative.error.kind, negative.error.field], ['value', 'k']);
  assert.ok('result' in handle('{"id":3,"protocol":"fnv1a-utf16-v1","op":"estimates","m":5000,"k":50,"n":5000}'));
});

test('an integer id past 2^53 - 1 is refused with id null, never answered rounded', () => {
  // 2^53 + 1 reads as 2^53 through JSON.parse, 2^64 as 18446744073709552000: either
  // answered would carry an id that was never sent (spec/ADAPTER.md, ADAPTER-ID).
  for (const id of ['9007199254740993', '18446744073709551616']) {
    const r = handle(`{"id":${id},"protocol":"doc-membership-v1","op":"sha256","data":""}`);
    assert.equal(r.id, null, id);
    assert.equal(r.error.kind, 'bad_request', id);
  }
  const safe = handle('{"id":9007199254740991,"protocol":"doc-membership-v1","op":"sha256","data":""}');
  assert.equal(safe.id, 9007199254740991);
  assert.ok(safe.result);
});

// Adapter protocol 3 (ADAPTER.md "Changes"): save_local's fill. By hand: 50000 emoji are
// 100000 code units (saved, though 200000 UTF-8 bytes); 50000 emoji and an "x" are 100001
// units (kept, though 50001 code points); 100000 "é" are 100000 units (saved); the handshake
// says 3; an empty or non-string fill is bad_request.
test('save_local builds its state of the fill and counts UTF-16 code units', () => {
  const start = handle('{"id":0,"op":"start","adapter_protocol":3}');
  assert.equal(start.result.adapter_protocol, 3);
  const r = handle(session([
    { op: 'save_local', units: 100000, fill: '\u{1F600}' },
    { op: 'save_local', units: 100001, fill: '\u{1F600}' },
    { op: 'save_local', units: 100000, fill: '\u00e9' },
    { op: 'save_local', units: 5, fill: 'ab' },
  ]));
  const saves = r.result.steps.map((s) => [s.save.outcome, s.save.stored_units]);
  const kept = r.result.steps[1].save.stored_units;
  assert.ok(kept > 0 && kept < 1000, String(kept));
  assert.deepEqual(saves, [['saved', 100000], ['kept', kept], ['saved', 100000], ['saved', 5]]);
  for (const fill of ['', 7, null]) {
    const bad = handle(session([{ op: 'save_local', units: 1, fill }]));
    assert.equal(bad.error.kind, 'bad_request', JSON.stringify(bad));
  }
});
