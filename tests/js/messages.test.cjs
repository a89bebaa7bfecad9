#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The message registry (data/messages/<lang>.json, read by the page and the CLI):
//   1. both languages have the same keys, every message parses, and each key uses the same
//      parameter names in both languages;
//   2. the CLI's renderer (cli/messages.cpp, `gpu-advisor words`) and the page's
//      (web/js/messages.js via notes.js) give the same words for every coded sentence of every
//      golden result, in both languages;
//   3. `gpu-advisor advise --lang` renders every golden request with no sentence left to the
//      core's English fallback ("[en]") and no {placeholder}, in both languages;
//   4. `gpu-advisor check --lang` names every item and words every reason of the sample logs.
//   node tests/js/messages.test.cjs build/gpu-advisor
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { loadWebModules } = require('./web_module.cjs');
const { notesOf } = require('./golden_notes.cjs');

const root = path.join(__dirname, '../..');
const cli = process.argv[2];
const UI = loadWebModules(['js/i18n.js', 'js/notes.js', 'js/messages.js'], { document: {} });
const LANGS = ['zh-CN', 'en'];
let failed = 0;
const fail = (what) => { failed += 1; if (failed <= 40) console.log('FAIL ' + what); };

// 1. the registry. A message may leave out a parameter in one language only with a reason here.
const OWN_PARAMS = {
  'warnmsg.deprecated_field': 'the Chinese page names a field by its label, never by its JSON pointer (docs/languages.md)',
};
const tables = LANGS.map((l) => UI.STRINGS[l]);
const keys = new Set(Object.keys(tables[0]).concat(Object.keys(tables[1])));
for (const key of keys) {
  const params = [];
  for (let i = 0; i < LANGS.length; i++) {
    if (typeof tables[i][key] !== 'string') { fail(key + ': no message in ' + LANGS[i]); continue; }
    try { params.push(UI.messageParams(tables[i][key]).join(',')); } catch (e) { fail(key + ' [' + LANGS[i] + ']: ' + e.message); }
  }
  if (params.length === 2 && params[0] !== params[1] && !OWN_PARAMS[key]) fail(key + ': parameters differ: zh-CN {' + params[0] + '} en {' + params[1] + '}');
}
console.log('registry: ' + keys.size + ' keys in both languages');

// 2. the CLI's words are the page's, sentence by sentence
const golden = path.join(root, 'tests/golden');
const requests = fs.readdirSync(golden).filter((f) => f.endsWith('.request.json')).sort();
const items = [];
for (const f of fs.readdirSync(golden).filter((x) => x.endsWith('.result.json')).sort()) {
  for (const [prefix, note] of notesOf(JSON.parse(fs.readFileSync(path.join(golden, f), 'utf8')))) {
    if (UI.hasString(prefix + note.code)) items.push({ key: prefix + note.code, prefix, note });
  }
}
let compared = 0;
for (const lang of LANGS) {
  UI.setLang(lang);
  const input = items.map((x) => JSON.stringify({ key: x.key, params: x.note.params || {} })).join('\n') + '\n';
  const lines = execFileSync(cli, ['words', '--lang', lang], { input, encoding: 'utf8' }).split('\n');
  items.forEach((x, i) => {
    const page = UI.noteText(x.prefix, x.note).text;
    compared += 1;
    if (page !== lines[i]) fail(x.key + ' [' + lang + ']:\n  page: ' + page + '\n  cli:  ' + lines[i]);
  });
}
console.log('page vs CLI: ' + compared + ' sentences compared');

// 3. the CLI's report of every golden request
let reports = 0;
for (const f of requests) {
  for (const lang of LANGS) {
    let text;
    try {
      text = execFileSync(cli, ['advise', path.join(golden, f), '--lang', lang], { encoding: 'utf8' });
    } catch (e) {
      text = String(e.stdout || '');
    }
    reports += 1;
    for (const line of text.split('\n')) {
      if (/\[en\]/.test(line)) fail(f + ' [' + lang + ']: no words: ' + line.slice(0, 160));
      if (/\{\w+/.test(line)) fail(f + ' [' + lang + ']: unfilled: ' + line.slice(0, 160));
      if (lang === 'en' && /[\u4e00-\u9fff]/.test(line)) fail(f + ' [en]: Chinese: ' + line.slice(0, 160));
    }
    if (lang === 'zh-CN' && !/[\u4e00-\u9fff]/.test(text)) fail(f + ' [zh-CN]: no Chinese');
  }
}
console.log('CLI reports: ' + reports + ' (' + requests.length + ' requests x 2 languages)');

// 4. `gpu-advisor check --lang`: every item named and every reason in words, in both languages
const samples = path.join(root, 'tests/validation/samples');
const request = path.join(golden, 'finetune_llama31_8b.request.json');
let checks = 0;
for (const f of fs.readdirSync(samples).sort()) {
  for (const lang of LANGS) {
    let text;
    try {
      text = execFileSync(cli, ['check', request, path.join(samples, f), '--lang', lang], { encoding: 'utf8' });
    } catch (e) {
      text = String(e.stdout || '');
    }
    checks += 1;
    for (const line of text.split('\n')) {
      const item = /^  \[[^\]]+\] [^·]+ · ([^:—]+)/.exec(line);
      if (item && /^[a-z0-9_]+$/.test(item[1].trim())) fail(f + ' [' + lang + ']: item without words: ' + line.slice(0, 160));
      if (/\[en\]/.test(line) && !/^  \[en\] /.test(line)) fail(f + ' [' + lang + ']: no words: ' + line.slice(0, 160));
      if (/\{\w+/.test(line)) fail(f + ' [' + lang + ']: unfilled: ' + line.slice(0, 160));
    }
  }
}
console.log('CLI check reports: ' + checks);
console.log(failed ? failed + ' failed' : 'all pass');
process.exit(failed || !compared || !reports ? 1 : 0);
