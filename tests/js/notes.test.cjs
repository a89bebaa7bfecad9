#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Every sentence the core returns as a code with parameters (issue 10 item 5) has words in both
// languages: each note of every golden result (tests/golden/*.result.json) is rendered by the
// page's noteText() (web/js/notes.js) from web/i18n/*.js in zh-CN and en; it must find a template,
// leave no {placeholder} unfilled, and in zh-CN read as Chinese.   node tests/js/notes.test.cjs
'use strict';

const fs = require('fs');
const path = require('path');
const { loadWebModules } = require('./web_module.cjs');

const root = path.join(__dirname, '../..');
const UI = loadWebModules(['js/i18n.js', 'js/notes.js'], { document: {} });

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

let failed = 0;
let checked = 0;
const codes = new Set();
const dir = path.join(root, 'tests/golden');
for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.result.json')).sort()) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  for (const [prefix, note] of notesOf(r)) {
    codes.add(prefix + note.code);
    for (const lang of ['zh-CN', 'en']) {
      UI.setLang(lang);
      checked += 1;
      const key = prefix + note.code;
      const shown = UI.noteText(prefix, note);
      const problems = [];
      if (!UI.hasString(key) || !(key in UI.STRINGS[lang])) problems.push('no string ' + key + ' in ' + lang);
      if (/\{\w+[?!]?/.test(shown.text)) problems.push('unfilled placeholder');
      if (lang === 'zh-CN' && !/[\u4e00-\u9fff]/.test(shown.text)) problems.push('not Chinese');
      if (lang === 'en' && /[\u4e00-\u9fff]/.test(shown.text)) problems.push('Chinese in English');
      if (problems.length) {
        failed += 1;
        console.log('FAIL ' + f + ' ' + key + ' [' + lang + ']: ' + problems.join(', ') + ': ' + shown.text.slice(0, 200));
      }
    }
  }
}
console.log('notes: ' + checked + ' renderings of ' + codes.size + ' codes, ' + (failed ? failed + ' failed' : 'all in both languages'));
process.exit(failed || !checked ? 1 : 0);
