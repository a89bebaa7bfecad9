// SPDX-License-Identifier: MIT
// Panel: the memory breakdown as one stacked bar, then each term with its assumption.
import { stackBar } from '../charts.js';
import { findGpu } from '../core.js';
import { fig, h, svg } from '../dom.js';
import { gib, gibCompact } from '../format.js';
import { t } from '../i18n.js';
import { noteNode } from '../notes.js';

const TERMS = ['weights', 'gradients', 'optimizer', 'activations', 'kv_cache', 'overhead'];

const TERM_COLOURS = {
  weights: '#2f5f8f', gradients: '#6b9bc7', optimizer: '#c9852f',
  activations: '#4f9a6b', kv_cache: '#8a6bb5', overhead: '#9aa4af',
};

function renderBreakdown(body, r) {
  const m = r.memory;
  const b = m.breakdown_bytes;
  const scale = Math.max(m.per_gpu_bytes, m.band_bytes.high, m.gpu_memory_bytes || 0) || 1;
  const BAR_Y = 18, BAR_H = 34;
  const chart = stackBar({
    cls: 'stack-chart', height: 86, y: BAR_Y, barHeight: BAR_H, title: t('panel.breakdown'), scale: scale,
    segments: TERMS.map(function (term) {
      return { value: b[term], fill: TERM_COLOURS[term], tip: t('term.' + term) + ': ' + gib(b[term]) + ' GiB' };
    }),
    draw: function (chart, x) {
      // the error band as a bracket under the bar, the GPU's capacity as a line across it
      const lo = x(m.band_bytes.low), hi = x(m.band_bytes.high), below = BAR_Y + BAR_H;
      chart.appendChild(svg('line', { x1: lo, x2: hi, y1: below + 10, y2: below + 10, class: 'band-line' }));
      chart.appendChild(svg('line', { x1: lo, x2: lo, y1: below + 5, y2: below + 15, class: 'band-line' }));
      chart.appendChild(svg('line', { x1: hi, x2: hi, y1: below + 5, y2: below + 15, class: 'band-line' }));
      if (m.gpu_memory_bytes) {
        const cx = x(m.gpu_memory_bytes);
        chart.appendChild(svg('line', { x1: cx, x2: cx, y1: 4, y2: below + 6, class: 'cap-line' + (m.fits ? '' : ' over') }));
      }
    },
  });
  const wrap = h('div', { class: 'chart-wrap' }, chart);
  if (m.gpu_memory_bytes) {
    const gpu = findGpu(m.layout.gpu);
    const pct = Math.min(100, (m.gpu_memory_bytes / scale) * 100);
    wrap.appendChild(h('div', { class: 'cap-label' + (pct > 70 ? ' left' : ''), style: 'left:' + pct.toFixed(2) + '%',
      text: t('breakdown.capacity_marker', { gpu: gpu ? gpu.name : m.layout.gpu, mem: gibCompact(m.gpu_memory_bytes) }) }));
  }
  body.appendChild(wrap);
  body.appendChild(h('div', { class: 'chart-legend' },
    h('span', { class: 'lg-band' }, h('i', { 'aria-hidden': 'true' }), t('breakdown.band_legend')),
    m.gpu_memory_bytes ? h('span', { class: 'lg-cap' + (m.fits ? '' : ' over') }, h('i', { 'aria-hidden': 'true' }), t('breakdown.cap_legend')) : null));

  const assumptions = {};
  (m.assumptions || []).forEach(function (a) {
    (assumptions[a.term] = assumptions[a.term] || []).push(a);
  });
  const list = h('ul', { class: 'terms' });
  TERMS.forEach(function (term) {
    const zero = !b[term];
    list.appendChild(h('li', { class: 'term' + (zero ? ' zero' : ''), dataset: { term: term } },
      h('span', { class: 'swatch', style: 'background:' + TERM_COLOURS[term] }),
      h('div', { class: 'term-main' },
        h('div', { class: 'term-head' },
          h('span', { class: 'term-name', text: t('term.' + term) }),
          fig(r, '/memory/breakdown_bytes/' + term, gib, { cls: 'term-value', unit: ' GiB' })),
        (assumptions[term] || []).map(function (a) { return noteNode('p', 'memnote.', a, { class: 'assumption' }); }))));
  });
  list.appendChild(h('li', { class: 'term total' },
    h('span', { class: 'swatch swatch-total' }),
    h('div', { class: 'term-main' }, h('div', { class: 'term-head' },
      h('span', { class: 'term-name', text: t('breakdown.total') }),
      fig(r, '/memory/per_gpu_bytes', gib, { cls: 'term-value', unit: ' GiB' })))));
  body.appendChild(list);
}

export default { id: 'breakdown', titleKey: 'panel.breakdown', collapsed: true, render: renderBreakdown };
