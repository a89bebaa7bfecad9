// SPDX-License-Identifier: MIT
// Strings: the message tables of data/messages/ (js/messages.js syntax), the page's language,
// t(key, vars), tNodes() for strings with DOM pieces, the static labels of index.html. Notes
// from the core are rendered by notes.js.
import en from '../../data/messages/en.json';
import zh from '../../data/messages/zh-CN.json';
import { formatMessage } from './messages.js';

/** The page's languages, the default first; data/messages/<lang>.json holds each one's words. */
export const LANGS = ['zh-CN', 'en'];
export const DEFAULT_LANG = 'zh-CN';
// The tables in this bundle: both in the single file and the widget; the site's bundle carries
// the default language only (scripts/bundle.cjs leaves the other out: its import is null) and
// loads the other from messages/<lang>.json beside the page when the visitor asks for it.
export const STRINGS = {};
if (zh) STRINGS['zh-CN'] = zh;
if (en) STRINGS.en = en;
const loading = {};

/** The page's language (a live binding: importers read it, only setLang() writes it). */
export let lang = DEFAULT_LANG;

/** Whether `code` is one of the page's languages (its words loaded or not). */
export function isLang(code) {
  return LANGS.indexOf(code) >= 0;
}

/** Whether the words of `code` are here (setLang needs them). */
export function hasLang(code) {
  return Object.prototype.hasOwnProperty.call(STRINGS, code);
}

/**
 * The words of a language the bundle left out, fetched once from messages/<lang>.json (the
 * site's own file, under its connect-src 'self'). Resolves when they are here; rejects with the
 * reason when they cannot be had (a page opened from file://, a server without the file).
 */
export function loadLang(code) {
  if (hasLang(code)) return Promise.resolve();
  if (!isLang(code)) return Promise.reject(new Error('no language ' + code));
  if (!loading[code]) {
    loading[code] = fetch('messages/' + code + '.json').then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status);
      return response.json();
    }).then(function (table) {
      if (!table || typeof table !== 'object' || Array.isArray(table)) throw new Error('not a message table');
      STRINGS[code] = table;
    }).catch(function (e) {
      delete loading[code]; // a later click tries again
      throw e;
    });
  }
  return loading[code];
}

/** Sets the language the strings and formats use (js/app.js setLanguage redraws the page). */
export function setLang(code) {
  if (hasLang(code)) lang = code;
}

/** The count a parameter holds: a number, numeric text, or a figure node's data-value. */
export function countOf(v) {
  if (v && typeof v === 'object' && v.dataset) v = v.dataset.value !== undefined ? v.dataset.value : v.textContent;
  const n = typeof v === 'number' ? v : Number(String(v).replace(/[,\s]/g, ''));
  return isFinite(n) ? n : null;
}

function template(key) {
  const table = STRINGS[lang] || {};
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key]
    : (STRINGS[DEFAULT_LANG] && STRINGS[DEFAULT_LANG][key]);
}

/** The pieces of message `key` (data/messages syntax, js/messages.js); a parameter is String(value). */
export function messageParts(key, vars, arg) {
  const s = template(key);
  if (s === undefined) return [key];
  return formatMessage(s, vars || {}, arg || function (name, v) { return v; }, countOf, lang);
}

export function t(key, vars) {
  return messageParts(key, vars, function (name, v) { return String(v); }).join('');
}

export function hasString(key) {
  return Boolean((STRINGS[lang] || {})[key] || (STRINGS[DEFAULT_LANG] || {})[key]);
}

/** Like t(), but a value may be a DOM node: returns the pieces to append, in order. */
export function tNodes(key, vars) {
  return messageParts(key, vars);
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
