// SPDX-License-Identifier: MIT
#include "engine/training.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/activations.hpp"
#include "engine/model.hpp"
#include "types/checked.hpp"
#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {
constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
constexpr double kSecondsPerHour = 3600;
// Token ids are stored as uint16 when the vocabulary fits, else uint32 (Megatron indexed
// datasets, llm-foundry streaming MDS).
constexpr double kUint16Vocab = 65536;
// Share of a full training micro-batch's compute that is backward (2 of fwd 1 + bwd 2).
constexpr double kBackwardShare = 2.0 / 3.0;
// A causal FlashAttention kernel computes only the unmasked half of the s x s scores.
constexpr double kCausalWork = 0.5;
// Operator launches per decoder layer and micro-batch (forward + backward), see ops_per_layer.
constexpr double kOpsPerLayerForwardBackward = 126;
constexpr double kOpsPerLoraModule = 12;
// Gradient bucket of PyTorch DDP (bucket_cap_mb = 25; DeepSpeed's reduce buckets are similar):
// data-parallel traffic goes out in messages of this size.
constexpr double kBucketBytes = 25e6;
// Context-parallel ring (Liu et al. 2023, "Ring Attention"; Megatron-LM / Transformer Engine
// AttnFuncWithCPAndKVP2P): every layer's forward passes each rank's K and V chunk around the
// ring; the backward passes K and V again plus their gradients dK and dV: twice the forward.
constexpr double kRingBackwardPerForward = 2;
// DualPipe's bubble is (pp/2 - 1)(F&B + B - 3W) against 1F1B's (pp - 1)(F + B) (DeepSeek-V3
// report, Table 2). With the backward twice the forward and its weight-gradient half W equal to
// the forward (Qi et al. 2023, zero-bubble pipelines), F&B + B - 3W = (F + B) + B - 3F = 2/3 of
// one micro-batch's F + B.
constexpr double kDualPipeBubblePerStagePair = 2.0 / 3.0;

/// The dense peaks (TFLOPS, never sparse) training at `precision` runs at: the GEMMs', and the
/// attention core's, which stays 16-bit under FP8 (Transformer Engine). nullopt when the part
/// publishes no rate at that precision (FP8, FP32).
struct PeakRates {
  double linear = 0;
  double attention = 0;
};
std::optional<PeakRates> training_peaks(const GpuSpec& gpu, Precision precision) {
  const double bf16 = precision == Precision::kFp16 ? gpu.fp16_dense_tflops : gpu.bf16_dense_tflops;
  if (precision == Precision::kFp8) {
    if (!gpu.fp8_dense_tflops) return std::nullopt;
    return PeakRates{*gpu.fp8_dense_tflops, bf16};
  }
  if (precision == Precision::kFp32) {
    if (!gpu.fp32_tflops) return std::nullopt;
    return PeakRates{*gpu.fp32_tflops, *gpu.fp32_tflops};
  }
  return PeakRates{bf16, bf16};
}

/// Bytes the optimizer step reads and writes per trainable parameter.
double optimizer_step_bytes_per_param(const TrainingSettings& t) {
  const OptimizerState o = optimizer_state(t);
  const double weight = t.precision == Precision::kFp32 ? 4 : 2;
  // Read + write each state and the fp32 master, read the gradient, write the 16-bit weight
  // (or read + write it when there is no master copy).
  return 2 * o.states * o.bytes_per_state + (o.master_bytes > 0 ? 2 * o.master_bytes + weight : 2 * weight) +
         t.accounting.gradient_bytes;
}
}  // namespace

double token_budget(const Request& req, const PerformanceConstants& k) {
  const TrainingPerfSettings& p = req.training.perf;
  if (p.tokens) return *p.tokens;
  if (p.dataset_tokens) return *p.dataset_tokens * p.epochs.value_or(1);
  if (req.task == Task::kPretrain) {
    return k.pretrain_tokens_per_parameter * count_params(req.model).total;
  }
  return k.finetune_tokens;
}

