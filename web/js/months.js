// SPDX-License-Identifier: MIT
// The 12-month demand profile (/cost/monthly_demand_gpu_hours): twelve boxes, all blank = left out
// of the request. Pasting a row of numbers into one box fills it and the boxes after it.
import { clear, h } from './dom.js';
import { readTyped } from './format.js';
import { t } from './i18n.js';

function box() { return document.getElementById('monthly-demand'); }

function monthInputs() { return Array.prototype.slice.call(box().querySelectorAll('input')); }

export function readMonths() {
  const boxes = monthInputs();
  if (boxes.every(function (b) { return b.value.trim() === ''; })) return undefined;
  return boxes.map(function (b) {
    const v = readTyped(b.value, false);
    return v === undefined ? null : v;
  });
}

export function writeMonths(values) {
  monthInputs().forEach(function (b, i) {
    b.value = Array.isArray(values) && values[i] !== undefined && values[i] !== null ? String(values[i]) : '';
  });
}

export function buildMonthInputs() {
  const months = box();
  clear(months);
  for (let i = 0; i < 12; i++) {
    const input = h('input', { type: 'text', inputmode: 'decimal', class: 'month-input', 'data-month': String(i), 'aria-label': 'M' + (i + 1) });
    input.addEventListener('paste', onMonthsPaste);
    months.appendChild(h('label', { class: 'month' }, h('span', { class: 'month-label', 'data-month-label': String(i) }), input));
  }
  labelMonths();
}

export function labelMonths() {
  box().querySelectorAll('[data-month-label]').forEach(function (n) {
    n.textContent = t('month.short', { m: Number(n.getAttribute('data-month-label')) + 1 });
  });
}

/** Pasting a row of numbers (from a spreadsheet or a list) fills the boxes from the one pasted into. */
function onMonthsPaste(e) {
  const text = (e.clipboardData || window.clipboardData).getData('text');
  const parts = text.trim().split(/[\s,;，、]+/).filter(Boolean);
  if (parts.length < 2) return;
  e.preventDefault();
  const boxes = monthInputs();
  const first = Number(e.target.getAttribute('data-month'));
  parts.slice(0, 12 - first).forEach(function (p, i) { boxes[first + i].value = p; });
  e.target.dispatchEvent(new Event('input', { bubbles: true })); // the form's listener runs the core
}
