#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Fits the few free constants of data/performance.json on the FIT split of the calibration rows
// (bench/cases.cjs isHeldOut: seed 11, 40% of cases held out), never per case, and reports the
// held-out error the fitted values give (bench/calibrate.cjs prints the full table):
//   A. memory_bandwidth_efficiency and decode_layer_floor_us, together, on the bf16 decode rows
//      (gpt-fast, batch 1: bandwidth-bound by design; model sizes 7B-70B and TP 1-8 separate
//      the per-byte from the per-layer time); then the int8 and int4 weight-only kernel factors
//      on the int8 and int4 decode rows;
//   B. framework_efficiency and the training stacks' activation_traffic_passes (one value for the
//      eager stacks, one for the fused ones: FUSED_STACKS), together, on training throughput and
//      GPU-hour rows;
//   C. kv_read_bandwidth_factor and the tensorrt_llm stack's efficiency_factor, together, on the
//      TensorRT-LLM serving rows (large batches: KV reads and compute-bound decode).
// Loss: mean |ln(predicted / measured)| (robust to the few rows whose setup is uncertain).
//
// Usage: node bench/fit.cjs build/gpu-advisor [--write]   (--write updates data/performance.json)
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { evaluate, loadRows, cliAdvise, median, group } = require('./calibrate.cjs');
const { isHeldOut } = require('./cases.cjs');

const root = path.join(__dirname, '..');
const cli = process.argv[2] || path.join(root, 'build/gpu-advisor');
const perfPath = path.join(root, 'data/performance.json');
const base = JSON.parse(fs.readFileSync(perfPath));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fit-'));

// Stacks whose norms, rotary and activation functions run as fused kernels (Transformer Engine,
// torch.compile, Unsloth's Triton kernels); the other training stacks run eager PyTorch operators.
const FUSED_STACKS = ['unsloth', 'fsdp_compile', 'megatron'];
const trainingStacks = base.stacks.filter((s) => s.kind === 'training');

/** performance.json with `point` applied: {framework_efficiency, ..., stack_efficiency: {id: x}}. */
function withPoint(point) {
  const p = JSON.parse(JSON.stringify(base));
  for (const [k, v] of Object.entries(point)) {
    if (k === 'framework_efficiency' || k === 'memory_bandwidth_efficiency') p.compute[k].value = v;
    else if (['kv_read_bandwidth_factor', 'decode_layer_floor_us', 'int8_decode_bandwidth_factor',
              'int4_decode_bandwidth_factor'].includes(k)) p.serving[k].value = v;
    else if (k === 'eager_traffic_passes' || k === 'fused_traffic_passes') {
      const fused = k === 'fused_traffic_passes';
      for (const st of p.stacks.filter((x) => x.kind === 'training' && FUSED_STACKS.includes(x.id) === fused)) {
        st.activation_traffic_passes.value = v;
      }
    } else if (k === 'tensorrt_llm_efficiency') p.stacks.find((s) => s.id === 'tensorrt_llm').efficiency_factor.value = v;
    else throw new Error(`unknown constant ${k}`);
  }
  return p;
}

function loss(rows, point) {
  const file = path.join(tmp, 'performance.json');
  fs.writeFileSync(file, JSON.stringify(withPoint(point)));
  const adviseFn = cliAdvise(cli, ['--performance', file]);
  const errs = rows.map((r) => evaluate(r, adviseFn))
    .filter((e) => e.predicted > 0 && e.measured > 0)
    .map((e) => Math.abs(Math.log(e.predicted / e.measured)));
  return errs.reduce((a, b) => a + b, 0) / Math.max(1, errs.length);
}

function search(rows, points) {
  let best = null;
  for (const p of points) {
    const l = loss(rows, p);
    if (!best || l < best.loss) best = { point: p, loss: l };
  }
  return best;
}

const range = (a, b, step) => {
  const out = [];
  for (let x = a; x <= b + 1e-9; x += step) out.push(Math.round(x * 1000) / 1000);
  return out;
};

const all = loadRows().filter((r) => !r.skip);
const fitRows = all.filter((r) => !isHeldOut(r.id) && !/^azure-/.test(r.id));
const decode = fitRows.filter((r) => /^gptfast-/.test(r.id));
const formatOf = (r) => (r.request.inference || {}).weight_format;
const training = fitRows.filter((r) => ['train_throughput', 'train_gpu_hours'].includes(group(r)));
const trt = fitRows.filter((r) => /^trt/.test(r.id));

