// SPDX-License-Identifier: MIT
// The result sections: registerPanel(), renderPanels() after every run (the one result event),
// folding, the section navigation, and the pieces several panels share.
import { findGpu } from './core.js';
import { setChartWidth } from './charts.js';
import { afterFrame, clear, fig, h, nextTask, setText, svg, timing } from './dom.js';
import * as formats from './format.js';
import { integer, isNum, num3 } from './format.js';
import { labelOf, t, tNodes } from './i18n.js';
import { on, patchChildren } from './patch.js';
import { coveredTop, watchOnScreen } from './onscreen.js';
import { onLevers, onResult } from './run.js';

// The sections in display order: each a copy of its panel with what this module keeps about it
// (section, title, toggle, body, actions; near: on screen; stale: to be drawn for this result).
const PANELS = [];
let result = null;   // the result on screen
let request = null;  // the request last sent (under an error, not the one `result` answers)
const collapsed = Object.create(null); // panel id -> folded by the visitor

// What render() gets as ctx.ui: the formats and the DOM helpers (for a panel from outside the bundle).
const UI_HELPERS = Object.freeze(Object.assign({}, formats, { clear: clear, fig: fig, h: h, labelOf: labelOf, on: on, svg: svg, t: t, tNodes: tNodes }));

/**
 * Adds a result section. panel = {id, titleKey, render(body, result, ctx), applies?(result),
 * collapsed? (starts folded: the deep dives), fixed? (never folds: the answer), showsLevers? (drawn
 * again when the levers are in, after the answer's frame; one not fixed waits for them), rebuild? (drawn
 * from scratch each time: its nodes carry listeners added with addEventListener), reset?() (a
 * scenario or the reset button: back to the panel's own defaults), pin?(plan) (a plan was
 * pinned)}. A panel keeps its own state in its module. A folded panel is built when it is opened.
 * render builds the panel's content inside `body` (empty; a detached element, except for the
 * first drawing and with rebuild) with DOM calls only; listeners through h()'s on* properties or
 * on(), so that they follow the node the page keeps (see patchChildren in js/patch.js).
 */
export function registerPanel(panel) {
  PANELS.push(Object.assign({}, panel));
  if (result) renderPanels();
}

// Every run: the sections follow a new result (those off screen after the frame, for an input
// change), or keep the one they show under an error.
onResult(function (r) {
  request = r.request;
  if (!r.changed) return;
  result = r.result;
  renderPanels({ defer: !r.isDefault });
}, null);

// The levers are in (js/run.js, after the answer's frame): the sections that show them follow,
// at once where they are on screen.
onLevers(function (r) {
  if (r.result !== result) return;
  PANELS.forEach(function (p) {
    if (!p.showsLevers || !p.section || p.section.hidden || isCollapsed(p)) return;
    if (p.fixed || p.near) renderOne(p);
    else p.stale = true;
  });
  if (!deferred && PANELS.some(function (p) { return p.stale && p.section && !p.section.hidden && !isCollapsed(p); })) scheduleDeferred();
});

/** Whether a section waits for the levers of the result (they follow the answer's frame). */
function waitsForLevers(p) {
  return Boolean(p.showsLevers && !p.fixed && result.recommendation && result.recommendation.levers_later);
}

/** A scenario or the reset button: each panel's own state back to its defaults. */
export function resetPanels() {
  PANELS.forEach(function (p) { if (p.reset) p.reset(); });
}

/** A plan was pinned (js/plans.js): the panels that follow it (the cost panel's tab). */
export function panelsPinned(plan) {
  PANELS.forEach(function (p) { if (p.pin) p.pin(plan); });
}

/** Every section drawn again from scratch (tests/browser/rerender.checks.cjs compares it with a patched render). */
export function redrawPanels() {
  PANELS.forEach(function (p) { if (p.section) { clear(p.body); clear(p.actions); } });
  renderPanels();
}

/** Sets an attribute only when it changes (an equal write still costs a style invalidation). */
function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

function isCollapsed(p) {
  if (p.fixed) return false;
  return Object.prototype.hasOwnProperty.call(collapsed, p.id) ? collapsed[p.id] : Boolean(p.collapsed);
}

function setCollapsed(p, folded) {
  collapsed[p.id] = folded;
  showFold(p, folded);
  if (!folded && p.stale && result) renderOne(p);
}