std::string token_budget_text(const Request& req, const PerformanceConstants& k) {
  const TrainingPerfSettings& p = req.training.perf;
  const double tokens = token_budget(req, k);
  if (p.tokens) return "Token budget " + format_number(tokens) + " (/training/tokens).";
  if (p.dataset_tokens) {
    return "Token budget " + format_number(tokens) + " = " + format_number(p.epochs.value_or(1)) +
           " epoch(s) x " + format_number(*p.dataset_tokens) + " dataset tokens.";
  }
  if (req.task == Task::kPretrain) {
    return "No token budget given: " + format_number(k.pretrain_tokens_per_parameter) +
           " tokens per parameter (Chinchilla compute-optimal) = " + format_number(tokens) +
           " tokens; set /training/tokens.";
  }
  return "No token budget given: " + format_number(tokens) +
         " tokens assumed; set /training/tokens or epochs and dataset_tokens.";
}

std::int64_t global_batch_for(const Request& req, const Layout& L, const PerformanceConstants& k,
                              bool* adjusted) {
  const std::int64_t per_pass = req.training.micro_batch_size * L.dp;
  std::int64_t target;
  if (req.training.perf.global_batch_size) {
    target = *req.training.perf.global_batch_size;
  } else if (req.task == Task::kPretrain) {
    target = checked_int64(
        std::ceil(k.auto_global_batch_tokens_pretrain / tokens_per_example(req.training)),
        "performance.json/defaults/auto_global_batch_tokens_pretrain", "the global batch");
  } else {
    target = checked_int64(std::ceil(k.auto_global_batch_sequences_finetune),
                           "performance.json/defaults/auto_global_batch_sequences_finetune",
                           "the global batch");
  }
  const std::int64_t passes = std::max<std::int64_t>(1, (target + per_pass - 1) / per_pass);
  const std::int64_t batch = passes * per_pass;
  if (adjusted) *adjusted = req.training.perf.global_batch_size.has_value() && batch != target;
  return batch;
}

double ops_per_layer(const Request& req) {
  // Kernels a Llama-style decoder layer launches in eager PyTorch: forward ~42 (two RMSNorms
  // of ~8 each, 4 attention projections, ~12 for rotary embeddings, attention, 3 MLP matmuls,
  // activation, product, two residual adds), backward ~2x: 126 per micro-batch. A LoRA adapter
  // adds ~12 per targeted module (A, B, scale, add, forward and backward); a full recompute
  // re-runs the forward.
  double ops = kOpsPerLayerForwardBackward;
  if (is_adapter(req.task)) ops += kOpsPerLoraModule * req.training.lora_targets.count();
  if (req.training.activation_checkpointing == Checkpointing::kFull)
    ops += kOpsPerLayerForwardBackward / 3;
  return ops;
}

double gemm_shape_efficiency(double tokens, double width, double ffn_width, double ridge) {
  return 1 / (1 + ridge * (1 / tokens + 1 / width + 1 / ffn_width));
}

double expert_matmul_share(const ModelArch& m) {
  if (!m.moe || m.moe->experts == 0) return 0;
  const ParamCounts c = count_params(m);
  const double matrices = m.mlp_gated ? 3 : 2;
  const double routed = c.moe_layers * matrices * double(m.hidden) *
                        double(m.moe->expert_ffn_hidden) * m.moe->experts_per_token;
  return routed / active_matmul_params(m);
}

TrainingJob training_job(const Request& req, const PerformanceConstants& k) {
  TrainingJob job;
  job.tokens = token_budget(req, k);
  job.flops = training_flops_per_token(req);
  job.params = count_params(req.model);
  job.trainable_params = trainable_params(req);
  job.expert_share = expert_matmul_share(req.model);
  job.ops_per_layer = ops_per_layer(req);
  job.base_weight_bits = base_weight_bits(req.training);
  return job;
}

TrainingPerf estimate_training(const Request& req, const GpuSpec& gpu, const Layout& L,
                               const Fabric& fabric, const PerformanceConstants& k) {
  return estimate_training(req, gpu, L, fabric, k, training_job(req, k));
}

GpuFractions gpu_fractions(const GpuSpec& gpu, const PerformanceConstants& k, Precision precision) {
  return {k.matmul_fraction(gpu.id, precision == Precision::kFp8), k.attention_fraction(gpu.id)};
}

TrainingPerf estimate_training(const Request& req, const GpuSpec& gpu, const Layout& L,
                               const Fabric& fabric, const PerformanceConstants& k,
                               const TrainingJob& job) {
  return estimate_training(req, gpu, L, fabric, k, job,
                           gpu_fractions(gpu, k, req.training.precision));
}

