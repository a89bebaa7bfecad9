// SPDX-License-Identifier: MIT
// Maps the calibration cases (bench/calibration.json) onto advisor requests, one rule per kind
// of source, and says how to read the prediction back. Shared by calibrate.cjs and fit.cjs.
// Settings a source does not state are filled with the recipe defaults named in `assumed`.
'use strict';

/** Catalog id for a calibration GPU description, or null when the catalog lacks the part. */
function gpuId(text) {
  const t = String(text);
  if (/RTX 4090/.test(t)) return 'rtx4090-24gb';
  if (/A6000/.test(t)) return 'rtxa6000-48gb';
  if (/H200/.test(t)) return 'h200-sxm-141gb';
  if (/H800/.test(t)) return 'h800-sxm-80gb';
  if (/H100 NVL/.test(t)) return 'h100-nvl-94gb';
  if (/H100/.test(t)) return /PCIe/.test(t) ? 'h100-pcie-80gb' : 'h100-sxm-80gb';
  if (/A100/.test(t)) {
    const pcie = /PCIe/.test(t);
    if (/40 ?GB/.test(t)) return pcie ? 'a100-pcie-40gb' : 'a100-sxm-40gb';
    return pcie ? 'a100-pcie-80gb' : 'a100-sxm-80gb';
  }
  return null;
}

/** MPT / BLOOM-style architecture fields (llm-foundry yamls: ALiBi, plain GELU MLP, tied). */
function mptFields(m) {
  return {
    layers: m.layers, hidden: m.hidden, heads: m.heads, ffn_hidden: m.ffn || 4 * m.hidden,
    vocab: m.vocab || 50368, mlp: 'plain', position: 'alibi', tied_embeddings: true,
    norm: 'layernorm', max_position_embeddings: m.seq_len || 2048,
  };
}

const PRESETS = {
  'Llama 2 7B': 'llama-2-7b', 'Llama 2 13B': 'llama-2-13b', 'Llama 2 70B': 'llama-2-70b',
  'Llama 3.1 8B': 'llama-3.1-8b', 'Llama 3 8B': 'llama-3.1-8b', 'Llama 3.1 70B': 'llama-3.1-70b',
  'Llama 3 70B': 'llama-3.1-70b', 'Llama 3.3 70B Instruct': 'llama-3.1-70b',
  'Llama 3.1 405B': 'llama-3.1-405b', 'Llama 3.2 3B': 'llama-3.2-3b', 'LLaMA-1 65B': 'llama-65b',
  'DeepSeek-V3 (MoE, MLA)': 'deepseek-v3', 'Qwen3 32B': 'qwen3-32b',
};

function model(c) {
  const name = c.model.name;
  if (/^MPT-/.test(name)) return mptFields(c.model);
  if (PRESETS[name]) return { preset: PRESETS[name] };
  if (name === 'Qwen-7B (v1)') {
    return { layers: 32, hidden: 4096, heads: 32, ffn_hidden: 11008, vocab: 151936,
             max_position_embeddings: 8192 };
  }
  if (name === 'BLOOM-176B') {
    return { layers: 70, hidden: 14336, heads: 112, ffn_hidden: 4 * 14336, vocab: 250680,
             mlp: 'plain', position: 'alibi', tied_embeddings: true, norm: 'layernorm',
             max_position_embeddings: 2048 };
  }
  return null;
}

function fp8(method) { return /fp8|float8/i.test(String(method.precision || '')); }
function measured(c, metric) { return c.measured.find((m) => m.metric === metric); }
function num(x) { return typeof x === 'number' ? x : Number(String(x).replace(/[^0-9.]/g, '')); }

/** Training request from a case: task, model, precision, batch, layout. */
function trainRequest(c, o) {
  const training = {
    precision: o.precision || (fp8(c.method) ? 'fp8' : 'bf16'),
    sequence_length: o.seq || c.model.seq_len || c.method.seq_len,
    micro_batch_size: o.micro_batch || c.method.micro_batch || 1,
    activation_checkpointing: o.ckpt || 'none',
    flash_attention: true,
  };
  if (o.global_batch) training.global_batch_size = o.global_batch;
  if (o.tokens) training.tokens = o.tokens;
  if (o.lora_rank) training.lora_rank = o.lora_rank;
  if (o.lora_targets) training.lora_targets = o.lora_targets;
  if (o.optimizer) training.optimizer = o.optimizer;
  if (o.optimizer_in_backward) training.optimizer_in_backward = true;
  if (o.accounting) training.accounting = o.accounting;
  const req = {
    schema: 1, task: o.task || 'pretrain', model: model(c), training,
    hardware: { gpu: o.gpu || gpuId(c.hardware.gpu), count: o.count || num(c.hardware.count) },
    parallelism: { zero: o.zero === undefined ? 3 : o.zero, tp: o.tp || 1, pp: o.pp || 1,
                   ep: o.ep || 1 },
  };
  if (o.layout === 'advisor') {
    // The source does not state the layout: the advisor chooses TP/PP/ZeRO, checkpointing and
    // the micro-batch, as it would for a user who gives the same facts.
    delete req.parallelism;
    delete training.activation_checkpointing;
    if (!o.micro_batch) delete training.micro_batch_size;
  }
  if (o.cluster) req.cluster = o.cluster;
  if (o.stack) req.stack = o.stack;
  if (o.vp) req.parallelism.virtual_stages = o.vp;
  if (o.schedule) req.parallelism.pipeline_schedule = o.schedule;
  if (o.cp) req.parallelism.cp = o.cp;
  if (o.tp_comm_overlap) req.parallelism.tp_comm_overlap = true;
  if (o.power_limit_w) req.hardware.power_limit_w = o.power_limit_w;
  return req;
}

function inferRequest(c, o) {
  const req = {
    schema: 1, task: 'inference', model: model(c),
    inference: {
      weight_format: o.weight_format, kv_cache_precision: o.kv || 'bf16',
      concurrency: o.concurrency, prompt_tokens: o.prompt, output_tokens: o.output,
    },
    hardware: { gpu: o.gpu || gpuId(c.hardware.gpu), count: o.count || num(c.hardware.count) || 1 },
    parallelism: { tp: o.tp || 1, pp: 1 },
  };
  if (o.gpu_memory_utilization) req.inference.gpu_memory_utilization = o.gpu_memory_utilization;
  if (o.stack) req.stack = o.stack;
  if (o.power_limit_w) req.hardware.power_limit_w = o.power_limit_w;
  return req;
}

// Readers of a result.
const tpsPerGpu = (r, req) => r.training.tokens_per_second / req.hardware.count;
const tpsTotal = (r) => r.training.tokens_per_second;

/**
 * Case rules. Each returns {metric, measured, request, read(result, request), assumed} or
 * {skip}. `pre` (optional): a request whose result sets the main request (max concurrency).
 */
/**
 * Rows of calibration_more.json that carry `stated`: the request holds exactly what the source
 * states (model, GPU, count, tokens, sequence, batch, and a layout only where the source gives
 * one); everything else is the advisor's default, as for a user who knows the same facts.
 */
function statedRule(c) {
  const st = c.stated;
  const training = { sequence_length: st.seq, flash_attention: true };
  if (st.precision) training.precision = st.precision;
  if (st.tokens) training.tokens = st.tokens;
  if (st.global_batch) training.global_batch_size = st.global_batch;
  if (st.micro_batch) training.micro_batch_size = st.micro_batch;
  if (st.ckpt) training.activation_checkpointing = st.ckpt;
  const req = {
    schema: 1, task: st.task || 'pretrain',
    model: st.preset ? { preset: st.preset } : st.model, training,
    hardware: { gpu: st.gpu },
  };
  if (st.count) req.hardware.count = st.count;
  if (st.parallelism) req.parallelism = st.parallelism;
  if (st.cluster) req.cluster = st.cluster;
  if (st.stack) req.stack = st.stack;
  if (st.cpu_offload) training.cpu_offload = st.cpu_offload;
  const meas = c.measured[0];
  const read = {
    gpu_hours: (r) => r.training.gpu_hours,
    tokens_per_sec_per_gpu: tpsPerGpu,
  }[meas.metric];
  if (meas.metric === 'peak_gpu_memory_gib') {
    // Compared as memory rows are (calibrate.cjs evaluate): per_gpu_bytes in the source's unit.
    return { metric: 'peak_memory', unit: 2 ** 30, measured: meas.value, request: req,
             assumed: `as stated by the source: ${Object.keys(st).join(', ')}; the rest advisor defaults` };
  }
  if (!read) return { skip: `no reader for ${meas.metric}` };
  return {
    metric: meas.metric, measured: meas.value, request: req, read,
    assumed: `as stated by the source: ${Object.keys(st).join(', ')}; the rest advisor defaults`
      + (st.count ? '' : ' (GPU count not stated: the advisor chooses the pretraining count)'),
  };
}

