// SPDX-License-Identifier: MIT
// Panel: the answer first. The recommended plan for the user's goal (result.recommendation): GPU,
// count, servers, deployment, time and this job's cost, with its reasons in the source's order;
// the runners-up, each with what it wins on and why it lost; the levers as explicit alternatives;
// and, when nothing meets the goal, the nearest plan (never an empty card).
import { gpuName } from '../core.js';
import { append, fig, h } from '../dom.js';
import { fieldForPath, focusField } from '../errors.js';
import { fieldFor } from '../form.js';
import { cny, duration, integer, upTo } from '../format.js';
import { labelOf, t, tNodes } from '../i18n.js';
import { hiddenWarning } from '../mode.js';
import { noteNode } from '../notes.js';
import { showPanel } from '../panel.js';
import { keep } from '../patch.js';
import { applyLever, isPinned, pinButton, planHeadline, reasonList, reasonNodes, riskBadges, unpin } from '../plans.js';
import { run } from '../run.js';

const MAX_REJECTED_SHOWN = 8;

function goalLine(r, rec) {
  const parts = [fig(h('span', { class: 'goal-objective' }), r, '/recommendation/objective', labelOf('goal.objective.'))];
  if (rec.deadline_hours !== null && rec.deadline_hours !== undefined) {
    parts.push(' · ', tNodes('answer.deadline', { v: fig(r, '/recommendation/deadline_hours', duration) }));
  }
  if (rec.done_within_days !== null && rec.done_within_days !== undefined) {
    parts.push(' · ', tNodes('answer.done_within', { v: fig(r, '/recommendation/done_within_days', integer) }));
  }
  // "Cheapest" without a deadline is the cheapest within the task's calendar (or, when no plan
  // finishes within it, the cheapest of all, said so).
  if (rec.calendar) {
    parts.push(' · ', h('span', { class: rec.calendar.met ? 'goal-calendar' : 'goal-calendar warn' },
      tNodes(rec.calendar.met ? 'answer.calendar' : 'answer.calendar_unmet', { v: fig(r, '/recommendation/calendar/hours', duration) })));
  }
  if (rec.budget_cny !== null && rec.budget_cny !== undefined) {
    parts.push(' · ', tNodes('answer.budget', { v: fig(r, '/recommendation/budget_cny', cny) }));
    // What the budget was compared with: the shown plan's outlay (a purchase, a run, a month).
    const shown = rec.best ? '/recommendation/best' : rec.nearest ? '/recommendation/nearest' : null;
    if (shown) {
      parts.push(h('span', { class: 'budget-basis' }, tNodes('answer.budget_basis', {
        basis: fig(h('span'), r, shown + '/outlay_basis', labelOf('outlay_basis.')),
      })));
    }
  }
  // A cadence: owned and reserved cards are priced by its runs (per run, this many a month).
  if (rec.runs_per_month !== null && rec.runs_per_month !== undefined) {
    parts.push(' · ', tNodes('answer.cadence', { v: fig(r, '/recommendation/runs_per_month', function (v) { return t('unit.per_month', { n: upTo(2)(v) }); }) }));
  }
  parts.push(' · ', fig(h('span'), r, '/recommendation/buying_policy', labelOf('answer.buying_policy.')));
  parts.push(' · ', tNodes('answer.candidates', { n: fig(r, '/recommendation/candidates', integer) }));
  return h('p', { class: 'answer-goal' }, parts);
}

/** The warnings a plan earns (the same as pinning it would show), on the card beside it. */
function planWarnings(plan, cls) {
  const list = plan && plan.warnings && plan.warnings.filter(function (w) { return !hiddenWarning(w.code); });
  if (!list || !list.length) return null;
  return h('ul', { class: 'plan-warnings ' + (cls || '') }, list.map(function (w) {
    return h('li', { class: 'plan-warning', dataset: { code: String(w.code) } },
      h('span', { class: 'warning-tag', text: t('answer.plan_warning') }), ' ',
      noteNode('span', 'warnmsg.', { code: w.code, params: w.params, text: w.message || '' }));
  }));
}