double gpu_hours_floor(const Request& req, const GpuSpec& gpu, const PerformanceConstants& k,
                       const TrainingJob& job, const GpuFractions& fractions) {
  // The peaks estimate_training() uses at the training precision.
  const std::optional<PeakRates> peaks = training_peaks(gpu, req.training.precision);
  if (!peaks) return 0;
  // Why it is a floor, term by term of estimate_training(): the step is at least its
  // micro-batches' GEMM and attention kernels (every other term is >= 0); the heaviest stage
  // runs at least 1/pp of the layers' FLOPs (and the whole LM head); the GEMM efficiency is
  // at most the stack's (shape efficiencies are <= 1 with a positive ridge, the expert share
  // is in [0, 1]); micro-batches x their tokens over dp x cp is the step's tokens, and tp x pp
  // x dp x cp is the count; goodput is <= 1. So gpu_hours = hours x count >= tokens x (linear
  // FLOPs / linear rate + causal attention FLOPs / attention rate) per token.
  const double eta = k.framework_efficiency * req.stack.efficiency_factor;
  const double linear_rate = peaks->linear * kTera * fractions.matmul * eta;
  const double attention_rate = peaks->attention * kTera * fractions.attention * eta;
  const bool safe = linear_rate > 0 && attention_rate > 0 && gpu.memory_bandwidth_tbps > 0 &&
                    job.expert_share >= 0 && job.expert_share <= 1 && job.tokens >= 0 &&
                    job.flops.hardware_linear >= 0 && job.flops.hardware_attention >= 0 &&
                    k.failures_per_gpu_hour >= 0 && k.hours_lost_per_failure >= 0;
  if (!safe) return 0;
  const double seconds_per_token = job.flops.hardware_linear / linear_rate +
                                   kCausalWork * job.flops.hardware_attention / attention_rate;
  const double floor = job.tokens * seconds_per_token / kSecondsPerHour;
  return std::isfinite(floor) ? floor : 0;
}