/**
 * A serving engine's throughput as its source ran it (`method.engine_stack`: the profile, or
 * 'default' for an engine without one): a fixed batch (`batch`), or every request at once (an
 * offline benchmark, a server at request rate inf) at the most sequences the engine runs: its cap
 * (`max_seqs`, the engine's default or the source's flag), the prompts, and what the KV cache holds.
 */
function servingRule(c) {
  const m = c.method;
  const base = {
    weight_format: m.weights, kv: m.kv, prompt: m.isl, output: m.osl, tp: m.tp,
    count: num(c.hardware.count), stack: m.engine_stack === 'default' ? undefined : m.engine_stack,
  };
  const value = measured(c, 'output_throughput').value;
  if (m.batch) {
    return {
      metric: 'output_throughput', measured: value,
      request: inferRequest(c, { ...base, concurrency: m.batch }),
      read: m.batch === 1 ? (r) => r.inference.decode_tokens_per_second
        : (r) => r.inference.sustained_output_tokens_per_second,
      assumed: `${m.engine}: a fixed batch of ${m.batch}, ${m.isl} prompt and ${m.osl} output tokens`,
    };
  }
  const caps = [m.max_seqs, m.prompts].filter(Boolean);
  return {
    metric: 'output_throughput', measured: value,
    pre: inferRequest(c, { ...base, concurrency: 1 }),
    request: (pre) => inferRequest(c, {
      ...base, concurrency: Math.max(1, Math.min(pre.inference.max_concurrency, ...caps)),
    }),
    read: (r) => r.inference.sustained_output_tokens_per_second,
    assumed: `${m.engine}: every request at once, as many running as the KV cache holds`
      + (m.max_seqs ? ` (at most ${m.max_seqs})` : '') + `; ${m.isl} prompt and ${m.osl} output tokens`,
  };
}

