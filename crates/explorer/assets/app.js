// The explorer page. Every rule of the filter is the project's JavaScript session
// model (session.mjs, the module the JavaScript adapter runs through the whole
// conformance suite); this file only calls it and renders its view. No server is
// needed once the page has loaded.

import {
  Session, SessionError, saveLocal, estimates, isWellFormed, textOf,
  MAX_ENTRIES, MAX_UNITS, IMPORT_MAX_BYTES, HISTORY_CAP, M_MIN, M_MAX, K_MIN, K_MAX, DRAFT_MAX_UNITS,
} from './js/session.mjs';
import { parseJson, JsonNumber, DUPLICATE_KEYS } from './js/json.mjs';
import { unitsOf } from './js/fnv1a_utf16_v1.mjs';

const STORAGE_KEY = 'bloomproof-explorer-session';
/** What the page keeps beside the session: raw drafts that are not well-formed
 * text (a lone surrogate, which the session's drafts cannot hold) and the number of
 * operations older than the history. */
const PAGE_KEY = 'bloomproof-explorer-page';
const DRAFT_FIELDS = ['m', 'k', 'insert', 'query'];
const SVG_NS = 'http://www.w3.org/2000/svg';
const SAVE_DELAY_MS = 400;
const SHORT_UNITS = 48;
/** How much of the end a shortened string keeps. */
const TAIL_UNITS = 16;
const $ = (id) => document.getElementById(id);

const session = new Session();
/** The current view: `session.view()` after the last change. */
let view = session.view();
/** Raw drafts that are not well-formed, by field (the session holds their well-formed form). */
const rawDrafts = {};
/** Operations of the current filter that the history no longer lists. */
let olderOps = 0;
/** The last text stored locally (null: none). */
let storedText = null;
/** The pending save's timer. */
let saveTimer = null;
/** Whether the last change has been stored (false: over the limit, refused, or pending). */
let saved = true;

// ---------------------------------------------------------------- helpers

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
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

/** The well-formed form of a string: each lone surrogate replaced by U+FFFD. */
function wellFormed(s) {
  if (isWellFormed(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { out += s[i] + s[i + 1]; i += 1; continue; }
    }
    out += c >= 0xd800 && c <= 0xdfff ? '\ufffd' : s[i];
  }
  return out;
}

/** A string's display form, shortened past SHORT_UNITS code units to its start and
 * its end (the closing quote keeps trailing spaces visible): a code element whose
 * title and aria-label hold the whole display form. */
function shown(displayText, units) {
  const node = el('code', { class: 'str' });
  if (units <= SHORT_UNITS || displayText.length <= SHORT_UNITS) {
    node.textContent = displayText;
    return node;
  }
  let head = displayText.slice(0, SHORT_UNITS - TAIL_UNITS);
  let tail = displayText.slice(displayText.length - TAIL_UNITS);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  const first = tail.charCodeAt(0);
  if (first >= 0xdc00 && first <= 0xdfff) tail = tail.slice(1);
  node.textContent = `${head}…${tail}`;
  node.classList.add('short');
  node.title = displayText;
  node.setAttribute('aria-label', `${displayText} (${units} code units)`);
  return node;
}

const OUTCOME_TEXT = {
  new: 'inserted: new distinct entry (counters reset)',
  duplicate: 'already inserted: nothing changed',
  definitely_absent: 'definitely absent (a bit is 0)',
  false_positive: 'maybe present, but never inserted: false positive',
  truly_present: 'maybe present, and truly present',
};

const outcomeText = (outcome) => OUTCOME_TEXT[outcome] || outcome;

/** The model's messages, with the words of its developers replaced by a reader's:
 * ranges written `a..=b`, the JSON parser's "EOF while parsing", backquoted tokens. */
const PLAIN = [
  [/(\d+)\.\.=(\d+)/g, '$1 to $2'],
  [/EOF while parsing a string/g, 'the text ends inside a string (a closing quote is missing)'],
  [/EOF while parsing an object/g, 'the text ends before an object is closed (a "}" is missing)'],
  [/EOF while parsing a list/g, 'the text ends before a list is closed (a "]" is missing)'],
  [/EOF while parsing a value/g, 'the text ends where a value was expected'],
  [/expected `:`/g, 'a ":" was expected'],
  [/expected `,` or `\}`/g, 'a "," or a "}" was expected'],
  [/expected `,` or `\]`/g, 'a "," or a "]" was expected'],
  [/trailing characters/g, 'more text follows the end of the JSON value'],
  [/expected value/g, 'a JSON value was expected'],
  [/key must be a string/g, 'an object key must be a quoted string'],
  [/recursion limit exceeded/g, 'the values are nested too deeply'],
  [/control character in a string/g, 'a control character (a line break, a tab, ...) stands unescaped in a string'],
];

function plain(message) {
  return PLAIN.reduce((text, [pattern, words]) => text.replace(pattern, words), message);
}

/** A rejected operation in words for a person. */
function humanError(error, context) {
  const { kind } = error;
  const message = plain(error.message);
  const field = /^(m|k)\b/.exec(message)?.[1];
  const bounds = field === 'k' ? `${K_MIN} to ${K_MAX}` : `${M_MIN} to ${M_MAX}`;
  switch (kind) {
    case 'invalid_draft':
      return { field, text: `${field} must be a whole number from ${bounds}, written with the digits 0 to 9 only (no sign, space or decimal point).` };
    case 'out_of_range':
      if (context === 'import') return { text: `The file is not a valid session: ${message}.` };
      return { field, text: `${field} must be a whole number from ${bounds}.` };
    case 'no_active_filter':
      return { text: 'There is no filter yet: enter m and k, then press Create.' };
    case 'empty_string':
      if (context === 'import') return { text: `The file is not a valid session: ${message}.` };
      return { text: `Type the string to ${context} first: strings have 1 to ${MAX_UNITS} UTF-16 code units.` };
    case 'too_long': {
      if (context === 'import') return { text: `The file is not a valid session: ${message}.` };
      const units = /(\d+) UTF-16 code units/.exec(message)?.[1];
      if (context === 'draft') return { text: `A field holds at most ${DRAFT_MAX_UNITS} UTF-16 code units${units ? `; this one has ${units}` : ''}: the longer text is not kept.` };
      return { text: `This string has ${units || 'too many'} UTF-16 code units; at most ${MAX_UNITS} are allowed.` };
    }
    case 'too_many_entries':
      if (context === 'import') return { text: `The file has more than ${MAX_ENTRIES} entries, the most a filter keeps.` };
      if (context === 'example') {
        const missing = /\+ (\d+) new/.exec(error.message)?.[1];
        return { text: `The example would take the filter past ${MAX_ENTRIES} distinct strings, the most it keeps: it holds ${view.distinct_entries}, and a…h would add ${missing ?? 'some'} new ones. Nothing was inserted.` };
      }
      if (context === 'link') return { text: `the link lists more than ${MAX_ENTRIES} entries, the most a filter keeps.` };
      return { text: `The filter already keeps ${MAX_ENTRIES} distinct strings, the most it can: a new string cannot be inserted (inserting one it already has still works).` };
    case 'too_large':
      return { text: `The file is over 2 MiB (${IMPORT_MAX_BYTES} bytes), the largest session file: it was not read.` };
    case 'syntax':
      return { text: `The file is not valid JSON (${message}).` };
    case 'unsupported_version': {
      const version = /version (\S+);/.exec(error.message)?.[1];
      return { text: `This page reads session files of format version 1 only; this one is version ${version ?? 'unknown'} (perhaps written by a newer version of the page).` };
    }
    case 'invalid':
      return { text: `The file is JSON but not a valid session: ${message}.` };
    default:
      return { text: message };
  }
}

/** `data-idle` is "true" when nothing the page started is still to happen: no
 * save waiting, no estimates being computed, no re-layout after a resize. The
 * browser test waits on it. */
function setBusy() {
  const idle = saveTimer === null && plotJob === null && resizeTimer === null && !panelsPending;
  document.documentElement.dataset.idle = String(idle);
}

/** Records the viewport width the grid and the plot were last laid out for. */
function markLayout() {
  document.documentElement.dataset.layoutWidth = String(window.innerWidth);
}

// ---------------------------------------------------------------- messages

function showMsg(id, text, isError, extra) {
  const node = $(id);
  node.replaceChildren();
  node.classList.toggle('error', Boolean(isError));
  if (text) node.append(text);
  if (extra) node.append(' ', extra);
  if (id === 'notice') node.hidden = !text;
  if (text) reveal(node);
}

/** Set once the page has loaded: from then on a message (the answer to something the
 * person did) is brought into view when it stands off the screen. */
let interactive = false;

/** Scrolls `node` into view when any part of it is off the screen (no scrolling when it
 * is already in view), once it has been laid out. */
function reveal(node) {
  if (!interactive) return;
  requestAnimationFrame(() => {
    if (node.hidden || !node.isConnected) return;
    const r = node.getBoundingClientRect();
    const dock = $('dock');
    const covered = dock && !dock.hidden ? dock.getBoundingClientRect().height : 0;
    if (r.top < 0 || r.bottom > window.innerHeight - covered) node.scrollIntoView({ block: 'nearest' });
  });
}

function setStorageWarning(text) {
  const node = $('storage-warning');
  node.textContent = text || '';
  node.hidden = !text;
  updateDock();
}

/** Shows the dock at the foot of the screen while it holds a warning, and gives the page
 * as much room below its end, so that nothing stays hidden under it. */
