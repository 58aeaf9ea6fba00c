// End-to-end test of the explorer page in a real browser: Debian's Chromium driven
// by Playwright (playwright-core, no downloaded browser), with axe-core.
//
// Run with `cargo xtask e2e`, or by hand after `cargo build -p bloomproof` and
// `npm ci` here: `node --test explorer.test.mjs`. Environment: BLOOMPROOF_BIN
// (default <target>/debug/bloomproof), BLOOMPROOF_TARGET (default <repo>/target),
// CHROMIUM (default /usr/bin/chromium).
//
// The page runs its session model itself, so the suite runs twice: against the
// page served by `bloomproof explore`, and against the exported folder served by
// `python3 -m http.server`. In both, the server is stopped as soon as the page has
// loaded; it is started again (on the same port) only to load the page anew.
// Then, once: the 16 ms measurement at m=1024, k=12, 1000 entries, axe-core in
// the page's main states (light and dark), the screenshots (under
// <target>/e2e/screenshots, never the work tree), the session file for
// cross-reading, and the single-file page opened from a file:// URL. Last, the
// page as a person meets it (the result in view, characters named, plain words,
// the plot's views, the layout) and the page losing no work (a stale Undo, two
// tabs, an unreadable saved copy), at 375, 1280 and 1920 px, light and dark.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { assertAxeClean as axeClean } from './axe.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..', '..');
const targetDir = process.env.BLOOMPROOF_TARGET
  ? path.resolve(root, process.env.BLOOMPROOF_TARGET)
  : process.env.CARGO_TARGET_DIR ? path.resolve(root, process.env.CARGO_TARGET_DIR) : path.join(root, 'target');
const BIN = process.env.BLOOMPROOF_BIN || path.join(targetDir, 'debug', 'bloomproof');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// Written under target/, never into the work tree: README's copies are refreshed on
// purpose (see README.md, "The explorer").
const SCREENSHOTS = path.join(targetDir, 'e2e', 'screenshots');
const OUT = path.join(targetDir, 'e2e');
const SITE = path.join(OUT, 'site');
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const WAIT = { timeout: 15000 };
const STORAGE_KEY = 'bloomproof-explorer-session';
const AXE_SOURCE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

let browser;

before(async () => {
  await mkdir(OUT, { recursive: true });
  await mkdir(SCREENSHOTS, { recursive: true });
  execFileSync(BIN, ['explore', '--export', SITE, '--force'], { stdio: 'pipe' });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
});

after(async () => {
  if (browser) await browser.close();
});

// ------------------------------------------------------------ servers

/** A server that can be stopped and started again on the same port. */
class Server {
  constructor(name, command) {
    this.name = name;
    this.command = command;
    this.port = 0;
    this.child = null;
    this.url = null;
  }

  async up() {
    if (this.child) return;
    const [program, args] = this.command(this.port);
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let output = '';
    this.url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no address printed within 30 s:\n${output}`)), 30000);
      const onData = (chunk) => {
        output += chunk.toString();
        const match = output.match(/http:\/\/127\.0\.0\.1:(\d+)\//) || output.match(/127\.0\.0\.1 port (\d+)/);
        if (match) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${match[1]}/`);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot start ${program}: ${error.message}`));
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${program} exited with ${code} before it listened:\n${output}`));
      });
    });
    this.port = Number(new URL(this.url).port);
    // The server answers before the page is asked for (python prints first, then serves).
    for (let i = 0; i < 100; i += 1) {
      try {
        if ((await fetch(this.url)).ok) return;
      } catch (error) {
        // not yet
      }
      await new Promise((resolve) => { setTimeout(resolve, 50); });
    }
    throw new Error(`${this.name} printed ${this.url} but does not answer`);
  }

  async down() {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode === null) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
    await assert.rejects(fetch(this.url), `${this.name} still answers after it was stopped`);
  }
}

const SERVERS = {
  explore: () => new Server('bloomproof explore', (port) => [BIN, ['explore', '--port', String(port)]]),
  static: () => new Server('python3 -m http.server', (port) => ['python3', ['-u', '-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', SITE]]),
};

// ------------------------------------------------------------ a page and its helpers

/** A browser context, one page, its server, and what went wrong in it. */
class Harness {
  constructor(server) {
    this.server = server;
    this.problems = [];
    this.requests = [];
  }

  async open(options = {}) {
    this.userDataDir = await mkdtemp(path.join(tmpdir(), 'bloomproof-e2e-'));
    this.downloads = await mkdtemp(path.join(tmpdir(), 'bloomproof-e2e-downloads-'));
    this.context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options });
    this.page = await this.context.newPage();
    this.page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
    this.page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') this.problems.push(`console ${message.type()}: ${message.text()}`);
    });
    this.page.on('request', (request) => this.requests.push(`${request.method()} ${request.url()}`));
  }

  /** Starts the server, loads `url` (default: its root), waits for the page, stops the server. */
  async load(url) {
    if (this.server) await this.server.up();
    await this.page.goto(url ?? this.server.url);
    await this.idle();
    if (this.server) await this.server.down();
  }

  async reload() {
    if (this.server) await this.server.up();
    await this.page.reload();
    await this.idle();
    if (this.server) await this.server.down();
  }

  async close() {
    if (this.context) await this.context.close();
    if (this.server) await this.server.down();
    for (const dir of [this.userDataDir, this.downloads]) if (dir) await rm(dir, { recursive: true, force: true });
  }

  async idle() {
    await this.page.waitForFunction(() => document.documentElement.dataset.idle === 'true', null, WAIT);
  }

  /** Waits until `predicate(arg)` holds in the page; on timeout fails with `what` and `describe()`. */
  async until(what, predicate, arg, describe) {
    try {
      await this.page.waitForFunction(predicate, arg, WAIT);
    } catch (error) {
      assert.fail(`expected ${what}, got ${JSON.stringify(describe ? await describe() : null)}`);
    }
  }

  async text(selector) {
    return (await this.page.locator(selector).first().textContent()) ?? '';
  }

  async waitText(selector, pattern) {
    await this.until(`${selector} to match ${pattern}`,
      ([sel, source, flags]) => new RegExp(source, flags).test(document.querySelector(sel)?.textContent ?? ''),
      [selector, pattern.source, pattern.flags], () => this.text(selector));
  }

  /** The grid as the canvas shows it (see `readGrid`). */
  async grid() {
    return this.page.evaluate(readGrid);
  }

  async bits() {
    return (await this.grid())?.bits ?? '';
  }

  async waitBits(expected) {
    await this.until(`bits ${expected}`, readGrid, { bits: expected }, () => this.bits());
  }

  async waitValue(selector, expected) {
    await this.until(`${selector} = ${JSON.stringify(expected)}`,
      ([sel, want]) => document.querySelector(sel)?.value === want, [selector, expected],
      () => this.page.inputValue(selector));
  }

  async waitOpen(selector, open) {
    await this.until(`${selector} ${open ? 'open' : 'closed'}`,
      ([sel, want]) => document.querySelector(sel)?.open === want, [selector, open],
      () => this.page.$eval(selector, (details) => details.open));
  }

  async waitCount(selector, count) {
    await this.until(`${count} of ${selector}`,
      ([sel, want]) => document.querySelectorAll(sel).length === want, [selector, count],
      async () => (await this.page.$$(selector)).length);
  }

  async waitLayout(width) {
    await this.until(`idle and laid out for ${width} px`,
      (w) => window.innerWidth === w && document.documentElement.dataset.layoutWidth === String(w)
        && document.documentElement.dataset.idle === 'true',
      width, () => this.page.evaluate(() => ({ w: window.innerWidth, layout: document.documentElement.dataset.layoutWidth })));
  }

  async typeInto(selector, value) {
    await this.page.focus(selector);
    await this.page.keyboard.press('Control+A');
    if (value === '') await this.page.keyboard.press('Backspace');
    else await this.page.keyboard.type(value);
  }

  async submit(selector, value) {
    await this.page.fill(selector, value);
    await this.page.focus(selector);
    await this.page.keyboard.press('Enter');
  }

  /** m = 64, k = 3 with the a…h example, then `field` (m or k) edited to `value`,
   * which discards the filter and offers Undo. */
  async exampleThenEdit(field, value) {
    await this.create(64, 3);
    await this.page.click('#example');
    await this.waitText('#n', /^8$/);
    await this.typeInto(field, value);
    await this.waitText('#filter-msg', new RegExp(`Changing ${field.slice(1)} discarded the filter and its 8 entries`));
  }

  async create(m, k) {
    await this.page.fill('#m', String(m));
    await this.page.fill('#k', String(k));
    await this.page.click('#create');
    await this.waitText('#filter-status', new RegExp(`m = ${m} bits, k = ${k} `));
  }

  /** Sets an input's value from the page, as a paste does (any code units, lone surrogates too). */
  async paste(selector, units) {
    await this.page.evaluate(([sel, codes]) => {
      const input = document.querySelector(sel);
      input.focus();
      input.value = String.fromCharCode(...codes);
      input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    }, [selector, units]);
  }

  async scrollWidth() {
    return this.page.evaluate(() => document.documentElement.scrollWidth);
  }

  /** The session view the page renders from. */
  async view() {
    return this.page.evaluate(() => window.bloomproofExplorer.view());
  }
}

/**
 * Runs in the page: the bit grid read from the canvas's pixels, at the geometry
 * the page drew it with (`data-geometry` on the canvas: columns, cell, pitch and
 * inset in CSS pixels). For each position: the colour inside the cell, away from
 * its digit and corner mark, and the colour of its edge, where a mark's outline is
 * drawn. `bits` is '1' where the inside has the legend's "set" colour, '0' where it
 * has the legend's "clear" colour, '?' otherwise; `marks` are the positions whose
 * edge has the legend's outline colour; `first` is the inside colour of bit 0.
 * Null without a drawn grid. With `want` (e.g. `{ bits: '0101' }`), whether each of
 * its keys has that value instead, for `waitForFunction` (self-contained: the page's
 * Content-Security-Policy allows no code built from strings).
 */
