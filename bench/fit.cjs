#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Fits the few free constants of data/performance.json on the rows of the FIT sources (every
// source but the unseen ones, bench/unseen_sources.json), never per case, by a grid over each:
//   A. memory_bandwidth_efficiency and decode_layer_floor_us, together, on the 16-bit decode
//      rows at batch 1 (gpt-fast, torchao, LMDeploy: bandwidth-bound by design; model sizes
//      7B-70B and TP 1-8 separate the per-byte from the per-layer time); then the CUDA-core
//      operations weight-only kernels spend dequantising each weight, on the int8 (gpt-fast,
//      torchao) and int4 (those A100s and AutoAWQ's RTX 4090: FP32 rates per byte 4x apart) rows;
//   B. framework_efficiency and the training stacks' activation_traffic_passes (one value for the
//      eager stacks, one for the fused ones: FUSED_STACKS) and the share of tensor-parallel
//      traffic Megatron's overlap hides (only rows that state the overlap move it), together, on
//      training throughput and GPU-hour rows;
//   C. kv_read_bandwidth_factor and the tensorrt_llm stack's efficiency_factor, together, on the
//      TensorRT-LLM serving rows (large batches: KV reads and compute-bound decode);
//   D. the vllm and sglang stacks' host time per running sequence per step (one value for both),
//      on their throughput rows (offline benchmarks at full load, a server at request rate inf).
// Loss: mean |ln(predicted / measured)| (robust to the few rows whose setup is uncertain).
//
// Leave-one-source-out (losoErrors, printed by bench/calibrate.cjs): for each fit source, the
// same fit on the other fit sources, then that source's rows predicted with it. Every (constants,
// row) pair is evaluated once and kept, so the folds reuse the full fit's grid wherever they
// reach the same earlier stages.
//
// Usage: node bench/fit.cjs build/gpu-advisor [--write] [--pick-unseen]
//   --write        stores the constants fitted on all fit sources in data/performance.json
//   --pick-unseen  writes bench/unseen_sources.json (cases.cjs pickUnseen; only sources whose
//                  removal leaves every fitted constant rows of two sources may be chosen)
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { evaluateMany, loadRows, cliAdviseMany, group } = require('./calibrate.cjs');
const { isUnseen, pickUnseen } = require('./cases.cjs');

const root = path.join(__dirname, '..');

// Stacks whose norms, rotary and activation functions run as fused kernels (Transformer Engine,
// torch.compile, Unsloth's Triton kernels); the other training stacks run eager PyTorch operators.
const FUSED_STACKS = ['unsloth', 'fsdp_compile', 'megatron'];
const SERVING_KEYS = ['kv_read_bandwidth_factor', 'decode_layer_floor_us',
                      'int8_dequant_ops_per_weight', 'int4_dequant_ops_per_weight'];
// vLLM and SGLang share one host time per sequence: both schedule, sample and detokenize in
// Python between CUDA-graph steps, and neither alone has rows from enough sources to separate it.
const OPEN_ENGINES = ['vllm', 'sglang'];
const openEngineRow = (r) => group(r) === 'inference' && /^(vllm|sglang)/.test(r.id);

/** performance.json `base` with `point` applied: {framework_efficiency, ..., eager_traffic_passes}. */
function withPoint(base, point) {
  const p = JSON.parse(JSON.stringify(base));
  for (const [k, v] of Object.entries(point)) {
    if (k === 'framework_efficiency' || k === 'memory_bandwidth_efficiency') p.compute[k].value = v;
    else if (SERVING_KEYS.includes(k)) p.serving[k].value = v;
    else if (k === 'eager_traffic_passes' || k === 'fused_traffic_passes') {
      const fused = k === 'fused_traffic_passes';
      for (const st of p.stacks.filter((x) => x.kind === 'training' && FUSED_STACKS.includes(x.id) === fused)) {
        st.activation_traffic_passes.value = v;
      }
    } else if (k === 'tensorrt_llm_efficiency') p.stacks.find((s) => s.id === 'tensorrt_llm').efficiency_factor.value = v;
    else if (k === 'open_engine_host_us') {
      for (const id of OPEN_ENGINES) p.stacks.find((s) => s.id === id).host_us_per_sequence.value = v;
    }
    else if (k === 'megatron_tp_overlap_share') p.stacks.find((s) => s.id === 'megatron').tp_overlap_hidden_share.value = v;
    else throw new Error(`unknown constant ${k}`);
  }
  return p;
}

