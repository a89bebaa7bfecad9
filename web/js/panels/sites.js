// SPDX-License-Identifier: MIT
// Panel: sites and electricity.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const { cny, fig, h, hasString, input, integer, kpi, num3, numberFormat, percent, sectionTitle, t, tNodes } = UI;

  function renderSites(body, r) {
    const C = r.cost;
    const E = C.electricity;
    if (E) {
      body.appendChild(sectionTitle(t('elec.title'), h('span', { class: 'section-sub', dataset: { field: '/cost/electricity/tariff', value: String(E.tariff) },
        text: hasString('elec.tariff.' + E.tariff) ? t('elec.tariff.' + E.tariff) : String(E.tariff) })));
      const k = h('div', { class: 'kpis' });
      k.appendChild(kpi(t('elec.yearly'), fig(E.cny_per_year, '/cost/electricity/cny_per_year', cny(E.cny_per_year), 'big-num'), null,
        E.included_in_colocation ? t('elec.included') : tNodes('elec.kwh', { kwh: fig(E.facility_kwh_per_year, '/cost/electricity/facility_kwh_per_year', integer(E.facility_kwh_per_year)) })));
      k.appendChild(kpi(t('elec.average'), fig(E.average_cny_per_kwh, '/cost/electricity/average_cny_per_kwh', numberFormat(E.average_cny_per_kwh, 3), 'big-num'), t('unit.cny_per_kwh'),
        tNodes('elec.prices', {
          peak: fig(E.peak_cny_per_kwh_effective, '/cost/electricity/peak_cny_per_kwh_effective', numberFormat(E.peak_cny_per_kwh_effective, 3)),
          flat: fig(E.flat_cny_per_kwh, '/cost/electricity/flat_cny_per_kwh', numberFormat(E.flat_cny_per_kwh, 3)),
          valley: fig(E.valley_cny_per_kwh, '/cost/electricity/valley_cny_per_kwh', numberFormat(E.valley_cny_per_kwh, 3)),
        })));
      k.appendChild(kpi(t('elec.valley_saving'), fig(E.valley_shift_max_saving_cny_per_year, '/cost/electricity/valley_shift_max_saving_cny_per_year', cny(E.valley_shift_max_saving_cny_per_year), 'big-num'), null,
        tNodes('elec.valley_share', { s: fig(E.valley_shift_share, '/cost/electricity/valley_shift_share', percent(E.valley_shift_share, 0)) })));
      body.appendChild(k);
      if (E.periods && E.periods.length) {
        const pt = h('table', { class: 'data-table' }, h('thead', null, h('tr', null,
          h('th', { text: t('elec.col.period') }), h('th', { class: 'num', text: t('elec.col.hours') }), h('th', { class: 'num', text: t('elec.col.price') }),
          h('th', { class: 'num', text: t('elec.col.busy') }), h('th', { class: 'num', text: t('elec.col.kwh') }), h('th', { class: 'num', text: t('elec.col.cny') }))));
        const tb = h('tbody');
        E.periods.forEach(function (p, i) {
          const base = '/cost/electricity/periods/' + i;
          tb.appendChild(h('tr', null,
            h('td', { dataset: { field: base + '/period', value: String(p.period) }, text: hasString('elec.period.' + p.period) ? t('elec.period.' + p.period) : String(p.period) }),
            h('td', { class: 'num' }, fig(p.hours_per_day, base + '/hours_per_day', num3(p.hours_per_day))),
            h('td', { class: 'num' }, fig(p.cny_per_kwh, base + '/cny_per_kwh', numberFormat(p.cny_per_kwh, 3))),
            h('td', { class: 'num' }, fig(p.busy_hours_per_day, base + '/busy_hours_per_day', num3(p.busy_hours_per_day))),
            h('td', { class: 'num' }, fig(p.facility_kwh_per_year, base + '/facility_kwh_per_year', integer(p.facility_kwh_per_year))),
            h('td', { class: 'num' }, fig(p.cny_per_year, base + '/cny_per_year', cny(p.cny_per_year)))));
        });
        pt.appendChild(tb);
        body.appendChild(h('div', { class: 'table-scroll' }, pt));
      }
    }
    const sites = C.site_comparison || [];
    if (sites.length) {
      body.appendChild(sectionTitle(t('site.title'), h('span', { class: 'section-sub', text: t('site.sub') })));
      const table = h('table', { class: 'data-table site-table' }, h('thead', null, h('tr', null,
        h('th', { text: t('site.col.site') }), h('th', { class: 'num', text: t('site.col.flat') }), h('th', { class: 'num', text: t('site.col.coloc_factor') }),
        h('th', { class: 'num', text: t('site.col.elec') }), h('th', { class: 'num', text: t('site.col.coloc') }),
        h('th', { class: 'num', text: t('site.col.buy_yearly') }), h('th', { class: 'num', text: t('site.col.lifetime') }), h('th', { class: 'num', text: t('site.col.diff') }))));
      const tb = h('tbody');
      sites.forEach(function (s, i) {
        const base = '/cost/site_comparison/' + i;
        tb.appendChild(h('tr', { class: s.selected ? 'selected' : '', dataset: { site: String(s.site) } },
          h('td', null, h('span', { class: 'strong', text: state.lang === 'en' ? String(s.name) : String(s.name_zh) }),
            s.selected ? h('span', { class: 'tag tag-pinned', text: t('site.selected') }) : h('button', { type: 'button', class: 'link-btn small', text: t('site.use'),
              onclick: function () { input('cost.site').value = s.site; UI.schedule(0); } }),
            s.needs_confirmation ? h('span', { class: 'confirm-mark', title: t('prices.confirm_title'), text: t('prices.confirm') }) : null),
          h('td', { class: 'num' }, fig(s.electricity_flat_cny_per_kwh, base + '/electricity_flat_cny_per_kwh', numberFormat(s.electricity_flat_cny_per_kwh, 3))),
          h('td', { class: 'num' }, fig(s.colocation_factor, base + '/colocation_factor', '× ' + numberFormat(s.colocation_factor, 2))),
          h('td', { class: 'num' }, fig(s.electricity_cny_per_year, base + '/electricity_cny_per_year', cny(s.electricity_cny_per_year))),
          h('td', { class: 'num' }, fig(s.colocation_cny_per_year, base + '/colocation_cny_per_year', cny(s.colocation_cny_per_year))),
          h('td', { class: 'num' }, fig(s.buy_average_yearly_cny, base + '/buy_average_yearly_cny', cny(s.buy_average_yearly_cny))),
          h('td', { class: 'num' }, fig(s.buy_lifetime_cny, base + '/buy_lifetime_cny', cny(s.buy_lifetime_cny))),
          h('td', { class: 'num ' + (s.difference_vs_selected_cny_per_year < 0 ? 'good' : s.difference_vs_selected_cny_per_year > 0 ? 'bad' : '') },
            fig(s.difference_vs_selected_cny_per_year, base + '/difference_vs_selected_cny_per_year',
              s.difference_vs_selected_cny_per_year === 0 ? '—' : (s.difference_vs_selected_cny_per_year > 0 ? '+' : '') + cny(s.difference_vs_selected_cny_per_year)))));
      });
      table.appendChild(tb);
      body.appendChild(h('div', { class: 'table-scroll' }, table));
      const note = C.site_note;
      if (note) {
        const zh = state.lang !== 'en';
        body.appendChild(h('div', { class: 'source-notes' },
          h('blockquote', { class: 'source-quote' }, h('p', { lang: zh ? 'zh-CN' : 'en', text: String(zh ? note.data_zh : note.data_en) }),
            h('p', { lang: zh ? 'zh-CN' : 'en', text: String(zh ? note.siting_zh : note.siting_en) }),
            h('footer', { text: t('site.source', { source: String(note.source || '') }) }))));
      }
    }
  }

  UI.registerPanel({ id: 'sites', titleKey: 'panel.sites', applies: function (r) { return Boolean(r.cost && (r.cost.electricity || (r.cost.site_comparison || []).length)); }, render: renderSites });
})();
