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

test('a changed digest differs', () => {
  const published = JSON.parse(readFileSync(PUBLISHED, 'utf8'));
  published.protocols[0].checkpoint.digest = '00'.repeat(32);
  const dir = mkdtempSync(join(tmpdir(), 'accumulated-'));
  try {
    const path = join(dir, 'accumulated.json');
    writeFileSync(path, JSON.stringify(published));
    const result = run(path);
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /DIFFERS/);
    assert.match(result.stdout, /1 passed, 1 failed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
