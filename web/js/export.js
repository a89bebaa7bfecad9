// SPDX-License-Identifier: MIT
// Exports: CSV of the candidate plans (the recommended plan first, then the runners-up, the
// other options and the time-cost front) and of the GPU options table, for people: headers in
// the page's language with their units, figures rounded, codes in words, a UTF-8 BOM so Excel
// reads the Chinese (the machine-readable export is the JSON of the top bar). Saving any text as
// a file (a Blob URL: works from file:// and makes no request). A text cell that a spreadsheet
// would run as a formula is quoted with a leading '.
import { gpuName } from './core.js';
import { h, toast } from './dom.js';
import { isNum, percent } from './format.js';
import { labelOf, t } from './i18n.js';
import { noteText } from './notes.js';
import { optionLabel } from './panel.js';
import { completeLevers } from './run.js';
import { deploymentLabel, namedPlans, reasonNodes, roleLabel } from './plans.js';

const GIB = 1024 * 1024 * 1024;

/** One CSV cell: numbers as they are, text quoted when needed and defused when it starts a formula. */
export function csvCell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** Rows (arrays) to CSV text with a UTF-8 byte-order mark, so spreadsheets read the Chinese. */
export function toCsv(rows) {
  return '\ufeff' + rows.map(function (row) { return row.map(csvCell).join(','); }).join('\r\n') + '\r\n';
}

/** Saves text as a file through a Blob URL. */
export function downloadText(text, fileName, type) {
  const blob = new Blob([text], { type: type || 'text/plain;charset=utf-8' });
  const a = h('a', { href: URL.createObjectURL(blob), download: fileName });
  document.body.appendChild(a);
  a.click();
  setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
}

// ---------------------------------------------------------------- a CSV for people
// Numbers are rounded for reading (yuan to the yuan, hours to 0.01 h, GiB to 0.1) and written
// without grouping, so a spreadsheet still reads them as numbers; the unit is in the header;
// codes are words; a column no row fills is left out.

/** v rounded to d decimals (null stays null): a figure of the core, only shortened. */
function round(v, d) {
  return isNum(v) ? Number(v.toFixed(d)) : null;
}
/** Yuan: whole yuan from 100, else fen. */
function yuan(v) { return isNum(v) ? round(v, Math.abs(v) >= 100 ? 0 : 2) : null; }
/** A share (0-1) as a percent with one decimal. */
function pctOf(v) { return isNum(v) ? round(v * 100, 1) : null; }
/** Bytes as GiB, one decimal. */
function gibOf(v) { return isNum(v) ? round(v / GIB, 1) : null; }
/** A flag in words. */
function yesNo(v) { return v === true ? t('common.yes') : v === false ? t('common.no') : null; }
/** Nodes (a reason in words) as plain text. */
function textOf(nodes) {
  const span = h('span', null, nodes);
  return span.textContent.replace(/\s+/g, ' ').trim();
}
/** "TP 2 × PP 1 × DP 1 · ZeRO-3" */
function layoutText(L, r) {
  if (!L) return null;
  const training = !(r && r.task === 'inference'); // ZeRO is a training setting
  let s = 'TP ' + L.tp + ' × PP ' + L.pp + ' × DP ' + L.dp;
  if (L.cp > 1) s += ' × CP ' + L.cp;
  if (L.ep > 1) s += ' · EP ' + L.ep;
  if (training && isNum(L.zero)) s += ' · ZeRO-' + L.zero;
  return s;
}
function riskWords(list) {
  return (list || []).map(function (x) { return labelOf('risk.')(x.code); }).join('; ');
}
function warningWords(list) {
  return (list || []).map(function (w) { return noteText('warnmsg.', { code: w.code, params: w.params, text: w.message || '' }).text; }).join('; ');
}
/** Where a plan's cards run: an owned plan's place; a rental is the provider's. */
function placeOf(p) {
  if (!p.deployment) return null;
  return p.deployment === 'buy' ? labelOf('power.facility.')(p.facility) : t('csv.provider_place');
}

