// SPDX-License-Identifier: MIT
// The print report: 1-3 A4 pages a team lead can hand on. Inputs, the answer with its reasons,
// runners-up and levers, the key charts (time vs cost, cumulative cost, memory), the
// assumptions, and the prices with their sources. Built from the last result into #report
// before printing (the print stylesheet shows nothing else); figures are written by fig() as on
// the page, charts are copies of the panels' own.
import { chartWidth, setChartWidth } from './charts.js';
import { append, clear, fig, h, pointerGet } from './dom.js';
import { fields, input } from './form.js';
import { cnyExact, integer, isNum, num3, parseNumberInput, percent, plain, tokensText } from './format.js';
import { labelOf, lang, t, tNodes } from './i18n.js';
import { noteNode } from './notes.js';
import { renderIfStale } from './panel.js';
import { compareScatter } from './panels/compare.js';
import { priceItemLabel, priceSourceNodes, priceUnitLabel } from './panels/prices.js';
import { namedPlans, planHeadline, reasonList, reasonNodes, riskBadges, roleLabel } from './plans.js';
import { wholeRun } from './run.js';
import { appliesTo, schemaFor, typedOptions } from './schema.js';

/** The label of the field a form control sits in, as the page shows it. */
function labelText(node) {
  const field = node.closest('.field');
  const label = field && field.querySelector('label');
  return label ? label.textContent.trim() : '';
}

function shown(node) {
  for (let n = node; n && n !== document.body; n = n.parentElement) if (n.hidden) return false;
  return true;
}

/** What the request holds, as the form shows it: [label, value] per input the request sets. */
function inputRows(request, result) {
  const rows = [];
  const task = document.querySelector('#task-group input:checked');
  if (task) rows.push([t('group.task'), task.parentNode.textContent.trim()]);
  const preset = document.getElementById('in-preset');
  const mode = document.querySelector('input[name="model_mode"]:checked');
  const model = result.model;
  rows.push([t('group.model'), mode && mode.value === 'preset' && preset.selectedOptions[0] ? preset.selectedOptions[0].textContent : String((model && model.name) || '')]);
  const gpu = document.getElementById('in-gpu');
  if (gpu.value) rows.push([t('hardware.gpu'), gpu.selectedOptions[0].textContent + ' × ' + (input('hw.count').value || '1')]);
  const taskId = task ? task.value : '';
  // What the request says (a blank box is the core's default, named in the assumptions and
  // the price table, so it is left out here).
  fields().forEach(function (f) {
    if (f.mode || !shown(f.node) || !appliesTo(f.path, taskId)) return;
    if (pointerGet(request, f.path) === undefined) return;
    let value;
    if (f.widget === 'checkbox') value = f.node.checked ? t('common.yes') : t('common.no');
    else if (f.widget === 'select') value = f.node.selectedOptions[0] ? f.node.selectedOptions[0].textContent : '';
    else value = typedText(f.path, f.node.value.trim());
    rows.push([labelText(f.node), value]);
  });
  return rows;
}

/**
 * What a number box holds, written as the page writes figures: "3,000 亿" tokens, "50,000 元",
 * "1,440 小时", "60%", "2,048" (never "300000000000"); other text as typed (cut at 60 characters).
 */
function typedText(path, raw) {
  const opts = typedOptions(path);
  const read = raw === '' ? { error: 'empty' } : parseNumberInput(raw, opts);
  if (read.error || !isNum(read.value)) return raw.length > 60 ? raw.slice(0, 57) + '…' : raw;
  const v = read.value;
  const e = schemaFor(path);
  if (opts.money) return cnyExact(v);
  if (opts.hours) return t('unit.hours', { n: plain(v) });
  if (opts.perMonth) return t('unit.per_month', { n: plain(v) });
  if (e && e.unit === 'tokens') return tokensText(v);
  if (opts.fraction) return percent(v, Number.isInteger(v * 100) ? 0 : 1);
  return plain(v);
}

