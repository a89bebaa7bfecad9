// SPDX-License-Identifier: MIT
// Panel: the headline figure, fit on the pinned GPU, layout and model.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const { billions, bytesFigure, findGpu, gib, gibCompact, h, integer, params, t, tNodes, valueFigure } = UI;

  function renderSummary(body, r, ctx) {
    const m = r.memory;
    const fitsState = m.fits === true ? 'fits' : m.fits === false ? 'not-fits' : 'none';
    const tight = (r.warnings || []).some(function (w) { return w.code === 'tight_fit'; });
    const band = (m.assumptions || []).filter(function (a) { return a.term === 'band'; })[0];

    const badgeText = fitsState === 'fits' ? '✓ ' + t('summary.fits')
      : fitsState === 'not-fits' ? '✗ ' + t('summary.not_fits') : t('summary.no_gpu');
    const badge = h('span', { class: 'fit-badge fit-' + fitsState + (tight ? ' fit-tight' : ''),
      dataset: { field: '/memory/fits', value: String(m.fits) } }, badgeText);

    const headline = h('div', { class: 'headline' },
      h('div', { class: 'headline-main' },
        h('div', { class: 'headline-label', text: t('summary.per_gpu') }),
        h('div', { class: 'headline-figure' }, bytesFigure(m.per_gpu_bytes, '/memory/per_gpu_bytes', 'big')),
        h('div', { class: 'headline-band' }, tNodes('summary.band', {
          low: h('span', { class: 'fig', dataset: { field: '/memory/band_bytes/low', bytes: String(m.band_bytes.low) }, text: gib(m.band_bytes.low) }),
          high: h('span', { class: 'fig', dataset: { field: '/memory/band_bytes/high', bytes: String(m.band_bytes.high) }, text: gib(m.band_bytes.high) }),
        })),
        band ? h('p', { class: 'assumption', lang: 'en', text: band.text }) : null),
      h('div', { class: 'headline-fit' }, badge, fitDetail(m, r)));
    body.appendChild(headline);

    const facts = h('dl', { class: 'facts' });
    const model = r.model || {};
    const p = model.params || {};
    facts.appendChild(h('dt', { text: t('summary.model') }));
    facts.appendChild(h('dd', null, h('span', { class: 'model-name', text: String(model.name || '') }),
      h('span', { class: 'muted', text: ' · ' + t('task.' + r.task) })));
    facts.appendChild(h('dt', { text: t('summary.params') }));
    facts.appendChild(h('dd', null, tNodes('summary.params_value', {
      total: valueFigure(p.total, '/model/params/total', billions(p.total)),
      active: valueFigure(p.active, '/model/params/active', billions(p.active)),
      trainable: valueFigure(p.trainable, '/model/params/trainable', params(p.trainable)),
    }), p.published_total_b ? h('span', { class: 'muted', text: t('summary.published', { published: p.published_total_b }) }) : null));

    const L = m.layout;
    facts.appendChild(h('dt', { text: t('summary.layout') }));
    const gpu = L.gpu ? findGpu(L.gpu) : null;
    facts.appendChild(h('dd', null,
      L.gpu ? h('div', null, valueFigure(L.count, '/memory/layout/count', integer(L.count)), ' × ',
        h('span', { text: gpu ? gpu.name : String(L.gpu) }))
        : h('div', { class: 'muted', text: t('summary.layout_unpinned', { zero: L.zero }) }),
      h('div', { class: 'topology' }, topology(L, '/memory/layout'))));
    if (m.host_ram_per_server_bytes > 0) {
      facts.appendChild(h('dt', { text: t('summary.host_ram_label') }));
      facts.appendChild(h('dd', null, tNodes('summary.host_ram', {
        value: h('span', { class: 'fig', dataset: { field: '/memory/host_ram_per_server_bytes', bytes: String(m.host_ram_per_server_bytes) }, text: gib(m.host_ram_per_server_bytes) }),
      })));
    }
    body.appendChild(facts);
    body.appendChild(h('p', { class: 'meta-line', text: t('summary.catalog', { gpus: r.catalog.gpus_as_of, models: r.catalog.models_as_of }) + ' · ' + t('summary.unit_note') }));
  }

  function topology(L, base) {
    const vars = {};
    ['tp', 'pp', 'dp', 'ep', 'zero', 'servers'].forEach(function (k) {
      vars[k] = valueFigure(L[k], base + '/' + k, integer(L[k]));
    });
    return tNodes('summary.topology', vars);
  }

  function fitDetail(m, r) {
    if (m.fits === null || m.fits === undefined) {
      return h('p', { class: 'fit-detail muted', text: t('summary.no_gpu_hint') });
    }
    const cap = h('div', { class: 'fit-line' }, tNodes('summary.capacity', {
      mem: h('span', { class: 'fig', dataset: { field: '/memory/gpu_memory_bytes', bytes: String(m.gpu_memory_bytes) }, text: gibCompact(m.gpu_memory_bytes) }),
    }));
    const ok = m.headroom_bytes >= 0;
    const room = h('div', { class: 'fit-line ' + (ok ? 'good' : 'bad') }, tNodes(ok ? 'summary.headroom' : 'summary.shortfall', {
      value: h('span', { class: 'fig', dataset: { field: '/memory/headroom_bytes', bytes: String(m.headroom_bytes) }, text: gib(Math.abs(m.headroom_bytes)) }),
    }));
    // What the core says this GPU needs at minimum (its own row of the options table).
    const option = (r.options || []).filter(function (o) { return o.gpu === m.layout.gpu; })[0];
    let minimum = null;
    if (option && option.min_count && option.min_layout) {
      const base = '/options/@' + option.gpu;
      minimum = h('div', { class: 'fit-line' }, tNodes('summary.min_for_gpu', {
        n: valueFigure(option.min_count, base + '/min_count', integer(option.min_count), 'strong'),
        layout: tNodes('options.layout_value', {
          tp: valueFigure(option.min_layout.tp, base + '/min_layout/tp', integer(option.min_layout.tp)),
          pp: valueFigure(option.min_layout.pp, base + '/min_layout/pp', integer(option.min_layout.pp)),
          dp: valueFigure(option.min_layout.dp, base + '/min_layout/dp', integer(option.min_layout.dp)),
        }),
      }));
    } else if (option && option.reason) {
      minimum = h('div', { class: 'fit-line bad', lang: 'en', text: String(option.reason) });
    }
    return h('div', { class: 'fit-detail' }, cap, room, minimum);
  }

  UI.registerPanel({ id: 'summary', titleKey: 'panel.summary', render: renderSummary });
})();
