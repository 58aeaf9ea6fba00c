// End-to-end test of `bloomproof explore` in a real browser: Debian's Chromium
// driven by Playwright (playwright-core, no downloaded browser).
//
// Run with `cargo xtask e2e`, or by hand after `cargo build -p bloomproof` and
// `npm ci` here: `node --test explorer.test.mjs`. Environment: BLOOMPROOF_BIN
// (default <target>/debug/bloomproof), CHROMIUM (default /usr/bin/chromium).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..', '..');
const targetDir = process.env.CARGO_TARGET_DIR
  ? path.resolve(root, process.env.CARGO_TARGET_DIR)
  : path.join(root, 'target');
const BIN = process.env.BLOOMPROOF_BIN || path.join(targetDir, 'debug', 'bloomproof');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SCREENSHOTS = path.join(here, 'screenshots');
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const WAIT = { timeout: 15000 };
const STORAGE_KEY = 'bloomproof-explorer-session';

let server;
let serverOutput = '';
let baseUrl;
let userDataDir;
let downloadsDir;
let context;
let page;

/** Starts `bloomproof explore --port 0` and resolves with the URL it prints. */
function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['explore', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    server = child;
    const timer = setTimeout(() => reject(new Error(`no URL printed within 30 s:\n${serverOutput}`)), 30000);
    const onData = (chunk) => {
      serverOutput += chunk.toString();
      const match = serverOutput.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      serverOutput += chunk.toString();
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${BIN}: ${error.message} (build it with cargo build -p bloomproof)`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${BIN} exited with ${code} before printing its URL:\n${serverOutput}`));
    });
  });
}

// Every check waits for the state it asserts (a condition polled in the page
// until it holds or WAIT passes), never for a moment: no fixed sleep, and no
// one-shot read right after an action. `idle()` alone is not enough after an
// action whose handler runs in a later task (a hash change, a resize).

/** Waits until the page has no operation queued or running (each saves
 * before it ends), no estimates in flight and no re-layout pending. */
async function idle() {
  await page.waitForFunction(() => document.documentElement.dataset.idle === 'true', null, WAIT);
}

async function text(selector) {
  return (await page.locator(selector).first().textContent()) ?? '';
}

/** Waits until `predicate(arg)` holds in the page; on timeout, fails with
 * `what` and what `describe()` reads then. */
async function until(what, predicate, arg, describe) {
  try {
    await page.waitForFunction(predicate, arg, WAIT);
  } catch (error) {
    assert.fail(`expected ${what}, got ${JSON.stringify(await describe())}`);
  }
}

/** Waits until the grid shows these bits, in order. */
async function waitBits(expected) {
  await until(
    `bits ${expected}`,
    (want) => [...document.querySelectorAll('#bitgrid .cell')].map((cell) => cell.dataset.bit).join('') === want,
    expected,
    bits,
  );
}

/** Waits until an input holds this value. */
async function waitValue(selector, expected) {
  await until(
    `${selector} = ${JSON.stringify(expected)}`,
    ([sel, want]) => document.querySelector(sel)?.value === want,
    [selector, expected],
    () => page.inputValue(selector),
  );
}

/** Waits until a <details> panel is open (or closed). */
async function waitOpen(selector, open) {
  await until(
    `${selector} ${open ? 'open' : 'closed'}`,
    ([sel, want]) => document.querySelector(sel)?.open === want,
    [selector, open],
    () => page.$eval(selector, (details) => details.open),
  );
}

/** Waits until this many elements match. */
async function waitCount(selector, count) {
  await until(
    `${count} of ${selector}`,
    ([sel, want]) => document.querySelectorAll(sel).length === want,
    [selector, count],
    async () => (await page.$$(selector)).length,
  );
}

/** Waits until the session saved in this browser has this panel open (or closed). */
async function waitSavedPanel(name, open) {
  await until(
    `the saved session with the ${name} panel ${open ? 'open' : 'closed'}`,
    ([key, panel, want]) => {
      try {
        return JSON.parse(localStorage.getItem(key))?.panels?.[panel] === want;
      } catch (error) {
        return false;
      }
    },
    [STORAGE_KEY, name, open],
    () => page.evaluate((key) => (localStorage.getItem(key) ?? '').match(/"panels":\s*\{[^}]*\}/)?.[0] ?? null, STORAGE_KEY),
  );
}

/** Waits until the page is idle and laid out (grid and plot) for this viewport width. */
async function waitLayout(width) {
  await until(
    `idle and laid out for ${width} px`,
    (w) => window.innerWidth === w
      && document.documentElement.dataset.layoutWidth === String(w)
      && document.documentElement.dataset.idle === 'true',
    width,
    () => page.evaluate(() => ({
      innerWidth: window.innerWidth,
      layoutWidth: document.documentElement.dataset.layoutWidth,
      idle: document.documentElement.dataset.idle,
    })),
  );
}

