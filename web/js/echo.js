// SPDX-License-Identifier: MIT
// What a number box read. A box whose text is not a plain number ("5万", "3000亿", "60%") shows
// the number the request carries beside it ("= 50,000"); a box in yuan always does, as money
// ("= ¥50,000" / "= 50,000 元"), so "5万" and "50k" are seen to be read as meant; a box in hours
// says the hours ("2个月" -> "= 1,460 小时"). Every box read as a number has one, the GPU count
// and the monthly-demand boxes too. Text that
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

/** Every box whose text is read as a number: the generic number fields, the GPU count (code of
 *  its own) and the twelve monthly-demand boxes. [{node, path, opts}] */
function numberBoxes() {
  const out = [];
  fields().forEach(function (f) {
    if (f.widget !== 'box') return;
    const kind = kindOf(f);
    if (kind === 'integer' || kind === 'number') out.push({ node: f.node, path: f.path, opts: typedOptions(f.path) });
  });
  const count = document.getElementById('in-count');
  if (count) out.push({ node: count, path: '/hardware/count', opts: typedOptions('/hardware/count') });
  document.querySelectorAll('#monthly-demand input').forEach(function (node) {
    out.push({ node: node, path: '/cost/monthly_demand_gpu_hours/' + node.getAttribute('data-month'), opts: { fraction: false } });
  });
  return out;
}

/** Puts each number box's echo right after it (and takes it away when there is none). */
export function renderEchoes() {
  numberBoxes().forEach(function (b) {
    const next = b.node.nextElementSibling;
    const echo = next && next.classList.contains('field-echo') ? next : null;
    const text = echoText(b.node.value, b.opts);
    if (!text) {
      if (echo) echo.remove();
      return;
    }
    const node = echo || h('span', { class: 'field-echo', dataset: { echo: b.path } });
    if (node.textContent !== text) node.textContent = text;
    node.title = t('form.read_as', { v: text.slice(2) });
    if (!echo) b.node.after(node);
  });
}

onResult(renderEchoes, 'form'); // writes into the form: before the sections read the layout
