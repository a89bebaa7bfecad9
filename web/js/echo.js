// SPDX-License-Identifier: MIT
// What a number box read. A box whose text is not a plain number ("5万", "3000亿", "60%") shows
// the number the request carries beside it ("= 50,000"); a box in yuan always does, as money
// ("= ¥50,000" / "= 50,000 元"), so "5万" and "50k" are seen to be read as meant. Text that
// cannot be read shows nothing here: it goes to the core, whose located error says why.
import { h } from './dom.js';
import { fields, kindOf } from './form.js';
import { cnyExact, parseNumberInput, plain } from './format.js';
import { t } from './i18n.js';
import { onResult } from './run.js';
import { typedOptions } from './schema.js';

/** The echo for what was typed into a box read with `opts` ({fraction, money}), or ''. */
export function echoText(raw, opts) {
  const typed = String(raw || '').trim();
  if (typed === '') return '';
  const read = parseNumberInput(typed, opts);
  if (read.error) return '';
  if (opts && opts.money) return '= ' + cnyExact(read.value);
  if (opts && opts.hours && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(typed)) return '= ' + t('unit.hours', { n: plain(read.value) });
  if (opts && opts.perMonth && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(typed)) return '= ' + t('unit.per_month', { n: plain(read.value) });
  // A plain number (digits, a point, a sign, an exponent) says itself.
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(typed)) return '';
  return '= ' + plain(read.value);
}

/** Puts each number box's echo right after it (and takes it away when there is none). */
export function renderEchoes() {
  fields().forEach(function (f) {
    if (f.widget !== 'box') return;
    const kind = kindOf(f);
    if (kind !== 'integer' && kind !== 'number') return;
    const next = f.node.nextElementSibling;
    const echo = next && next.classList.contains('field-echo') ? next : null;
    const text = echoText(f.node.value, typedOptions(f.path));
    if (!text) {
      if (echo) echo.remove();
      return;
    }
    const node = echo || h('span', { class: 'field-echo', dataset: { echo: f.path } });
    if (node.textContent !== text) node.textContent = text;
    node.title = t('form.read_as', { v: text.slice(2) });
    if (!echo) f.node.after(node);
  });
}

onResult(renderEchoes, 'form'); // writes into the form: before the sections read the layout