function rule(c) {
  const id = c.id;
  const m = c.method;
  if (c.stated) return statedRule(c);
  if (m && m.engine_stack) return servingRule(c);
  // llm-foundry throughput tables: FSDP FULL_SHARD, stated micro/global batch and checkpointing.
  if (id.startsWith('foundry-')) {
    const meas = measured(c, 'tokens_per_sec_per_gpu');
    return {
      metric: 'tokens_per_sec_per_gpu', measured: meas.value,
      request: trainRequest(c, {
        precision: /fp8/.test(m.precision) ? 'fp8' : 'bf16', micro_batch: m.micro_batch,
        global_batch: m.global_batch, ckpt: m.activation_checkpointing ? 'full' : 'none', zero: 3,
        stack: 'hf_peft',
      }),
      read: tpsPerGpu,
      assumed: 'network between servers: advisor default; llm-foundry (Composer FSDP, eager, bf16 '
        + 'reduce) as the hf_peft profile',
    };
  }
  if (id === 'korthikanti2022-530b-2240xa100') {
    return { skip: 'sequence length, batch and TP/PP split are not in the case' };
  }
  if (id === 'llama3paper-405b-16384xh100-cp1') {
    return {
      metric: 'achieved_tflops_per_gpu', measured: measured(c, 'achieved_tflops_per_gpu').value,
      request: trainRequest(c, {
        micro_batch: 1, global_batch: 2048, tp: 8, pp: 16, zero: 1, ckpt: 'none',
        cluster: { inter_node_gbit_per_s_per_gpu: 400 }, stack: 'megatron', vp: 2,
      }),
      read: (r) => r.training.achieved_tflops_per_gpu,
      assumed: 'micro-batch 1, ZeRO-1, no recompute; 16M-token batch = 2048 sequences; '
        + 'interleaved 1F1B with 2 chunks per stage (126 layers: vp not stated)',
    };
  }
  if (id.startsWith('mbridge2511')) {
    // The row's own layout: TP8 x PP8 x CP2 (dp 8), VP8, micro-batch 1, global batch 512, FP8
    // current scaling; Megatron's distributed optimizer = ZeRO-1; DGX-H100: one 400 Gb/s
    // ConnectX-7 InfiniBand port per GPU (DGX H100 data sheet).
    return {
      metric: 'tokens_per_sec_per_gpu', measured: measured(c, 'tokens_per_sec_per_gpu').value,
      request: trainRequest(c, {
        precision: 'fp8', micro_batch: m.micro_batch, global_batch: m.global_batch, tp: m.tp,
        pp: m.pp, cp: m.cp, vp: m.vp, zero: 1, ckpt: 'none',
        cluster: { inter_node_network: 'ib_ndr400' }, stack: 'megatron', tp_comm_overlap: true,
      }),
      read: tpsPerGpu,
      assumed: 'Megatron distributed optimizer = ZeRO-1; no recompute (not stated); DGX-H100 '
        + 'NDR400 InfiniBand per GPU; TP communication overlap (the performance recipes\' '
        + 'CommOverlapConfig)',
    };
  }
  if (id.startsWith('mbridge2602')) return { skip: 'GPT-OSS 120B architecture not in the case' };
  if (id === 'mlperf40-llama2-70b-lora-1xdgxh100') {
    return {
      metric: 'tokens_per_second', measured: measured(c, 'train_samples_per_sec').value * 8192,
      request: trainRequest(c, {
        task: 'lora', precision: 'fp8', micro_batch: 1, global_batch: 8, tp: 4, zero: 0,
        lora_rank: 16, lora_targets: ['q', 'k', 'v', 'o'], ckpt: 'none', stack: 'megatron',
        tp_comm_overlap: true,
      }),
      read: tpsTotal,
      assumed: 'samples/s x 8192 tokens (sequences are packed to up to 8192); no recompute; TP '
        + 'communication overlap (NeMo\'s userbuffers: NVIDIA\'s MLPerf NeMo configs export '
        + 'TP_COMM_OVERLAP for TP > 1; this submission\'s config not read)',
    };
  }
  if (id.startsWith('nemo2407-')) {
    const lora = /lora/.test(id);
    const dp = num(c.hardware.count) / ((m.tp || 1) * (m.pp || 1));
    return {
      metric: 'tokens_per_sec_per_gpu', measured: measured(c, 'tokens_per_sec_per_gpu').value,
      request: trainRequest(c, {
        task: lora ? 'lora' : 'pretrain', precision: 'fp8', micro_batch: 1,
        global_batch: m.global_batch, tp: m.tp || 1, pp: m.pp || 1, zero: lora ? 0 : 1,
        lora_rank: lora ? 32 : undefined, lora_targets: lora ? ['q', 'k', 'v'] : undefined,
        stack: 'megatron', vp: m.vp && (c.model.layers || 80) % ((m.pp || 1) * m.vp) === 0 ? m.vp : undefined,
        tp_comm_overlap: true,
      }),
      read: tpsPerGpu,
      assumed: (lora ? 'NeMo LoRA defaults (rank 32 on fused QKV), DDP; ' : 'Megatron '
        + 'distributed optimizer = ZeRO-1; ') + `dp ${dp}; virtual pipeline stages `
        + `(vp=${m.vp}) interleaved where the layers divide; TP communication overlap (NeMo's `
        + 'performance recipes)',
    };
  }
  if (id.startsWith('titan-l31-70b')) {
    return {
      metric: 'tokens_per_sec_per_gpu', measured: measured(c, 'tokens_per_sec_per_gpu').value,
      request: trainRequest(c, {
        precision: 'fp8', micro_batch: 16, global_batch: 512, tp: 8, zero: 3, ckpt: 'full',
        cluster: { inter_node_network: 'ib_ndr400' }, stack: 'fsdp_compile',
        accounting: { logits_bytes_per_element: 12 }, tp_comm_overlap: /asynctp/.test(id),
        power_limit_w: TITAN_H100_WATTS,
      }),
      read: tpsPerGpu,
      assumed: 'H100 96GB/500W mapped to H100 SXM 80GB at a 500 W limit; local batch 16 per data-parallel rank '
        + '(32 ranks x 16 = 512); torch.compile on the blocks but the loss eager (torchtitan '
        + '9dec370 train.py: loss compile commented out) = 12 bytes per logit' + (/asynctp/.test(id) ? '; async TP = /parallelism/tp_comm_overlap' : ''),
    };
  }
  if (id === 'titan-l31-8b-8xh100-cp8-262k') {
    // Table 2's row: FSDP 1 x CP 8 on one 8-GPU host, sequence 262144, local batch 1, full
    // checkpointing, torch.compile + Float8 linears (the loss eager at that commit).
    return {
      metric: 'tokens_per_sec_per_gpu', measured: measured(c, 'tokens_per_sec_per_gpu').value,
      request: trainRequest(c, {
        precision: 'fp8', micro_batch: m.micro_batch, global_batch: m.micro_batch, zero: 3,
        ckpt: 'full', cp: m.cp, stack: 'fsdp_compile', accounting: TITAN_EAGER_LOSS,
        power_limit_w: TITAN_H100_WATTS,
      }),
      read: tpsPerGpu,
      assumed: 'H100 96GB/500W mapped to H100 SXM 80GB at a 500 W limit; FSDP shards over the 8 CP ranks '
        + '(torchtitan\'s dp_shard_cp mesh); blocks compiled, loss eager (12 bytes per logit)',
    };
  }
  if (id === 'titan-l31-8b-8xh100-fsdp') {
    return {
      metric: 'tokens_per_sec_per_gpu', measured: measured(c, 'tokens_per_sec_per_gpu').value,
      request: trainRequest(c, { micro_batch: 2, global_batch: 16, zero: 3, ckpt: 'selective',
                                 stack: 'fsdp_eager', power_limit_w: TITAN_H100_WATTS }),
      read: tpsPerGpu,
      assumed: 'H100 96GB/500W mapped to H100 SXM 80GB at a 500 W limit; the FSDP row of Table 1 runs without '
        + 'torch.compile (the next rows add it): eager FSDP2 profile',
    };
  }
  if (id === 'titan-trainy-l31-8b-64xh200') {
    return {
      metric: 'tokens_per_sec_per_gpu', measured: measured(c, 'tokens_per_sec_per_gpu').value,
      request: trainRequest(c, {
        precision: 'fp8', micro_batch: 2, global_batch: 128, zero: 3, ckpt: 'selective',
        cluster: { inter_node_network: 'ib_ndr400' }, stack: 'fsdp_compile',
      }),
      read: tpsPerGpu,
      assumed: 'global batch = 64 ranks x local batch 2',
    };
  }
  // Memory-table rows that also report throughput.
  if (id === 'qwen-readme-qwen7b-qlora-8192') {
    return {
      metric: 'step_time_s', measured: measured(c, 'step_time').value,
      request: trainRequest(c, {
        task: 'qlora', micro_batch: 1, global_batch: 8, zero: 0, ckpt: 'full', lora_rank: 64,
        lora_targets: 'all_linear', gpu: 'a100-sxm-80gb', count: 1, stack: 'hf_peft',
      }),
      read: (r) => r.training.step_time_s,
      assumed: 'GPTQ int4 base modelled as NF4 (4.1 vs 4.1 bits)',
    };
  }
  if (id === 'tt-l2-70b-lora-8xa100') {
    return {
      metric: 'tokens_per_second', measured: measured(c, 'training_throughput').value,
      request: trainRequest(c, {
        task: 'lora', micro_batch: 4, zero: 3, lora_rank: 16, lora_targets: ['q', 'k', 'v'],
        ckpt: 'full', count: 8, stack: 'torchtune',
      }),
      read: tpsTotal,
      assumed: 'aggregate tokens/s; activation checkpointing on; default global batch',
    };
  }
  if (id === 'tt-l2-7b-lora-4090') {
    return {
      metric: 'tokens_per_second', measured: measured(c, 'training_throughput').value,
      request: trainRequest(c, {
        task: 'lora', micro_batch: 4, global_batch: 4, zero: 0, lora_rank: 8,
        lora_targets: ['q', 'v'], ckpt: 'full', count: 1, stack: 'torchtune',
      }),
      read: tpsTotal,
      assumed: 'no gradient accumulation (one optimizer step per micro-batch)',
    };
  }
  if (id === 'tt-l31-8b-full-a6000') {
    return {
      metric: 'tokens_per_second', measured: measured(c, 'training_throughput').value,
      request: trainRequest(c, {
        task: 'full_finetune', micro_batch: 2, global_batch: 2, zero: 0, ckpt: 'full',
        seq: 2048, optimizer: 'adamw_8bit', optimizer_in_backward: true, count: 1,
        stack: 'torchtune',
      }),
      read: tpsTotal,
      assumed: 'packed 2048-token sequences; paged 8-bit AdamW stepped in the backward '
        + '(optimizer_in_bwd) as adamw_8bit',
    };
  }
  if (id === 'tt-l31-8b-qlora-4090') {
    return {
      metric: 'tokens_per_second', measured: measured(c, 'training_throughput').value,
      request: trainRequest(c, {
        task: 'qlora', micro_batch: 2, global_batch: 2, zero: 0, lora_rank: 8,
        lora_targets: 'all_linear', ckpt: 'full', count: 1, stack: 'torchtune',
      }),
      read: tpsTotal,
      assumed: 'one optimizer step per micro-batch (grad accumulation 1)',
    };
  }
  if (id.startsWith('tt-l32-3b-flags-')) {
    const qlora = /qlora/.test(id);
    return {
      metric: 'tokens_per_second', measured: measured(c, 'training_throughput').value,
      request: trainRequest(c, {
        task: qlora ? 'qlora' : 'full_finetune', micro_batch: 2, global_batch: 2, zero: 0,
        ckpt: m.activation_checkpointing ? 'full' : 'none', gpu: 'a100-sxm-80gb', count: 1,
        optimizer: /8-bit/.test(m.optimizer || '') ? 'adamw_8bit' : undefined,
        lora_rank: qlora ? 64 : undefined, lora_targets: qlora ? TT32_LORA_TARGETS : undefined,
        stack: 'torchtune',
      }),
      read: tpsTotal,
      assumed: 'A100 80GB SXM; one optimizer step per micro-batch; packed 4096-token sequences',
    };
  }
  // Published GPU-hours: pretraining at the stated scale; layouts not in the case are assumed.
  const hours = {
    'bloom176b-384xa100': {
      metric: 'compute_hours', tokens: 366e9, count: 384, tp: 4, pp: 12, zero: 1,
      micro_batch: 2, global_batch: 2048, ckpt: 'full', seq: 2048,
      cluster: { inter_node_gbit_per_s_per_gpu: 50 }, stack: 'megatron',
      assumed: 'Megatron-DeepSpeed; TP4 x PP12 x DP8, micro-batch 2, full recompute (BLOOM paper); Omni-Path '
        + '4x100 Gb/s per 8-GPU node = 50 Gb/s per GPU',
    },
    'deepseek-v3-gpuhours': {
      metric: 'gpu_hours_pretraining', tokens: 14.8e12, count: 2048, pp: 16, ep: 64, zero: 1,
      micro_batch: 1, global_batch: 15360, ckpt: 'selective', seq: 4096, precision: 'fp8',
      cluster: { inter_node_network: 'ib_ndr400' }, stack: 'megatron', schedule: 'dualpipe',
      assumed: 'PP16 x EP64 with DualPipe, ZeRO-1, FP8, sequence 4096, batch 15360 (report)',
    },
    'llama1-65b-gpuhours': {
      metric: 'gpu_hours', tokens: 1.4e12, count: 2048, global_batch: 2048, seq: 2048,
      layout: 'advisor',
      assumed: '2048 GPUs and a 4M-token batch (paper); the layout is not published (the paper, '
        + 'sec. 2.4, names model and sequence parallelism but no sizes): the advisor chooses it',
    },
    'llama2-7b-gpuhours': {
      metric: 'gpu_hours', tokens: 2e12, count: 1024, global_batch: 1024, seq: 4096,
      gpu: 'a100-sxm-80gb', layout: 'advisor',
      assumed: '1024 GPUs (count not published), 4M-token batch; the advisor chooses the layout',
    },
    'llama2-13b-gpuhours': {
      metric: 'gpu_hours', tokens: 2e12, count: 1024, global_batch: 1024, seq: 4096,
      gpu: 'a100-sxm-80gb', layout: 'advisor',
      assumed: '1024 GPUs (count not published), 4M-token batch; the advisor chooses the layout',
    },
    'llama2-70b-gpuhours': {
      metric: 'gpu_hours', tokens: 2e12, count: 2048, global_batch: 1024, seq: 4096,
      gpu: 'a100-sxm-80gb', layout: 'advisor',
      assumed: '2048 GPUs (count not published), 4M-token batch; the advisor chooses the layout',
    },
    'llama3-70b-gpuhours': {
      metric: 'gpu_hours', tokens: 15e12, count: 4096, global_batch: 2048, seq: 8192,
      gpu: 'h100-sxm-80gb', cluster: { inter_node_gbit_per_s_per_gpu: 400 }, layout: 'advisor',
      assumed: '4096 GPUs (count not published), 16M-token batch (the paper\'s, for 405B), '
        + '400 Gb/s RoCE per GPU (paper); the advisor chooses the layout',
    },
    'mpt-7b-walltime': {
      metric: 'wall_clock', tokens: 1e12, count: 440, micro_batch: 8, ckpt: 'full', zero: 3,
      seq: 2048, global_batch: 1760, read: (r) => r.training.hours / 24, unitScale: 1,
      cluster: { inter_node_network: 'roce_200' }, stack: 'hf_peft',
      assumed: 'FSDP over 440 A100-40GB, batch 1760 x 2048 (model card); micro-batch 8 and full '
        + 'checkpointing from llm-foundry\'s published mpt-7b.yaml; predicted days',
    },
  }[id];
  if (hours) {
    return {
      metric: hours.metric, measured: measured(c, hours.metric).value,
      request: trainRequest(c, { ...hours, gpu: hours.gpu || gpuId(c.hardware.gpu) }),
      read: hours.read || ((r) => r.training.gpu_hours),
      assumed: hours.assumed,
    };
  }
  if (id === 'lambda-a100-pcie-vs-sxm4-bertlarge-2gpu') {
    return { skip: 'BERT-large is an encoder (not a decoder LLM the model describes)' };
  }
  if (id === 'trainy-8b-h200-4-vs-8-nodes') {
    const base = {
      precision: 'fp8', micro_batch: 2, zero: 3, ckpt: 'selective',
      cluster: { inter_node_network: 'ib_ndr400' }, gpu: 'h200-sxm-141gb',
    };
    return {
      metric: 'per_gpu_64_over_32',
      measured: measured(c, 'tokens_per_sec_per_gpu_64gpu').value
        / measured(c, 'tokens_per_sec_per_gpu_32gpu').value,
      request: trainRequest(c, { ...base, count: 64, global_batch: 128 }),
      request2: trainRequest(c, { ...base, count: 32, global_batch: 64 }),
      read: (r, req, r2, req2) => tpsPerGpu(r, req) / tpsPerGpu(r2, req2),
      assumed: 'same local batch per GPU at both sizes',
    };
  }
  if (id === 'nccl194-h100pcie-nvlink-bridge-2gpu') {
    return {
      metric: 'busbw_4GiB', measured: measured(c, 'busbw_4GiB').value,
      request: {
        schema: 1, task: 'full_finetune', model: { preset: 'llama-3.2-1b' },
        hardware: { gpu: 'h100-pcie-80gb', count: 2 }, cluster: { nvlink_bridges: true },
      },
      read: (r) => r.interconnect.allreduce_bus_bandwidth_gbps,
    };
  }
  // Inference.
  if (id.startsWith('gptfast-')) {
    const format = /int8/.test(m.precision) ? 'int8' : 'bf16';
    return {
      metric: 'decode_tokens_per_sec', measured: measured(c, 'decode_tokens_per_sec').value,
      request: inferRequest(c, { weight_format: format, concurrency: 1, prompt: 5, output: 200,
                                 gpu: 'a100-sxm-80gb', count: 1, power_limit_w: 330 }),
      read: (r) => r.inference.decode_tokens_per_second,
      assumed: '200 new tokens (gpt-fast default); the A100s at the 330 W the README states',
    };
  }
  if (id === 'trt05-l2-7b-h100-fp8-ttft-2048') {
    return {
      metric: 'first_token_latency_ms', measured: measured(c, 'first_token_latency').value,
      request: inferRequest(c, { weight_format: 'fp8', kv: 'fp8', concurrency: 1, prompt: 2048,
                                 output: 1, stack: 'tensorrt_llm' }),
      read: (r) => r.inference.time_to_first_token_s * 1000,
    };
  }
  if (id.startsWith('trt061-')) {
    const isFp8 = /FP8/.test(m.precision);
    // NVIDIA's throughput tables are per GPU; the A100 table's unit omits "/GPU" (assumed).
    const perGpu = true;
    return {
      metric: 'output_tokens_per_sec_per_gpu',
      measured: measured(c, 'output_throughput').value,
      request: inferRequest(c, {
        weight_format: isFp8 ? 'fp8' : 'fp16', kv: isFp8 ? 'fp8' : 'fp16',
        concurrency: m.batch, prompt: m.isl, output: m.osl, tp: m.tp, count: m.tp,
        gpu: /A100/.test(c.hardware.gpu) ? 'a100-sxm-80gb' : 'h100-sxm-80gb', stack: 'tensorrt_llm',
      }),
      read: (r, req) => r.inference.sustained_output_tokens_per_second
        / (perGpu ? req.hardware.count : 1),
      assumed: 'static batch: output tokens / (batch prefill + output x decode step); A100 '
        + 'variant assumed SXM 80GB; per-GPU throughput (the A100 table\'s unit omits /GPU)',
    };
  }
  if (id.startsWith('trtv1-')) {
    const base = {
      weight_format: 'fp8', kv: 'fp8', prompt: m.isl, output: m.osl, tp: m.tp,
      count: num(c.hardware.count), gpu_memory_utilization: 0.95, stack: 'tensorrt_llm',
    };
    const cap = 2048;
    return {
      metric: 'total_output_throughput', measured: measured(c, 'total_output_throughput').value,
      pre: inferRequest(c, { ...base, concurrency: 1 }),
      request: (pre) => inferRequest(c, {
        ...base, concurrency: Math.max(1, Math.min(cap, pre.inference.max_concurrency)),
      }),
      read: (r) => r.inference.sustained_output_tokens_per_second,
      assumed: `in-flight batching at the largest batch the KV cache holds (capped at ${cap}), `
        + 'FP8 KV cache, 95% memory utilisation',
    };
  }
  if (id.startsWith('azure-')) {
    // 64 requests x (128 + 8) tokens = 8,704 tokens per batch at 1,078 tokens/s is one batch
    // every 8 s on 8 H100s, ~20x below their prefill rate at any precision: the figure counts
    // time the guide does not describe (engine start, per-run set-up), which no throughput model
    // reproduces. Listed, not expressed, so it counts against coverage.
    return { skip: 'measured rate (~8 s per 64 x 136-token batch on 8 GPUs) includes set-up time the guide does not separate' };
  }
  if (c.category === 'memory' && !c.categories.some((x) => x !== 'memory')) {
    return { skip: 'memory case (checked by the memory model\'s own calibration)' };
  }
  return { skip: 'no rule for this case' };
}