TrainingPerf estimate_training(const Request& req, const GpuSpec& gpu, const Layout& L,
                               const Fabric& fabric, const PerformanceConstants& k,
                               const TrainingJob& job, const GpuFractions& fractions) {
  TrainingPerf r;
  const ModelArch& m = req.model;
  const TrainingSettings& t = req.training;
  r.tokens = job.tokens;

  const std::optional<PeakRates> peaks = training_peaks(gpu, t.precision);
  if (!peaks) {
    const bool fp8 = t.precision == Precision::kFp8;
    r.reason = fp8 ? gpu.name + " has no FP8 tensor cores (or no published dense FP8 rate)"
                   : "no FP32 rate is published for " + gpu.name;
    r.reason_code = fp8 ? "no_fp8_rate" : "no_fp32_rate";
    return r;
  }
  const double peak_linear = peaks->linear, peak_attention = peaks->attention;
  const double mamf_linear = fractions.matmul;  // measured at the training precision
  r.available = true;
  r.peak_tflops = peak_linear;
  r.matmul_fraction = mamf_linear;
  r.flops = job.flops;

  // Micro-batches and the global batch.
  r.global_batch = global_batch_for(req, L, k, &r.batch_adjusted);
  r.microbatches = static_cast<int>(r.global_batch / (t.micro_batch_size * L.dp));
  const double seq = tokens_per_example(t);
  // Tokens of one micro-batch on one GPU: context parallelism gives each of its cp ranks
  // 1/cp of every sequence (Megatron's load-balanced causal chunks give each the same share of
  // the attention work, so compute per GPU is the total over the GPUs, as without cp).
  const double mb_tokens = static_cast<double>(t.micro_batch_size) * seq / L.cp;
  r.tokens_per_step = static_cast<double>(r.global_batch) * seq;
  const double m_count = r.microbatches;

  // Compute per micro-batch on the heaviest (last) pipeline stage: its share of the layers
  // plus the LM head.
  const ParamCounts& c = job.params;
  const int decoder_layers_stage = (m.layers + L.pp - 1) / L.pp;
  const double layer_share = double(decoder_layers_stage) / m.layers;
  // Every layer the stage runs: an encoder-decoder's encoder too (it has one stage).
  const int layers_stage = decoder_layers_stage + m.encoder_layers;
  const bool adapter = is_adapter(req.task);
  const double head_hw = r.flops.head_forward * (adapter ? 2 : 3);
  const double stage_linear = (r.flops.hardware_linear - head_hw) * layer_share + head_hw;
  const double stage_attention = r.flops.hardware_attention * layer_share;
  // GEMM shapes: M = tokens of the micro-batch, K/N = hidden and MLP width per TP rank. Routed
  // experts see only their share of the tokens: tokens x top-k x ep / experts rows each.
  // Ridge point in FLOPs per 16-bit element moved: FP8 operands are half the bytes.
  const double element_bytes = t.precision == Precision::kFp8 ? 1 : t.precision == Precision::kFp32 ? 4 : 2;
  const double ridge = peak_linear / gpu.memory_bandwidth_tbps * element_bytes / 2;
  const double width = double(m.hidden) / L.tp;
  const double dense_eff = gemm_shape_efficiency(
      mb_tokens, width, double(m.ffn_hidden) / L.tp, ridge);
  const double expert_share = job.expert_share;
  double expert_eff = dense_eff;
  if (expert_share > 0) {
    const double rows = mb_tokens * m.moe->experts_per_token * L.ep / m.moe->experts;
    expert_eff = gemm_shape_efficiency(std::max(1.0, rows), width,
                                       double(m.moe->expert_ffn_hidden) / L.tp, ridge);
  }
  // Harmonic mix over the FLOPs of each kind of GEMM; the stack's fused kernels move the
  // framework efficiency by its factor.
  const double eta = k.framework_efficiency * req.stack.efficiency_factor;
  r.gemm_efficiency = eta / ((1 - expert_share) / dense_eff + expert_share / expert_eff);
  const double t_linear =
      mb_tokens * stage_linear / L.tp / (peak_linear * kTera * mamf_linear * r.gemm_efficiency);
  // The attention core runs in FlashAttention kernels, not GEMMs: causal kernels skip the
  // masked half of the score matrix, at the part's measured FlashAttention rate.
  const double t_attention = mb_tokens * kCausalWork * stage_attention / L.tp /
                             (peak_attention * kTera * fractions.attention * eta);
  // Memory-bound kernels between the GEMMs (norms, residual adds, activation functions,
  // rotary, dropout, a materialised softmax) stream the activations: each byte the forward
  // writes is moved the stack's activation_traffic_passes times over forward and backward, and
  // a full recompute's forward writes it again. GEMM-shape efficiency cannot express this: it
  // is bytes per token, not FLOPs, so it weighs most on narrow models and on parts with many
  // FLOPs per byte of bandwidth (H100 ~295, A100 ~153).
  const double bw = gpu.memory_bandwidth_tbps * kTera * k.memory_bandwidth_efficiency;
  r.memory_bandwidth_gbps = bw / kGiga;
  const double moe_layers_stage = c.moe_layers * layer_share;
  const double written = stage_activation_bytes_written(
      req, L, decoder_layers_stage - moe_layers_stage, moe_layers_stage);
  const double recompute_passes =
      t.activation_checkpointing == Checkpointing::kFull ? 1 + (1 - kBackwardShare) : 1;
  r.memory_bound_bytes_per_microbatch =
      written * req.stack.activation_traffic_passes * recompute_passes;
  const double t_memory_bound_mb = r.memory_bound_bytes_per_microbatch / bw;
  const double t_kernels_mb = t_linear + t_attention;
  const double t_compute_mb = t_kernels_mb + t_memory_bound_mb;
  // The host launches every operator of the micro-batch; the GPU cannot finish before the last
  // launch (eager PyTorch ~10 us per op, compiled graphs far less): small models, short
  // sequences and eager LoRA adapters are launch-bound.
  r.host_s_per_microbatch = layers_stage * job.ops_per_layer * req.stack.dispatch_us_per_op * 1e-6;

  // QLoRA: the 4-bit base is dequantised to bf16 before each GEMM, in every pass over it
  // (forward, backward, and the recomputed forward): read 4.127 bits, write 16 per weight.
  double t_dequant_mb = 0;
  if (req.task == Task::kQlora) {
    const double base_bits = job.base_weight_bits;
    const double expert_linear = c.moe_layers * c.moe_linear_per_layer;
    const double linear_gpu =
        ((c.block_linear - expert_linear) + expert_linear / L.ep) * layer_share / L.tp;
    const int passes = t.activation_checkpointing == Checkpointing::kFull ? 3 : 2;
    t_dequant_mb = passes * linear_gpu * (base_bits / 8 + 2) / bw;
  }

  // Offloaded activations: each checkpointed layer input goes to host RAM in the forward and
  // comes back in the backward, over the GPU's PCIe link, hidden behind the compute it can.
  double t_offload_mb = 0;
  if (t.offload_activations && t.activation_checkpointing == Checkpointing::kFull) {
    const double sp = (t.sequence_parallel && L.tp > 1) ? L.tp : 1;
    const double bytes = 2.0 * layers_stage * mb_tokens * m.hidden *
                         (t.precision == Precision::kFp32 ? 4 : 2) / sp;
    const double pcie = fabric.pcie_gbps * k.pcie_host_efficiency * kGiga;
    t_offload_mb = std::max(0.0, bytes / pcie - t_compute_mb);
  }

  // Where the groups sit, and their bus bandwidths.
  const int G = fabric.gpus_per_node;
  const GroupPlacement place = place_groups(L, G);
  const double act_bytes = t.precision == Precision::kFp32 ? 4 : 2;

  // Tensor parallel (Megatron, Shoeybi et al. 2019): 2 all-reduces in the forward and 2 in the
  // backward per layer of s x b x h activations (with sequence parallelism: reduce-scatter +
  // all-gather, the same volume); a full recompute repeats the forward ones. Not overlapped.
  // Each is one NCCL collective: latency-bound when small (comm.cpp).
  double t_tp_mb = 0;
  if (L.tp > 1) {
    r.tp_busbw_gbps = allreduce_busbw(fabric, L.tp, place.tp_per_node, k);
    const double bytes = mb_tokens * m.hidden * act_bytes;
    const int per_layer = t.activation_checkpointing == Checkpointing::kFull ? 6 : 4;
    t_tp_mb = layers_stage * per_layer *
              allreduce_time_s(bytes, L.tp, place.tp_per_node, fabric, k);
  }

  // Expert parallel: dispatch and combine all-to-alls per MoE layer, forward and backward
  // ((ep-1)/ep of the routed tokens leave each GPU, like a reduce-scatter's volume).
  double t_ep_mb = 0;
  if (L.ep > 1 && m.moe) {
    const int moe_stage = static_cast<int>(std::ceil(c.moe_layers * layer_share));
    const int ep_per_node = std::max(1, std::min(L.ep, place.dp_per_node));
    const double bytes = mb_tokens * m.moe->experts_per_token * m.hidden * act_bytes;
    const int count = t.activation_checkpointing == Checkpointing::kFull ? 6 : 4;
    t_ep_mb = moe_stage * count * reduce_scatter_time_s(bytes, L.ep, ep_per_node, fabric, k);
  }

  // Context parallel: each layer's forward passes every rank's K and V chunk around the ring of
  // cp ranks ((cp-1)/cp of the sequence's K and V reach each rank, an all-gather's volume), the
  // backward K, V, dK and dV (twice that), a recompute the forward's again. The ring sends the
  // next chunk while the attention kernel works on the current one (Liu et al. 2023, "Ring
  // Attention", sec. 3; Megatron-LM's context parallelism overlaps the P2P exchange with
  // attention compute the same way), so per micro-batch only what exceeds the attention time of
  // the cp-1 chunks that arrive is exposed. Inside a server when tp x cp fits in it (Megatron
  // order: tp innermost, then cp), else over the network.
  double t_cp_mb = 0, t_cp_exposed_mb = 0;
  if (L.cp > 1) {
    r.cp_busbw_gbps = group_busbw(fabric, L.cp, place.cp_per_node, k);
    const double local_kv = mb_tokens * ring_kv_elements_per_token(m, L.tp) * act_bytes;
    const bool recompute = t.activation_checkpointing != Checkpointing::kNone;
    const double passes = 1 + kRingBackwardPerForward + (recompute ? 1 : 0);
    t_cp_mb = layers_stage * passes *
              reduce_scatter_time_s(local_kv * L.cp, L.cp, place.cp_per_node, fabric, k);
    t_cp_exposed_mb = std::max(0.0, t_cp_mb - t_attention * (L.cp - 1) / L.cp);
  }

  // Pipeline: point-to-point activations forward and gradients backward per micro-batch; the
  // interleaved schedule sends v times as often (each model chunk's boundary).
  double t_pp_mb = 0;
  const int vp = L.pp > 1 ? req.parallelism.virtual_stages : 1;
  if (L.pp > 1) {
    const double sp = (t.sequence_parallel && L.tp > 1) ? L.tp : 1;
    const double bytes = mb_tokens * m.hidden * act_bytes / sp;
    t_pp_mb = 2 * vp * p2p_time_s(bytes, place.pp_crosses, fabric, k);
  }

  // Data parallel: gradients (and ZeRO-3 parameters) over the data-parallel group, in the
  // messages frameworks send: DDP/ZeRO-1/2 buckets of 25 MB, ZeRO-3/FSDP one unit per layer.
  double dp_mb = 0;    // per micro-batch, overlappable with that micro-batch's compute
  double dp_step = 0;  // per step, overlappable with the last micro-batch's backward
  double dp_step_exposed_fixed = 0;  // per step, not overlapped (ZeRO-2 parameter all-gather)
  double dp_param_gather = 0;        // per step, overlappable with the first micro-batch's forward
  // Gradients are reduced (and ZeRO state sharded) over data x context parallel; under hybrid
  // sharding (PyTorch FSDP ShardingStrategy.HYBRID_SHARD, torchtitan data_parallel_shard_degree
  // x data_parallel_replicate_degree, ZeRO++ hpZ: Wang et al. 2023) the ZeRO collectives run
  // inside a shard group of `shards` ranks and each rank's gradient shard is all-reduced across
  // the `replicas` copies of its group once per step.
  const int dp_group = L.shard_ranks();
  const int shards = L.zero_shards();  // dp_group without a shard group
  const int replicas = L.shard_replicas();
  if (dp_group > 1) {
    const double expert_params = c.moe_layers * c.moe_expert_per_layer;
    const double dense_gpu = (c.total - expert_params) / (L.tp * L.pp);
    const double expert_gpu = expert_params / (L.tp * L.pp * L.ep);
    const int expert_dp = std::max(1, dp_group / L.ep);
    const int expert_shards = std::max(1, shards / L.ep);  // expert_dp without a shard group
    r.dp_busbw_gbps = group_busbw(fabric, shards, place.shard_per_node, k);
    const int expert_per_node = std::max(1, place.dp_per_node / L.ep);
    const int expert_shard_per_node = std::max(1, place.shard_per_node / L.ep);
    const double grad_b = t.accounting.gradient_bytes;
    // Bytes per parameter gathered under ZeRO-3: the weights as stored (QLoRA: 4-bit base).
    double weight_b = t.precision == Precision::kFp32 ? 4 : 2;
    double trainable_dense = dense_gpu, trainable_expert = expert_gpu;
    if (adapter) {
      const double bits = job.base_weight_bits;
      const double linear_share = c.total > 0 ? c.block_linear / c.total : 1;
      weight_b = linear_share * bits / 8 + (1 - linear_share) * 2;
      const double lora = job.trainable_params / (L.tp * L.pp);
      trainable_dense = lora;
      trainable_expert = 0;
    }
    // `bytes` sent as messages of at most `message` bytes (at least one per layer unit).
    auto split = [&](double bytes, double message, auto collective, int n, int per_node) {
      if (bytes <= 0) return 0.0;
      const double count = std::max(1.0, std::ceil(bytes / message));
      return count * collective(bytes / count, n, per_node, fabric, k);
    };
    // Megatron-LM scales its buckets with the data-parallel size (max(40M, 1M x dp)
    // elements): a ring collective over dp ranks pays dp-1 steps of latency per message, so
    // small buckets over hundreds of ranks would be latency-bound.
    const double bucket =
        std::max(kBucketBytes, req.stack.dp_bucket_elements_per_rank * shards * grad_b);
    const double unit = std::max(1.0, dense_gpu * weight_b / std::max(1, layers_stage));
    auto ar = [&](double dense_bytes, double expert_bytes) {
      return split(dense_bytes, bucket, allreduce_time_s, dp_group, place.dp_per_node) +
             split(expert_bytes, bucket, allreduce_time_s, expert_dp, expert_per_node);
    };
    // ZeRO's reduce-scatters and all-gathers (same volume and time) over the shard group.
    auto rs = [&](double dense_bytes, double expert_bytes, double message) {
      return split(dense_bytes, message, reduce_scatter_time_s, shards, place.shard_per_node) +
             split(expert_bytes, message, reduce_scatter_time_s, expert_shards,
                   expert_shard_per_node);
    };
    if (L.zero == 0) {
      // DDP bucketed all-reduce, once per step after gradient accumulation (Rajbhandari et
      // al. 2020, sec. 7: 2 x params), overlapped with the last micro-batch's backward.
      dp_step = ar(trainable_dense * grad_b, trainable_expert * grad_b);
    } else if (L.zero == 1) {
      // ZeRO-1 / Megatron's distributed optimizer: the gradients are reduce-scattered (in the
      // gradient dtype) during the last micro-batch's backward, and the updated 16-bit
      // weights all-gathered during the next step's first forward, one layer's chunk at a
      // time (NVIDIA Megatron Bridge, "Communication Overlap": reduce-scatter of gradients
      // and all-gather of updated parameters, each overlapped with compute).
      dp_step = rs(trainable_dense * grad_b, trainable_expert * grad_b, bucket);
      const double updated_b = adapter ? 2 : weight_b;  // adapters are 16-bit
      dp_param_gather = rs(trainable_dense * updated_b, trainable_expert * updated_b, bucket);
    } else if (L.zero == 2) {
      // Gradients reduce-scattered in every backward, parameters all-gathered after the step.
      dp_mb = rs(trainable_dense * grad_b, trainable_expert * grad_b, bucket);
      const double updated_b = adapter ? 2 : weight_b;  // adapters are 16-bit
      dp_step_exposed_fixed = rs(trainable_dense * updated_b, trainable_expert * updated_b, bucket);
    } else if (L.pp > 1 && req.stack.zero3_gather_once_per_step_with_pp) {
      // ZeRO-3 under pipeline parallelism in stacks that keep the gathered weights for all of a
      // step's micro-batches (torchtitan): one all-gather and one gradient reduce-scatter per
      // step, not per micro-batch.
      dp_step = rs(dense_gpu * weight_b, expert_gpu * weight_b, unit) +
                rs(trainable_dense * grad_b, trainable_expert * grad_b, unit);
    } else {
      // ZeRO-3 / FSDP full shard: all-gather the weights for the forward and again for the
      // backward, reduce-scatter the gradients: 3 x the parameter volume per micro-batch
      // (Rajbhandari et al. 2020, sec. 7.2.2: 1.5 x DDP), one message per layer unit.
      const double gathers = 2 * rs(dense_gpu * weight_b, expert_gpu * weight_b, unit);
      dp_mb = gathers + rs(trainable_dense * grad_b, trainable_expert * grad_b, unit);
    }
    if (replicas > 1) {
      // Hybrid sharding: after the reduce-scatter inside the shard group, each rank all-reduces
      // its gradient shard (params / shard group x gradient bytes) with the ranks holding the
      // same shard in the other groups (PyTorch FSDP docs, HYBRID_SHARD: "Apply FULL_SHARD within
      // a node, and replicate parameters across nodes"; the all-gathers and reduce-scatters stay
      // inside the group), once per step, overlapped like the other per-step data-parallel
      // traffic with the last micro-batch's backward.
      r.replica_busbw_gbps = group_busbw(fabric, replicas, place.replica_per_node, k);
      r.shard_replica_s = split(trainable_dense * grad_b / shards, bucket, allreduce_time_s,
                                replicas, place.replica_per_node) +
                          split(trainable_expert * grad_b / expert_shards, bucket, allreduce_time_s,
                                replicas, place.replica_per_node);
      dp_step += r.shard_replica_s;
    }
  }
  const double dp_mb_exposed = std::max(0.0, dp_mb - k.overlap_fraction * t_compute_mb);
  const double backward_last = t_compute_mb * (adapter ? 0.5 : kBackwardShare);
  const double forward_first = t_compute_mb - backward_last;
  const double dp_step_exposed =
      std::max(0.0, dp_step - k.overlap_fraction * backward_last) +
      std::max(0.0, dp_param_gather - k.overlap_fraction * forward_first) + dp_step_exposed_fixed;

  // Optimizer step over this GPU's shard of the trainable parameters (bandwidth-bound).
  const double trainable_gpu = job.trainable_params / (L.tp * L.pp) / (L.zero >= 1 ? shards : 1);
  const double opt_bytes = optimizer_step_bytes_per_param(t);
  if (t.offload_optimizer) {
    // ZeRO-Offload: fp32 gradients down and 16-bit weights up over PCIe, Adam on the CPU
    // sharing the host memory bandwidth with the server's other GPUs.
    const double pcie = fabric.pcie_gbps * k.pcie_host_efficiency * kGiga;
    const double host = k.host_memory_bandwidth_gbps * kGiga / std::min(L.count, G);
    r.optimizer_s = trainable_gpu * (4 + 2) / pcie + trainable_gpu * opt_bytes / host;
  } else {
    r.optimizer_s = trainable_gpu * opt_bytes / bw;
  }

  // The step: micro-batches back to back (each at least as long as its operator launches),
  // the pipeline fill/drain bubble ((pp-1)/(m+pp-1) of the step for 1F1B, Narayanan et al.
  // 2021; 1/v of that with v interleaved model chunks per stage, ibid. sec. 2.2), unhidden
  // traffic, the optimizer.
  // DualPipe runs a forward chunk of one direction against a backward chunk of the other and
  // sends each one's all-to-alls and pipeline transfers while the other computes (DeepSeek-V3
  // report, sec. 3.2.1): only traffic beyond a micro-batch's compute waits.
  const bool dualpipe = runs_dualpipe(req, L);
  const double overlapped_mb = dualpipe ? t_ep_mb + t_pp_mb : 0;
  const double overlapped_exposed_mb = std::max(0.0, overlapped_mb - t_compute_mb);
  const double gpu_mb = t_compute_mb + t_tp_mb + (dualpipe ? overlapped_exposed_mb : t_ep_mb) +
                        t_cp_exposed_mb + t_dequant_mb + t_offload_mb;
  r.activation_offload_s = m_count * t_offload_mb;
  const double launch_mb = std::max(0.0, r.host_s_per_microbatch - gpu_mb);
  const double per_mb_busy = gpu_mb + launch_mb;
  r.compute_s = m_count * t_kernels_mb;
  r.memory_bound_s = m_count * t_memory_bound_mb;
  r.dequantization_s = m_count * t_dequant_mb;
  r.launch_overhead_s = m_count * launch_mb;
  r.pipeline_bubble_s = dualpipe ? (L.pp / 2 - 1) * kDualPipeBubblePerStagePair * per_mb_busy
                                 : (L.pp - 1) * per_mb_busy / vp;
  r.tensor_parallel_s = m_count * t_tp_mb;
  r.expert_parallel_s = m_count * t_ep_mb;
  r.context_parallel_s = m_count * t_cp_mb;
  r.context_parallel_exposed_s = m_count * t_cp_exposed_mb;
  r.pipeline_p2p_s = m_count * t_pp_mb;
  r.data_parallel_s = m_count * dp_mb + dp_step + dp_param_gather + dp_step_exposed_fixed;
  r.data_parallel_exposed_s = m_count * dp_mb_exposed + dp_step_exposed;
  r.overlapped_pipeline_traffic_s = m_count * overlapped_mb;
  r.overlapped_pipeline_traffic_exposed_s = m_count * overlapped_exposed_mb;
  r.exposed_communication_s =
      r.tensor_parallel_s + r.context_parallel_exposed_s + r.data_parallel_exposed_s +
      (dualpipe ? r.overlapped_pipeline_traffic_exposed_s : r.expert_parallel_s + r.pipeline_p2p_s);
  r.step_time_s = r.compute_s + r.memory_bound_s + r.dequantization_s + r.launch_overhead_s +
                  r.activation_offload_s + r.pipeline_bubble_s + r.exposed_communication_s +
                  r.optimizer_s;

  r.tokens_per_second = r.tokens_per_step / r.step_time_s;
  r.achieved_tflops_per_gpu = r.flops.model * r.tokens_per_second / L.count / kTera;
  r.mfu = r.achieved_tflops_per_gpu / r.peak_tflops;
  // A whole run loses time to interruptions: each GPU fails at a rate per hour, and every
  // failure costs the job a restart plus the progress since the last checkpoint (Llama 3: 419
  // unexpected interruptions in 54 days on 16,384 GPUs, over 90% effective training time).
  r.goodput = 1 / (1 + k.failures_per_gpu_hour * L.count * k.hours_lost_per_failure);
  r.hours = r.tokens / r.tokens_per_second / kSecondsPerHour / r.goodput;
  r.gpu_hours = r.hours * L.count;
  const double bytes_per_token = double(m.vocab) <= kUint16Vocab ? 2 : 4;
  r.storage_read_gbps_needed =
      r.tokens_per_second * bytes_per_token * k.storage_read_factor / kGiga;
  return r;
}

}  // namespace advisor
