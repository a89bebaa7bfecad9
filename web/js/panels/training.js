// SPDX-License-Identifier: MIT
// Panel: training speed (pinned figures, step-time breakdown, links, scaling curve).
import { lineChart, stackBar } from '../charts.js';
import { gpuName } from '../core.js';
import { fig, h, pointerGet } from '../dom.js';
import { gbps, hoursText, integer, isNum, num3, percent, seconds, tickNum, tokensText } from '../format.js';
import { t, tNodes } from '../i18n.js';
import { noteList } from '../notes.js';
import { assumptionList, describedNote, kpi, noteBanner, renderInterconnect, sectionTitle } from '../panel.js';

const TIME_TERMS = [
  { key: 'compute_s', colour: '#2f5f8f' },
  { key: 'memory_bound_s', colour: '#6f9fc8' },
  { key: 'exposed_communication_s', colour: '#c9852f' },
  { key: 'pipeline_bubble_s', colour: '#8a6bb5' },
  { key: 'dequantization_s', colour: '#4f9a6b' },
  // Listed only when the step has them: a micro-batch waiting on the host's operator launches
  // (small models, eager stacks) and offloaded activations' PCIe traffic compute cannot hide.
  { key: 'launch_overhead_s', colour: '#b55a5a', optional: true },
  { key: 'activation_offload_s', colour: '#6b8a3a', optional: true },
  { key: 'optimizer_s', colour: '#9aa4af' },
];

/** The step's seconds as one stacked bar, in proportion, with a legend of figures. */
function timeBar(r, base) {
  const breakdown = pointerGet(r, base);
  const total = TIME_TERMS.reduce(function (a, term) { return a + (breakdown[term.key] || 0); }, 0);
  const chart = stackBar({
    cls: 'time-bar', height: 30, scale: Math.max(r.training.step_time_s || 0, total) || 1,
    segments: TIME_TERMS.map(function (term) {
      const v = breakdown[term.key] || 0;
      return { value: v, fill: term.colour, tip: t('time.' + term.key) + ': ' + seconds(v) };
    }),
  });
  const legend = h('ul', { class: 'time-legend' });
  TIME_TERMS.forEach(function (term) {
    const v = breakdown[term.key];
    if (v === undefined || (term.optional && !v)) return;
    legend.appendChild(h('li', { class: v ? '' : 'zero' },
      h('span', { class: 'swatch', style: 'background:' + term.colour }),
      h('span', { class: 'time-name', text: t('time.' + term.key) }),
      fig(r, base + '/' + term.key, seconds, 'time-value')));
  });
  return h('div', { class: 'time-breakdown' }, chart, legend);
}

const LINK_COLOURS = { nvlink: '#1f5fa8', nvlink_bridge: '#5b8c5a', pcie: '#c9852f' };