/**
 * All-reduce bus bandwidth measurements of shared/reference/hardware-facts.md section 2b that
 * calibration.json does not carry (same metric: nccl-tests busbw, large messages).
 */
const BUSBW_REFERENCES = [
  { id: 'hf2b-8xa100-sxm', gpu: 'a100-sxm-80gb', count: 8, value: 234.9,
    source: 'stas00/ml-engineering network/README.md' },
  { id: 'hf2b-8xh200-sxm-ring', gpu: 'h200-sxm-141gb', count: 8, value: 367.6,
    source: 'stas00/ml-engineering network/README.md' },
  { id: 'hf2b-8xh800-sxm', gpu: 'h800-sxm-80gb', count: 8, value: 215,
    source: 'NVIDIA/nccl#1374 (likely NVLS)' },
  { id: 'hf2b-8xrtx5090-pcie5', gpu: 'rtx5090-32gb', count: 8, value: 28,
    source: 'NVIDIA/nccl#1639' },
  { id: 'hf2b-4xrtx5090-pcie5', gpu: 'rtx5090-32gb', count: 4, value: 35,
    source: 'NVIDIA/nccl#1639' },
  { id: 'hf2b-8xmi300x', gpu: 'mi300x-192gb', count: 8, value: 312.9,
    source: 'stas00/ml-engineering network/README.md' },
  { id: 'hf2b-2xmi300x', gpu: 'mi300x-192gb', count: 2, value: 47.7,
    source: 'stas00/ml-engineering network/README.md' },
].map((b) => ({
  id: b.id, category: 'allreduce_bw', metric: 'busbw', measured: b.value, source: b.source,
  ambiguous: false, assumed: `hardware-facts.md 2b: ${b.source}`,
  request: { schema: 1, task: 'full_finetune', model: { preset: 'llama-3.2-1b' },
             hardware: { gpu: b.gpu, count: b.count } },
  read: (r) => r.interconnect.allreduce_bus_bandwidth_gbps,
}));

