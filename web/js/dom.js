// SPDX-License-Identifier: MIT
// DOM building without innerHTML: h(), svg(), clear(), figures that carry their place in the result,
// JSON pointers, the toast, the clipboard, tasks after a frame, the timing marks.
import { t } from './i18n.js';
import { keyNode, on } from './patch.js';

export function h(tag, props) {
  const node = document.createElement(tag);
  if (props) {
    Object.keys(props).forEach(function (k) {
      const v = props[k];
      if (v === null || v === undefined || v === false) return;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      // One property at a time through the CSSOM (style.setProperty), which a strict style-src
      // policy allows; a style attribute (setAttribute, or markup) it blocks.
      else if (k === 'style') setStyle(node, String(v));
      else if (k === 'dataset') Object.keys(v).forEach(function (d) { node.dataset[d] = v[d]; });
      else if (k.slice(0, 2) === 'on') on(node, k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    });
  }
  if (props && (props.id !== undefined || props.dataset)) keyNode(node);
  for (let i = 2; i < arguments.length; i++) append(node, arguments[i]);
  return node;
}

/** "width:40%;background:#fff" -> node.style.setProperty for each declaration. */
function setStyle(node, text) {
  text.split(';').forEach(function (decl) {
    const colon = decl.indexOf(':');
    if (colon < 0) return;
    const name = decl.slice(0, colon).trim();
    let value = decl.slice(colon + 1).trim();
    const important = /!important$/i.test(value);
    if (important) value = value.replace(/!important$/i, '').trim();
    if (name) node.style.setProperty(name, value, important ? 'important' : '');
  });
}

export function append(node, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
  node.appendChild(typeof child === 'string' || typeof child === 'number'
    ? document.createTextNode(String(child)) : child);
}

export function svg(tag, attrs) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
  keyNode(node);
  return node;
}

/** node.textContent = text, only when it differs (a write replaces the text node and lays it out again). */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

// A toast says that something just happened: it goes after a few seconds, and at the next thing
// the user does (a press, a key), so none is left on screen over the page. The listeners run in
// the capture phase, before the press's own click shows its toast.
const TOAST_MS = 2200;
let toastTimer = null;
let toastWatch = false;
function hideToast() {
  const node = document.getElementById('toast');
  clearTimeout(toastTimer);
  if (node && !node.hidden) node.hidden = true;
}
export function toast(message) {
  const node = document.getElementById('toast');
  if (!toastWatch) {
    toastWatch = true;
    document.addEventListener('pointerdown', hideToast, true);
    document.addEventListener('keydown', hideToast, true);
  }
  node.textContent = message;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideToast, TOAST_MS);
}

const NO_OPTS = Object.freeze({});

/**
 * One figure of the result, written once: reads the value at `pointer` in `result` and writes
 * the text, data-field = pointer, and the raw value (data-bytes when the format takes bytes,
 * see asBytes(); data-value otherwise), so the page test can compare it with the native CLI.
 *   fig(result, pointer, format, opts) -> a new <span class="fig">
 *   fig(node, result, pointer, format, opts) -> `node` (a pill, a table cell...), filled the same way
 * format(value) returns text or nodes (absent: String(value)); a null or missing value shows
 * opts.none or "—". opts: extra classes as a string, or {cls, none, unit} (unit: a <span
 * class="unit"> after the figure).
 */
export function fig(a0, a1, a2, a3, a4) {
  const given = a0 && a0.nodeType === 1;
  const result = given ? a1 : a0, pointer = given ? a2 : a1, format = given ? a3 : a2;
  const o = given ? a4 : a3;
  const opts = typeof o === 'string' ? { cls: o } : (o || NO_OPTS);
  const value = pointerGet(result, pointer);
  const none = value === null || value === undefined;
  let node = a0;
  if (!given) {
    node = document.createElement('span');
    node.className = opts.cls ? 'fig ' + opts.cls : 'fig';
  }
  node.setAttribute('data-field', pointer);
  if (format && format.bytes) node.setAttribute('data-bytes', String(value));
  else node.setAttribute('data-value', none ? 'null' : String(value));
  append(node, none ? (opts.none || '—') : format ? format(value) : String(value));
  if (opts.unit && !none) node.appendChild(h('span', { class: 'unit', text: opts.unit }));
  return node;
}

// Tasks after the page has shown a change: the sections off screen, the address.
const channel = window.MessageChannel ? new MessageChannel() : null;
const posted = [];
if (channel) channel.port1.onmessage = function () { const f = posted.shift(); if (f) f(); };
/** f in a task of its own, soon (a message: no 4 ms clamp as with nested timers). */
export function nextTask(f) {
  if (channel) { posted.push(f); channel.port2.postMessage(0); } else setTimeout(f, 0);
}

/** f in a task after the next frame (or after 100 ms when no frame comes: a hidden page). */
export function afterFrame(f) {
  let done = false;
  const go = function () { if (done) return; done = true; clearTimeout(timer); nextTask(f); };
  const timer = setTimeout(go, 100);
  requestAnimationFrame(go);
}

