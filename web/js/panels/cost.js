// SPDX-License-Identifier: MIT
// Panel: total cost of ownership.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const { cny, cnyTick, fieldForPath, fig, focusField, h, hasString, integer, isNum, kpi, lineChart, monthlyBars, noteBanner, optionLabel, percent, renderPanels, sectionTitle, t, tNodes } = UI;

  const COST_OPTIONS = ['buy', 'rent', 'rent_reserved', 'hybrid'];
  const COST_COLOURS = { buy: '#1f5fa8', rent: '#c9852f', rent_reserved: '#8a6bb5', hybrid: '#1e7a4c' };

  function renderCost(body, r) {
    const C = r.cost;
    const hw = C.hardware || {};
    // what is costed
    body.appendChild(h('p', { class: 'cost-context' }, tNodes('cost.context', {
      n: fig(hw.count, '/cost/hardware/count', integer(hw.count), 'strong'),
      gpu: h('span', { class: 'strong', text: String(hw.name || hw.gpu || '') }),
      site: h('span', { dataset: { field: '/cost/site/id', value: String(C.site && C.site.id) }, text: C.site ? (state.lang === 'en' ? C.site.name : C.site.name_zh) : '—' }),
      util: fig(C.utilization, '/cost/utilization', percent(C.utilization), 'strong'),
      source: hasString('cost.util_source.' + C.utilization_source) ? t('cost.util_source.' + C.utilization_source) : String(C.utilization_source),
      life: fig(C.life_years, '/cost/life_years', integer(C.life_years), 'strong'),
    })));
    if (!hw.pinned) body.appendChild(noteBanner(t('cost.unpinned', { reason: String(hw.reason || '') }), 'note-info'));

    // one tile per option
    const tiles = h('div', { class: 'cost-tiles' });
    COST_OPTIONS.forEach(function (k) {
      const o = C.options[k];
      const cheapest = C.cheapest_option === k;
      if (!o) {
        const miss = (C.missing_prices || []).filter(function (m) { return m.option === k; })[0];
        if (!miss && k === 'rent_reserved') return;
        const path = miss && miss.override_path;
        const target = path ? fieldForPath(path) : null;
        tiles.appendChild(h('div', { class: 'cost-tile missing', dataset: { option: k } },
          h('div', { class: 'cost-tile-head' }, h('span', { class: 'swatch', style: 'background:' + COST_COLOURS[k] }), optionLabel(k)),
          h('div', { class: 'cost-missing', dataset: { field: '/cost/options/' + k, value: 'null' }, text: t('cost.not_priced') }),
          miss ? h('p', { class: 'kpi-sub', lang: 'en', text: String(miss.reason) }) : null,
          target ? h('button', { type: 'button', class: 'btn btn-small', text: t('cost.enter_it'), onclick: function () { focusField(target); } }) : null));
        return;
      }
      tiles.appendChild(h('div', { class: 'cost-tile' + (cheapest ? ' cheapest' : ''), dataset: { option: k } },
        h('div', { class: 'cost-tile-head' }, h('span', { class: 'swatch', style: 'background:' + COST_COLOURS[k] }), optionLabel(k),
          cheapest ? h('span', { class: 'tag tag-cheapest', dataset: { field: '/cost/cheapest_option', value: String(C.cheapest_option) }, text: t('cost.cheapest') }) : null),
        h('div', { class: 'cost-life' }, fig(o.lifetime_cny, '/cost/options/' + k + '/lifetime_cny', cny(o.lifetime_cny), 'big-num')),
        h('div', { class: 'kpi-sub' }, tNodes('cost.per_year', { v: fig(o.average_yearly_cny, '/cost/options/' + k + '/average_yearly_cny', cny(o.average_yearly_cny)) })),
        isNum(C.cost_per_gpu_hour_cny && C.cost_per_gpu_hour_cny[k]) ? h('div', { class: 'kpi-sub' }, tNodes('cost.per_gpu_hour', {
          v: fig(C.cost_per_gpu_hour_cny[k], '/cost/cost_per_gpu_hour_cny/' + k, cny(C.cost_per_gpu_hour_cny[k])),
        })) : null));
    });
    body.appendChild(tiles);

    // break-even and the 70% rule
    const be = C.break_even_utilization;
    const rule = C.seventy_percent_rule_holds;
    const beBox = h('div', { class: 'break-even' },
      h('div', { class: 'be-main' },
        h('div', { class: 'kpi-label', text: t('cost.break_even') }),
        h('div', { class: 'be-figure' }, fig(be, '/cost/break_even_utilization', percent(be), 'be-num', t('cost.never'))),
        h('div', { class: 'kpi-sub', text: isNum(be) ? (be === 0 ? t('cost.be_zero') : t('cost.be_explain', { u: percent(be) })) : t('cost.be_never') })),
      h('div', { class: 'be-rule' },
        h('div', { class: 'kpi-label', text: t('cost.rule_title') }),
        h('span', { class: 'pill rule-' + String(rule), dataset: { field: '/cost/seventy_percent_rule_holds', value: String(rule) },
          text: rule === true ? t('cost.rule_holds') : rule === false ? t('cost.rule_fails') : t('cost.rule_unknown') }),
        C.seventy_percent_rule_note ? h('p', { class: 'kpi-sub', lang: 'en', text: String(C.seventy_percent_rule_note) }) : null),
      h('div', { class: 'be-year' },
        h('div', { class: 'kpi-label', text: t('cost.break_even_year') }),
        h('div', { class: 'be-figure' }, fig(C.break_even_year, '/cost/break_even_year', t('cost.year_n', { n: C.break_even_year }), 'be-num small-num', t('cost.none_within_life'))),
        h('div', { class: 'kpi-sub', text: isNum(C.break_even_year) ? t('cost.be_year_explain', { u: percent(C.utilization) }) : t('cost.be_year_never', { u: percent(C.utilization) }) })));
    body.appendChild(beBox);

    // cumulative chart
    const series = COST_OPTIONS.filter(function (k) { return C.options[k] && C.options[k].cumulative_cny; }).map(function (k) {
      return {
        label: optionLabel(k), color: COST_COLOURS[k], dash: k === 'rent' ? '6 4' : k === 'rent_reserved' ? '2 4' : null,
        z: k === 'hybrid' ? -1 : k === 'rent' ? 1 : 0, cls: k === 'hybrid' ? 'wide' : '',
        points: C.options[k].cumulative_cny.map(function (v, i) {
          return { x: i + 1, y: v, field: '/cost/options/' + k + '/cumulative_cny/' + i, value: v,
            tip: optionLabel(k) + ' · ' + t('cost.year_n', { n: i + 1 }) + ' · ' + cny(v) };
        }),
      };
    });
    if (series.length) {
      const years = [];
      for (let i = 1; i <= (C.life_years || 1); i++) years.push(i);
      const markers = isNum(C.break_even_year) ? [{ x: C.break_even_year, label: t('cost.be_marker', { n: C.break_even_year }), cls: 'be-marker' }] : [];
      body.appendChild(sectionTitle(t('cost.chart_title'), h('span', { class: 'section-sub', text: t('cost.chart_sub') })));
      body.appendChild(lineChart({
        title: t('cost.chart_title'), height: 300,
        x: { ticks: years, min: 1, max: years[years.length - 1], zero: false, pad: 20, format: function (v) { return t('cost.year_tick', { n: v }); }, label: t('cost.chart_x') },
        y: { format: cnyTick, label: t('cost.chart_y') },
        series: series, markers: markers,
      }));
    }

    // line items, one option at a time
    const available = COST_OPTIONS.filter(function (k) { return C.options[k]; });
    if (available.length) {
      if (available.indexOf(state.costTab) < 0) state.costTab = available[0];
      const tabs = h('div', { class: 'tabs', role: 'tablist' });
      available.forEach(function (k) {
        tabs.appendChild(h('button', { type: 'button', role: 'tab', class: 'tab', 'aria-selected': String(state.costTab === k), dataset: { option: k },
          onclick: function () { state.costTab = k; renderPanels(); } }, optionLabel(k)));
      });
      body.appendChild(sectionTitle(t('cost.items_title')));
      body.appendChild(tabs);
      const k = state.costTab;
      const o = C.options[k];
      const table = h('table', { class: 'data-table items-table' },
        h('thead', null, h('tr', null, h('th', { text: t('cost.col.item') }), h('th', { class: 'num', text: t('cost.col.yearly') }), h('th', { text: t('cost.col.basis') }))));
      const tb = h('tbody');
      (o.line_items || []).forEach(function (it, i) {
        tb.appendChild(h('tr', null,
          h('td', { class: 'item-name', text: hasString('item.' + it.name) ? t('item.' + it.name) : String(it.name) }),
          h('td', { class: 'num' }, fig(it.yearly_cny, '/cost/options/' + k + '/line_items/' + i + '/yearly_cny', cny(it.yearly_cny))),
          h('td', { class: 'basis', lang: 'en', text: String(it.basis || '') })));
      });
      tb.appendChild(h('tr', { class: 'total-row' },
        h('td', { text: t('cost.avg_yearly') }),
        h('td', { class: 'num' }, fig(o.average_yearly_cny, '/cost/options/' + k + '/average_yearly_cny', cny(o.average_yearly_cny))),
        h('td', { class: 'basis' }, isNum(o.capex_cny) && o.capex_cny > 0 ? tNodes('cost.capex_note', {
          capex: fig(o.capex_cny, '/cost/options/' + k + '/capex_cny', cny(o.capex_cny)),
          residual: fig(o.residual_cny, '/cost/options/' + k + '/residual_cny', cny(o.residual_cny)),
        }) : null)));
      table.appendChild(tb);
      body.appendChild(h('div', { class: 'table-scroll' }, table));
      // cash by year
      const yrow = h('p', { class: 'meta-line inline-facts' }, h('span', { class: 'muted', text: t('cost.cash_by_year') }));
      (o.yearly_cny || []).forEach(function (v, i) {
        yrow.appendChild(h('span', null, t('cost.year_n', { n: i + 1 }) + ' ', fig(v, '/cost/options/' + k + '/yearly_cny/' + i, cny(v))));
      });
      body.appendChild(yrow);
    }

    // unit costs
    body.appendChild(sectionTitle(t('cost.unit_title')));
    const unit = h('table', { class: 'data-table unit-table' });
    unit.appendChild(h('thead', null, h('tr', null, h('th', { text: '' }),
      available.map(function (k) { return h('th', { class: 'num', text: optionLabel(k) }); }))));
    const ub = h('tbody');
    const rows = [
      { key: 'cost_per_gpu_hour_cny', label: t('cost.unit.gpu_hour') },
      { key: 'cost_per_run_cny', label: t('cost.unit.run'), sub: isNum(C.run_gpu_hours) ? tNodes('cost.unit.run_sub', {
        h: fig(C.run_gpu_hours, '/cost/run_gpu_hours', integer(C.run_gpu_hours)),
        src: hasString('cost.src.' + C.run_gpu_hours_source) ? t('cost.src.' + C.run_gpu_hours_source) : String(C.run_gpu_hours_source),
      }) : t('cost.unit.run_none') },
      { key: 'cost_per_million_tokens_cny', label: t('cost.unit.mtok'), sub: isNum(C.tokens_per_second) ? tNodes('cost.unit.mtok_sub', {
        tps: fig(C.tokens_per_second, '/cost/tokens_per_second', integer(C.tokens_per_second)),
        src: hasString('cost.src.' + C.tokens_per_second_source) ? t('cost.src.' + C.tokens_per_second_source) : String(C.tokens_per_second_source),
      }) : t('cost.unit.mtok_none') },
    ];
    rows.forEach(function (row) {
      const vals = C[row.key];
      ub.appendChild(h('tr', null,
        h('th', { scope: 'row' }, h('div', { text: row.label }), row.sub ? h('div', { class: 'kpi-sub' }, row.sub) : null),
        available.map(function (k) {
          const v = vals ? vals[k] : null;
          return h('td', { class: 'num' }, vals && v !== undefined ? fig(v, '/cost/' + row.key + '/' + k, cny(v)) : h('span', { class: 'muted', text: '—' }));
        })));
    });
    unit.appendChild(ub);
    body.appendChild(h('div', { class: 'table-scroll' }, unit));

    // hybrid split
    const hs = C.hybrid_split;
    if (hs) {
      body.appendChild(sectionTitle(t('cost.hybrid_title'), h('span', { class: 'section-sub', text: t('cost.hybrid_sub') })));
      const k2 = h('div', { class: 'kpis' });
      k2.appendChild(kpi(t('cost.hybrid_owned'), fig(hs.owned_servers, '/cost/hybrid_split/owned_servers', integer(hs.owned_servers), 'big-num'), t('unit.servers'),
        tNodes('cost.hybrid_owned_sub', { g: fig(hs.owned_gpus, '/cost/hybrid_split/owned_gpus', integer(hs.owned_gpus)) })));
      k2.appendChild(kpi(t('cost.hybrid_owned_hours'), fig(hs.owned_gpu_hours_per_year, '/cost/hybrid_split/owned_gpu_hours_per_year', integer(hs.owned_gpu_hours_per_year), 'big-num'), t('unit.gpu_hours_year'),
        isNum(hs.owned_utilization) ? tNodes('cost.hybrid_owned_util', { u: fig(hs.owned_utilization, '/cost/hybrid_split/owned_utilization', percent(hs.owned_utilization)) }) : null));
      k2.appendChild(kpi(t('cost.hybrid_rented_hours'), fig(hs.rented_gpu_hours_per_year, '/cost/hybrid_split/rented_gpu_hours_per_year', integer(hs.rented_gpu_hours_per_year), 'big-num'), t('unit.gpu_hours_year')));
      k2.appendChild(kpi(t('cost.hybrid_yearly'), fig(hs.average_yearly_cny, '/cost/hybrid_split/average_yearly_cny', cny(hs.average_yearly_cny), 'big-num'), null,
        tNodes('cost.hybrid_yearly_sub', {
          own: fig(hs.owned_average_yearly_cny, '/cost/hybrid_split/owned_average_yearly_cny', cny(hs.owned_average_yearly_cny)),
          rent: fig(hs.rented_average_yearly_cny, '/cost/hybrid_split/rented_average_yearly_cny', cny(hs.rented_average_yearly_cny)),
        })));
      body.appendChild(k2);
      body.appendChild(monthlyBars(hs.monthly || []));
    }
  }

  UI.registerPanel({ id: 'cost', titleKey: 'panel.cost', applies: function (r) { return Boolean(r.cost); }, render: renderCost });
})();
