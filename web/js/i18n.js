// SPDX-License-Identifier: MIT
// Strings: t(key, vars), tNodes() for strings with DOM pieces, the static labels of index.html.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;

  const STRINGS = window.GPU_ADVISOR_I18N || {};
  const DEFAULT_LANG = 'zh-CN';

  function t(key, vars) {
    const table = STRINGS[state.lang] || {};
    let s = Object.prototype.hasOwnProperty.call(table, key) ? table[key]
      : (STRINGS[DEFAULT_LANG] && STRINGS[DEFAULT_LANG][key]);
    if (s === undefined) return key;
    if (vars) {
      s = s.replace(/\{(\w+)\}/g, function (m, name) {
        return Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : m;
      });
    }
    return s;
  }

  function hasString(key) {
    return Boolean((STRINGS[state.lang] || {})[key] || (STRINGS[DEFAULT_LANG] || {})[key]);
  }

  /** Like t(), but a value may be a DOM node: returns the pieces to append, in order. */
  function tNodes(key, vars) {
    // A [[...]] part is kept only when every {name} in it is given (as in reasons, plans.js).
    const parts = t(key).replace(/\[\[([^\]]*)\]\]/g, function (m, part) {
      return (part.match(/\{(\w+)\}/g) || []).every(function (x) {
        return Object.prototype.hasOwnProperty.call(vars, x.slice(1, -1));
      }) ? part : '';
    }).split(/\{(\w+)\}/);
    return parts.map(function (part, i) {
      if (i % 2 === 0) return part;
      return Object.prototype.hasOwnProperty.call(vars, part) ? vars[part] : '{' + part + '}';
    });
  }

  /**
   * A format for a code the core returns (a verdict, a status, a link kind): its string under
   * prefix + code, or the code itself (or fallback(code)) when this page has no words for it.
   */
  function labelOf(prefix, fallback) {
    return function (code) {
      return hasString(prefix + code) ? t(prefix + code) : fallback ? fallback(code) : String(code);
    };
  }

  // ---------------------------------------------------------------- notes from the core
  // The core returns each assumption, basis and note as {code, params, text}: the page renders
  // it from <prefix><code> in the current language; params are numbers (shown in the user's
  // locale), ids and enum names (shown by note.value.<name>), and flags (1/0). In a template,
  // {name} is a parameter, {name?words} keeps the words when the parameter is set (not 0, empty
  // or missing) and {name!words} when it is not. Without a template: the core's English text.

  const CONDITIONAL = /\{(\w+)([?!])((?:[^{}]|\{\w+\})*)\}/g;

  function isSet(v) { return v !== undefined && v !== null && v !== 0 && v !== '' && v !== false; }

  /** A parameter in words: a share as a percent, a count as an integer, else 3 significant digits. */
  function noteParam(name, v) {
    if (typeof v === 'number') {
      if (/_share$/.test(name) || name === 'share') return UI.percent(v, Number.isInteger(Math.round(v * 1000) / 10) ? 0 : 1);
      if (/_watts$/.test(name)) return UI.num3(v / 1000) + ' kW';
      if (/_cny$/.test(name) || /^cny_/.test(name)) return UI.cny(v);
      if (/^(tokens|dataset_tokens)$/.test(name) && UI.tokensText) return UI.tokensText(v);
      if (/_bytes$/.test(name) && Math.abs(v) >= 1048576) return UI.gib(v) + ' GiB';
      if (Number.isInteger(v)) return UI.integer(v);
      // Three significant digits, no trailing zeros, in the page's locale.
      return UI.formatter({ maximumSignificantDigits: 3 }).format(v);
    }
    const s = String(v === undefined || v === null ? '' : v);
    if (hasString('note.value.' + name + '.' + s)) return t('note.value.' + name + '.' + s);
    if (hasString('note.value.' + s)) return t('note.value.' + s);
    return s;
  }

  /** {text, lang}: the note in the current language, or the core's English sentence. */
  function noteText(prefix, note) {
    if (!note) return { text: '', lang: state.lang };
    const key = prefix + note.code;
    const params = note.params || {};
    if (!note.code || !hasString(key)) return { text: String(note.text || note.code || ''), lang: 'en' };
    let s = t(key);
    for (let i = 0; i < 3; i++) {
      s = s.replace(CONDITIONAL, function (m, name, op, words) {
        return (op === '?') === isSet(params[name]) ? words : '';
      });
    }
    s = s.replace(/\{(\w+)\}/g, function (m, name) {
      // A parameter sent with its id beside it (stack, stack_id) reads as the page's label for
      // the id when there is one, else as the core wrote it (a provider's own profile's name).
      const id = params[name + '_id'];
      if (id !== undefined && hasString(name + '.' + id)) return t(name + '.' + id);
      return Object.prototype.hasOwnProperty.call(params, name) ? noteParam(name, params[name]) : m;
    });
    return { text: s, lang: state.lang };
  }

  /** An element showing the note (lang set, so a fallback sentence is marked as English). */
  function noteNode(tag, prefix, note, attrs) {
    const n = noteText(prefix, note);
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    node.setAttribute('lang', n.lang);
    if (note && note.code) node.setAttribute('data-code', note.code);
    node.textContent = n.text;
    return node;
  }

  /** The assumptions under a speed figure: notes (or, from an older core, plain sentences). */
  function noteList(prefix, notes, sentences, titleKey) {
    const list = notes && notes.length ? notes : (sentences || []).map(function (x) { return { text: x }; });
    if (!list.length) return null;
    const details = document.createElement('details');
    details.className = 'assumptions';
    const summary = document.createElement('summary');
    summary.textContent = t(titleKey || 'speed.assumptions') + ' (' + list.length + ')';
    const ul = document.createElement('ul');
    list.forEach(function (n) { ul.appendChild(noteNode('li', prefix, n)); });
    details.appendChild(summary);
    details.appendChild(ul);
    return details;
  }

  function applyStaticStrings() {
    document.documentElement.lang = state.lang;
    // A notice still on screen was written in the other language.
    const notice = document.getElementById('toast');
    if (notice) notice.hidden = true;
    document.querySelectorAll('.banner[role="status"]').forEach(function (n) { n.hidden = true; });
    document.title = t('app.title');
    document.querySelectorAll('[data-i18n]').forEach(function (node) {
      node.textContent = t(node.getAttribute('data-i18n'));
    });
    document.querySelectorAll('[data-i18n-placeholder]').forEach(function (node) {
      node.placeholder = t(node.getAttribute('data-i18n-placeholder'));
    });
    document.querySelectorAll('.lang-btn').forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute('data-lang') === state.lang));
    });
  }

  Object.assign(UI, { DEFAULT_LANG, STRINGS, applyStaticStrings, hasString, labelOf, noteList, noteNode, noteParam, noteText, t, tNodes });
})();
