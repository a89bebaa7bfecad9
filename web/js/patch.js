// SPDX-License-Identifier: MIT
// The keyed DOM patch (issue 13: an input change re-rendered within one frame): a section is drawn
// into a detached element and patchChildren() changes in the page only what differs. Nodes carry
// their key, listeners, memo and keep mark in symbol-named properties private to this module.

const KEY = Symbol('key');    // the node's key among its siblings (keyNode)
const ON = Symbol('on');      // event type -> handler (on)
const MEMO = Symbol('memo');  // what a renderer built the node from (memo)
const KEEP = Symbol('keep');  // a stand-in from keep()

// Form controls are taken whole from a fresh tree (they carry their own listeners and typed state).
const WHOLE = { INPUT: true, SELECT: true, TEXTAREA: true };
// The attributes that name a child among its siblings; h() and svg() copy the first one into
// node[KEY] (a property read is far cheaper than getAttribute on thousands of nodes).
const KEY_ATTRS = ['id', 'data-key', 'data-gpu', 'data-row', 'data-col', 'data-panel'];

/**
 * A listener that a re-render can hand over (patchChildren): the node keeps one dispatcher per
 * event type, and the handler it calls lives in node[ON]. h()'s on* properties use it.
 */
export function on(node, type, handler) {
  const map = node[ON] || (node[ON] = Object.create(null));
  if (!map[type]) node.addEventListener(type, dispatch);
  map[type] = handler;
}

function dispatch(e) {
  const f = this[ON] && this[ON][e.type];
  if (f) return f.call(this, e);
}

/** Records the node's key among its siblings (patchChildren): its first key attribute. */
export function keyNode(node) {
  node[KEY] = undefined;
  for (let i = 0; i < KEY_ATTRS.length; i++) {
    const v = node.getAttribute(KEY_ATTRS[i]);
    if (v !== null) { node[KEY] = KEY_ATTRS[i] + '=' + v; return node; }
  }
  return node;
}

/** Records what a node was built from (a renderer compares it with memoOf(live) to keep() a node). */
export function memo(node, key) {
  node[MEMO] = key;
  return node;
}

export function memoOf(node) { return node[MEMO]; }

function same(o, n) {
  return o.nodeType === n.nodeType && o.nodeName === n.nodeName && o[KEY] === n[KEY] && !WHOLE[o.nodeName];
}

function patchNode(o, n) {
  if (n[KEEP]) return; // keep(): the live node stays as it is
  if (o.nodeType === 1) patchElement(o, n);
  else if (o.data !== n.data) o.data = n.data;
}

/**
 * A stand-in for `live` (an element of the page, keyed) in a fresh tree: patchChildren keeps
 * the live node, unpatched. For a renderer that knows the node is already right (node[MEMO]:
 * a key of what it was built from, which patchChildren carries over) or that draws it later.
 */
export function keep(live) {
  const stub = document.createElement(live.nodeName);
  stub[KEY] = live[KEY];
  stub[KEEP] = true;
  return stub;
}

/**
 * Makes `live`'s children look like `fresh`'s (a detached copy the renderer just built) while
 * touching only what differs (issue 13: a re-render within one frame). A child is matched by its
 * key (id, data-key, data-gpu, data-row, data-col, data-panel: node[KEY]) or else by the next
 * unkeyed child with the same tag; a matched element keeps its node (no new style or layout
 * object, focus and scroll kept) and gets the fresh one's attributes, inline style (through the
 * CSSOM), listeners (on()) and children. A form control (input, select, textarea) is taken
 * whole from `fresh` (it carries its own listeners and typed state). A <details> the visitor
 * opened stays open. A fresh node made by keep() leaves its match as it is. What is left of
 * `fresh` is for the garbage collector.
 */
export function patchChildren(live, fresh) {
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
    if (x[KEY] === undefined) unkeyed.push(x);
    else if (keyed.has(x[KEY])) keyed.get(x[KEY]).push(x);
    else keyed.set(x[KEY], [x]);
  });
  const used = new Set();
  let cursor = 0;
  let at = o; // the next live node to place before
  for (let i = 0; i < news.length; i++) {
    const f = news[i];
    let match = null;
    if (f[KEY] !== undefined) {
      const list = keyed.get(f[KEY]);
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
    if (!match && f[KEEP]) throw new Error('keep(): no live node ' + f[KEY]);
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
  if (fresh[ON] || live[ON]) {
    const map = fresh[ON] || Object.create(null);
    Object.keys(map).forEach(function (type) { if (!live[ON] || !live[ON][type]) live.addEventListener(type, dispatch); });
    live[ON] = map;
  }
  if (live[MEMO] !== fresh[MEMO]) live[MEMO] = fresh[MEMO];
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
