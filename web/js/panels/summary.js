// SPDX-License-Identifier: MIT
// Panel: the headline figure, fit on the pinned GPU, layout and model.
import { findGpu } from '../core.js';
import { fig, h, pointerGet } from '../dom.js';
import { billions, gib, gibAbs, gibCompact, integer, params } from '../format.js';
import { t, tNodes } from '../i18n.js';
import { noteNode } from '../notes.js';
import { pinButton } from '../plans.js';

function renderSummary(body, r, ctx) {
  const m = r.memory;
  const fitsState = m.fits === true ? 'fits' : m.fits === false ? 'not-fits' : 'none';
  const tight = (r.warnings || []).some(function (w) { return w.code === 'tight_fit' || w.code === 'near_memory_limit'; });
  const band = (m.assumptions || []).filter(function (a) { return a.term === 'band'; })[0];
  // No stack named: the range across the stacks teams run the job on (the core's note).
  const stackRange = (m.assumptions || []).filter(function (a) { return a.term === 'stack_range'; })[0];

  const badgeText = fitsState === 'fits' ? '✓ ' + t('summary.fits')
    : fitsState === 'not-fits' ? '✗ ' + t('summary.not_fits') : t('summary.no_gpu');
  const badge = fig(h('span', { class: 'fit-badge fit-' + fitsState + (tight ? ' fit-tight' : '') }),
    r, '/memory/fits', function () { return badgeText; }, { none: badgeText });

  // Nothing pinned: these sections describe the recommended plan (the card's), said first.
  const described = r.sections_describe;
  if (described) {
    const dg = findGpu(described.gpu);
    body.appendChild(h('p', { class: 'described-note' }, tNodes('summary.describes_recommended', {
      gpus: fig(r, '/sections_describe/gpus', integer),
      gpu: h('span', { text: dg ? dg.name : String(described.gpu) }),
    })));
  }
  const headline = h('div', { class: 'headline' },
    h('div', { class: 'headline-main' },
      h('div', { class: 'headline-label', text: t('summary.per_gpu') }),
      h('div', { class: 'headline-figure' }, fig(r, '/memory/per_gpu_bytes', gib, { cls: 'big', unit: ' GiB' })),
      h('div', { class: 'headline-band' }, tNodes('summary.band', {
        low: fig(r, '/memory/band_bytes/low', gib),
        high: fig(r, '/memory/band_bytes/high', gib),
      })),
      band ? noteNode('p', 'memnote.', band, { class: 'assumption' }) : null,
      stackRange ? noteNode('p', 'memnote.', stackRange, { class: 'headline-stacks' }) : null),
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
    total: fig(r, '/model/params/total', billions),
    active: fig(r, '/model/params/active', billions),
    trainable: fig(r, '/model/params/trainable', params),
  }), p.published_total_b ? h('span', { class: 'muted', text: t('summary.published', { published: p.published_total_b }) }) : null));

  const L = m.layout;
  facts.appendChild(h('dt', { text: t('summary.layout') }));
  const gpu = L.gpu ? findGpu(L.gpu) : null;
  facts.appendChild(h('dd', null,
    L.gpu ? h('div', null, fig(r, '/memory/layout/count', integer), ' × ',
      h('span', { text: gpu ? gpu.name : String(L.gpu) }))
      : h('div', { class: 'muted', text: t('summary.layout_unpinned', { zero: L.zero }) }),
    h('div', { class: 'topology' }, topology(r, '/memory/layout'))));
  if (m.host_ram_per_server_bytes > 0) {
    facts.appendChild(h('dt', { text: t('summary.host_ram_label') }));
    facts.appendChild(h('dd', null, tNodes('summary.host_ram', {
      value: fig(r, '/memory/host_ram_per_server_bytes', gib),
    })));
  }
  body.appendChild(facts);
  body.appendChild(h('p', { class: 'meta-line', text: t('summary.catalog', { gpus: r.catalog.gpus_as_of, models: r.catalog.models_as_of }) + ' · ' + t('summary.unit_note') }));
}

/** "TP 1 × PP 1 × DP 8 · EP 1 · ZeRO-3 · 1 server" for the layout at `base`. */
function topology(r, base) {
  const vars = {};
  ['tp', 'pp', 'dp', 'ep', 'zero', 'servers'].forEach(function (k) { vars[k] = fig(r, base + '/' + k, integer); });
  if (pointerGet(r, base + '/cp') > 1) vars.cp = fig(r, base + '/cp', integer);  // only where stated
  return tNodes('summary.topology', vars);
}

function fitDetail(m, r) {
  if (m.fits === null || m.fits === undefined) {
    const best = r.recommendation && r.recommendation.best;
    return h('div', { class: 'fit-detail' }, h('p', { class: 'muted', text: t('summary.no_gpu_hint') }),
      best ? h('p', { class: 'note-action' }, t('summary.or_pin_recommended'), ' ', pinButton(best, t('answer.pin_best'))) : null);
  }
  const cap = h('div', { class: 'fit-line' }, tNodes('summary.capacity', {
    mem: fig(r, '/memory/gpu_memory_bytes', gibCompact),
  }));
  const ok = m.headroom_bytes >= 0;
  const room = h('div', { class: 'fit-line ' + (ok ? 'good' : 'bad') }, tNodes(ok ? 'summary.headroom' : 'summary.shortfall', {
    value: fig(r, '/memory/headroom_bytes', gibAbs),
  }));
  // What the core says this GPU needs at minimum (its own row of the options table).
  const option = (r.options || []).filter(function (o) { return o.gpu === m.layout.gpu; })[0];
  let minimum = null;
  if (option && option.min_count && option.min_layout) {
    const base = '/options/@' + option.gpu;
    minimum = h('div', { class: 'fit-line' }, tNodes('summary.min_for_gpu', {
      n: fig(r, base + '/min_count', integer, 'strong'),
      layout: tNodes('options.layout_value', {
        tp: fig(r, base + '/min_layout/tp', integer),
        pp: fig(r, base + '/min_layout/pp', integer),
        dp: fig(r, base + '/min_layout/dp', integer),
      }),
    }));
  } else if (option && option.reason) {
    minimum = noteNode('div', 'optnote.', { code: option.reason_code, params: option.reason_params, text: option.reason }, { class: 'fit-line bad' });
  }
  return h('div', { class: 'fit-detail' }, cap, room, minimum);
}

export default { id: 'summary', titleKey: 'panel.summary', render: renderSummary };
