// SPDX-License-Identifier: MIT
// Panel: sites and electricity.
import { fig, h } from '../dom.js';
import { input } from '../form.js';
import { cny, fixed, integer, num3, numberFormat, pct } from '../format.js';
import { labelOf, lang, t, tNodes } from '../i18n.js';
import { kpi, sectionTitle } from '../panel.js';
import { priceSourceNodes } from './prices.js';
import { schedule } from '../run.js';
import { setSelect } from '../schema.js';

/** A difference in CNY: "+1.2 万元", "−3.4 万元", or "—" for none. */
function signedCny(v) { return v === 0 ? '—' : (v > 0 ? '+' : '') + cny(v); }

function renderSites(body, r) {
  const C = r.cost;
  const E = C.electricity;
  if (E) {
    body.appendChild(sectionTitle(t('elec.title'), fig(h('span', { class: 'section-sub' }), r, '/cost/electricity/tariff', labelOf('elec.tariff.'))));
    const k = h('div', { class: 'kpis' });
    k.appendChild(kpi(t('elec.yearly'), fig(r, '/cost/electricity/cny_per_year', cny, 'big-num'), null,
      E.included_in_colocation ? t('elec.included') : tNodes('elec.kwh', { kwh: fig(r, '/cost/electricity/facility_kwh_per_year', integer) })));
    k.appendChild(kpi(t('elec.average'), fig(r, '/cost/electricity/average_cny_per_kwh', fixed(3), 'big-num'), t('unit.cny_per_kwh'),
      tNodes('elec.prices', {
        peak: fig(r, '/cost/electricity/peak_cny_per_kwh_effective', fixed(3)),
        flat: fig(r, '/cost/electricity/flat_cny_per_kwh', fixed(3)),
        valley: fig(r, '/cost/electricity/valley_cny_per_kwh', fixed(3)),
      })));
    k.appendChild(kpi(t('elec.valley_saving'), fig(r, '/cost/electricity/valley_shift_max_saving_cny_per_year', cny, 'big-num'), null,
      tNodes('elec.valley_share', { s: fig(r, '/cost/electricity/valley_shift_share', pct(0)) })));
    body.appendChild(k);
    if (E.periods && E.periods.length) {
      const pt = h('table', { class: 'data-table' }, h('thead', null, h('tr', null,
        h('th', { text: t('elec.col.period') }), h('th', { class: 'num', text: t('elec.col.hours') }), h('th', { class: 'num', text: t('elec.col.price') }),
        h('th', { class: 'num', text: t('elec.col.busy') }), h('th', { class: 'num', text: t('elec.col.kwh') }), h('th', { class: 'num', text: t('elec.col.cny') }))));
      const tb = h('tbody');
      E.periods.forEach(function (p, i) {
        const base = '/cost/electricity/periods/' + i;
        tb.appendChild(h('tr', null,
          fig(h('td'), r, base + '/period', labelOf('elec.period.')),
          h('td', { class: 'num' }, fig(r, base + '/hours_per_day', num3)),
          h('td', { class: 'num' }, fig(r, base + '/cny_per_kwh', fixed(3))),
          h('td', { class: 'num' }, fig(r, base + '/busy_hours_per_day', num3)),
          h('td', { class: 'num' }, fig(r, base + '/facility_kwh_per_year', integer)),
          h('td', { class: 'num' }, fig(r, base + '/cny_per_year', cny))));
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
        h('td', null, h('span', { class: 'strong', text: lang === 'en' ? String(s.name) : String(s.name_zh) }),
          s.selected ? h('span', { class: 'tag tag-pinned', text: t('site.selected') }) : h('button', { type: 'button', class: 'link-btn small', text: t('site.use'),
            onclick: function () { setSelect(input('cost.site'), s.site); schedule(0); } }),
          s.needs_confirmation ? h('span', { class: 'confirm-mark', title: t('prices.confirm_title'), text: t('prices.confirm') }) : null),
        h('td', { class: 'num' }, fig(r, base + '/electricity_flat_cny_per_kwh', fixed(3))),
        h('td', { class: 'num' }, fig(r, base + '/colocation_factor', function (v) { return '× ' + numberFormat(v, 2); })),
        h('td', { class: 'num' }, fig(r, base + '/electricity_cny_per_year', cny)),
        h('td', { class: 'num' }, fig(r, base + '/colocation_cny_per_year', cny)),
        h('td', { class: 'num' }, fig(r, base + '/buy_average_yearly_cny', cny)),
        h('td', { class: 'num' }, fig(r, base + '/buy_lifetime_cny', cny)),
        h('td', { class: 'num ' + (s.difference_vs_selected_cny_per_year < 0 ? 'good' : s.difference_vs_selected_cny_per_year > 0 ? 'bad' : '') },
          fig(r, base + '/difference_vs_selected_cny_per_year', signedCny))));
    });
    table.appendChild(tb);
    body.appendChild(h('div', { class: 'table-scroll' }, table));
    const note = C.site_note;
    if (note) {
      const zh = lang !== 'en';
      body.appendChild(h('div', { class: 'source-notes' },
        h('blockquote', { class: 'source-quote' }, h('p', { lang: zh ? 'zh-CN' : 'en', text: String(zh ? note.data_zh : note.data_en) }),
          h('p', { lang: zh ? 'zh-CN' : 'en', text: String(zh ? note.siting_zh : note.siting_en) }),
          h('footer', null, tNodes('site.source', { source: h('span', null, priceSourceNodes(note.source)) })))));
    }
  }
}

export default { id: 'sites', titleKey: 'panel.sites', collapsed: true, applies: function (r) { return Boolean(r.cost && (r.cost.electricity || (r.cost.site_comparison || []).length)); }, render: renderSites };