/** The fold's look: the section's class, the toggle's state and name. */
function showFold(p, folded) {
  if (p.section.classList.contains('collapsed') !== folded) p.section.classList.toggle('collapsed', folded);
  setAttr(p.toggle, 'aria-expanded', String(!folded));
  setAttr(p.toggle, 'aria-label', t(folded ? 'nav.expand' : 'nav.collapse') + ': ' + p.title.textContent);
}

function makeSection(p) {
  p.title = h('h2', { class: 'panel-title', id: 'panel-' + p.id + '-title' });
  p.actions = h('div', { class: 'panel-actions' });
  p.body = h('div', { class: 'panel-body', id: 'panel-' + p.id + '-body' });
  p.toggle = h('button', { type: 'button', class: 'panel-toggle', 'aria-controls': 'panel-' + p.id + '-body',
    onclick: function () { setCollapsed(p, !isCollapsed(p)); } });
  p.title.addEventListener('click', function () { if (!p.fixed) setCollapsed(p, !isCollapsed(p)); });
  // A fixed section (the answer) is the skip link's target: focusable, so that the next Tab
  // goes on from inside it.
  p.section = h('section', { class: 'panel' + (p.fixed ? ' panel-fixed' : ''), id: 'panel-' + p.id, 'aria-labelledby': 'panel-' + p.id + '-title',
    tabindex: p.fixed ? '-1' : null },
    h('header', { class: 'panel-head' }, p.fixed ? null : p.toggle, p.title, p.actions), p.body);
  document.getElementById('panels').appendChild(p.section);
  watchNear(p);
}

// Which sections are on screen (p.near: js/onscreen.js). Until the observer has answered (after
// the first frame), a section counts as on screen.
function watchNear(p) {
  p.near = true;
  watchOnScreen(p.section, function (onScreen) {
    p.near = onScreen;
    // Scrolled to before its turn came: now.
    if (onScreen && p.stale && !p.section.hidden && !isCollapsed(p) && result) renderOne(p);
  });
}

/**
 * After an input change the answer and the sections on screen are drawn at once, in the frame
 * the change is shown in; the open sections further down follow one per task after that frame
 * (issue 13: a change re-rendered within one frame). gpuAdvisor.pending stays true until the
 * last one is drawn.
 */
let deferred = false;
// Each run starts the sections' turns afresh after its own frame (a run while earlier turns
// are still coming must not have them drawn before its frame).
let generation = 0;
function scheduleDeferred() {
  deferred = true;
  const mine = ++generation;
  afterFrame(function step() {
    if (mine !== generation) return;
    const p = PANELS.find(function (q) { return q.section && !q.section.hidden && q.stale && !isCollapsed(q) && !waitsForLevers(q); });
    if (!p || !result) { deferred = false; return; }
    renderOne(p);
    nextTask(step);
  });
}

export function panelsPending() { return deferred; }

// The results column's width, as the last layout left it: reading clientWidth in a render would
// force a layout of the previous render first (~40% of a re-render's time with every panel).
let observedWidth = 0;
let observer = null;
/**
 * Reads the results column's width from the pre-rendered page, whose layout is done, just before
 * the live page replaces it (js/app.js): the first render then needs no layout of the page it has
 * just put in (~20 ms in the takeover's task). The observer corrects it after the frame.
 */
export function measurePanelsWidth() {
  const panels = document.getElementById('panels');
  if (panels && panels.clientWidth) observedWidth = panels.clientWidth;
}

export function panelsWidth() {
  if (!observer && window.ResizeObserver) {
    observer = new ResizeObserver(function (entries) { observedWidth = entries[0].target.clientWidth; });
    observer.observe(document.getElementById('panels'));
  }
  if (!observedWidth) observedWidth = document.getElementById('panels').clientWidth; // the first render: nothing to lay out yet
  return observedWidth || 800;
}

/**
 * Draws the open sections for the current result. opts.defer (an input change: js/run.js):
 * the sections off screen follow after the frame; otherwise (a language switch, a sort, ...)
 * all at once.
 */
