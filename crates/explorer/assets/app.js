// The explorer page. It holds no rule of the filter: every change is an
// operation sent to the local bloomproof server with the current session, and
// the page renders the view that comes back (see crates/explorer/src/lib.rs).
'use strict';

(() => {
  const STORAGE_KEY = 'bloomproof-explorer-session';
  const DRAFT_FIELDS = ['m', 'k', 'insert', 'query'];
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const $ = (id) => document.getElementById(id);

  /** The current session's export text (null before the first answer). */
  let sessionText = null;
  /** The current view. */
  let view = null;
  /** The session before the last restore from a link, for Undo. */
  let undoText = null;

  // ---------------------------------------------------------------- helpers

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === 'class') node.className = value;
      else if (name === 'text') node.textContent = value;
      else node.setAttribute(name, value);
    }
    for (const child of children) {
      if (child !== null && child !== undefined) {
        node.append(child instanceof Node ? child : String(child));
      }
    }
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** A string as the session model's Text: the string itself, or its UTF-16
   * code units when it holds an unpaired surrogate (which JSON text cannot carry). */
  function toText(value) {
    if (typeof value.isWellFormed === 'function' && value.isWellFormed()) return value;
    const units = [];
    for (let i = 0; i < value.length; i += 1) units.push(value.charCodeAt(i));
    return units;
  }

  function number(value) {
    if (value === 0) return '0';
    if (value === 1) return '1';
    if (Math.abs(value) < 1e-4) return value.toExponential(3);
    return String(Number(value.toPrecision(4)));
  }

  function plural(count, one, many) {
    return `${count} ${count === 1 ? one : many}`;
  }

  const OUTCOME_TEXT = {
    new: 'inserted: new distinct entry (counters reset)',
    duplicate: 'already inserted: nothing changed',
    definitely_absent: 'definitely absent (a bit is 0)',
    false_positive: 'maybe present, but never inserted: false positive',
    truly_present: 'maybe present, and truly present',
  };

  function outcomeText(outcome) {
    return OUTCOME_TEXT[outcome] || outcome;
  }

  /** `data-idle` is "true" when nothing the user started is still to happen:
   * no operation queued or running (each saves before it ends), no estimates
   * being fetched, no re-layout after a resize waiting. The browser test waits
   * on it; every user action that changes the session makes it "false" in the
   * same event (see the panels' click handler). */
  function setBusy() {
    const idle = queue.length === 0 && !running && !plotBusy && resizeTimer === null;
    document.documentElement.dataset.idle = String(idle);
  }

  /** Records the viewport width the grid and the plot were last laid out for
   * (`data-layout-width`), so that a test can wait for the layout of a width. */
  function markLayout() {
    document.documentElement.dataset.layoutWidth = String(window.innerWidth);
  }

  // ---------------------------------------------------------------- server calls

  async function call(path, options) {
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      return {
        ok: false,
        error: {
          kind: 'network',
          message: 'the local bloomproof server did not answer (is `bloomproof explore` still running?)',
        },
      };
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (response.ok && data !== null) return { ok: true, data };
    const error = data && data.error
      ? data.error
      : { kind: 'http', message: `the server answered ${response.status} ${response.statusText}` };
    return { ok: false, error };
  }

  function post(path, body) {
    return call(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  // ---------------------------------------------------------------- the queue
  // Operations run one at a time, each on the session the previous one returned.

  const queue = [];
  let running = false;
  /** The job running now (null between jobs). */
  let current = null;
  /** The timer of the re-layout after a resize (null when none is waiting). */
  let resizeTimer = null;

  function enqueue(job) {
    const lastIndex = queue.length - 1;
    if (job.key && lastIndex >= 0 && queue[lastIndex].key === job.key) {
      // Typing sends one set_draft per keystroke: a newer value replaces a
      // pending one when nothing else is queued after it.
      queue[lastIndex] = job;
      return;
    }
    queue.push(job);
    setBusy();
    pump();
  }

  async function pump() {
    if (running) return;
    running = true;
    setBusy();
    while (queue.length > 0) {
      const job = queue.shift();
      current = job;
      try {
        await job.run();
      } catch (error) {
        showMsg('ops-msg', `Unexpected error in the page: ${error}`, true);
      }
      current = null;
    }
    running = false;
    setBusy();
  }

  function draftPending(field) {
    return queue.some((job) => job.key === `draft:${field}`);
  }

  /** Whether a change of this panel is queued or running. */
  function panelPending(name) {
    const key = `panel:${name}`;
    return (current !== null && current.key === key) || queue.some((job) => job.key === key);
  }

  // ---------------------------------------------------------------- messages

  function showMsg(id, text, isError, extra) {
    const node = $(id);
    node.replaceChildren();
    node.classList.toggle('error', Boolean(isError));
    if (text) node.append(text);
    if (extra) node.append(' ', extra);
  }

  function errorText(error, prefix) {
    return `${prefix ? `${prefix} ` : ''}${error.message} [${error.kind}]`;
  }

  function setStorageWarning(text) {
    const node = $('storage-warning');
    node.textContent = text || '';
    node.hidden = !text;
  }

  // ---------------------------------------------------------------- accepting a session

  async function accept(data, options) {
    sessionText = data.session;
    view = data.view;
    render(Boolean(options && options.forceDrafts));
    await persist();
  }

  async function persist() {
    let previous = null;
    try {
      previous = localStorage.getItem(STORAGE_KEY);
    } catch (error) {
      previous = null;
    }
    if (previous === sessionText) {
      setStorageWarning(null);
      return;
    }
    const result = await post('/api/save', { state: sessionText, previous });
    if (!result.ok) {
      setStorageWarning(`The session could not be saved in this browser: ${result.error.message}`);
      return;
    }
    if (result.data.outcome === 'saved') {
      try {
        localStorage.setItem(STORAGE_KEY, result.data.stored);
        setStorageWarning(null);
        $('save-status').textContent = `Saved in this browser (${result.data.stored.length} characters).`;
      } catch (error) {
        setStorageWarning(`The browser refused to store the session (${error.name}); the previous copy is kept. Export the whole session before reloading or leaving the page.`);
      }
    } else {
      setStorageWarning(result.data.warning);
      $('save-status').textContent = 'Not saved in this browser: see the warning at the top.';
    }
  }

  /** Applies operations (all or nothing) to the current session. */
  function applyOps(ops, msgId, options) {
    const opts = options || {};
    enqueue({
      key: opts.key,
      run: async () => {
        const result = await post('/api/apply', { session: sessionText, ops });
        if (!result.ok) {
          showMsg(msgId, errorText(result.error, opts.errorPrefix), true);
          return;
        }
        showMsg(msgId, '');
        await accept(result.data, opts);
        if (opts.after) opts.after();
      },
    });
  }

  // ---------------------------------------------------------------- rendering

  function render(forceDrafts) {
    if (!view) return;
    for (const field of DRAFT_FIELDS) {
      const input = $(field);
      const value = view.drafts[field];
      const untouched = document.activeElement !== input && !draftPending(field);
      if ((forceDrafts || untouched) && input.value !== value) input.value = value;
    }
    const params = view.params;
    $('filter-status').textContent = params
      ? `Active filter: m = ${params.m} bits, k = ${params.k} ${params.k === 1 ? 'hash position' : 'hash positions'} per string.`
      : 'No active filter: enter m and k, then press Create.';
    document.body.classList.toggle('inactive', !params);
    renderLast();
    renderCounters();
    renderGrid();
    renderHistory();
    renderPanels();
    updatePlot();
    markLayout();
  }

  function renderLast() {
    const box = $('last');
    const last = view.last_operation;
    box.replaceChildren();
    if (!last) {
      box.append(el('p', { text: view.params ? 'No insertion or query yet.' : 'No active filter.' }));
      return;
    }
    const verb = last.kind === 'insert' ? 'Insert' : 'Query';
    box.append(
      el('p', {},
        el('span', { class: `badge ${last.kind}`, text: verb }), ' ',
        el('code', { class: 'str', text: last.display }), ': ',
        el('strong', { id: 'last-outcome', 'data-outcome': last.outcome, text: outcomeText(last.outcome) }), '.'),
      el('p', { class: 'hint' },
        `Positions in order: ${last.positions.map((step) => step.position).join(', ')}.`),
    );
  }

  function renderCounters() {
    $('n').textContent = String(view.distinct_entries);
    $('bits-set').textContent = view.params ? `${view.bits_set} / ${view.params.m}` : '0';
    $('neg').textContent = String(view.counters.negative_queries);
    $('fp').textContent = String(view.counters.false_positives);
    const rate = view.rate;
    $('rate').textContent = rate.state === 'defined'
      ? `${rate.false_positives}/${rate.negative_queries} = ${number(rate.value)}`
      : 'undefined (no query of an absent string yet)';
  }

  let gridShape = '';

  function gridColumns(m) {
    const section = $('bits');
    const sample = document.querySelector('.legend .cell');
    const pitch = (sample ? sample.getBoundingClientRect().width : 28) + 2;
    const label = 40;
    const available = section.clientWidth - label - 16;
    let cols = Math.max(1, Math.min(64, m, Math.floor(available / pitch)));
    if (cols >= 8 && cols < m) cols -= cols % 8;
    return cols;
  }

  function renderGrid() {
    const grid = $('bitgrid');
    const box = $('bitbox');
    if (!view.params || view.bits === null) {
      grid.replaceChildren();
      gridShape = '';
      box.hidden = true;
      $('bits-summary').textContent = 'No active filter.';
      return;
    }
    box.hidden = false;
    const m = view.params.m;
    const cols = gridColumns(m);
    const shape = `${m}x${cols}`;
    if (shape !== gridShape) {
      gridShape = shape;
      grid.replaceChildren();
      grid.style.gridTemplateColumns = `auto repeat(${cols}, var(--cell))`;
      for (let position = 0; position < m; position += 1) {
        if (position % cols === 0) grid.append(el('span', { class: 'rowlabel', text: String(position) }));
        grid.append(el('span', { class: 'cell', 'data-position': String(position) }));
      }
    }
    const last = view.last_operation;
    const marks = new Map();
    if (last) {
      for (const step of last.positions) {
        if (!marks.has(step.position)) marks.set(step.position, []);
        marks.get(step.position).push(step.index);
      }
    }
    const cells = grid.querySelectorAll('.cell');
    cells.forEach((cell, position) => {
      const bit = view.bits[position];
      const indices = marks.get(position);
      cell.textContent = bit;
      cell.dataset.bit = bit;
      cell.classList.toggle('set', bit === '1');
      cell.classList.toggle('mark', Boolean(indices));
      cell.title = indices
        ? `bit ${position} = ${bit}; position of the last ${last.kind} (i = ${indices.join(', ')})`
        : `bit ${position} = ${bit}`;
    });
    const rows = Math.ceil(m / cols);
    const used = last
      ? ` The last ${last.kind} (${last.display}) used ${last.positions.length === 1 ? 'position' : 'positions'} ${last.positions.map((step) => step.position).join(', ')}, marked.`
      : '';
    $('bits-summary').textContent = `${view.bits_set} of ${m} bits set, ${cols} per row.${used}${rows > 12 ? ' Scroll inside the box for every row.' : ''}`;
  }

  function renderHistory() {
    const list = $('history-list');
    list.replaceChildren();
    for (const item of view.history) {
      list.append(el('li', { class: `outcome-${item.outcome}` },
        el('span', { class: `badge ${item.kind}`, text: item.kind }), ' ',
        el('code', { class: 'str', text: item.display }), ' → ',
        outcomeText(item.outcome)));
    }
    $('history-empty').hidden = view.history.length > 0;
  }

  function renderPanels() {
    for (const name of ['positions', 'model']) {
      const details = $(`${name}-panel`);
      // A change the user asked for and the session has not seen yet wins.
      if (!panelPending(name) && details.open !== view.panels[name]) details.open = view.panels[name];
    }
    const positions = $('positions-body');
    positions.replaceChildren();
    const last = view.last_operation;
    if (!last) {
      positions.append(el('p', { text: view.params ? 'No insertion or query yet.' : 'No active filter.' }));
    } else {
      const table = el('table', {},
        el('caption', {}, `${last.kind === 'insert' ? 'Insert' : 'Query'} `, el('code', { class: 'str', text: last.display }),
          `: ${plural(last.positions.length, 'position', 'positions')} (h1 + i·h2) mod m, in order`),
        el('thead', {}, el('tr', {},
          el('th', { scope: 'col', text: 'i' }),
          el('th', { scope: 'col', text: 'position' }),
          el('th', { scope: 'col', text: 'before' }),
          el('th', { scope: 'col', text: 'after' }))));
      const body = el('tbody');
      for (const step of last.positions) {
        const changed = step.before !== step.after;
        body.append(el('tr', changed ? { class: 'changed' } : {},
          el('td', { text: String(step.index) }),
          el('td', { text: String(step.position) }),
          el('td', { text: step.before ? '1' : '0' }),
          el('td', { text: `${step.after ? '1' : '0'}${changed ? ' (set now)' : ''}` })));
      }
      table.append(body);
      positions.append(table);
      const seen = new Set(last.positions.map((step) => step.position));
      if (seen.size < last.positions.length) {
        positions.append(el('p', { class: 'hint', text: 'Some positions repeat: each is listed in order; "before" is the bit before the whole operation.' }));
      }
    }
    const model = $('model-body');
    model.replaceChildren();
    const e = view.estimates;
    if (!view.params || !e) {
      model.append(el('p', { text: 'No active filter.' }));
      return;
    }
    const rows = [
      ['m, k, n', `${e.m}, ${e.k}, ${e.n}`],
      ['Classic (1 − e^(−kn/m))^k', number(e.classic)],
      ['Finite m (1 − (1 − 1/m)^(kn))^k', number(e.finite_m)],
      ['Exact under ideal hashing E[(X/m)^k]', number(e.exact)],
      ['Optimal k for this m and n (classic)', String(e.optimal_k)],
    ];
    if (last) {
      rows.push(['h1 of the last string', `${last.h1} (0x${last.h1.toString(16).padStart(8, '0')})`]);
      rows.push(['h2 of the last string (odd)', `${last.h2} (0x${last.h2.toString(16).padStart(8, '0')})`]);
    } else {
      rows.push(['h1, h2', 'shown after an insertion or query']);
    }
    const dl = el('dl', { class: 'pairs' });
    for (const [term, value] of rows) dl.append(el('div', {}, el('dt', { text: term }), el('dd', { text: value })));
    model.append(dl, el('p', { class: 'hint', text: 'All three assume ideal independent uniform hashes; none is the exact rate of this finite deterministic filter.' }));
  }

  // ---------------------------------------------------------------- the plot

  let plotKey = '';
  let plotData = null;
  /** The series the page wants next ({m, k, n, key}), fetched one at a time. */
  let plotWanted = null;
  let plotBusy = false;

  function updatePlot() {
    const caption = $('plot-caption');
    const area = $('plot-area');
    if (!view || !view.params) {
      plotKey = '';
      plotData = null;
      plotWanted = null;
      area.replaceChildren();
      caption.textContent = 'No active filter.';
      return;
    }
    const { m, k } = view.params;
    const n = view.distinct_entries;
    const key = `${m}/${k}/${n}`;
    if (key === plotKey) {
      drawPlot();
      return;
    }
    plotWanted = { m, k, n, key };
    if (!plotBusy) plotLoop();
  }

  async function plotLoop() {
    plotBusy = true;
    setBusy();
    while (plotWanted) {
      const want = plotWanted;
      plotWanted = null;
      const result = await call(`/api/estimates?m=${want.m}&k=${want.k}&n=${want.n}`, { method: 'GET' });
      if (plotWanted) continue;
      if (!view || !view.params) break;
      if (!result.ok) {
        $('plot-caption').textContent = `The estimates could not be computed: ${result.error.message}`;
        continue;
      }
      plotData = result.data;
      plotKey = want.key;
      drawPlot();
    }
    plotBusy = false;
    setBusy();
  }

  /** An SVG path through the points (x increasing): straight segments when
   * they are dense, else a monotone cubic (Fritsch-Carlson) that never
   * overshoots between the computed values. */
  function monotonePath(points) {
    const count = points.length;
    const fmt = (value) => value.toFixed(1);
    if (count === 0) return '';
    if (count < 3 || count > 40) {
      return points.map(([px, py], index) => `${index === 0 ? 'M' : 'L'}${fmt(px)},${fmt(py)}`).join(' ');
    }
    const secants = [];
    for (let i = 0; i < count - 1; i += 1) {
      const dx = points[i + 1][0] - points[i][0];
      secants.push(dx === 0 ? 0 : (points[i + 1][1] - points[i][1]) / dx);
    }
    const tangents = points.map((_, i) => {
      if (i === 0) return secants[0];
      if (i === count - 1) return secants[count - 2];
      const a = secants[i - 1];
      const b = secants[i];
      return a * b <= 0 ? 0 : (a + b) / 2;
    });
    for (let i = 0; i < count - 1; i += 1) {
      if (secants[i] === 0) {
        tangents[i] = 0;
        tangents[i + 1] = 0;
        continue;
      }
      const alpha = tangents[i] / secants[i];
      const beta = tangents[i + 1] / secants[i];
      const norm = alpha * alpha + beta * beta;
      if (norm > 9) {
        const tau = 3 / Math.sqrt(norm);
        tangents[i] = tau * alpha * secants[i];
        tangents[i + 1] = tau * beta * secants[i];
      }
    }
    let d = `M${fmt(points[0][0])},${fmt(points[0][1])}`;
    for (let i = 0; i < count - 1; i += 1) {
      const [x0, y0] = points[i];
      const [x1, y1] = points[i + 1];
      const h = (x1 - x0) / 3;
      d += ` C${fmt(x0 + h)},${fmt(y0 + tangents[i] * h)} ${fmt(x1 - h)},${fmt(y1 - tangents[i + 1] * h)} ${fmt(x1)},${fmt(y1)}`;
    }
    return d;
  }

  function niceStep(span, ticks) {
    const raw = span / ticks;
    const power = 10 ** Math.floor(Math.log10(raw));
    for (const factor of [1, 2, 5, 10]) {
      if (factor * power >= raw) return Math.max(1, factor * power);
    }
    return Math.max(1, 10 * power);
  }

  function drawPlot() {
    const area = $('plot-area');
    const caption = $('plot-caption');
    if (!plotData || !view || !view.params) return;
    const data = plotData;
    const width = Math.max(280, Math.floor(area.clientWidth));
    const height = Math.round(Math.min(300, Math.max(220, width * 0.4)));
    const margin = { left: 48, right: 14, top: 16, bottom: 40 };
    const plotW = width - margin.left - margin.right;
    const plotH = height - margin.top - margin.bottom;
    const x = (n) => margin.left + (n / data.n_max) * plotW;
    const y = (v) => margin.top + (1 - v) * plotH;
    const root = svg('svg', {
      viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-labelledby': 'plot-svg-title plot-svg-desc', class: 'plot',
    });
    const n = data.n;
    const current = n === view.distinct_entries;
    const at = data.points.find((point) => point.n === n);
    root.append(svg('title', { id: 'plot-svg-title' }, `Ideal-model false-positive estimates against n for m = ${data.m}, k = ${data.k}`));
    root.append(svg('desc', { id: 'plot-svg-desc' }, caption.textContent));
    for (const v of [0, 0.25, 0.5, 0.75, 1]) {
      root.append(svg('line', { x1: margin.left, x2: width - margin.right, y1: y(v), y2: y(v), class: 'gridline' }));
      root.append(svg('text', { x: margin.left - 6, y: y(v) + 4, class: 'tick', 'text-anchor': 'end' }, String(v)));
    }
    const step = niceStep(data.n_max, width < 420 ? 4 : 8);
    for (let tick = 0; tick <= data.n_max; tick += step) {
      root.append(svg('line', { x1: x(tick), x2: x(tick), y1: margin.top + plotH, y2: margin.top + plotH + 4, class: 'axis' }));
      root.append(svg('text', { x: x(tick), y: margin.top + plotH + 16, class: 'tick', 'text-anchor': 'middle' }, String(tick)));
    }
    root.append(svg('line', { x1: margin.left, x2: width - margin.right, y1: margin.top + plotH, y2: margin.top + plotH, class: 'axis' }));
    root.append(svg('line', { x1: margin.left, x2: margin.left, y1: margin.top, y2: margin.top + plotH, class: 'axis' }));
    root.append(svg('text', { x: margin.left + plotW / 2, y: height - 6, class: 'axislabel', 'text-anchor': 'middle' }, 'n, distinct entries'));
    root.append(svg('text', { x: 12, y: margin.top + plotH / 2, class: 'axislabel', 'text-anchor': 'middle', transform: `rotate(-90 12 ${margin.top + plotH / 2})` }, 'rate'));
    for (const series of ['classic', 'finite_m', 'exact']) {
      const d = monotonePath(data.points.map((point) => [x(point.n), y(point[series])]));
      root.append(svg('path', { d, class: `series ${series}` }));
    }
    const xn = x(n);
    root.append(svg('line', { x1: xn, x2: xn, y1: margin.top, y2: margin.top + plotH, class: 'current' }));
    const labelRight = xn < margin.left + plotW * 0.7;
    root.append(svg('text', { x: xn + (labelRight ? 5 : -5), y: margin.top + 12, class: 'marklabel', 'text-anchor': labelRight ? 'start' : 'end' }, `n = ${n}`));
    if (current && view.rate.state === 'defined') {
      const yo = y(view.rate.value);
      const s = 6;
      root.append(svg('path', { d: `M${xn},${yo - s} L${xn + s},${yo} L${xn},${yo + s} L${xn - s},${yo} Z`, class: 'observed' }));
      root.append(svg('text', { x: xn + (labelRight ? 9 : -9), y: yo + (view.rate.value > 0.85 ? 16 : -8), class: 'marklabel', 'text-anchor': labelRight ? 'start' : 'end' },
        `observed ${view.rate.false_positives}/${view.rate.negative_queries}`));
    }
    area.replaceChildren(root);
    const parts = [`m = ${data.m}, k = ${data.k}, n from 0 to ${data.n_max}.`];
    if (at) parts.push(`At n = ${n}: classic ${number(at.classic)}, finite m ${number(at.finite_m)}, exact ${number(at.exact)}.`);
    if (current) parts.push(view.rate.state === 'defined'
      ? `Observed rate ${view.rate.false_positives}/${view.rate.negative_queries} = ${number(view.rate.value)} (diamond).`
      : 'Observed rate undefined (no negative query yet).');
    caption.textContent = parts.join(' ');
    root.querySelector('desc').textContent = caption.textContent;
  }

  // ---------------------------------------------------------------- session: export, import, share

  function exportSession() {
    if (sessionText === null) return;
    const blob = new Blob([sessionText], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const params = view && view.params ? `-m${view.params.m}-k${view.params.k}` : '';
    const link = el('a', { href: url, download: `bloomproof-session${params}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    showMsg('session-msg', 'Session exported as a JSON file.', false);
  }

  function importFile(file) {
    enqueue({
      run: async () => {
        const result = await call('/api/import', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: file,
        });
        if (!result.ok) {
          const message = result.error.kind === 'network'
            ? 'the file could not be sent (a file over 2 MiB is refused before it is read)'
            : result.error.message;
          showMsg('session-msg', `Import of ${file.name} failed: ${message} [${result.error.kind}]. The filter was left as it was.`, true);
          return;
        }
        await accept(result.data, { forceDrafts: true });
        showMsg('session-msg', `Imported ${file.name}.`, false);
      },
    });
  }

  function makeLink() {
    enqueue({
      run: async () => {
        const result = await post('/api/share', { session: sessionText });
        if (!result.ok) {
          showMsg('share-msg', errorText(result.error), true);
          return;
        }
        const link = `${location.origin}${location.pathname}${result.data.fragment}`;
        const input = $('share-link');
        input.value = link;
        let copied = false;
        try {
          await navigator.clipboard.writeText(link);
          copied = true;
        } catch (error) {
          copied = false;
        }
        showMsg('share-msg', copied
          ? `Link copied to the clipboard (${link.length} characters).`
          : `Copy the link above (${link.length} characters).`, false);
      },
    });
  }

  function restore(text, msgId) {
    enqueue({
      run: async () => {
        const before = sessionText;
        const result = await post('/api/restore', { session: sessionText, fragment: text });
        if (!result.ok) {
          showMsg(msgId, errorText(result.error, 'The link was not restored, the filter is unchanged:'), true);
          return;
        }
        undoText = before;
        await accept(result.data, { forceDrafts: true });
        const undo = el('button', { type: 'button', class: 'undo', text: 'Undo restore' });
        undo.addEventListener('click', () => {
          const previous = undoText;
          undoText = null;
          undo.disabled = true;
          enqueue({
            run: async () => {
              const back = await post('/api/apply', { session: previous, ops: [] });
              if (back.ok) {
                await accept(back.data, { forceDrafts: true });
                showMsg(msgId, 'The previous session is back.', false);
              } else {
                showMsg(msgId, errorText(back.error, 'Undo failed:'), true);
              }
            },
          });
        });
        const p = view.params;
        showMsg(msgId, `Restored from a shared link: m = ${p.m}, k = ${p.k}, ${plural(view.distinct_entries, 'entry', 'entries')}.`, false, undo);
      },
    });
  }

  function restoreFromLocation() {
    if (!location.hash.startsWith('#share=')) return;
    const fragment = location.hash;
    history.replaceState(null, '', `${location.pathname}${location.search}`);
    $('notice').hidden = false;
    restore(fragment, 'notice');
  }

  // ---------------------------------------------------------------- wiring

  function load() {
    enqueue({
      run: async () => {
        let stored = null;
        try {
          stored = localStorage.getItem(STORAGE_KEY);
        } catch (error) {
          stored = null;
        }
        let result = await post('/api/apply', { session: stored, ops: [] });
        if (!result.ok && stored !== null && result.error.kind !== 'network') {
          setStorageWarning(`The session saved in this browser could not be read (${result.error.message}); a new session was started. The saved copy stays until the next change.`);
          result = await post('/api/apply', { session: null, ops: [] });
        }
        if (!result.ok) {
          $('filter-status').textContent = `The page cannot start: ${result.error.message}`;
          return;
        }
        sessionText = result.data.session;
        view = result.data.view;
        render(true);
        $('save-status').textContent = stored !== null ? 'Session restored from this browser.' : 'New session.';
      },
    });
    restoreFromLocation();
  }

  function wire() {
    for (const field of DRAFT_FIELDS) {
      $(field).addEventListener('input', (event) => {
        const value = event.target.value;
        const msgId = field === 'm' || field === 'k' ? 'filter-msg' : 'ops-msg';
        applyOps([{ op: 'set_draft', field, value }], msgId, { key: `draft:${field}` });
      });
    }
    $('create-form').addEventListener('submit', (event) => {
      event.preventDefault();
      applyOps([{ op: 'create' }], 'filter-msg', { errorPrefix: 'Cannot create the filter:' });
    });
    for (const kind of ['insert', 'query']) {
      $(`${kind}-form`).addEventListener('submit', (event) => {
        event.preventDefault();
        const input = $(kind);
        applyOps([{ op: kind, value: toText(input.value) }], 'ops-msg', {
          after: () => {
            if (document.activeElement === input) input.select();
          },
        });
      });
    }
    $('example').addEventListener('click', () => {
      applyOps([{ op: 'insert_example' }], 'ops-msg');
    });
    $('reset').addEventListener('click', () => {
      applyOps([{ op: 'reset' }], 'ops-msg');
    });
    for (const name of ['positions', 'model']) {
      const details = $(`${name}-panel`);
      const setPanel = () => {
        applyOps([{ op: 'set_panel', panel: name, open: details.open }], 'ops-msg', { key: `panel:${name}` });
      };
      // A click (or Enter or Space) on the summary toggles the panel here, in
      // the same event, and queues the change at once: the "toggle" event
      // comes later, in a task of its own, and a reload in between would lose
      // the change.
      details.querySelector('summary').addEventListener('click', (event) => {
        if (!view) return;
        event.preventDefault();
        details.open = !details.open;
        setPanel();
      });
      // Other ways a panel opens (find in page opens a closed one) keep the session in step.
      details.addEventListener('toggle', () => {
        if (!view || panelPending(name) || details.open === view.panels[name]) return;
        setPanel();
      });
    }
    $('export').addEventListener('click', exportSession);
    $('import-file').addEventListener('change', (event) => {
      const input = event.target;
      const file = input.files && input.files[0];
      if (file) importFile(file);
      input.value = '';
    });
    $('share').addEventListener('click', makeLink);
    $('share-link').addEventListener('focus', (event) => event.target.select());
    $('restore-form').addEventListener('submit', (event) => {
      event.preventDefault();
      restore($('restore-link').value, 'share-msg');
    });
    window.addEventListener('hashchange', restoreFromLocation);
    window.addEventListener('resize', () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => {
        resizeTimer = null;
        if (view) {
          renderGrid();
          drawPlot();
          markLayout();
        }
        setBusy();
      }, 100);
      setBusy();
    });
    setBusy();
    load();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', wire);
  else wire();
})();
