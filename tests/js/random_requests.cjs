// SPDX-License-Identifier: MIT
// Random valid-looking requests from a fixed seed (issue 12, invariants and native == wasm):
// every task, presets and pinned GPUs from the catalog, training, inference, parallelism, power,
// cost and capacity inputs drawn from their usual ranges. Some combinations are refused by the
// advisor (fp8 on a part without FP8, TP not dividing the heads): those answers are compared too.
'use strict';

/** mulberry32: a small, fast PRNG with a 32-bit seed (same sequence on every platform). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` requests from `seed`; `catalog` is the module's catalog() (GPU ids, model presets).
 * @returns {object[]}
 */
function randomRequests(seed, count, catalog) {
  const r = prng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const maybe = (p) => r() < p;
  const gpus = catalog.gpus.map((g) => g.id);
  // Small and medium presets keep the run fast; the large ones come up too.
  const presets = catalog.models.map((m) => m.id);
  const tasks = ['pretrain', 'full_finetune', 'lora', 'qlora', 'inference'];
  const out = [];
  for (let i = 0; i < count; i++) {
    const task = pick(tasks);
    const q = { schema: 1, task, model: { preset: pick(presets) } };
    if (task !== 'inference') {
      const t = {};
      if (maybe(0.5)) t.sequence_length = pick([512, 1024, 2048, 4096, 8192, 32768]);
      if (maybe(0.4)) t.micro_batch_size = pick([1, 2, 4, 8]);
      if (maybe(0.3)) t.activation_checkpointing = pick(['none', 'selective', 'full']);
      if (maybe(0.2)) t.precision = pick(['bf16', 'fp16', 'fp8']);
      if (maybe(0.2)) t.optimizer = pick(['adamw', 'adamw_8bit', 'sgd']);
      if (maybe(0.2)) t.flash_attention = maybe(0.5);
      if (maybe(0.3)) t.tokens = pick([1e8, 1e9, 2e10, 1e12]);
      if (task === 'lora' || task === 'qlora') {
        if (maybe(0.4)) t.lora_rank = pick([8, 16, 64, 256]);
        if (maybe(0.3)) t.lora_targets = pick(['attention', 'all_linear', ['q', 'v']]);
      }
      if (Object.keys(t).length) q.training = t;
      if (maybe(0.4)) q.parallelism = { zero: pick([0, 1, 2, 3]) };
    } else {
      const inf = {};
      if (maybe(0.4)) inf.weight_format = pick(['bf16', 'fp8', 'int8', 'int4', 'nf4', 'gguf_q4_k_m']);
      if (maybe(0.3)) inf.kv_cache_precision = pick(['bf16', 'fp8', 'int8']);
      if (maybe(0.5)) inf.concurrency = pick([1, 4, 16, 64, 256]);
      if (maybe(0.4)) inf.prompt_tokens = pick([128, 1024, 8192]);
      if (maybe(0.3)) inf.output_tokens = pick([64, 512, 2048]);
      if (maybe(0.2)) {
        inf.target_users = pick([10, 200, 5000]);
        if (maybe(0.5)) inf.target_tokens_per_second_per_user = pick([5, 20, 60]);
      }
      if (Object.keys(inf).length) q.inference = inf;
    }
    if (maybe(0.6)) q.hardware = { gpu: pick(gpus), count: pick([1, 2, 4, 8, 16, 32]) };
    if (maybe(0.3)) q.power = { facility: pick(['idc', 'office']) };
    if (maybe(0.4)) {
      q.cost = {};
      if (maybe(0.5)) q.cost.utilization = pick([0, 0.1, 0.5, 0.7, 1]);
      if (maybe(0.3)) q.cost.site = pick(['shenzhen', 'dongguan', 'huizhou', 'shaoguan']);
      if (maybe(0.3)) q.cost.life_years = pick([3, 5, 7]);
      if (maybe(0.2)) q.cost.monthly_demand_gpu_hours = Array.from({ length: 12 }, () => Math.round(r() * 5000));
      if (q.cost.monthly_demand_gpu_hours && q.cost.utilization !== undefined) delete q.cost.utilization;
    }
    if (maybe(0.15)) {
      const rows = ['job,gpu_type,gpus,hours,month'];
      const n = 1 + Math.floor(r() * 6);
      for (let k = 0; k < n; k++) {
        rows.push(`j${k},${pick(gpus)},${pick([1, 8, 64])},${Math.round(r() * 500) + 1},2026-0${1 + Math.floor(r() * 9)}`);
      }
      q.capacity = { jobs_csv: rows.join('\n') };
    }
    out.push(q);
  }
  return out;
}

module.exports = { prng, randomRequests };