const range = (a, b, step) => {
  const out = [];
  for (let x = a; x <= b + 1e-9; x += step) out.push(Math.round(x * 1000) / 1000);
  return out;
};

// Decode at batch 1 on the default serving profile (no stack named: gpt-fast, torchao, LMDeploy's
// fixed batch of 1, AutoAWQ): the weights' bytes and the per-layer floor set the step.
const isDecode = (...formats) => (r) => {
  const req = r.request || {};
  return req.task === 'inference' && !req.stack && req.inference.concurrency === 1
    && formats.includes(req.inference.weight_format);
};
const trainingRow = (r) => ['train_throughput', 'train_gpu_hours'].includes(group(r));

// The grid of each constant. The fused stacks' pass count stays within the eager one's and at
// most 3 (a fused kernel reads and writes each activation about once per direction).
const MAX_FUSED_PASSES = 3;
const AXES = {
  memory_bandwidth_efficiency: () => range(0.6, 0.95, 0.01),
  decode_layer_floor_us: () => range(0, 100, 2),
  int8_dequant_ops_per_weight: () => range(0, 40, 0.5),
  int4_dequant_ops_per_weight: () => range(0, 40, 0.5),
  framework_efficiency: () => range(0.7, 0.9, 0.02),
  eager_traffic_passes: () => range(0, 8, 1),
  fused_traffic_passes: (p) => range(0, Math.min(p.eager_traffic_passes, MAX_FUSED_PASSES), 1),
  kv_read_bandwidth_factor: () => range(0.3, 1.0, 0.1),
  tensorrt_llm_efficiency: () => range(0.8, 1.6, 0.1),
  open_engine_host_us: () => range(0, 300, 5),
  megatron_tp_overlap_share: () => range(0, 1, 0.1),
};

/** The fit's stages, in order (each sees the constants the earlier ones fitted). */
const STAGES = [
  { name: 'A', keys: ['memory_bandwidth_efficiency', 'decode_layer_floor_us'], rows: isDecode('bf16', 'fp16') },
  { name: 'int8', keys: ['int8_dequant_ops_per_weight'], rows: isDecode('int8') },
  { name: 'int4', keys: ['int4_dequant_ops_per_weight'], rows: isDecode('int4') },
  { name: 'B', keys: ['framework_efficiency', 'eager_traffic_passes', 'fused_traffic_passes',
                      'megatron_tp_overlap_share'], rows: trainingRow },
  { name: 'C', keys: ['kv_read_bandwidth_factor', 'tensorrt_llm_efficiency'], rows: (r) => /^trt/.test(r.id) },
  { name: 'D', keys: ['open_engine_host_us'], rows: openEngineRow },
];

/** The value `base` (performance.json) holds for a fitted constant. */
function currentValue(base, key) {
  if (base.compute[key]) return base.compute[key].value;
  if (base.serving[key]) return base.serving[key].value;
  const stack = (id) => base.stacks.find((s) => s.id === id);
  if (key === 'eager_traffic_passes') return stack('hf_peft').activation_traffic_passes.value;
  if (key === 'fused_traffic_passes') return stack(FUSED_STACKS[0]).activation_traffic_passes.value;
  if (key === 'tensorrt_llm_efficiency') return stack('tensorrt_llm').efficiency_factor.value;
  if (key === 'open_engine_host_us') return stack(OPEN_ENGINES[0]).host_us_per_sequence.value;
  if (key === 'megatron_tp_overlap_share') return stack('megatron').tp_overlap_hidden_share.value;
  throw new Error(`unknown constant ${key}`);
}

const pointKey = (point) => JSON.stringify(Object.keys(point).sort().map((k) => [k, point[k]]));

/**
 * Evaluations at many constant sets, each (constants, row) once: `errors(rows, point)` gives
 * each row's result at `point`, evaluating only the rows not seen there before in one batch.
 */