/** Every case: {id, category, ...rule} (skips included). */
function allCases(calibration) {
  const out = calibration.map((c) => {
    const r = rule(c);
    const category = r.skip ? c.category
      : (['tokens_per_second', 'tokens_per_sec_per_gpu', 'achieved_tflops_per_gpu', 'step_time_s']
        .includes(r.metric) ? 'train_throughput' : c.category);
    const fp8Case = r.request && typeof r.request === 'object' && r.request.training
      && r.request.training.precision === 'fp8';
    return { id: c.id, category: fp8Case ? `${category}_fp8` : category,
             ambiguous: !!c.ambiguous, ...r };
  });
  return out.concat(BUSBW_REFERENCES);
}

// ---------------------------------------------------------------------------------------------
// Memory rows (issue 11): peak memory, "fits within", OOM and largest context that fits, from the
// cases of calibration.json and calibration_more.json. Units: GiB or GB as the source reports.
const GIB = 2 ** 30;
const GB = 1e9;
const SINGLE_CARD = 'h200-sxm-141gb';
const TORCHTUNE = { master_weights: false, optimizer_state_dtype: 'bf16' };

function memoryRequest(task, preset, training, extra = {}) {
  return { schema: 1, task, model: typeof preset === 'string' ? { preset } : preset,
           training, parallelism: { zero: 0 }, ...extra };
}

// Qwen's Q-LoRA script (finetune/finetune_qlora_single_gpu.sh: --fp16 --deepspeed
// ds_config_zero2.json, so no autocast) runs the model's own loss (modeling_qwen.py
// QWenLMHeadModel.forward): CrossEntropyLoss on the fp16 logits, no fp32 upcast: the logits (2),
// their shifted contiguous copy (2) and the fp16 log-softmax (2) = 6 bytes per logit.
const QWEN_QLORA_ASSUMED = 'Qwen-7B v1 as fields, int4 base treated as NF4, rank 64 on all '
  + 'linear, checkpointing; loss on the fp16 logits (modeling_qwen.py, DeepSpeed fp16): 6 bytes';
function qwenQloraRequest(seq) {
  return memoryRequest('qlora', { layers: 32, hidden: 4096, heads: 32, ffn_hidden: 11008,
    vocab: 151936, max_position_embeddings: 8192 },
  { sequence_length: seq, micro_batch_size: 1, lora_rank: 64, activation_checkpointing: 'full',
    accounting: { logits_bytes_per_element: 6 } }, { stack: 'hf_peft' });
}

// llama3_2/3B_lora_single_device and 3B_qlora_single_device at torchtune 1814feb (the commit
// of the 'Optimization flags' table): lora_attn_modules [q_proj, v_proj, output_proj],
// apply_lora_to_mlp: True, lora_rank: 64.
const TT32_LORA_TARGETS = ['q', 'v', 'o', 'gate', 'up', 'down'];