const fitted = {};
const bf16 = decode.filter((r) => formatOf(r) === 'bf16');
const gridA = [];
for (const e of range(0.6, 0.95, 0.01)) {
  for (const t of range(0, 100, 2)) gridA.push({ memory_bandwidth_efficiency: e, decode_layer_floor_us: t });
}
const a = search(bf16, gridA);
Object.assign(fitted, a.point);
console.log(`A. memory_bandwidth_efficiency = ${a.point.memory_bandwidth_efficiency}, decode_layer_floor_us = `
            + `${a.point.decode_layer_floor_us} (mean |ln error| ${a.loss.toFixed(3)} over ${bf16.length} fit bf16 decode rows)`);
for (const [format, key] of [['int8', 'int8_decode_bandwidth_factor'], ['int4', 'int4_decode_bandwidth_factor']]) {
  const rows = decode.filter((r) => formatOf(r) === format);
  const q = search(rows, range(0.4, 1.0, 0.01).map((v) => ({ ...fitted, [key]: v })));
  Object.assign(fitted, q.point);
  console.log(`   ${key} = ${q.point[key]} (mean |ln error| ${q.loss.toFixed(3)} over ${rows.length} fit ${format} rows)`);
}
const gridB = [];
for (const e of range(0.7, 0.9, 0.02)) {
  for (const eager of range(0, 8, 1)) {
    for (const fused of range(0, Math.min(eager, 3), 1)) {
      gridB.push({ ...fitted, framework_efficiency: e, eager_traffic_passes: eager, fused_traffic_passes: fused });
    }
  }
}
const b = search(training, gridB);
Object.assign(fitted, b.point);
console.log(`B. framework_efficiency = ${b.point.framework_efficiency}, activation_traffic_passes eager = `
            + `${b.point.eager_traffic_passes}, fused = ${b.point.fused_traffic_passes} (mean |ln error| `
            + `${b.loss.toFixed(3)} over ${training.length} fit training rows)`);
const grid = [];
for (const kv of range(0.3, 1.0, 0.1)) {
  for (const e of range(0.8, 1.6, 0.1)) grid.push({ ...fitted, kv_read_bandwidth_factor: kv, tensorrt_llm_efficiency: e });
}
const c = search(trt, grid);
Object.assign(fitted, c.point);
console.log(`C. kv_read_bandwidth_factor = ${c.point.kv_read_bandwidth_factor}, tensorrt_llm efficiency_factor = `
            + `${c.point.tensorrt_llm_efficiency} (mean |ln error| ${c.loss.toFixed(3)} over ${trt.length} fit rows)`);

if (process.argv.includes('--write')) {
  const text = fs.readFileSync(perfPath, 'utf8');
  let out = text;
  const set = (pattern, value) => {
    const re = new RegExp(pattern);
    if (!re.test(out)) throw new Error(`not found: ${pattern}`);
    out = out.replace(re, (m, a1) => `${a1}${value}`);
  };
  set('("framework_efficiency": \\{\\s*"value": )[0-9.]+', fitted.framework_efficiency);
  set('("memory_bandwidth_efficiency": \\{\\s*"value": )[0-9.]+', fitted.memory_bandwidth_efficiency);
  set('("kv_read_bandwidth_factor": \\{\\s*"value": )[0-9.]+', fitted.kv_read_bandwidth_factor);
  set('("decode_layer_floor_us": \\{\\s*"value": )[0-9.]+', fitted.decode_layer_floor_us);
  set('("int8_decode_bandwidth_factor": \\{\\s*"value": )[0-9.]+', fitted.int8_decode_bandwidth_factor);
  set('("int4_decode_bandwidth_factor": \\{\\s*"value": )[0-9.]+', fitted.int4_decode_bandwidth_factor);
  set('("id": "tensorrt_llm"[\\s\\S]*?"efficiency_factor": \\{\\s*"value": )[0-9.]+', fitted.tensorrt_llm_efficiency);
  for (const st of trainingStacks) {
    set(`("id": "${st.id}"[\\s\\S]*?"activation_traffic_passes": \\{\\s*"value": )[0-9.]+`,
        FUSED_STACKS.includes(st.id) ? fitted.fused_traffic_passes : fitted.eager_traffic_passes);
  }
  fs.writeFileSync(perfPath, out);
  console.log('wrote data/performance.json');
}
fs.rmSync(tmp, { recursive: true });