export function renderPanels(opts) {
  const defer = Boolean(opts && opts.defer);
  if (!result) return;
  const loading = document.getElementById('loading');
  if (!loading.hidden) loading.hidden = true;
  const ctx = context();
  // Charts are drawn at the panel's width so their text stays at its CSS size.
  setChartWidth(Math.max(320, Math.min(1100, panelsWidth() - 36)));
  const later = [];
  PANELS.forEach(function (p) {
    if (!p.section) makeSection(p);
    const show = !p.applies || p.applies(result);
    const appears = show && p.section.hidden; // its body still holds an earlier result
    if (p.section.hidden !== !show) p.section.hidden = !show;
    if (!show) return;
    setText(p.title, t(p.titleKey));
    const folded = isCollapsed(p);
    showFold(p, folded);
    p.stale = true;
    // A folded panel is built when it is opened (issue 13: an input change re-renders within
    // a frame only if the folded deep dives are not rebuilt each time); until then it is empty,
    // never showing an earlier result's figures. An open one off screen is drawn after the frame.
    // One on screen may draw part of itself now and the rest after the frame (ctx.defer).
    if (folded) { clear(p.body); clear(p.actions); } else if (waitsForLevers(p)) {
      // drawn once they are in (onLevers above), the result before it on screen until then
    } else if (!defer || p.near || appears) {
      renderOne(p, Object.assign({ defer: defer && p.near && !appears }, ctx));
    } else later.push(p);
  });
  if (later.length) {
    // Where the sections stand now that the answer and those on screen are drawn (what moved
    // into view, e.g. under an answer that got shorter, is drawn now too). The layout this
    // forces is the one the frame needs anyway: all reads first, then the writes.
    const t0 = timing.now();
    const bottom = window.innerHeight;
    const inView = later.filter(function (p) {
      const r = p.section.getBoundingClientRect();
      return r.bottom > coveredTop() && r.top < bottom;
    });
    timing.mark('layout', t0);
    inView.forEach(function (p) { renderOne(p, ctx); });
  }
  if (PANELS.some(function (p) { return p.stale && p.section && !p.section.hidden && !isCollapsed(p); })) scheduleDeferred();
  const t0 = timing.now();
  renderNav();
  timing.mark('nav', t0);
}

/** What a panel's render() gets besides its body and the result (ui: the formats and DOM helpers). */
function context() {
  return { request: request, t: t, h: h, fig: fig, ui: UI_HELPERS };
}

/** Builds a panel that is still to be built for the current result (the print report). */
export function renderIfStale(id) {
  const p = PANELS.find(function (x) { return x.id === id; });
  if (p && p.section && !p.section.hidden && p.stale && result) renderOne(p);
}

/**
 * Builds a panel for the current result. The panel's render() draws into detached containers;
 * patchChildren() then changes in the page only what differs from what it shows (issue 13: the
 * nodes, their style and layout are kept, a figure's text is replaced in place). A panel with
 * rebuild: true (listeners of its own on long-lived nodes) is emptied and drawn again instead.
 */
function renderOne(p, ctx) {
  if (waitsForLevers(p)) return; // still stale: drawn when they are in
  const t0 = timing.now();
  p.stale = false;
  const whole = p.rebuild || !p.body.firstChild;
  const body = whole ? p.body : h('div');
  const actions = whole ? p.actions : h('div');
  if (whole) { clear(p.body); clear(p.actions); }
  let partial = false;
  try {
    // ctx.live: the body the page shows (to keep() its nodes; null when drawn from scratch);
    // ctx.defer: parts off screen may wait (ctx.partial(): the rest is drawn after the frame).
    p.render(body, result, Object.assign({ actions: actions, live: whole ? null : p.body, defer: false,
      partial: function () { partial = true; } }, ctx || context()));
  } catch (e) {
    body.appendChild(h('p', { class: 'banner banner-error', text: String(e && e.message || e) }));
    if (window.console) console.error(e);
  }
  if (!whole) {
    patchChildren(p.body, body);
    patchChildren(p.actions, actions);
  }
  if (partial) p.stale = true;
  timing.mark('panel:' + p.id, t0);
}

/** The section navigation: one button per shown panel (opens and scrolls to it), fold/unfold all. */
function renderNav() {
  const nav = document.getElementById('section-nav');
  if (!nav) return;
  setAttr(nav, 'aria-label', t('nav.label'));
  const fresh = h('div');
  const list = h('div', { class: 'nav-list' });
  PANELS.forEach(function (p) {
    if (!p.section || p.section.hidden) return;
    list.appendChild(h('button', { type: 'button', class: 'nav-item' + (isCollapsed(p) ? ' folded' : ''), dataset: { panel: p.id },
      onclick: function () { showPanel(p.id); } }, t(p.navKey || p.titleKey)));
  });
  fresh.appendChild(list);
  fresh.appendChild(h('div', { class: 'nav-actions' },
    h('button', { type: 'button', class: 'link-btn small', id: 'nav-expand-all', text: t('nav.expand_all'), onclick: function () { foldAll(false); } }),
    h('button', { type: 'button', class: 'link-btn small', id: 'nav-collapse-all', text: t('nav.collapse_all'), onclick: function () { foldAll(true); } })));
  patchChildren(nav, fresh);
  if (nav.hidden) nav.hidden = false;
}

