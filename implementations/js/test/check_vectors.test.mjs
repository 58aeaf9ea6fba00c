// check_vectors.mjs on the snapshot lookups' shape: the committed snapshots file
// passes; a changed triple under a lookup's `expect` is a failure naming the lookup; a
// lookup in format 3's shape (the three booleans beside `item_hex`) is malformed.
//
//   node --test implementations/js/test/

import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './root.mjs';

const SCRIPT = fileURLToPath(import.meta.resolve('bloomproof-js/check-vectors'));
const SNAPSHOTS = join(ROOT, 'vectors', 'doc-membership-v1', 'snapshots.json');

/** Runs the checker on a folder holding only the committed snapshots file after `change(data)`. */
function check(change) {
  const data = JSON.parse(readFileSync(SNAPSHOTS, 'utf8'));
  change(data);
  const root = mkdtempSync(join(tmpdir(), 'bloomproof-vectors-'));
  try {
    mkdirSync(join(root, 'doc-membership-v1'));
    writeFileSync(join(root, 'doc-membership-v1', 'snapshots.json'), JSON.stringify(data));
    return spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8', timeout: 120000 });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the committed snapshots file passes', () => {
  const run = check(() => {});
  assert.equal(run.status, 0, run.stdout);
  assert.match(run.stdout, / 0 failed\n$/);
});

test('a changed triple under expect fails, naming the lookup', () => {
  const run = check((data) => {
    const lookup = data.cases[0].lookups[4];
    assert.equal(lookup.item_hex, '646f632d3034');
    lookup.expect.duplicate = !lookup.expect.duplicate;
  });
  assert.equal(run.status, 1);
  assert.match(run.stdout, /lookups\[4\] \(item 646f632d3034\): expected \{"maybe_present":true,"exact_checked":true,"duplicate":true\}/);
  assert.match(run.stdout, / 1 failed\n$/);
});

test("format 3's lookup shape is malformed", () => {
  const run = check((data) => {
    for (const c of data.cases) {
      for (const l of c.lookups) {
        Object.assign(l, l.expect);
        delete l.expect;
      }
    }
  });
  assert.equal(run.status, 1);
  assert.match(run.stdout, /lookups\[0\]: unknown key `maybe_present`/);
});

test('a missing boolean in expect is malformed', () => {
  const run = check((data) => { delete data.cases[0].lookups[0].expect.exact_checked; });
  assert.equal(run.status, 1);
  assert.match(run.stdout, /lookups\[0\]\.expect: missing key `exact_checked`/);
});