function scalingChart(T, r) {
  const curve = T.scaling_curve || [];
  if (!curve.length) return null;
  const series = {};
  curve.forEach(function (p, i) {
    if (!series[p.link]) series[p.link] = [];
    series[p.link].push({ p: p, i: i });
  });
  const pinnedCount = r.memory.layout.gpu ? r.memory.layout.count : null;
  // Name the "nvlink" curve after the part's own link class (the core's options[].intra_node_link).
  const opt = (r.options || []).filter(function (o) { return o.gpu === T.gpu; })[0];
  const own = opt && opt.intra_node_link;
  const linkLabel = function (k) {
    if (k === 'nvlink' && (own === 'nvswitch' || own === 'mesh')) return t('link.' + own);
    if (k === 'nvlink') return t('scaling.link.switched');
    if (k === 'nvlink_bridge') return t('scaling.link.bridge');
    return t('scaling.link.' + k);
  };
  const gpusTicks = [];
  curve.forEach(function (p) { if (gpusTicks.indexOf(p.gpus) < 0) gpusTicks.push(p.gpus); });
  gpusTicks.sort(function (a, b) { return a - b; });
  const spec = {
    title: t('scaling.title'),
    x: { log: true, ticks: gpusTicks, min: gpusTicks[0], max: gpusTicks[gpusTicks.length - 1], pad: 14, format: function (v) { return integer(v); }, label: t('scaling.x') },
    y: { log: true, format: tickNum, label: t('scaling.y') },
    series: ['nvlink', 'nvlink_bridge', 'pcie'].filter(function (k) { return series[k]; }).map(function (k) {
      return {
        label: linkLabel(k), color: LINK_COLOURS[k], dash: k === 'pcie' ? '6 4' : (k === 'nvlink_bridge' ? '2 3' : null),
        points: series[k].map(function (e) {
          const p = e.p;
          return {
            x: p.gpus, y: p.fits ? p.hours : null, field: '/training/scaling_curve/' + e.i + '/hours', value: p.hours,
            big: pinnedCount === p.gpus,
            tip: t('scaling.tip', { gpus: p.gpus, link: linkLabel(k), tp: p.tp, pp: p.pp, dp: p.dp,
              hours: hoursText(p.hours), tps: num3(p.tokens_per_second), mfu: percent(p.mfu) }),
          };
        }),
      };
    }),
    markers: pinnedCount ? [{ x: pinnedCount, label: t('scaling.pinned', { n: pinnedCount }), cls: 'pinned-marker' }] : [],
  };
  const chart = lineChart(spec);
  // The figures behind the chart, as a table.
  const table = h('table', { class: 'data-table' },
    h('thead', null, h('tr', null, h('th', { text: t('scaling.col.gpus') }), h('th', { text: t('scaling.col.layout') }),
      ['nvlink', 'pcie'].filter(function (k) { return series[k]; }).map(function (k) {
        return [h('th', { class: 'num', text: linkLabel(k) + ' · h' }), h('th', { class: 'num', text: 'MFU' })];
      }))));
  const tbody = h('tbody');
  gpusTicks.forEach(function (n) {
    const tr = h('tr');
    const any = curve.filter(function (p) { return p.gpus === n; })[0];
    tr.appendChild(h('td', { class: 'num', text: integer(n) }));
    tr.appendChild(h('td', { text: any && any.fits ? 'TP' + any.tp + '×PP' + any.pp + '×DP' + any.dp : t('scaling.no_fit') }));
    ['nvlink', 'pcie'].filter(function (k) { return series[k]; }).forEach(function (k) {
      const e = series[k].filter(function (x) { return x.p.gpus === n; })[0];
      tr.appendChild(h('td', { class: 'num' }, e && e.p.fits ? fig(r, '/training/scaling_curve/' + e.i + '/hours', num3) : '—'));
      tr.appendChild(h('td', { class: 'num' }, e && e.p.fits ? fig(r, '/training/scaling_curve/' + e.i + '/mfu', percent) : '—'));
    });
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);
  return h('div', { class: 'scaling' },
    sectionTitle(t('scaling.title'), h('span', { class: 'section-sub', text: t('scaling.for_gpu', { gpu: gpuName(T.gpu) }) })),
    chart,
    h('p', { class: 'hint', text: t('scaling.hint') }),
    h('details', { class: 'data-details' }, h('summary', { text: t('chart.data') }), table));
}

// Panel: training speed (pinned figures, breakdown, links, scaling curve).
function renderTrainingSpeed(body, r) {
  const T = r.training;
  const pinned = isNum(T.tokens_per_second);
  if (!pinned) {
    body.appendChild(noteBanner(t('speed.unpinned', { gpu: gpuName(T.gpu) }), 'note-info'));
  } else if (r.sections_describe) {
    body.appendChild(describedNote(r));
  }
  const k = h('div', { class: 'kpis' });
  if (pinned) {
    k.appendChild(kpi(t('speed.tps'), fig(r, '/training/tokens_per_second', integer, 'big-num'), 'tokens/s', t('speed.tps_sub')));
    k.appendChild(kpi('MFU', fig(r, '/training/mfu', percent, 'big-num'), null,
      isNum(T.achieved_tflops_per_gpu) ? tNodes('speed.mfu_sub', {
        achieved: fig(r, '/training/achieved_tflops_per_gpu', num3),
        peak: fig(r, '/training/peak_tflops', num3),
      }) : null));
    k.appendChild(kpi(t('speed.step'), fig(r, '/training/step_time_s', seconds, 'big-num'), null,
      isNum(T.global_batch_size) ? tNodes('speed.step_sub', {
        gbs: fig(r, '/training/global_batch_size', integer),
        micro: fig(r, '/training/microbatches_per_step', integer),
      }) : null));
    k.appendChild(kpi(t('speed.hours'), fig(r, '/training/hours', num3, 'big-num'), 'h',
      [T.hours >= 48 ? hoursText(T.hours).replace(/^[^≈]*/, '') + ' · ' : '', tNodes('speed.hours_sub', { tokens: fig(r, '/training/tokens', tokensText) })]));
    k.appendChild(kpi(t('speed.gpu_hours'), fig(r, '/training/gpu_hours', integer, 'big-num'), t('unit.gpu_hours')));
  } else {
    k.appendChild(kpi(t('speed.budget'), fig(r, '/training/tokens', tokensText, 'big-num'), 'tokens', t('speed.budget_sub')));
  }
  body.appendChild(k);
  if (pinned && T.breakdown) {
    body.appendChild(sectionTitle(t('speed.breakdown_title'), h('span', { class: 'section-sub', text: t('speed.breakdown_sub') })));
    body.appendChild(timeBar(r, '/training/breakdown'));
    const c = T.communication || {};
    const comm = h('p', { class: 'meta-line inline-facts' });
    ['data_parallel_s', 'data_parallel_exposed_s', 'tensor_parallel_s', 'pipeline_p2p_s', 'expert_parallel_s'].forEach(function (key) {
      if (!isNum(c[key]) || (c[key] === 0 && key !== 'data_parallel_s')) return;
      comm.appendChild(h('span', null, t('comm.' + key) + ' ', fig(r, '/training/communication/' + key, seconds)));
    });
    if (comm.childNodes.length) body.appendChild(comm);
  }
  if (isNum(T.storage_read_gbps_needed)) {
    const starving = isNum(T.storage_read_gbps) && T.storage_read_gbps < T.storage_read_gbps_needed;
    body.appendChild(h('p', { class: 'meta-line storage-line' + (starving ? ' bad' : '') }, tNodes(isNum(T.storage_read_gbps) ? 'speed.storage' : 'speed.storage_unknown', {
      need: fig(r, '/training/storage_read_gbps_needed', gbps),
      have: fig(r, '/training/storage_read_gbps', gbps),
    })));
  }
  const ic = renderInterconnect(r);
  if (ic) body.appendChild(ic);
  const sc = scalingChart(T, r);
  if (sc) body.appendChild(sc);
  const notes = noteList('assume.', T.assumption_notes, T.assumptions);
  if (notes) body.appendChild(notes);
}

export default { id: 'speed', titleKey: 'panel.speed', applies: function (r) { return Boolean(r.training); }, render: renderTrainingSpeed };