/**
 * Where a re-render's time goes (bench/page_bench.cjs collects it through
 * gpuAdvisor.internals.onTiming(fn); otherwise nothing is recorded). mark(name, t0) reports
 * now - t0 under name and returns now.
 */
let onTiming = null;
export function setTimingHook(fn) { onTiming = typeof fn === 'function' ? fn : null; }

export const timing = {
  now: function () { return onTiming ? performance.now() : 0; },
  mark: function (name, t0) {
    if (!onTiming) return 0;
    const now = performance.now();
    onTiming(name, now - t0);
    return now;
  },
};

/** A pointer segment that could reach a prototype: never read or written through. */
function unsafeKey(key) { return key === '__proto__' || key === 'constructor' || key === 'prototype'; }

/** Sets the value at a JSON pointer, making objects on the way; refuses prototype keys (returns false). */
export function pointerSet(obj, path, value) {
  const parts = path.split('/').slice(1).map(function (p) { return p.replace(/~1/g, '/').replace(/~0/g, '~'); });
  if (!parts.length || parts.some(unsafeKey)) return false;
  let o = obj;
  for (let i = 0; i < parts.length - 1; i++) {
    const k = parts[i];
    if (!Object.prototype.hasOwnProperty.call(o, k) || typeof o[k] !== 'object' || o[k] === null) o[k] = {};
    o = o[k];
  }
  o[parts[parts.length - 1]] = value;
  return true;
}

// A pointer's segments, unescaped, kept per pointer text: a render reads the same few thousand
// pointers each time.
const partsCache = new Map();
function pointerParts(path) {
  let parts = partsCache.get(path);
  if (!parts) {
    parts = path.split('/').slice(1).map(function (p) { return p.replace(/~1/g, '/').replace(/~0/g, '~'); });
    if (partsCache.size > 20000) partsCache.clear();
    partsCache.set(path, parts);
  }
  return parts;
}

// An array's elements by their gpu (the first of each), built once per array: a table reads
// every figure of every option through /options/@id/... .
const gpuIndex = new WeakMap();
function byGpu(list) {
  let index = gpuIndex.get(list);
  if (!index) {
    index = new Map();
    list.forEach(function (x) { if (x && typeof x.gpu === 'string' && !index.has(x.gpu)) index.set(x.gpu, x); });
    gpuIndex.set(list, index);
  }
  return index;
}

/**
 * The value at a JSON pointer (RFC 6901: "~1" is "/", "~0" is "~"); a segment "@id" picks the
 * element of an array whose gpu is id (/options/@h100-sxm-80gb/min_count). undefined if absent.
 */
export function pointerGet(obj, path) {
  const parts = pointerParts(path);
  let o = obj;
  for (let i = 0; i < parts.length; i++) {
    if (o === null || typeof o !== 'object') return undefined;
    const key = parts[i];
    if (key.charAt(0) === '@' && Array.isArray(o)) {
      o = byGpu(o).get(key.slice(1));
    } else if (Object.prototype.hasOwnProperty.call(o, key) && !unsafeKey(key)) {
      o = o[key];
    } else {
      return undefined;
    }
  }
  return o;
}

/** Puts text on the clipboard (the API, else a selected textarea); says so in a toast. */
export function copyText(text, okMessage, failMessage) {
  const done = function () { toast(okMessage || t('toast.copied')); };
  const fallback = function () {
    const area = h('textarea', { class: 'sr-only', readonly: true, 'aria-hidden': 'true' });
    area.value = text;
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    area.remove();
    if (ok) done();
    else showCopyBox(text, failMessage);
  };
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(text).then(done, fallback);
  } else {
    fallback();
  }
}

/**
 * The clipboard is blocked (a cross-origin iframe without clipboard-write, a browser setting):
 * the text in a read-only box, selected, for the user to copy by hand.
 */
export function showCopyBox(text, failMessage) {
  let box = document.getElementById('copy-box');
  if (!box) {
    box = h('div', { id: 'copy-box', class: 'copy-box', role: 'dialog', 'aria-labelledby': 'copy-box-label' },
      h('label', { id: 'copy-box-label', for: 'copy-box-text' }),
      h('input', { id: 'copy-box-text', type: 'text', readonly: true, spellcheck: 'false' }),
      h('button', { type: 'button', class: 'btn btn-small', id: 'copy-box-close',
        onclick: function () { box.hidden = true; } }));
    box.addEventListener('keydown', function (e) { if (e.key === 'Escape') box.hidden = true; });
    document.body.appendChild(box);
  }
  box.querySelector('label').textContent = failMessage || t('toast.copy_failed');
  box.querySelector('button').textContent = t('copy.close');
  const field = box.querySelector('input');
  field.value = text;
  box.hidden = false;
  field.focus();
  field.select();
}