// Columns of a plan: [header key, value from the named plan {plan, …}, the result].
const PLAN_COLUMNS = [
  ['plan', function (n) { return n.label; }],
  ['gpu', function (n) { return String(n.plan.name || gpuName(n.plan.gpu)); }],
  ['gpus', function (n) { return n.plan.gpus; }],
  ['servers', function (n) { return n.plan.servers; }],
  ['deployment', function (n) { return n.plan.deployment ? deploymentLabel(n.plan.deployment) : null; }],
  ['facility', function (n) { return placeOf(n.plan); }],
  ['hours', function (n) { return round(n.plan.hours, 2); }],
  ['gpu_hours', function (n) { return round(n.plan.gpu_hours, 1); }],
  ['per_user_tokens_per_second', function (n) { return round(n.plan.per_user_tokens_per_second, 1); }],
  ['time_to_first_token_s', function (n) { return round(n.plan.time_to_first_token_s, 2); }],
  ['time_to_first_token_p90_s', function (n) { return round(n.plan.time_to_first_token_p90_s, 2); }],
  ['output_tokens_per_second', function (n) { return round(n.plan.output_tokens_per_second, 0); }],
  ['cost_per_run', function (n) { return costOf(n, 'per_run'); }],
  ['cost_per_month', function (n) { return costOf(n, 'per_month'); }],
  ['per_million_tokens_cny', function (n) { return yuanSmall(n.plan.cost ? n.plan.cost.per_million_tokens_cny : null); }],
  ['cny_per_gpu_hour', function (n) { return yuanSmall(n.plan.cost ? n.plan.cost.cny_per_gpu_hour : null); }],
  ['utilization', function (n) { return n.plan.deployment === 'buy' && n.plan.cost ? pctOf(n.plan.cost.utilization) : null; }],
  ['life_years', function (n) { return n.plan.deployment === 'buy' && n.plan.cost ? round(n.plan.cost.life_years, 1) : null; }],
  ['outlay_cny', function (n) { return yuan(n.plan.outlay_cny); }],
  ['outlay_basis', function (n) { return n.plan.outlay_basis ? labelOf('outlay_basis.')(n.plan.outlay_basis) : null; }],
  ['mfu', function (n) { return pctOf(n.plan.mfu); }],
  ['per_gpu_gib', function (n) { return gibOf(n.plan.per_gpu_bytes); }],
  ['server_kw', function (n) { return isNum(n.plan.server_watts_full_load) ? round(n.plan.server_watts_full_load / 1000, 2) : null; }],
  ['layout', function (n, r) { return layoutText(n.plan.layout, r); }],
  ['china_purchasable', function (n) { return yesNo(n.plan.china_purchasable); }],
  ['office_can_host', function (n) { return yesNo(n.plan.office_can_host); }],
  ['full_checkpointing', function (n) { return n.plan.full_checkpointing === true ? t('common.yes') : null; }],
  ['risks', function (n) { return riskWords(n.plan.risks); }],
  ['warnings', function (n) { return warningWords(n.plan.warnings); }],
  ['why_not', function (n) { return n.why; }],
];

/** Yuan below 100 to the fen, a price per unit (per GPU-hour, per million tokens). */
function yuanSmall(v) { return isNum(v) ? round(v, Math.abs(v) >= 100 ? 0 : 2) : null; }
/** The named plan's cost in yuan when its basis is `basis` (a Pareto point's is the task's). */
function costOf(n, basis) {
  const c = n.plan.cost;
  if (c) return c.basis === basis ? yuan(c.cny) : null;
  return n.basis === basis ? yuan(n.plan.cost_cny) : null;
}

/** Drops the columns no data row fills (the serving columns of a training job, ...). */
function dropEmpty(rows) {
  if (rows.length < 2) return rows;
  const keep = rows[0].map(function (x, i) {
    return rows.slice(1).some(function (row) { return row[i] !== null && row[i] !== undefined && row[i] !== ''; });
  });
  return rows.map(function (row) { return row.filter(function (x, i) { return keep[i]; }); });
}

/** The plans in the order a reader wants them: the recommendation, the runners-up, the other
 *  options (levers, the nearest plan), then the time-cost front's plans not named above. */
function plansForPeople(r) {
  const rec = r && r.recommendation;
  if (!rec) return [];
  const out = namedPlans(rec).map(function (n) {
    return { label: roleLabel(n), plan: n.plan,
      why: n.whyNot ? textOf(reasonNodes(r, n.whyPointer, n.whyNot, n.plan))
        : n.lever ? labelOf('trade_off.')(n.lever.trade_off) : null };
  });
  const same = function (a, b) { return a.gpu === b.gpu && a.gpus === b.gpus && (!a.deployment || !b.deployment || a.deployment === b.deployment); };
  (rec.pareto || []).forEach(function (p) {
    if (out.some(function (n) { return same(n.plan, p); })) return;
    out.push({ label: t('compare.front'), plan: p, why: null, basis: r.task === 'inference' ? 'per_month' : 'per_run' });
  });
  return out;
}

/** The candidate plans of the last result as CSV rows (header first): for people. */
export function plansCsvRows(result) {
  const rows = [PLAN_COLUMNS.map(function (c) { return t('csv.' + c[0]); })];
  plansForPeople(result).forEach(function (n) {
    rows.push(PLAN_COLUMNS.map(function (c) { return c[1](n, result); }));
  });
  return dropEmpty(rows);
}

/** The utilisation and years the options' lifetime totals are priced at, for the header. */
export function lifetimeBasis(r) {
  const ri = (r && r.resolved_inputs) || {};
  return { years: r && r.cost ? r.cost.life_years : ri['/cost/life_years'], u: ri['/cost/utilization'] };
}