/** A price-table value: a whole number without decimals ("4 卡/台"), else three significant digits. */
function priceValue(v) { return isNum(v) && Number.isInteger(v) ? integer(v) : num3(v); }

function section(title, content) {
  return h('section', { class: 'rp-section' }, h('h2', { text: title }), content);
}

function plansTable(r, rec) {
  const rows = namedPlans(rec).filter(function (n) { return n.key !== 'best'; });
  if (!rows.length) return null;
  return h('table', { class: 'rp-table' },
    h('thead', null, h('tr', null, h('th', { text: t('compare.col.role') }), h('th', { text: t('compare.col.plan') }), h('th', { text: t('report.why') }))),
    h('tbody', null, rows.map(function (n) {
      return h('tr', null, h('td', { text: roleLabel(n) }), h('td', null, planHeadline(r, n.pointer, n.plan, true)),
        h('td', null, n.whyNot ? reasonNodes(r, n.whyPointer, n.whyNot, n.plan)
          : n.lever ? labelOf('trade_off.')(n.lever.trade_off) : ''));
    })));
}

// Charts are drawn for the page at this width: their text stays legible on A4.
const PRINT_CHART_WIDTH = 680;

/** The key charts: time vs cost drawn again at print width, and a copy of the cumulative cost chart. */
function charts(r) {
  const out = [];
  if (r.recommendation) {
    const width = chartWidth;
    setChartWidth(PRINT_CHART_WIDTH);
    try {
      const chart = compareScatter(r, r.recommendation);
      if (chart) out.push(h('figure', { class: 'rp-chart' }, h('figcaption', { text: t('compare.chart_title') }), chart));
    } finally {
      setChartWidth(width);
    }
  }
  // The cost panel's chart, when it costs the plan the report recommends (or the pinned hardware).
  renderIfStale('cost'); // a folded panel is built only when opened
  const cost = document.querySelector('#panel-cost figure.chart');
  const hw = r.cost && r.cost.hardware;
  const best = r.recommendation && r.recommendation.best;
  const same = hw && (hw.pinned || (best && hw.gpu === best.gpu && hw.count === best.gpus));
  if (cost && same && !cost.closest('[hidden]')) {
    const copy = cost.cloneNode(true);
    copy.querySelectorAll('[id]').forEach(function (n) { n.removeAttribute('id'); });
    out.push(h('figure', { class: 'rp-chart' }, h('figcaption', { text: t('cost.chart_title') }), copy));
  }
  // On paper a chart is its picture: the "show the data" disclosure stays on the page.
  out.forEach(function (f) { f.querySelectorAll('details.chart-data').forEach(function (n) { n.remove(); }); });
  out.forEach(function (f) { f.querySelectorAll('[tabindex]').forEach(function (n) { n.removeAttribute('tabindex'); n.removeAttribute('role'); }); });
  return out;
}

function assumptions(r) {
  const list = h('ul', { class: 'rp-assumptions' });
  if (r.cost) {
    list.appendChild(h('li', null, tNodes('report.cost_basis', {
      site: lang === 'en' ? String(r.cost.site.name) : String(r.cost.site.name_zh),
      u: fig(r, '/cost/utilization', percent), years: fig(r, '/cost/life_years', integer),
    })));
  }
  ((r.memory && r.memory.assumptions) || []).forEach(function (a) {
    list.appendChild(h('li', null, h('strong', { text: labelOf('term.')(a.term) + ': ' }), noteNode('span', 'memnote.', a)));
  });
  const speed = r.training || r.inference || {};
  const notes = speed.assumption_notes || (speed.assumptions || []).map(function (x) { return { text: x }; });
  notes.forEach(function (n) { list.appendChild(noteNode('li', 'assume.', n)); });
  return list;
}

