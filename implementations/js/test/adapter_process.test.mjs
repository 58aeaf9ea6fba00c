// The adapter as the runner starts it: a separate `node adapter.mjs` process, one JSON
// request per line in, one response per line out, exiting when stdin closes.
//
//   node --test implementations/js/test/

import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ADAPTER = fileURLToPath(import.meta.resolve('bloomproof-js/adapter'));
const hexOf = (s) => Buffer.from(s).toString('hex');
const RECORDS = ['doc-00', 'doc-01', 'doc-02', 'doc-03'].map(hexOf);
const LAB = { m: 16, k: 3, seed_hex: hexOf('lab') };
const OTHER = { params: { m: 32, k: 2, seed_hex: hexOf('raw') }, records: ['', '00', 'c3a9'] };
const DM = 'doc-membership-v1';

function exchange(requests) {
  const input = requests.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
  const run = spawnSync(process.execPath, [ADAPTER], { input, encoding: 'utf8', timeout: 60000 });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
}

test('read, mutate and typed over stdin/stdout, blank lines skipped', () => {
  const attempts = ['assign_fields', 'mutate_returned_bits', 'mutate_returned_documents', 'mutate_returned_lookup',
    'mutate_records_after_build', 'mutate_seed_after_build', 'reconstruct', 'mutate_copy', 'bypass_guards'];
  const probes = [...RECORDS, hexOf('doc-04'), hexOf('doc-05')];
  const responses = exchange([
    { id: 1, protocol: DM, op: 'build', params: LAB, records: RECORDS },
    '',
    { id: 2, protocol: DM, op: 'read', params: LAB, packed_hex: 'd291', records: RECORDS, items: probes },
    { id: 3, protocol: DM, op: 'read', params: LAB, packed_hex: 'c291', records: RECORDS.slice(1), items: probes },
    ...attempts.map((attempt, i) => ({
      id: 10 + i, protocol: DM, op: 'mutate', params: LAB, records: RECORDS, other: OTHER, attempt, probes,
    })),
    { id: 20, protocol: DM, op: 'mutate', params: LAB, records: RECORDS, other: OTHER, attempt: 'nope', probes },
    { id: 21, protocol: DM, op: 'typed', records: { tuple: [] }, m: { int: 7 }, k: { bool: true }, seed: { bytes: '' } },
    { id: 22, protocol: DM, op: 'immutability_probe', params: LAB, records: RECORDS, probes },
  ]);
  assert.deepEqual(responses.map((r) => r.id), [1, 2, 3, ...attempts.map((_, i) => 10 + i), 20, 21, 22]);
  assert.deepEqual(responses[0].result, { packed_hex: 'd291', documents: 4 });
  const t = (a, b, c) => ({ maybe_present: a, exact_checked: b, duplicate: c });
  assert.deepEqual(responses[1].result.results, [t(true, true, true), t(true, true, true), t(true, true, true), t(true, true, true),
    t(true, true, false), t(false, false, false)]);
  assert.equal(responses[2].error.field, 'records[0]');
  for (const r of responses.slice(3, 3 + attempts.length)) {
    const { params, packed_hex: packed, documents, lookups } = r.result;
    assert.deepEqual({ params, packed, documents, lookups }, {
      params: LAB, packed: 'd291', documents: 4, lookups: responses[1].result.results,
    }, r.result.detail);
    assert.ok(['raised', 'done', 'impossible'].includes(r.result.outcome));
  }
  assert.equal(responses[3 + attempts.length].error.kind, 'bad_request');
  assert.deepEqual([responses[4 + attempts.length].error.kind, responses[4 + attempts.length].error.field], ['type', 'k']);
  assert.equal(responses[5 + attempts.length].error.kind, 'bad_request', 'immutability_probe is gone: mutate replaced it');
});