/** Waits until the element's text matches, failing with the text it had. */
async function waitText(selector, pattern) {
  try {
    await page.waitForFunction(
      ([sel, source, flags]) => new RegExp(source, flags).test(document.querySelector(sel)?.textContent ?? ''),
      [selector, pattern.source, pattern.flags],
      WAIT,
    );
  } catch (error) {
    assert.fail(`${selector}: expected ${pattern}, got ${JSON.stringify(await text(selector))}`);
  }
}

async function bits() {
  return page.$$eval('#bitgrid .cell', (cells) => cells.map((cell) => cell.dataset.bit).join(''));
}

async function typeInto(selector, value) {
  await page.focus(selector);
  await page.keyboard.press('Control+A');
  if (value === '') await page.keyboard.press('Backspace');
  else await page.keyboard.type(value);
}

async function submit(selector, value) {
  await typeInto(selector, value);
  await page.keyboard.press('Enter');
  await idle();
}

/** The a..h example on m=8, k=1, then the reset and the 1/2 example. */
async function createHalfRateState() {
  await typeInto('#m', '8');
  await typeInto('#k', '1');
  await page.keyboard.press('Enter');
  await idle();
  await submit('#insert', 'a');
  for (const query of ['i', 'a', 'b']) await submit('#query', query);
}

before(async () => {
  baseUrl = await startServer();
  userDataDir = await mkdtemp(path.join(tmpdir(), 'bloomproof-e2e-profile-'));
  downloadsDir = await mkdtemp(path.join(tmpdir(), 'bloomproof-e2e-downloads-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
    downloadsPath: downloadsDir,
  });
  page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // The 4xx answers the tests provoke are logged by the browser; anything else is a problem.
    if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.problems = problems;
  await page.goto(baseUrl);
  await idle();
});

after(async () => {
  if (context) await context.close();
  if (server && server.exitCode === null) server.kill('SIGTERM');
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  if (downloadsDir) await rm(downloadsDir, { recursive: true, force: true });
});

test('the page loads from the binary with no script error', async () => {
  assert.match(await page.title(), /Bloom filter explorer/);
  await waitText('#filter-status', /No active filter/);
  assert.deepEqual(page.problems, []);
});

test('m=8, k=1 and the a..h example set all 8 bits', async () => {
  // Keyboard only: type the fields, Enter creates.
  await typeInto('#m', '8');
  await page.keyboard.press('Tab');
  await until('focus on #k', () => document.activeElement?.id === 'k', null,
    () => page.evaluate(() => document.activeElement?.id));
  await typeInto('#k', '1');
  await page.keyboard.press('Enter');
  await idle();
  await waitText('#filter-status', /m = 8 bits, k = 1 hash position/);
  await waitBits('00000000');

  await page.click('#example');
  await idle();
  await waitBits('11111111');
  await waitText('#bits-set', /^8 \/ 8$/);
  await waitText('#n', /^8$/);
  // The last insertion ("h") marks its position with more than colour.
  await until(
    'only bit 7 marked',
    () => [...document.querySelectorAll('#bitgrid .cell.mark')].map((cell) => cell.dataset.position).join(',') === '7',
    null,
    () => page.$$eval('#bitgrid .cell.mark', (cells) => cells.map((cell) => cell.dataset.position)),
  );

  // Every new string is now a false positive.
  await submit('#query', 'z');
  await waitText('#last-outcome', /false positive/);
  await waitText('#rate', /^1\/1 = 1$/);
});

test('reset keeps the fields; insert a, query i, a, b: observed rate 1/2', async () => {
  await page.click('#reset');
  await idle();
  await waitBits('00000000');
  await waitValue('#m', '8');
  await waitValue('#k', '1');
  await waitText('#rate', /^undefined/);

  await submit('#insert', 'a');
  await waitBits('00001000');
  for (const query of ['i', 'a', 'b']) await submit('#query', query);
  await waitText('#rate', /^1\/2 = 0\.5$/);
  await waitText('#neg', /^2$/);
  await waitText('#fp', /^1$/);
  await waitCount('#history-list li', 4);
  const history = await page.$$eval('#history-list li', (items) => items.map((item) => item.textContent));
  assert.match(history[0], /query\s*"b"\s*→ definitely absent/);
  assert.match(history[1], /query\s*"a"\s*→ maybe present, and truly present/);
  assert.match(history[2], /query\s*"i"\s*→ maybe present, but never inserted: false positive/);
  assert.match(history[3], /insert\s*"a"/);
});