const MEMORY_ROWS = [
  // README 'Optimization flags': batch size 2, one optimizer step per batch (gradient
  // accumulation 1); "each technique is added on top of the previous one".
  { id: 'tt-l32-3b-flags-packed/mem', unit: GIB, measured: 60.0,
    assumed: 'torchtune recipe, no checkpointing, standard cross-entropy (chunked CE is added two '
      + 'rows later): the decoder upcasts the logits (self.output(h).float()) and the recipe '
      + 'deletes them before the backward = 12 bytes per logit',
    request: memoryRequest('full_finetune', 'llama-3.2-3b',
      { sequence_length: 4096, micro_batch_size: 2, global_batch_size: 2,
        activation_checkpointing: 'none',
        accounting: { fused_cross_entropy: false, logits_bytes_per_element: 12 } },
      { stack: 'torchtune' }) },
  { id: 'tt-l32-3b-flags-activation-ckpt/mem', unit: GIB, measured: 24.9,
    assumed: 'torchtune, full checkpointing, compiled chunked loss (fused)',
    request: memoryRequest('full_finetune', 'llama-3.2-3b',
      { sequence_length: 4096, micro_batch_size: 2, global_batch_size: 2,
        activation_checkpointing: 'full', accounting: { fused_cross_entropy: true } },
      { stack: 'torchtune' }) },
  { id: 'tt-l32-3b-flags-activation-offload/mem', unit: GIB, measured: 21.8,
    assumed: 'torchtune, full checkpointing with activations offloaded, fused loss, optimizer '
      + 'step fused into the backward (the row before)',
    request: memoryRequest('full_finetune', 'llama-3.2-3b',
      { sequence_length: 4096, micro_batch_size: 2, global_batch_size: 2,
        activation_checkpointing: 'full', optimizer_in_backward: true,
        cpu_offload: { activations: true }, accounting: { fused_cross_entropy: true } },
      { stack: 'torchtune' }) },
  { id: 'tt-l32-3b-flags-adamw8bit/mem', unit: GIB, measured: 17.6,
    assumed: 'torchtune, 8-bit AdamW, offloaded full checkpointing, fused loss, optimizer step '
      + 'fused into the backward',
    request: memoryRequest('full_finetune', 'llama-3.2-3b',
      { sequence_length: 4096, micro_batch_size: 2, global_batch_size: 2,
        activation_checkpointing: 'full', optimizer: 'adamw_8bit', optimizer_in_backward: true,
        cpu_offload: { activations: true }, accounting: { fused_cross_entropy: true } },
      { stack: 'torchtune' }) },
  { id: 'tt-l32-3b-flags-qlora/mem', unit: GIB, measured: 4.6,
    assumed: 'torchtune QLoRA as recipe llama3_2/3B_qlora_single_device at the table\'s commit '
      + '1814feb (rank 64 on q, v, output_proj and the MLP), offloaded checkpointing, fused loss',
    request: memoryRequest('qlora', 'llama-3.2-3b',
      { sequence_length: 4096, micro_batch_size: 2, global_batch_size: 2, lora_rank: 64,
        lora_targets: TT32_LORA_TARGETS, activation_checkpointing: 'full',
        cpu_offload: { activations: true }, accounting: { fused_cross_entropy: true } },
      { stack: 'torchtune' }) },
  { id: 'tt-l31-8b-qlora-4090/mem', unit: GIB, measured: 7.4,
    assumed: 'torchtune rank 8 on attention + MLP, full checkpointing, compiled loss',
    request: memoryRequest('qlora', 'llama-3.1-8b',
      { sequence_length: 2048, micro_batch_size: 2, lora_rank: 8,
        activation_checkpointing: 'full', accounting: { fused_cross_entropy: true } },
      { stack: 'torchtune' }) },
  { id: 'tt-l2-7b-lora-4090/mem', unit: GB, measured: 21.3,
    assumed: 'torchtune rank 8 on q,v, full checkpointing, sequences at the 2048 cap',
    request: memoryRequest('lora', 'llama-2-7b',
      { sequence_length: 2048, micro_batch_size: 4, lora_rank: 8, lora_targets: ['q', 'v'],
        activation_checkpointing: 'full' }, { stack: 'torchtune' }) },
  { id: 'tt-tut-l2-7b-lora-qv-r8/mem', unit: GB, measured: 15.57,
    assumed: 'torchtune tutorial: rank 8 on q,v, batch 2, checkpointing, sequence 2048 (not stated)',
    request: memoryRequest('lora', 'llama-2-7b',
      { sequence_length: 2048, micro_batch_size: 2, lora_rank: 8, lora_targets: ['q', 'v'],
        activation_checkpointing: 'full' }, { stack: 'torchtune' }) },
  { id: 'tt-tut-l2-7b-qlora/mem', unit: GB, measured: 9.29,
    assumed: 'torchtune QLoRA recipe (rank 8 on q,v), batch 2, checkpointing, sequence 2048 (not stated)',
    request: memoryRequest('qlora', 'llama-2-7b',
      { sequence_length: 2048, micro_batch_size: 2, lora_rank: 8, lora_targets: ['q', 'v'],
        activation_checkpointing: 'full' }, { stack: 'torchtune' }) },
  { id: 'tt-l31-8b-full-a6000/mem', unit: GIB, measured: 37.4,
    assumed: 'torchtune full fine-tune, 8-bit AdamW stepped in the backward, checkpointing',
    request: memoryRequest('full_finetune', 'llama-3.1-8b',
      { sequence_length: 2048, micro_batch_size: 2, activation_checkpointing: 'full',
        optimizer: 'adamw_8bit', optimizer_in_backward: true }, { stack: 'torchtune' }) },
  { id: 'qwen-readme-qwen7b-qlora-8192/mem', unit: GB, measured: 23.5,
    assumed: QWEN_QLORA_ASSUMED,
    request: qwenQloraRequest(8192) },
  { id: 'qlora-65b-single-48gb/mem', unit: GIB, bound: 48,
    assumed: 'QLoRA paper: rank 64 all linear, sequence 512, batch 1, full checkpointing',
    request: memoryRequest('qlora', 'llama-65b',
      { sequence_length: 512, micro_batch_size: 1, lora_rank: 64,
        activation_checkpointing: 'full' }, { stack: 'hf_peft' }) },
  { id: 'llamafactory-l2-7b-qlora-fa2-65536-oom/mem', unit: GIB, oom_on: 40,
    assumed: 'LLaMA-Factory, rank 8 all linear, its default full checkpointing',
    request: memoryRequest('qlora', 'llama-2-7b',
      { sequence_length: 65536, micro_batch_size: 1, lora_rank: 8 }, { stack: 'llamafactory' }) },
  { id: 'uns-hf-l31-8b-qlora-80gb/mem', capacity_gib: 80, measured_context: 28454,
    assumed: 'HF + FA2, rank 32 all linear, batch 1, full checkpointing, eager loss',
    request: memoryRequest('qlora', 'llama-3.1-8b',
      { micro_batch_size: 1, lora_rank: 32, activation_checkpointing: 'full' }, { stack: 'hf_peft' }) },
  { id: 'uns-hf-l33-70b-qlora-a100-80gb/mem', capacity_gib: 80, measured_context: 6916,
    assumed: 'HF + FA2, rank 32 all linear, batch 1, full checkpointing, eager loss',
    request: memoryRequest('qlora', 'llama-3.1-70b',
      { micro_batch_size: 1, lora_rank: 32, activation_checkpointing: 'full' }, { stack: 'hf_peft' }) },
];

/** Peak-memory rows of the extra sources (calibration_more.json), each with the request its
 *  source's stated setup maps to. */
const TITAN_EAGER_LOSS = { logits_bytes_per_element: 12 };
// torchtitan's 2024-12 benchmark states its H100s (96 GB HBM2e, 2.4 TB/s) ran at a 500 W power
// limit: the catalog's 700 W H100 SXM under /hardware/power_limit_w (the clock the limit leaves;
// the lower memory bandwidth is not expressed).
const TITAN_H100_WATTS = 500;
function titanRequest(c, o) {
  return {
    schema: 1, task: 'pretrain', model: { preset: 'llama-3.1-8b' },
    training: { precision: o.fp8 ? 'fp8' : 'bf16', sequence_length: c.model.seq_len,
                micro_batch_size: c.method.micro_batch, global_batch_size: c.method.global_batch,
                activation_checkpointing: o.ckpt || 'selective', flash_attention: true,
                accounting: o.compile ? TITAN_EAGER_LOSS : undefined },
    hardware: { gpu: 'h100-sxm-80gb', count: c.hardware.count, power_limit_w: TITAN_H100_WATTS },
    parallelism: { zero: 3, tp: 1, pp: 1, ep: 1 },
    cluster: c.hardware.count > 8 ? { inter_node_network: 'ib_ndr400' } : undefined,
    stack: o.compile ? 'fsdp_compile' : 'fsdp_eager',
  };
}
const MORE_PEAK_ROWS = {
  'titan-l31-8b-8xh100-fsdp-compile': (c) => ({
    request: titanRequest(c, { compile: true }),
    assumed: 'blocks compiled, loss eager (12 bytes per logit); H100 96GB mapped to H100 80GB' }),
  'titan-l31-8b-8xh100-fsdp-compile-float8': (c) => ({
    request: titanRequest(c, { compile: true, fp8: true }),
    assumed: 'blocks compiled with Float8 linears, loss eager (12 bytes per logit)' }),
  'titan-l31-8b-128xh100-fsdp': (c) => ({
    request: titanRequest(c, {}), assumed: 'eager FSDP2 (no torch.compile)' }),
  'titan-l31-8b-128xh100-fsdp-compile': (c) => ({
    request: titanRequest(c, { compile: true }),
    assumed: 'blocks compiled, loss eager (12 bytes per logit)' }),
  'titan-l31-8b-128xh100-fsdp-compile-float8': (c) => ({
    request: titanRequest(c, { compile: true, fp8: true }),
    assumed: 'blocks compiled with Float8 linears, loss eager (12 bytes per logit)' }),
  'titan-l31-8b-8xh100-fsdp8-cp1-32k': (c) => ({
    request: titanRequest(c, { compile: true, fp8: true, ckpt: 'full' }),
    assumed: 'CP 1 (no context parallelism), local batch 1 x 32768, full checkpointing; blocks '
      + 'compiled, loss eager' }),
  'tt-l32-3b-flags-chunked-ce': () => ({
    request: memoryRequest('full_finetune', 'llama-3.2-3b',
      { sequence_length: 4096, micro_batch_size: 2, global_batch_size: 2,
        activation_checkpointing: 'none', accounting: { fused_cross_entropy: true } },
      { stack: 'torchtune' }),
    assumed: 'packed, compiled, chunked cross-entropy compiled (as the later rows: fused), no '
      + 'checkpointing yet' }),
  'tt-l32-3b-flags-optimizer-in-bwd': () => ({
    request: memoryRequest('full_finetune', 'llama-3.2-3b',
      { sequence_length: 4096, micro_batch_size: 2, global_batch_size: 2,
        activation_checkpointing: 'full', optimizer_in_backward: true,
        accounting: { fused_cross_entropy: true } }, { stack: 'torchtune' }),
    assumed: 'the checkpointing row plus the optimizer step fused into the backward' }),
  'tt-l32-3b-flags-lora': () => ({
    request: memoryRequest('lora', 'llama-3.2-3b',
      { sequence_length: 4096, micro_batch_size: 2, global_batch_size: 2, lora_rank: 64,
        lora_targets: TT32_LORA_TARGETS, activation_checkpointing: 'full',
        cpu_offload: { activations: true }, accounting: { fused_cross_entropy: true } },
      { stack: 'torchtune' }),
    assumed: 'recipe llama3_2/3B_lora_single_device at 1814feb (rank 64 on q, v, output_proj and '
      + 'the MLP); packed, compiled, chunked loss, offloaded checkpointing; no optimizer_in_bwd' }),
  'tt-l31-8b-lora-4090': () => ({
    request: memoryRequest('lora', 'llama-3.1-8b',
      { sequence_length: 2048, micro_batch_size: 2, global_batch_size: 2, lora_rank: 8,
        lora_targets: ['q', 'v'], activation_checkpointing: 'full' }, { stack: 'torchtune' }),
    assumed: 'recipe config llama3_1/8B_lora_single_device (rank 8 on q,v, checkpointing, chunked '
      + 'loss); batch 2 without accumulation, packed 2048 (README)' }),
  'tt-l31-70b-lora-8xa100': () => ({
    request: memoryRequest('lora', 'llama-3.1-70b',
      { sequence_length: 2048, micro_batch_size: 2, global_batch_size: 16, lora_rank: 16,
        lora_targets: ['q', 'k', 'v'], activation_checkpointing: 'full' },
      { stack: 'torchtune', hardware: { gpu: 'a100-sxm-80gb', count: 8 },
        parallelism: { zero: 3, tp: 1, pp: 1 } }),
    assumed: 'recipe config llama3_1/70B_lora (rank 16 on q,k,v, FSDP over 8, checkpointing, '
      + 'chunked loss); batch 2 per GPU without accumulation, packed 2048 (README)' }),
};

