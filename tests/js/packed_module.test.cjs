#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// createGpuAdvisor() with no options works from every build a host may load (issue 30 item 5):
// the site's loader (dist/site/gpu_advisor.js, the module the file gpu_advisor.wasm beside it)
// and the packed loader (dist/site/gpu_advisor.packed.js, the single file's: the wasm stored as
// xz, which it inflates itself). Each gives the same catalog as the packed loader given the
// bytes by its host, and answers the default request.
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
}

main().catch((e) => { console.error('FAIL ' + e.message); process.exit(1); });