function updateDock() {
  const dock = $('dock');
  dock.hidden = $('storage-warning').hidden && $('other-tab').hidden;
  document.body.style.paddingBottom = dock.hidden ? '' : `${dock.getBoundingClientRect().height}px`;
}

function markInvalid(ids) {
  for (const id of DRAFT_FIELDS) {
    const input = $(id);
    if (ids.includes(id)) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
}

// ---------------------------------------------------------------- saving

function pageState() {
  const drafts = {};
  for (const [field, raw] of Object.entries(rawDrafts)) drafts[field] = unitsOf(raw);
  return JSON.stringify({ drafts, older: olderOps });
}

/** The saved copy this page could not read, kept until the person decides (null: none). */
let unreadable = null;
/** Another tab's save, not yet answered: {text} (null: none). Saving waits meanwhile. */
let otherTab = null;

/** Stores the session now (the local-save rule of SESSION.md, section 11). */
function saveNow() {
  if (saveTimer !== null) clearTimeout(saveTimer);
  saveTimer = null;
  if (unreadable !== null || otherTab !== null) {
    // Not over a copy the person has not decided about: it is kept until they do.
    saved = false;
    const where = otherTab !== null ? 'at the foot of the screen' : 'at the top of the page';
    $('save-status').textContent = `Not saved in this browser yet: see the question ${where}.`;
    if (otherTab !== null) {
      // Said again at each change, where the person is working: the question is in view.
      otherTab.unsaved += 1;
      $('other-tab-unsaved').textContent = `${plural(otherTab.unsaved, 'change', 'changes')} in this tab not saved yet: choose to save.`;
      updateDock();
    }
    setBusy();
    return;
  }
  const text = session.exportText();
  const outcome = saveLocal(text, storedText);
  if (outcome.outcome === 'saved') {
    try {
      if (text !== storedText) localStorage.setItem(STORAGE_KEY, text);
      localStorage.setItem(PAGE_KEY, pageState());
      storedText = text;
      saved = true;
      setStorageWarning(null);
      $('save-status').textContent = `Saved in this browser (${text.length} characters).`;
    } catch (error) {
      saved = false;
      setStorageWarning(`The browser refused to store the session (${error.name}); the previous copy is kept. Export the whole session before reloading or leaving the page.`);
    }
  } else {
    saved = false;
    setStorageWarning(outcome.warning);
    $('save-status').textContent = 'Not saved in this browser: see the warning at the foot of the screen.';
  }
  setBusy();
}

/** Offers to download the saved copy this page cannot read, or to replace it. */
function showUnreadable(text, why) {
  unreadable = text;
  const box = $('saved-copy');
  const download = el('button', { type: 'button', id: 'saved-copy-download', text: 'Download the saved copy' });
  download.addEventListener('click', () => downloadText(text, 'bloomproof-saved-session.json'));
  const replace = el('button', { type: 'button', id: 'saved-copy-replace', text: 'Replace it with this session' });
  replace.addEventListener('click', () => {
    unreadable = null;
    box.hidden = true;
    box.replaceChildren();
    saveNow();
  });
  box.replaceChildren(
    `The session saved in this browser could not be read: ${why} A new session was started. The saved copy (${text.length} characters) is kept, and nothing is saved over it until you choose: download it first to keep it, then replace it.`,
    el('br'), download, replace);
  box.hidden = false;
}

/** Another tab of this page saved its session: this one stops saving until the person
 * chooses which to keep. */
function noticeOtherTab(text) {
  if (text === null || text === storedText) {
    // Cleared, or the same as this tab's: nothing to choose.
    if (text === storedText && otherTab !== null) resolveOtherTab(null);
    return;
  }
  otherTab = { text, unsaved: 0 };
  let summary = '';
  try {
    const other = new Session();
    other.importText(text);
    const v = other.view();
    summary = v.params
      ? ` (m = ${v.params.m}, k = ${v.params.k}, ${plural(v.distinct_entries, 'entry', 'entries')})`
      : ' (no active filter)';
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    summary = ' (which this page cannot read)';
  }
  const box = $('other-tab');
  const load = el('button', { type: 'button', id: 'other-tab-load', text: 'Load the other tab\'s session' });
  load.addEventListener('click', () => resolveOtherTab('load'));
  const keep = el('button', { type: 'button', id: 'other-tab-keep', text: 'Keep this tab\'s session' });
  keep.addEventListener('click', () => resolveOtherTab('keep'));
  box.replaceChildren(
    `Another tab of this page saved a different session${summary}. This tab saves nothing until you choose: loading it replaces this tab's filter (Undo brings it back); keeping this tab's saves it over the other's. `,
    el('span', { id: 'other-tab-unsaved' }),
    el('br'), load, keep);
  box.hidden = false;
  updateDock();
  saved = false;
  setBusy();
}

function resolveOtherTab(choice) {
  const pending = otherTab;
  otherTab = null;
  const box = $('other-tab');
  box.hidden = true;
  box.replaceChildren();
  updateDock();
  if (!pending) return;
  if (choice === 'load') {
    storedText = pending.text;
    if (!importText(pending.text, 'the other tab\'s session', 'notice')) return;
    saveNow();
  } else if (choice === 'keep') {
    storedText = pending.text;
    saveNow();
  }
}

/** Saves a little later: a burst of changes (typing) costs one save. */
function scheduleSave() {
  saved = false;
  if (saveTimer !== null) clearTimeout(saveTimer);
  saveTimer = setTimeout(saveNow, SAVE_DELAY_MS);
  setBusy();
}

// ---------------------------------------------------------------- changing the session

/** Undo for the last change that discarded entries: {state, raw, older, label}. */
let undoState = null;
/** The offer on screen: {before, button, msgId, key}, `key` being the filter as the
 * offer left it (filterKey): once the filter is another, the offer is withdrawn. */
let undoOffer = null;

/** What identifies the filter's state (not the drafts or panels): the parameters,
 * the entries, the counters and the history, as the view shows them. */
function filterKey() {
  if (!view.active) return 'none';
  const last = view.last_operation;
  return `${view.params.m}/${view.params.k}/${view.distinct_entries}/${view.bits}/${view.counters.negative_queries}/${view.counters.false_positives}/${view.history.length}/${olderOps}/${last ? `${last.kind}:${last.display}:${last.outcome}` : '-'}`;
}

/** Takes the Undo offer off the page, saying so where it stood. */
function withdrawUndo(reason) {
  const offer = undoOffer;
  if (!offer) return;
  undoOffer = null;
  undoState = null;
  if (offer.button.isConnected) {
    offer.button.remove();
    if (reason) $(offer.msgId).append(` ${reason}`);
  }
}

function snapshot(label) {
  return { state: session.snapshotState(), raw: { ...rawDrafts }, older: olderOps, label };
}

/** An Undo button that puts `before` back (once, and only while it is the latest offer). */
function undoButton(before, label, msgId, done) {
  withdrawUndo('(Undo is no longer offered: a newer change can be undone instead.)');
  undoState = before;
  const button = el('button', { type: 'button', class: 'undo', text: label });
  undoOffer = { before, button, msgId, key: null };
  // The filter as this change left it (refresh runs before the offer is made).
  undoOffer.key = filterKey();
  button.addEventListener('click', () => {
    if (undoState !== before) return;
    undoState = null;
    undoOffer = null;
    button.disabled = true;
    session.restoreState(before.state);
    for (const field of DRAFT_FIELDS) delete rawDrafts[field];
    Object.assign(rawDrafts, before.raw);
    olderOps = before.older;
    historyKey = '';
    historyShown.total = -1;
    refresh({ drafts: true });
    showMsg(msgId, done, false);
  });
  return button;
}

function offerUndo(before, text, msgId) {
  const button = undoButton(before, 'Undo', msgId, `${before.label} undone: the filter and its entries are back.`);
  showMsg(msgId, text, false, button);
}

/** The view changed: render it, then save a little later. */
function refresh(options) {
  if (!options || options.view !== false) view = session.view();
  if (!view.active || view.history.length < HISTORY_CAP) olderOps = 0;
  // An offer to undo restores the state it saved over the one it left: once the filter
  // is no longer that one, undoing would silently throw the newer work away.
  if (undoOffer && undoOffer.key !== filterKey()) withdrawUndo('(Undo is no longer offered: the filter has changed since.)');
  clearStaleErrors();
  render(Boolean(options && options.drafts));
  scheduleSave();
}

/** Where each message about a refused change stands, and which fields it marked. */
const MSG_FIELDS = { 'filter-msg': ['m', 'k'], 'ops-msg': ['insert', 'query'] };

/** A refused change's error goes once its cause is gone: after any accepted change of
 * the filter, every error about a refused change (a field, an operation, a file or a
 * link that changed nothing) is cleared. */
function clearStaleErrors() {
  for (const id of ['filter-msg', 'ops-msg', 'state-msg', 'session-msg', 'share-msg', 'notice']) {
    if ($(id).classList.contains('error')) showMsg(id, '');
  }
  markInvalid([]);
}

/** The text of a field the last error named was edited: that error is about the old text. */
function fieldEdited(field) {
  const msgId = field === 'm' || field === 'k' ? 'filter-msg' : 'ops-msg';
  const input = $(field);
  if (input.getAttribute('aria-invalid') === 'true') {
    input.removeAttribute('aria-invalid');
    const others = MSG_FIELDS[msgId].filter((f) => f !== field && $(f).getAttribute('aria-invalid') === 'true');
    if (others.length === 0 && $(msgId).classList.contains('error')) showMsg(msgId, '');
  }
}

/** Runs `change` on the session; a rejected one changes nothing and is shown in words. */
function attempt(change, msgId, context, invalidIds) {
  try {
    change();
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    const human = humanError(error, context);
    const ids = human.field ? [human.field] : invalidIds;
    markInvalid(ids);
    showMsg(msgId, human.text, true);
    return false;
  }
  // The fields this change was about are fine now; an error goes once no field it
  // flagged is still flagged (an offer to undo stays).
  for (const id of invalidIds) $(id).removeAttribute('aria-invalid');
  const flagged = (MSG_FIELDS[msgId] || []).some((id) => $(id).getAttribute('aria-invalid') === 'true');
  if (!flagged && $(msgId).classList.contains('error')) showMsg(msgId, '');
  return true;
}

/** Whether a change would discard a filter that has entries. */
function discards() {
  return view.active && view.distinct_entries > 0;
}

function setDraft(field, value) {
  fieldEdited(field);
  const stored = wellFormed(value);
  if (stored === value) delete rawDrafts[field];
  else rawDrafts[field] = value;
  const before = (field === 'm' || field === 'k') && discards() ? snapshot(`The change of ${field}`) : null;
  const wasActive = view.active;
  const ok = attempt(() => session.setDraft(field, stored), field === 'm' || field === 'k' ? 'filter-msg' : 'ops-msg', 'draft', [field]);
  if (!ok) return;
  if (field === 'm' || field === 'k') {
    const after = session.view();
    if (wasActive && !after.active) {
      refresh();
      if (before) offerUndo(before, `Changing ${field} discarded the filter and its ${plural(before.state.active.entries.length, 'entry', 'entries')}.`, 'filter-msg');
      return;
    }
  }
  // A draft alone: nothing to render, only a save to schedule.
  updateExportNote();
  scheduleSave();
}

/** Beside Export: what happens to a field holding a lone surrogate. */
function updateExportNote() {
  const fields = DRAFT_FIELDS.filter((field) => rawDrafts[field] !== undefined);
  const note = $('export-note');
  note.hidden = fields.length === 0;
  note.textContent = fields.length === 0 ? '' : `The ${fields.join(' and ')} field${fields.length === 1 ? ' holds' : 's hold'} a lone surrogate (half of a UTF-16 pair). A session file keeps the fields as well-formed text, so the export writes U+FFFD (the replacement character) in its place; this browser's own copy keeps the field as typed. Strings inserted or queried keep their lone surrogates in both.`;
}

/** A create that was refused: each field is checked alone (by the model, with a valid
 * value in the other), so that every bad field is flagged, not only the first. */
function badParams() {
  const bad = [];
  const texts = [];
  const { drafts } = session.view();
  for (const [field, other, valid] of [['m', 'k', String(K_MIN)], ['k', 'm', String(M_MIN)]]) {
    const probe = new Session();
    probe.setDraft(field, drafts[field]);
    probe.setDraft(other, valid);
    try {
      probe.create();
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
      bad.push(field);
      texts.push(humanError(error, 'create').text);
    }
  }
  return { bad, texts };
}

function create() {
  const before = discards() ? snapshot('Create') : null;
  if (!attempt(() => session.create(), 'filter-msg', 'create', [])) {
    const { bad, texts } = badParams();
    if (bad.length > 1) {
      markInvalid(bad);
      showMsg('filter-msg', texts.join(' '), true);
    }
    return;
  }
  refresh();
  if (before) offerUndo(before, `Create started an empty filter; the previous one had ${plural(before.state.active.entries.length, 'entry', 'entries')}.`, 'filter-msg');
}

function operate(kind, started) {
  const input = $(kind);
  const value = input.value;
  const historyFull = view.history.length >= HISTORY_CAP;
  const t0 = performance.now();
  const ok = attempt(() => (kind === 'insert' ? session.insert(value) : session.query(value)), 'ops-msg', kind, [kind]);
  if (!ok) return;
  if (historyFull) olderOps += 1;
  const t1 = performance.now();
  view = session.view();
  const t2 = performance.now();
  refresh({ view: false });
  const t3 = performance.now();
  // Timings for the browser test and BENCHMARKS.md: from the event to the frame
  // painted after it, and the page's own parts of it.
  performance.measure(`${kind}: model`, { start: t0, end: t1 });
  performance.measure(`${kind}: view`, { start: t1, end: t2 });
  performance.measure(`${kind}: render`, { start: t2, end: t3 });
  afterPaint(() => {
    performance.measure(`${kind} to paint`, { start: started, end: performance.now() });
    // Typing next replaces the string (selecting it earlier would cost a layout before the paint).
    if (document.activeElement === input) input.select();
    // On a small screen the result may be below the field: it is brought into view
    // (no scrolling when it is already in view, as on a wide screen).
    $('last').scrollIntoView({ block: 'nearest' });
  });
}

/** Runs `callback` once the next frame has been painted. */
function afterPaint(callback) {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => callback();
    channel.port2.postMessage(null);
  });
}

