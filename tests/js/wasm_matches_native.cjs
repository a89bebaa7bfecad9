// SPDX-License-Identifier: MIT
// The wasm module must give the same answers as the native CLI, byte for byte: every request in
// a folder (the golden and the bad requests) and 200 random requests from a fixed seed go
// through both (on a mismatch the JSON difference is shown). Hostile input must not break the
// module (issue 12): deep nesting many times over, then the default request; 1e400 in a provider
// catalog. The glue must not evaluate code (no eval, no new Function: strict CSP).
// Usage: node wasm_matches_native.cjs <gpu-advisor CLI> <gpu_advisor.js> <requests dir>...
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
const { randomRequests } = require('./random_requests.cjs');

const RANDOM_SEED = 12;
const RANDOM_COUNT = 200;

/**
 * The page's two calls (adviseAnswer, then adviseLevers after the frame) put together: the whole
 * result's JSON, or a line saying where they differ.
 */
function partsDiffer(module, text, provider, wholeText) {
  const answer = JSON.parse(module.adviseAnswer(text, provider));
  const levers = JSON.parse(module.adviseLevers(text, provider));
  const whole = JSON.parse(wholeText);
  if (whole.error) return answer.error && JSON.stringify(answer) === wholeText ? null : 'the answer is not the same error';
  const rec = answer.recommendation;
  if (!rec || rec.levers_later !== true || rec.levers.length) return 'the answer does not leave its levers for later';
  rec.levers = levers.levers;
  delete rec.levers_later;
  return JSON.stringify(answer) === JSON.stringify(whole) ? null : 'answer + levers is not the whole result';
}

require(path.resolve(wasmJs))().then((module) => {
  let passed = 0;
  let failed = 0;
  const files = dirs.flatMap((dir) => fs.readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.result.json')).sort()
    .map((f) => path.join(dir, f)));
  const check = (name, text, quiet) => {
    const native = spawnSync(cli, ['advise', '-'], { input: text, encoding: 'utf8' });
    const nativeText = native.stdout.replace(/\n$/, '');
    const wasmText = module.advise(text);
    const nativeJson = JSON.parse(nativeText);
    const isError = 'error' in nativeJson;
    const exitOk = isError ? native.status === 1 : native.status === 0;
    const parts = partsDiffer(module, text, '', wasmText);
    if (nativeText === wasmText && exitOk && !parts) {
      passed++;
      if (!quiet) console.log(`ok   ${name}${isError ? ` (error ${nativeJson.error.code} at ${nativeJson.error.path.slice(0, 60)})` : ''}`);
    } else {
      failed++;
      const diff = differences(nativeJson, JSON.parse(wasmText), '', []);
      console.log(`FAIL ${name}: exit ${native.status}; ${parts || 'not byte-identical'}; ${diff.slice(0, 5).join('; ')}`);
    }
    return isError;
  };
  for (const filePath of files) check(path.basename(filePath), fs.readFileSync(filePath, 'utf8'));

  // Random requests from a fixed seed: byte for byte.
  const catalog = JSON.parse(module.catalog());
  let errors = 0;
  randomRequests(RANDOM_SEED, RANDOM_COUNT, catalog).forEach((q, i) => {
    if (check(`random ${i}`, JSON.stringify(q), true)) errors++;
  });
  console.log(`${RANDOM_COUNT} random requests (seed ${RANDOM_SEED}, ${errors} refused) compared`);

  // The glue evaluates no code (a page under script-src without 'unsafe-eval' must run it).
  const glue = fs.readFileSync(wasmJs, 'utf8');
  if (/new Function\s*\(|\beval\s*\(/.test(glue)) {
    failed++;
    console.log('FAIL the glue calls eval or new Function (link with -sDYNAMIC_EXECUTION=0)');
  } else {
    passed++;
    console.log('ok   no eval or new Function in the glue');
  }

  // Hostile input: 60 deeply nested requests (each one used to leak the stack), then the
  // default request; a provider catalog with 1e400.
  const deep = `{"schema": 1, "task": "pretrain", "model": {"preset": "llama-3.1-8b"}, "power": ${'['.repeat(20000)}${']'.repeat(20000)}}`;
  let hostileOk = true;
  for (let i = 0; i < 60; i++) {
    const e = JSON.parse(module.advise(deep)).error;
    if (!e || e.code !== 'limit_exceeded') hostileOk = false;
  }
  const after = JSON.parse(module.advise(JSON.stringify(catalog.default_request)));
  const overflow = JSON.parse(module.adviseWithCatalog(JSON.stringify(catalog.default_request),
    '{"schema": 1, "as_of": "x", "gpus": [{"id": "x", "tdp_watts": 1e400}]}', ''));
  if (hostileOk && !after.error && overflow.error && overflow.error.path === 'gpus.json/gpus/0/tdp_watts') {
    passed++;
    console.log('ok   60 deeply nested requests, then the default request; 1e400 in a catalog located');
  } else {
    failed++;
    console.log(`FAIL hostile input: nesting ${hostileOk}, default ${JSON.stringify(after.error)}, catalog ${JSON.stringify(overflow)}`);
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
  // A provider catalog (data/examples/provider-example.json): CLI --provider and
  // adviseWithProvider answer every golden request with the same bytes; a bad one alike.
  const providerFile = path.join(__dirname, '..', '..', 'data', 'examples', 'provider-example.json');
  const providerText = fs.readFileSync(providerFile, 'utf8');
  const badProvider = providerText.replace('"price_cny_per_gpu_hour": 1.88', '"price_cny_per_gpu_hour": -1');
  const providerCases = files.filter((f) => !path.basename(f).startsWith('bad_')).slice(0, 12)
    .map((f) => [path.basename(f), fs.readFileSync(f, 'utf8'), providerText, providerFile])
    .concat([['bad provider', JSON.stringify(catalog.default_request), badProvider, null]]);
  for (const [name, text, doc, file] of providerCases) {
    let docFile = file;
    if (!docFile) {
      docFile = path.join(require('os').tmpdir(), `gpu-advisor-provider-${process.pid}.json`);
      fs.writeFileSync(docFile, doc);
    }
    const native = spawnSync(cli, ['advise', '-', '--provider', docFile], { input: text, encoding: 'utf8' });
    const nativeText = native.stdout.replace(/\n$/, '');
    const wasmText = module.adviseWithProvider(text, doc);
    const parts = partsDiffer(module, text, doc, wasmText);
    if (parts) console.log(`     provider: ${name}: ${parts}`);
    if (nativeText === wasmText && !parts && (file || JSON.parse(wasmText).error.path === '/offers/0/price_cny_per_gpu_hour')) {
      passed++;
      console.log(`ok   provider: ${name}`);
    } else {
      failed++;
      console.log(`FAIL provider: ${name}: not byte-identical or not located: ${wasmText.slice(0, 200)}`);
    }
  }
  console.log(`wasm_matches_native: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}, (err) => {
  console.error(`wasm module failed to load: ${err}`);
  process.exit(1);
});
