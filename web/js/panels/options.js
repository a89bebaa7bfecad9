// SPDX-License-Identifier: MIT
// Panel: every catalog GPU, sortable.
import { fig, h } from '../dom.js';
import { downloadOptionsCsv, lifetimeBasis } from '../export.js';
import { cny, gib, gibCompact, integer, isNum, num3, pct } from '../format.js';
import { labelOf, lang, t, tNodes } from '../i18n.js';
import { noteNode } from '../notes.js';
import { onScreenMargin } from '../onscreen.js';
import { optionLabel, renderPanels } from '../panel.js';
import { costNodes, deploymentLabel, namedPlans, roleLabel } from '../plans.js';
import { keep, memo as setMemo, memoOf } from '../patch.js';

const CHINA_ORDER = ['domestic', 'china-specific', 'not-known-restricted',
  'license-required-case-by-case', 'license-required'];
const VERDICT_ORDER = ['fits_on_one', 'needs_multiple', 'does_not_fit'];

let sort = { key: null, dir: 1 }; // the column the table is sorted by (null: the core's order)

const OPTION_COLUMNS = [
  { key: 'gpu', label: 'options.col.gpu', sort: function (o) { return o.name; } },
  { key: 'memory', label: 'options.col.memory', sort: function (o) { return o.memory_bytes; }, num: true },
  { key: 'on_one', label: 'options.col.on_one', sort: function (o) { return o.per_gpu_bytes_on_one; }, num: true },
  { key: 'min_count', label: 'options.col.min_count', sort: function (o) { return o.min_count; }, num: true },
  { key: 'per_gpu', label: 'options.col.per_gpu', sort: function (o) { return o.per_gpu_bytes_at_min; }, num: true },
  { key: 'speed', label: 'options.col.speed', num: true, sort: function (o) {
    if (o.training) return o.training.hours;                       // shortest run first
    if (o.inference && isNum(o.inference.decode_tokens_per_second)) return -o.inference.decode_tokens_per_second;
    return null;
  } },
  { key: 'cost', label: 'options.col.cost', labelRun: 'options.col.cost_run', num: true, sort: function (o) {
    return o.cost && o.cost.cheapest ? o.cost[o.cost.cheapest + '_lifetime_cny'] : null;
  } },
  { key: 'china', label: 'options.col.china', sort: function (o) { return CHINA_ORDER.indexOf(o.china_availability && o.china_availability.status); } },
  { key: 'verdict', label: 'options.col.verdict', sort: function (o) { return VERDICT_ORDER.indexOf(o.verdict) * 1e6 + (o.min_count || 0); } },
];

function sortedOptions(options) {
  const col = OPTION_COLUMNS.filter(function (c) { return c.key === sort.key; })[0];
  const rows = options.map(function (o, i) { return { o: o, i: i }; });
  if (!col || !col.sort) return rows.map(function (r) { return r.o; });
  const dir = sort.dir;
  rows.sort(function (a, b) {
    const va = col.sort(a.o), vb = col.sort(b.o);
    const na = va === null || va === undefined, nb = vb === null || vb === undefined;
    if (na !== nb) return na ? 1 : -1;            // missing values last either way
    if (!na && va !== vb) return (va < vb ? -1 : 1) * dir;
    return a.i - b.i;
  });
  return rows.map(function (r) { return r.o; });
}

/** Options table: the option's speed at its minimum count (training or serving). */
function speedCell(r, o, base) {
  const td = h('td', { class: 'num speed-cell' });
  if (o.training) {
    td.appendChild(h('div', null, fig(r, base + '/training/tokens_per_second', integer, 'strong'),
      h('span', { class: 'unit', text: ' tok/s' })));
    td.appendChild(h('div', { class: 'sub' }, fig(r, base + '/training/hours', num3), ' h · MFU ',
      fig(r, base + '/training/mfu', pct(0))));
  } else if (o.inference) {
    td.appendChild(h('div', null, fig(r, base + '/inference/decode_tokens_per_second', integer, 'strong'),
      h('span', { class: 'unit', text: ' tok/s' })));
    td.appendChild(h('div', { class: 'sub' }, t('options.max_conc') + ' ', fig(r, base + '/inference/max_concurrency', integer)));
    if (isNum(o.inference.gpus_needed)) {
      td.appendChild(h('div', { class: 'sub' }, tNodes('options.gpus_needed', { n: fig(r, base + '/inference/gpus_needed', integer) })));
    }
  } else {
    td.appendChild(h('span', { class: 'muted', text: '—' }));
  }
  if (o.speed_note) td.appendChild(noteNode('div', 'optnote.', { code: o.speed_note_code, params: { gpu: String(o.name || o.gpu) }, text: o.speed_note }, { class: 'sub reason' }));
  return td;
}

