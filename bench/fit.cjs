#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Fits the few free constants of the speed model by grid search (never per case):
//   A. memory_bandwidth_efficiency on the batch-1 decode cases (bandwidth-bound by design);
//   B. framework_efficiency on the BF16 training-throughput and GPU-hours cases (GEMM shape
//      efficiency follows from each part's roofline ridge point; it is not fitted).
// overlap_fraction is a prior (data/performance.json), not fitted: these cases run on NVLink
// where data-parallel traffic is small, so they cannot tell how much of it compute hides
// (--profile prints the loss against it).
// FP8 and serving-throughput cases are left out of the fit and reported as checks.
// Loss: mean |ln(predicted / measured)| (robust to the few cases whose setup is uncertain).
//
// Usage: node bench/fit.cjs build/gpu-advisor   (needs build/libadvisor_core.a and g++)
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { allCases } = require('./cases.cjs');

const root = path.join(__dirname, '..');
const cli = process.argv[2] || path.join(root, 'build/gpu-advisor');
const tool = path.join(root, 'build/fit_eval');
execFileSync('g++', ['-std=c++20', '-O2', `-I${root}/core`, path.join(__dirname, 'fit_eval.cpp'),
                     path.join(root, 'build/libadvisor_core.a'), '-o', tool]);

function advise(req) {
  const r = JSON.parse(execFileSync(cli, ['advise', '-'], { input: JSON.stringify(req) }));
  if (r.error) throw new Error(r.error.message);
  return r;
}

const calibration = JSON.parse(fs.readFileSync(path.join(__dirname, 'calibration.json')));
const cases = allCases(calibration).filter((c) => !c.skip);
for (const c of cases) if (c.pre) c.request = c.request(advise(c.pre));  // constant-independent

function evaluate(selected, grid) {
  const reqs = [];
  for (const c of selected) {
    c.index = reqs.length;
    reqs.push(c.request);
    if (c.request2) reqs.push(c.request2);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fit-'));
  fs.writeFileSync(path.join(dir, 'grid.json'), JSON.stringify(grid));
  fs.writeFileSync(path.join(dir, 'req.json'), JSON.stringify(reqs));
  const out = execFileSync(tool, [path.join(root, 'data/performance.json'),
                                  path.join(dir, 'grid.json'), path.join(dir, 'req.json')],
                           { maxBuffer: 1 << 30 });
  fs.rmSync(dir, { recursive: true });
  return JSON.parse(out).map((results) => selected.map((c) => {
    const p = c.request2
      ? c.read(results[c.index], c.request, results[c.index + 1], c.request2)
      : c.read(results[c.index], c.request);
    return Math.abs(Math.log(p / c.measured));
  }));
}

function search(selected, grid) {
  const losses = evaluate(selected, grid).map((errs) => errs.reduce((a, b) => a + b, 0) / errs.length);
  let best = 0;
  for (let i = 1; i < losses.length; ++i) if (losses[i] < losses[best]) best = i;
  return { point: grid[best], loss: losses[best] };
}

const range = (a, b, step) => {
  const out = [];
  for (let x = a; x <= b + 1e-9; x += step) out.push(Math.round(x * 1000) / 1000);
  return out;
};

// A. Decode bandwidth efficiency.
const decode = cases.filter((c) => c.id.startsWith('gptfast-'));
const a = search(decode, range(0.5, 0.95, 0.01).map((v) => ({ memory_bandwidth_efficiency: v })));
console.log(`A. memory_bandwidth_efficiency = ${a.point.memory_bandwidth_efficiency} `
            + `(mean |ln error| ${a.loss.toFixed(3)} over ${decode.length} decode cases)`);

// B. Compute efficiency and overlap.
const training = cases.filter((c) => (c.category === 'train_throughput'
                                      || c.category === 'train_gpu_hours'));
const perf = JSON.parse(fs.readFileSync(path.join(root, 'data/performance.json')));
const prior = perf.communication.overlap_fraction.value;
const grid = [];
for (const fe of range(0.5, 1.0, 0.01)) {
  for (const ov of range(0.0, 1.0, 0.1)) {
    grid.push({ framework_efficiency: fe, overlap_fraction: ov,
                memory_bandwidth_efficiency: a.point.memory_bandwidth_efficiency });
  }
}
const b = search(training, grid.filter((g) => Math.abs(g.overlap_fraction - prior) < 1e-9));
console.log(`B. ${JSON.stringify(b.point)} (mean |ln error| ${b.loss.toFixed(3)} over `
            + `${training.length} BF16 training cases, ${grid.length} grid points)`);

// Sensitivity: how well the data pins each constant (loss with one constant moved, the rest
// re-fitted over the grid).
function profile(name, values) {
  const rows = values.map((v) => {
    const sub = grid.filter((g) => Math.abs(g[name] - v) < 1e-9);
    const r = search(training, sub);
    return `${v}: ${r.loss.toFixed(3)}`;
  });
  console.log(`   profile ${name}: ${rows.join('  ')}`);
}
if (process.argv.includes('--profile')) {
  profile('overlap_fraction', range(0.0, 1.0, 0.1));
}
