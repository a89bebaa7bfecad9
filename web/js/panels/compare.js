// SPDX-License-Identifier: MIT
// Panel: the options side by side. A time-vs-cost scatter of the plans the recommendation names
// with its Pareto front (none on it is both slower and dearer than another); the candidate plans
// (recommended, runners-up, levers, nearest) with a box to compare 2-3 of them and a button to
// pin each; the comparison table; the GPUs left out and the first check each failed; CSV export.
import { linearTicks, lineChart } from '../charts.js';
import { gpuName } from '../core.js';
import { append, fig, h, pointerGet } from '../dom.js';
import { downloadPlansCsv } from '../export.js';
import { cny, cnyTick, duration, gib, integer, isNum, num3, percent, seconds, tickNum, watts } from '../format.js';
import { labelOf, t, tNodes } from '../i18n.js';
import { optionLabel, renderPanels, sectionTitle } from '../panel.js';
import { costNodes, deploymentLabel, namedPlans, pinButton, pinPlan, planHeadline, reasonNodes, riskBadges, roleLabel, timeNodes } from '../plans.js';

const MAX_COMPARED = 3;

// The plans in the side-by-side comparison, by key: the visitor's picks (null: the first three
// named plans), and those shown by the last drawing.
let picks = null;
let shownKeys = [];
const COLOURS = { front: '#1f5fa8', best: '#1e7a4c', runner: '#c9852f', lever: '#8a6bb5', nearest: '#b42b2b' };

function isServing(rec) {
  const p = rec.best || rec.nearest || (rec.pareto || [])[0];
  return Boolean(p && !isNum(p.hours) && isNum(p.per_user_tokens_per_second));
}

function shortName(plan) {
  return plan.gpus + '× ' + String(plan.name || gpuName(plan.gpu));
}

function tipOf(plan, cost, serving) {
  const time = serving ? num3(plan.per_user_tokens_per_second) + ' tok/s' : duration(plan.hours);
  return shortName(plan) + ' · ' + deploymentLabel(plan.deployment) + ' · ' + time + ' · ' + cny(cost) + t('basis.' + (serving ? 'per_month' : 'per_run') + '.suffix');
}

/** The scatter: x = hours (training) or tokens/s per user (serving), y = this job's cost; log scales. */
function scatter(r, rec) {
  const serving = isServing(rec);
  const xOf = function (p) { return serving ? p.per_user_tokens_per_second : p.hours; };
  const front = (rec.pareto || []).map(function (p, i) {
    return { x: xOf(p), y: p.cost_cny, field: '/recommendation/pareto/' + i + '/cost_cny', value: p.cost_cny, tip: tipOf(p, p.cost_cny, serving),
      onclick: function () { pinPlan(p); } };
  });
  const groups = { best: [], runner: [], lever: [], nearest: [] };
  namedPlans(rec).forEach(function (n) {
    const g = n.key === 'best' ? 'best' : n.key === 'nearest' ? 'nearest' : n.key.split(':')[0];
    groups[g].push({ x: xOf(n.plan), y: n.plan.cost.cny, field: n.pointer + '/cost/cny', value: n.plan.cost.cny, key: n.key,
      tip: roleLabel(n) + ': ' + tipOf(n.plan, n.plan.cost.cny, serving), label: g === 'best' ? t('answer.role.best') : null,
      big: g === 'best' || g === 'nearest', hollow: g === 'lever', onclick: function () { toggleCompare(n.key); } });
  });
  const series = [{ label: t('compare.front'), color: COLOURS.front, points: front, z: 0 }];
  [['runner', 'compare.runners'], ['lever', 'compare.levers'], ['nearest', 'answer.role.nearest'], ['best', 'answer.role.best']].forEach(function (x) {
    if (groups[x[0]].length) series.push({ label: t(x[1]), color: COLOURS[x[0]], line: false, hollow: x[0] === 'lever', points: groups[x[0]], z: 1 });
  });
  const all = series.reduce(function (a, s) { return a.concat(s.points); }, []).filter(function (p) { return isNum(p.x) && isNum(p.y) && p.x > 0 && p.y > 0; });
  if (!all.length) return null;
  return lineChart({
    title: t('compare.chart_title'), height: 300,
    x: Object.assign(logAxis(all.map(function (p) { return p.x; })), { format: serving ? tickNum : durationTick, label: t(serving ? 'compare.x_serving' : 'compare.x_training') }),
    y: Object.assign(logAxis(all.map(function (p) { return p.y; })), { format: cnyTick, label: t(serving ? 'compare.y_serving' : 'compare.y_training') }),
    series: series,
  });
}

/**
 * A log axis; over less than a decade and a half its ticks are round linear steps (a log axis
 * over 384..952 would otherwise be labelled at its ends only).
 */
function logAxis(values) {
  const lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
  if (!(hi / lo < 20)) return { log: true };
  const min = lo / 1.15, max = hi * 1.15;
  const ticks = linearTicks(min, max, 4).filter(function (v) { return v > 0 && v >= min && v <= max; });
  return ticks.length >= 2 ? { log: true, min: min, max: max, ticks: ticks } : { log: true };
}