function readGrid(want) {
  const canvas = document.querySelector('#bitcanvas');
  if (!canvas || !canvas.dataset.geometry || canvas.width === 0) return want ? false : null;
  const g = JSON.parse(canvas.dataset.geometry);
  const ratio = canvas.width / parseFloat(canvas.style.width);
  // A copy is read, not the page's canvas (whose context is not made for reading back).
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const reader = copy.getContext('2d', { willReadFrequently: true });
  reader.drawImage(canvas, 0, 0);
  const data = reader.getImageData(0, 0, canvas.width, canvas.height).data;
  const rgb = (css) => css.match(/\d+/g).slice(0, 3).map(Number);
  const legend = (selector, property) => rgb(getComputedStyle(document.querySelector(selector))[property]);
  const set = legend('.legend .cell.set:not(.mark)', 'backgroundColor');
  const clear = legend('.legend .cell:not(.set)', 'backgroundColor');
  const mark = legend('.legend .cell.mark', 'outlineColor');
  const pixel = (x, y) => {
    const i = (Math.floor(y * ratio) * canvas.width + Math.floor(x * ratio)) * 4;
    return [data[i], data[i + 1], data[i + 2]];
  };
  const css = (c) => `rgb(${c.join(', ')})`;
  const same = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 2);
  let bits = '';
  const marks = [];
  const inside = [];
  const edge = [];
  for (let p = 0; p < g.m; p += 1) {
    const x = g.inset + (p % g.cols) * g.pitch;
    const y = g.inset + Math.floor(p / g.cols) * g.pitch;
    const within = pixel(x + 5, y + g.cell - 6);
    const border = pixel(x, y + g.cell / 2);
    inside.push(css(within));
    edge.push(css(border));
    bits += same(within, set) ? '1' : same(within, clear) ? '0' : '?';
    if (same(border, mark)) marks.push(p);
  }
  const grid = { bits, marks, inside, edge, first: inside[0] };
  if (!want) return grid;
  return Object.entries(want).every(([key, value]) => JSON.stringify(grid[key]) === JSON.stringify(value));
}

/**
 * Runs in the page: where cell `p` is, from the canvas's box and the geometry the
 * page drew it with. `inView`: inside the grid's box and below the column indices
 * that stay on top of it; `row` and `col`: how far (px) the centre of the label
 * naming its row (column) is from the cell's centre, null without such a label.
 * With `key`, that value alone (for `waitForFunction`).
 */
function cellPlace([p, key]) {
  const canvas = document.querySelector('#bitcanvas');
  const g = JSON.parse(canvas.dataset.geometry);
  const at = canvas.getBoundingClientRect();
  const left = at.left + g.inset + (p % g.cols) * g.pitch;
  const top = at.top + g.inset + Math.floor(p / g.cols) * g.pitch;
  const r = { left, top, right: left + g.cell, bottom: top + g.cell };
  const box = document.querySelector('#bitbox').getBoundingClientRect();
  const header = document.querySelector('#bitcols').getBoundingClientRect().bottom;
  const inView = r.top >= header - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1;
  const cols = document.querySelectorAll('#bitgrid .collabel').length;
  const rowLabel = [...document.querySelectorAll('#bitgrid .rowlabel')].find((label) => label.textContent === String(Math.floor(p / cols) * cols));
  const colLabel = [...document.querySelectorAll('#bitgrid .collabel')].find((label) => label.textContent === String(p % cols));
  const middle = (b, axis) => (axis === 'x' ? (b.left + b.right) / 2 : (b.top + b.bottom) / 2);
  const place = {
    inView,
    row: rowLabel ? Math.abs(middle(rowLabel.getBoundingClientRect(), 'y') - middle(r, 'y')) : null,
    col: colLabel ? Math.abs(middle(colLabel.getBoundingClientRect(), 'x') - middle(r, 'x')) : null,
  };
  return key ? place[key] : place;
}