/** The plans the recommendation names for this request (not a lever's), by GPU: the first one. */
function planOnGpu(r, gpu) {
  return namedPlans(r.recommendation).filter(function (n) { return !n.lever && n.plan.gpu === gpu; })[0] || null;
}

/** "5 年总成本（利用率 60%）": the years and the utilisation the options' totals are priced at. */
export function lifetimeLabel(r) {
  const b = lifetimeBasis(r);
  const years = fig(r, r.cost ? '/cost/life_years' : '/resolved_inputs/~1cost~1life_years', integer);
  return isNum(b.u)
    ? tNodes('options.lifetime_u', { years: years, u: fig(r, '/resolved_inputs/~1cost~1utilization', pct(0)) })
    : tNodes('options.lifetime', { years: years });
}

/**
 * Options table: this job's cost first (the recommendation's plan on this GPU, as the card says
 * it; else a training run at the cheapest way), then the lifetime total, labelled with its years
 * and utilisation, then one verdict on buying that agrees with them.
 */
function costCell(r, o, base) {
  const td = h('td', { class: 'num cost-cell' });
  const c = o.cost;
  const named = planOnGpu(r, o.gpu);
  if (named) {
    td.appendChild(h('div', { class: 'cost-plan' },
      h('span', { class: 'tag tag-plan', text: roleLabel(named) }), ' ',
      fig(h('span', { class: 'plan-deployment' }), r, named.pointer + '/deployment', deploymentLabel), ' ',
      costNodes(r, named.pointer, named.plan, { short: true })));
  }
  if (!c || !c.cheapest) {
    if (!named) td.appendChild(h('span', { class: 'muted', text: c ? t('options.no_price') : '—' }));
    return td;
  }
  const run = c.cost_per_run_cny;
  if (!named && run && isNum(run[c.cheapest])) {
    td.appendChild(h('div', { class: 'cost-run' },
      fig(h('span', { class: 'tag tag-opt tag-' + c.cheapest, title: optionLabel(c.cheapest) }), r, base + '/cost/cheapest', labelOf('costopt_short.', optionLabel)), ' ',
      fig(r, base + '/cost/cost_per_run_cny/' + c.cheapest, cny, 'strong'), h('span', { class: 'cost-basis', text: t('basis.per_run.suffix') })));
  }
  const key = c.cheapest + '_lifetime_cny';
  td.appendChild(h('div', { class: 'sub cost-life' }, lifetimeLabel(r),
    fig(h('span', { class: 'cost-opt' }), r, base + '/cost/cheapest', labelOf('costopt_short.', optionLabel)), ' ',
    fig(r, base + '/cost/' + key, cny),
    c.needs_confirmation ? h('span', { class: 'confirm-dot', title: t('prices.confirm_title'), text: '?' }) : null));
  td.appendChild(h('div', { class: 'sub cost-verdict' }, buyVerdict(r, o, base)));
  return td;
}

/** One verdict on buying this GPU's cards, consistent with the totals beside it. */
function buyVerdict(r, o, base) {
  const c = o.cost;
  if (isNum(c.break_even_utilization)) {
    return tNodes('options.break_even', { u: fig(r, base + '/cost/break_even_utilization', pct(0)) });
  }
  // No break-even: either one way has no price, or renting is cheaper even when always busy.
  const noRent = c.rent_lifetime_cny === null || c.rent_lifetime_cny === undefined;
  const noBuy = c.buy_lifetime_cny === null || c.buy_lifetime_cny === undefined;
  if (noRent && !noBuy) return fig(h('span'), r, base + '/cost/rent_lifetime_cny', null, { none: t('options.no_rent_price') });
  if (noBuy && !noRent) return fig(h('span'), r, base + '/cost/buy_lifetime_cny', null, { none: t('options.no_buy_price') });
  if (c.cheapest === 'buy') return null;
  return fig(h('span'), r, base + '/cost/break_even_utilization', null, { none: t('options.never') });
}