// ---------------------------------------------------------------- rendering

function render(forceDrafts) {
  for (const field of DRAFT_FIELDS) {
    const input = $(field);
    const value = rawDrafts[field] ?? view.drafts[field];
    if ((forceDrafts || document.activeElement !== input) && input.value !== value) input.value = value;
  }
  const params = view.params;
  $('filter-status').textContent = params
    ? `Active: m = ${params.m} bits, k = ${params.k} ${params.k === 1 ? 'hash position' : 'hash positions'} per string.`
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
      // Whole here (it wraps): the end of a long string, trailing spaces too, stays visible.
      el('code', { class: 'str full', id: 'last-string', text: last.display }), ': ',
      el('strong', { id: 'last-outcome', 'data-outcome': last.outcome, text: outcomeText(last.outcome) }), '. ',
      el('span', { class: 'hint', id: 'last-positions', text: `Positions in order: ${last.positions.map((step) => step.position).join(', ')}.` })),
    characters(last.units),
    // Below 992 px the counters come after the grid: the rate is repeated here.
    el('p', { class: 'hint narrow-only', id: 'last-rate', text: `Observed false-positive rate: ${rateText(view.rate)}; n = ${view.distinct_entries}.` }),
  );
}

function rateText(rate) {
  return rate.state === 'defined'
    ? `${rate.false_positives}/${rate.negative_queries} = ${number(rate.value)}`
    : 'undefined (no query of an absent string yet)';
}

/** Names of characters that text rendering hides or shows as something else. */
const CHAR_NAMES = {
  0x00: 'null', 0x09: 'tab', 0x0a: 'line feed', 0x0b: 'vertical tab', 0x0c: 'form feed', 0x0d: 'carriage return',
  0x1b: 'escape', 0x20: 'space', 0x7f: 'delete', 0x85: 'next line', 0xa0: 'no-break space', 0xad: 'soft hyphen',
  0x034f: 'combining grapheme joiner', 0x061c: 'Arabic letter mark', 0x115f: 'Hangul choseong filler',
  0x180e: 'Mongolian vowel separator', 0x2000: 'en quad', 0x2001: 'em quad', 0x2002: 'en space', 0x2003: 'em space',
  0x2007: 'figure space', 0x2008: 'punctuation space', 0x2009: 'thin space', 0x200a: 'hair space',
  0x200b: 'zero width space', 0x200c: 'zero width non-joiner', 0x200d: 'zero width joiner',
  0x200e: 'left-to-right mark', 0x200f: 'right-to-left mark', 0x2028: 'line separator', 0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding', 0x202b: 'right-to-left embedding', 0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override', 0x202e: 'right-to-left override', 0x202f: 'narrow no-break space',
  0x205f: 'medium mathematical space', 0x2060: 'word joiner', 0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate', 0x2068: 'first strong isolate', 0x2069: 'pop directional isolate',
  0x3000: 'ideographic space', 0x3164: 'Hangul filler', 0xfeff: 'byte order mark (zero width no-break space)',
  0xfffc: 'object replacement character', 0xfffd: 'replacement character',
};

/** Characters shown by code point: controls, formats, separators and spaces, marks,
 * private-use and unassigned ones, lone surrogates and those named above. */
const HIDDEN = /[\p{C}\p{Z}\p{M}]/u;

/** Letters of other scripts that pass for Latin ones (Cyrillic, Greek, Armenian,
 * Cherokee): a string with one of them differs from the one it looks like. */
const LOOKALIKE_SCRIPTS = [
  ['Cyrillic', /\p{Script=Cyrillic}/u], ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u], ['Cherokee', /\p{Script=Cherokee}/u],
];

/** Why a code point of a string is worth naming in the breakdown, or null for a plain
 * one (shown only in the string itself): invisible or control characters, spaces,
 * combining marks, lone surrogates; astral characters (two UTF-16 code units); and
 * look-alikes (a composed accent, which looks like its decomposed form; a compatibility
 * form such as a fullwidth letter or a ligature; a letter of a script with Latin
 * look-alikes). Returns [chip text, hidden?]. */
