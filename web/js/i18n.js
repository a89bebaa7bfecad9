// SPDX-License-Identifier: MIT
// Strings: the message tables of data/messages/ (js/messages.js syntax), the page's language,
// t(key, vars), tNodes() for strings with DOM pieces, the static labels of index.html. Notes
// from the core are rendered by notes.js.
import en from '../../data/messages/en.json';
import zh from '../../data/messages/zh-CN.json';
import { formatMessage } from './messages.js';

/** One table per language: data/messages/<lang>.json, the words the CLI renders too. */
export const STRINGS = { 'zh-CN': zh, en: en };
export const DEFAULT_LANG = 'zh-CN';

/** The page's language (a live binding: importers read it, only setLang() writes it). */
export let lang = DEFAULT_LANG;

/** Sets the language the strings and formats use (js/app.js setLanguage redraws the page). */
export function setLang(code) {
  if (Object.prototype.hasOwnProperty.call(STRINGS, code)) lang = code;
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