/** Memory rows of the extra sources (calibration_more.json): largest context per card size, and
 *  peak memory per GPU (MORE_PEAK_ROWS). */
function moreMemoryRows(more) {
  const rows = [];
  for (const c of more.filter((x) => x.category === 'memory' && MORE_PEAK_ROWS[x.id])) {
    const m = c.measured[0];
    rows.push({ id: `${c.id}/mem`, unit: m.unit === 'GiB' ? GIB : GB, measured: m.value,
                ambiguous: !!c.ambiguous, source: c.source.url, ...MORE_PEAK_ROWS[c.id](c) });
  }
  for (const c of more.filter((x) => x.id === 'qwen-readme-qwen7b-qlora-lengths')) {
    for (const m of c.measured) {
      rows.push({ id: `${c.id}/${m.metric}`, unit: GB, measured: m.value, ambiguous: true,
                  source: c.source.url, assumed: QWEN_QLORA_ASSUMED,
                  request: qwenQloraRequest(m.seq_len) });
    }
  }
  for (const c of more.filter((x) => x.category === 'memory' && x.id.startsWith('unsloth-'))) {
    const preset = /70B/.test(c.model.name) ? 'llama-3.1-70b' : 'llama-3.1-8b';
    for (const m of c.measured) {
      const training = { micro_batch_size: 1, lora_rank: 32, activation_checkpointing: 'full' };
      // The release before Cut Cross-Entropy materialised the logits (its own kernel).
      if (m.logits_bytes_per_element !== undefined) {
        training.accounting = { logits_bytes_per_element: m.logits_bytes_per_element };
      }
      const what = m.logits_bytes_per_element !== undefined
        ? `Unsloth before CCE (offloaded checkpointing, ${m.logits_bytes_per_element} bytes per logit)`
        : m.stack === 'unsloth' ? 'Unsloth (offloaded checkpointing, CCE)' : 'HF + FA2';
      rows.push({
        id: `${c.id}/${m.metric}`, capacity_gib: m.capacity_gb, measured_context: m.value,
        assumed: `${what}, rank 32 all linear, batch 1; card size as GiB`,
        request: memoryRequest('qlora', preset, training, { stack: m.stack }),
        source: c.source.url,
      });
    }
  }
  return rows;
}

/** All-reduce rows of the extra sources: bus bandwidth at the stated message size. */
function moreBusbwRows(more) {
  const rows = [];
  for (const c of more.filter((x) => x.category === 'allreduce_bw')) {
    const gpu = c.hardware.gpu_id
      || (/MI300X/.test(c.hardware.gpu) ? 'mi300x-192gb' : 'a100-pcie-80gb');
    for (const m of c.measured) {
      rows.push({
        id: `${c.id}/${m.metric}`, category: 'allreduce_bw', metric: m.metric, measured: m.value,
        ambiguous: !!c.ambiguous, assumed: `${m.bytes} bytes`,
        request: { schema: 1, task: 'full_finetune', model: { preset: 'llama-3.2-1b' },
                   hardware: { gpu, count: c.hardware.count },
                   cluster: /bridge/.test(c.hardware.interconnect) ? { nvlink_bridges: true } : {} },
        read: (r) => {
          const curve = r.interconnect.allreduce_curve || [];
          // The curve is sampled at powers of 4 from 1 KiB: interpolate in log-size.
          const x = Math.log(m.bytes);
          for (let i = 1; i < curve.length; ++i) {
            const a = curve[i - 1], b = curve[i];
            if (m.bytes <= b.bytes) {
              const f = (x - Math.log(a.bytes)) / (Math.log(b.bytes) - Math.log(a.bytes));
              return a.busbw_gbps + f * (b.busbw_gbps - a.busbw_gbps);
            }
          }
          return r.interconnect.allreduce_bus_bandwidth_gbps;
        },
      });
    }
  }
  return rows;
}

/** Decode rows of the extra sources (gpt-fast's tables, llama.cpp's llama-bench rows): batch-1
 *  tokens/s, one row (and one split key) per table line. A line naming `gpu_id` runs on that
 *  card with the source's stack (llama.cpp: 512 tokens one at a time after `context` tokens);
 *  the others are gpt-fast's A100 lines. */
function moreDecodeRows(more) {
  const rows = [];
  for (const c of more.filter((x) => x.category === 'inference' && !/^trtv1-/.test(x.id)
                                     && !(x.method && x.method.engine_stack))) {
    for (const m of c.measured) {
      const id = `${c.id}-${m.metric}`;
      if (m.gpu) {
        rows.push({ id, category: 'inference', skip: `${m.gpu} is not in the catalog` });
        continue;
      }
      if (m.gpu_id) {
        // `output` tokens (512 unless the line says) decoded after `context` tokens; a line
        // without `context` states neither, and the advisor's defaults apply.
        const stated = m.context !== undefined;
        const output = m.output || 512;
        const inference = { weight_format: m.format, kv_cache_precision: 'fp16', concurrency: 1 };
        if (stated) Object.assign(inference, { prompt_tokens: Math.max(1, m.context), output_tokens: output });
        rows.push({
          id, category: 'inference', metric: 'decode_tokens_per_sec', measured: m.value,
          ambiguous: !!m.ambiguous, source: c.source.url,
          assumed: stated ? `llama.cpp stack; ${m.context} tokens of context, then ${output} decoded one at a time`
            : 'llama.cpp stack; prompt and output lengths not stated (advisor defaults)',
          request: {
            schema: 1, task: 'inference', model: { preset: m.model }, stack: 'llama_cpp', inference,
            hardware: { gpu: m.gpu_id, count: 1 },
          },
          read: (r) => r.inference.decode_tokens_per_second,
        });
        continue;
      }
      if (m.kernel) {
        // AutoAWQ's table: int4 AWQ kernels at batch 1 through transformers' generate loop; no
        // profile of its own here, so the default serving profile's terms.
        rows.push({
          id, category: 'inference', metric: 'decode_tokens_per_sec', measured: m.value,
          ambiguous: false, source: c.source.url,
          assumed: `AutoAWQ ${m.kernel} kernel on the default serving profile; ${m.context} tokens `
            + `of prompt, then ${m.output} decoded one at a time`,
          request: {
            schema: 1, task: 'inference', model: m.model ? { preset: m.model } : m.model_fields,
            inference: { weight_format: m.format, kv_cache_precision: 'fp16', concurrency: 1,
                         prompt_tokens: m.context, output_tokens: m.output },
            hardware: { gpu: gpuId(c.hardware.gpu), count: 1 },
          },
          read: (r) => r.inference.decode_tokens_per_second,
        });
        continue;
      }
      // gpt-fast's generate.py and torchao's copy of it: a 5-token prompt, 200 new tokens, the
      // A100s at the power limit the table states (gpt-fast's 330 W; torchao states none).
      const watts = c.hardware.power_limit_w;
      rows.push({
        id, category: 'inference', metric: 'decode_tokens_per_sec', measured: m.value,
        ambiguous: !!c.ambiguous, source: c.source.url,
        assumed: `200 new tokens (generate.py default); ${watts ? `the A100s at the ${watts} W the README states` : 'a stock A100 80 GB'}`,
        request: {
          schema: 1, task: 'inference', model: { preset: m.model },
          inference: { weight_format: m.format, kv_cache_precision: 'bf16', concurrency: 1,
                       prompt_tokens: 5, output_tokens: 200 },
          hardware: { gpu: 'a100-sxm-80gb', count: m.tp, ...(watts ? { power_limit_w: watts } : {}) },
          parallelism: { tp: m.tp, pp: 1 },
        },
        read: (r) => r.inference.decode_tokens_per_second,
      });
    }
  }
  return rows;
}