function describeCodePoint(cp, lone) {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (lone) return [`${hex} lone surrogate`, true];
  const char = String.fromCodePoint(cp);
  const name = CHAR_NAMES[cp];
  if (name || HIDDEN.test(char)) {
    let kind = name;
    if (!kind) {
      if (/\p{Cc}/u.test(char)) kind = 'control character';
      else if (/\p{Cf}/u.test(char)) kind = 'invisible format character';
      else if (/\p{Z}/u.test(char)) kind = 'space';
      else if (/\p{M}/u.test(char)) kind = 'combining mark';
      else if (/\p{Co}/u.test(char)) kind = 'private use';
      else kind = 'unassigned';
    }
    return [`${hex} ${kind}`, true];
  }
  if (cp > 0xffff) return [`${char} ${hex}, 2 code units`, false];
  if (cp < 0x80) return null;
  const decomposed = char.normalize('NFD');
  if (decomposed !== char) {
    const parts = [...decomposed].map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
    return [`${char} ${hex}, composed (not ${parts.join(' + ')})`, false];
  }
  const compatible = char.normalize('NFKC');
  if (compatible !== char) return [`${char} ${hex}, looks like ${compatible}`, false];
  const script = LOOKALIKE_SCRIPTS.find(([, pattern]) => pattern.test(char));
  if (script) return [`${char} ${hex}, ${script[0]}`, false];
  return null;
}

/** The most chips the breakdown shows; the rest are counted. */
const CHIPS_SHOWN = 12;

/** The characters of a string worth naming (see `describeCodePoint`), one chip per run of
 * the same one (`×3`), at most CHIPS_SHOWN; a summary counts them and the plain rest. */
function characters(units) {
  const runs = [];
  let count = 0;
  let named = 0;
  for (let i = 0; i < units.length; i += 1) {
    const u = units[i];
    let cp = u;
    let lone = false;
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < units.length && units[i + 1] >= 0xdc00 && units[i + 1] <= 0xdfff) {
      cp = 0x10000 + ((u - 0xd800) << 10) + (units[i + 1] - 0xdc00);
      i += 1;
    } else if (u >= 0xd800 && u <= 0xdfff) {
      lone = true;
    }
    count += 1;
    const described = describeCodePoint(cp, lone);
    if (!described) continue;
    named += 1;
    const previous = runs[runs.length - 1];
    if (previous && previous.text === described[0] && previous.end === count - 1) {
      previous.times += 1;
      previous.end = count;
    } else {
      runs.push({ text: described[0], hidden: described[1], times: 1, end: count });
    }
  }
  const chips = runs.slice(0, CHIPS_SHOWN).map((run) => el('span', {
    class: run.hidden ? 'ch hidden-char' : 'ch',
    text: run.times > 1 ? `${run.text} ×${run.times}` : run.text,
  }));
  const plain = count - named;
  const summary = named === 0
    ? `${plural(count, 'character', 'characters')}, all plain.`
    : `${plural(count, 'character', 'characters')}; ${named} worth naming (invisible, combining, astral or look-alike)${plain ? `, the other ${plain} plain as shown above` : ''}:`;
  const rest = runs.length > CHIPS_SHOWN
    ? el('span', { class: 'hint', text: `and ${plural(runs.length - CHIPS_SHOWN, 'more run', 'more runs')} of named characters (the string above has them all).` })
    : null;
  return el('div', { class: 'chars', id: 'last-chars' }, el('span', { class: 'hint', text: summary }), ...chips, rest);
}

function renderCounters() {
  $('n').textContent = String(view.distinct_entries);
  $('bits-set').textContent = view.params ? `${view.bits_set} / ${view.params.m}` : '0';
  $('neg').textContent = String(view.counters.negative_queries);
  $('fp').textContent = String(view.counters.false_positives);
  $('rate').textContent = rateText(view.rate);
}

// ---- the bit grid
// One canvas draws the cells: at m = 1024 a DOM cell per bit made every
// operation's frame lay out and paint 1024 boxes. Only the cells an operation
// changes are drawn again (its bits, and the marks it moves). The column and
// row indices are DOM text beside the canvas (the column indices stay in view
// while the box scrolls); "Bits as text" lists the bits for screen readers and
// for copying. `geometry` is what the drawing uses, published on the canvas as
// `data-geometry` (CSS pixels from the canvas's top left corner).

/** The grid as drawn: shape, geometry, colours, and the bits and marks on the canvas. */
const grid = {
  shape: '', m: 0, cols: 0, rows: 0, cell: 28, pitch: 30, inset: 2,
  bits: '', marks: new Map(), colours: null, font: '', ctx: null, kind: '',
};

/** The widths the grid and the plot are laid out for, read at start and after a
 * resize only: reading them during an operation would force a layout of the page
 * before the one the frame does anyway. */
const measured = { bits: 0, cell: 28, gap: 2, plot: 0 };

function measureLayout() {
  measured.bits = $('bits').clientWidth;
  const sample = document.querySelector('.legend .cell');
  measured.cell = Math.max(12, Math.round(sample ? sample.getBoundingClientRect().width : 28));
  measured.plot = $('plot-area').clientWidth;
}

/** Columns: as many as fit (at most 64 and m); among those, a divisor of m when
 * one is at least half as many, so that the last row is full. */
function gridColumns(m) {
  const pitch = measured.cell + measured.gap;
  const label = 44;
  const available = measured.bits - label - 24;
  const fit = Math.max(1, Math.min(64, m, Math.floor(available / pitch)));
  if (fit >= m) return m;
  for (let cols = fit; cols * 2 >= fit && cols >= 4; cols -= 1) {
    if (m % cols === 0) return cols;
  }
  return fit;
}

/** The colours and the digits' font, from the style sheet (light or dark). */
function readColours() {
  const style = getComputedStyle(document.documentElement);
  const read = (name) => style.getPropertyValue(name).trim();
  grid.colours = {
    paper: read('--paper'), set: read('--set'), setInk: read('--set-ink'), clear: read('--clear'),
    line: read('--cell-line'), ink: read('--ink'), mark: read('--mark'),
  };
  const sample = document.querySelector('.legend .cell');
  const cellStyle = sample ? getComputedStyle(sample) : null;
  grid.fontSize = cellStyle ? parseFloat(cellStyle.fontSize) : 13.6;
  grid.font = cellStyle ? cellStyle.fontFamily : 'monospace';
}

/** Where cell `p` is drawn: its box's left and top, in CSS pixels in the canvas. */
function cellOrigin(p) {
  return [grid.inset + (p % grid.cols) * grid.pitch, grid.inset + Math.floor(p / grid.cols) * grid.pitch];
}