function makeEvaluator({ cli, base, noStack = false }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fit-'));
  const cache = new Map();
  let batches = 0;
  const errors = (rows, point) => {
    const key = pointKey(point);
    if (!cache.has(key)) cache.set(key, new Map());
    const seen = cache.get(key);
    const missing = rows.filter((r) => !seen.has(r.id));
    if (missing.length) {
      const file = path.join(tmp, 'performance.json');
      fs.writeFileSync(file, JSON.stringify(withPoint(base, point)));
      const results = evaluateMany(missing, cliAdviseMany(cli, ['--performance', file], { noStack }));
      missing.forEach((r, i) => seen.set(r.id, results[i]));
      batches += 1;
    }
    return rows.map((r) => seen.get(r.id));
  };
  const close = () => fs.rmSync(tmp, { recursive: true });
  return { errors, close, base, batches: () => batches };
}

/** Mean |ln(predicted / measured)| of `rows` at `point`. */
function loss(evaluator, rows, point) {
  const errs = evaluator.errors(rows, point)
    .filter((e) => e.predicted > 0 && e.measured > 0)
    .map((e) => Math.abs(Math.log(e.predicted / e.measured)));
  return errs.reduce((a, b) => a + b, 0) / Math.max(1, errs.length);
}

/**
 * Coordinate descent over the stage's grids from `start`: each constant in turn takes the grid
 * value of least loss with the others held, until a whole round moves none. A full grid over
 * two or three constants costs hundreds of evaluations of every row per fold; the losses are
 * smooth in each constant (a local minimum of the grid is what the descent returns).
 */
function descend(evaluator, rows, keys, start) {
  let cur = start;
  let curLoss = loss(evaluator, rows, cur);
  for (let moved = true; moved;) {
    moved = false;
    for (const key of keys) {
      for (const v of AXES[key](cur)) {
        const p = { ...cur, [key]: v };
        const l = loss(evaluator, rows, p);
        if (l < curLoss - 1e-12) {
          cur = p;
          curLoss = l;
          moved = true;
        }
      }
    }
  }
  return { point: cur, loss: curLoss };
}

/** The stages fitted on `rows`: {point, stages: [{name, keys, n, loss, point}]}. Each starts
 *  from the constants of `base`; a stage without rows keeps them. */
function fitConstants(evaluator, rows) {
  let fitted = {};
  const report = [];
  for (const st of STAGES) {
    const start = { ...fitted };
    for (const k of st.keys) start[k] = currentValue(evaluator.base, k);
    const mine = rows.filter(st.rows);
    if (!mine.length) {
      fitted = start;
      report.push({ name: st.name, keys: st.keys, n: 0, point: start });
      continue;
    }
    const best = descend(evaluator, mine, st.keys, start);
    fitted = best.point;
    report.push({ name: st.name, keys: st.keys, n: mine.length, loss: best.loss, point: best.point });
  }
  return { point: fitted, stages: report };
}

/** Rows any fit may read: the fit sources' expressible rows. */
function fitRowsOf(rows) {
  return rows.filter((r) => !r.skip && !isUnseen(r.source_id) && !/^azure-/.test(r.id));
}

/**
 * Leave-one-source-out: Map row id → error % of that row predicted with the constants fitted
 * on every other fit source (the stacks named in the rows; with noStack the held-out rows are
 * then replayed without theirs).
 */
function losoErrors(rows, { cli, perfFile, noStack = false }) {
  const base = JSON.parse(fs.readFileSync(perfFile));
  const fitter = makeEvaluator({ cli, base });
  const predictor = noStack ? makeEvaluator({ cli, base, noStack }) : fitter;
  const fitRows = fitRowsOf(rows);
  const out = new Map();
  for (const source of [...new Set(fitRows.map((r) => r.source_id))]) {
    const { point, stages } = fitConstants(fitter, fitRows.filter((r) => r.source_id !== source));
    // A row of a stage no other source has rows for gets no LOSO figure: its constants could
    // only keep the values fitted with it.
    const unfitted = STAGES.filter((st, i) => stages[i].n === 0);
    const mine = fitRows.filter((r) => r.source_id === source && !unfitted.some((st) => st.rows(r)));
    predictor.errors(mine, point).forEach((e, i) => {
      if (e.errorPct !== undefined) out.set(mine[i].id, e.errorPct);
    });
  }
  fitter.close();
  if (predictor !== fitter) predictor.close();
  return out;
}