/** An axis tick for a duration in hours: "6 分钟", "3 小时", "12 天". */
function durationTick(v) {
  if (v < 1) return t('unit.minutes', { n: tickNum(v * 60) });
  if (v < 48) return t('unit.hours', { n: tickNum(v) });
  return t('unit.days', { n: tickNum(v / 24) });
}

function toggleCompare(key) {
  const list = (picks || shownKeys).slice();
  const i = list.indexOf(key);
  if (i >= 0) list.splice(i, 1);
  else {
    list.push(key);
    while (list.length > MAX_COMPARED) list.shift();
  }
  picks = list;
  renderPanels();
}

/** The plans to compare: the user's picks that still exist, else the first three named plans. */
function compared(named) {
  const keys = named.map(function (n) { return n.key; });
  let picked = (picks || []).filter(function (k) { return keys.indexOf(k) >= 0; });
  if (!picks) picked = keys.slice(0, MAX_COMPARED);
  return named.filter(function (n) { return picked.indexOf(n.key) >= 0; });
}

function candidatesTable(r, named, chosen) {
  const serving = isServing(r.recommendation);
  const table = h('table', { class: 'data-table candidates' }, h('thead', null, h('tr', null,
    h('th', { text: t('compare.col.compare') }), h('th', { text: t('compare.col.role') }), h('th', { text: t('compare.col.plan') }),
    h('th', { class: 'num', text: t(serving ? 'compare.col.speed' : 'compare.col.time') }), h('th', { class: 'num', text: t('compare.col.cost') }),
    h('th', { text: t('compare.col.china') }), h('th', { text: '' }))));
  const tb = h('tbody');
  named.forEach(function (n) {
    const on = chosen.indexOf(n) >= 0;
    tb.appendChild(h('tr', { class: on ? 'selected' : null, dataset: { key: n.key } },
      h('td', null, h('input', { type: 'checkbox', class: 'compare-box', checked: on, 'aria-label': t('compare.col.compare') + ': ' + shortName(n.plan),
        onchange: function () { toggleCompare(n.key); } })),
      h('td', { class: 'role-cell', text: roleLabel(n) }),
      h('td', null, fig(r, n.pointer + '/gpus', integer, 'strong'), '× ', h('span', { text: String(n.plan.name) }), ' · ',
        fig(h('span'), r, n.pointer + '/deployment', deploymentLabel), riskBadges(n.plan, 'inline', true)),
      h('td', { class: 'num' }, timeNodes(r, n.pointer, n.plan)),
      h('td', { class: 'num' }, costNodes(r, n.pointer, n.plan, { short: true })),
      h('td', null, fig(h('span', { class: 'mark' }), r, n.pointer + '/china_purchasable', function (v) { return v ? '✓' : '✗'; })),
      h('td', null, pinButton(n.plan))));
  });
  table.appendChild(tb);
  return h('div', { class: 'table-scroll' }, table);
}

/** One row per attribute, one column per compared plan. */
const ROWS = [
  { key: 'gpu', label: 'compare.row.gpu', cell: function (r, p, plan) { return fig(h('span'), r, p + '/gpu', function () { return String(plan.name); }); } },
  { key: 'gpus', label: 'compare.row.gpus', cell: function (r, p) { return fig(r, p + '/gpus', integer, 'strong'); } },
  { key: 'servers', label: 'compare.row.servers', cell: function (r, p) { return fig(r, p + '/servers', integer); } },
  { key: 'layout', label: 'compare.row.layout', cell: function (r, p) {
    return tNodes('summary.topology', ['tp', 'pp', 'dp', 'ep', 'zero', 'servers'].reduce(function (o, k) {
      o[k] = fig(r, p + (k === 'servers' ? '/servers' : '/layout/' + k), integer); return o;
    }, pointerGet(r, p + '/layout/cp') > 1 ? { cp: fig(r, p + '/layout/cp', integer) } : {}));
  } },
  { key: 'deployment', label: 'compare.row.deployment', cell: function (r, p) { return fig(h('span'), r, p + '/deployment', deploymentLabel); } },
  { key: 'facility', label: 'compare.row.facility', cell: function (r, p) { return fig(h('span'), r, p + '/facility', labelOf('power.facility.')); } },
  { key: 'hours', label: 'compare.row.hours', training: true, cell: function (r, p) { return fig(r, p + '/hours', duration, 'strong'); } },
  { key: 'gpu_hours', label: 'compare.row.gpu_hours', training: true, cell: function (r, p) { return fig(r, p + '/gpu_hours', num3); } },
  { key: 'mfu', label: 'compare.row.mfu', training: true, cell: function (r, p) { return fig(r, p + '/mfu', function (v) { return percent(v, 0); }); } },
  { key: 'tps', label: 'compare.row.tps', serving: true, cell: function (r, p) { return fig(r, p + '/per_user_tokens_per_second', num3, 'strong'); } },
  { key: 'ttft', label: 'compare.row.ttft', serving: true, cell: function (r, p) { return fig(r, p + '/time_to_first_token_s', seconds); } },
  { key: 'cost', label: 'compare.row.cost', cell: function (r, p, plan) { return costNodes(r, p, plan); } },
  { key: 'outlay', label: 'compare.row.outlay', cell: function (r, p) {
    return [fig(r, p + '/outlay_cny', cny, 'strong'), ' ', fig(h('span', { class: 'muted' }), r, p + '/outlay_basis', labelOf('outlay_basis.'))];
  } },
  { key: 'rate', label: 'compare.row.rate', cell: function (r, p) { return fig(r, p + '/cost/cny_per_gpu_hour', cny); } },
  { key: 'memory', label: 'compare.row.memory', cell: function (r, p) { return fig(r, p + '/per_gpu_bytes', gib, { unit: ' GiB' }); } },
  { key: 'power', label: 'compare.row.power', cell: function (r, p) { return fig(r, p + '/server_watts_full_load', watts); } },
  { key: 'office', label: 'compare.row.office', cell: function (r, p) { return fig(h('span'), r, p + '/office_can_host', function (v) { return v ? t('common.yes') : t('common.no'); }); } },
  { key: 'risks', label: 'compare.row.risks', cell: function (r, p, plan) { return riskBadges(plan, 'small') || t('compare.no_risks'); } },
  { key: 'china', label: 'compare.row.china', cell: function (r, p) { return fig(h('span'), r, p + '/china_purchasable', function (v) { return v ? t('common.yes') : t('common.no'); }); } },
];