/** Draws cell `p` (its box and the gaps around it; the outline of a mark comes after). */
function drawCell(p) {
  const { ctx, cell, colours } = grid;
  const [x, y] = cellOrigin(p);
  const bit = grid.bits[p];
  const set = bit === '1';
  const marked = grid.marks.has(p);
  ctx.fillStyle = colours.paper;
  ctx.fillRect(x - grid.inset, y - grid.inset, cell + 2 * grid.inset, cell + 2 * grid.inset);
  // The border (1 px; a marked cell's is 2 px of ink inside its outline), then the inside.
  const border = marked ? 3 : 1;
  ctx.fillStyle = marked ? colours.ink : set ? colours.set : colours.line;
  ctx.beginPath();
  ctx.roundRect(x, y, cell, cell, 3);
  ctx.fill();
  ctx.fillStyle = set ? colours.set : colours.clear;
  ctx.beginPath();
  ctx.roundRect(x + border, y + border, cell - 2 * border, cell - 2 * border, 2);
  ctx.fill();
  ctx.fillStyle = set ? colours.setInk : colours.ink;
  ctx.font = `${marked ? 800 : 400} ${grid.fontSize}px ${grid.font}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const cx = x + cell / 2;
  const cy = y + cell / 2;
  ctx.fillText(bit, cx, cy + 0.5);
  if (marked) {
    const w = ctx.measureText(bit).width;
    ctx.fillRect(Math.round(cx - w / 2), Math.round(cy + grid.fontSize * 0.45), Math.round(w), 1.5);
    // The corner mark, top right.
    const corner = Math.round(cell * 0.32);
    ctx.fillStyle = colours.mark;
    ctx.beginPath();
    ctx.moveTo(x + cell - corner, y);
    ctx.lineTo(x + cell, y);
    ctx.lineTo(x + cell, y + corner);
    ctx.closePath();
    ctx.fill();
  }
}

/** The outline of a marked cell: 3 px, over its edge and the gap around it. */
function drawOutline(p) {
  const { ctx, cell, colours } = grid;
  const [x, y] = cellOrigin(p);
  ctx.strokeStyle = colours.mark;
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.roundRect(x - 0.5, y - 0.5, cell + 1, cell + 1, 3);
  ctx.stroke();
}

/** Draws the positions in `dirty` (all of them when null) as `bits` and `marks` say. */
function drawCells(dirty) {
  const all = dirty === null;
  if (all) {
    grid.ctx.fillStyle = grid.colours.paper;
    grid.ctx.fillRect(0, 0, grid.cols * grid.pitch + 2 * grid.inset, grid.rows * grid.pitch + 2 * grid.inset);
    for (let p = 0; p < grid.m; p += 1) drawCell(p);
  } else {
    for (const p of dirty) drawCell(p);
  }
  for (const p of grid.marks.keys()) drawOutline(p);
}

/** Builds the canvas and the indices for m bits in `cols` columns. */
function shapeGrid(m, cols) {
  const canvas = $('bitcanvas');
  grid.m = m;
  grid.cols = cols;
  grid.rows = Math.ceil(m / cols);
  grid.cell = measured.cell;
  grid.pitch = measured.cell + measured.gap;
  const width = cols * grid.pitch + 2 * grid.inset - measured.gap;
  const height = grid.rows * grid.pitch + 2 * grid.inset - measured.gap;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  grid.ctx = canvas.getContext('2d', { alpha: false });
  grid.ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  canvas.dataset.geometry = JSON.stringify({ m, cols, rows: grid.rows, pitch: grid.pitch, cell: grid.cell, inset: grid.inset });
  const box = $('bitgrid');
  box.style.setProperty('--pitch', `${grid.pitch}px`);
  box.style.setProperty('--offset', `${grid.inset - measured.gap / 2}px`);
  const colLabels = [];
  for (let col = 0; col < cols; col += 1) colLabels.push(el('span', { class: 'collabel', text: String(col) }));
  $('bitcols').replaceChildren(...colLabels);
  const rowLabels = [];
  for (let row = 0; row < grid.rows; row += 1) rowLabels.push(el('span', { class: 'rowlabel', text: String(row * cols) }));
  $('bitrows').replaceChildren(...rowLabels);
}

/** The set bits as ranges of positions: "0–3, 5, 8". */
function ranges(bits, want) {
  const parts = [];
  for (let p = 0; p < bits.length; p += 1) {
    if (bits[p] !== want) continue;
    let q = p;
    while (q + 1 < bits.length && bits[q + 1] === want) q += 1;
    parts.push(q === p ? String(p) : `${p}–${q}`);
    p = q;
  }
  return parts.join(', ');
}

function renderGrid() {
  const box = $('bitbox');
  if (!view.params || view.bits === null) {
    grid.shape = '';
    box.hidden = true;
    $('bits-text-panel').hidden = true;
    $('bits-jump').hidden = true;
    $('bits-summary').textContent = 'No active filter.';
    return;
  }
  box.hidden = false;
  $('bits-text-panel').hidden = false;
  const m = view.params.m;
  const cols = gridColumns(m);
  const shape = `${m}x${cols}x${measured.cell}`;
  const last = view.last_operation;
  const marks = new Map();
  if (last) {
    for (const step of last.positions) {
      if (!marks.has(step.position)) marks.set(step.position, []);
      marks.get(step.position).push(step.index);
    }
  }
  const bits = view.bits;
  if (shape !== grid.shape) {
    grid.shape = shape;
    shapeGrid(m, cols);
    if (!grid.colours) readColours();
    grid.bits = bits;
    grid.marks = marks;
    drawCells(null);
  } else {
    const dirty = new Set([...grid.marks.keys(), ...marks.keys()]);
    for (let p = 0; p < m; p += 1) if (bits[p] !== grid.bits[p]) dirty.add(p);
    grid.bits = bits;
    grid.marks = marks;
    drawCells(dirty);
  }
  grid.kind = last ? last.kind : '';
  const rows = grid.rows;
  const ragged = m % cols === 0 ? '' : ` The last row has ${m % cols}.`;
  const list = last ? last.positions.map((step) => step.position).join(', ') : '';
  const used = last ? ` The last ${last.kind} used ${last.positions.length === 1 ? 'position' : 'positions'} ${list}, marked.` : '';
  $('bits-summary').textContent = `${view.bits_set} of ${m} bits set, ${cols} per row, ${plural(rows, 'row', 'rows')}.${ragged}${used}`;
  $('bitcanvas').setAttribute('aria-label', `The ${m} bits, ${cols} per row: set bits dark, clear bits light${last ? `, the bits of the last ${last.kind} outlined in orange` : ''}. They are listed under "Bits as text".`);
  $('bits-text').textContent = `Set (1), ${view.bits_set} bits: ${ranges(bits, '1') || 'none'}. Clear (0), ${m - view.bits_set} bits: ${ranges(bits, '0') || 'none'}.${last ? ` The last ${last.kind} used ${list}.` : ''}`;
  marksToShow = { marks, cols, scroll: Boolean(last) };
  if (!marksFramePending) {
    marksFramePending = true;
    // Once per frame, with the layout the frame needs anyway.
    requestAnimationFrame(() => {
      marksFramePending = false;
      const wanted = marksToShow;
      if (!wanted || !view.params) return;
      if (wanted.scroll) bringMarksIntoView(wanted.marks);
      renderJump(wanted.marks, wanted.cols);
    });
  }
}

/** A new colour scheme: the canvas is drawn again in its colours. */
function redrawColours() {
  readColours();
  if (grid.shape) drawCells(null);
}

let marksToShow = null;
let marksFramePending = false;

/** Buttons that scroll the grid to each marked bit (when the grid scrolls); the
 * buttons of the previous operation are reused. */
function renderJump(marks, cols) {
  const jump = $('bits-jump');
  const box = $('bitbox');
  if (marks.size === 0 || box.scrollHeight <= box.clientHeight + 1) {
    jump.hidden = true;
    return;
  }
  const positions = [...marks.keys()].sort((a, b) => a - b);
  if (!jump.firstChild) jump.append('Show a marked bit: ');
  const buttons = jump.querySelectorAll('button');
  positions.forEach((position, i) => {
    let button = buttons[i];
    if (!button) {
      button = el('button', { type: 'button', class: 'chip' });
      button.addEventListener('click', () => scrollToCell(Number(button.dataset.position)));
      jump.append(button);
    }
    if (button.dataset.position === String(position)) return;
    button.dataset.position = String(position);
    button.textContent = String(position);
    button.setAttribute('aria-label', `Show bit ${position} (row ${Math.floor(position / cols) * cols}, column ${position % cols})`);
  });
  for (let i = positions.length; i < buttons.length; i += 1) buttons[i].remove();
  jump.hidden = false;
}

/** The top of cell `p` in the box's scrolled content, and the height of what covers
 * the content's top (the column indices). */
function cellInBox(p) {
  const canvas = $('bitcanvas');
  const [x, y] = cellOrigin(p);
  return { top: canvas.offsetTop + y, left: canvas.offsetLeft + x, header: $('bitcols').offsetHeight };
}

function scrollToCell(position) {
  const box = $('bitbox');
  if (!grid.shape || position >= grid.m) return;
  const { top, left, header } = cellInBox(position);
  box.scrollTop = top - header - (box.clientHeight - header - grid.cell) / 2;
  box.scrollLeft = left - (box.clientWidth - grid.cell) / 2;
}

/** Scrolls the grid's box (not the page) so that the marked bits are in view:
 * all of them when their rows fit, else from the first. */
function bringMarksIntoView(marks) {
  const box = $('bitbox');
  if (box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1) return;
  const positions = [...marks.keys()];
  if (positions.length === 0 || !grid.shape) return;
  const tops = positions.map((p) => cellInBox(p).top);
  const { header } = cellInBox(positions[0]);
  const first = Math.min(...tops);
  const span = Math.max(...tops) + grid.cell - first;
  const room = box.clientHeight - header;
  box.scrollTop = span <= room ? first - header - (room - span) / 2 : first - header - grid.inset;
}

// ---- history

let historyKey = '';
/** What the list shows: the total it was numbered for and its first item. */
let historyShown = { total: -1, first: null };

function historyItem(item, number) {
  return el('li', { class: `outcome-${item.outcome}`, value: String(number) },
    el('span', { class: `badge ${item.kind}`, text: item.kind }), ' ',
    shown(item.display, item.units.length), ' → ', outcomeText(item.outcome));
}

const sameItem = (a, b) => a !== null && b !== undefined && a.kind === b.kind && a.display === b.display && a.outcome === b.outcome;

function renderHistory() {
  const list = $('history-list');
  const items = view.history;
  const total = olderOps + items.length;
  const key = items.length ? `${total}/${items.length}/${items[0].display}/${items[0].outcome}` : '';
  if (key === historyKey && key !== '') return;
  historyKey = key;
  const count = list.children.length;
  if (total === historyShown.total + 1 && items.length > 1 && sameItem(historyShown.first, items[1])
      && (count === items.length - 1 || (count === HISTORY_CAP && items.length === HISTORY_CAP))) {
    // One more operation: add it, and drop the oldest past the cap.
    list.prepend(historyItem(items[0], total));
    while (list.children.length > items.length) list.lastElementChild.remove();
  } else {
    list.replaceChildren(...items.map((item, i) => historyItem(item, total - i)));
  }
  historyShown = { total, first: items[0] ?? null };
  $('history-empty').hidden = items.length > 0;
  $('history-older').hidden = total <= items.length;
  $('history-older').textContent = total > items.length
    ? `The ${total - items.length} older operations of this filter are not kept (the history keeps the ${HISTORY_CAP} most recent).`
    : '';
}

// ---- panels

let panelsKey = '';
/** Whether the Details section is on screen or near it (an IntersectionObserver
 * tells). Away from it, the panels' contents are rendered after the operation's
 * frame rather than in it: that frame then lays out only what can be seen. */
let detailsNear = true;
/** Whether the panels' contents wait for the task after the next frame. */
let panelsPending = false;

function renderPanels() {
  for (const name of ['positions', 'model']) {
    const details = $(`${name}-panel`);
    if (details.open !== view.panels[name]) details.open = view.panels[name];
  }
  if (detailsNear) {
    renderPanelContents();
  } else if (!panelsPending) {
    panelsPending = true;
    setBusy();
    afterPaint(() => setTimeout(() => {
      if (!panelsPending) return;
      panelsPending = false;
      renderPanelContents();
      setBusy();
    }, 0));
  }
}

/** The Details section came near the screen: its panels show the current view now. */
function detailsInView(entries) {
  detailsNear = entries.some((entry) => entry.isIntersecting);
  if (detailsNear && panelsPending) {
    panelsPending = false;
    renderPanelContents();
    setBusy();
  }
}

function renderPanelContents() {
  const last = view.last_operation;
  const key = `${view.params ? `${view.params.m}/${view.params.k}` : '-'}/${view.distinct_entries}/${view.history.length}/${last ? `${last.display}/${last.outcome}/${last.h1}` : '-'}/${olderOps}`;
  if (key === panelsKey) return;
  panelsKey = key;
  renderPositions(last);
  renderModel(last);
}

function renderPositions(last) {
  const positions = $('positions-body');
  positions.replaceChildren();
  if (!last) {
    positions.append(el('p', { text: view.params ? 'No insertion or query yet.' : 'No active filter.' }));
    return;
  }
  const firstIndex = new Map();
  const table = el('table', {},
    el('caption', {}, `${last.kind === 'insert' ? 'Insert' : 'Query'} `, el('code', { class: 'str full', text: last.display }),
      `: ${plural(last.positions.length, 'position', 'positions')} (h1 + i·h2) mod m, in order`),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col', text: 'i' }),
      el('th', { scope: 'col', text: 'position' }),
      el('th', { scope: 'col', text: 'before' }),
      el('th', { scope: 'col', text: 'after' }),
      el('th', { scope: 'col', class: 'note', text: 'note' }))));
  const body = el('tbody');
  for (const step of last.positions) {
    const changed = step.before !== step.after;
    const earlier = firstIndex.get(step.position);
    if (earlier === undefined) firstIndex.set(step.position, step.index);
    let note = '';
    if (earlier !== undefined) note = `same bit as i = ${earlier}`;
    else if (changed) note = 'set by this insertion';
    body.append(el('tr', changed ? { class: 'changed' } : {},
      el('td', { text: String(step.index) }),
      el('td', { text: String(step.position) }),
      el('td', { text: step.before ? '1' : '0' }),
      el('td', { text: step.after ? '1' : '0' }),
      el('td', { class: 'note', text: note })));
  }
  table.append(body);
  // The table fits its box at every width (its note column wraps); the box scrolls
  // sideways only if it cannot (a large text size), and can then be focused to scroll
  // with the keyboard.
  const box = el('div', { class: 'tablebox', tabindex: '0', role: 'region', 'aria-label': 'Hash positions table' }, table);
  positions.append(box, el('p', { class: 'hint', text: '"before" and "after" are the bit before and after the whole operation, for every row in order; a repeated position shows the same pair as its first row.' }));
}

function renderModel(last) {
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
// The estimates come from the session model (`estimates`), whose exact estimate
// is one dynamic programme per (m, k), extended as n grows: the plot computes its
// points in slices between frames, so it never delays an insertion's paint.

const PLOT_POINTS = 129;
const SLICE_MS = 6;
/** The series being computed: {key, m, k, n, nMax, ns, points, next}. */
let plotJob = null;
let plotData = null;
let plotKey = '';

function defaultNMax(m, k, n) {
  const saturation = Math.ceil((3 * m) / k);
  return Math.min(MAX_ENTRIES, Math.max(saturation, n + Math.ceil(n / 4), 8));
}

function sampleNs(nMax, n) {
  const ns = new Set([n]);
  if (nMax < PLOT_POINTS) for (let i = 0; i <= nMax; i += 1) ns.add(i);
  else for (let i = 0; i < PLOT_POINTS; i += 1) ns.add(Math.round((i * nMax) / (PLOT_POINTS - 1)));
  return [...ns].sort((a, b) => a - b);
}

function updatePlot() {
  if (!view.params) {
    plotJob = null;
    plotData = null;
    plotKey = '';
    $('plot-area').replaceChildren();
    $('plot-caption').textContent = 'No active filter.';
    setBusy();
    return;
  }
  const { m, k } = view.params;
  const n = view.distinct_entries;
  const nMax = defaultNMax(m, k, n);
  const key = `${m}/${k}/${n}/${nMax}`;
  if (key === plotKey) {
    scheduleDraw();
    return;
  }
  if (plotJob && plotJob.key === key) return;
  const job = { key, m, k, n, nMax, ns: sampleNs(nMax, n), points: [], next: 0 };
  plotJob = job;
  setBusy();
  // After the operation's own frame, and after the task that follows it (which
  // records the frame's time): the plot never delays either.
  afterPaint(() => setTimeout(() => { if (plotJob === job) plotSlice(); }, 0));
}

function plotSlice() {
  const job = plotJob;
  if (!job) return;
  const started = performance.now();
  while (job.next < job.ns.length && performance.now() - started < SLICE_MS) {
    const e = estimates(job.m, job.k, job.ns[job.next]);
    job.points.push({ n: e.n, classic: e.classic, finite_m: e.finite_m, exact: e.exact });
    job.next += 1;
  }
  if (job !== plotJob) return;
  if (job.next < job.ns.length) {
    setTimeout(plotSlice, 0);
    return;
  }
  plotJob = null;
  plotData = { m: job.m, k: job.k, n: job.n, n_max: job.nMax, points: job.points };
  plotKey = job.key;
  drawPlot();
  setBusy();
}

let drawPending = false;

function scheduleDraw() {
  if (drawPending) return;
  drawPending = true;
  // After the frame and the task that follows it, as the points are computed.
  afterPaint(() => setTimeout(() => {
    drawPending = false;
    drawPlot();
  }, 0));
}

function niceStep(span, ticks) {
  const raw = span / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) {
    if (factor * power >= raw) return Math.max(1, factor * power);
  }
  return Math.max(1, 10 * power);
}

/** The round step (1, 2 or 5 times a power of ten) at or above `raw`, as [factor, exponent]. */
function roundStep(raw) {
  let exponent = Math.floor(Math.log10(raw));
  for (;;) {
    for (const factor of [1, 2, 5]) {
      if (factor * 10 ** exponent >= raw * (1 - 1e-9)) return [factor, exponent];
    }
    exponent += 1;
  }
}

/** The label of `multiple` × 10^`exponent` (an integer multiple of a round step): plain
 * decimals down to 0.0001, else as 2e-6; a negative value with a true minus sign. */
function stepLabel(multiple, exponent) {
  if (multiple === 0) return '0';
  const sign = multiple < 0 ? '\u2212' : '';
  const magnitude = Math.abs(multiple);
  let text;
  if (exponent >= 0) text = String(magnitude * 10 ** exponent);
  else if (exponent >= -4) text = (magnitude * 10 ** exponent).toFixed(-exponent).replace(/\.?0+$/, '');
  else text = (magnitude * 10 ** exponent).toExponential().replace('e-', 'e\u2212');
  return `${sign}${text}`;
}

/** The width in CSS pixels of `text` in the plot's tick font. */
let tickMeasure = null;
function tickWidth(text) {
  if (!tickMeasure) tickMeasure = document.createElement('canvas').getContext('2d');
  tickMeasure.font = `12px ${getComputedStyle($('plot-area')).fontFamily}`;
  return tickMeasure.measureText(text).width;
}

function linePath(points) {
  return points.map(([px, py], index) => `${index === 0 ? 'M' : 'L'}${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
}

/** How the plot's vertical axis is drawn: `plotMode` is "linear" (the rate, 0 to 1),
 * "log" (the rate, on powers of ten down to the smallest rate plotted) or
 * "difference" (each estimate minus the classic one, scaled to their spread). */
let plotMode = 'linear';

function plotScale(data, plotH, top) {
  const series = ['classic', 'finite_m', 'exact'];
  const edge = (py) => (py < top ? [top, true] : py > top + plotH ? [top + plotH, true] : [py, false]);
  if (plotMode === 'log') {
    const positive = data.points.flatMap((p) => series.map((name) => p[name])).filter((v) => v > 0);
    const low = Math.max(-12, Math.floor(Math.log10(Math.min(...positive, 0.1))));
    const y = (v) => top + (-Math.log10(v) / -low) * plotH;
    const ticks = [];
    const every = Math.max(1, Math.ceil(-low / 6));
    for (let e = 0; e >= low; e -= every) ticks.push([10 ** e, e === 0 ? '1' : `1e${e}`]);
    return {
      y, ticks, axis: 'rate (log scale)', caption: `rates on a log scale from 1e${low} to 1`,
      value: (p, name) => (p[name] > 0 ? Math.max(p[name], 10 ** low) : null),
      clamp: (v) => edge(y(v)),
    };
  }
  if (plotMode === 'difference') {
    const diffs = data.points.flatMap((p) => [p.finite_m - p.classic, p.exact - p.classic]);
    let lo = Math.min(0, ...diffs);
    let hi = Math.max(0, ...diffs);
    if (hi - lo < 1e-15) { lo = -1e-6; hi = 1e-6; }
    // Room beyond the curves, on the sides they reach (0 stays an edge otherwise).
    const pad = (hi - lo) * 0.08;
    if (lo < 0) lo -= pad;
    if (hi > 0) hi += pad;
    // Round ticks: a step of 1, 2 or 5 times a power of ten, the axis widened to whole
    // steps, each tick an exact multiple of the step (its label computed from the
    // multiple, so no 0.30000000000000004 and no -0).
    const [factor, exponent] = roundStep((hi - lo) / 4);
    const step = factor * 10 ** exponent;
    const first = Math.floor(lo / step + 1e-9);
    const last = Math.ceil(hi / step - 1e-9);
    lo = first * step;
    hi = last * step;
    const y = (v) => top + ((hi - v) / (hi - lo)) * plotH;
    const ticks = [];
    for (let i = first; i <= last; i += 1) ticks.push([i * step, stepLabel(i * factor, exponent)]);
    return {
      y, ticks, axis: 'difference', caption: `each estimate minus the classic one, from ${number(lo)} to ${number(hi)}`,
      value: (p, name) => p[name] - p.classic,
      clamp: (v) => edge(y(v)),
    };
  }
  const y = (v) => top + (1 - v) * plotH;
  return {
    y, ticks: [0, 0.25, 0.5, 0.75, 1].map((v) => [v, String(v)]), axis: 'rate', caption: 'rates on a linear scale from 0 to 1',
    value: (p, name) => p[name],
    clamp: (v) => edge(y(v)),
  };
}

function drawPlot() {
  const area = $('plot-area');
  const caption = $('plot-caption');
  if (!plotData || !view.params) return;
  const data = plotData;
  const width = Math.max(280, Math.floor(measured.plot));
  const height = Math.round(Math.min(300, Math.max(220, width * 0.4)));
  // Labels live in the margins, never on the curves; the left margin holds the widest
  // tick label and, left of it, the rotated axis label (x 3 to 15), with a gap.
  const margin = { left: 48, right: 14, top: 26, bottom: 40 };
  const plotH = height - margin.top - margin.bottom;
  const scale = plotScale(data, plotH, margin.top);
  const widest = Math.max(0, ...scale.ticks.map(([, label]) => tickWidth(label)));
  margin.left = Math.max(48, Math.ceil(widest + 6 + 20));
  const plotW = width - margin.left - margin.right;
  const x = (n) => margin.left + (n / data.n_max) * plotW;
  const { y, value } = scale;
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-labelledby': 'plot-svg-title plot-svg-desc', class: 'plot',
  });
  const n = data.n;
  const current = n === view.distinct_entries;
  const at = data.points.find((point) => point.n === n);
  root.append(svg('title', { id: 'plot-svg-title' }, `Ideal-model false-positive estimates against n for m = ${data.m}, k = ${data.k}`));
  const desc = svg('desc', { id: 'plot-svg-desc' }, '');
  root.append(desc);
  for (const [v, label] of scale.ticks) {
    root.append(svg('line', { x1: margin.left, x2: width - margin.right, y1: y(v), y2: y(v), class: 'gridline' }));
    root.append(svg('text', { x: margin.left - 6, y: y(v) + 4, class: 'tick', 'text-anchor': 'end' }, label));
  }
  const step = niceStep(data.n_max, width < 420 ? 4 : 8);
  for (let tick = 0; tick <= data.n_max; tick += step) {
    root.append(svg('line', { x1: x(tick), x2: x(tick), y1: margin.top + plotH, y2: margin.top + plotH + 4, class: 'axis' }));
    root.append(svg('text', { x: x(tick), y: margin.top + plotH + 16, class: 'tick', 'text-anchor': 'middle' }, String(tick)));
  }
  root.append(svg('line', { x1: margin.left, x2: width - margin.right, y1: margin.top + plotH, y2: margin.top + plotH, class: 'axis' }));
  root.append(svg('line', { x1: margin.left, x2: margin.left, y1: margin.top, y2: margin.top + plotH, class: 'axis' }));
  root.append(svg('text', { x: margin.left + plotW / 2, y: height - 6, class: 'axislabel', 'text-anchor': 'middle' }, 'n, distinct entries'));
  root.append(svg('text', { x: 12, y: margin.top + plotH / 2, class: 'axislabel', 'text-anchor': 'middle', transform: `rotate(-90 12 ${margin.top + plotH / 2})` }, scale.axis));
  for (const series of ['classic', 'finite_m', 'exact']) {
    const points = data.points.map((point) => [point.n, value(point, series)]).filter(([, v]) => v !== null);
    root.append(svg('path', { d: linePath(points.map(([pn, v]) => [x(pn), y(v)])), class: `series ${series}`, 'data-series': series }));
  }
  const xn = x(n);
  root.append(svg('line', { x1: xn, x2: xn, y1: margin.top, y2: margin.top + plotH, class: 'current' }));
  const labelRight = xn < margin.left + plotW * 0.7;
  root.append(svg('text', { x: xn + (labelRight ? 4 : -4), y: margin.top - 8, class: 'marklabel', 'text-anchor': labelRight ? 'start' : 'end' }, `n = ${n}`));
  let observedNote = '';
  if (current && view.rate.state === 'defined') {
    const observed = value({ ...at, observed: view.rate.value }, 'observed');
    // A rate of 0 has no place on a log scale: it is drawn at the bottom edge.
    const [yo, clipped] = observed === null ? [margin.top + plotH, true] : scale.clamp(observed);
    const s = 6;
    root.append(svg('path', { d: `M${xn},${yo - s} L${xn + s},${yo} L${xn},${yo + s} L${xn - s},${yo} Z`, class: 'observed' }));
    if (observed === null) observedNote = ': 0, which a log scale cannot show, drawn at the bottom edge';
    else if (clipped) observedNote = ': off the scale, drawn at its edge';
  }
  area.replaceChildren(root);
  const parts = [`m = ${data.m}, k = ${data.k}, n from 0 to ${data.n_max}; ${scale.caption}.`];
  if (at) parts.push(`At n = ${n}: classic ${number(at.classic)}, finite m ${number(at.finite_m)}, exact ${number(at.exact)}.`);
  if (current) {
    parts.push(view.rate.state === 'defined'
      ? `Observed rate ${view.rate.false_positives}/${view.rate.negative_queries} = ${number(view.rate.value)} (diamond${observedNote}).`
      : 'Observed rate undefined (no negative query yet).');
  }
  caption.textContent = parts.join(' ');
  desc.textContent = caption.textContent;
}

