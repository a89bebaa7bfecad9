// SPDX-License-Identifier: MIT
// Panel: capacity planning from the job history.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const { fig, focusField, gpuName, h, integer, percent, t } = UI;

  function renderCapacity(body, r) {
    const K = r.capacity;
    if (!K) {
      const target = document.querySelector('.field[data-path="/capacity/jobs_csv"]');
      body.appendChild(h('p', { class: 'muted', text: t('capacity.empty') }));
      body.appendChild(h('button', { type: 'button', class: 'btn btn-small', text: t('capacity.go_paste'), onclick: function () { focusField(target); } }));
      return;
    }
    body.appendChild(h('p', { class: 'meta-line inline-facts' },
      h('span', null, t('capacity.jobs') + ' ', fig(K.jobs, '/capacity/jobs', integer(K.jobs))),
      K.dated ? h('span', null, t('capacity.window') + ' ', fig(K.first_month, '/capacity/first_month', String(K.first_month)), ' – ', fig(K.last_month, '/capacity/last_month', String(K.last_month))) : null,
      h('span', null, t('capacity.months') + ' ', fig(K.months, '/capacity/months', integer(K.months))),
      h('span', null, t('capacity.total') + ' ', fig(K.gpu_hours_total, '/capacity/gpu_hours_total', integer(K.gpu_hours_total)), ' ' + t('unit.gpu_hours')),
      h('span', null, t('capacity.buffer_short') + ' ', fig(K.buffer, '/capacity/buffer', percent(K.buffer, 0))),
      h('span', null, t('capacity.target') + ' ', fig(K.target_utilization, '/capacity/target_utilization', percent(K.target_utilization, 0)))));
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
          return h('td', { class: 'num month-cell' }, fig(m.gpu_hours, base + '/monthly_gpu_hours/' + j + '/gpu_hours', integer(m.gpu_hours)),
            h('div', { class: 'mini-bar' }, h('span', { style: 'width:' + Math.min(100, m.gpu_hours / peak * 100).toFixed(1) + '%' })));
        }),
        h('td', { class: 'num' }, fig(g.average_monthly_gpu_hours, base + '/average_monthly_gpu_hours', integer(g.average_monthly_gpu_hours))),
        h('td', { class: 'num' }, fig(g.peak_monthly_gpu_hours, base + '/peak_monthly_gpu_hours', integer(g.peak_monthly_gpu_hours))),
        h('td', { class: 'num cards' }, fig(g.cards_needed, base + '/cards_needed', integer(g.cards_needed), 'big-cards')),
        h('td', { class: 'num' }, fig(g.cards_needed_for_peak_month, base + '/cards_needed_for_peak_month', integer(g.cards_needed_for_peak_month))),
        h('td', { class: 'num' }, fig(g.expected_utilization, base + '/expected_utilization', percent(g.expected_utilization)))));
    });
    table.appendChild(tb);
    body.appendChild(h('div', { class: 'table-scroll' }, table));
    body.appendChild(h('p', { class: 'hint' }, h('span', { text: t('capacity.formula') + ' ' }), h('code', { lang: 'en', text: String(K.formula || '') })));
  }

  UI.registerPanel({ id: 'capacity', titleKey: 'panel.capacity', render: renderCapacity });
})();
