#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Every sentence the core returns as a code with parameters (issue 10 item 5) has words in both
// languages: each note of every golden result (tests/golden/*.result.json) is rendered by the
// page's noteText() (web/js/notes.js) from data/messages/*.json in zh-CN and en; it must find a template,
// leave no {placeholder} unfilled, and in zh-CN read as Chinese.   node tests/js/notes.test.cjs
'use strict';

const fs = require('fs');
const path = require('path');
const { loadWebModules } = require('./web_module.cjs');

const root = path.join(__dirname, '../..');
const UI = loadWebModules(['js/i18n.js', 'js/notes.js'], { document: {} });

const { notesOf } = require('./golden_notes.cjs');

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
