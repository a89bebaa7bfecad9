// SPDX-License-Identifier: MIT
// Input errors: located at the input whose data-path is the longest prefix of the error path, and
// above the results (after every run, and again in another language).
import { clear, h } from './dom.js';
import { input } from './form.js';
import { hasString, lang, t } from './i18n.js';
import { lastRun, onResult } from './run.js';
import { parseNumberInput } from './format.js';
import { rangeText, typedOptions } from './schema.js';

/** The form element for a JSON pointer: the longest prefix with a visible data-path. */
export function fieldForPath(path) {
  if (!path || path.charAt(0) !== '/') return null;
  let p = path;
  while (p) {
    const nodes = document.querySelectorAll('[data-path="' + cssEscape(p) + '"]');
    for (let i = 0; i < nodes.length; i++) {
      if (isShown(nodes[i])) return nodes[i];
    }
    const cut = p.lastIndexOf('/');
    p = cut > 0 ? p.slice(0, cut) : '';
  }
  return null;
}

function cssEscape(s) {
  return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/["\\]/g, '\\$&');
}

function isShown(node) {
  for (let n = node; n && n !== document.body; n = n.parentElement) {
    if (n.hidden) return false;
  }
  return true;
}

let fieldMarked = false; // renderError marked a field: there is something to clear
function clearFieldErrors() {
  if (!fieldMarked) return;
  fieldMarked = false;
  document.querySelectorAll('.invalid').forEach(function (n) { n.classList.remove('invalid'); });
  document.querySelectorAll('.field-error').forEach(function (n) { n.remove(); });
  document.querySelectorAll('[aria-invalid]').forEach(function (n) { n.removeAttribute('aria-invalid'); });
}

function errorExplanation(code) {
  return hasString('error.' + code) ? t('error.' + code) : t('error.unknown_code');
}

/** The core's own sentence (English): shown as is in English, one click away in other languages. */
function coreMessage(message, cls) {
  const text = h('span', { class: cls, lang: 'en', text: String(message || '') });
  if (lang === 'en' || !message) return text;
  return h('details', { class: 'core-message' }, h('summary', { text: t('error.core_message_original') }), text);
}

/** What the page calls a field: its label's words (a radio group: its group's title). */
export function fieldName(field) {
  const label = field.querySelector('label');
  const group = field.closest('.group');
  const title = group ? group.querySelector('.group-title') : null;
  const text = label && field.getAttribute('role') !== 'radiogroup' ? label.textContent : title ? title.textContent : '';
  return text.replace(/\s+/g, ' ').trim();
}

export function focusField(node) {
  if (!node) return;
  for (let n = node; n; n = n.parentElement) if (n.tagName === 'DETAILS') n.open = true;
  const target = node.querySelector('input:not([type=radio]), select, textarea') ||
    node.querySelector('input') || node;
  node.scrollIntoView({ block: 'center', behavior: 'smooth' });
  if (target.focus) target.focus({ preventScroll: true });
}

/**
 * A CSV error path (/capacity/jobs_csv/row 3/hours) names the row as a spreadsheet numbers it
 * (the header is row 1, blank lines keep their numbers): that is line 3 of the textarea.
 */
function csvErrorRow(path) {
  const m = /^\/capacity\/jobs_csv\/row (\d+)(?:\/(.+))?$/.exec(path || '');
  const box = input('cap.jobs_csv');
  if (!m || !box) return null;
  const row = Number(m[1]);
  const column = m[2] || '';
  const lines = box.value.split(/\r\n|\n|\r/);
  const line = lines[row - 1] === undefined ? '' : lines[row - 1];
  const select = function () {
    let start = 0;
    for (let i = 0; i < row - 1 && i < lines.length; i++) start += lines[i].length + 1;
    focusField(box.closest('.field'));
    box.setSelectionRange(start, start + line.length);
  };
  return {
    row: row,
    node: function (inField) {
      return h('div', { class: 'csv-row', dataset: { row: String(row), column: column } },
        h('span', { class: 'csv-row-label', text: column ? t('capacity.error_row_col', { row: row, col: column }) : t('capacity.error_row', { row: row }) }),
        h('code', { class: 'csv-row-text', text: line || t('capacity.empty_line') }),
        inField ? h('button', { type: 'button', class: 'link-btn small', text: t('capacity.select_row'), onclick: select }) : null);
    },
  };
}

/** At a field in yuan: another currency is refused (convert first); unreadable text, how to write an amount. */
function moneyHint(field, typed, code) {
  const path = field.getAttribute('data-path');
  if (!typed || !path || !typedOptions(path).money) return null;
  if (parseNumberInput(typed, { money: true }).error === 'not_cny') return h('span', { class: 'field-error-money', text: t('error.money_not_cny') + ' ' });
  return code === 'wrong_type' ? h('span', { class: 'field-error-money', text: t('error.money_hint') + ' ' }) : null;
}

export function renderError() {
  clearFieldErrors();
  const run = lastRun();
  const err = run.error;
  const banner = document.getElementById('error-banner');
  const panels = document.getElementById('panels');
  clear(banner);
  if (!err) {
    if (!banner.hidden) banner.hidden = true;
    if (panels.classList.contains('stale')) panels.classList.remove('stale');
    return;
  }
  const path = err.path || '';
  const field = fieldForPath(path);
  const where = field ? fieldName(field) : '';
  banner.appendChild(h('div', { class: 'banner-head' },
    h('strong', { text: t('error.title') }),
    where ? h('span', { class: 'error-where', text: t('error.where', { field: where }) }) : null));
  banner.appendChild(h('p', { class: 'error-explain', text: errorExplanation(err.code) }));
  // The code, the request pointer and the core's own sentence are for whoever debugs the
  // request: in a "technical detail" fold, so that the page in Chinese shows no code (issue 29).
  // The core writes English: an English page shows its sentence as well.
  if (lang === 'en' && err.message) banner.appendChild(h('p', { class: 'error-message', lang: 'en', text: String(err.message) }));
  const dl = h('dl', { class: 'error-facts' });
  dl.appendChild(h('dt', { text: t('error.code_label') }));
  dl.appendChild(h('dd', null, h('code', { class: 'code', text: String(err.code || '') })));
  if (path) {
    dl.appendChild(h('dt', { text: t('error.path') }));
    dl.appendChild(h('dd', null, h('code', { class: 'error-path', text: path })));
  }
  dl.appendChild(h('dt', { text: t('error.core_message') }));
  dl.appendChild(h('dd', null, h('span', { class: 'error-message', lang: 'en', text: String(err.message || '') })));
  banner.appendChild(h('details', { class: 'tech-detail' }, h('summary', { text: t('help.tech_detail') }), dl));
  const csv = csvErrorRow(path);
  if (csv) banner.appendChild(csv.node());
  if (field) {
    banner.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('error.go_to_field'),
      onclick: function () { focusField(field); } }));
    fieldMarked = true;
    field.classList.add('invalid');
    const control = field.querySelector('input:not([type=radio]), select, textarea');
    if (control) control.setAttribute('aria-invalid', 'true');
    for (let n = field; n; n = n.parentElement) if (n.tagName === 'DETAILS') n.open = true;
    // At the field, in the current language: what is wrong, what was typed, what is allowed.
    // A checkbox's value is its "on" token, not what the user chose: nothing typed to echo.
    const typed = control && control.type !== 'checkbox' && control.value !== undefined ? String(control.value).trim() : '';
    const range = err.code === 'out_of_range' || err.code === 'wrong_type' ? rangeText(path) : '';
    // Under a radio group (the task), not inside it: the radios keep their row.
    const place = field.getAttribute('role') === 'radiogroup' ? function (n) { field.after(n); } : function (n) { field.appendChild(n); };
    place(h('p', { class: 'field-error', role: 'alert' },
      h('span', { text: errorExplanation(err.code) + ' ' }),
      typed ? h('span', { class: 'field-error-typed', text: t('error.you_typed', { value: typed }) + ' ' }) : null,
      range ? h('span', { class: 'field-error-range', text: t('error.allowed', { range: range }) + ' ' }) : null,
      /[%％]$/.test(typed) ? h('span', { text: t('error.percent_not_share') + ' ' }) : null,
      moneyHint(field, typed, err.code),
      coreMessage(err.message, 'field-error-msg'),
      csv ? csv.node(true) : null));
  }
  if (run.result) banner.appendChild(h('p', { class: 'stale-line', text: t(run.isDefault ? 'result.stale_default' : 'result.stale') }));
  banner.hidden = false;
  panels.classList.toggle('stale', Boolean(run.result));
}

onResult(renderError, 'form');
