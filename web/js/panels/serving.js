// SPDX-License-Identifier: MIT
// Panel: inference speed (pinned figures, decode step, KV cache, concurrency curve).
import { lineChart } from '../charts.js';
import { defaults, gpuName } from '../core.js';
import { fig, h, pointerGet } from '../dom.js';
import { gib, integer, isNum, num3, percent, seconds, tickNum } from '../format.js';
import { t, tNodes } from '../i18n.js';
import { noteList } from '../notes.js';
import { assumptionList, describedNote, kpi, noteBanner, renderInterconnect, sectionTitle } from '../panel.js';

function renderInferenceSpeed(body, r, ctx) {
  const I = r.inference;
  const pinned = isNum(I.decode_tokens_per_second);
  if (!pinned) body.appendChild(noteBanner(t('inf.unpinned', { gpu: gpuName(I.gpu) }), 'note-info'));
  else if (r.sections_describe) body.appendChild(describedNote(r));
  if (pinned && I.at_load) {
    // The figures at the stated load first: what every user sees with everyone online.
    const L = '/inference/at_load';
    const load = h('div', { class: 'kpis' });
    load.appendChild(kpi(t('inf.at_load_per_user'), fig(r, L + '/per_user_tokens_per_second', num3, 'big-num'), 'tokens/s',
      tNodes('inf.at_load_per_user_sub', { users: fig(r, L + '/users_per_replica', integer),
        share: fig(r, L + '/prefill_share', function (v) { return percent(v, 0); }) })));
    load.appendChild(kpi(t('inf.at_load_ttft'), fig(r, L + '/time_to_first_token_s', seconds, 'big-num'), null,
      tNodes('inf.at_load_ttft_sub', { p90: fig(r, L + '/time_to_first_token_p90_s', seconds) })));
    load.appendChild(kpi(t('inf.at_load_output'), fig(r, L + '/replica_output_tokens_per_second', integer, 'big-num'), 'tokens/s'));
    body.appendChild(load);
  }
  if (pinned) {
    const k = h('div', { class: 'kpis' });
    k.appendChild(kpi(t('inf.decode'), fig(r, '/inference/decode_tokens_per_second', integer, 'big-num'), 'tokens/s',
      tNodes('inf.decode_sub', { n: fig(r, '/memory/layout/count', integer) })));
    k.appendChild(kpi(t('inf.per_user'), fig(r, '/inference/per_user_tokens_per_second', num3, 'big-num'), 'tokens/s'));
    k.appendChild(kpi(t('inf.ttft'), fig(r, '/inference/time_to_first_token_s', seconds, 'big-num'), null,
      isNum(I.batch_prefill_s) ? tNodes('inf.ttft_sub', { s: fig(r, '/inference/batch_prefill_s', seconds) }) : null));
    k.appendChild(kpi(t('inf.max_concurrency'), fig(r, '/inference/max_concurrency', integer, 'big-num'), null,
      I.kv_cache ? tNodes('inf.max_concurrency_sub', { len: fig(r, '/inference/kv_cache/max_model_len', integer) }) : null));
    const needs = I.gpus_needed;
    k.appendChild(kpi(t('inf.gpus_needed'), fig(r, '/inference/gpus_needed', integer, 'big-num'), null,
      isNum(needs) ? tNodes('inf.gpus_needed_sub', {
        replicas: fig(r, '/inference/replicas', integer),
        users: fig(r, '/inference/users_per_replica', integer),
      }) : t('inf.no_target'), isNum(needs) ? 'kpi-accent' : ''));
    body.appendChild(k);
    // decode step: memory vs compute
    const d = I.decode_breakdown;
    if (d) {
      body.appendChild(sectionTitle(t('inf.step_title'), h('span', { class: 'section-sub', text: I.bandwidth_bound ? t('inf.bandwidth_bound') : t('inf.compute_bound') })));
      body.appendChild(h('div', { class: 'inline-facts meta-line' },
        h('span', null, t('inf.step') + ' ', fig(r, '/inference/decode_step_s', seconds)),
        h('span', null, t('inf.memory_s') + ' ', fig(r, '/inference/decode_breakdown/memory_s', seconds)),
        h('span', null, t('inf.compute_s') + ' ', fig(r, '/inference/decode_breakdown/compute_s', seconds)),
        d.communication_s ? h('span', null, t('inf.comm_s') + ' ', fig(r, '/inference/decode_breakdown/communication_s', seconds)) : null,
        h('span', null, t('inf.weights_read') + ' ', fig(r, '/inference/decode_breakdown/weight_bytes', gib), ' GiB'),
        h('span', null, t('inf.kv_read') + ' ', fig(r, '/inference/decode_breakdown/kv_cache_bytes', gib), ' GiB')));
    }
    const kv = I.kv_cache;
    if (kv) {
      body.appendChild(h('div', { class: 'inline-facts meta-line' },
        h('span', null, t('inf.kv_budget') + ' ', fig(r, '/inference/kv_cache/budget_bytes', gib), ' GiB'),
        h('span', null, t('inf.kv_per_token') + ' ', fig(r, '/inference/kv_cache/bytes_per_token', integer), ' B'),
        h('span', null, t('inf.gmu') + ' ', fig(r, '/inference/kv_cache/gpu_memory_utilization', null)),
        isNum(I.sustained_output_tokens_per_second) ? h('span', null, t('inf.sustained') + ' ', fig(r, '/inference/sustained_output_tokens_per_second', integer), ' tokens/s') : null));
    }
  }
  const ic = renderInterconnect(r);
  if (ic && pinned && r.memory.layout.count > 1) body.appendChild(ic);
  const cc = I.concurrency_curve || [];
  if (cc.length) {
    // The load marked on the curve: the users each replica serves (the form's one load field,
    // target_users, spread over the replicas by the core), else the engine's batch.
    const atLoad = I.at_load && isNum(I.at_load.users_per_replica) ? I.at_load.users_per_replica : null;
    const reqConc = atLoad !== null ? atLoad : pointerGet(ctx.request, '/inference/concurrency') || pointerGet(defaults, '/inference/concurrency');
    const target = pointerGet(ctx.request, '/inference/target_tokens_per_second_per_user');
    const ticks = cc.map(function (p) { return p.concurrency; });
    const markers = [];
    if (pinned && isNum(I.max_concurrency)) markers.push({ x: I.max_concurrency, label: t('inf.marker_max', { n: I.max_concurrency }), cls: 'max-marker', anchor: 'end' });
    if (pinned && isNum(reqConc) && reqConc !== I.max_concurrency) markers.push({ x: reqConc, label: t('inf.marker_request', { n: integer(reqConc) }), cls: 'pinned-marker', row: 1 });
    const chart = lineChart({
      title: t('inf.curve_title'),
      x: { log: true, ticks: ticks, min: ticks[0], max: ticks[ticks.length - 1], pad: 14, format: function (v) { return integer(v); }, label: t('inf.curve_x') },
      y: { format: tickNum, label: t('inf.curve_y') },
      y2: { format: tickNum, label: t('inf.curve_y2') },
      series: [
        { label: t('inf.curve_total'), color: '#1f5fa8', points: cc.map(function (p, i) {
          return { x: p.concurrency, y: p.decode_tokens_per_second, hollow: !p.fits, field: '/inference/concurrency_curve/' + i + '/decode_tokens_per_second', value: p.decode_tokens_per_second,
            tip: t('inf.curve_tip', { n: p.concurrency, total: integer(p.decode_tokens_per_second), user: num3(p.per_user_tokens_per_second) }) };
        }) },
        { label: t('inf.curve_user'), color: '#c9852f', dash: '6 4', axis: 'y2', points: cc.map(function (p, i) {
          return { x: p.concurrency, y: p.per_user_tokens_per_second, hollow: !p.fits, field: '/inference/concurrency_curve/' + i + '/per_user_tokens_per_second', value: p.per_user_tokens_per_second,
            tip: t('inf.curve_tip', { n: p.concurrency, total: integer(p.decode_tokens_per_second), user: num3(p.per_user_tokens_per_second) }) };
        }) },
      ],
      markers: markers,
      hlines: isNum(target) ? [{ axis: 'y2', y: target, label: t('inf.target_line', { v: target }) }] : [],
    });
    body.appendChild(h('div', { class: 'scaling' },
      sectionTitle(t('inf.curve_title'), h('span', { class: 'section-sub', text: t('scaling.for_gpu', { gpu: gpuName(I.gpu) }) })),
      chart));
  }
  const notes = noteList('assume.', I.assumption_notes, I.assumptions);
  if (notes) body.appendChild(notes);
}

export default { id: 'serving', titleKey: 'panel.serving', applies: function (r) { return Boolean(r.inference); }, render: renderInferenceSpeed };
