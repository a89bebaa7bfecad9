// SPDX-License-Identifier: MIT
// Notes from the core in words: each assumption, basis and note comes as {code, params, text} and
// is rendered from <prefix><code> in the page's language (noteText, noteNode, noteList).
import { cny, formatter, gib, integer, num3, percent, tokensText } from './format.js';
import { hasString, lang, plural, t } from './i18n.js';

// The core returns each assumption, basis and note as {code, params, text}: the page renders
// it from <prefix><code> in the current language; params are numbers (shown in the user's
// locale), ids and enum names (shown by note.value.<name>), and flags (1/0). In a template,
// {name} is a parameter, {name?words} keeps the words when the parameter is set (not 0, empty
// or missing) and {name!words} when it is not. Without a template: the core's English text.

const CONDITIONAL = /\{(\w+)([?!])((?:[^{}]|\{\w+\})*)\}/g;

function isSet(v) { return v !== undefined && v !== null && v !== 0 && v !== '' && v !== false; }

/** A parameter in words: a share as a percent, a count as an integer, else 3 significant digits. */
export function noteParam(name, v) {
  if (typeof v === 'number') {
    if (/_share$/.test(name) || name === 'share') return percent(v, Number.isInteger(Math.round(v * 1000) / 10) ? 0 : 1);
    if (/_watts$/.test(name)) return num3(v / 1000) + ' kW';
    if (/_cny$/.test(name) || /^cny_/.test(name)) return cny(v);
    if (/^(tokens|dataset_tokens)$/.test(name)) return tokensText(v);
    if (/_bytes$/.test(name) && Math.abs(v) >= 1048576) return gib(v) + ' GiB';
    if (Number.isInteger(v)) return integer(v);
    // Three significant digits, no trailing zeros, in the page's locale.
    return formatter({ maximumSignificantDigits: 3 }).format(v);
  }
  const s = String(v === undefined || v === null ? '' : v);
  if (hasString('note.value.' + name + '.' + s)) return t('note.value.' + name + '.' + s);
  if (hasString('note.value.' + s)) return t('note.value.' + s);
  return s;
}

/** {text, lang}: the note in the current language, or the core's English sentence. */
export function noteText(prefix, note) {
  if (!note) return { text: '', lang: lang };
  const key = prefix + note.code;
  const params = note.params || {};
  if (!note.code || !hasString(key)) return { text: String(note.text || note.code || ''), lang: 'en' };
  let s = t(key);
  for (let i = 0; i < 3; i++) {
    s = plural(s, params);
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
  return { text: s, lang: lang };
}

/** An element showing the note (lang set, so a fallback sentence is marked as English). */
export function noteNode(tag, prefix, note, attrs) {
  const n = noteText(prefix, note);
  const node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
  node.setAttribute('lang', n.lang);
  if (note && note.code) node.setAttribute('data-code', note.code);
  node.textContent = n.text;
  return node;
}

/** The assumptions under a speed figure: notes (or, from an older core, plain sentences). */
export function noteList(prefix, notes, sentences, titleKey) {
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

