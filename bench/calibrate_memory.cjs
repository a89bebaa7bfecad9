// SPDX-License-Identifier: MIT
// Memory calibration (prints; asserts nothing): the calibration cases with a peak-memory,
// fits or largest-context measurement, expressed as requests and run through the CLI.
// Settings a source does not state are the recipe defaults named in `assumed`.
// Usage: node bench/calibrate_memory.cjs build/gpu-advisor
'use strict';
const { spawnSync } = require('child_process');

const cli = process.argv[2] || 'build/gpu-advisor';
const GIB = 2 ** 30;
const GB = 1e9;

// torchtune single-device recipes keep bf16 weights and bf16 AdamW states (no fp32 master).
const TORCHTUNE = { master_weights: false, optimizer_state_dtype: 'bf16' };

const cases = [
  { id: 'tt-l32-3b-flags-packed', unit: GIB, measured: 60.0, stat: 'active',
    assumed: 'torchtune bf16 AdamW, no checkpointing, unfused loss',
    request: { task: 'full_finetune', model: { preset: 'llama-3.2-3b' },
      training: { sequence_length: 4096, micro_batch_size: 2, accounting: TORCHTUNE },
      parallelism: { zero: 0 } } },
  { id: 'tt-l32-3b-flags-activation-ckpt', unit: GIB, measured: 24.9, stat: 'active',
    assumed: 'full checkpointing, chunked cross-entropy (fused)',
    request: { task: 'full_finetune', model: { preset: 'llama-3.2-3b' },
      training: { sequence_length: 4096, micro_batch_size: 2, activation_checkpointing: 'full',
        accounting: { ...TORCHTUNE, fused_cross_entropy: true } }, parallelism: { zero: 0 } } },
  { id: 'tt-l31-8b-qlora-4090', unit: GIB, measured: 7.4, stat: 'peak',
    assumed: 'rank 8 on attention + MLP, full checkpointing, compiled loss (fused)',
    request: { task: 'qlora', model: { preset: 'llama-3.1-8b' },
      training: { sequence_length: 2048, micro_batch_size: 2, lora_rank: 8,
        activation_checkpointing: 'full', accounting: { fused_cross_entropy: true } },
      parallelism: { zero: 0 } } },
  { id: 'tt-l2-7b-lora-4090', unit: GB, measured: 21.3, stat: 'peak',
    assumed: 'rank 8 on q,v, full checkpointing, sequences at the 2048 cap',
    request: { task: 'lora', model: { preset: 'llama-2-7b' },
      training: { sequence_length: 2048, micro_batch_size: 4, lora_rank: 8,
        lora_targets: ['q', 'v'], activation_checkpointing: 'full' }, parallelism: { zero: 0 } } },
  { id: 'qwen-readme-qwen7b-qlora-8192', unit: GB, measured: 23.5, stat: 'nvidia-smi',
    assumed: 'Qwen-7B v1 as fields, int4 base treated as NF4, rank 64 on all linear, full checkpointing',
    request: { task: 'qlora', model: { layers: 32, hidden: 4096, heads: 32, ffn_hidden: 11008,
      vocab: 151936, max_position_embeddings: 8192 },
      training: { sequence_length: 8192, micro_batch_size: 1, lora_rank: 64,
        activation_checkpointing: 'full' }, parallelism: { zero: 0 } } },
  { id: 'qlora-65b-single-48gb', unit: GIB, bound: 48, stat: 'fits within',
    assumed: 'QLoRA paper: rank 64 all linear, sequence 512, batch 1, full checkpointing',
    request: { task: 'qlora', model: { preset: 'llama-65b' },
      training: { sequence_length: 512, micro_batch_size: 1, lora_rank: 64,
        activation_checkpointing: 'full' }, parallelism: { zero: 0 } } },
  { id: 'llamafactory-l2-7b-qlora-fa2-65536-oom', unit: GIB, oom_on: 40, stat: 'OOM',
    assumed: 'rank 8 all linear; checkpointing not stated: full assumed (the favourable case)',
    request: { task: 'qlora', model: { preset: 'llama-2-7b' },
      training: { sequence_length: 65536, micro_batch_size: 1, lora_rank: 8,
        activation_checkpointing: 'full' }, parallelism: { zero: 0 } } },
  { id: 'uns-hf-l31-8b-qlora-80gb', capacity_gib: 80, measured_context: 28454,
    assumed: 'HF + FA2, rank 32 all linear, batch 1, full checkpointing, unfused loss',
    request: { task: 'qlora', model: { preset: 'llama-3.1-8b' },
      training: { micro_batch_size: 1, lora_rank: 32, activation_checkpointing: 'full' },
      parallelism: { zero: 0 } } },
  { id: 'uns-hf-l33-70b-qlora-a100-80gb', capacity_gib: 80, measured_context: 6916,
    assumed: 'HF + FA2, rank 32 all linear, batch 1, full checkpointing, unfused loss',
    request: { task: 'qlora', model: { preset: 'llama-3.1-70b' },
      training: { micro_batch_size: 1, lora_rank: 32, activation_checkpointing: 'full' },
      parallelism: { zero: 0 } } },
];

function perGpuBytes(request) {
  const out = spawnSync(cli, ['advise', '-'], { input: JSON.stringify({ schema: 1, ...request }), encoding: 'utf8' });
  const r = JSON.parse(out.stdout);
  if (r.error) throw new Error(`${r.error.path}: ${r.error.message}`);
  return r.memory.per_gpu_bytes;
}

/** Largest sequence length whose estimate fits in `capacityGib` (bisection). */
function largestContext(request, capacityGib) {
  let lo = 1, hi = 1 << 20;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    const req = JSON.parse(JSON.stringify(request));
    req.training.sequence_length = mid;
    if (perGpuBytes(req) <= capacityGib * GIB) lo = mid; else hi = mid - 1;
  }
  return lo;
}

const errors = [];
console.log('id'.padEnd(42), 'measured'.padStart(12), 'predicted'.padStart(12), 'error'.padStart(8), ' assumed');
for (const c of cases) {
  let measured, predicted, err = null;
  if (c.measured_context) {
    measured = `${c.measured_context} tok`;
    const ctx = largestContext(c.request, c.capacity_gib);
    predicted = `${ctx} tok`;
    err = ctx / c.measured_context - 1;
  } else {
    const bytes = perGpuBytes(c.request);
    const unitName = c.unit === GIB ? 'GiB' : 'GB';
    predicted = `${(bytes / c.unit).toFixed(2)} ${unitName}`;
    if (c.bound) {
      measured = `<= ${c.bound} ${unitName}`;
      err = bytes / c.unit <= c.bound ? 0 : bytes / c.unit / c.bound - 1;
    } else if (c.oom_on) {
      measured = `OOM ${c.oom_on}`;
      err = bytes / c.unit > c.oom_on ? 0 : 1 - bytes / c.unit / c.oom_on;
    } else {
      measured = `${c.measured} ${unitName}`;
      err = bytes / c.unit / c.measured - 1;
    }
  }
  errors.push(Math.abs(err));
  console.log(c.id.padEnd(42), String(measured).padStart(12), String(predicted).padStart(12),
              `${(err * 100).toFixed(1)}%`.padStart(8), ` ${c.assumed}`);
}
errors.sort((a, b) => a - b);
console.log(`\nmemory: median |error| ${(errors[Math.floor(errors.length / 2)] * 100).toFixed(1)}%, n=${errors.length} ` +
            '(bound and OOM cases count 0% when on the right side)');
