// SPDX-License-Identifier: MIT
// A plan of result.recommendation in words: its headline, its cost with what the cost is (per
// run, per month, the owned share at a utilisation over N years), its reasons in the source's
// order (memory, interconnect, compute, power, cost) from the strings reason.<code>, and the two
// actions on a plan: pin it (the form's /hardware) and take a lever (its input, then pin).
// Every figure is written by fig() at its pointer in the result.
import { gpuName } from './core.js';
import { fig, h, pointerGet, pointerSet, toast } from './dom.js';
import { applyRequest, buildRequest, fieldFor, gpuSelect, input, updateVisibility, writeField } from './form.js';
import { NUMBER_STYLES, cny, duration, integer, isNum, num3, percent, seconds } from './format.js';
import { hasString, labelOf, messageParts, t, tNodes } from './i18n.js';
import { noteNode, noteText } from './notes.js';
import { optionLabel, panelsPinned } from './panel.js';
import { lastRun, run } from './run.js';
import { defaultFor, keepChoice } from './schema.js';

export const STEPS = ['memory', 'interconnect', 'compute', 'power', 'cost'];

/**
 * The risks of the parts a plan uses (risks[] of a recommendation plan or of the result): a
 * badge each (risk.<code>) with its reason (riskmsg.<reason>), as the core wrote them. `compact`:
 * badges only, the reason in the tooltip (table cells).
 */
export function riskBadges(plan, cls, compact) {
  const list = plan && plan.risks;
  if (!list || !list.length) return null;
  return h('ul', { class: 'plan-risks ' + (cls || '') }, list.map(function (x) {
    const note = { code: x.reason, params: x.params, text: x.message || '' };
    const badge = h('span', { class: 'risk-badge', text: labelOf('risk.')(x.code) });
    if (compact) badge.setAttribute('title', noteText('riskmsg.', note).text);
    return h('li', { class: 'plan-risk', dataset: { code: String(x.code) } }, badge,
      compact ? null : ' ', compact ? null : noteNode('span', 'riskmsg.', note));
  }));
}

/** How a reason parameter that is not a number in a named style reads: a label for its code. */
function labelFormat(name) {
  if (name === 'link') return labelOf('link.');
  if (name === 'facility') return labelOf('power.facility.');
  if (name === 'status') return labelOf('china.');
  if (name === 'basis') return labelOf('basis.');
  if (name === 'stack') return labelOf('stack.');
  if (name === 'platform') return labelOf('note.value.platform.');
  if (/outlay_basis$/.test(name)) return labelOf('outlay_basis.');
  if (name === 'deployment') return deploymentLabel;
  if (name === 'nearest_gpu' || name === 'gpu') return gpuName;
  return function (v) { return typeof v === 'number' ? integer(v) : String(v); };
}

/** How a reason parameter is shown: the number style its message names, else its label. */
export function paramFormat(name, style) {
  return NUMBER_STYLES[style] || labelFormat(name);
}

/** The string for a reason: reason.<code>, with a variant where the plan decides the words. */
function reasonKey(reason, plan) {
  const base = 'reason.' + reason.code;
  if (reason.code === 'idc_rack' && plan) {
    if (plan.deployment !== 'buy' && hasString(base + '.hosted')) return base + '.hosted';
    if (plan.office_can_host && hasString(base + '.office_possible')) return base + '.office_possible';
  }
  return base;
}

/**
 * A reason in words: its template with each {param} a figure at `pointer`/params/<name>;
 * a [[...]] part is kept only when every parameter in it is given. Without a template for the
 * code: the core's English text.
 */
export function reasonNodes(r, pointer, reason, plan) {
  const key = reasonKey(reason, plan);
  const params = reason.params || {};
  if (!hasString(key)) return [h('span', { lang: 'en', text: String(reason.text || reason.code) })];
  const figure = function (part, value, style) {
    // A parameter sent with a code beside it (why, why_code: a judged GPU's own reason) reads
    // as the page's words for that code, filled from the reason's other parameters; the core's
    // English text only when the page has none.
    const code = params[part + '_code'];
    if (code !== undefined && hasString('optnote.' + code)) return h('span', {}, messageParts('optnote.' + code, params, figure));
    return fig(r, pointer + '/params/' + part, paramFormat(part, style), 'strong');
  };
  return messageParts(key, params, figure);
}

/** The reasons of a plan, one line each, in the core's order (which is the source's). */
export function reasonList(r, pointer, plan) {
  const list = h('ol', { class: 'reasons' });
  (plan.reasons || []).forEach(function (reason, i) {
    const step = STEPS.indexOf(reason.step) >= 0 ? reason.step : 'other';
    list.appendChild(h('li', { class: 'reason-item step-' + step, dataset: { code: String(reason.code), step: step } },
      h('span', { class: 'step-label', text: labelOf('step.')(reason.step) }),
      h('span', { class: 'reason-text' }, reasonNodes(r, pointer + '/reasons/' + i, reason, plan))));
  });
  return list;
}