function prices(r) {
  const entries = (r.cost && r.cost.defaults_used) || [];
  if (!entries.length) return null;
  return h('table', { class: 'rp-table rp-prices' },
    h('thead', null, h('tr', null, ['prices.col.item', 'prices.col.value', 'prices.col.source'].map(function (k) { return h('th', { text: t(k) }); }))),
    h('tbody', null, entries.map(function (e, i) {
      const label = priceItemLabel(e.key, r);
      const unit = priceUnitLabel(e.unit);
      return h('tr', { dataset: { key: String(e.key) } }, h('td', { class: 'rp-key' }, label ? h('span', { text: label }) : h('code', { text: String(e.key) }),
        e.needs_confirmation ? h('span', { class: 'rp-confirm', text: ' ' + t('prices.confirm') }) : null,
        e.overridden ? h('span', { class: 'rp-confirm', text: ' ' + t('prices.overridden') }) : null),
      h('td', { class: 'num' }, fig(r, '/cost/defaults_used/' + i + '/value', priceValue), h('span', { class: 'rp-unit', lang: unit.lang, text: ' ' + unit.text })),
      h('td', { class: 'rp-source' }, priceSourceNodes(e.source), e.as_of ? ' (' + e.as_of + ')' : ''));
    })));
}

/** Builds #report from the result on screen (before printing, and when asked: gpuAdvisor.buildReport). */
export function buildReport() {
  const run = wholeRun();
  const r = run.result;
  const root = document.getElementById('report');
  if (!r || !root) return root;
  clear(root);
  const rec = r.recommendation;
  root.appendChild(h('header', { class: 'rp-head' },
    h('h1', { text: t('report.title') }),
    h('p', { class: 'rp-meta', text: t('report.meta', { date: new Date().toLocaleString(lang === 'en' ? 'en-US' : 'zh-CN'),
      gpus: r.catalog.gpus_as_of, prices: (r.cost && r.cost.prices_as_of) || '—' }) })));

  const inputs = h('dl', { class: 'rp-inputs' });
  inputRows(run.request, r).forEach(function (row) {
    inputs.appendChild(h('div', { class: 'rp-input' }, h('dt', { text: row[0] }), h('dd', { text: row[1] })));
  });
  root.appendChild(section(t('report.inputs'), inputs));

  if (rec && rec.best) {
    root.appendChild(section(t('report.answer'), [
      h('p', { class: 'rp-headline' }, planHeadline(r, '/recommendation/best', rec.best, false)),
      // The parts' risks and the plan's warnings, as the card shows them.
      riskBadges(rec.best, 'rp-risks'),
      (rec.best.warnings || []).length ? h('ul', { class: 'rp-warnings' }, rec.best.warnings.map(function (w) {
        return noteNode('li', 'warnmsg.', { code: w.code, params: w.params, text: w.message || '' });
      })) : null,
      reasonList(r, '/recommendation/best', rec.best)]));
  } else if (rec) {
    root.appendChild(section(t('report.answer'), [
      h('p', { class: 'rp-headline bad', text: t('answer.no_plan') }),
      rec.no_plan ? h('p', null, reasonNodes(r, '/recommendation/no_plan', rec.no_plan, null)) : null,
      rec.nearest ? h('p', null, t('answer.nearest') + ' ', planHeadline(r, '/recommendation/nearest', rec.nearest, false)) : null]));
  }
  if (rec) append(root, plansTable(r, rec) ? section(t('report.alternatives'), plansTable(r, rec)) : null);
  const c = charts(r);
  if (c.length) root.appendChild(section(t('report.charts'), h('div', { class: 'rp-charts' }, c)));
  root.appendChild(section(t('report.assumptions'), assumptions(r)));
  const p = prices(r);
  if (p) root.appendChild(section(t('report.prices'), p));
  root.appendChild(h('footer', { class: 'rp-foot' }, h('p', { text: t('report.link') }), h('p', { class: 'rp-link', text: location.href })));
  return root;
}

export function printReport() {
  buildReport();
  window.print();
}

window.addEventListener('beforeprint', buildReport);
