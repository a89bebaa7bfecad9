// SPDX-License-Identifier: MIT
// The wasm module must give the same answers as the native CLI: every request in a folder
// goes through both, and the JSON results are compared field by field.
// Usage: node wasm_matches_native.cjs <gpu-advisor CLI> <gpu_advisor.js> <requests dir>
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const [cli, wasmJs, dir] = process.argv.slice(2);
if (!cli || !wasmJs || !dir) {
  console.error('usage: wasm_matches_native.cjs <cli> <gpu_advisor.js> <requests dir>');
  process.exit(2);
}
if (!fs.existsSync(wasmJs)) {
  console.error(`wasm module not found: ${wasmJs} (run scripts/build.sh first)`);
  process.exit(1);
}

// Doubles computed by the same code on x86-64 and wasm32 agree except where libm differs.
const RELATIVE_TOLERANCE = 1e-9;

function differences(a, b, where, out) {
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b), 1e-300);
    if (Math.abs(a - b) / scale > RELATIVE_TOLERANCE) out.push(`${where}: native ${a} vs wasm ${b}`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${where}: length ${a.length} vs ${b.length}`);
    else a.forEach((v, i) => differences(v, b[i], `${where}/${i}`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      if (!(k in a) || !(k in b)) out.push(`${where}/${k}: present on one side only`);
      else differences(a[k], b[k], `${where}/${k}`, out);
    }
  } else if (a !== b) {
    out.push(`${where}: native ${JSON.stringify(a)} vs wasm ${JSON.stringify(b)}`);
  }
  return out;
}

require(path.resolve(wasmJs))().then((module) => {
  let passed = 0;
  let failed = 0;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  for (const file of files) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
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
    fs.readFileSync(path.join(dir, files.find((f) => !f.startsWith('bad_'))), 'utf8'),
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
