// SPDX-License-Identifier: MIT
// The coded sentences of a result, each with the message prefix the page renders it under
// (notes.test.cjs renders them in both languages, messages.test.cjs through the CLI too).
'use strict';

/** [prefix, note] for every coded sentence of a result. */
function notesOf(r) {
  const out = [];
  const add = (prefix, note) => { if (note && note.code) out.push([prefix, note]); };
  for (const sec of [r.training, r.inference]) for (const n of (sec && sec.assumption_notes) || []) add('assume.', n);
  for (const a of (r.memory && r.memory.assumptions) || []) add('memnote.', a);
  for (const w of r.warnings || []) add('warnmsg.', w);
  // The risks of the parts (result.risks, each recommendation plan's): riskmsg.<reason>.
  const risks = (list) => { for (const x of list || []) add('riskmsg.', { code: x.reason, params: x.params }); };
  risks(r.risks);
  const rec = r.recommendation;
  if (rec) {
    for (const p of [rec.best, rec.datacenter_alternative, rec.nearest].concat((rec.runners_up || []).map((u) => u.plan), (rec.levers || []).map((l) => l.plan))) {
      if (!p) continue;
      risks(p.risks);
      for (const w of p.warnings || []) add('warnmsg.', w);
    }
  }
  for (const o of r.options || []) {
    if (o.reason_code) add('optnote.', { code: o.reason_code, params: o.reason_params });
    if (o.speed_note_code) add('optnote.', { code: o.speed_note_code, params: { gpu: o.name } });
  }
  if (r.power && r.power.office_verdict) {
    const v = r.power.office_verdict;
    add('office.reason.', { code: v.reason_code, params: v.reason_params });
  }
  if (r.cost) {
    add('costnote.hardware.', { code: r.cost.hardware.reason_code, params: {} });
    for (const m of r.cost.missing_prices || []) add('costnote.missing.', m);
    for (const o of Object.values(r.cost.options || {})) {
      for (const i of (o && o.line_items) || []) add('costbasis.', { code: i.basis_code, params: i.basis_params });
    }
    add('costnote.rule.', r.cost.seventy_percent_rule_reason);
  }
  return out;
}

module.exports = { notesOf };