// Columns of the options table: [header key, value from the option row, the result].
const OPTION_COLUMNS = [
  ['plan', function (o, r) { return planRole(r, o); }],
  ['gpu', function (o) { return String(o.name || o.gpu); }],
  ['vendor', function (o) { return o.vendor; }],
  ['memory_gib', function (o) { return gibOf(o.memory_bytes); }],
  ['fits_on_one', function (o) { return yesNo(o.fits_on_one); }],
  ['min_count', function (o) { return o.min_count; }],
  ['layout', function (o, r) { return layoutText(o.min_layout, r); }],
  ['servers', function (o) { return o.min_layout ? o.min_layout.servers : null; }],
  ['per_gpu_gib_at_min', function (o) { return gibOf(o.per_gpu_bytes_at_min); }],
  ['hours', function (o) { return o.training ? round(o.training.hours, 2) : null; }],
  ['training_tokens_per_second', function (o) { return o.training ? round(o.training.tokens_per_second, 0) : null; }],
  ['mfu', function (o) { return o.training ? pctOf(o.training.mfu) : null; }],
  ['decode_tokens_per_second', function (o) { return o.inference ? round(o.inference.decode_tokens_per_second, 1) : null; }],
  ['max_concurrency', function (o) { return o.inference ? o.inference.max_concurrency : null; }],
  ['gpus_needed', function (o) { return o.inference ? o.inference.gpus_needed : null; }],
  ['run_rent', function (o) { return o.cost && o.cost.cost_per_run_cny ? yuan(o.cost.cost_per_run_cny.rent) : null; }],
  ['run_buy', function (o) { return o.cost && o.cost.cost_per_run_cny ? yuan(o.cost.cost_per_run_cny.buy) : null; }],
  ['cheapest_option', function (o) { return o.cost && o.cost.cheapest ? optionLabel(o.cost.cheapest) : null; }],
  ['cheapest_lifetime', function (o) { return o.cost && o.cost.cheapest ? yuan(o.cost[o.cost.cheapest + '_lifetime_cny']) : null; }],
  ['break_even_utilization', function (o) { return o.cost ? pctOf(o.cost.break_even_utilization) : null; }],
  ['china_status', function (o) { return o.china_availability ? labelOf('china.')(o.china_availability.status) : null; }],
  ['verdict', function (o) { return o.verdict ? labelOf('verdict.')(o.verdict) : null; }],
  ['reason', function (o) { return o.reason ? noteText('optnote.', { code: o.reason_code, params: o.reason_params, text: o.reason }).text : null; }],
];

/** The recommendation's plans for this very request (not a lever's, which changes an input). */
function requestPlans(r) {
  return namedPlans(r && r.recommendation).filter(function (n) { return !n.lever; });
}

/** The role of the recommendation's plan on this GPU ("推荐", "最快"), or ''. */
function planRole(r, o) {
  const n = requestPlans(r).filter(function (x) { return x.plan.gpu === o.gpu; })[0];
  return n ? roleLabel(n) : '';
}

function optionHeader(key, r) {
  if (key !== 'cheapest_lifetime') return t('csv.' + key);
  const b = lifetimeBasis(r);
  return isNum(b.u) ? t('csv.cheapest_lifetime_u', { years: b.years, u: percent(b.u, 0) }) : t('csv.cheapest_lifetime', { years: b.years });
}

/** The GPU options as CSV rows: the recommended plan's GPU first, the runners-up's next. */
export function optionsCsvRows(result) {
  const rows = [OPTION_COLUMNS.map(function (c) { return optionHeader(c[0], result); })];
  const named = requestPlans(result).map(function (n) { return n.plan.gpu; });
  const rank = function (o) { const i = named.indexOf(o.gpu); return i < 0 ? named.length : i; };
  const options = ((result && result.options) || []).map(function (o, i) { return { o: o, i: i }; });
  options.sort(function (a, b) { return rank(a.o) - rank(b.o) || a.i - b.i; });
  options.forEach(function (x) {
    rows.push(OPTION_COLUMNS.map(function (c) { return c[1](x.o, result); }));
  });
  return dropEmpty(rows);
}

function stamp() {
  const d = new Date();
  const two = function (n) { return (n < 10 ? '0' : '') + n; };
  return d.getFullYear() + two(d.getMonth() + 1) + two(d.getDate()) + '-' + two(d.getHours()) + two(d.getMinutes());
}

// A download reads the whole result: its levers in first, if they are still to come.
export function downloadPlansCsv(result) {
  completeLevers();
  downloadText(toCsv(plansCsvRows(result)), 'gpu-advisor-plans-' + stamp() + '.csv', 'text/csv;charset=utf-8');
  toast(t('toast.csv'));
}

export function downloadOptionsCsv(result) {
  completeLevers();
  downloadText(toCsv(optionsCsvRows(result)), 'gpu-advisor-options-' + stamp() + '.csv', 'text/csv;charset=utf-8');
  toast(t('toast.csv'));
}