function runnersUp(r, rec) {
  if (!rec.runners_up || !rec.runners_up.length) return null;
  const list = h('ul', { class: 'alt-list runners' });
  rec.runners_up.forEach(function (u, i) {
    const base = '/recommendation/runners_up/' + i;
    list.appendChild(h('li', { class: 'alt', dataset: { winsOn: String(u.wins_on) } },
      h('div', { class: 'alt-head' },
        fig(h('span', { class: 'tag tag-wins' }), r, base + '/wins_on', labelOf('wins_on.')),
        h('span', { class: 'alt-plan' }, planHeadline(r, base + '/plan', u.plan, true)),
        pinButton(u.plan)),
      h('div', { class: 'alt-why' }, h('span', { class: 'muted', text: t('answer.why_not') + ' ' }),
        h('span', null, reasonNodes(r, base + '/why_not', u.why_not, u.plan))),
      riskBadges(u.plan, 'small'), planWarnings(u.plan, 'small')));
  });
  return h('section', { class: 'answer-sub' }, h('h3', { class: 'answer-sub-title', text: t('answer.runners_up') }), list);
}

function levers(r, rec, ctx) {
  if (rec.levers_later) {
    // They follow the frame that shows the answer (js/run.js): until then the list on screen
    // stays, for the next task to replace, rather than the columns jumping in between.
    const shown = ctx && ctx.live && ctx.live.querySelector('.answer-sub[data-key="levers"]');
    return shown ? keep(shown) : null;
  }
  if (!rec.levers || !rec.levers.length) return null;
  const list = h('ul', { class: 'alt-list levers' });
  rec.levers.forEach(function (l, i) {
    const base = '/recommendation/levers/' + i;
    list.appendChild(h('li', { class: 'alt', dataset: { lever: String(l.lever) } },
      h('div', { class: 'alt-head' },
        fig(h('span', { class: 'lever-name' }), r, base + '/lever', labelOf('lever.')),
        h('span', { class: 'alt-plan' }, planHeadline(r, base + '/plan', l.plan, true)),
        h('button', { type: 'button', class: 'btn btn-small lever-btn', text: t('answer.apply_lever'), onclick: function () { applyLever(l); } })),
      h('div', { class: 'alt-why' }, h('span', { class: 'muted', text: t('answer.trade_off') + ' ' }),
        fig(h('span'), r, base + '/trade_off', labelOf('trade_off.'))),
      riskBadges(l.plan, 'small')));
  });
  return h('section', { class: 'answer-sub', dataset: { key: 'levers' } }, h('h3', { class: 'answer-sub-title', text: t('answer.levers') }), list);
}

/**
 * Serving customers on risky parts: the best plan on parts without those risks, next to the
 * recommendation (recommendation.datacenter_alternative, chosen by the core).
 */
function datacenterAlternative(r, rec) {
  const alt = rec.datacenter_alternative;
  if (!alt) return null;
  const base = '/recommendation/datacenter_alternative';
  return h('section', { class: 'answer-alternative', dataset: { gpu: String(alt.gpu) } },
    h('div', { class: 'answer-sub-title', text: t('answer.datacenter_alternative') }),
    h('p', { class: 'muted', text: t('answer.datacenter_alternative_why') }),
    h('div', { class: 'answer-headline small-headline' }, planHeadline(r, base, alt, false)),
    riskBadges(alt, 'small'), planWarnings(alt, 'small'),
    h('div', { class: 'answer-actions' }, pinButton(alt)));
}

/** Buttons that clear the deadline, the budget or the calendar bound, when one is set. */
function relaxButtons(rec) {
  const out = [];
  [['deadline_hours', '/goal/deadline_hours', 'answer.drop_deadline'], ['budget_cny', '/goal/budget_cny', 'answer.drop_budget'], ['done_within_days', '/goal/done_within_days', 'answer.drop_done_within']].forEach(function (x) {
    if (rec[x[0]] === null || rec[x[0]] === undefined) return;
    const f = fieldFor(x[1]);
    if (!f) return;
    out.push(h('button', { type: 'button', class: 'btn btn-small relax-btn', dataset: { goal: x[0] }, text: t(x[2]), onclick: function () { f.node.value = ''; run(); } }));
  });
  return out.length ? h('div', { class: 'answer-actions' }, out) : null;
}

