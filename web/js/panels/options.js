// SPDX-License-Identifier: MIT
// Panel: every catalog GPU, sortable.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const { bytesFigure, cny, fig, gib, h, hasString, integer, isNum, num3, optionLabel, percent, renderPanels, t, tNodes, valueFigure } = UI;

  const CHINA_ORDER = ['domestic', 'china-specific', 'not-known-restricted',
    'license-required-case-by-case', 'license-required'];
  const VERDICT_ORDER = ['fits_on_one', 'needs_multiple', 'does_not_fit'];

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
    { key: 'cost', label: 'options.col.cost', num: true, sort: function (o) {
      return o.cost && o.cost.cheapest ? o.cost[o.cost.cheapest + '_lifetime_cny'] : null;
    } },
    { key: 'china', label: 'options.col.china', sort: function (o) { return CHINA_ORDER.indexOf(o.china_availability && o.china_availability.status); } },
    { key: 'verdict', label: 'options.col.verdict', sort: function (o) { return VERDICT_ORDER.indexOf(o.verdict) * 1e6 + (o.min_count || 0); } },
  ];

  function sortedOptions(options) {
    const col = OPTION_COLUMNS.filter(function (c) { return c.key === state.sort.key; })[0];
    const rows = options.map(function (o, i) { return { o: o, i: i }; });
    if (!col || !col.sort) return rows.map(function (r) { return r.o; });
    const dir = state.sort.dir;
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
  function speedCell(o, base) {
    const td = h('td', { class: 'num speed-cell' });
    if (o.training) {
      td.appendChild(h('div', null, fig(o.training.tokens_per_second, base + '/training/tokens_per_second', integer(o.training.tokens_per_second), 'strong'),
        h('span', { class: 'unit', text: ' tok/s' })));
      td.appendChild(h('div', { class: 'sub' }, fig(o.training.hours, base + '/training/hours', num3(o.training.hours)), ' h · MFU ',
        fig(o.training.mfu, base + '/training/mfu', percent(o.training.mfu, 0))));
    } else if (o.inference) {
      td.appendChild(h('div', null, fig(o.inference.decode_tokens_per_second, base + '/inference/decode_tokens_per_second', integer(o.inference.decode_tokens_per_second), 'strong'),
        h('span', { class: 'unit', text: ' tok/s' })));
      td.appendChild(h('div', { class: 'sub' }, t('options.max_conc') + ' ', fig(o.inference.max_concurrency, base + '/inference/max_concurrency', integer(o.inference.max_concurrency))));
      if (isNum(o.inference.gpus_needed)) {
        td.appendChild(h('div', { class: 'sub' }, tNodes('options.gpus_needed', { n: fig(o.inference.gpus_needed, base + '/inference/gpus_needed', integer(o.inference.gpus_needed)) })));
      }
    } else {
      td.appendChild(h('span', { class: 'muted', text: '—' }));
    }
    if (o.speed_note) td.appendChild(h('div', { class: 'sub reason', lang: 'en', title: String(o.speed_note), text: String(o.speed_note) }));
    return td;
  }

  /** Options table: the cheapest way to get this option's cards, and buy's break-even. */
  function costCell(o, base) {
    const td = h('td', { class: 'num cost-cell' });
    const c = o.cost;
    if (!c || !c.cheapest) {
      td.appendChild(h('span', { class: 'muted', text: c ? t('options.no_price') : '—' }));
      return td;
    }
    const key = c.cheapest + '_lifetime_cny';
    td.appendChild(h('div', null,
      h('span', { class: 'tag tag-opt tag-' + c.cheapest, title: optionLabel(c.cheapest), dataset: { field: base + '/cost/cheapest', value: String(c.cheapest) },
        text: hasString('costopt_short.' + c.cheapest) ? t('costopt_short.' + c.cheapest) : optionLabel(c.cheapest) }), ' ',
      fig(c[key], base + '/cost/' + key, cny(c[key]), 'strong'),
      c.needs_confirmation ? h('span', { class: 'confirm-dot', title: t('prices.confirm_title'), text: '?' }) : null));
    td.appendChild(h('div', { class: 'sub' }, isNum(c.break_even_utilization) ? tNodes('options.break_even', {
      u: fig(c.break_even_utilization, base + '/cost/break_even_utilization', percent(c.break_even_utilization, 0)),
    }) : fig(null, base + '/cost/break_even_utilization', '', '', t('options.never'))));
    return td;
  }

  function renderOptions(body, r, ctx) {
    const pinned = ctx.request && ctx.request.hardware ? ctx.request.hardware.gpu : null;
    ctx.actions.appendChild(h('span', { class: 'muted small', text: t('options.sort_hint') }));
    if (state.sort.key) {
      ctx.actions.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('options.default_order'),
        onclick: function () { state.sort = { key: null, dir: 1 }; renderPanels(); } }));
    }
    const table = h('table', { class: 'options' });
    const headRow = h('tr');
    OPTION_COLUMNS.forEach(function (c) {
      const active = state.sort.key === c.key;
      const th = h('th', { scope: 'col', class: (c.num ? 'num ' : '') + (c.sort ? 'sortable' : ''),
        'aria-sort': active ? (state.sort.dir > 0 ? 'ascending' : 'descending') : (c.sort ? 'none' : null),
        dataset: { col: c.key } });
      if (c.sort) {
        th.appendChild(h('button', { type: 'button', class: 'th-btn', onclick: function () {
          if (state.sort.key !== c.key) state.sort = { key: c.key, dir: 1 };
          else if (state.sort.dir > 0) state.sort = { key: c.key, dir: -1 };
          else state.sort = { key: null, dir: 1 };
          renderPanels();
        } }, t(c.label), h('span', { class: 'sort-mark', text: active ? (state.sort.dir > 0 ? ' ▲' : ' ▼') : '' })));
      } else {
        th.textContent = t(c.label);
      }
      headRow.appendChild(th);
    });
    table.appendChild(h('thead', null, headRow));
    const tbody = h('tbody');
    sortedOptions(r.options || []).forEach(function (o) {
      const base = '/options/@' + o.gpu;
      const isPinned = pinned === o.gpu;
      const tr = h('tr', { class: 'verdict-' + o.verdict + (isPinned ? ' pinned' : ''), dataset: { gpu: o.gpu } });
      // GPU
      tr.appendChild(h('td', { class: 'gpu-cell', title: String(o.vendor) + ' · ' + String(o.gpu) },
        h('div', { class: 'gpu-name', text: String(o.name) }),
        h('div', { class: 'gpu-sub' },
          o.software_stack && o.software_stack !== 'cuda'
            ? h('span', { class: 'tag tag-stack', title: t('options.stack', { stack: o.software_stack }), text: String(o.software_stack).toUpperCase() }) : null,
          isPinned ? h('span', { class: 'tag tag-pinned', text: t('options.pinned') }) : null)));
      // memory
      tr.appendChild(h('td', { class: 'num' }, bytesFigure(o.memory_bytes, base + '/memory_bytes', '', true)));
      // on one GPU
      tr.appendChild(h('td', { class: 'num' },
        h('div', null,
          h('span', { class: 'mark ' + (o.fits_on_one ? 'yes' : 'no'), dataset: { field: base + '/fits_on_one', value: String(o.fits_on_one) }, text: o.fits_on_one ? '✓' : '✗' }),
          o.tight_on_one ? h('span', { class: 'tag tag-tight', title: t('options.tight_title'), dataset: { field: base + '/tight_on_one', value: 'true' }, text: t('options.tight') }) : null),
        h('div', { class: 'sub on-one-need' }, tNodes('options.on_one_needs', {
          value: h('span', { class: 'fig', dataset: { field: base + '/per_gpu_bytes_on_one', bytes: String(o.per_gpu_bytes_on_one) }, text: gib(o.per_gpu_bytes_on_one) }),
        }))));
      // min count
      // min count, with its layout under it
      const L = o.min_layout;
      tr.appendChild(h('td', { class: 'num count-cell' }, o.min_count === null || o.min_count === undefined
        ? h('span', { class: 'fig muted', dataset: { field: base + '/min_count', value: 'null' }, text: '—' })
        : valueFigure(o.min_count, base + '/min_count', integer(o.min_count), 'count'), h('div', { class: 'layout-cell sub' }, L ? [
        h('div', null, tNodes('options.layout_value', {
          tp: valueFigure(L.tp, base + '/min_layout/tp', integer(L.tp)),
          pp: valueFigure(L.pp, base + '/min_layout/pp', integer(L.pp)),
          dp: valueFigure(L.dp, base + '/min_layout/dp', integer(L.dp)),
        }), L.ep > 1 ? tNodes('options.layout_ep', { ep: valueFigure(L.ep, base + '/min_layout/ep', integer(L.ep)) }) : null),
        h('div', null, tNodes('options.servers', {
          n: valueFigure(L.servers, base + '/min_layout/servers', integer(L.servers)),
        })),
      ] : null)));
      // per GPU at min
      const perGpu = o.per_gpu_bytes_at_min;
      tr.appendChild(h('td', { class: 'num' }, perGpu === null || perGpu === undefined
        ? h('span', { class: 'muted', text: '—' })
        : [bytesFigure(perGpu, base + '/per_gpu_bytes_at_min'),
          h('div', { class: 'usage' }, h('span', { class: 'usage-fill', style: 'width:' + Math.min(100, perGpu / o.memory_bytes * 100).toFixed(1) + '%' }))]));
      tr.appendChild(speedCell(o, base));
      tr.appendChild(costCell(o, base));
      // China availability
      const ca = o.china_availability || {};
      tr.appendChild(h('td', { class: 'china-cell' },
        h('div', { class: 'china china-' + String(ca.status || 'unknown').replace(/[^a-z-]/g, ''), dataset: { field: base + '/china_availability/status', value: String(ca.status) },
          text: hasString('china.' + ca.status) ? t('china.' + ca.status) : String(ca.status || '—') }),
        ca.as_of ? h('div', { class: 'sub', text: t('options.as_of', { date: ca.as_of }) }) : null));
      // verdict
      tr.appendChild(h('td', { class: 'verdict-cell' },
        h('span', { class: 'pill pill-' + o.verdict, dataset: { field: base + '/verdict', value: String(o.verdict) },
          text: hasString('verdict.' + o.verdict) ? t('verdict.' + o.verdict) : String(o.verdict) }),
        o.reason ? h('div', { class: 'sub reason', lang: 'en', title: String(o.reason), text: String(o.reason) }) : null));
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    body.appendChild(h('div', { class: 'table-wrap' }, table));
  }

  UI.registerPanel({ id: 'options', titleKey: 'panel.options', render: renderOptions });
})();
