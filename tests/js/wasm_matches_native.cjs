// SPDX-License-Identifier: MIT
// The wasm module must give the same answers as the native CLI: every request in a folder
// goes through both, and the JSON results are compared field by field.
// Usage: node wasm_matches_native.cjs <gpu-advisor CLI> <gpu_advisor.js> <requests dir>...
// (the golden requests and the bad requests).
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const [cli, wasmJs, ...dirs] = process.argv.slice(2);
if (!cli || !wasmJs || dirs.length === 0) {
  console.error('usage: wasm_matches_native.cjs <cli> <gpu_advisor.js> <requests dir>...');
  process.exit(2);
}
if (!fs.existsSync(wasmJs)) {
  console.error(`wasm module not found: ${wasmJs} (run scripts/build.sh first)`);
  process.exit(1);
}

const { differences } = require('./json_diff.cjs');

require(path.resolve(wasmJs))().then((module) => {
  let passed = 0;
  let failed = 0;
  const files = dirs.flatMap((dir) => fs.readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.result.json')).sort()
    .map((f) => path.join(dir, f)));
  for (const filePath of files) {
    const file = path.basename(filePath);
    const text = fs.readFileSync(filePath, 'utf8');
    const native = spawnSync(cli, ['advise', '-'], { input: text, encoding: 'utf8' });
    const nativeJson = JSON.parse(native.stdout);
    const wasmJson = JSON.parse(module.advise(text));
    const diff = differences(nativeJson, wasmJson, '', []);
    const isError = 'error' in nativeJson;
    const exitOk = isError ? native.status === 1 : native.status === 0;
    if (diff.length === 0 && exitOk) {
      passed++;
      console.log(`ok   ${file}${isError ? ` (error ${nativeJson.error.code} at ${nativeJson.error.path})` : ''}`);
    } else {
      failed++;
      console.log(`FAIL ${file}: exit ${native.status}; ${diff.slice(0, 5).join('; ')}`);
    }
  }
  // A corrupt provider catalog is answered with a located error, never a crash.
  const corrupt = JSON.parse(module.adviseWithCatalog(
    fs.readFileSync(files.find((f) => !path.basename(f).startsWith('bad_')), 'utf8'),
    '{"schema": 1, "as_of": "x", "gpus": [{"id": "x"}]}', ''));
  if (corrupt.error && corrupt.error.code === 'catalog_invalid' && corrupt.error.path.startsWith('gpus.json/gpus/0')) {
    passed++;
    console.log(`ok   corrupt catalog -> ${corrupt.error.path}`);
  } else {
    failed++;
    console.log(`FAIL corrupt catalog: ${JSON.stringify(corrupt)}`);
  }
  console.log(`wasm_matches_native: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}, (err) => {
  console.error(`wasm module failed to load: ${err}`);
  process.exit(1);
});
