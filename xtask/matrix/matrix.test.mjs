// The results matrix page (target/matrix/index.html) in Chromium, opened from the file:
// it renders the tables of matrix.json, every cell link is reached by Tab in order and
// takes focus, a cell link leads to its details, and a screenshot is kept.
//
// Run by `cargo xtask matrix` with MATRIX_DIR (the folder written), CHROMIUM (the
// browser) and PLAYWRIGHT_FROM (a folder whose node_modules holds playwright-core:
// crates/explorer/e2e). Every wait is for a state, never for a time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const need = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this test through \`cargo xtask matrix\``);
  return value;
};
const dir = need('MATRIX_DIR');
const require = createRequire(path.join(need('PLAYWRIGHT_FROM'), 'package.json'));
const { chromium } = require('playwright-core');

test('the matrix page renders, every cell is reachable by keyboard, a screenshot is kept', async () => {
  const matrix = JSON.parse(readFileSync(path.join(dir, 'matrix.json'), 'utf8'));
  const browser = await chromium.launch({
    executablePath: need('CHROMIUM'),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    // Offline: any request other than the file itself is a fault.
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) problems.push(`request to ${request.url()}`);
    });
    await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
    await page.getByRole('heading', { level: 1, name: 'bloomproof results matrix' }).waitFor();

    // The results table: a column header per implementation, a row header per check.
    const results = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'check', exact: true }) });
    const columns = await results.getByRole('columnheader').allTextContents();
    assert.deepEqual(columns, ['check', ...matrix.implementations.map((i) => i.name)]);
    const rows = await results.getByRole('rowheader').allTextContents();
    assert.deepEqual(rows, matrix.checks);
    // The spec version and the time of the run are shown.
    await page.getByText(matrix.spec_version.slice(0, 16), { exact: true }).waitFor();
    assert.equal(await page.locator('time').getAttribute('datetime'), matrix.ran_at);
    // A grid per protocol, rows = producers, columns = readers.
    for (const grid of matrix.cross) {
      const table = page.getByRole('table').filter({ has: page.locator('caption', { hasText: grid.protocol }) });
      assert.deepEqual(await table.getByRole('rowheader').allTextContents(), grid.producers);
    }

    // Every cell link, in document order.
    const cells = await page.locator('[data-cell]').evaluateAll((links) => links.map((a) => a.dataset.cell));
    const expected = matrix.checks.length * matrix.implementations.length
      + matrix.cross.reduce((n, grid) => n + grid.cells.length, 0);
    assert.equal(cells.length, expected);
    // Every cell's link text says what it is: its status, implementation and check.
    const first = page.locator('[data-cell]').first();
    assert.match(await first.innerText(), new RegExp(`${matrix.implementations[0].name} on ${matrix.checks[0]}`));

    // Tab from the top reaches every cell link, in order, each taking the focus.
    const focusable = await page.locator('a[href], [tabindex]:not([tabindex="-1"])').count();
    const reached = [];
    for (let press = 0; press < focusable && reached.length < cells.length; press++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.dataset?.cell ?? null);
      if (focused !== null) {
        assert.ok(await page.locator(`[data-cell="${focused}"]`).evaluate((a) => a === document.activeElement));
        reached.push(focused);
      }
    }
    assert.deepEqual(reached, cells);

    // Enter on the focused (last) cell follows its link to the cell's details.
    const last = cells[cells.length - 1];
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => location.hash === `#${id}`, last);
    const details = page.locator(`section#${last}`);
    await details.waitFor({ state: 'visible' });
    assert.match(await details.locator('h3').innerText(), /written by .* read by/);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(dir, 'screenshot.png') });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
