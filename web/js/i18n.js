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
    const parts = t(key).split(/\{(\w+)\}/);
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

  function applyStaticStrings() {
    document.documentElement.lang = state.lang;
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

  Object.assign(UI, { DEFAULT_LANG, STRINGS, applyStaticStrings, hasString, labelOf, t, tNodes });
})();
