#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// createGpuAdvisor() with no options works from every build a host may load (issue 30 item 5):
// the site's loader (dist/site/gpu_advisor.js, the module the file gpu_advisor.wasm beside it)
// and the packed loader (dist/site/gpu_advisor.packed.js, the single file's: the wasm stored as
// xz, which it inflates itself). Each gives the same catalog as the packed loader given the
// bytes by its host, and answers the default request. The site's first loader
// (gpu_advisor_answer.js: the answer part, no validation entry points) answers the same requests
// as the whole module, byte for byte, and its whole() brings the whole one for validation.
//
//   node tests/js/packed_module.test.cjs <distDir>
'use strict';

const fs = require('fs');
const path = require('path');
const { storedModule } = require('../../scripts/dist_pack.cjs');

const site = path.resolve(process.argv[2] || 'dist', 'site');
const loaders = { 'the site\'s loader': 'gpu_advisor.js', 'the packed loader': 'gpu_advisor.packed.js' };

async function main() {
  const packedFile = path.join(site, loaders['the packed loader']);
  const stored = storedModule(fs.readFileSync(packedFile, 'utf8'));
  if (!stored) throw new Error(packedFile + ' stores no module');
  if (!stored.wasm.equals(fs.readFileSync(path.join(site, 'gpu_advisor.wasm')))) {
    throw new Error('the site\'s gpu_advisor.wasm is not the packed loader\'s module');
  }
  // Decoded by the xz command, not the loader's decoder.
  const given = await require(packedFile)({ wasmBinary: new Uint8Array(stored.wasm) });
  const expected = given.catalog();
  for (const [label, file] of Object.entries(loaders)) {
    const factory = require(path.join(site, file));
    if (typeof factory !== 'function') throw new Error(label + ' exports no factory');
    const core = await factory();
    const catalog = JSON.parse(core.catalog());
    if (!Array.isArray(catalog.gpus) || catalog.gpus.length === 0) throw new Error(label + ': no catalog without options');
    if (core.catalog() !== expected) throw new Error(label + ': a catalog unlike the one from the given bytes');
    const answer = JSON.parse(core.advise(JSON.stringify(catalog.default_request)));
    if (answer.error) throw new Error(label + ': advise failed: ' + answer.error.message);
    console.log(`${label} (${file}): createGpuAdvisor() with no options loads (${catalog.gpus.length} GPUs) and answers`);
  }
  await answerPart(given, JSON.parse(expected).default_request);
}

const VALIDATION = ['validationScripts', 'validationCheck', 'validationCheckServers'];

async function answerPart(whole, request) {
  const factory = require(path.join(site, 'gpu_advisor_answer.js'));
  if (typeof factory !== 'function' || typeof factory.whole !== 'function') throw new Error('gpu_advisor_answer.js exports no factory with whole()');
  const answer = await factory();
  if (answer.catalog() !== whole.catalog()) throw new Error('the answer part\'s catalog differs from the whole module\'s');
  const golden = ['finetune_llama31_8b', 'inference_deepseek_v3']
    .map((name) => JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'golden', name + '.request.json'), 'utf8')));
  for (const r of [request, ...golden, { workload: 'nonsense' }]) {
    const text = JSON.stringify(r);
    if (answer.advise(text) !== whole.advise(text)) throw new Error('the answer part answers ' + text.slice(0, 80) + ' unlike the whole module');
    if (answer.adviseAnswer(text, '') !== whole.adviseAnswer(text, '')) throw new Error('adviseAnswer differs for ' + text.slice(0, 80));
  }
  const present = VALIDATION.filter((name) => typeof answer[name] === 'function');
  if (present.length) throw new Error('the answer part carries ' + present.join(', '));
  const loaded = await (await factory.whole())();
  const scripts = JSON.parse(loaded.validationScripts(JSON.stringify(request)));
  if (scripts.error || !scripts.files.length) throw new Error('whole() gives no validation scripts');
  console.log(`the answer part (gpu_advisor_answer.js): the same answers, no validation; whole() writes ${scripts.files.length} scripts`);
}

main().catch((e) => { console.error('FAIL ' + e.message); process.exit(1); });