// ---------------------------------------------------------------- session: export, import, share

/** Offers `text` as a file download named `name`. */
function downloadText(text, name) {
  const blob = new Blob([text], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function exportSession() {
  const params = view.params ? `-m${view.params.m}-k${view.params.k}` : '';
  downloadText(session.exportText(), `bloomproof-session${params}.json`);
  showMsg('session-msg', 'Session exported as a JSON file.', false);
}

/** Replaces the whole session by `text` (an export), or says why not and changes nothing. */
function importText(text, name, msgId) {
  const before = discards() ? snapshot(`The import of ${name}`) : null;
  const ok = attempt(() => session.importText(text), msgId, 'import', []);
  if (!ok) {
    const node = $(msgId);
    node.append(' The filter was left as it was.');
    node.prepend(`${name}: `);
    return false;
  }
  for (const field of DRAFT_FIELDS) delete rawDrafts[field];
  olderOps = 0;
  historyKey = '';
  historyShown.total = -1;
  refresh({ drafts: true });
  showMsg(msgId, `Imported ${name}.`, false);
  if (before) offerUndo(before, `Imported ${name}; it replaced a filter of ${plural(before.state.active.entries.length, 'entry', 'entries')}.`, msgId);
  return true;
}

async function importFile(file) {
  if (file.size > IMPORT_MAX_BYTES) {
    showMsg('session-msg', `${file.name}: the file is ${file.size} bytes, over 2 MiB (${IMPORT_MAX_BYTES} bytes), the largest session file: it was not read. The filter was left as it was.`, true);
    return;
  }
  let text;
  try {
    // Not UTF-8 is a syntax error; a byte-order mark stays in the text (and is one too).
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(await file.arrayBuffer());
  } catch (error) {
    showMsg('session-msg', `${file.name}: the file is not UTF-8 text, so not a session file. The filter was left as it was.`, true);
    return;
  }
  importText(text, file.name, 'session-msg');
}

function base64url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The shareable link's fragment: `#share=` and the base64url of
 * `{"v":1,"m":..,"k":..,"entries":[Text, ...]}` (a lone surrogate makes a Text an array of code units). */
function shareFragment() {
  const exported = session.exportText();
  const parsed = parseJson(exported, { maxDepth: 127 });
  const entries = parsed.entries;
  const json = `{"v":1,"m":${view.params.m},"k":${view.params.k},"entries":[${entries.map((e) => (typeof e === 'string' ? JSON.stringify(e) : `[${e.map((u) => u.text).join(',')}]`)).join(',')}]}`;
  return `#share=${base64url(new TextEncoder().encode(json))}`;
}

function makeLink() {
  if (!view.params) {
    showMsg('share-msg', 'There is no filter to share yet: enter m and k, then press Create.', true);
    return;
  }
  const link = `${location.href.split('#')[0]}${shareFragment()}`;
  $('share-link').value = link;
  showMsg('share-msg', `Copy the link above (${link.length} characters).`, false);
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(link).then(
      () => showMsg('share-msg', `Link copied to the clipboard (${link.length} characters).`, false),
      () => {},
    );
  }
}

class LinkError extends Error {}

/** Reads a shared link (or its fragment): {m, k, entries}, or throws LinkError. */
function readLink(text) {
  const at = text.indexOf('#share=');
  if (at < 0) throw new LinkError('it has no "#share=" part');
  const code = text.slice(at + '#share='.length).trim();
  if (!/^[A-Za-z0-9_-]*$/.test(code)) throw new LinkError('the part after "#share=" is not base64url');
  let json;
  try {
    const binary = atob(code.replace(/-/g, '+').replace(/_/g, '/'));
    json = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch (error) {
    throw new LinkError('the part after "#share=" does not decode to UTF-8 text');
  }
  let doc;
  try {
    doc = parseJson(json, { maxDepth: 4 });
  } catch (error) {
    throw new LinkError(`it does not hold JSON (${error.message})`);
  }
  const isObject = doc !== null && typeof doc === 'object' && !Array.isArray(doc) && !(doc instanceof JsonNumber);
  if (!isObject || doc[DUPLICATE_KEYS]) throw new LinkError('it does not hold one object with the keys v, m, k and entries, each once');
  const keys = Object.keys(doc).sort().join(',');
  if (keys !== 'entries,k,m,v') throw new LinkError('it does not hold exactly the keys v, m, k and entries');
  const int = (v) => (v instanceof JsonNumber && v.isUnsignedInteger && v.bigint <= 100000n ? Number(v.bigint) : null);
  if (int(doc.v) !== 1) throw new LinkError('its version is not 1');
  const m = int(doc.m);
  const k = int(doc.k);
  if (m === null || k === null) throw new LinkError('m and k are not whole numbers');
  if (!Array.isArray(doc.entries)) throw new LinkError('its entries are not a list');
  const seen = new Set();
  const entries = doc.entries.map((entry, i) => {
    const value = Array.isArray(entry) ? entry.map((u) => int(u)) : entry;
    const s = textOf(value);
    if (s === undefined || s === null) throw new LinkError(`entry ${i + 1} is not a string or a list of code units`);
    if (seen.has(s)) throw new LinkError(`entry ${i + 1} repeats an earlier one (a link lists each entry once)`);
    seen.add(s);
    return s;
  });
  return { m, k, entries };
}

/** Restores m, k and the entries of a link: ordinary operations, all or nothing. */
function restoreLink(text, msgId) {
  let shared;
  try {
    shared = readLink(text);
  } catch (error) {
    if (!(error instanceof LinkError)) throw error;
    showMsg(msgId, `The link was not restored, the filter is unchanged: ${error.message}.`, true);
    return;
  }
  const before = snapshot('The restore from a link');
  const raw = { ...rawDrafts };
  try {
    session.setDraft('m', String(shared.m));
    session.setDraft('k', String(shared.k));
    session.create();
    for (const entry of shared.entries) session.insert(entry);
  } catch (error) {
    session.restoreState(before.state);
    if (!(error instanceof SessionError)) throw error;
    showMsg(msgId, `The link was not restored, the filter is unchanged: ${humanError(error, 'link').text}`, true);
    return;
  }
  for (const field of ['m', 'k']) delete rawDrafts[field];
  Object.assign(rawDrafts, { insert: raw.insert, query: raw.query });
  for (const field of DRAFT_FIELDS) if (rawDrafts[field] === undefined) delete rawDrafts[field];
  olderOps = Math.max(0, shared.entries.length - HISTORY_CAP);
  historyKey = '';
  historyShown.total = -1;
  refresh({ drafts: true });
  const undo = undoButton(before, 'Undo restore', msgId, 'The previous session is back.');
  showMsg(msgId, `Restored from a shared link: m = ${shared.m}, k = ${shared.k}, ${plural(shared.entries.length, 'entry', 'entries')}.`, false, undo);
}

function restoreFromLocation() {
  if (!location.hash.startsWith('#share=')) return;
  const fragment = location.hash;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  restoreLink(fragment, 'notice');
}

// ---------------------------------------------------------------- start

function load() {
  let stored = null;
  let page = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
    page = localStorage.getItem(PAGE_KEY);
  } catch (error) {
    stored = null;
  }
  if (stored !== null) {
    try {
      session.importText(stored);
      storedText = stored;
      $('save-status').textContent = 'Session restored from this browser.';
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
      showUnreadable(stored, humanError(error, 'import').text);
    }
  } else {
    $('save-status').textContent = 'New session.';
  }
  view = session.view();
  if (storedText !== null && page !== null) {
    try {
      const extra = JSON.parse(page);
      for (const field of DRAFT_FIELDS) {
        const units = extra?.drafts?.[field];
        if (!Array.isArray(units) || !units.every((u) => Number.isInteger(u) && u >= 0 && u <= 0xffff)) continue;
        const raw = String.fromCharCode(...units);
        if (wellFormed(raw) === view.drafts[field]) rawDrafts[field] = raw;
      }
      if (Number.isSafeInteger(extra?.older) && extra.older > 0 && view.history.length >= HISTORY_CAP) olderOps = extra.older;
    } catch (error) {
      // A damaged page record only loses the raw drafts and the older count.
    }
  }
  measureLayout();
  render(true);
  updateExportNote();
  saved = unreadable === null;
  restoreFromLocation();
}

let resizeTimer = null;

function wire() {
  // The scripts run: the hint for a page opened as a file is not needed.
  $('boot-hint')?.remove();
  for (const field of DRAFT_FIELDS) {
    $(field).addEventListener('input', (event) => setDraft(field, event.target.value));
    // A one-line field would silently drop or replace a pasted line break: refuse the
    // paste and say why, rather than insert another string than the one pasted.
    $(field).addEventListener('paste', (event) => {
      const text = event.clipboardData ? event.clipboardData.getData('text/plain') : '';
      const breaks = (text.match(/\r\n|\r|\n/g) || []).length;
      if (breaks === 0) return;
      event.preventDefault();
      const msgId = field === 'm' || field === 'k' ? 'filter-msg' : 'ops-msg';
      showMsg(msgId, `The pasted text has ${plural(breaks, 'line break', 'line breaks')}, which a one-line field cannot hold, so nothing was pasted (the browser would have dropped or replaced ${breaks === 1 ? 'it' : 'them'}, giving another string). Paste one line at a time; a string with a line break can come from an imported session file or a shared link.`, true);
      $(field).setAttribute('aria-invalid', 'true');
    });
  }
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEY && event.storageArea === localStorage) noticeOtherTab(event.newValue);
  });
  $('create-form').addEventListener('submit', (event) => {
    event.preventDefault();
    create();
  });
  for (const kind of ['insert', 'query']) {
    $(`${kind}-form`).addEventListener('submit', (event) => {
      event.preventDefault();
      operate(kind, event.timeStamp);
    });
  }
  // The example's and Reset's messages stand beside their buttons (state-msg), where
  // the eye is when they are pressed.
  $('example').addEventListener('click', () => {
    const before = view.history.length;
    if (attempt(() => session.insertExample(), 'state-msg', 'example', [])) {
      olderOps += Math.max(0, before + 8 - HISTORY_CAP);
      refresh();
    }
  });
  $('reset').addEventListener('click', () => {
    const before = discards() ? snapshot('Reset') : null;
    if (attempt(() => session.reset(), 'state-msg', 'reset', [])) {
      refresh();
      if (before) offerUndo(before, `Reset emptied the filter of its ${plural(before.state.active.entries.length, 'entry', 'entries')}.`, 'state-msg');
    }
  });
  for (const name of ['positions', 'model']) {
    const details = $(`${name}-panel`);
    const setPanel = () => {
      if (details.open === view.panels[name]) return;
      session.setPanel(name, details.open);
      view = session.view();
      scheduleSave();
    };
    // A click (or Enter or Space) on the summary toggles the panel in the same
    // event; the "toggle" event comes later, and covers the other ways a panel
    // opens (find in page).
    details.querySelector('summary').addEventListener('click', (event) => {
      event.preventDefault();
      details.open = !details.open;
      setPanel();
    });
    details.addEventListener('toggle', setPanel);
  }
  $('export').addEventListener('click', exportSession);
  $('import-file').addEventListener('change', (event) => {
    const input = event.target;
    const file = input.files && input.files[0];
    input.value = '';
    if (file) importFile(file);
  });
  $('share').addEventListener('click', makeLink);
  $('plot-mode').addEventListener('change', (event) => {
    plotMode = event.target.value;
    drawPlot();
  });
  $('share-link').addEventListener('focus', (event) => event.target.select());
  $('restore-form').addEventListener('submit', (event) => {
    event.preventDefault();
    restoreLink($('restore-link').value, 'share-msg');
  });
  window.addEventListener('hashchange', restoreFromLocation);
  new IntersectionObserver(detailsInView, { rootMargin: '50% 0px' }).observe($('details'));
  // A new colour scheme draws the grid again in its colours (in the frame that shows it).
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redrawColours);
  // The bit under the pointer, as the cells' tooltips said.
  $('bitcanvas').addEventListener('pointermove', (event) => {
    if (!grid.shape) return;
    const col = Math.floor((event.offsetX - grid.inset + measured.gap / 2) / grid.pitch);
    const row = Math.floor((event.offsetY - grid.inset + measured.gap / 2) / grid.pitch);
    const p = row * grid.cols + col;
    const canvas = event.currentTarget;
    if (col < 0 || col >= grid.cols || row < 0 || p >= grid.m) {
      canvas.title = '';
      return;
    }
    const indices = grid.marks.get(p);
    canvas.title = `bit ${p} = ${grid.bits[p]} (row ${row * grid.cols}, column ${col})${indices ? `; position of the last ${grid.kind} (i = ${indices.join(', ')})` : ''}`;
  });
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      resizeTimer = null;
      measureLayout();
      grid.shape = '';
      renderGrid();
      drawPlot();
      updateDock();
      markLayout();
      setBusy();
    }, 100);
    setBusy();
  });
  // Leaving: store what is pending; ask first when the session cannot be stored.
  window.addEventListener('pagehide', () => {
    if (saveTimer !== null) saveNow();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden' && saveTimer !== null) saveNow();
  });
  window.addEventListener('beforeunload', (event) => {
    if (saveTimer !== null) saveNow();
    if (!saved) {
      event.preventDefault();
      event.returnValue = '';
    }
  });
  load();
  interactive = true;
  setBusy();
}

/** For tests and for people at the console: the session model the page renders from. */
window.bloomproofExplorer = Object.freeze({
  view: () => session.view(),
  exportText: () => session.exportText(),
});

wire();
