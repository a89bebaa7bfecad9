// SPDX-License-Identifier: MIT
// The result panels: registerPanel(), renderPanels(), and the pieces several panels share.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const state = UI.state;
  const el = UI.el;
  const { clear, fig, findGpu, h, integer, isNum, labelOf, num3, t, tNodes } = UI;

  const PANELS = [];

  /**
   * Adds a result section. panel = {id, titleKey, render(body, result, ctx), applies?(result),
   * collapsed? (starts folded: the deep dives), fixed? (never folds: the answer)}. A folded
   * panel is built when it is opened.
   * render builds the panel's content inside `body` (already emptied) with DOM calls only.
   */
  function registerPanel(panel) {
    PANELS.push(panel);
    if (state.lastResult) renderPanels();
  }

  function isCollapsed(p) {
    if (p.fixed) return false;
    const c = state.collapsed || (state.collapsed = Object.create(null));
    return Object.prototype.hasOwnProperty.call(c, p.id) ? c[p.id] : Boolean(p.collapsed);
  }

  function setCollapsed(p, folded) {
    (state.collapsed || (state.collapsed = Object.create(null)))[p.id] = folded;
    p.section.classList.toggle('collapsed', folded);
    p.toggle.setAttribute('aria-expanded', String(!folded));
    p.toggle.setAttribute('aria-label', t(folded ? 'nav.expand' : 'nav.collapse') + ': ' + p.title.textContent);
    if (!folded && p.stale && state.lastResult) renderOne(p);
    if (UI.reportStale) UI.reportStale();
  }

  function makeSection(p) {
    p.title = h('h2', { class: 'panel-title', id: 'panel-' + p.id + '-title' });
    p.actions = h('div', { class: 'panel-actions' });
    p.body = h('div', { class: 'panel-body', id: 'panel-' + p.id + '-body' });
    p.toggle = h('button', { type: 'button', class: 'panel-toggle', 'aria-controls': 'panel-' + p.id + '-body',
      onclick: function () { setCollapsed(p, !isCollapsed(p)); } });
    p.title.addEventListener('click', function () { if (!p.fixed) setCollapsed(p, !isCollapsed(p)); });
    p.section = h('section', { class: 'panel' + (p.fixed ? ' panel-fixed' : ''), id: 'panel-' + p.id, 'aria-labelledby': 'panel-' + p.id + '-title' },
      h('header', { class: 'panel-head' }, p.fixed ? null : p.toggle, p.title, p.actions), p.body);
    el.panels.appendChild(p.section);
  }

  // The results column's width, as the last layout left it: reading clientWidth in a render would
  // force a layout of the previous render first (~40% of a re-render's time with every panel).
  let observedWidth = 0;
  let observer = null;
  function panelsWidth() {
    if (!observer && window.ResizeObserver) {
      observer = new ResizeObserver(function (entries) { observedWidth = entries[0].target.clientWidth; });
      observer.observe(el.panels);
    }
    if (!observedWidth) observedWidth = el.panels.clientWidth; // the first render: nothing to lay out yet
    return observedWidth || 800;
  }

  function renderPanels() {
    const result = state.lastResult;
    if (!result) return;
    el.loading.hidden = true;
    // What a panel's render() gets besides its body and the result (ui: every helper, formats included).
    const ctx = { request: state.lastRequest, t: t, h: h, fig: fig, ui: UI };
    // Charts are drawn at the panel's width so their text stays at its CSS size.
    state.chartWidth = Math.max(320, Math.min(1100, panelsWidth() - 36));
    PANELS.forEach(function (p) {
      if (!p.section) makeSection(p);
      const show = !p.applies || p.applies(result);
      p.section.hidden = !show;
      if (!show) return;
      p.title.textContent = t(p.titleKey);
      setCollapsed(p, isCollapsed(p));
      p.stale = true;
      // A folded panel is built when it is opened (issue 13: an input change re-renders within
      // a frame only if the folded deep dives are not rebuilt each time); until then it is empty,
      // never showing an earlier result's figures.
      if (!isCollapsed(p)) renderOne(p, ctx);
      else { clear(p.body); clear(p.actions); }
    });
    renderNav();
    if (UI.reportStale) UI.reportStale();
  }

  /** Builds a panel that is still to be built for the current result (the print report). */
  function renderIfStale(id) {
    const p = PANELS.find(function (x) { return x.id === id; });
    if (p && p.section && !p.section.hidden && p.stale && state.lastResult) renderOne(p);
  }

  function renderOne(p, ctx) {
    p.stale = false;
    clear(p.body);
    clear(p.actions);
    try {
      p.render(p.body, state.lastResult, Object.assign({ actions: p.actions }, ctx || { request: state.lastRequest, t: t, h: h, fig: fig, ui: UI }));
    } catch (e) {
      p.body.appendChild(h('p', { class: 'banner banner-error', text: String(e && e.message || e) }));
      if (window.console) console.error(e);
    }
  }

  /** The section navigation: one button per shown panel (opens and scrolls to it), fold/unfold all. */
  function renderNav() {
    const nav = document.getElementById('section-nav');
    if (!nav) return;
    clear(nav);
    nav.setAttribute('aria-label', t('nav.label'));
    const list = h('div', { class: 'nav-list' });
    PANELS.forEach(function (p) {
      if (!p.section || p.section.hidden) return;
      list.appendChild(h('button', { type: 'button', class: 'nav-item' + (isCollapsed(p) ? ' folded' : ''), dataset: { panel: p.id },
        onclick: function () { showPanel(p.id); } }, t(p.navKey || p.titleKey)));
    });
    nav.appendChild(list);
    nav.appendChild(h('div', { class: 'nav-actions' },
      h('button', { type: 'button', class: 'link-btn small', id: 'nav-expand-all', text: t('nav.expand_all'), onclick: function () { foldAll(false); } }),
      h('button', { type: 'button', class: 'link-btn small', id: 'nav-collapse-all', text: t('nav.collapse_all'), onclick: function () { foldAll(true); } })));
    nav.hidden = false;
  }

  /** Unfolds a panel and scrolls to it. */
  function showPanel(id) {
    const p = PANELS.filter(function (x) { return x.id === id; })[0];
    if (!p || !p.section) return;
    setCollapsed(p, false);
    renderNav();
    p.section.scrollIntoView({ block: 'start' });
    p.toggle.focus({ preventScroll: true });
  }

  function foldAll(folded) {
    PANELS.forEach(function (p) { if (p.section && !p.fixed) setCollapsed(p, folded); });
    renderNav();
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

  /** buy / rent / rent_reserved / hybrid in words. */
  function optionLabel(k) { return labelOf('costopt.')(k); }

  function renderInterconnect(r) {
    const ic = r.interconnect || {};
    if (!ic.intra_node && ic.allreduce_bus_bandwidth_gbps === null) return null;
    const box = h('div', { class: 'interconnect' });
    box.appendChild(sectionTitle(t('ic.title')));
    const grid = h('div', { class: 'kpis kpis-3' });
    grid.appendChild(kpi(t('ic.allreduce'),
      fig(r, '/interconnect/allreduce_bus_bandwidth_gbps', num3, 'strong'),
      'GB/s', ic.allreduce_bus_bandwidth_gbps === null ? t('ic.single_gpu') : t('ic.allreduce_sub')));
    const intra = ic.intra_node;
    if (intra) {
      grid.appendChild(kpi(t('ic.intra'),
        fig(h('span', { class: 'fig link-kind' }), r, '/interconnect/intra_node/kind', labelOf('link.', function () { return String(intra.description); })), null,
        tNodes('ic.intra_sub', {
          busbw: fig(r, '/interconnect/intra_node/busbw_gbps', num3),
          link: fig(r, '/interconnect/intra_node/link_gbps_per_direction', num3),
          gpus: fig(r, '/interconnect/intra_node/gpus', integer),
        })));
    }
    const inter = ic.inter_node;
    if (inter) {
      grid.appendChild(kpi(t('ic.inter'),
        fig(r, '/interconnect/inter_node/name', null, 'link-kind'), null,
        [tNodes('ic.inter_sub', {
          gbps: fig(r, '/interconnect/inter_node/gbit_per_s_per_gpu', num3),
          busbw: fig(r, '/interconnect/inter_node/busbw_gbps', num3),
        }), fig(h('div', { class: 'kpi-sub2' }), r, '/interconnect/inter_node/used', function (used) {
          return (used ? t('ic.inter_used') : t('ic.inter_unused')) + (inter.chosen_by_advisor ? ' · ' + t('ic.chosen_by_advisor') : '');
        })]));
    }
    box.appendChild(grid);
    const extra = [];
    if (isNum(ic.data_parallel_busbw_gbps)) extra.push(h('span', null, t('ic.dp_busbw') + ' ', fig(r, '/interconnect/data_parallel_busbw_gbps', num3), ' GB/s'));
    if (isNum(ic.tensor_parallel_busbw_gbps)) extra.push(h('span', null, t('ic.tp_busbw') + ' ', fig(r, '/interconnect/tensor_parallel_busbw_gbps', num3), ' GB/s'));
    if (isNum(ic.gpus_per_node)) extra.push(h('span', null, t('ic.gpus_per_node') + ' ', fig(r, '/interconnect/gpus_per_node', integer)));
    if (extra.length) box.appendChild(h('p', { class: 'meta-line inline-facts' }, extra));
    return box;
  }

  Object.assign(UI, { PANELS, panelsWidth, assumptionList, foldAll, gpuName, kpi, noteBanner, optionLabel, registerPanel, renderIfStale, renderInterconnect, renderPanels,
    sectionTitle, showPanel });
})();
