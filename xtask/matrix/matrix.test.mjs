// The results matrix page (index.html and failures.html of `bloomproof matrix`) in
// Chromium, opened from the file, on two matrices: the repository's (MATRIX_DIR) and one
// with a planted failure (MATRIX_FAILING_DIR: the Rust implementation beside a lying
// adapter). It renders the tables of matrix.json, the summary comes first, every cell
// link is reached by Tab in order and leads to its (collapsed) details, the failures
// page lists exactly the cells that did not pass and works without script, and at 375
// px only the tables scroll sideways, never the page, in light and in dark.
//
// Run by `cargo xtask matrix` with MATRIX_DIR, MATRIX_FAILING_DIR, CHROMIUM (the
// browser) and PLAYWRIGHT_FROM (a folder whose node_modules holds playwright-core:
// crates/explorer/e2e). Every wait is for a state, never for a time.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertAxeClean as axeClean } from '../../crates/explorer/e2e/axe.mjs';

const need = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this test through \`cargo xtask matrix\``);
  return value;
};
const dirs = { passing: need('MATRIX_DIR'), failing: need('MATRIX_FAILING_DIR') };
const require = createRequire(path.join(need('PLAYWRIGHT_FROM'), 'package.json'));
const { chromium } = require('playwright-core');

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core finds no violation in the page as it is now. */
const assertAxeClean = (page, state) => axeClean(page, state, AXE_SOURCE);

const read = (dir) => JSON.parse(readFileSync(path.join(dir, 'matrix.json'), 'utf8'));
const url = (dir, file) => pathToFileURL(path.join(dir, file)).href;

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: need('CHROMIUM'),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});
after(async () => {
  await browser?.close();
});

// A page that records every script error, console error and request off the file.
async function open({ width, scheme = 'light', javaScript = true }) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, javaScriptEnabled: javaScript });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) problems.push(`request to ${request.url()}`);
  });
  return { page, problems, close: () => context.close() };
}

const notPassed = (matrix) => matrix.implementations.flatMap((i, column) => i.cells
  .filter((c) => c.status !== 'passed')
  .map((c) => `r-${column}-${matrix.checks.findIndex((k) => k.name === c.check)}`));

test('the matrix page renders, every cell is reachable by keyboard and leads to its details', async () => {
  const dir = dirs.passing;
  const matrix = read(dir);
  const { page, problems, close } = await open({ width: 1280 });
  await page.goto(url(dir, 'index.html'));
  await page.getByRole('heading', { level: 1, name: 'bloomproof results matrix' }).waitFor();

  // The summary comes first: one row per implementation, a column per protocol.
  const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
  assert.equal(headings[0], 'Summary');
  const summary = page.locator('table.summary');
  assert.deepEqual(await summary.getByRole('rowheader').allTextContents(), matrix.implementations.map((i) => i.name));
  // The results table: a column header per implementation, a row per check showing
  // its name, what it asserts and its source.
  const results = page.locator('table.checks');
  const columns = await results.getByRole('columnheader').allTextContents();
  assert.deepEqual(columns, ['check', ...matrix.implementations.map((i) => i.name)]);
  assert.deepEqual(await results.locator('th[scope=row] .name').allTextContents(), matrix.checks.map((c) => c.name));
  assert.deepEqual(await results.locator('th[scope=row] .asserts').allTextContents(), matrix.checks.map((c) => c.asserts));
  assert.equal(await results.locator('th[scope=row] .source').first().innerText(), `Source: ${matrix.checks[0].source}`);
  await page.getByText(matrix.spec_version.slice(0, 16), { exact: true }).waitFor();
  assert.equal(await page.locator('time').getAttribute('datetime'), matrix.ran_at);
  for (const grid of matrix.cross) {
    const table = page.getByRole('table').filter({ has: page.locator('caption', { hasText: grid.protocol }) });
    assert.deepEqual(await table.getByRole('rowheader').allTextContents(), grid.producers);
  }

  // Every cell link, in document order.
  const cells = await page.locator('[data-cell]').evaluateAll((links) => links.map((a) => a.dataset.cell));
  const expected = matrix.checks.length * matrix.implementations.length
    + matrix.cross.reduce((n, grid) => n + grid.cells.length, 0);
  assert.equal(cells.length, expected);
  const first = page.locator('[data-cell]').first();
  assert.match(await first.innerText(), new RegExp(`${matrix.implementations[0].name} on ${matrix.checks[0].name}`));

  // Tab from the top reaches every cell link, in order, each taking the focus.
  const focusable = await page.locator('a[href], [tabindex]:not([tabindex="-1"]), summary').count();
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

  // Enter on the focused (last) cell follows its link to the cell's details, which
  // open although they are collapsed.
  const last = cells[cells.length - 1];
  await page.keyboard.press('Enter');
  await page.waitForFunction((id) => location.hash === `#${id}`, last);
  const details = page.locator(`section#${last}`);
  await details.waitFor({ state: 'visible' });
  assert.match(await details.locator('h3').innerText(), /written by .* read by/);
  // So does a result cell's link, clicked.
  await page.locator('[data-cell="r-0-0"]').click();
  await page.locator('section#r-0-0').waitFor({ state: 'visible' });

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, 'screenshot.png') });
  assert.deepEqual(problems, []);
  await close();
});