function renderOptions(body, r, ctx) {
  const pinned = ctx.request && ctx.request.hardware ? ctx.request.hardware.gpu : null;
  ctx.actions.appendChild(h('span', { class: 'muted small', text: t('options.sort_hint') }));
  ctx.actions.appendChild(h('button', { type: 'button', class: 'btn btn-small', id: 'btn-options-csv', text: t('export.csv_options'),
    onclick: function () { downloadOptionsCsv(r); } }));
  if (sort.key) {
    ctx.actions.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('options.default_order'),
      onclick: function () { sort = { key: null, dir: 1 }; renderPanels(); } }));
  }
  const table = h('table', { class: 'options' });
  const headRow = h('tr');
  OPTION_COLUMNS.forEach(function (c) {
    const active = sort.key === c.key;
    const th = h('th', { scope: 'col', class: (c.num ? 'num ' : '') + (c.sort ? 'sortable' : ''),
      'aria-sort': active ? (sort.dir > 0 ? 'ascending' : 'descending') : (c.sort ? 'none' : null),
      dataset: { col: c.key } });
    if (c.sort) {
      th.appendChild(h('button', { type: 'button', class: 'th-btn', onclick: function () {
        if (sort.key !== c.key) sort = { key: c.key, dir: 1 };
        else if (sort.dir > 0) sort = { key: c.key, dir: -1 };
        else sort = { key: null, dir: 1 };
        renderPanels();
      } }, t(c.labelRun && r.training ? c.labelRun : c.label), h('span', { class: 'sort-mark', text: active ? (sort.dir > 0 ? ' ▲' : ' ▼') : '' })));
    } else {
      th.textContent = t(c.label);
    }
    headRow.appendChild(th);
  });
  table.appendChild(h('thead', null, headRow));
  const tbody = h('tbody');
  const liveRows = ctx.live ? watchRows(ctx.live) : null;
  sortedOptions(r.options || []).forEach(function (o) {
    const isPinned = pinned === o.gpu;
    // A row is drawn from its option alone (and the language, the pin): one that shows the
    // same is kept as it is; in an input change's frame a row off screen is kept until after it.
    const named = planOnGpu(r, o.gpu);
    const memo = lang + (isPinned ? '|pinned|' : '||') + JSON.stringify(o) + JSON.stringify(lifetimeBasis(r)) +
      (named ? JSON.stringify([named.key, named.plan.deployment, named.plan.facility, named.plan.gpus, named.plan.cost]) : '');
    const old = liveRows && liveRows.get(o.gpu);
    if (liveRows) liveRows.set(o.gpu, null); // a GPU listed twice: the second drawn anew
    if (old && (memoOf(old) === memo || (ctx.defer && farRows.has(old)))) {
      if (memoOf(old) !== memo) ctx.partial();
      tbody.appendChild(keep(old));
      return;
    }
    tbody.appendChild(setMemo(optionRow(r, o, isPinned), memo));
  });
  table.appendChild(tbody);
  body.appendChild(h('div', { class: 'table-wrap' }, table));
}

// Which rows of the table are off screen (under the sticky bars counts as off), as the last
// layout left them (an IntersectionObserver, so that a render forces no layout). A row not yet
// observed counts as on screen.
let rowObserver = null;
const watched = new Set();
const farRows = new WeakSet();
/** The live table's rows by GPU id, each watched. */
function watchRows(live) {
  const rows = new Map();
  if (!rowObserver && window.IntersectionObserver) {
    rowObserver = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) farRows.delete(e.target); else farRows.add(e.target); });
    }, { rootMargin: onScreenMargin() });
  }
  watched.forEach(function (tr) { if (!live.contains(tr)) { watched.delete(tr); if (rowObserver) rowObserver.unobserve(tr); } });
  live.querySelectorAll('table.options > tbody > tr[data-gpu]').forEach(function (tr) {
    rows.set(tr.dataset.gpu, rows.has(tr.dataset.gpu) ? null : tr); // a GPU twice: drawn anew
    if (rowObserver && !watched.has(tr)) { watched.add(tr); rowObserver.observe(tr); }
  });
  return rows;
}