/** Contrast ratio of two CSS colours `rgb(...)`, as WCAG defines it. */
function contrast(a, b) {
  const lum = (css) => {
    const [r, g, bl] = css.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => p - q);
  return (y + 0.05) / (x + 0.05);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A `#share=` fragment for m, k and the entries (the page's own link format). */
function shareFragment(m, k, entries) {
  return `#share=${Buffer.from(JSON.stringify({ v: 1, m, k, entries })).toString('base64url')}`;
}

/** axe-core finds no violation in the page as it is now. */
const assertAxeClean = (page, state) => axeClean(page, state, AXE_SOURCE);

/** A harness for the enclosing suite: opened and loaded before its tests, closed after. */
function suiteHarness(server) {
  const h = new Harness(server);
  before(async () => {
    await h.open();
    await h.load();
  });
  after(() => h.close());
  return h;
}

// ------------------------------------------------------------ the suite, for each way of serving

for (const mode of ['explore', 'static']) {
  describe(`served by ${mode === 'explore' ? 'bloomproof explore' : 'a static file server'}, stopped after load`, () => {
    const h = suiteHarness(SERVERS[mode]());

    test('the page loads, then works with the server stopped, with no script error', async () => {
      assert.match(await h.page.title(), /Bloom filter explorer/);
      await h.waitText('#filter-status', /No active filter/);
      await assert.rejects(fetch(h.server.url));
      const foreign = h.requests.filter((line) => !/^GET http:\/\/127\.0\.0\.1:\d+\/(index\.html|assets\/(app\.js|style\.css|js\/[a-z0-9_]+\.mjs))?$/.test(line));
      assert.deepEqual(foreign, [], 'only the page\'s own files are requested');
      assert.deepEqual(h.problems, []);
    });

    test('m=8, k=1 and the a..h example set all 8 bits; a new string is a false positive', async () => {
      const { page } = h;
      await h.typeInto('#m', '8');
      await page.keyboard.press('Tab');
      await h.until('focus on #k', () => document.activeElement?.id === 'k');
      await h.typeInto('#k', '1');
      await page.keyboard.press('Enter');
      await h.waitText('#filter-status', /m = 8 bits, k = 1 hash position/);
      await h.waitBits('00000000');
      await page.click('#example');
      await h.waitBits('11111111');
      await h.waitText('#bits-set', /^8 \/ 8$/);
      await h.waitText('#n', /^8$/);
      await h.until('only bit 7 marked', readGrid, { marks: [7] }, async () => (await h.grid()).marks);
      await h.waitText('#bits-text', /^Set \(1\), 8 bits: 0–7\. Clear \(0\), 0 bits: none\. The last insert used 7\.$/);
      await h.submit('#query', 'z');
      await h.waitText('#last-outcome', /false positive/);
      await h.waitText('#rate', /^1\/1 = 1$/);
    });

    test('reset keeps the fields; insert a, query i, a, b: observed rate 1/2', async () => {
      await h.page.click('#reset');
      await h.waitBits('00000000');
      await h.waitText('#state-msg', /Reset emptied the filter of its 8 entries/);
      await h.waitValue('#m', '8');
      await h.waitValue('#k', '1');
      await h.waitText('#rate', /^undefined/);
      await h.submit('#insert', 'a');
      await h.waitBits('00001000');
      for (const query of ['i', 'a', 'b']) {
        await h.submit('#query', query);
        await h.waitText('#last', new RegExp(`"${query}"`));
      }
      await h.waitText('#rate', /^1\/2 = 0\.5$/);
      await h.waitText('#neg', /^2$/);
      await h.waitText('#fp', /^1$/);
      await h.waitCount('#history-list li', 4);
      const history = await h.page.$$eval('#history-list li', (items) => items.map((item) => item.textContent));
      assert.match(history[0], /query\s*"b"\s*→ definitely absent/);
      assert.match(history[1], /query\s*"a"\s*→ maybe present, and truly present/);
      assert.match(history[2], /query\s*"i"\s*→ maybe present, but never inserted: false positive/);
      assert.match(history[3], /insert\s*"a"/);
    });

    test('panels open by keyboard, and a reload keeps the session and the panels', async () => {
      await h.page.focus('#positions-panel summary');
      await h.page.keyboard.press('Enter');
      await h.waitOpen('#positions-panel', true);
      await h.waitText('#positions-body', /"b"/);
      await h.idle();
      await h.reload();
      await h.waitText('#save-status', /restored from this browser/);
      await h.waitText('#rate', /^1\/2 = 0\.5$/);
      await h.waitBits('00001000');
      await h.waitValue('#m', '8');
      await h.waitOpen('#positions-panel', true);
      await h.waitOpen('#model-panel', false);
      await h.waitCount('#history-list li', 4);
    });

    test('navigating inside the page keeps the session', async () => {
      const { page } = h;
      await page.evaluate(() => { window.sameDocument = true; });
      for (const section of ['history', 'details', 'filter']) {
        await page.click(`nav a[href="#${section}"]`);
        await page.waitForURL(new RegExp(`#${section}$`), WAIT);
      }
      assert.equal(await page.evaluate(() => window.sameDocument), true);
      await h.waitText('#rate', /^1\/2 = 0\.5$/);
      await h.waitBits('00001000');
    });

    test('export, a broken import leaves the filter, the export restores it', async () => {
      const { page } = h;
      const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#export')]);
      const exportedPath = path.join(h.downloads, download.suggestedFilename());
      await download.saveAs(exportedPath);
      const exported = await readFile(exportedPath, 'utf8');
      const parsed = JSON.parse(exported);
      assert.equal(parsed.format, 'bloomproof-session');
      assert.deepEqual(parsed.params, { m: 8, k: 1 });
      assert.deepEqual(parsed.entries, ['a']);
      const before = await h.bits();
      const tries = [
        ['broken.json', Buffer.from('{"format": "bloomproof-session", "version": 1, broken'), /broken\.json: The file is not valid JSON \(JSON syntax error at line 1, column \d+.*The filter was left as it was/],
        ['bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(exported)]), /bom\.json: The file is not valid JSON.*The filter was left as it was/],
        ['latin1.json', Buffer.from([0x7b, 0xe9, 0x7d]), /latin1\.json: the file is not UTF-8 text.*The filter was left as it was/],
        ['v9.json', Buffer.from(exported.replace('"version": 1', '"version": 9')), /v9\.json: This page reads session files of format version 1 only/],
        ['huge.json', Buffer.alloc(3 * 1024 * 1024, 0x20), /huge\.json: the file is 3145728 bytes, over 2 MiB \(2097152 bytes\).*The filter was left as it was/],
      ];
      for (const [name, buffer, pattern] of tries) {
        await page.setInputFiles('#import-file', { name, mimeType: 'application/json', buffer });
        await h.waitText('#session-msg', pattern);
        assert.equal(await page.$eval('#session-msg', (node) => node.classList.contains('error')), true);
        assert.equal(await h.bits(), before);
      }
      await h.waitText('#rate', /^1\/2 = 0\.5$/);
      await page.click('#reset');
      await h.waitBits('00000000');
      await page.setInputFiles('#import-file', exportedPath);
      await h.waitText('#session-msg', /^Imported /);
      await h.waitBits(before);
      await h.waitText('#rate', /^1\/2 = 0\.5$/);
      await h.waitCount('#history-list li', 4);
    });

    test('a shareable link restores m, k and the entries; a bad link changes nothing', async () => {
      const { page } = h;
      await page.click('#share');
      await h.until('a share link in #share-link',
        () => /^http:\/\/127\.0\.0\.1:\d+\/(index\.html)?#share=[A-Za-z0-9_-]+$/.test(document.querySelector('#share-link').value),
        null, () => page.inputValue('#share-link'));
      const link = await page.inputValue('#share-link');
      await h.create(16, 1);
      await h.waitBits('0'.repeat(16));
      // The same page follows the link (a hash change: no server needed).
      await page.goto(link);
      await h.waitText('#notice', /Restored from a shared link: m = 8, k = 1, 1 entry/);
      await h.waitBits('00001000');
      assert.doesNotMatch(page.url(), /#share=/);
      // A link listing an entry twice, and one that is not base64url, are refused.
      for (const [bad, why] of [[shareFragment(8, 1, ['a', [97]]), /repeats an earlier one/], ['#share=%%%', /not base64url/]]) {
        await page.fill('#restore-link', `http://127.0.0.1/${bad}`);
        await page.click('#restore');
        await h.waitText('#share-msg', why);
        await h.waitBits('00001000');
      }
      // A fresh load of the link does the same.
      await h.create(8, 2);
      await page.goto('about:blank');
      await h.load(link);
      await h.waitText('#notice', /Restored from a shared link: m = 8, k = 1, 1 entry/);
      await h.waitText('#filter-status', /m = 8 bits, k = 1/);
      await h.waitBits('00001000');
    });

    test('past 100000 characters the previous copy stays, a warning shows, and leaving asks first', async () => {
      const { page } = h;
      await h.create(8, 1);
      await h.submit('#insert', 'a');
      await h.submit('#query', 'i');
      await h.submit('#query', 'b');
      await h.waitText('#rate', /^1\/2 = 0\.5$/);
      await h.idle();
      const stored = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
      assert.ok(stored && stored.includes('"m":8'));
      const entries = Array.from({ length: 1024 }, (_, i) => `${String(i).padStart(4, '0')}${'x'.repeat(96)}`);
      await page.goto(`${page.url().split('#')[0]}${shareFragment(64, 1, entries)}`);
      await h.waitText('#n', /^1024$/);
      await h.idle();
      await h.waitText('#storage-warning', /over the 100000 that are saved locally.*previous copy is kept/);
      assert.equal(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY), stored);
      // Leaving now would lose the session: the page asks first.
      await page.click('h1');
      const dialog = page.waitForEvent('dialog', WAIT);
      page.evaluate(() => { location.reload(); }).catch(() => {});
      const shown = await dialog;
      assert.equal(shown.type(), 'beforeunload');
      await shown.dismiss();
      await h.waitText('#n', /^1024$/);
      // Undo brings the saved session back, and the warning goes.
      await page.click('#notice button.undo');
      await h.waitText('#n', /^1$/);
      await h.waitText('#rate', /^1\/2 = 0\.5$/);
      await h.idle();
      await page.locator('#storage-warning').waitFor({ state: 'hidden', ...WAIT });
    });

    test('every control has a label and the keyboard reaches each one', async () => {
      const { page } = h;
      const unnamed = await page.$$eval('input, button, summary, select, textarea', (nodes) => nodes
        .filter((node) => !(node.labels && node.labels.length) && !node.getAttribute('aria-label') && !node.textContent.trim())
        .map((node) => node.outerHTML));
      assert.deepEqual(unnamed, []);
      await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
      await page.focus('a.skip');
      const reached = new Set();
      for (let i = 0; i < 60; i += 1) {
        await page.keyboard.press('Tab');
        reached.add(await page.evaluate(() => {
          const node = document.activeElement;
          if (!node) return '';
          if (node.tagName === 'SUMMARY') return `${node.parentElement.id}:summary`;
          return node.id || node.getAttribute('href') || node.tagName;
        }));
      }
      for (const id of ['m', 'k', 'create', 'insert', 'insert-button', 'query', 'query-button', 'example', 'reset',
        'bitbox', 'bits-text-panel:summary', 'positions-panel:summary', 'model-panel:summary', 'export', 'import-file', 'share', 'share-link',
        'restore-link', 'restore', '#bits']) {
        assert.ok(reached.has(id), `Tab never reached ${id}; reached ${[...reached].join(', ')}`);
      }
    });

    test('refused inputs: words for people, the field marked invalid, no console error', async () => {
      const { page } = h;
      await page.fill('#m', '8.0');
      await page.click('#create');
      await h.waitText('#filter-msg', /^m must be a whole number from 8 to 1024, written with the digits 0 to 9 only/);
      assert.equal(await page.getAttribute('#m', 'aria-invalid'), 'true');
      await page.fill('#m', '2000');
      await page.click('#create');
      await h.waitText('#filter-msg', /^m must be a whole number from 8 to 1024\.$/);
      await page.fill('#m', '64');
      await page.fill('#k', '13');
      await page.click('#create');
      await h.waitText('#filter-msg', /^k must be a whole number from 1 to 12\.$/);
      assert.equal(await page.getAttribute('#k', 'aria-invalid'), 'true');
      assert.equal(await page.getAttribute('#m', 'aria-invalid'), null);
      await h.create(64, 3);
      assert.equal(await page.getAttribute('#k', 'aria-invalid'), null);
      await h.submit('#insert', '');
      await h.waitText('#ops-msg', /^Type the string to insert first: strings have 1 to 256 UTF-16 code units\.$/);
      assert.equal(await page.getAttribute('#insert', 'aria-invalid'), 'true');
      await h.submit('#query', 'q'.repeat(257));
      await h.waitText('#ops-msg', /^This string has 257 UTF-16 code units; at most 256 are allowed\.$/);
      const html = await page.$eval('main', (node) => node.textContent);
      assert.doesNotMatch(html, /\[(invalid_draft|empty_string|too_long|syntax)\]|8\.\.=1024/);
      assert.deepEqual(h.problems, []);
    });

    test('a 256-unit string with no space: no sideways scrolling, shortened with the whole value at hand', async () => {
      const { page } = h;
      const long = 'W'.repeat(256);
      await h.submit('#insert', long);
      await h.waitText('#last-outcome', /new distinct entry/);
      await h.submit('#query', long);
      await h.waitText('#last-outcome', /truly present/);
      await page.evaluate(() => document.querySelector('#positions-panel').open || document.querySelector('#positions-panel summary').click());
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await h.waitLayout(width);
        const scroll = await h.scrollWidth();
        assert.ok(scroll <= width, `the page is ${scroll} px wide at ${width} px`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await h.waitLayout(1280);
      // The last operation shows the whole string (it wraps); the history shortens it
      // to its start and its end, the whole value in its title.
      assert.equal(await page.$eval('#last-string', (node) => node.textContent), JSON.stringify(long));
      const short = await page.$eval('#history-list li code.str', (node) => ({ text: node.textContent, title: node.title }));
      assert.ok(short.text.length < 60 && short.text.includes('…') && short.text.endsWith('W"'), short.text);
      assert.equal(short.title, JSON.stringify(long));
      assert.equal(await page.$eval('#positions-body caption code', (node) => node.textContent), JSON.stringify(long));
    });

    test('a lone surrogate in a draft is kept, saved and inserted', async () => {
      const { page } = h;
      await h.paste('#insert', [0x61, 0xd800]);
      await h.paste('#query', [0xdc00, 0x78]);
      await h.idle();
      assert.equal(await h.text('#ops-msg'), '');
      await h.reload();
      const units = (sel) => page.$eval(sel, (input) => [...input.value].flatMap((c) => [...Array(c.length).keys()].map((i) => c.charCodeAt(i))));
      assert.deepEqual(await units('#insert'), [0x61, 0xd800]);
      assert.deepEqual(await units('#query'), [0xdc00, 0x78]);
      await page.focus('#insert');
      await page.keyboard.press('Enter');
      await h.waitText('#last', /"a\\ud800": inserted: new distinct entry/);
      const view = await h.view();
      assert.deepEqual(view.last_operation.units, [0x61, 0xd800]);
    });

    test('the rules of the document: exact comparison, UTF-16 lengths, duplicates, counter resets, 1024 entries', async () => {
      const { page } = h;
      await h.create(64, 3);
      // Exact comparison: case, spaces and composed/decomposed accents are different strings.
      for (const value of ['é', 'A', ' a']) await h.submit('#insert', value);
      await h.waitText('#n', /^3$/);
      for (const [value, outcome] of [['e\u0301', /never inserted|definitely absent/], ['a', /never inserted|definitely absent/], ['é', /truly present/]]) {
        await h.submit('#query', value);
        await h.waitText('#last', new RegExp(JSON.stringify(value).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')));
        await h.waitText('#last-outcome', outcome);
      }
      // A new distinct insertion resets the counters; a duplicate changes nothing but is recorded.
      await h.waitText('#neg', /^2$/);
      const bitsBefore = await h.bits();
      await h.submit('#insert', 'A');
      await h.waitText('#last-outcome', /already inserted: nothing changed/);
      await h.waitText('#neg', /^2$/);
      await h.waitText('#n', /^3$/);
      assert.equal(await h.bits(), bitsBefore);
      await h.submit('#insert', 'new one');
      await h.waitText('#n', /^4$/);
      await h.waitText('#neg', /^0$/);
      await h.waitText('#rate', /^undefined/);
      // Lengths are UTF-16 code units: 128 emoji are 256 units, 129 are 258.
      await h.submit('#insert', '😀'.repeat(128));
      await h.waitText('#n', /^5$/);
      await h.submit('#insert', '😀'.repeat(129));
      await h.waitText('#ops-msg', /This string has 258 UTF-16 code units; at most 256/);
      // At 1024 entries a new string is refused, a duplicate still accepted.
      const entries = Array.from({ length: 1024 }, (_, i) => `e${i}`);
      await page.goto(`${page.url().split('#')[0]}${shareFragment(1024, 1, entries)}`);
      await h.waitText('#n', /^1024$/);
      await h.submit('#insert', 'one more');
      await h.waitText('#ops-msg', /already keeps 1024 distinct strings/);
      await h.submit('#insert', 'e5');
      await h.waitText('#last-outcome', /already inserted/);
      await h.waitText('#n', /^1024$/);
      assert.deepEqual(h.problems, []);
    });

    test('history numbering goes on past the 256 kept items (300 operations)', async () => {
      const { page } = h;
      await h.create(1024, 1);
      await page.evaluate(() => {
        const input = document.querySelector('#insert');
        for (let i = 0; i < 300; i += 1) {
          input.value = `op-${i}`;
          document.querySelector('#insert-form').requestSubmit();
        }
      });
      await h.waitText('#n', /^300$/);
      const numbers = () => page.$$eval('#history-list li', (items) => [items[0].value, items.at(-1).value, items.length]);
      assert.deepEqual(await numbers(), [300, 45, 256]);
      await h.waitText('#history-older', /The 44 older operations of this filter are not kept/);
      await h.idle();
      await h.reload();
      assert.deepEqual(await numbers(), [300, 45, 256]);
    });

    test('an edit of m or k and Reset can be undone; the result shows next to the inputs', async () => {
      const { page } = h;
      await h.exampleThenEdit('#m', '65');
      await h.waitText('#filter-status', /No active filter/);
      await page.click('#filter-msg button.undo');
      await h.waitText('#filter-msg', /undone/);
      await h.waitText('#n', /^8$/);
      await h.waitValue('#m', '64');
      await page.click('#reset');
      await h.waitText('#n', /^0$/);
      await page.click('#state-msg button.undo');
      await h.waitText('#n', /^8$/);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await h.waitLayout(width);
        await h.submit('#query', 'kiwi');
        await h.waitText('#last', /"kiwi"/);
        const gap = await page.evaluate(() => document.querySelector('#last').getBoundingClientRect().top
          - document.querySelector('#query-form').getBoundingClientRect().bottom);
        assert.ok(gap >= 0 && gap < 120, `the result is ${gap} px below the query field at ${width} px`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await h.waitLayout(1280);
    });

    test('repeated positions at m=8, k=12: before/after of the whole operation, repeats named', async () => {
      await h.create(8, 12);
      await h.submit('#insert', 'a');
      await h.waitText('#last', /"a"/);
      if (!(await h.page.$eval('#positions-panel', (d) => d.open))) await h.page.click('#positions-panel summary');
      await h.waitCount('#positions-body tbody tr', 12);
      const rows = await h.page.$$eval('#positions-body tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
      assert.deepEqual(rows.map((r) => r[1]).join(','), '4,7,2,5,0,3,6,1,4,7,2,5');
      for (let i = 0; i < 12; i += 1) {
        assert.deepEqual(rows[i].slice(2, 4), ['0', '1'], `row ${i}`);
        assert.equal(rows[i][4], i < 8 ? 'set by this insertion' : `same bit as i = ${i - 8}`);
      }
    });

    test('the grid: no ragged last row where m allows, indices on both axes, outlines of 3:1', async () => {
      const { page } = h;
      // The columns that fit, and the divisor of m used instead where one is at least half as many.
      for (const [m, width] of [[64, 375], [64, 1920], [100, 1280], [1000, 1280], [1024, 1280], [1024, 375]]) {
        await page.setViewportSize({ width, height: 900 });
        await h.waitLayout(width);
        await h.create(m, 3);
        await h.waitText('#bits-summary', new RegExp(`of ${m} bits set, \\d+ per row`));
        const cols = Number((await h.text('#bits-summary')).match(/(\d+) per row/)[1]);
        assert.equal(m % cols, 0, `${cols} columns for m = ${m} at ${width} px`);
        assert.doesNotMatch(await h.text('#bits-summary'), /last row has/);
        await h.waitCount('#bitgrid .collabel', cols);
        await h.waitCount('#bitgrid .rowlabel', m / cols);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await h.waitLayout(1280);
      // A prime m has no such divisor: the last row is shorter, and says so.
      await h.create(97, 3);
      await h.waitText('#bits-summary', /The last row has \d+\./);
      await h.submit('#insert', 'a');
      await h.submit('#query', 'zz');
      await h.waitText('#last-outcome', /definitely absent/);
      // The outline as drawn, on the positions the query used, against a set and a clear cell as drawn.
      const view = await h.view();
      const grid = await h.grid();
      assert.equal(grid.bits, view.bits);
      const used = [...new Set(view.last_operation.positions.map((p) => p.position))].sort((a, b) => a - b);
      assert.deepEqual(grid.marks, used);
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await h.until(`the grid drawn in ${scheme} colours`, readGrid,
          { first: await page.$eval(`.legend .cell${view.bits[0] === '1' ? '.set:not(.mark)' : ':not(.set)'}`, (cell) => getComputedStyle(cell).backgroundColor) },
          async () => (await h.grid()).first);
        const drawn = await h.grid();
        const colours = { outline: drawn.edge[used[0]], set: drawn.inside[view.bits.indexOf('1')], clear: drawn.inside[view.bits.indexOf('0')] };
        assert.ok(contrast(colours.outline, colours.set) >= 3, `${scheme}: ${JSON.stringify(colours)}`);
        assert.ok(contrast(colours.outline, colours.clear) >= 3, `${scheme}: ${JSON.stringify(colours)}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    });

    test('at m=1024, k=12 the marked bits are brought into view, at 1280 and 375 px', async () => {
      const { page } = h;
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await h.waitLayout(width);
        await h.create(1024, 12);
        await h.submit('#insert', `far-${width}`);
        await h.waitText('#last', new RegExp(`far-${width}`));
        const positions = [...new Set((await h.view()).last_operation.positions.map((p) => p.position))].sort((a, b) => a - b);
        // The operation scrolls the grid's box (in the frame after it) to its first marked bit.
        await h.until(`the first marked bit ${positions[0]} in view at ${width} px`, cellPlace, [positions[0], 'inView'],
          () => page.evaluate(cellPlace, [positions[0]]));
        for (const p of positions) {
          await page.click(`#bits-jump button:text-is("${p}")`);
          await h.until(`bit ${p} in view`, cellPlace, [p, 'inView'], () => page.evaluate(cellPlace, [p]));
        }
        // Each cell's row and column are named beside it: the row's label level with
        // the cell, the column's label above it.
        const named = await page.evaluate(cellPlace, [positions[0]]);
        assert.ok(named.row !== null && named.row <= 1, `row label of bit ${positions[0]}: ${JSON.stringify(named)}`);
        assert.ok(named.col !== null && named.col <= 1, `column label of bit ${positions[0]}: ${JSON.stringify(named)}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await h.waitLayout(1280);
    });

    test('the plot\'s labels stay clear of the curves; the file input is styled', async () => {
      const { page } = h;
      await h.create(64, 3);
      await page.click('#example');
      await h.submit('#query', 'i');
      await h.idle();
      await h.waitText('#plot-caption', /m = 64, k = 3, n from 0 to \d+; rates on a linear scale from 0 to 1\. At n = 8/);
      const boxes = await page.evaluate(() => {
        const svg = document.querySelector('#plot-area svg');
        const top = Math.min(...[...svg.querySelectorAll('line.gridline')].map((line) => Number(line.getAttribute('y1'))));
        return { top, labels: [...svg.querySelectorAll('text.marklabel')].map((text) => { const b = text.getBBox(); return b.y + b.height; }) };
      });
      assert.ok(boxes.labels.length > 0 && boxes.labels.every((bottom) => bottom <= boxes.top), JSON.stringify(boxes));
      const file = await page.$eval('#import-file', (input) => getComputedStyle(input).borderStyle);
      assert.equal(file, 'dashed');
    });

    test('the header lines up with the content at every width', async () => {
      const { page } = h;
      for (const width of [375, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await h.waitLayout(width);
        const [header, content] = await page.evaluate(() => [
          document.querySelector('.top h1').getBoundingClientRect().left,
          document.querySelector('#filter h2').getBoundingClientRect().left,
        ]);
        assert.ok(Math.abs(header - content) <= 1, `at ${width} px the header starts at ${header}, the content at ${content}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await h.waitLayout(1280);
      assert.deepEqual(h.problems, []);
    });
  });
}

// ------------------------------------------------------------ once

describe('once: the session for cross-reading, axe, screenshots, timing, the single file', () => {
  const h = suiteHarness(SERVERS.explore());

  test('the session for cross-reading: target/e2e/explorer-session.json', async () => {
    const { page } = h;
    await h.create(100, 5);
    for (const value of ['alpha', 'β-beta', '😀']) await h.submit('#insert', value);
    await h.paste('#insert', [0x78, 0xd800]);
    await page.focus('#insert');
    await page.keyboard.press('Enter');
    await h.waitText('#n', /^4$/);
    for (const value of ['gamma', 'delta', 'alpha', 'epsilon', 'zeta']) await h.submit('#query', value);
    await h.waitText('#neg', /^[1-9]/);
    await h.submit('#insert', 'alpha');
    await h.waitText('#last-outcome', /already inserted/);
    await h.idle();
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#export')]);
    const file = path.join(h.downloads, 'cross.json');
    await download.saveAs(file);
    const text = await readFile(file, 'utf8');
    const view = await h.view();
    assert.deepEqual(view.params, { m: 100, k: 5 });
    assert.equal(view.distinct_entries, 4);
    assert.ok(view.counters.negative_queries > 0);
    assert.match(text, /\[\s*120,\s*55296\s*\]/);
    await writeFile(path.join(OUT, 'explorer-session.json'), `${JSON.stringify({ export: text, view }, null, 2)}\n`);
  });

  test('axe-core finds no violation in the main states, light and dark', async () => {
    const { page } = h;
    const run = (state) => assertAxeClean(page, state);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await h.create(64, 3);
      await run(`${scheme}: an empty filter`);
      await page.click('#example');
      for (const q of ['i', 'date']) await h.submit('#query', q);
      for (const panel of ['#positions-panel', '#model-panel']) {
        if (!(await page.$eval(panel, (d) => d.open))) await page.click(`${panel} summary`);
        await h.waitOpen(panel, true);
      }
      await h.idle();
      await h.waitText('#plot-caption', /m = 64, k = 3/);
      await run(`${scheme}: a filter with entries, queries and open panels`);
      await page.fill('#m', 'x');
      await page.click('#create');
      await h.waitText('#filter-msg', /whole number/);
      await page.click('#reset').catch(() => {});
      await run(`${scheme}: no filter, an error and an undo offer`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test('screenshots at 375, 1280 and 1920 px, light and dark', async () => {
    const { page } = h;
    await h.create(64, 3);
    await page.click('#example');
    for (const query of ['i', 'j', 'apple', 'a', 'kiwi', 'date']) await h.submit('#query', query);
    await h.waitText('#rate', /^1\/5 = 0\.2$/);
    for (const panel of ['#positions-panel', '#model-panel']) {
      if (!(await page.$eval(panel, (d) => d.open))) await page.click(`${panel} summary`);
      await h.waitOpen(panel, true);
    }
    await page.evaluate(() => document.activeElement?.blur());
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, width] of [['narrow', 375], ['wide', 1280], ['widest', 1920]]) {
        await page.setViewportSize({ width, height: width === 375 ? 800 : 1000 });
        await h.waitLayout(width);
        await h.waitText('#plot-caption', /m = 64, k = 3/);
        const scroll = await h.scrollWidth();
        assert.ok(scroll <= width, `the page is ${scroll} px wide at ${width} px`);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${scheme}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(h.problems, []);
  });

  test('m=1024, k=12, 1000 entries: insert and query to painted grid (recorded, not asserted)', async () => {
    const { page } = h;
    const entries = Array.from({ length: 1000 }, (_, i) => `entry-${i}`);
    await page.goto(`${page.url().split('#')[0]}${shareFragment(1024, 12, entries)}`);
    await h.waitText('#n', /^1000$/);
    await h.idle();
    await page.evaluate(() => performance.clearMeasures());
    for (let i = 0; i < 24; i += 1) {
      await h.submit('#insert', `timed-${i}`);
      await h.until(`measure ${i + 1}`, (n) => performance.getEntriesByName('insert to paint').length === n, i + 1);
      await h.submit('#query', `absent-${i}`);
      await h.until(`measure ${i + 1}`, (n) => performance.getEntriesByName('query to paint').length === n, i + 1);
    }
    await h.waitText('#n', /^1024$/);
    const durations = await page.evaluate(() => ({
      insert: performance.getEntriesByName('insert to paint').map((e) => e.duration),
      query: performance.getEntriesByName('query to paint').map((e) => e.duration),
    }));
    const load = execFileSync('uptime', { encoding: 'utf8' }).trim();
    const result = {
      what: 'click-to-paint (submit event to the frame after it) in headless Chromium, m=1024, k=12, 1000 to 1024 entries',
      median_insert_ms: Number(median(durations.insert).toFixed(2)),
      median_query_ms: Number(median(durations.query).toFixed(2)),
      max_insert_ms: Number(Math.max(...durations.insert).toFixed(2)),
      max_query_ms: Number(Math.max(...durations.query).toFixed(2)),
      samples: durations,
      uptime: load,
    };
    await writeFile(path.join(OUT, 'timing.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(`timing: median insert ${result.median_insert_ms} ms, median query ${result.median_query_ms} ms (${load})`);
    assert.equal(durations.insert.length, 24);
  });

  test('the single-file page works opened from a file:// URL', async () => {
    const single = new Harness(null);
    await single.open();
    try {
      await single.load(pathToFileURL(path.join(SITE, 'bloomproof-explorer.html')).href);
      assert.deepEqual(single.requests.filter((r) => !r.startsWith('GET file://')), []);
      await single.create(8, 1);
      await single.submit('#insert', 'a');
      await single.waitBits('00001000');
      await single.idle();
      await single.reload();
      await single.waitBits('00001000');
      await single.waitText('#save-status', /restored from this browser/);
      assert.deepEqual(single.problems, []);
    } finally {
      await single.close();
    }
  });
});

// ------------------------------------------------------------ the page as a person meets it; no work lost

const WIDTHS = [375, 1280, 1920];
const SCHEMES = ['light', 'dark'];

/** Runs `body(width, scheme)` at each width in light and dark, laid out and idle. */
async function everyView(h, body, widths = WIDTHS) {
  for (const scheme of SCHEMES) {
    await h.page.emulateMedia({ colorScheme: scheme });
    for (const width of widths) {
      await h.page.setViewportSize({ width, height: 900 });
      await h.waitLayout(width);
      await body(width, scheme);
    }
  }
  await h.page.emulateMedia({ colorScheme: 'light' });
  await h.page.setViewportSize({ width: 1280, height: 900 });
  await h.waitLayout(1280);
}

/** At 375 and 1920 px, light and dark: the page is no wider than the screen. */
async function fitsEveryView(h) {
  await everyView(h, async (width, scheme) => {
    const scroll = await h.scrollWidth();
    assert.ok(scroll <= width, `${width} ${scheme}: the page is ${scroll} px wide`);
  }, [375, 1920]);
}

/** Runs in the page: whether all of `sel` is inside the viewport (and, for what is not
 * in the dock at the foot of the screen, above the dock). */
function inViewport(sel) {
  const node = document.querySelector(sel);
  if (!node || node.offsetParent === null) return false;
  const r = node.getBoundingClientRect();
  const dock = document.querySelector('#dock');
  const inDock = dock && dock.contains(node);
  const floor = !inDock && dock && !dock.hidden ? dock.getBoundingClientRect().top : window.innerHeight;
  return r.top >= -1 && r.bottom <= floor + 1 && r.left >= -1 && r.right <= window.innerWidth + 1;
}

/** Waits until all of `sel` is in view (the page brings a message into view itself). */
async function waitInView(h, sel, where) {
  await h.until(`${sel} in view (${where})`, inViewport, sel, () => h.page.evaluate(boxes, [sel]));
}

/** Runs in the page: pairs of text labels of `container` (SVG text, or elements matching
 * `sel`) whose boxes overlap by more than half a pixel, as [text, text, box, box]. */
function overlappingLabels(sel) {
  const nodes = [...document.querySelectorAll(sel)];
  const rects = nodes.map((node) => [node.textContent, node.getBoundingClientRect()]);
  const found = [];
  for (let i = 0; i < rects.length; i += 1) {
    for (let j = i + 1; j < rects.length; j += 1) {
      const [ta, a] = rects[i];
      const [tb, b] = rects[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const hgt = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && hgt > 0.5) found.push([ta, tb, [a.left, a.top, a.right, a.bottom], [b.left, b.top, b.right, b.bottom]]);
    }
  }
  return found;
}

/** Runs in the page: boxes of `sel` that stick out of the box of `outer`. */
function outside([sel, outer]) {
  const o = document.querySelector(outer).getBoundingClientRect();
  return [...document.querySelectorAll(sel)].map((node) => [node.textContent, node.getBoundingClientRect()])
    .filter(([, r]) => r.left < o.left - 0.5 || r.right > o.right + 0.5 || r.top < o.top - 0.5 || r.bottom > o.bottom + 0.5)
    .map(([text, r]) => [text, r.left, r.right, o.left, o.right]);
}

/** Runs in the page: the box of each selector (null when absent or hidden). */
function boxes(selectors) {
  return Object.fromEntries(selectors.map((sel) => {
    const node = document.querySelector(sel);
    if (!node || node.offsetParent === null) return [sel, null];
    const r = node.getBoundingClientRect();
    return [sel, { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height }];
  }));
}

/** The y of each point of a plotted series, from its path. */
function pathYs(d) {
  return [...d.matchAll(/[ML]([-\d.]+),([-\d.]+)/g)].map((m) => Number(m[2]));
}

describe('the page as a person meets it, and the page loses no work', () => {
  const h = suiteHarness(SERVERS.explore());

  test('the a/i/b exercise: the fields, the result, the counters and the grid in view without scrolling', async () => {
    const { page } = h;
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [width, height] of [[1280, 800], [1280, 900], [1920, 900]]) {
        await page.setViewportSize({ width, height });
        await h.waitLayout(width);
        await page.evaluate(() => window.scrollTo(0, 0));
        await h.create(8, 1);
        for (const [field, value] of [['#insert', 'a'], ['#query', 'i'], ['#query', 'a'], ['#query', 'b']]) {
          await h.submit(field, value);
          await h.waitText('#last', new RegExp(`"${value}"`));
          const seen = await page.evaluate(boxes, ['#insert', '#query', '#last', '#rate', '#neg', '#fp', '#bitbox']);
          const scrolled = await page.evaluate(() => window.scrollY);
          assert.equal(scrolled, 0, `${width}x${height} ${scheme}: scrolled after ${value}`);
          for (const [sel, box] of Object.entries(seen)) {
            assert.ok(box && box.bottom <= height, `${width}x${height} ${scheme}: ${sel} not in view after ${field} ${value}: ${JSON.stringify(box)}`);
          }
        }
        await h.waitText('#rate', /^1\/2 = 0\.5$/);
      }
      assert.equal(await page.evaluate(boxes, ['#last-rate']).then((b) => b['#last-rate']), null, 'the rate is not repeated on a wide screen');
      // Below 992 px one column: the grid right after the result (which repeats the
      // rate), the counters after the grid.
      await page.setViewportSize({ width: 375, height: 800 });
      await h.waitLayout(375);
      await h.submit('#query', 'c');
      await h.waitText('#last', /"c"/);
      const seen = await page.evaluate(boxes, ['#query', '#last', '#state', '#bits', '#bitbox', '#plot', '#last-rate']);
      assert.ok(seen['#last'].top >= seen['#query'].bottom, JSON.stringify(seen));
      assert.ok(seen['#bits'].top >= seen['#last'].bottom && seen['#bits'].top - seen['#last'].bottom < 40, JSON.stringify(seen));
      assert.ok(seen['#state'].top >= seen['#bitbox'].bottom && seen['#plot'].top >= seen['#state'].bottom, JSON.stringify(seen));
      assert.ok(seen['#last-rate'], 'the rate repeated in the result at 375 px');
      assert.equal(await h.text('#last-rate'), `Observed false-positive rate: ${await h.text('#rate')}; n = ${await h.text('#n')}.`);
      // The operation brings its result into view (the field is near the screen's foot).
      await h.until('the result in view at 375 px', () => {
        const r = document.querySelector('#last').getBoundingClientRect();
        return r.top >= -1 && r.bottom <= window.innerHeight + 1;
      }, null, () => page.evaluate(boxes, ['#last']));
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await h.waitLayout(1280);
  });

  test('invisible characters are named by code point, beside the JSON display; long strings keep their end', async () => {
    const { page } = h;
    await h.create(64, 3);
    await h.paste('#insert', [0x61, 0x20, 0xa0, 0x200b, 0xfeff, 0x7f, 0x85, 0x9, 0xe9, 0xd83d, 0xde00, 0xd800]);
    await page.focus('#insert');
    await page.keyboard.press('Enter');
    await h.waitText('#last-outcome', /new distinct entry/);
    // The JSON display stays (quotes and escapes), the breakdown names each character.
    assert.equal(await h.text('#last-string'), '"a \u00a0\u200b\ufeff\u007f\u0085\\té😀\\ud800"');
    // Only the characters worth naming: the plain "a" is left to the string itself.
    const expected = ['U+0020 space', 'U+00A0 no-break space', 'U+200B zero width space',
      'U+FEFF byte order mark (zero width no-break space)', 'U+007F delete', 'U+0085 next line', 'U+0009 tab',
      'é U+00E9, composed (not U+0065 + U+0301)', '😀 U+1F600, 2 code units', 'U+D800 lone surrogate'];
    await everyView(h, async (width, scheme) => {
      if (width === 1280) await assertAxeClean(page, `${scheme}: characters named by code point`);
      const chips = await page.$$eval('#last-chars .ch', (nodes) => nodes.map((node) => node.textContent));
      assert.deepEqual(chips, expected, `${width} ${scheme}`);
      assert.match(await h.text('#last-chars'), /^11 characters; 10 worth naming \(invisible, combining, astral or look-alike\), the other 1 plain as shown above:/);
      assert.ok(await h.scrollWidth() <= width, `${width} ${scheme}: the page is wider than the screen`);
    });
    // A 63-unit string ending in three spaces: the history shortens it to its start and
    // its end, so the spaces show before the closing quote; the result box shows it whole.
    const spaced = `${'y'.repeat(60)}   `;
    await h.submit('#insert', spaced);
    await h.waitText('#last-outcome', /new distinct entry/);
    assert.equal(await h.text('#last-string'), JSON.stringify(spaced));
    const item = await h.text('#history-list li code.str');
    assert.ok(item.endsWith('y   "') && item.includes('…'), item);
    assert.match(await h.text('#last-chars'), /^63 characters; 3 worth naming .*, the other 60 plain as shown above:U\+0020 space ×3$/);
  });

  test('a pasted line break is refused with a message, not turned into another string', async () => {
    const { page } = h;
    await h.create(64, 3);
    await page.fill('#insert', '');
    const paste = (text) => page.evaluate(([sel, value]) => {
      const data = new DataTransfer();
      data.setData('text/plain', value);
      const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
      document.querySelector(sel).dispatchEvent(event);
      return event.defaultPrevented;
    }, ['#insert', text]);
    assert.equal(await paste('first line\r\nsecond line\nthird'), true);
    await h.waitText('#ops-msg', /^The pasted text has 2 line breaks, which a one-line field cannot hold, so nothing was pasted/);
    assert.equal(await page.inputValue('#insert'), '');
    assert.equal(await page.getAttribute('#insert', 'aria-invalid'), 'true');
    // One line pastes as usual (the browser inserts it: the page does not stop it).
    assert.equal(await paste('one line'), false);
    await everyView(h, async (width, scheme) => {
      const box = await page.evaluate(boxes, ['#ops-msg']);
      assert.ok(box['#ops-msg'] && box['#ops-msg'].right <= width, `${width} ${scheme}: ${JSON.stringify(box)}`);
    });
    // Typing again clears the error about the refused paste.
    await h.typeInto('#insert', 'x');
    await h.until('the paste error cleared', () => document.querySelector('#ops-msg').textContent === '');
    assert.equal(await page.getAttribute('#insert', 'aria-invalid'), null);
  });

  test('the example at 1020 entries, and a link of 1025: messages that say what would happen', async () => {
    const { page } = h;
    const entries = Array.from({ length: 1020 }, (_, i) => `e${i}`);
    await page.goto(`${page.url().split('#')[0]}${shareFragment(64, 1, entries)}`);
    await h.waitText('#n', /^1020$/);
    await page.click('#example');
    await h.waitText('#state-msg', /^The example would take the filter past 1024 distinct strings, the most it keeps: it holds 1020, and a…h would add 8 new ones\. Nothing was inserted\.$/);
    await h.waitText('#n', /^1020$/);
    const over = Array.from({ length: 1025 }, (_, i) => `f${i}`);
    await page.goto(`${page.url().split('#')[0]}${shareFragment(64, 1, over)}`);
    await h.waitText('#notice', /^The link was not restored, the filter is unchanged: the link lists more than 1024 entries, the most a filter keeps\.$/);
    await h.waitText('#n', /^1020$/);
    await fitsEveryView(h);
  });

  test('plain words: no ranges as a..=b, no parser jargon, no document sections', async () => {
    const { page } = h;
    await h.create(64, 3);
    await h.submit('#insert', 'a');
    await h.waitText('#last-outcome', /new distinct entry/);
    if (!(await page.$eval('#positions-panel', (d) => d.open))) await page.click('#positions-panel summary');
    await h.waitCount('#positions-body tbody tr', 3);
    const exported = await page.evaluate(() => window.bloomproofExplorer.exportText());
    const tries = [
      ['cut.json', '{"format": "bloomproof-session", "version": 1, "x": "abc', /cut\.json: The file is not valid JSON \(.*the text ends inside a string \(a closing quote is missing\)/],
      ['m.json', exported.replace('"m":64', '"m":2000').replace('"m":"64"', '"m":"2000"'), /m\.json: The file is not a valid session: params\.m = 2000 is out of range: must be an integer in 8 to 1024\./],
      ['v2.json', exported.replace('"version": 1', '"version": 2'), /v2\.json: This page reads session files of format version 1 only; this one is version 2 \(perhaps written by a newer version of the page\)\./],
    ];
    for (const [name, text, pattern] of tries) {
      await page.setInputFiles('#import-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
      await h.waitText('#session-msg', pattern);
      const words = await page.$eval('main', (node) => node.textContent);
      assert.doesNotMatch(words, /\.\.=|SESSION\.md|EOF while|`/, name);
    }
    await fitsEveryView(h);
  });

  test('index.html opened as a file says to open bloomproof-explorer.html; served, it says nothing', async () => {
    assert.equal(await h.page.$('#boot-hint'), null);
    const single = new Harness(null);
    await single.open();
    try {
      await single.page.goto(pathToFileURL(path.join(SITE, 'index.html')).href);
      for (const scheme of SCHEMES) {
        await single.page.emulateMedia({ colorScheme: scheme });
        for (const width of WIDTHS) {
          await single.page.setViewportSize({ width, height: 900 });
          await single.page.locator('#boot-hint').waitFor({ state: 'visible', ...WAIT });
          assert.match(await single.text('#boot-hint'), /Open bloomproof-explorer\.html, in the same folder, instead/);
          const box = await single.page.evaluate(boxes, ['#boot-hint']);
          assert.ok(box['#boot-hint'].bottom <= 900 && box['#boot-hint'].right <= width, JSON.stringify(box));
        }
      }
    } finally {
      await single.close();
    }
  });

  test('the plot: the three estimates apart in the difference view, n and the observed rate marked in each view', async () => {
    const { page } = h;
    await h.create(64, 3);
    await page.click('#example');
    await h.submit('#query', 'i');
    await h.submit('#query', 'zz');
    await h.waitText('#neg', /^[12]$/);
    const spread = () => page.evaluate(() => {
      const d = (name) => document.querySelector(`#plot-area path[data-series="${name}"]`).getAttribute('d');
      return { classic: d('classic'), finite_m: d('finite_m'), exact: d('exact') };
    });
    const apart = (paths, name) => {
      const a = pathYs(paths.classic);
      const b = pathYs(paths[name]);
      return Math.max(...a.map((y, i) => Math.abs(y - b[i])));
    };
    await everyView(h, async (width, scheme) => {
      for (const mode of ['linear', 'log', 'difference']) {
        await page.selectOption('#plot-mode', mode);
        await h.waitText('#plot-caption', mode === 'linear' ? /linear scale/ : mode === 'log' ? /log scale/ : /minus the classic one/);
        if (width === 1280 && mode !== 'linear') await assertAxeClean(page, `${scheme}: the plot's ${mode} view`);
        await h.waitCount('#plot-area line.current', 1);
        await h.waitCount('#plot-area path.observed', 1);
        await h.waitText('#plot-caption', /At n = 8: classic/);
        const paths = await spread();
        if (mode === 'linear') {
          // The problem the other views answer: on a linear scale the curves lie on one line.
          assert.ok(apart(paths, 'finite_m') < 4, `${width} ${scheme}: linear ${apart(paths, 'finite_m')}`);
        }
        // No label overlaps another (the rotated axis label and the ticks included), and
        // none sticks out of the plot (a minus sign cut off at its left edge).
        assert.deepEqual(await page.evaluate(overlappingLabels, '#plot-area text'), [], `${width} ${scheme} ${mode}: labels overlap`);
        assert.deepEqual(await page.evaluate(outside, ['#plot-area text', '#plot-area svg']), [], `${width} ${scheme} ${mode}: labels outside the plot`);
        if (mode === 'difference') {
          // Round ticks: equal steps of 1, 2 or 5 times a power of ten, 0 among them,
          // negative ones with a minus sign.
          const ticks = await page.evaluate(() => {
            const texts = [...document.querySelectorAll('#plot-area text.tick')].filter((n) => n.getAttribute('text-anchor') === 'end');
            return texts.map((n) => n.textContent);
          });
          const values = ticks.map((t) => Number(t.replace('\u2212', '-').replace('e\u2212', 'e-')));
          assert.ok(values.every(Number.isFinite), `${width} ${scheme}: tick labels ${JSON.stringify(ticks)}`);
          assert.ok(values.includes(0), `${width} ${scheme}: no 0 tick in ${JSON.stringify(ticks)}`);
          assert.ok(ticks.every((t, i) => (values[i] < 0) === t.startsWith('\u2212') && !t.includes('-')), `${width} ${scheme}: minus signs in ${JSON.stringify(ticks)}`);
          const steps = values.slice(1).map((v, i) => Math.abs(v - values[i]));
          const step = steps[0];
          assert.ok(steps.every((d) => Math.abs(d - step) <= step * 1e-9), `${width} ${scheme}: unequal steps ${JSON.stringify(ticks)}`);
          const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
          assert.ok([1, 2, 5].some((f) => Math.abs(mantissa - f) < 1e-6), `${width} ${scheme}: step ${step} of ${JSON.stringify(ticks)} is not 1, 2 or 5 × 10^n`);
          assert.ok(ticks.every((t) => t.length <= 8), `${width} ${scheme}: long tick labels ${JSON.stringify(ticks)}`);
          assert.ok(apart(paths, 'finite_m') >= 30, `${width} ${scheme}: finite m ${apart(paths, 'finite_m')} px from classic`);
          assert.ok(apart(paths, 'exact') >= 30, `${width} ${scheme}: exact ${apart(paths, 'exact')} px from classic`);
          assert.ok(Math.abs(apart(paths, 'exact') - apart(paths, 'finite_m')) >= 5, `${width} ${scheme}: exact and finite m apart`);
        }
      }
      await page.selectOption('#plot-mode', 'linear');
    });
  });

  test('layout: m and k labels level, legend keys together, fields the same width, notes and values aligned, every bad field flagged', async () => {
    const { page } = h;
    await h.create(64, 3);
    await h.submit('#insert', 'a');
    await h.waitText('#last-outcome', /new distinct entry/);
    for (const panel of ['#positions-panel', '#model-panel']) {
      if (!(await page.$eval(panel, (d) => d.open))) await page.click(`${panel} summary`);
      await h.waitOpen(panel, true);
    }
    await h.waitCount('#model-body .pairs dd', 7);
    await everyView(h, async (width, scheme) => {
      const where = `${width} ${scheme}`;
      const seen = await page.evaluate(() => {
        const r = (node) => node.getBoundingClientRect();
        return {
          labels: ['m', 'k'].map((id) => r(document.querySelector(`label[for="${id}"]`)).height),
          keys: [...document.querySelectorAll('.legend .key')].filter((key) => key.querySelector('.cell')).map((key) => {
            const cell = r(key.querySelector('.cell'));
            const range = document.createRange();
            range.selectNodeContents(key);
            const text = [...range.getClientRects()].filter((rect) => rect.left >= cell.right - 1)[0];
            return { gap: text ? text.left - cell.right : null, level: text ? Math.abs((text.top + text.bottom) / 2 - (cell.top + cell.bottom) / 2) : null };
          }),
          fields: ['#insert', '#query'].map((sel) => r(document.querySelector(sel)).width),
          note: [getComputedStyle(document.querySelector('#positions-body th.note')).textAlign, getComputedStyle(document.querySelector('#positions-body td.note')).textAlign],
          values: [...document.querySelectorAll('#model-body .pairs div')].map((row) => r(row).right - r(row.querySelector('dd')).right),
          valueAlign: [...document.querySelectorAll('#model-body .pairs dd')].map((dd) => getComputedStyle(dd).textAlign),
        };
      });
      assert.ok(Math.abs(seen.labels[0] - seen.labels[1]) < 0.5, `${where}: label heights ${seen.labels}`);
      assert.equal(seen.keys.length, 3, where);
      for (const key of seen.keys) assert.ok(key.gap !== null && key.gap >= 0 && key.gap <= 12 && key.level <= 8, `${where}: ${JSON.stringify(seen.keys)}`);
      assert.ok(Math.abs(seen.fields[0] - seen.fields[1]) < 0.5, `${where}: field widths ${seen.fields}`);
      assert.deepEqual(seen.note, ['left', 'left'], where);
      assert.ok(seen.values.every((gap) => Math.abs(gap) <= 1), `${where}: values end ${seen.values} px from their row's end`);
      assert.ok(seen.valueAlign.every((align) => align === 'right'), `${where}: ${seen.valueAlign}`);
    });
    // Both bad fields are flagged, and both named.
    await page.fill('#m', 'x');
    await page.fill('#k', '99');
    await page.click('#create');
    await h.waitText('#filter-msg', /^m must be a whole number from 8 to 1024, written with the digits 0 to 9 only.*k must be a whole number from 1 to 12\.$/);
    assert.equal(await page.getAttribute('#m', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#k', 'aria-invalid'), 'true');
    // Fixing one leaves the other flagged; fixing both clears the error.
    await h.typeInto('#m', '64');
    assert.equal(await page.getAttribute('#k', 'aria-invalid'), 'true');
    await h.typeInto('#k', '3');
    await h.until('the error gone once both fields changed', () => document.querySelector('#filter-msg').textContent === '');
    assert.equal(await page.getAttribute('#m', 'aria-invalid'), null);
  });

  test('a lone surrogate in a field: the export writes U+FFFD, and the page says why beside Export', async () => {
    const { page } = h;
    await h.create(64, 3);
    await page.locator('#export-note').waitFor({ state: 'hidden', ...WAIT });
    await h.paste('#query', [0x71, 0xdc00]);
    await h.waitText('#export-note', /^The query field holds a lone surrogate.*the export writes U\+FFFD .* this browser's own copy keeps the field as typed/);
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#export')]);
    const file = path.join(h.downloads, 'surrogate.json');
    await download.saveAs(file);
    assert.equal(JSON.parse(await readFile(file, 'utf8')).drafts.query, 'q\ufffd');
    await everyView(h, async (width) => {
      const box = await page.evaluate(boxes, ['#export-note', '#export']);
      assert.ok(box['#export-note'].right <= width && box['#export-note'].top - box['#export'].bottom < 40, JSON.stringify(box));
    }, [375, 1920]);
    await h.paste('#query', [0x71]);
    await page.locator('#export-note').waitFor({ state: 'hidden', ...WAIT });
  });

  test('every action\'s message is in view, at 375 and 1280 px; axe finds nothing', async () => {
    const { page } = h;
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 700 });
      await h.waitLayout(width);
      const where = (what) => `${width} px: ${what}`;
      await h.create(64, 3);
      await page.click('#example');
      await h.waitText('#n', /^8$/);
      // Reset, pressed with the page scrolled as far down as it goes: its Undo offer.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.click('#reset');
      await h.waitText('#state-msg', /^Reset emptied the filter of its 8 entries\. Undo$/);
      await waitInView(h, '#state-msg', where('Reset'));
      await waitInView(h, '#state-msg button.undo', where('Reset\'s Undo'));
      await assertAxeClean(page, where('Reset offers Undo'));
      await page.click('#state-msg button.undo');
      await h.waitText('#state-msg', /undone/);
      await waitInView(h, '#state-msg', where('Reset undone'));
      // An edit of m discards the filter; then a…h has no filter to go into: its error.
      await h.typeInto('#m', '65');
      await h.waitText('#filter-msg', /Changing m discarded the filter and its 8 entries/);
      await waitInView(h, '#filter-msg', where('Changing m'));
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.click('#example');
      await h.waitText('#state-msg', /no filter/i);
      await waitInView(h, '#state-msg', where('the a…h error'));
      await assertAxeClean(page, where('the a…h error'));
      // A refused paste into a field that stands at the foot of the screen.
      await page.click('#create');
      await h.waitText('#filter-status', /m = 65 bits/);
      await page.evaluate(() => {
        const input = document.querySelector('#insert');
        window.scrollBy(0, input.getBoundingClientRect().bottom - window.innerHeight + 2);
      });
      const refused = await page.evaluate(() => {
        const data = new DataTransfer();
        data.setData('text/plain', 'one\ntwo');
        const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
        document.querySelector('#insert').dispatchEvent(event);
        return event.defaultPrevented;
      });
      assert.equal(refused, true);
      await h.waitText('#ops-msg', /^The pasted text has 1 line break/);
      await waitInView(h, '#ops-msg', where('the refused paste'));
      await assertAxeClean(page, where('the refused paste'));
      await h.typeInto('#insert', 'x');
      await h.until('the paste error cleared', () => document.querySelector('#ops-msg').textContent === '');
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await h.waitLayout(1280);
  });

  test('a long string\'s characters: only those worth naming, counted, the rest summed up', async () => {
    const { page } = h;
    await h.create(64, 3);
    // 256 plain characters: no chip, one line.
    await h.paste('#insert', Array.from({ length: 256 }, (_, i) => 0x61 + (i % 26)));
    await page.focus('#insert');
    await page.keyboard.press('Enter');
    await h.waitText('#last-outcome', /new distinct entry/);
    assert.equal(await h.text('#last-chars'), '256 characters, all plain.');
    await h.waitCount('#last-chars .ch', 0);
    // 100 Cyrillic letters (each passes for a Latin one or is no Latin letter), a
    // fullwidth A, a combining acute and plain letters: the first 24 runs named.
    const cyrillic = Array.from({ length: 100 }, (_, i) => 0x0410 + i);
    await h.paste('#insert', [0x61, 0xff21, 0x65, 0x301, ...cyrillic, 0x62, 0x62]);
    await page.focus('#insert');
    await page.keyboard.press('Enter');
    await h.waitText('#last-outcome', /new distinct entry/);
    await h.waitCount('#last-chars .ch', 12);
    const chips = await page.$$eval('#last-chars .ch', (nodes) => nodes.slice(0, 4).map((node) => node.textContent));
    assert.deepEqual(chips, ['Ａ U+FF21, looks like A', 'U+0301 combining mark', 'А U+0410, Cyrillic', 'Б U+0411, Cyrillic']);
    assert.match(await h.text('#last-chars'), /^106 characters; 102 worth naming \(invisible, combining, astral or look-alike\), the other 4 plain as shown above:.*and 90 more runs of named characters \(the string above has them all\)\.$/);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 700 });
      await h.waitLayout(width);
      const seen = await page.evaluate(boxes, ['#last-chars']);
      assert.ok(seen['#last-chars'].height < 400, `${width} px: the breakdown is ${seen['#last-chars'].height} px tall`);
      assert.ok(await h.scrollWidth() <= width, `${width} px: the page is wider than the screen`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await h.waitLayout(1280);
  });

  test('the hash positions table fits its box, and its box can be focused; axe finds nothing', async () => {
    const { page } = h;
    await h.create(1024, 12);
    await h.submit('#insert', `${'long-word-'.repeat(20)}end`);
    await h.waitText('#last-outcome', /new distinct entry/);
    if (!(await page.$eval('#positions-panel', (d) => d.open))) await page.click('#positions-panel summary');
    await h.waitCount('#positions-body tbody tr', 12);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 700 });
      await h.waitLayout(width);
      const fit = await page.evaluate(() => {
        const box = document.querySelector('#positions-body .tablebox');
        const table = box.querySelector('table').getBoundingClientRect();
        const panel = document.querySelector('#positions-body').getBoundingClientRect();
        return { scroll: box.scrollWidth, client: box.clientWidth, table: table.right, panel: panel.right, tabindex: box.getAttribute('tabindex') };
      });
      assert.ok(fit.scroll <= fit.client && fit.table <= fit.panel + 0.5, `${width} px: ${JSON.stringify(fit)}`);
      assert.equal(fit.tabindex, '0');
      await page.focus('#positions-body .tablebox');
      assert.equal(await page.evaluate(() => document.activeElement.classList.contains('tablebox')), true);
      await assertAxeClean(page, `${width} px: the hash positions table`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await h.waitLayout(1280);
  });

  test('a stale Undo is withdrawn; a newer offer replaces an older one; errors clear when their cause is gone', async () => {
    const { page } = h;
    await h.exampleThenEdit('#k', '4');
    await h.waitCount('#filter-msg button.undo', 1);
    // A new filter and two strings: the old Undo would throw them away, so it goes.
    await page.click('#create');
    await h.waitText('#filter-status', /m = 64 bits, k = 4 /);
    await h.submit('#insert', 'one');
    await h.submit('#insert', 'two');
    await h.waitText('#n', /^2$/);
    await h.waitCount('#filter-msg button.undo', 0);
    await h.waitText('#filter-msg', /Undo is no longer offered: the filter has changed since/);
    // A newer offer (Reset) takes the place of an older one (Create over entries).
    await page.click('#create');
    await h.waitText('#filter-msg', /Create started an empty filter; the previous one had 2 entries/);
    await h.waitCount('#filter-msg button.undo', 1);
    await page.click('#example');
    await h.waitText('#n', /^8$/);
    await h.waitCount('#filter-msg button.undo', 0);
    await page.click('#reset');
    await h.waitText('#state-msg', /Reset emptied the filter of its 8 entries/);
    await h.waitCount('#state-msg button.undo', 1);
    await page.click('#state-msg button.undo');
    await h.waitText('#n', /^8$/);
    // Errors: an operation refused for want of a filter, then a filter: the error goes.
    await h.typeInto('#m', '65');
    await h.waitText('#filter-status', /No active filter/);
    await h.submit('#query', 'q');
    await h.waitText('#ops-msg', /There is no filter yet/);
    await page.click('#create');
    await h.waitText('#filter-status', /m = 65 bits/);
    await h.until('the stale error gone', () => !document.querySelector('#ops-msg').classList.contains('error'));
    // A link and a file that were refused: their errors go with the next accepted change.
    await page.fill('#restore-link', 'http://127.0.0.1/#share=%%%');
    await page.click('#restore');
    await h.waitText('#share-msg', /not base64url/);
    await page.setInputFiles('#import-file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{') });
    await h.waitText('#session-msg', /bad\.json: The file is not valid JSON/);
    await h.submit('#insert', 'accepted');
    await h.waitText('#last-outcome', /new distinct entry/);
    await h.until('the refused link\'s and file\'s errors gone',
      () => ['#share-msg', '#session-msg'].every((sel) => !document.querySelector(sel).classList.contains('error')));
    await fitsEveryView(h);
  });

  test('another tab\'s save is noticed: this tab saves nothing until the person chooses', async () => {
    const { page } = h;
    await h.create(64, 3);
    await h.submit('#insert', 'from-this-tab');
    await h.idle();
    await h.server.up();
    const other = await h.context.newPage();
    await other.goto(h.server.url);
    await other.waitForFunction(() => document.documentElement.dataset.idle === 'true', null, WAIT);
    await h.server.down();
    const submit = async (p, sel, value) => {
      await p.fill(sel, value);
      await p.focus(sel);
      await p.keyboard.press('Enter');
    };
    try {
      await submit(other, '#insert', 'from-the-other-tab');
      await other.waitForFunction(() => document.querySelector('#n').textContent === '2', null, WAIT);
      await other.waitForFunction(() => document.documentElement.dataset.idle === 'true', null, WAIT);
      await h.waitText('#other-tab', /^Another tab of this page saved a different session \(m = 64, k = 3, 2 entries\)/);
      // Shown where the person works: in view wherever the page is scrolled, at 375 and
      // 1280 px, and said again at the next change.
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 700 });
        await h.waitLayout(width);
        await page.evaluate(() => document.querySelector('#plot').scrollIntoView());
        await waitInView(h, '#other-tab', `${width} px, scrolled to the plot`);
        await waitInView(h, '#other-tab-load', `${width} px, scrolled to the plot`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await h.waitLayout(1280);
      // This tab goes on working, but does not save over the other tab's copy.
      await h.submit('#insert', 'meanwhile');
      await h.waitText('#n', /^2$/);
      await h.idle();
      await h.waitText('#other-tab-unsaved', /^1 change in this tab not saved yet: choose to save\.$/);
      await waitInView(h, '#other-tab', 'after the next change');
      const stored = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
      assert.ok(stored.includes('from-the-other-tab') && !stored.includes('meanwhile'));
      await h.waitText('#save-status', /Not saved in this browser yet/);
      // Load it: the other tab's entries, with an Undo.
      await page.click('#other-tab-load');
      await h.waitText('#notice', /Imported the other tab's session/);
      await h.waitText('#n', /^2$/);
      assert.deepEqual((await h.view()).history.map((item) => item.display).slice(0, 2), ['"from-the-other-tab"', '"from-this-tab"']);
      await page.locator('#other-tab').waitFor({ state: 'hidden', ...WAIT });
      // Keep this one: it is saved over the other's, and the other tab is asked in turn.
      await submit(other, '#insert', 'second-from-other');
      await h.waitText('#other-tab', /Another tab of this page saved a different session \(m = 64, k = 3, 3 entries\)/);
      await everyView(h, async (width, scheme) => {
        if (width === 1920) await assertAxeClean(page, `${scheme}: another tab's save noticed`);
        const box = await page.evaluate(boxes, ['#other-tab']);
        assert.ok(box['#other-tab'] && box['#other-tab'].right <= width && box['#other-tab'].top < 900, JSON.stringify(box));
      }, [375, 1920]);
      await page.click('#other-tab-keep');
      await h.idle();
      await h.until('this tab\'s session saved', (key) => {
        const text = localStorage.getItem(key);
        return text === window.bloomproofExplorer.exportText();
      }, STORAGE_KEY);
      await other.waitForFunction(() => /Another tab of this page saved a different session/.test(document.querySelector('#other-tab').textContent), null, WAIT);
    } finally {
      await other.close();
    }
  });

  test('an unreadable saved copy can be downloaded before anything overwrites it', async () => {
    const { page } = h;
    await h.create(64, 3);
    await h.submit('#insert', 'kept');
    await h.idle();
    const newer = (await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY)).replace('"version": 1', '"version": 7');
    await page.evaluate(([key, text]) => localStorage.setItem(key, text), [STORAGE_KEY, newer]);
    await h.reload();
    await h.waitText('#saved-copy', /could not be read: This page reads session files of format version 1 only; this one is version 7.*nothing is saved over it until you choose/);
    await h.create(8, 1);
    await h.submit('#insert', 'new work');
    await h.idle();
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY), newer);
    await everyView(h, async (width, scheme) => {
      if (width === 1920) await assertAxeClean(page, `${scheme}: an unreadable saved copy`);
      const box = await page.evaluate(boxes, ['#saved-copy']);
      assert.ok(box['#saved-copy'] && box['#saved-copy'].right <= width, JSON.stringify(box));
    }, [375, 1920]);
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#saved-copy-download')]);
    const file = path.join(h.downloads, 'saved-copy.json');
    await download.saveAs(file);
    assert.equal(await readFile(file, 'utf8'), newer);
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY), newer);
    await page.click('#saved-copy-replace');
    await h.idle();
    await h.until('the new session saved', (key) => localStorage.getItem(key) === window.bloomproofExplorer.exportText(), STORAGE_KEY);
    await page.locator('#saved-copy').waitFor({ state: 'hidden', ...WAIT });
    assert.deepEqual(h.problems, []);
  });
});
