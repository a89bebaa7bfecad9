// SPDX-License-Identifier: MIT
// Panel: total cost of ownership.
import { lineChart, monthlyBars } from '../charts.js';
import { fig, h } from '../dom.js';
import { fieldForPath, focusField } from '../errors.js';
import { cny, cnyTick, integer, isNum, percent, upTo } from '../format.js';
import { labelOf, lang, t, tNodes } from '../i18n.js';
import { noteNode, noteText } from '../notes.js';
import { kpi, noteBanner, optionLabel, renderPanels, sectionTitle } from '../panel.js';
import { costNodes, deploymentLabel, namedPlans, pinButton, roleLabel } from '../plans.js';

const COST_OPTIONS = ['buy', 'rent', 'rent_reserved', 'hybrid'];
// A pinned plan (js/plans.js pinPlan) with one of these deployments puts the panel on its tab.
const PLAN_TABS = ['buy', 'rent', 'rent_reserved'];
let tab = 'buy'; // which option's line items the panel shows

const COST_COLOURS = { buy: '#1f5fa8', rent: '#c9852f', rent_reserved: '#8a6bb5', hybrid: '#1e7a4c' };

/** The recommendation's plan (for this request, not a lever's) that the cost section prices. */
function costedPlan(r) {
  const hw = (r.cost && r.cost.hardware) || {};
  return namedPlans(r.recommendation).filter(function (n) {
    return !n.lever && n.plan.gpu === hw.gpu && n.plan.gpus === hw.count && (!hw.deployment || n.plan.deployment === hw.deployment);
  })[0] || null;
}

/**
 * This job's cost first: per run (training) or per month (serving) of the plan the section
 * prices, as the card says it; with a cadence, how often it runs; what paying for it takes.
 */
function jobCost(r, named) {
  const C = r.cost;
  const rec = r.recommendation || {};
  const box = h('div', { class: 'cost-job' });
  box.appendChild(sectionTitle(t('cost.job_title')));
  const k = h('div', { class: 'kpis' });
  if (named) {
    const plan = named.plan;
    const c = plan.cost || {};
    k.appendChild(kpi(t(c.basis === 'per_month' ? 'cost.job_per_month' : 'cost.job_per_run'),
      h('span', { class: 'big-num' }, costNodes(r, named.pointer, plan, { short: true })), null,
      [h('span', { class: 'tag tag-plan', text: roleLabel(named) }), ' ', fig(r, named.pointer + '/gpus', integer), '× ',
        String(plan.name || plan.gpu), ' · ', fig(h('span'), r, named.pointer + '/deployment', deploymentLabel)], 'kpi-job'));
    if (isNum(c.per_month_cny)) {
      k.appendChild(kpi(t('cost.job_per_month_at_cadence'), fig(r, named.pointer + '/cost/per_month_cny', cny, 'big-num'), null,
        t('cost.job_per_month_at_cadence_sub')));
    }
    if (isNum(c.per_million_tokens_cny)) {
      k.appendChild(kpi(t('cost.job_per_mtok'), fig(r, named.pointer + '/cost/per_million_tokens_cny', cny, 'big-num'), null, t('cost.job_per_mtok_sub')));
    }
    if (isNum(plan.outlay_cny)) {
      k.appendChild(kpi(t('cost.job_outlay'), fig(r, named.pointer + '/outlay_cny', cny, 'big-num'), null,
        fig(h('span'), r, named.pointer + '/outlay_basis', labelOf('outlay_basis.'))));
    }
  } else if (C.cost_per_run_cny && C.cheapest_option && isNum(C.cost_per_run_cny[C.cheapest_option])) {
    k.appendChild(kpi(t('cost.job_per_run'), fig(r, '/cost/cost_per_run_cny/' + C.cheapest_option, cny, 'big-num'), t('basis.per_run.suffix'),
      optionLabel(C.cheapest_option), 'kpi-job'));
  } else {
    return null;
  }
  if (isNum(rec.runs_per_month)) {
    k.appendChild(kpi(t('cost.job_cadence'), fig(r, '/recommendation/runs_per_month', function (v) { return t('unit.per_month', { n: upTo(2)(v) }); }, 'big-num'), null,
      t('cost.job_cadence_sub')));
  }
  box.appendChild(k);
  return box;
}