function optionRow(r, o, isPinned) {
  const base = '/options/@' + o.gpu;
  const tr = h('tr', { class: 'verdict-' + o.verdict + (isPinned ? ' pinned' : ''), dataset: { gpu: o.gpu } });
  // GPU
  tr.appendChild(h('td', { class: 'gpu-cell', title: String(o.vendor) + ' · ' + String(o.gpu) },
    h('div', { class: 'gpu-name', text: String(o.name) }),
    h('div', { class: 'gpu-sub' },
      o.software_stack && o.software_stack !== 'cuda'
        ? h('span', { class: 'tag tag-stack', title: t('options.stack', { stack: o.software_stack }), text: String(o.software_stack).toUpperCase() }) : null,
      isPinned ? h('span', { class: 'tag tag-pinned', text: t('options.pinned') }) : null,
      isNum(o.power_limit_w) ? h('span', { class: 'tag tag-pinned', text: t('options.power_limit', { watts: o.power_limit_w }) }) : null)));
  // memory
  tr.appendChild(h('td', { class: 'num' }, fig(r, base + '/memory_bytes', gibCompact, { unit: ' GiB' })));
  // on one GPU
  tr.appendChild(h('td', { class: 'num' },
    h('div', null,
      fig(h('span', { class: 'mark ' + (o.fits_on_one ? 'yes' : 'no') }), r, base + '/fits_on_one', function (fits) { return fits ? '✓' : '✗'; }),
      o.tight_on_one ? fig(h('span', { class: 'tag tag-tight', title: t('options.tight_title') }), r, base + '/tight_on_one', function () { return t('options.tight'); }) : null),
    h('div', { class: 'sub on-one-need' }, tNodes('options.on_one_needs', { value: fig(r, base + '/per_gpu_bytes_on_one', gib) }))));
  // min count, with its layout under it
  const L = o.min_layout;
  tr.appendChild(h('td', { class: 'num count-cell' },
    fig(r, base + '/min_count', integer, isNum(o.min_count) ? 'count' : 'muted'), h('div', { class: 'layout-cell sub' }, L ? [
      h('div', null, tNodes('options.layout_value', {
        tp: fig(r, base + '/min_layout/tp', integer),
        pp: fig(r, base + '/min_layout/pp', integer),
        dp: fig(r, base + '/min_layout/dp', integer),
      }), L.ep > 1 ? tNodes('options.layout_ep', { ep: fig(r, base + '/min_layout/ep', integer) }) : null,
      L.cp > 1 ? tNodes('options.layout_cp', { cp: fig(r, base + '/min_layout/cp', integer) }) : null),
      h('div', null, tNodes('options.servers', { n: fig(r, base + '/min_layout/servers', integer) })),
      o.full_checkpointing ? fig(h('span', { class: 'tag', title: t('options.checkpointed_title') }), r, base + '/full_checkpointing', function () { return t('options.checkpointed'); }) : null,
    ] : null)));
  // per GPU at min
  const perGpu = o.per_gpu_bytes_at_min;
  tr.appendChild(h('td', { class: 'num' }, perGpu === null || perGpu === undefined
    ? h('span', { class: 'muted', text: '—' })
    : [fig(r, base + '/per_gpu_bytes_at_min', gib, { unit: ' GiB' }),
      h('div', { class: 'usage' }, h('span', { class: 'usage-fill', style: 'width:' + Math.min(100, perGpu / o.memory_bytes * 100).toFixed(1) + '%' }))]));
  tr.appendChild(speedCell(r, o, base));
  tr.appendChild(costCell(r, o, base));
  // China availability
  const ca = o.china_availability || {};
  tr.appendChild(h('td', { class: 'china-cell' },
    fig(h('div', { class: 'china china-' + String(ca.status || 'unknown').replace(/[^a-z-]/g, '') }), r, base + '/china_availability/status', labelOf('china.')),
    ca.as_of ? h('div', { class: 'sub', text: t('options.as_of', { date: ca.as_of }) }) : null));
  // verdict
  tr.appendChild(h('td', { class: 'verdict-cell' },
    fig(h('span', { class: 'pill pill-' + o.verdict }), r, base + '/verdict', labelOf('verdict.')),
    o.reason ? noteNode('div', 'optnote.', { code: o.reason_code, params: o.reason_params, text: o.reason }, { class: 'sub reason' }) : null));
  return tr;
}

export default { id: 'options', titleKey: 'panel.options', render: renderOptions,
  reset: function () { sort = { key: null, dir: 1 }; } };