for (const scheme of ['light', 'dark']) {
  test(`at 375 px (${scheme}) only the tables scroll sideways, and a result cell is in view`, async () => {
    for (const dir of [dirs.passing, dirs.failing]) {
      const { page, problems, close } = await open({ width: 375, scheme });
      for (const file of ['index.html', 'failures.html']) {
        await page.goto(url(dir, file));
        await page.getByRole('heading', { level: 1 }).waitFor();
        const widths = await page.evaluate(() => ({ page: document.scrollingElement.scrollWidth, view: innerWidth }));
        assert.ok(widths.page <= widths.view, `${file} of ${dir}: the page is ${widths.page} px wide at ${widths.view}`);
      }
      await page.goto(url(dir, 'index.html'));
      const cell = page.locator('[data-cell="r-0-0"]');
      await cell.scrollIntoViewIfNeeded();
      const box = await cell.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 375, `the first result cell is out of view: ${JSON.stringify(box)}`);
      // The scheme is followed: the page background differs from the text colour and
      // matches the scheme asked for.
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const dark = background !== 'rgb(255, 255, 255)';
      assert.equal(dark, scheme === 'dark', `background ${background} in ${scheme}`);
      if (dir === dirs.failing) await page.screenshot({ path: path.join(dir, `screenshot-375-${scheme}.png`), fullPage: false });
      assert.deepEqual(problems, []);
      await close();
    }
  });
}

test('the failures page lists exactly what did not pass, and works without script', async () => {
  for (const dir of [dirs.passing, dirs.failing]) {
    const matrix = read(dir);
    const { page, problems, close } = await open({ width: 1280, javaScript: false });
    await page.goto(url(dir, 'failures.html'));
    await page.getByRole('heading', { level: 1, name: 'bloomproof results matrix: failures only' }).waitFor();
    const wanted = notPassed(matrix);
    const shown = await page.locator('table.checks [data-cell]').evaluateAll((links) => links
      .filter((a) => !a.closest('td').classList.contains('passed'))
      .map((a) => a.dataset.cell));
    assert.deepEqual(shown, wanted, dir);
    // Each failing cell's details are open, reached without script.
    for (const id of wanted) {
      await page.locator(`section#${id}`).waitFor({ state: 'visible' });
    }
    const differing = matrix.cross.flatMap((grid) => grid.cells.filter((c) => !c.passed)).length;
    assert.equal(await page.locator('td.differs [data-cell]').count(), differing);
    if (wanted.length === 0 && differing === 0) {
      await page.getByText('Every check passed for every implementation.').waitFor();
    }
    // The index page links here with the count.
    await page.goto(url(dir, 'index.html'));
    const count = wanted.length + differing;
    await page.getByRole('link', { name: `Failures only (${count} ${count === 1 ? 'result' : 'results'} not passed)` }).waitFor();
    assert.deepEqual(problems, []);
    await close();
  }
  // The planted failure is there to be seen.
  assert.ok(notPassed(read(dirs.failing)).length > 0, 'the failing matrix has no failure');
});

test('at 375 px the failures page stays a few screens per failing check, captions and values in view, axe clean', async () => {
  for (const dir of [dirs.passing, dirs.failing]) {
    const matrix = read(dir);
    const failing = new Set(notPassed(matrix)).size + matrix.cross.flatMap((g) => g.cells.filter((c) => !c.passed)).length;
    for (const scheme of ['light', 'dark']) {
      const { page, problems, close } = await open({ width: 375, scheme });
      for (const file of ['index.html', 'failures.html']) {
        await page.goto(url(dir, file));
        await page.getByRole('heading', { level: 1 }).waitFor();
        // Every caption (what a table shows) ends inside the screen.
        const captions = await page.locator('caption').evaluateAll((all) => all.map((c) => {
          const box = c.getBoundingClientRect();
          return { text: c.textContent.slice(0, 40), right: box.right };
        }));
        for (const caption of captions) {
          assert.ok(caption.right <= 375 + 1, `${file}: the caption "${caption.text}" ends at ${caption.right} px`);
        }
        await assertAxeClean(page, `${file} of ${path.basename(dir)}, ${scheme}`);
      }
      // failures.html: the height budget, three screens (900 px) a failing result and
      // two for the summary; the first failure's expected and actual value in view.
      await page.goto(url(dir, 'failures.html'));
      const height = await page.evaluate(() => document.scrollingElement.scrollHeight);
      const budget = (2 + 3 * failing) * 900;
      assert.ok(height <= budget, `failures.html of ${dir} is ${height} px tall at 375 px, over ${budget} (${failing} results not passed)`);
      const first = page.locator('.failure').first();
      if (await first.count()) {
        await first.scrollIntoViewIfNeeded();
        for (const name of ['expected', 'actual']) {
          const value = first.locator('dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');
          const box = await value.boundingBox();
          assert.ok(box && box.x >= 0 && box.x + box.width <= 375 + 1, `the first failure's ${name} is out of view: ${JSON.stringify(box)}`);
        }
      }
      assert.deepEqual(problems, []);
      await close();
    }
  }
  assert.ok(existsSync(path.join(dirs.failing, 'failures.html')));
});
