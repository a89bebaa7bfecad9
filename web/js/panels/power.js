// SPDX-License-Identifier: MIT
// Panel: power and facility, with the office verdict as a banner.
(function () {
  'use strict';

  const UI = window.GpuAdvisorUI = window.GpuAdvisorUI || { state: {}, el: {} };
  const { fig, gpuName, h, hasString, integer, kpi, num3, percent, t, tNodes, watts } = UI;

  function renderPower(body, r) {
    const P = r.power;
    const v = P.office_verdict || {};
    const level = String(v.level || 'unknown');
    body.appendChild(h('div', { class: 'verdict-banner verdict-' + level.replace(/[^a-z_]/g, '') },
      h('div', { class: 'verdict-icon', 'aria-hidden': 'true', text: level === 'yes' ? '✓' : level === 'marginal' ? '!' : '✗' }),
      h('div', { class: 'verdict-main' },
        h('div', { class: 'verdict-q', text: t('power.office_q') }),
        h('div', { class: 'verdict-a', dataset: { field: '/power/office_verdict/level', value: level },
          text: hasString('power.office.' + level) ? t('power.office.' + level) : level }),
        h('p', { class: 'verdict-reason', lang: 'en', text: String(v.reason || '') })),
      h('span', { class: 'sr-only', dataset: { field: '/power/office_verdict/can_host', value: String(v.can_host) }, text: String(v.can_host) })));
    const hw = r.cost && r.cost.hardware;
    body.appendChild(h('p', { class: 'meta-line' }, tNodes('power.for', {
      n: fig(P.gpus, '/power/gpus', integer(P.gpus)), gpu: gpuName(P.gpu),
    }), hw && !hw.pinned ? h('span', { class: 'muted', text: ' · ' + t('cost.unpinned_short') }) : null));
    const k = h('div', { class: 'kpis' });
    k.appendChild(kpi(t('power.server_full'), fig(P.server_watts_full_load, '/power/server_watts_full_load', watts(P.server_watts_full_load), 'big-num'), null,
      tNodes('power.server_full_sub', {
        gpu: fig(P.gpu_watts_per_server, '/power/gpu_watts_per_server', watts(P.gpu_watts_per_server)),
        host: fig(P.host_watts, '/power/host_watts', watts(P.host_watts)),
      })));
    k.appendChild(kpi(t('power.server_typical'), fig(P.server_watts_typical, '/power/server_watts_typical', watts(P.server_watts_typical), 'big-num'), null,
      tNodes('power.server_typical_sub', {
        f: fig(P.training_load_factor, '/power/training_load_factor', percent(P.training_load_factor, 0)),
        idle: fig(P.server_watts_idle, '/power/server_watts_idle', watts(P.server_watts_idle)),
      })));
    k.appendChild(kpi(t('power.servers'), fig(P.servers, '/power/servers', integer(P.servers), 'big-num'), null,
      tNodes('power.servers_sub', { per: fig(P.gpus_per_server, '/power/gpus_per_server', integer(P.gpus_per_server)) })));
    k.appendChild(kpi(t('power.racks'), fig(P.racks_needed, '/power/racks_needed', integer(P.racks_needed), 'big-num'), null,
      [tNodes('power.racks_sub', {
        kw: fig(P.rack_kw, '/power/rack_kw', num3(P.rack_kw)),
        per: fig(P.servers_per_rack, '/power/servers_per_rack', integer(P.servers_per_rack)),
      }), h('div', { class: 'kpi-sub2', dataset: { field: '/power/rack_choice', value: String(P.rack_choice) },
        text: hasString('power.rack_choice.' + P.rack_choice) ? t('power.rack_choice.' + P.rack_choice) : String(P.rack_choice) })],
      P.rack_fits === false ? 'kpi-bad' : ''));
    k.appendChild(kpi(t('power.it_kw'), fig(P.it_kw_full_load, '/power/it_kw_full_load', num3(P.it_kw_full_load), 'big-num'), 'kW',
      tNodes('power.it_kw_sub', { typ: fig(P.it_kw_typical, '/power/it_kw_typical', num3(P.it_kw_typical)) })));
    k.appendChild(kpi(t('power.facility_kw'), fig(P.facility_kw, '/power/facility_kw', num3(P.facility_kw), 'big-num'), 'kW',
      tNodes('power.facility_kw_sub', {
        pue: fig(P.pue, '/power/pue', String(P.pue)),
        facility: h('span', { dataset: { field: '/power/facility', value: String(P.facility) }, text: hasString('power.facility.' + P.facility) ? t('power.facility.' + P.facility) : String(P.facility) }),
      })));
    body.appendChild(k);
    const lim = h('p', { class: 'meta-line inline-facts' },
      h('span', null, t('power.by_power') + ' ', fig(P.servers_per_rack_by_power, '/power/servers_per_rack_by_power', integer(P.servers_per_rack_by_power))),
      h('span', null, t('power.by_space') + ' ', fig(P.servers_per_rack_by_space, '/power/servers_per_rack_by_space', integer(P.servers_per_rack_by_space))),
      P.racks_per_server > 1 ? h('span', { class: 'bad' }, t('power.racks_per_server') + ' ', fig(P.racks_per_server, '/power/racks_per_server', integer(P.racks_per_server))) : null,
      h('span', { class: 'muted', text: t('power.sizing_note') }));
    body.appendChild(lim);
  }

  UI.registerPanel({ id: 'power', titleKey: 'panel.power', applies: function (r) { return Boolean(r.power); }, render: renderPower });
})();
