// SPDX-License-Identifier: MIT
// Panel: power and facility, with the office verdict as a banner.
import { gpuName } from '../core.js';
import { fig, h } from '../dom.js';
import { integer, num3, pct, watts } from '../format.js';
import { labelOf, t, tNodes } from '../i18n.js';
import { noteNode } from '../notes.js';
import { kpi } from '../panel.js';

function renderPower(body, r) {
  const P = r.power;
  const v = P.office_verdict || {};
  const level = String(v.level || 'unknown');
  body.appendChild(h('div', { class: 'verdict-banner verdict-' + level.replace(/[^a-z_]/g, '') },
    h('div', { class: 'verdict-icon', 'aria-hidden': 'true', text: level === 'yes' ? '✓' : level === 'marginal' ? '!' : '✗' }),
    h('div', { class: 'verdict-main' },
      h('div', { class: 'verdict-q', text: t('power.office_q') }),
      fig(h('div', { class: 'verdict-a' }), r, '/power/office_verdict/level', labelOf('power.office.'), { none: labelOf('power.office.')('unknown') }),
      noteNode('p', 'office.reason.', { code: v.reason_code, params: v.reason_params, text: v.reason || '' }, { class: 'verdict-reason' })),
    fig(h('span', { class: 'sr-only' }), r, '/power/office_verdict/can_host', function (v) { return v ? t('common.yes') : t('common.no'); })));
  const hw = r.cost && r.cost.hardware;
  body.appendChild(h('p', { class: 'meta-line' }, tNodes('power.for', {
    n: fig(r, '/power/gpus', integer), gpu: gpuName(P.gpu),
  }), hw && !hw.pinned ? h('span', { class: 'muted', text: ' · ' + t('cost.unpinned_short') }) : null));
  const k = h('div', { class: 'kpis' });
  k.appendChild(kpi(t('power.server_full'), fig(r, '/power/server_watts_full_load', watts, 'big-num'), null,
    tNodes('power.server_full_sub', {
      gpu: fig(r, '/power/gpu_watts_per_server', watts),
      host: fig(r, '/power/host_watts', watts),
    })));
  k.appendChild(kpi(t('power.server_typical'), fig(r, '/power/server_watts_typical', watts, 'big-num'), null,
    tNodes('power.server_typical_sub', {
      f: fig(r, '/power/training_load_factor', pct(0)),
      idle: fig(r, '/power/server_watts_idle', watts),
    })));
  k.appendChild(kpi(t('power.servers'), fig(r, '/power/servers', integer, 'big-num'), null,
    tNodes('power.servers_sub', { per: fig(r, '/power/gpus_per_server', integer) })));
  k.appendChild(kpi(t('power.racks'), fig(r, '/power/racks_needed', integer, 'big-num'), null,
    [tNodes('power.racks_sub', {
      kw: fig(r, '/power/rack_kw', num3),
      per: fig(r, '/power/servers_per_rack', integer),
    }), fig(h('div', { class: 'kpi-sub2' }), r, '/power/rack_choice', labelOf('power.rack_choice.'))],
    P.rack_fits === false ? 'kpi-bad' : ''));
  k.appendChild(kpi(t('power.it_kw'), fig(r, '/power/it_kw_full_load', num3, 'big-num'), 'kW',
    tNodes('power.it_kw_sub', { typ: fig(r, '/power/it_kw_typical', num3) })));
  k.appendChild(kpi(t('power.facility_kw'), fig(r, '/power/facility_kw', num3, 'big-num'), 'kW',
    tNodes('power.facility_kw_sub', {
      pue: fig(r, '/power/pue', null),
      facility: fig(h('span'), r, '/power/facility', labelOf('power.facility.')),
    })));
  body.appendChild(k);
  const lim = h('p', { class: 'meta-line inline-facts' },
    h('span', null, t('power.by_power') + ' ', fig(r, '/power/servers_per_rack_by_power', integer)),
    h('span', null, t('power.by_space') + ' ', fig(r, '/power/servers_per_rack_by_space', integer)),
    P.racks_per_server > 1 ? h('span', { class: 'bad' }, t('power.racks_per_server') + ' ', fig(r, '/power/racks_per_server', integer)) : null,
    h('span', { class: 'muted', text: t('power.sizing_note') }));
  body.appendChild(lim);
}

export default { id: 'power', titleKey: 'panel.power', applies: function (r) { return Boolean(r.power); }, render: renderPower };
