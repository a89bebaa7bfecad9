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
        else if (k.slice(0, 2) === 'on') on(node, k.slice(2), v);
        else node.setAttribute(k, v === true ? '' : String(v));
      });
    }
    if (props && (props.id !== undefined || props.dataset)) markKey(node);
    for (let i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  /**
   * A listener that a re-render can hand over (patchChildren): the node keeps one dispatcher per
   * event type, and the handler it calls lives in node.__on. h()'s on* properties use it.
   */
  function on(node, type, handler) {
    const map = node.__on || (node.__on = Object.create(null));
    if (!map[type]) node.addEventListener(type, dispatch);
    map[type] = handler;
  }

  function dispatch(e) {
    const f = this.__on && this.__on[e.type];
    if (f) return f.call(this, e);
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
    markKey(node);
    return node;
  }

  /** node.__k: the node's key among its siblings (patchChildren), from its first key attribute. */
  function markKey(node) {
    node.__k = undefined;
    for (let i = 0; i < KEY_ATTRS.length; i++) {
      const v = node.getAttribute(KEY_ATTRS[i]);
      if (v !== null) { node.__k = KEY_ATTRS[i] + '=' + v; return node; }
    }
    return node;
  }

  /**
   * Makes `live`'s children look like `fresh`'s (a detached copy the renderer just built) while
   * touching only what differs (issue 13: a re-render within one frame). A child is matched by its
   * key (id, data-key, data-gpu, data-row, data-col, data-panel: node.__k) or else by the next
   * unkeyed child with the same tag; a matched element keeps its node (no new style or layout
   * object, focus and scroll kept) and gets the fresh one's attributes, inline style (through the
   * CSSOM), listeners (on()) and children. A form control (input, select, textarea) is taken
   * whole from `fresh` (it carries its own listeners and typed state). A <details> the visitor
   * opened stays open. A fresh node made by keep() leaves its match as it is. What is left of
   * `fresh` is for the garbage collector.
   */
  const WHOLE = { INPUT: true, SELECT: true, TEXTAREA: true };
  // The attributes that name a child among its siblings; h() and svg() copy the first one into
  // node.__k (a property read is far cheaper than getAttribute on thousands of nodes).
  const KEY_ATTRS = ['id', 'data-key', 'data-gpu', 'data-row', 'data-col', 'data-panel'];

  function same(o, n) {
    return o.nodeType === n.nodeType && o.nodeName === n.nodeName && o.__k === n.__k && !WHOLE[o.nodeName];
  }

  function patchNode(o, n) {
    if (n.__keep) return; // keep(): the live node stays as it is
    if (o.nodeType === 1) patchElement(o, n);
    else if (o.data !== n.data) o.data = n.data;
  }

  /**
   * A stand-in for `live` (an element of the page, keyed) in a fresh tree: patchChildren keeps
   * the live node, unpatched. For a renderer that knows the node is already right (node.__memo:
   * a key of what it was built from, which patchChildren carries over) or that draws it later.
   */
  function keep(live) {
    const stub = document.createElement(live.nodeName);
    stub.__k = live.__k;
    stub.__keep = true;
    return stub;
  }

  function patchChildren(live, fresh) {
    // The usual case: the same children in the same order, each patched in place.
    let o = live.firstChild, n = fresh.firstChild;
    while (o && n && same(o, n)) {
      patchNode(o, n);
      o = o.nextSibling;
      n = n.nextSibling;
    }
    if (!o && !n) return;
    // From the first difference: match by key, else by the next unkeyed child with the same tag.
    const olds = [];
    for (let x = o; x; x = x.nextSibling) olds.push(x);
    const news = [];
    for (let x = n; x; x = x.nextSibling) news.push(x);
    const keyed = new Map();
    const unkeyed = [];
    olds.forEach(function (x) {
      if (x.__k === undefined) unkeyed.push(x);
      else if (keyed.has(x.__k)) keyed.get(x.__k).push(x);
      else keyed.set(x.__k, [x]);
    });
    const used = new Set();
    let cursor = 0;
    let at = o; // the next live node to place before
    for (let i = 0; i < news.length; i++) {
      const f = news[i];
      let match = null;
      if (f.__k !== undefined) {
        const list = keyed.get(f.__k);
        while (list && list.length && !match) { const c = list.shift(); if (c.nodeName === f.nodeName) match = c; }
      } else {
        for (let j = cursor; j < unkeyed.length; j++) {
          const c = unkeyed[j];
          if (c.nodeType === f.nodeType && c.nodeName === f.nodeName) { match = c; cursor = j + 1; break; }
        }
      }
      let refocus = false;
      if (match && WHOLE[match.nodeName]) {
        refocus = document.activeElement === match;
        match = null;
      }
      if (!match && f.__keep) throw new Error('keep(): no live node ' + f.__k);
      let node = f;
      if (match) {
        used.add(match);
        patchNode(match, f);
        node = match;
      }
      while (at && used.has(at) && at !== node) at = at.nextSibling; // already placed
      if (at === node) at = at.nextSibling;
      else live.insertBefore(node, at);
      if (refocus) node.focus({ preventScroll: true });
    }
    olds.forEach(function (x) { if (!used.has(x) && x.parentNode === live) live.removeChild(x); });
  }

  function patchElement(live, fresh) {
    // Attribute names and values as strings (reading attributes[i] would make an Attr node each).
    const names = fresh.getAttributeNames();
    let shared = 0, styled = false;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (name === 'style') { styled = true; continue; }
      const value = fresh.getAttribute(name), was = live.getAttribute(name);
      if (was !== null) shared++;
      if (was !== value) live.setAttribute(name, value);
    }
    const liveNames = live.getAttributeNames();
    if (liveNames.length > shared) {
      for (let i = 0; i < liveNames.length; i++) {
        const name = liveNames[i];
        if (name === 'style') { styled = true; continue; }
        if (fresh.hasAttribute(name)) continue;
        if (name === 'open' && live.nodeName === 'DETAILS') continue; // opened by the visitor
        live.removeAttribute(name);
      }
    }
    if (styled && live.style.cssText !== fresh.style.cssText) {
      // Through the CSSOM, one property at a time (a strict style-src blocks the attribute).
      for (let i = live.style.length - 1; i >= 0; i--) live.style.removeProperty(live.style[i]);
      for (let i = 0; i < fresh.style.length; i++) {
        const name = fresh.style[i];
        live.style.setProperty(name, fresh.style.getPropertyValue(name), fresh.style.getPropertyPriority(name));
      }
    }
    if (fresh.__on || live.__on) {
      const map = fresh.__on || Object.create(null);
      Object.keys(map).forEach(function (type) { if (!live.__on || !live.__on[type]) live.addEventListener(type, dispatch); });
      live.__on = map;
    }
    if (live.__memo !== fresh.__memo) live.__memo = fresh.__memo;
    if (live.firstChild || fresh.firstChild) {
      // One text child on both sides (most figures): the text alone.
      const lf = live.firstChild, ff = fresh.firstChild;
      if (lf && ff && lf.nodeType === 3 && ff.nodeType === 3 && !lf.nextSibling && !ff.nextSibling) {
        if (lf.data !== ff.data) lf.data = ff.data;
      } else {
        patchChildren(live, fresh);
      }
    }
  }

  /** node.textContent = text, only when it differs (a write replaces the text node and lays it out again). */
  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function toast(message) {
    el.toast.textContent = message;
    el.toast.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { el.toast.hidden = true; }, 2200);
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
  function fig(a0, a1, a2, a3, a4) {
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

  /**
   * Where a re-render's time goes (bench/page_bench.cjs sets UI.onTiming(name, ms) to collect it;
   * otherwise nothing is recorded). mark(name, t0) reports now - t0 under name and returns now.
   */
  const timing = {
    now: function () { return UI.onTiming ? performance.now() : 0; },
    mark: function (name, t0) {
      if (!UI.onTiming) return 0;
      const now = performance.now();
      UI.onTiming(name, now - t0);
      return now;
    },
  };

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
  function pointerGet(obj, path) {
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

  Object.assign(UI, { append, clear, copyText, keep, markKey, timing, on, patchChildren, setText, showCopyBox, fig, h, pointerGet, pointerSet, svg, toast });
})();
