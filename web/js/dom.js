// SPDX-License-Identifier: MIT
// DOM building without innerHTML: h(), svg(), clear(), figures that carry their place in the result, JSON pointers, the toast.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const el = UI.el;
  const { t } = UI;

  function h(tag, props) {
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
        else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
        else node.setAttribute(k, v === true ? '' : String(v));
      });
    }
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

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === 'string' || typeof child === 'number'
      ? document.createTextNode(String(child)) : child);
  }

  function svg(tag, attrs) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function toast(message) {
    el.toast.textContent = message;
    el.toast.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { el.toast.hidden = true; }, 2200);
  }

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
  function fig() {
    const args = Array.prototype.slice.call(arguments);
    const given = args[0] && args[0].nodeType === 1 ? args.shift() : null;
    const result = args[0], pointer = args[1], format = args[2];
    const opts = typeof args[3] === 'string' ? { cls: args[3] } : (args[3] || {});
    const value = pointerGet(result, pointer);
    const none = value === null || value === undefined;
    const node = given || h('span', { class: opts.cls ? 'fig ' + opts.cls : 'fig' });
    node.dataset.field = pointer;
    if (format && format.bytes) node.dataset.bytes = String(value);
    else node.dataset.value = none ? 'null' : String(value);
    append(node, none ? (opts.none || '—') : format ? format(value) : String(value));
    if (opts.unit && !none) node.appendChild(h('span', { class: 'unit', text: opts.unit }));
    return node;
  }

  /** A pointer segment that could reach a prototype: never read or written through. */
  function unsafeKey(key) { return key === '__proto__' || key === 'constructor' || key === 'prototype'; }

  /** Sets the value at a JSON pointer, making objects on the way; refuses prototype keys (returns false). */
  function pointerSet(obj, path, value) {
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

  /**
   * The value at a JSON pointer (RFC 6901: "~1" is "/", "~0" is "~"); a segment "@id" picks the
   * element of an array whose gpu is id (/options/@h100-sxm-80gb/min_count). undefined if absent.
   */
  function pointerGet(obj, path) {
    const parts = path.split('/').slice(1);
    let o = obj;
    for (let i = 0; i < parts.length; i++) {
      if (o === null || typeof o !== 'object') return undefined;
      const key = parts[i].replace(/~1/g, '/').replace(/~0/g, '~');
      if (key.charAt(0) === '@' && Array.isArray(o)) {
        o = o.filter(function (x) { return x && x.gpu === key.slice(1); })[0];
      } else if (Object.prototype.hasOwnProperty.call(o, key) && !unsafeKey(key)) {
        o = o[key];
      } else {
        return undefined;
      }
    }
    return o;
  }

  /** Puts text on the clipboard (the API, else a selected textarea); says so in a toast. */
  function copyText(text, okMessage, failMessage) {
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
  function showCopyBox(text, failMessage) {
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

  Object.assign(UI, { append, clear, copyText, showCopyBox, fig, h, pointerGet, pointerSet, svg, toast });
})();