/** Every row: the cases of calibration.json (one row per expressible metric), the memory rows
 *  and the extra sources of calibration_more.json. */
function allRows(calibration, more = []) {
  // Memory-only cases are expressed as MEMORY_ROWS below.
  // Training cases of the extra sources go through the same rules (llm-foundry table lines,
  // rows with a `stated` setup), and so do further cells of TensorRT-LLM's table.
  const training = more.filter((c) => /^train_/.test(c.category) || /^trtv1-/.test(c.id)
    || (c.stated && c.category === 'memory') || (c.method && c.method.engine_stack));
  const rows = allCases(calibration.concat(training))
    .filter((r) => !(r.skip && /^memory case/.test(r.skip)));
  for (const r of rows) {
    if (r.id === 'hf2b-8xh200-sxm-ring') {
      // A ring-only measurement: the ring's bus bandwidth, not NVLS.
      r.read = (res) => res.interconnect.intra_node.busbw_gbps;
    }
  }
  // Peak memory the throughput cases also report, on the same request.
  const PEAKS = { 'titan-l31-70b-256xh100-2d': [71.9, GIB], 'titan-l31-70b-256xh100-2d-asynctp': [67.6, GIB],
                  'titan-l31-8b-8xh100-fsdp': [82.4, GIB], 'titan-trainy-l31-8b-64xh200': [46.97, GIB],
                  'titan-l31-8b-8xh100-cp8-262k': [84.5, GIB],
                  'tt-l2-70b-lora-8xa100': [26.4, GB] };
  for (const r of rows.filter((x) => PEAKS[x.id] && x.request)) {
    const [value, unit] = PEAKS[r.id];
    rows.push({ id: `${r.id}/mem`, category: 'memory', metric: 'peak_memory', unit, measured: value,
                ambiguous: r.ambiguous, assumed: `${r.assumed || ''}; reserved memory as reported`,
                request: r.request });
  }
  for (const m of MEMORY_ROWS.concat(moreMemoryRows(more))) {
    rows.push({ category: 'memory', metric: m.capacity_gib ? 'max_context' : 'peak_memory',
                ambiguous: false, ...m });
  }
  for (const r of rows.filter((x) => x.capacity_gib && !x.request.hardware)) {
    // The largest-context tables run one GPU of the stated size. Without a count the advisor
    // spreads a long sequence over the GPUs it chooses (the per-GPU bytes then fall as the
    // sequence grows and the bisection runs off to its bound). One card: the estimate does not
    // depend on which, and the bisection compares it with the stated size.
    r.request = { ...r.request, hardware: { gpu: SINGLE_CARD, count: 1 } };
  }
  return tagSources(rows.concat(moreBusbwRows(more), moreDecodeRows(more)),
                    calibration.concat(more));
}

// ---------------------------------------------------------------------------------------------
// Sources. A row's source is the document its number comes from: a repository file without its
// commit (two commits of one README are one table kept up to date), or a web page or paper
// without protocol, "www." or anchor. SAME_DOCUMENT joins what is one benchmark published as
// several files or pages (one vendor's docs pages of one benchmark, one model card in two
// repositories, one repository's per-model launch scripts).
const SAME_DOCUMENT = [
  [/^pytorch\/torchtune:docs\/source\/tutorials\//, 'pytorch/torchtune:docs/source/tutorials'],
  [/^unsloth\.ai\/(docs\/basics\/unsloth-benchmarks|blog\/llama3-3)$/, 'unsloth.ai benchmarks'],
  [/^meta-llama\/llama3:MODEL_CARD\.md$/, 'meta-llama/llama-models:models/llama3/MODEL_CARD.md'],
  [/^karpathy\/llm\.c:scripts\//, 'karpathy/llm.c:scripts'],
  [/^arxiv\.org\/abs\/2302\.13971/, 'arxiv.org/abs/2302.13971'],
  [/^datacrunch-research\/h200-benchmarks:sglang\//, 'datacrunch-research/h200-benchmarks:sglang'],
];

/** Source id of a case's `source` block (or a reference's source text). */
function sourceKey(source) {
  let key;
  // "owner/repo#N (note)": a GitHub issue; "owner/repo path": a file of that repository.
  if (typeof source === 'string') {
    key = source.replace(/\s*\(.*\)$/, '').replace(/^([\w.-]+\/[\w.-]+)#(\d+)$/, 'github.com/$1/issues/$2')
      .replace(/^([\w.-]+\/[\w.-]+) (\S+)$/, '$1:$2');
  }
  else if (source.repo && source.path) key = `${source.repo}:${source.path}`;
  else key = String(source.url || source.repo);
  key = key.replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/[#?].*$/, '')
    .replace(/\/$/, '');
  for (const [re, id] of SAME_DOCUMENT) if (re.test(key)) return id;
  return key;
}

/** Sets `source_id` on every row: the case it was made from (the longest case id that starts
 *  the row id), or its own `source` text (the all-reduce references). */
function tagSources(rows, cases) {
  const byId = new Map(cases.map((c) => [c.id, sourceKey(c.source)]));
  const ids = [...byId.keys()].sort((a, b) => b.length - a.length);
  for (const r of rows) {
    const caseId = ids.find((id) => r.id === id || r.id.startsWith(`${id}/`)
                                   || r.id.startsWith(`${id}-`));
    r.source_id = caseId ? byId.get(caseId) : sourceKey(r.source || r.id);
  }
  return rows;
}

/**
 * The unseen sources: a fifth of the sources (rounded), the ones first in the order of a seeded
 * hash of the source id (seed 7), stored in unseen_sources.json so the set stays fixed as
 * sources are added. `mayTake(taken, id)` says whether `id` may join the sources `taken` so
 * far (bench/fit.cjs: not when a fitted constant would then rest on fewer than two sources);
 * sources are walked in the hash's order. No fit reads the unseen rows; their error is measured
 * on constants that never saw them.
 */
const UNSEEN_SEED = 7;
const UNSEEN_SHARE = 0.2;
function hashShare(key) {
  let h = 2166136261;
  for (let i = 0; i < key.length; ++i) h = Math.imul(h ^ key.charCodeAt(i), 16777619) >>> 0;
  return (h % 1000) / 1000;
}
function pickUnseen(sourceIds, mayTake = () => true) {
  const ids = [...new Set(sourceIds)];
  const count = Math.round(ids.length * UNSEEN_SHARE);
  const taken = new Set();
  ids.sort((a, b) => hashShare(`${UNSEEN_SEED}:${a}`) - hashShare(`${UNSEEN_SEED}:${b}`) || (a < b ? -1 : 1));
  for (const id of ids) {
    if (taken.size < count && mayTake(taken, id)) taken.add(id);
  }
  return [...taken].sort();
}
const UNSEEN = new Set(require('./unseen_sources.json').sources);
function isUnseen(sourceId) { return UNSEEN.has(sourceId); }

module.exports = { allCases, allRows, gpuId, isUnseen, pickUnseen, sourceKey, GIB, GB };
