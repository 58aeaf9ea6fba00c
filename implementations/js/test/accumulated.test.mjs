// check_accumulated.mjs reproduces the published checkpoint of each protocol, and
// reports a changed digest as a difference with exit code 1.
//
//   node --test implementations/js/test/

import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './root.mjs';

const SCRIPT = fileURLToPath(import.meta.resolve('bloomproof-js/check-accumulated'));
const PUBLISHED = join(ROOT, 'spec', 'accumulated.json');

function run(...args) {
  return spawnSync(process.execPath, [SCRIPT, '--quick', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120000 });
}

test('the checkpoints match the published digests', () => {
  const result = run();
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /2 passed, 0 failed/);
});

// The checker on the published file after `change(published, entryOf)`.
function runChanged(change) {
  const published = JSON.parse(readFileSync(PUBLISHED, 'utf8'));
  const entryOf = (name) => published.protocols.find((entry) => entry.protocol === name);
  change(published, entryOf);
  const dir = mkdtempSync(join(tmpdir(), 'accumulated-'));
  try {
    const path = join(dir, 'accumulated.json');
    writeFileSync(path, JSON.stringify(published));
    return run(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a changed digest differs', () => {
  const result = runChanged((_, entryOf) => {
    entryOf('doc-membership-v1').checkpoint.digest = '00'.repeat(32);
  });
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /DIFFERS/);
  assert.match(result.stdout, /1 passed, 1 failed/);
});

test('an unknown generator differs', () => {
  const result = runChanged((_, entryOf) => {
    entryOf('fnv1a-utf16-v1').generator = 'another-generator';
  });
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /fnv1a-utf16-v1: unknown generator "another-generator": DIFFERS/);
});

test('a protocol the package does not implement is skipped', () => {
  const result = runChanged((published, entryOf) => {
    const v1 = entryOf('doc-membership-v1');
    published.protocols = [v1, { ...v1, protocol: 'doc-membership-v9' }];
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /accumulated\.doc-membership-v9: a protocol this package does not implement: skipped/);
  assert.match(result.stdout, /1 passed, 0 failed, 1 skipped/);
});