/** "¥3,464 /次" or "¥1,200 /月", and for an owned plan "(60% busy, 5 years)". */
export function costNodes(r, pointer, plan, opts) {
  const c = plan.cost || {};
  const out = [fig(r, pointer + '/cost/cny', cny, 'strong cost-figure'), h('span', { class: 'cost-basis', text: t('basis.' + c.basis + '.suffix') })];
  const owned = plan.deployment === 'buy' && isNum(c.utilization);
  if (opts && opts.short) {
    // Short, but an owned plan's cost still says it is a share at a utilisation over years.
    if (owned) {
      out.push(h('span', { class: 'cost-note' }, ' ', tNodes('basis.owned_note_short', {
        u: fig(r, pointer + '/cost/utilization', function (v) { return percent(v, 0); }),
        years: fig(r, pointer + '/cost/life_years', integer),
      })));
    }
    return out;
  }
  if (isNum(c.per_million_tokens_cny)) {
    out.push(' · ', fig(r, pointer + '/cost/per_million_tokens_cny', cny, 'strong'), h('span', { class: 'cost-basis', text: t('basis.per_million_tokens.suffix') }));
  }
  if (owned) {
    out.push(h('span', { class: 'cost-note' }, ' ', tNodes('basis.owned_note', {
      u: fig(r, pointer + '/cost/utilization', function (v) { return percent(v, 0); }),
      years: fig(r, pointer + '/cost/life_years', integer),
    })));
  }
  if (c.offer) out.push(h('span', { class: 'cost-note offer-note' }, ' ', offerNodes(r, pointer + '/cost/offer', c.offer)));
  // Calendar time to running GPUs (a purchase's delivery and move-in, or the offer's start).
  if (isNum(c.lead_time_days) && c.lead_time_days > 0) {
    out.push(h('span', { class: 'cost-note lead-note' }, ' ', tNodes('basis.lead_time', { days: fig(r, pointer + '/cost/lead_time_days', integer) })));
  }
  return out;
}

/** A rented plan's offer: its kind, how it bills and its shortest term. */
function offerNodes(r, pointer, offer) {
  return tNodes(offer.minimum_term_months > 0 ? 'offer.note_term' : 'offer.note', {
    kind: fig(r, pointer + '/kind', labelOf('offer_kind.')),
    billing: fig(r, pointer + '/billing', labelOf('offer_billing.')),
    months: fig(r, pointer + '/minimum_term_months', integer),
  });
}

/** How the cards are had: buy / rent / reserve (the place is said apart). */
export function deploymentLabel(d) { return labelOf('deploy.', optionLabel)(d); }

/** Time (training) or speed per user (serving). */
export function timeNodes(r, pointer, plan) {
  if (isNum(plan.hours)) return [fig(r, pointer + '/hours', duration, 'strong')];
  if (isNum(plan.per_user_tokens_per_second)) {
    // At the load: every user online at once, prompts and all (the median first token beside it).
    const out = [fig(r, pointer + '/per_user_tokens_per_second', num3, 'strong'), ' ', t('answer.tps_per_user')];
    if (isNum(plan.time_to_first_token_s)) out.push(' · ', t('answer.ttft') + ' ', fig(r, pointer + '/time_to_first_token_s', seconds));
    return out;
  }
  return [];
}

/** "8× H800 SXM · 1 台服务器 · 租用 · 35 小时 · ¥3,464/次" as nodes (short: without servers and notes). */
export function planHeadline(r, pointer, plan, short) {
  const parts = [];
  parts.push(h('span', { class: 'plan-gpus' }, fig(r, pointer + '/gpus', integer, 'strong'), '× ',
    fig(h('span', { class: 'plan-name' }), r, pointer + '/gpu', function () { return String(plan.name || gpuName(plan.gpu)); })));
  if (!short) parts.push(h('span', null, tNodes('answer.servers', { n: fig(r, pointer + '/servers', integer) })));
  parts.push(fig(h('span', { class: 'plan-deployment' }), r, pointer + '/deployment', function (d) {
    return deploymentLabel(d) + (d === 'buy' && plan.facility ? ' · ' + labelOf('facility_short.')(plan.facility) : '');
  }));
  // A bought card that is not new says how it is bought (second-hand, grey import).
  if (plan.deployment === 'buy' && plan.purchase_status && plan.purchase_status !== 'new') {
    parts.push(fig(h('span', { class: 'plan-purchase' }), r, pointer + '/purchase_status', labelOf('purchase_status.')));
  }
  const time = timeNodes(r, pointer, plan);
  if (time.length) parts.push(h('span', null, time));
  parts.push(h('span', { class: 'plan-cost' }, costNodes(r, pointer, plan, { short: short })));
  const out = [];
  parts.forEach(function (p, i) { if (i) out.push(h('span', { class: 'sep', 'aria-hidden': 'true', text: ' · ' })); out.push(p); });
  return out;
}

