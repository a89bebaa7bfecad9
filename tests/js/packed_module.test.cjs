#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The site's packed module (dist/site/gpu_advisor.js, the wasm stored as xz) works for a host
// that calls createGpuAdvisor() with no options, as the raw build does: it inflates its own
// module, and gives the same catalog as when the page passes the bytes itself.
//
//   node tests/js/packed_module.test.cjs <distDir>
'use strict';

const fs = require('fs');
const path = require('path');
const { storedModule } = require('../../scripts/dist_pack.cjs');

const dist = path.resolve(process.argv[2] || 'dist');
const file = path.join(dist, 'site', 'gpu_advisor.js');
const factory = require(file);

async function main() {
  const stored = storedModule(fs.readFileSync(file, 'utf8'));
  if (typeof factory !== 'function' || !stored) throw new Error('the packed module exports no factory with its stored wasm');
  const plain = await factory();
  const bytes = new Uint8Array(stored.wasm); // decoded by the xz command, not the loader's decoder
  const given = await factory({ wasmBinary: bytes });
  const a = JSON.parse(plain.catalog()), b = JSON.parse(given.catalog());
  if (!Array.isArray(a.gpus) || a.gpus.length === 0) throw new Error('no catalog without options');
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('the two loads disagree');
  const answer = JSON.parse(plain.advise(JSON.stringify(a.default_request)));
  if (answer.error) throw new Error('advise failed: ' + answer.error.message);
  console.log(`packed module: createGpuAdvisor() with no options loads (${a.gpus.length} GPUs), same catalog as with wasmBinary`);
}

main().catch((e) => { console.error('FAIL ' + e.message); process.exit(1); });
