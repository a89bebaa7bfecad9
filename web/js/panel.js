// SPDX-License-Identifier: MIT
// The result panels: registerPanel(), renderPanels(), and the pieces several panels share.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const el = UI.el;
  const { bytesFigure, clear, fig, findGpu, gbps, gib, h, hasString, integer, isNum, num3, t, tNodes, valueFigure } = UI;

  const PANELS = [];

  /**
   * Adds a result section. panel = {id, titleKey, render(body, result, ctx), applies?(result)}.
   * render builds the panel's content inside `body` (already emptied) with DOM calls only.
   */
  function registerPanel(panel) {
    PANELS.push(panel);
    if (state.lastResult) renderPanels();
  }

  function renderPanels() {
    const result = state.lastResult;
    if (!result) return;
    el.loading.hidden = true;
    const ctx = { request: state.lastRequest, t: t, h: h, gib: gib, bytesFigure: bytesFigure, valueFigure: valueFigure };
    // Charts are drawn at the panel's width so their text stays at its CSS size.
    state.chartWidth = Math.max(560, Math.min(1100, (el.panels.clientWidth || 800) - 36));
    PANELS.forEach(function (p) {
      if (!p.section) {
        p.title = h('h2', { class: 'panel-title' });
        p.actions = h('div', { class: 'panel-actions' });
        p.body = h('div', { class: 'panel-body' });
        p.section = h('section', { class: 'panel', id: 'panel-' + p.id },
          h('header', { class: 'panel-head' }, p.title, p.actions), p.body);
        el.panels.appendChild(p.section);
      }
      const show = !p.applies || p.applies(result);
      p.section.hidden = !show;
      if (!show) return;
      p.title.textContent = t(p.titleKey);
      clear(p.body);
      clear(p.actions);
      try {
        p.render(p.body, result, Object.assign({ actions: p.actions }, ctx));
      } catch (e) {
        p.body.appendChild(h('p', { class: 'banner banner-error', text: String(e && e.message || e) }));
        if (window.console) console.error(e);
      }
    });
  }

  function kpi(label, figure, unit, sub, cls) {
    return h('div', { class: 'kpi ' + (cls || '') },
      h('div', { class: 'kpi-label', text: label }),
      h('div', { class: 'kpi-value' }, figure, unit ? h('span', { class: 'kpi-unit', text: ' ' + unit }) : null),
      sub ? h('div', { class: 'kpi-sub' }, sub) : null);
  }

  function gpuName(id) {
    const g = id ? findGpu(id) : null;
    return g ? g.name : String(id || '—');
  }

  function sectionTitle(text, extra) {
    return h('h3', { class: 'section-title' }, text, extra || null);
  }

  function assumptionList(list, titleKey) {
    if (!list || !list.length) return null;
    return h('details', { class: 'assumptions' },
      h('summary', { text: t(titleKey || 'speed.assumptions') + ' (' + list.length + ')' }),
      h('ul', null, list.map(function (a) { return h('li', { lang: 'en', text: String(a) }); })));
  }

  function noteBanner(text, cls) {
    return h('div', { class: 'note ' + (cls || '') }, h('span', { class: 'note-icon', 'aria-hidden': 'true', text: 'i' }), h('div', null, text));
  }

  function optionLabel(k) { return hasString('costopt.' + k) ? t('costopt.' + k) : k; }

  function renderInterconnect(r) {
    const ic = r.interconnect || {};
    if (!ic.intra_node && ic.allreduce_bus_bandwidth_gbps === null) return null;
    const box = h('div', { class: 'interconnect' });
    box.appendChild(sectionTitle(t('ic.title')));
    const grid = h('div', { class: 'kpis kpis-3' });
    grid.appendChild(kpi(t('ic.allreduce'),
      fig(ic.allreduce_bus_bandwidth_gbps, '/interconnect/allreduce_bus_bandwidth_gbps', num3(ic.allreduce_bus_bandwidth_gbps), 'strong'),
      'GB/s', ic.allreduce_bus_bandwidth_gbps === null ? t('ic.single_gpu') : t('ic.allreduce_sub')));
    const intra = ic.intra_node;
    if (intra) {
      grid.appendChild(kpi(t('ic.intra'),
        h('span', { class: 'fig link-kind', dataset: { field: '/interconnect/intra_node/kind', value: String(intra.kind) },
          text: hasString('link.' + intra.kind) ? t('link.' + intra.kind) : String(intra.description) }), null,
        tNodes('ic.intra_sub', {
          busbw: fig(intra.busbw_gbps, '/interconnect/intra_node/busbw_gbps', num3(intra.busbw_gbps)),
          link: fig(intra.link_gbps_per_direction, '/interconnect/intra_node/link_gbps_per_direction', num3(intra.link_gbps_per_direction)),
          gpus: fig(intra.gpus, '/interconnect/intra_node/gpus', integer(intra.gpus)),
        })));
    }
    const inter = ic.inter_node;
    if (inter) {
      grid.appendChild(kpi(t('ic.inter'),
        h('span', { class: 'fig link-kind', dataset: { field: '/interconnect/inter_node/name', value: String(inter.name) }, text: String(inter.name) }), null,
        [tNodes('ic.inter_sub', {
          gbps: fig(inter.gbps_per_gpu, '/interconnect/inter_node/gbps_per_gpu', num3(inter.gbps_per_gpu)),
          busbw: fig(inter.busbw_gbps, '/interconnect/inter_node/busbw_gbps', num3(inter.busbw_gbps)),
        }), h('div', { class: 'kpi-sub2', dataset: { field: '/interconnect/inter_node/used', value: String(inter.used) },
          text: (inter.used ? t('ic.inter_used') : t('ic.inter_unused')) + (inter.chosen_by_advisor ? ' · ' + t('ic.chosen_by_advisor') : '') })]));
    }
    box.appendChild(grid);
    const extra = [];
    if (isNum(ic.data_parallel_busbw_gbps)) extra.push(h('span', null, t('ic.dp_busbw') + ' ', fig(ic.data_parallel_busbw_gbps, '/interconnect/data_parallel_busbw_gbps', num3(ic.data_parallel_busbw_gbps)), ' GB/s'));
    if (isNum(ic.tensor_parallel_busbw_gbps)) extra.push(h('span', null, t('ic.tp_busbw') + ' ', fig(ic.tensor_parallel_busbw_gbps, '/interconnect/tensor_parallel_busbw_gbps', num3(ic.tensor_parallel_busbw_gbps)), ' GB/s'));
    if (isNum(ic.gpus_per_node)) extra.push(h('span', null, t('ic.gpus_per_node') + ' ', fig(ic.gpus_per_node, '/interconnect/gpus_per_node', integer(ic.gpus_per_node))));
    if (extra.length) box.appendChild(h('p', { class: 'meta-line inline-facts' }, extra));
    return box;
  }

  Object.assign(UI, { assumptionList, gpuName, kpi, noteBanner, optionLabel, registerPanel, renderInterconnect, renderPanels, sectionTitle });
})();
