// SPDX-License-Identifier: MIT
// Notes from the core in words: each assumption, basis and note comes as {code, params, text} and
// is rendered from <prefix><code> in the page's language (noteText, noteNode, noteList).
import { NUMBER_STYLES, plainNumber } from './format.js';
import { hasString, lang, messageParts, t } from './i18n.js';

// The core returns each assumption, basis and note as {code, params, text}: the page renders
// it from <prefix><code> in the current language (data/messages, js/messages.js); params are
// numbers (in the style the message names, else plain, in the user's locale), ids and enum
// names (shown by note.value.<name>), and flags (1/0, for select). Without a message: the
// core's English text.

/** A parameter in words: a number in its message's style, an id or enum name by its label. */
export function noteParam(name, v, style) {
  if (typeof v === 'number') return NUMBER_STYLES[style] ? NUMBER_STYLES[style](v) : plainNumber(v);
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
  const text = messageParts(key, params, function (name, v, style) {
    // A parameter sent with its id beside it (stack, stack_id; low_stack, low_stack_id) reads
    // as the page's label for the id under its last word (stack.<id>) when there is one, else
    // as the core wrote it (a provider's own profile's name).
    const id = params[name + '_id'];
    const kind = name.slice(name.lastIndexOf('_') + 1);
    if (id !== undefined && hasString(kind + '.' + id)) return t(kind + '.' + id);
    return noteParam(name, v, style);
  }).join('');
  return { text: text, lang: lang };
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