/** Whether a source may join the unseen ones already `taken`: not when a stage fitted on two
 *  sources or more would be left with fewer than two (a default resting on one source) or one
 *  with a single source would be left with none (a constant unfitted). */
function keepsTwoSources(rows) {
  const perStage = STAGES.map((st) => new Set(rows.filter((r) => !r.skip && st.rows(r)).map((r) => r.source_id)));
  return (taken, id) => perStage.every((ids) => {
    if (!ids.has(id)) return true;
    const left = [...ids].filter((x) => x !== id && !taken.has(x)).length;
    return left >= Math.min(2, ids.size);
  });
}

function writeConstants(perfPath, fitted) {
  let out = fs.readFileSync(perfPath, 'utf8');
  const set = (pattern, value) => {
    if (value === undefined) return;  // a stage without rows keeps its value
    const re = new RegExp(pattern);
    if (!re.test(out)) throw new Error(`not found: ${pattern}`);
    out = out.replace(re, (m, a1) => `${a1}${value}`);
  };
  for (const k of ['framework_efficiency', 'memory_bandwidth_efficiency', ...SERVING_KEYS]) {
    set(`("${k}": \\{\\s*"value": )[0-9.]+`, fitted[k]);
  }
  set('("id": "tensorrt_llm"[\\s\\S]*?"efficiency_factor": \\{\\s*"value": )[0-9.]+', fitted.tensorrt_llm_efficiency);
  for (const id of OPEN_ENGINES) {
    set(`("id": "${id}"[\\s\\S]*?"host_us_per_sequence": \\{\\s*"value": )[0-9.]+`, fitted.open_engine_host_us);
  }
  set('("id": "megatron"[\\s\\S]*?"tp_overlap_hidden_share": \\{\\s*"value": )[0-9.]+', fitted.megatron_tp_overlap_share);
  const base = JSON.parse(out);
  for (const st of base.stacks.filter((s) => s.kind === 'training')) {
    set(`("id": "${st.id}"[\\s\\S]*?"activation_traffic_passes": \\{\\s*"value": )[0-9.]+`,
        FUSED_STACKS.includes(st.id) ? fitted.fused_traffic_passes : fitted.eager_traffic_passes);
  }
  fs.writeFileSync(perfPath, out);
}

function main() {
  const cli = process.argv[2] || path.join(root, 'build/gpu-advisor');
  const perfPath = path.join(root, 'data/performance.json');
  const rows = loadRows().filter((r) => !r.skip);
  if (process.argv.includes('--pick-unseen')) {
    const sources = pickUnseen(rows.map((r) => r.source_id), keepsTwoSources(rows));
    fs.writeFileSync(path.join(__dirname, 'unseen_sources.json'),
                     `${JSON.stringify({ sources }, null, 2)}\n`);
    console.log(`wrote bench/unseen_sources.json: ${sources.length} sources`);
    return;
  }
  const t0 = Date.now();
  const evaluator = makeEvaluator({ cli, base: JSON.parse(fs.readFileSync(perfPath)) });
  const fitRows = fitRowsOf(rows);
  const { point, stages } = fitConstants(evaluator, fitRows);
  for (const st of stages) {
    const values = st.keys.map((k) => `${k} = ${st.n ? st.point[k] : '(kept)'}`).join(', ');
    console.log(`${st.name}. ${values} (mean |ln error| ${st.n ? st.loss.toFixed(3) : '–'} over ${st.n} rows of `
                + `${new Set(fitRows.filter(STAGES.find((s) => s.name === st.name).rows).map((r) => r.source_id)).size} sources)`);
  }
  console.log(`${fitRows.length} rows of ${new Set(fitRows.map((r) => r.source_id)).size} fit sources; `
              + `${evaluator.batches()} batches, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  evaluator.close();
  if (process.argv.includes('--write')) {
    writeConstants(perfPath, point);
    console.log('wrote data/performance.json');
  }
}

if (require.main === module) main();

module.exports = { losoErrors, fitConstants, makeEvaluator, keepsTwoSources, STAGES };
