// SPDX-License-Identifier: MIT
// Panel: capacity planning from the job history.
import { gpuName } from '../core.js';
import { fig, h } from '../dom.js';
import { focusField } from '../errors.js';
import { integer, pct, percent } from '../format.js';
import { t } from '../i18n.js';

function renderCapacity(body, r) {
  const K = r.capacity;
  if (!K) {
    const target = document.querySelector('.field[data-path="/capacity/jobs_csv"]');
    body.appendChild(h('p', { class: 'muted', text: t('capacity.empty') }));
    body.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('capacity.go_paste'), onclick: function () { focusField(target); } }));
    return;
  }
  body.appendChild(h('p', { class: 'meta-line inline-facts' },
    h('span', null, t('capacity.jobs') + ' ', fig(r, '/capacity/jobs', integer)),
    K.dated ? h('span', null, t('capacity.window') + ' ', fig(r, '/capacity/first_month', null), ' – ', fig(r, '/capacity/last_month', null)) : null,
    h('span', null, t('capacity.months') + ' ', fig(r, '/capacity/months', integer)),
    h('span', null, t('capacity.total') + ' ', fig(r, '/capacity/gpu_hours_total', integer), ' ' + t('unit.gpu_hours')),
    h('span', null, t('capacity.buffer_short') + ' ', fig(r, '/capacity/buffer', pct(0))),
    h('span', null, t('capacity.target') + ' ', fig(r, '/capacity/target_utilization', pct(0)))));
  const types = K.by_gpu_type || [];
  const months = types.length && types[0].monthly_gpu_hours ? types[0].monthly_gpu_hours.map(function (m) { return m.month; }) : [];
  const table = h('table', { class: 'data-table capacity-table' }, h('thead', null, h('tr', null,
    h('th', { text: t('capacity.col.type') }),
    months.map(function (m) { return h('th', { class: 'num', text: String(m) }); }),
    h('th', { class: 'num', text: t('capacity.col.avg') }), h('th', { class: 'num', text: t('capacity.col.peak') }),
    h('th', { class: 'num', text: t('capacity.col.cards') }), h('th', { class: 'num', text: t('capacity.col.cards_peak') }),
    h('th', { class: 'num', text: t('capacity.col.util') }))));
  const tb = h('tbody');
  types.forEach(function (g, i) {
    const base = '/capacity/by_gpu_type/' + i;
    const peak = g.peak_monthly_gpu_hours || 1;
    tb.appendChild(h('tr', null,
      h('td', null, h('div', { class: 'strong', text: g.catalog_gpu ? gpuName(g.catalog_gpu) : String(g.gpu_type) }),
        h('div', { class: 'kpi-sub' }, h('code', { text: String(g.gpu_type) }), g.catalog_gpu ? null : h('span', { text: ' · ' + t('capacity.not_in_catalog') }))),
      (g.monthly_gpu_hours || []).map(function (m, j) {
        return h('td', { class: 'num month-cell' }, fig(r, base + '/monthly_gpu_hours/' + j + '/gpu_hours', integer),
          h('div', { class: 'mini-bar' }, h('span', { style: 'width:' + Math.min(100, m.gpu_hours / peak * 100).toFixed(1) + '%' })));
      }),
      h('td', { class: 'num' }, fig(r, base + '/average_monthly_gpu_hours', integer)),
      h('td', { class: 'num' }, fig(r, base + '/peak_monthly_gpu_hours', integer)),
      h('td', { class: 'num cards' }, fig(r, base + '/cards_needed', integer, 'big-cards')),
      h('td', { class: 'num' }, fig(r, base + '/cards_needed_for_peak_month', integer)),
      h('td', { class: 'num' }, fig(r, base + '/expected_utilization', percent))));
  });
  table.appendChild(tb);
  body.appendChild(h('div', { class: 'table-scroll' }, table));
  body.appendChild(h('p', { class: 'hint' }, h('span', { text: t('capacity.formula') + ' ' }), h('code', { lang: 'en', text: String(K.formula || '') })));
}

export default { id: 'capacity', titleKey: 'panel.capacity', collapsed: true, render: renderCapacity };