function renderCost(body, r) {
  const C = r.cost;
  const hw = C.hardware || {};
  const named = costedPlan(r);
  const job = jobCost(r, named);
  if (job) body.appendChild(job);
  // what is costed
  body.appendChild(h('p', { class: 'cost-context' }, tNodes('cost.context', {
    n: fig(r, '/cost/hardware/count', integer, 'strong'),
    gpu: h('span', { class: 'strong', text: String(hw.name || hw.gpu || '') }),
    site: fig(h('span'), r, '/cost/site/id', function () { return lang === 'en' ? C.site.name : C.site.name_zh; }),
    util: fig(r, '/cost/utilization', percent, 'strong'),
    source: labelOf('cost.util_source.')(C.utilization_source),
    life: fig(r, '/cost/life_years', integer, 'strong'),
  })));
  if (!hw.pinned) {
    const reason = hw.reason_code ? noteText('costnote.hardware.', { code: hw.reason_code, text: hw.reason }).text : String(hw.reason || '');
    const note = noteBanner(t('cost.unpinned', { reason: reason }), 'note-info');
    // The recommended plan is one click away: pinned, every panel below costs it.
    const best = r.recommendation && r.recommendation.best;
    if (best && (best.gpu !== hw.gpu || best.gpus !== hw.count)) {
      note.lastChild.appendChild(h('div', { class: 'note-action' }, t('cost.not_the_recommendation') + ' ',
        pinButton(best, t('cost.cost_the_recommendation'))));
    }
    body.appendChild(note);
  }

  // one tile per option: totals over the life at the stated utilisation, said as such
  body.appendChild(sectionTitle(t('cost.lifetime_title'), h('span', { class: 'section-sub' }, tNodes('cost.lifetime_sub', {
    years: fig(r, '/cost/life_years', integer), u: fig(r, '/cost/utilization', function (v) { return percent(v, 0); }) }))));
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
        fig(h('div', { class: 'cost-missing' }), r, '/cost/options/' + k, null, { none: t('cost.not_priced') }),
        miss ? noteNode('p', 'costnote.missing.', { code: miss.code, params: miss.params, text: miss.reason }, { class: 'kpi-sub' }) : null,
        // Why the data says it is not offered: the data's own sentence, one click away.
        miss && miss.params && miss.params.why ? h('details', { class: 'basis-note' }, h('summary', { text: t('prices.original_note') }),
          h('div', { class: 'basis', lang: 'en', text: String(miss.params.why) })) : null,
        target ? h('button', { type: 'button', class: 'btn btn-small', text: t('cost.enter_it'), onclick: function () { focusField(target); } }) : null));
      return;
    }
    tiles.appendChild(h('div', { class: 'cost-tile' + (cheapest ? ' cheapest' : ''), dataset: { option: k } },
      h('div', { class: 'cost-tile-head' }, h('span', { class: 'swatch', style: 'background:' + COST_COLOURS[k] }), optionLabel(k),
        cheapest ? fig(h('span', { class: 'tag tag-cheapest' }), r, '/cost/cheapest_option', function () { return t('cost.cheapest'); }) : null),
      h('div', { class: 'cost-life' }, h('span', { class: 'kpi-sub cost-life-label' }, tNodes('cost.lifetime_label', { years: fig(r, '/cost/life_years', integer) })), ' ',
        fig(r, '/cost/options/' + k + '/lifetime_cny', cny, 'big-num')),
      h('div', { class: 'kpi-sub' }, tNodes('cost.per_year', { v: fig(r, '/cost/options/' + k + '/average_yearly_cny', cny) })),
      isNum(C.cost_per_gpu_hour_cny && C.cost_per_gpu_hour_cny[k]) ? h('div', { class: 'kpi-sub' }, tNodes('cost.per_gpu_hour', {
        v: fig(r, '/cost/cost_per_gpu_hour_cny/' + k, cny),
      })) : null));
  });
  body.appendChild(tiles);

  // break-even and the 70% rule
  const be = C.break_even_utilization;
  const rule = C.seventy_percent_rule_holds;
  const beBox = h('div', { class: 'break-even' },
    h('div', { class: 'be-main' },
      h('div', { class: 'kpi-label', text: t('cost.break_even') }),
      h('div', { class: 'be-figure' }, fig(r, '/cost/break_even_utilization', percent, { cls: 'be-num', none: t('cost.never') })),
      h('div', { class: 'kpi-sub', text: isNum(be) ? (be === 0 ? t('cost.be_zero') : t('cost.be_explain', { u: percent(be) })) : t('cost.be_never') })),
    h('div', { class: 'be-rule' },
      h('div', { class: 'kpi-label', text: t('cost.rule_title') }),
      fig(h('span', { class: 'pill rule-' + String(rule) }), r, '/cost/seventy_percent_rule_holds',
        function (holds) { return holds ? t('cost.rule_holds') : t('cost.rule_fails'); }, { none: t('cost.rule_unknown') }),
      C.seventy_percent_rule_note ? noteNode('p', 'costnote.rule.', C.seventy_percent_rule_reason || { text: C.seventy_percent_rule_note }, { class: 'kpi-sub' }) : null),
    h('div', { class: 'be-year' },
      h('div', { class: 'kpi-label', text: t('cost.break_even_year') }),
      h('div', { class: 'be-figure' }, fig(r, '/cost/break_even_year', function (n) { return t('cost.year_n', { n: n }); }, { cls: 'be-num small-num', none: t('cost.none_within_life') })),
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
    if (available.indexOf(tab) < 0) tab = available[0];
    const tabs = h('div', { class: 'tabs', role: 'tablist' });
    available.forEach(function (k) {
      tabs.appendChild(h('button', { type: 'button', role: 'tab', class: 'tab', 'aria-selected': String(tab === k), dataset: { option: k },
        onclick: function () { tab = k; renderPanels(); } }, optionLabel(k)));
    });
    body.appendChild(sectionTitle(t('cost.items_title')));
    body.appendChild(tabs);
    const k = tab;
    const o = C.options[k];
    const table = h('table', { class: 'data-table items-table' },
      h('thead', null, h('tr', null, h('th', { text: t('cost.col.item') }), h('th', { class: 'num', text: t('cost.col.yearly') }), h('th', { text: t('cost.col.basis') }))));
    const tb = h('tbody');
    (o.line_items || []).forEach(function (it, i) {
      tb.appendChild(h('tr', null,
        h('td', { class: 'item-name', text: labelOf('item.')(it.name) }),
        h('td', { class: 'num' }, fig(r, '/cost/options/' + k + '/line_items/' + i + '/yearly_cny', cny)),
        noteNode('td', 'costbasis.', { code: it.basis_code, params: it.basis_params, text: it.basis || '' }, { class: 'basis' })));
    });
    tb.appendChild(h('tr', { class: 'total-row' },
      h('td', { text: t('cost.avg_yearly') }),
      h('td', { class: 'num' }, fig(r, '/cost/options/' + k + '/average_yearly_cny', cny)),
      h('td', { class: 'basis' }, isNum(o.capex_cny) && o.capex_cny > 0 ? tNodes('cost.capex_note', {
        capex: fig(r, '/cost/options/' + k + '/capex_cny', cny),
        residual: fig(r, '/cost/options/' + k + '/residual_cny', cny),
      }) : null)));
    table.appendChild(tb);
    body.appendChild(h('div', { class: 'table-scroll' }, table));
    // cash by year
    const yrow = h('p', { class: 'meta-line inline-facts' }, h('span', { class: 'muted', text: t('cost.cash_by_year') }));
    (o.yearly_cny || []).forEach(function (v, i) {
      yrow.appendChild(h('span', null, t('cost.year_n', { n: i + 1 }) + ' ', fig(r, '/cost/options/' + k + '/yearly_cny/' + i, cny)));
    });
    body.appendChild(yrow);
    // financing, VAT and lead time of this option
    const base = '/cost/options/' + k;
    const facts = h('p', { class: 'meta-line inline-facts' });
    if (isNum(o.financing_years) && o.financing_years > 0) {
      facts.appendChild(h('span', null, tNodes('cost.financing_note', { n: o.financing_years, payment: fig(r, base + '/financing_payment_cny', cny) })));
    }
    if (isNum(o.vat_cny)) {
      facts.appendChild(h('span', null, tNodes(o.vat_deductible ? 'cost.vat_deductible' : 'cost.vat_included', { vat: fig(r, base + '/vat_cny', cny) })));
    }
    if (isNum(o.lead_time_days)) {
      facts.appendChild(h('span', null, tNodes('cost.lead_time', { days: fig(r, base + '/lead_time_days', integer) })));
    }
    if (facts.childNodes.length) body.appendChild(facts);
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
      h: fig(r, '/cost/run_gpu_hours', integer),
      src: labelOf('cost.src.')(C.run_gpu_hours_source),
    }) : named && named.plan.cost && named.plan.cost.basis === 'per_run' ? t('cost.unit.run_plan') : t('cost.unit.run_none') },
    { key: 'cost_per_million_tokens_cny', label: t('cost.unit.mtok'), sub: isNum(C.tokens_per_second) ? tNodes('cost.unit.mtok_sub', {
      tps: fig(r, '/cost/tokens_per_second', integer),
      src: labelOf('cost.src.')(C.tokens_per_second_source),
    }) : t('cost.unit.mtok_none') },
  ];
  rows.forEach(function (row) {
    if (row.key === 'cost_per_run_cny' && r.task === 'inference') return; // serving has no runs
    const vals = C[row.key];
    ub.appendChild(h('tr', null,
      h('th', { scope: 'row' }, h('div', { text: row.label }), row.sub ? h('div', { class: 'kpi-sub' }, row.sub) : null),
      available.map(function (k) {
        const v = vals ? vals[k] : null;
        if (vals && v !== undefined) return h('td', { class: 'num' }, fig(r, '/cost/' + row.key + '/' + k, cny));
        // No run priced by the section (nothing pinned): the plan it prices says its own cost per run.
        if (row.key === 'cost_per_run_cny' && named && named.plan.deployment === k && named.plan.cost && named.plan.cost.basis === 'per_run') {
          return h('td', { class: 'num' }, fig(r, named.pointer + '/cost/cny', cny));
        }
        return h('td', { class: 'num' }, h('span', { class: 'muted', text: '—' }));
      })));
  });
  unit.appendChild(ub);
  body.appendChild(h('div', { class: 'table-scroll' }, unit));

  // hybrid split
  const hs = C.hybrid_split;
  if (hs) {
    body.appendChild(sectionTitle(t('cost.hybrid_title'), h('span', { class: 'section-sub', text: t('cost.hybrid_sub') })));
    const k2 = h('div', { class: 'kpis' });
    k2.appendChild(kpi(t('cost.hybrid_owned'), fig(r, '/cost/hybrid_split/owned_servers', integer, 'big-num'), t('unit.servers'),
      tNodes('cost.hybrid_owned_sub', { g: fig(r, '/cost/hybrid_split/owned_gpus', integer) })));
    k2.appendChild(kpi(t('cost.hybrid_owned_hours'), fig(r, '/cost/hybrid_split/owned_gpu_hours_per_year', integer, 'big-num'), t('unit.gpu_hours_year'),
      isNum(hs.owned_utilization) ? tNodes('cost.hybrid_owned_util', { u: fig(r, '/cost/hybrid_split/owned_utilization', percent) }) : null));
    k2.appendChild(kpi(t('cost.hybrid_rented_hours'), fig(r, '/cost/hybrid_split/rented_gpu_hours_per_year', integer, 'big-num'), t('unit.gpu_hours_year')));
    k2.appendChild(kpi(t('cost.hybrid_yearly'), fig(r, '/cost/hybrid_split/average_yearly_cny', cny, 'big-num'), null,
      tNodes('cost.hybrid_yearly_sub', {
        own: fig(r, '/cost/hybrid_split/owned_average_yearly_cny', cny),
        rent: fig(r, '/cost/hybrid_split/rented_average_yearly_cny', cny),
      })));
    body.appendChild(k2);
    body.appendChild(monthlyBars(hs.monthly || [], '/cost/hybrid_split/monthly'));
  }
}

export default { id: 'cost', titleKey: 'panel.cost', applies: function (r) { return Boolean(r.cost); }, render: renderCost,
  pin: function (plan) { if (PLAN_TABS.indexOf(plan.deployment) >= 0) tab = plan.deployment; } };