function rejectedList(r, rec) {
  const rejected = rec.rejected || [];
  if (!rejected.length) return null;
  const list = h('ul', { class: 'rejected-list' });
  rejected.slice(0, MAX_REJECTED_SHOWN).forEach(function (x, i) {
    const base = '/recommendation/rejected/' + i;
    list.appendChild(h('li', null, fig(h('strong'), r, base + '/gpu', gpuName), ': ',
      h('span', { class: 'step-label', text: labelOf('step.')(x.reason.step) }), ' ', reasonNodes(r, base + '/reason', x.reason, null)));
  });
  if (rejected.length > MAX_REJECTED_SHOWN) {
    list.appendChild(h('li', { class: 'muted' }, h('button', { type: 'button', class: 'link-btn', text: t('answer.more_rejected', { n: rejected.length - MAX_REJECTED_SHOWN }),
      onclick: function () { showPanel('compare'); } })));
  }
  return list;
}

function noPlan(body, r, rec) {
  const card = h('div', { class: 'answer answer-none', role: 'status' });
  card.appendChild(h('div', { class: 'answer-kicker bad', text: t('answer.no_plan') }));
  if (rec.no_plan) card.appendChild(h('p', { class: 'answer-reason' }, reasonNodes(r, '/recommendation/no_plan', rec.no_plan, null)));
  if (rec.nearest) {
    card.appendChild(h('div', { class: 'answer-nearest' },
      h('div', { class: 'answer-sub-title', text: t('answer.nearest') }),
      h('div', { class: 'answer-headline small-headline' }, planHeadline(r, '/recommendation/nearest', rec.nearest, false)),
      riskBadges(rec.nearest),
      h('div', { class: 'answer-actions' }, pinButton(rec.nearest, t('answer.pin_nearest')))));
    card.appendChild(reasonList(r, '/recommendation/nearest', rec.nearest));
  } else {
    card.appendChild(h('p', { class: 'muted', text: t('answer.nothing_fits_hint') }));
    append(card, rejectedList(r, rec));
  }
  append(card, relaxButtons(rec));
  body.appendChild(card);
}

function renderAnswer(body, r, ctx) {
  const rec = r.recommendation;
  body.appendChild(goalLine(r, rec));
  if (!rec.best) {
    noPlan(body, r, rec);
    return;
  }
  const best = rec.best;
  const card = h('div', { class: 'answer answer-best' });
  card.appendChild(h('div', { class: 'answer-top' },
    h('div', { class: 'answer-main' },
      h('div', { class: 'answer-kicker', text: t('answer.recommended') }),
      h('div', { class: 'answer-headline', id: 'answer-headline' }, planHeadline(r, '/recommendation/best', best, false))),
    h('div', { class: 'answer-actions' }, pinButton(best, t('answer.pin_best')))));
  append(card, riskBadges(best));
  append(card, planWarnings(best));
  append(card, datacenterAlternative(r, rec));
  card.appendChild(reasonList(r, '/recommendation/best', best));
  const hw = ctx && ctx.request && ctx.request.hardware;
  if (hw && !isPinned(best)) {
    // The panels below follow the pinned hardware, not this plan: say so.
    card.appendChild(h('p', { class: 'answer-pinned-other' }, t('answer.other_pinned', { n: hw.count === undefined ? 1 : hw.count, gpu: gpuName(hw.gpu) }), ' ',
      h('button', { type: 'button', class: 'link-btn small unpin', text: t('answer.unpin'), onclick: unpin })));
  }
  append(card, h('div', { class: 'answer-cols' }, runnersUp(r, rec), levers(r, rec, ctx)));
  card.appendChild(h('p', { class: 'answer-foot muted' }, t('answer.foot'), ' ',
    h('button', { type: 'button', class: 'link-btn small', text: t('answer.to_compare'), onclick: function () { showPanel('compare'); } })));
  body.appendChild(card);
  if (ctx && ctx.actions) {
    const goal = fieldForPath('/goal/objective');
    if (goal) ctx.actions.appendChild(h('button', { type: 'button', class: 'link-btn small', text: t('answer.change_goal'), onclick: function () { focusField(goal); } }));
  }
}

export default { id: 'answer', titleKey: 'panel.answer', fixed: true, render: renderAnswer, showsLevers: true,
  applies: function (r) { return Boolean(r.recommendation); } };