/** Whether the request pins this plan's GPU and count. */
export function isPinned(plan) {
  const request = lastRun().request;
  const hw = request && request.hardware;
  return Boolean(hw && hw.gpu === plan.gpu && hw.count === plan.gpus &&
    (!hw.deployment || hw.deployment === plan.deployment));
}

/**
 * Pins a plan: its GPU, count and deployment into the form's /hardware, an owned plan's place
 * into /hardware/facility and /power/facility (they must agree; a rental's place is the
 * provider's, left open), and the cost panel on its deployment.
 */
export function pinPlan(plan) {
  // A power limit is in one part's watts, and the recommendation runs every part at its TDP.
  const limit = fieldFor('/hardware/power_limit_w');
  if (limit && gpuSelect().value !== String(plan.gpu)) writeField(limit, '');
  keepChoice(gpuSelect(), String(plan.gpu)); // a GPU the picker lacks is still pinned, as itself
  const count = input('hw.count');
  count.disabled = false;
  count.value = String(plan.gpus);
  panelsPinned(plan); // the cost panel shows its deployment
  const deployment = fieldFor('/hardware/deployment');
  if (deployment && plan.deployment) writeField(deployment, plan.deployment);
  const owned = plan.deployment === 'buy' && plan.facility;
  const place = fieldFor('/hardware/facility');
  if (place) writeField(place, owned ? plan.facility : '');
  if (owned) {
    const f = fieldFor('/power/facility');
    if (f && (f.node.value || defaultFor('/power/facility')) !== plan.facility) writeField(f, plan.facility);
  }
  updateVisibility();
  run();
  toast(t('answer.pinned_toast', { n: plan.gpus, gpu: String(plan.name || plan.gpu) }));
}

export function unpin() {
  gpuSelect().value = '';
  input('hw.count').value = '';
  ['/hardware/deployment', '/hardware/facility', '/hardware/power_limit_w'].forEach(function (path) {
    const f = fieldFor(path);
    if (f) writeField(f, '');
  });
  updateVisibility();
  run();
}

/** Takes a lever: its input set to its value in the form, and its plan pinned. */
export function applyLever(lever) {
  const req = buildRequest();
  if (!pointerSet(req, String(lever.path), lever.value)) return;
  req.hardware = { gpu: lever.plan.gpu, count: lever.plan.gpus };
  applyRequest(req);
  panelsPinned(lever.plan);
  run();
  toast(t('answer.lever_toast', { lever: labelOf('lever.')(lever.lever) }));
}

/** A button that pins `plan`, or a tag with an unpin button when it is the pinned one. */
export function pinButton(plan, label) {
  if (isPinned(plan)) {
    return h('span', { class: 'pin-state' }, h('span', { class: 'tag tag-pinned', text: t('answer.pinned') }),
      h('button', { type: 'button', class: 'link-btn small unpin', text: t('answer.unpin'), onclick: unpin }));
  }
  return h('button', { type: 'button', class: 'btn btn-small pin-btn', dataset: { gpu: String(plan.gpu), gpus: String(plan.gpus) },
    text: label || t('answer.pin'), onclick: function () { pinPlan(plan); } });
}

/** Every plan the recommendation names, with its pointer and role: best, runners-up, levers, nearest. */
export function namedPlans(rec) {
  const out = [];
  if (!rec) return out;
  if (rec.best) out.push({ key: 'best', role: 'best', pointer: '/recommendation/best', plan: rec.best });
  (rec.runners_up || []).forEach(function (u, i) {
    out.push({ key: 'runner:' + i, role: 'wins_on.' + u.wins_on, pointer: '/recommendation/runners_up/' + i + '/plan', plan: u.plan,
      whyNot: u.why_not, whyPointer: '/recommendation/runners_up/' + i + '/why_not' });
  });
  (rec.levers || []).forEach(function (l, i) {
    out.push({ key: 'lever:' + i, role: 'lever.' + l.lever, pointer: '/recommendation/levers/' + i + '/plan', plan: l.plan, lever: l });
  });
  if (rec.nearest) out.push({ key: 'nearest', role: 'nearest', pointer: '/recommendation/nearest', plan: rec.nearest });
  return out;
}

/** A named plan's role in words ("推荐", "最便宜", "开启完全激活检查点"). */
export function roleLabel(named) {
  if (named.role === 'best') return t('answer.role.best');
  if (named.role === 'nearest') return t('answer.role.nearest');
  const dot = named.role.indexOf('.');
  return labelOf(named.role.slice(0, dot + 1))(named.role.slice(dot + 1));
}

export function planAt(r, pointer) { return pointerGet(r, pointer); }
