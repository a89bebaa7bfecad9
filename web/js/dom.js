// SPDX-License-Identifier: MIT
// DOM building without innerHTML: h(), svg(), clear(), figures that carry their place in the result, JSON pointers, the toast.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const el = UI.el;
  const { gib, gibCompact, t } = UI;

  function h(tag, props) {
    const node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (k) {
        const v = props[k];
        if (v === null || v === undefined || v === false) return;
        if (k === 'class') node.className = v;
        else if (k === 'text') node.textContent = v;
        else if (k === 'dataset') Object.keys(v).forEach(function (d) { node.dataset[d] = v[d]; });
        else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
        else node.setAttribute(k, v === true ? '' : String(v));
      });
    }
    for (let i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
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

  /** A figure in GiB that carries its raw byte count and its place in the result. */
  function bytesFigure(bytes, field, cls, compact) {
    return h('span', { class: 'fig ' + (cls || ''), dataset: { field: field, bytes: String(bytes) } },
      compact ? gibCompact(bytes) : gib(bytes), h('span', { class: 'unit', text: ' GiB' }));
  }

  /** A plain figure with its raw value. */
  function valueFigure(value, field, text, cls) {
    return h('span', { class: 'fig ' + (cls || ''), dataset: { field: field, value: String(value) } },
      text === undefined ? String(value) : text);
  }

  function toast(message) {
    el.toast.textContent = message;
    el.toast.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { el.toast.hidden = true; }, 2200);
  }

  /** A figure that may be null ("—"), with its raw value and place in the result. */
  function fig(value, field, text, cls, nullText) {
    const none = value === null || value === undefined;
    return valueFigure(none ? null : value, field, none ? (nullText || '—') : text, cls);
  }

  function pointerSet(obj, path, value) {
    const parts = path.split('/').slice(1);
    let o = obj;
    for (let i = 0; i < parts.length - 1; i++) {
      if (typeof o[parts[i]] !== 'object' || o[parts[i]] === null) o[parts[i]] = {};
      o = o[parts[i]];
    }
    o[parts[parts.length - 1]] = value;
  }

  function pointerGet(obj, path) {
    const parts = path.split('/').slice(1);
    let o = obj;
    for (let i = 0; i < parts.length; i++) {
      if (o === null || typeof o !== 'object') return undefined;
      o = o[parts[i]];
    }
    return o;
  }

  function copyText(text) {
    const done = function () { toast(t('toast.copied')); };
    const fail = function () { toast(t('toast.copy_failed')); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, fail);
    } else {
      fail();
    }
  }

  Object.assign(UI, { bytesFigure, clear, copyText, fig, h, pointerGet, pointerSet, svg, toast, valueFigure });
})();
