// SPDX-License-Identifier: MIT
// Exports: CSV of the candidate plans (recommended, runners-up, levers, nearest, the Pareto
// front) and of the GPU options table, and saving any text as a file (a Blob URL: works from
// file:// and makes no request). Values are the core's raw figures; headers are in the page's
// language. A text cell that a spreadsheet would run as a formula is quoted with a leading '.
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { namedPlans, roleLabel } from './plans.js';

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

// Columns of a plan: [header key, value from the plan].
/** A list of {code, …} as its codes, space-separated ('' for none). */
function codes(list) { return (list || []).map(function (x) { return x.code; }).join(' '); }

const PLAN_COLUMNS = [
  ['gpu', function (p) { return p.gpu; }],
  ['name', function (p) { return p.name; }],
  ['gpus', function (p) { return p.gpus; }],
  ['servers', function (p) { return p.servers; }],
  ['tp', function (p) { return p.layout && p.layout.tp; }],
  ['pp', function (p) { return p.layout && p.layout.pp; }],
  ['dp', function (p) { return p.layout && p.layout.dp; }],
  ['ep', function (p) { return p.layout && p.layout.ep; }],
  ['zero', function (p) { return p.layout && p.layout.zero; }],
  ['deployment', function (p) { return p.deployment; }],
  ['facility', function (p) { return p.facility; }],
  ['hours', function (p) { return p.hours; }],
  ['gpu_hours', function (p) { return p.gpu_hours; }],
  ['mfu', function (p) { return p.mfu; }],
  ['per_user_tokens_per_second', function (p) { return p.per_user_tokens_per_second; }],
  ['time_to_first_token_s', function (p) { return p.time_to_first_token_s; }],
  ['time_to_first_token_p90_s', function (p) { return p.time_to_first_token_p90_s; }],
  ['output_tokens_per_second', function (p) { return p.output_tokens_per_second; }],
  ['cost_cny', function (p) { return p.cost ? p.cost.cny : p.cost_cny; }],
  ['cost_basis', function (p) { return p.cost ? p.cost.basis : null; }],
  ['outlay_cny', function (p) { return p.outlay_cny; }],
  ['outlay_basis', function (p) { return p.outlay_basis; }],
  ['cny_per_gpu_hour', function (p) { return p.cost ? p.cost.cny_per_gpu_hour : null; }],
  ['per_million_tokens_cny', function (p) { return p.cost ? p.cost.per_million_tokens_cny : null; }],
  ['utilization', function (p) { return p.cost ? p.cost.utilization : null; }],
  ['life_years', function (p) { return p.cost ? p.cost.life_years : null; }],
  ['china_purchasable', function (p) { return p.china_purchasable; }],
  ['office_can_host', function (p) { return p.office_can_host; }],
  ['per_gpu_bytes', function (p) { return p.per_gpu_bytes; }],
  ['server_watts_full_load', function (p) { return p.server_watts_full_load; }],
  ['full_checkpointing', function (p) { return p.full_checkpointing === true; }],
  // The codes a plan carries (their words are on the page and in the report): space-separated.
  ['risks', function (p) { return codes(p.risks); }],
  ['warnings', function (p) { return codes(p.warnings); }],
];

/** The candidate plans of the last result as CSV rows (header first). */
export function plansCsvRows(result) {
  const rec = result && result.recommendation;
  const header = ['role', 'role_label'].concat(PLAN_COLUMNS.map(function (c) { return c[0]; }), ['why_not']);
  const rows = [header.map(function (k) { return t('csv.' + k); })];
  if (!rec) return rows;
  namedPlans(rec).forEach(function (n) {
    rows.push([n.role, roleLabel(n)].concat(PLAN_COLUMNS.map(function (c) { return c[1](n.plan); }),
      [n.whyNot ? n.whyNot.text : null]));
  });
  (rec.pareto || []).forEach(function (p) {
    rows.push(['pareto', t('compare.front')].concat(PLAN_COLUMNS.map(function (c) { return c[1](p); }), [null]));
  });
  return rows;
}

// Columns of the options table: [header key, value from the option row].
const OPTION_COLUMNS = [
  ['gpu', function (o) { return o.gpu; }],
  ['name', function (o) { return o.name; }],
  ['vendor', function (o) { return o.vendor; }],
  ['memory_bytes', function (o) { return o.memory_bytes; }],
  ['fits_on_one', function (o) { return o.fits_on_one; }],
  ['min_count', function (o) { return o.min_count; }],
  ['tp', function (o) { return o.min_layout && o.min_layout.tp; }],
  ['pp', function (o) { return o.min_layout && o.min_layout.pp; }],
  ['dp', function (o) { return o.min_layout && o.min_layout.dp; }],
  ['servers', function (o) { return o.min_layout && o.min_layout.servers; }],
  ['per_gpu_bytes_at_min', function (o) { return o.per_gpu_bytes_at_min; }],
  ['hours', function (o) { return o.training ? o.training.hours : null; }],
  ['training_tokens_per_second', function (o) { return o.training ? o.training.tokens_per_second : null; }],
  ['mfu', function (o) { return o.training ? o.training.mfu : null; }],
  ['decode_tokens_per_second', function (o) { return o.inference ? o.inference.decode_tokens_per_second : null; }],
  ['max_concurrency', function (o) { return o.inference ? o.inference.max_concurrency : null; }],
  ['gpus_needed', function (o) { return o.inference ? o.inference.gpus_needed : null; }],
  ['cheapest_option', function (o) { return o.cost ? o.cost.cheapest : null; }],
  ['cheapest_lifetime_cny', function (o) { return o.cost && o.cost.cheapest ? o.cost[o.cost.cheapest + '_lifetime_cny'] : null; }],
  ['break_even_utilization', function (o) { return o.cost ? o.cost.break_even_utilization : null; }],
  ['china_status', function (o) { return o.china_availability ? o.china_availability.status : null; }],
  ['verdict', function (o) { return o.verdict; }],
  ['reason', function (o) { return o.reason; }],
];

export function optionsCsvRows(result) {
  const rows = [OPTION_COLUMNS.map(function (c) { return t('csv.' + c[0]); })];
  ((result && result.options) || []).forEach(function (o) {
    rows.push(OPTION_COLUMNS.map(function (c) { return c[1](o); }));
  });
  return rows;
}

function stamp() {
  const d = new Date();
  const two = function (n) { return (n < 10 ? '0' : '') + n; };
  return d.getFullYear() + two(d.getMonth() + 1) + two(d.getDate()) + '-' + two(d.getHours()) + two(d.getMinutes());
}

export function downloadPlansCsv(result) {
  downloadText(toCsv(plansCsvRows(result)), 'gpu-advisor-plans-' + stamp() + '.csv', 'text/csv;charset=utf-8');
  toast(t('toast.csv'));
}

export function downloadOptionsCsv(result) {
  downloadText(toCsv(optionsCsvRows(result)), 'gpu-advisor-options-' + stamp() + '.csv', 'text/csv;charset=utf-8');
  toast(t('toast.csv'));
}