function sideBySide(r, chosen) {
  if (chosen.length < 2) return h('p', { class: 'muted', text: t('compare.pick_two') });
  const serving = isServing(r.recommendation);
  const table = h('table', { class: 'data-table side-by-side' });
  table.appendChild(h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('compare.col.attribute') }),
    chosen.map(function (n) { return h('th', { scope: 'col', dataset: { key: n.key } }, h('div', { text: roleLabel(n) }), h('div', { class: 'kpi-sub', text: shortName(n.plan) })); }))));
  const tb = h('tbody');
  ROWS.forEach(function (row) {
    if ((row.training && serving) || (row.serving && !serving)) return;
    tb.appendChild(h('tr', { dataset: { row: row.key } }, h('th', { scope: 'row', text: t(row.label) }),
      chosen.map(function (n) { return h('td', null, row.cell(r, n.pointer, n.plan)); })));
  });
  tb.appendChild(h('tr', { dataset: { row: 'pin' } }, h('th', { scope: 'row', text: '' }), chosen.map(function (n) { return h('td', null, pinButton(n.plan)); })));
  table.appendChild(tb);
  return h('div', { class: 'table-scroll' }, table);
}

function rejected(r, rec) {
  const list = rec.rejected || [];
  if (!list.length) return null;
  const ul = h('ul', { class: 'rejected-list' });
  list.forEach(function (x, i) {
    const base = '/recommendation/rejected/' + i;
    ul.appendChild(h('li', { dataset: { gpu: String(x.gpu) } }, fig(h('strong'), r, base + '/gpu', gpuName), ': ',
      h('span', { class: 'step-label', text: labelOf('step.')(x.reason.step) }), ' ', reasonNodes(r, base + '/reason', x.reason, null)));
  });
  return h('details', { class: 'assumptions rejected' }, h('summary', { text: t('compare.rejected', { n: list.length }) }), ul);
}

function renderCompare(body, r, ctx) {
  const rec = r.recommendation;
  const named = namedPlans(rec);
  ctx.actions.appendChild(h('button', { type: 'button', class: 'btn btn-small', id: 'btn-plans-csv', text: t('export.csv_plans'),
    onclick: function () { downloadPlansCsv(r); } }));
  body.appendChild(sectionTitle(t('compare.chart_title'), h('span', { class: 'section-sub', text: t('compare.chart_sub') })));
  const chart = scatter(r, rec);
  body.appendChild(chart || h('p', { class: 'muted', text: t('compare.no_points') }));
  if (named.length) {
    const chosen = compared(named);
    shownKeys = chosen.map(function (n) { return n.key; });
    body.appendChild(sectionTitle(t('compare.candidates'), h('span', { class: 'section-sub', text: t('compare.candidates_sub') })));
    body.appendChild(candidatesTable(r, named, chosen));
    body.appendChild(sectionTitle(t('compare.side_by_side')));
    body.appendChild(sideBySide(r, chosen));
  }
  append(body, rejected(r, rec));
}

export default { id: 'compare', titleKey: 'panel.compare', render: renderCompare, showsLevers: true, applies: function (r) { return Boolean(r.recommendation); },
  reset: function () { picks = null; } };

export { scatter as compareScatter }; // the print report's chart (js/report.js)
