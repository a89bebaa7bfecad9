// SPDX-License-Identifier: MIT
// Strings: the tables of i18n/*.js, the page's language, t(key, vars), tNodes() for strings with
// DOM pieces, the static labels of index.html. Notes from the core are rendered by notes.js.
import en from '../i18n/en.js';
import enCost from '../i18n/en.cost.js';
import enHelp from '../i18n/en.help.js';
import enNotes from '../i18n/en.notes.js';
import enPrices from '../i18n/en.prices.js';
import enValidation from '../i18n/en.validation.js';
import zh from '../i18n/zh-CN.js';
import zhCost from '../i18n/zh-CN.cost.js';
import zhHelp from '../i18n/zh-CN.help.js';
import zhNotes from '../i18n/zh-CN.notes.js';
import zhPrices from '../i18n/zh-CN.prices.js';
import zhValidation from '../i18n/zh-CN.validation.js';

/** One table per language: its main file, then the areas split from it (the same keys in both). */
export const STRINGS = {
  'zh-CN': Object.assign({}, zh, zhCost, zhHelp, zhNotes, zhPrices, zhValidation),
  en: Object.assign({}, en, enCost, enHelp, enNotes, enPrices, enValidation),
};
export const DEFAULT_LANG = 'zh-CN';

/** The page's language (a live binding: importers read it, only setLang() writes it). */
export let lang = DEFAULT_LANG;

/** Sets the language the strings and formats use (js/app.js setLanguage redraws the page). */
export function setLang(code) {
  if (Object.prototype.hasOwnProperty.call(STRINGS, code)) lang = code;
}

// A word that follows a count: {name|one|other} is `one` when the parameter is 1, else `other`
// ("{replicas} {replicas|replica|replicas}"), so English never reads "1 replicas".
const PLURAL = /\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g;

/** The count a parameter holds: a number, numeric text, or a figure node's data-value. */
function countOf(v) {
  if (v && typeof v === 'object' && v.dataset) v = v.dataset.value !== undefined ? v.dataset.value : v.textContent;
  const n = typeof v === 'number' ? v : Number(String(v).replace(/[,\s]/g, ''));
  return isFinite(n) ? n : null;
}

/** Picks the singular or plural word of every {name|one|other} by the parameter's value. */
export function plural(s, vars) {
  return String(s).replace(PLURAL, function (m, name, one, other) {
    if (!vars || !Object.prototype.hasOwnProperty.call(vars, name)) return other;
    return countOf(vars[name]) === 1 ? one : other;
  });
}

export function t(key, vars) {
  const table = STRINGS[lang] || {};
  let s = Object.prototype.hasOwnProperty.call(table, key) ? table[key]
    : (STRINGS[DEFAULT_LANG] && STRINGS[DEFAULT_LANG][key]);
  if (s === undefined) return key;
  if (vars) {
    s = plural(s, vars);
    s = s.replace(/\{(\w+)\}/g, function (m, name) {
      return Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : m;
    });
  }
  return s;
}

export function hasString(key) {
  return Boolean((STRINGS[lang] || {})[key] || (STRINGS[DEFAULT_LANG] || {})[key]);
}

/** Like t(), but a value may be a DOM node: returns the pieces to append, in order. */
export function tNodes(key, vars) {
  // A [[...]] part is kept only when every {name} in it is given (as in reasons, plans.js).
  const parts = plural(t(key), vars).replace(/\[\[([^\]]*)\]\]/g, function (m, part) {
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
export function labelOf(prefix, fallback) {
  return function (code) {
    return hasString(prefix + code) ? t(prefix + code) : fallback ? fallback(code) : String(code);
  };
}

export function applyStaticStrings() {
  document.documentElement.lang = lang;
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
    b.setAttribute('aria-pressed', String(b.getAttribute('data-lang') === lang));
  });
}