test('panels open by keyboard, and a reload keeps the session and the panels', async () => {
  await page.focus('#positions-panel summary');
  await page.keyboard.press('Enter');
  await waitOpen('#positions-panel', true);
  await waitText('#positions-body', /"b"/);
  await waitCount('#positions-body tbody tr', 1);
  // The reload must find the change saved: wait for that state, not for a moment.
  await waitSavedPanel('positions', true);
  await idle();

  await page.reload();
  await idle();
  await waitText('#save-status', /restored from this browser/);
  await waitText('#rate', /^1\/2 = 0\.5$/);
  await waitBits('00001000');
  await waitValue('#m', '8');
  await waitOpen('#positions-panel', true);
  await waitOpen('#model-panel', false);
  await waitCount('#history-list li', 4);
});

test('navigating inside the page keeps the session', async () => {
  await page.evaluate(() => {
    window.sameDocument = true;
  });
  await page.click('nav a[href="#history"]');
  await page.waitForURL(/#history$/, WAIT);
  await page.click('nav a[href="#details"]');
  await page.waitForURL(/#details$/, WAIT);
  assert.equal(await page.evaluate(() => window.sameDocument), true);
  await waitText('#rate', /^1\/2 = 0\.5$/);
  await page.click('nav a[href="#filter"]');
  await page.waitForURL(/#filter$/, WAIT);
  assert.equal(await page.evaluate(() => window.sameDocument), true);
  await waitBits('00001000');
});

test('export, a broken import leaves the filter, the export restores it', async () => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  const exportedPath = path.join(downloadsDir, download.suggestedFilename());
  await download.saveAs(exportedPath);
  const exported = await readFile(exportedPath, 'utf8');
  const parsed = JSON.parse(exported);
  assert.equal(parsed.format, 'bloomproof-session');
  assert.deepEqual(parsed.params, { m: 8, k: 1 });
  assert.deepEqual(parsed.entries, ['a']);

  const before = await bits();
  await page.setInputFiles('#import-file', {
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format": "bloomproof-session", "version": 1, broken'),
  });
  await idle();
  await waitText('#session-msg', /broken\.json failed: JSON syntax error at line 1.*The filter was left as it was/);
  assert.equal(await page.$eval('#session-msg', (node) => node.classList.contains('error')), true);
  await idle();
  assert.equal(await bits(), before);
  await waitText('#rate', /^1\/2 = 0\.5$/);

  // A file with a byte-order mark is a syntax error, as in SESSION.md.
  await page.setInputFiles('#import-file', {
    name: 'bom.json',
    mimeType: 'application/json',
    buffer: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(exported)]),
  });
  await waitText('#session-msg', /bom\.json failed: .*byte-order mark.*\[syntax\]. The filter was left as it was/);
  await idle();
  assert.equal(await bits(), before);

  // A file over 2 MiB is refused without being parsed.
  await page.setInputFiles('#import-file', {
    name: 'huge.json',
    mimeType: 'application/json',
    buffer: Buffer.alloc(3 * 1024 * 1024, 0x20),
  });
  await waitText('#session-msg', /huge\.json failed: .*(2097152|2 MiB).*The filter was left as it was/);
  await idle();
  assert.equal(await bits(), before);

  // Change the filter, then import the export: everything is back.
  await page.click('#reset');
  await idle();
  await waitBits('00000000');
  await page.setInputFiles('#import-file', exportedPath);
  await waitText('#session-msg', /^Imported /);
  await idle();
  await waitBits(before);
  await waitText('#rate', /^1\/2 = 0\.5$/);
  await waitCount('#history-list li', 4);
});