/** Unfolds a panel and scrolls to it. */
export function showPanel(id) {
  const p = PANELS.filter(function (x) { return x.id === id; })[0];
  if (!p || !p.section) return;
  setCollapsed(p, false);
  renderNav();
  // The open sections above it that were never on screen hold an estimated height
  // (content-visibility: auto, style.css): laid out for this scroll, it lands where the section
  // really is; after the frame `auto` keeps the heights they had.
  const above = PANELS.filter(function (x) {
    return x.section && !x.section.hidden && (x.section.compareDocumentPosition(p.section) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  above.forEach(function (x) { x.body.style.setProperty('content-visibility', 'visible'); });
  p.section.scrollIntoView({ block: 'start' });
  requestAnimationFrame(function () { above.forEach(function (x) { x.body.style.removeProperty('content-visibility'); }); });
  p.toggle.focus({ preventScroll: true });
}

export function foldAll(folded) {
  PANELS.forEach(function (p) { if (p.section && !p.fixed) setCollapsed(p, folded); });
  renderNav();
}

export function kpi(label, figure, unit, sub, cls) {
  return h('div', { class: 'kpi ' + (cls || '') },
    h('div', { class: 'kpi-label', text: label }),
    h('div', { class: 'kpi-value' }, figure, unit ? h('span', { class: 'kpi-unit', text: ' ' + unit }) : null),
    sub ? h('div', { class: 'kpi-sub' }, sub) : null);
}

export function sectionTitle(text, extra) {
  return h('h3', { class: 'section-title' }, text, extra || null);
}

export function assumptionList(list, titleKey) {
  if (!list || !list.length) return null;
  return h('details', { class: 'assumptions' },
    h('summary', { text: t(titleKey || 'speed.assumptions') + ' (' + list.length + ')' }),
    h('ul', null, list.map(function (a) { return h('li', { lang: 'en', text: String(a) }); })));
}

export function noteBanner(text, cls) {
  return h('div', { class: 'note ' + (cls || '') }, h('span', { class: 'note-icon', 'aria-hidden': 'true', text: 'i' }), h('div', null, text));
}

/** Nothing pinned: the note that a section describes the recommended plan (sections_describe). */
export function describedNote(r) {
  const d = r.sections_describe;
  const gpu = findGpu(d.gpu);
  return noteBanner(t('section.describes_recommended', { gpus: d.gpus, gpu: gpu ? gpu.name : String(d.gpu) }), 'note-info described');
}

/** buy / rent / rent_reserved / hybrid in words. */
export function optionLabel(k) { return labelOf('costopt.')(k); }

export function renderInterconnect(r) {
  const ic = r.interconnect || {};
  if (!ic.intra_node && ic.allreduce_bus_bandwidth_gbps === null) return null;
  const box = h('div', { class: 'interconnect' });
  box.appendChild(sectionTitle(t('ic.title')));
  const grid = h('div', { class: 'kpis kpis-3' });
  grid.appendChild(kpi(t('ic.allreduce'),
    fig(r, '/interconnect/allreduce_bus_bandwidth_gbps', num3, 'strong'),
    'GB/s', ic.allreduce_bus_bandwidth_gbps === null ? t('ic.single_gpu')
      // NVLS and the ring are two algorithms NCCL chooses between: both figures, the headline the faster.
      : isNum(ic.allreduce_nvls_busbw_gbps) ? tNodes('ic.allreduce_by_algo', {
        nvls: fig(r, '/interconnect/allreduce_nvls_busbw_gbps', num3),
        ring: fig(r, '/interconnect/allreduce_ring_busbw_gbps', num3),
      }) : t('ic.allreduce_sub')));
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
      // The network in words: the page's label for its kind, else the core's name.
      fig(r, '/interconnect/inter_node/kind', labelOf('cluster.net.', function () { return String(inter.name); }), 'link-kind'), null,
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