test('a shareable link restores m, k and the entries', async () => {
  await page.click('#share');
  await until(
    'a share link in #share-link',
    () => /^http:\/\/127\.0\.0\.1:\d+\/#share=[A-Za-z0-9_-]+$/.test(document.querySelector('#share-link').value),
    null,
    () => page.inputValue('#share-link'),
  );
  const link = await page.inputValue('#share-link');

  // Change the filter, then follow the link in the same page (a hash change,
  // handled in a later task: wait for its result, not for idle alone).
  await typeInto('#m', '16');
  await page.keyboard.press('Enter');
  await idle();
  await waitBits('0'.repeat(16));
  await page.goto(link);
  await waitText('#notice', /Restored from a shared link: m = 8, k = 1, 1 entry/);
  await idle();
  await waitText('#filter-status', /m = 8 bits, k = 1/);
  await waitBits('00001000');
  await waitText('#n', /^1$/);
  assert.doesNotMatch(page.url(), /#share=/);

  // A fresh load of the link does the same.
  await typeInto('#k', '2');
  await page.keyboard.press('Enter');
  await idle();
  await waitText('#filter-status', /m = 8 bits, k = 2/);
  await page.goto('about:blank');
  await page.goto(link);
  await waitText('#notice', /Restored from a shared link: m = 8, k = 1, 1 entry/);
  await idle();
  await waitText('#filter-status', /m = 8 bits, k = 1/);
  await waitBits('00001000');
});

test('past 100000 characters the previous copy stays and a warning shows', async () => {
  await createHalfRateState();
  await waitText('#rate', /^1\/2 = 0\.5$/);
  const stored = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
  assert.ok(stored && stored.includes('"m":8'));
  // A shared filter with 1024 entries of 100 characters: its session is over 100000.
  const entries = Array.from({ length: 1024 }, (_, i) => `${String(i).padStart(4, '0')}${'x'.repeat(96)}`);
  const json = JSON.stringify({ v: 1, m: 64, k: 1, entries });
  const fragment = `#share=${Buffer.from(json).toString('base64url')}`;
  await page.goto(`${baseUrl}${fragment}`);
  await waitText('#n', /^1024$/);
  await waitText('#storage-warning', /over the 100000 that are saved locally.*previous copy is kept/);
  await page.locator('#storage-warning').waitFor({ state: 'visible', ...WAIT });
  await idle();
  assert.equal(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY), stored);

  // Undo brings the saved session back, and the warning goes.
  await page.click('#notice button.undo');
  await idle();
  await waitText('#n', /^1$/);
  await waitText('#rate', /^1\/2 = 0\.5$/);
  await page.locator('#storage-warning').waitFor({ state: 'hidden', ...WAIT });
});

test('every control has a label and the keyboard reaches each one', async () => {
  const unnamed = await page.$$eval('input, button, summary, select, textarea', (nodes) => nodes
    .filter((node) => !(node.labels && node.labels.length) && !node.getAttribute('aria-label') && !node.textContent.trim())
    .map((node) => node.outerHTML));
  assert.deepEqual(unnamed, []);

  await page.goto(baseUrl);
  await idle();
  await waitText('#save-status', /restored from this browser/);
  const reached = new Set();
  for (let i = 0; i < 80; i += 1) {
    // Focus moves in the key's own event: the read after each press sees it.
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const node = document.activeElement;
      if (!node) return '';
      if (node.tagName === 'SUMMARY') return `${node.parentElement.id}:summary`;
      return node.id || node.getAttribute('href') || node.tagName;
    });
    reached.add(id);
  }
  for (const id of ['m', 'k', 'create', 'insert', 'insert-button', 'query', 'query-button', 'example', 'reset',
    'bitbox', 'positions-panel:summary', 'model-panel:summary', 'export', 'import-file', 'share', 'share-link',
    'restore-link', 'restore', '#bits']) {
    assert.ok(reached.has(id), `Tab never reached ${id}; reached ${[...reached].join(', ')}`);
  }
});

test('screenshots, narrow (360 px) and wide, with no horizontal scrolling', async () => {
  // A richer state for the pictures: m=64, k=3, the example and a few queries.
  await typeInto('#m', '64');
  await typeInto('#k', '3');
  await page.keyboard.press('Enter');
  await idle();
  await waitText('#filter-status', /m = 64 bits, k = 3/);
  await page.click('#example');
  await idle();
  await waitText('#n', /^8$/);
  for (const query of ['i', 'j', 'apple', 'a', 'kiwi', 'date']) await submit('#query', query);
  // "date" was never inserted but finds its 3 bits set.
  await waitText('#last-outcome', /false positive/);
  await waitText('#rate', /^1\/5 = 0\.2$/);
  for (const panel of ['#positions-panel', '#model-panel']) {
    if (!(await page.$eval(panel, (details) => details.open))) {
      await page.click(`${panel} summary`);
      await waitOpen(panel, true);
      await idle();
    }
  }
  await page.evaluate(() => window.scrollTo(0, 0));

  await page.setViewportSize({ width: 360, height: 800 });
  await waitLayout(360);
  const narrowWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(narrowWidth <= 360, `the page is ${narrowWidth} px wide at 360 px`);
  await waitText('#plot-caption', /m = 64, k = 3/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow.png'), fullPage: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await waitLayout(1280);
  const wideWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wideWidth <= 1280, `the page is ${wideWidth} px wide at 1280 px`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'wide.png') });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'wide-full.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
});
