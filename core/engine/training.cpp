// SPDX-License-Identifier: MIT
#include "engine/training.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "engine/activations.hpp"
#include "engine/model.hpp"
#include "engine/training_traffic.hpp"
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

/// The stack's share of the measured kernel rates: the framework's efficiency x the stack's
/// fused-kernel factor.
double stack_efficiency(const Request& req, const PerformanceConstants& k) {
  return k.framework_efficiency * req.stack.efficiency_factor;
}

/// Bytes the optimizer step reads and writes per trainable parameter.
double optimizer_step_bytes_per_param(const TrainingSettings& t) {
  const OptimizerState o = optimizer_state(t);
  const double weight = t.precision == Precision::kFp32 ? 4 : 2;
  // Read + write each state and the fp32 master, read the gradient, write the 16-bit weight
  // (or read + write it when there is no master copy).
  return 2 * o.states * o.bytes_per_state +
         (o.master_bytes > 0 ? 2 * o.master_bytes + weight : 2 * weight) +
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
  const double eta = stack_efficiency(req, k);
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

namespace {

/// One micro-batch's time on the heaviest pipeline stage, term by term (seconds).
struct MicrobatchSeconds {
  double gemm_s = 0;                // linear layers and the LM head
  double attention_s = 0;           // FlashAttention kernels
  double memory_bound_s = 0;        // norms, residual adds, activation functions: bytes, not FLOPs
  double dequantization_s = 0;      // QLoRA: the 4-bit base to bf16
  double activation_offload_s = 0;  // offloaded activations' PCIe traffic compute cannot hide
  double tensor_parallel_s = 0;
  double tensor_parallel_exposed_s = 0;  // what the GEMMs beside it do not hide
  double expert_parallel_s = 0;
  double context_parallel_s = 0;
  double context_parallel_exposed_s = 0;  // what the attention kernels beside it do not hide
  double pipeline_p2p_s = 0;
  double pipeline_p2p_exposed_s = 0;  // what the next chunk's compute does not hide
  double kernels_s() const { return gemm_s + attention_s; }
  double compute_s() const { return kernels_s() + memory_bound_s; }
};

/// A part without a dense rate at the training precision cannot train at it.
TrainingPerf without_rate(TrainingPerf r, const GpuSpec& gpu, Precision precision) {
  const bool fp8 = precision == Precision::kFp8;
  r.reason = fp8 ? gpu.name + " has no FP8 tensor cores (or no published dense FP8 rate)"
                 : "no FP32 rate is published for " + gpu.name;
  r.reason_code = fp8 ? "no_fp8_rate" : "no_fp32_rate";
  return r;
}

/// The stack's GEMM efficiency for one micro-batch on the heaviest stage.
double gemm_efficiency(const Request& req, const GpuSpec& gpu, const Layout& L,
                       const PerformanceConstants& k, const TrainingJob& job,
                       double peak_linear_tflops, const StageWork& stage) {
  const ModelArch& m = req.model;
  const Precision precision = req.training.precision;
  // GEMM shapes: M = tokens of the micro-batch, K/N = hidden and MLP width per TP rank. Routed
  // experts see only their share of the tokens: tokens x top-k x ep / experts rows each.
  // Ridge point in FLOPs per 16-bit element moved: FP8 operands are half the bytes.
  const double element_bytes = precision == Precision::kFp8    ? 1
                               : precision == Precision::kFp32 ? 4
                                                               : 2;
  const double ridge = peak_linear_tflops / gpu.memory_bandwidth_tbps * element_bytes / 2;
  const double width = double(m.hidden) / L.tp;
  const double dense_eff =
      gemm_shape_efficiency(stage.microbatch_tokens, width, double(m.ffn_hidden) / L.tp, ridge);
  const double expert_share = job.expert_share;
  double expert_eff = dense_eff;
  if (expert_share > 0) {
    const double rows = stage.microbatch_tokens * m.moe->experts_per_token * L.ep / m.moe->experts;
    expert_eff = gemm_shape_efficiency(std::max(1.0, rows), width,
                                       double(m.moe->expert_ffn_hidden) / L.tp, ridge);
  }
  // Harmonic mix over the FLOPs of each kind of GEMM; the stack's fused kernels move the
  // framework efficiency by its factor.
  return stack_efficiency(req, k) / ((1 - expert_share) / dense_eff + expert_share / expert_eff);
}

/// The GEMMs of one micro-batch on the heaviest (last) stage: its share of the layers plus the
/// whole LM head.
double gemm_seconds_per_microbatch(const Request& req, const Layout& L, const TrainingJob& job,
                                   const StageWork& stage, double peak_linear_tflops,
                                   double matmul_fraction, double gemm_efficiency) {
  const double head_hw = job.flops.head_forward * (is_adapter(req.task) ? 2 : 3);
  const double stage_linear = (job.flops.hardware_linear - head_hw) * stage.layer_share + head_hw;
  return stage.microbatch_tokens * stage_linear / L.tp /
         (peak_linear_tflops * kTera * matmul_fraction * gemm_efficiency);
}

/// The attention core runs in FlashAttention kernels, not GEMMs: causal kernels skip the
/// masked half of the score matrix, at the part's measured FlashAttention rate.
double attention_seconds_per_microbatch(const Request& req, const Layout& L,
                                        const PerformanceConstants& k, const TrainingJob& job,
                                        const StageWork& stage, double peak_attention_tflops,
                                        double attention_fraction) {
  const double stage_attention = job.flops.hardware_attention * stage.layer_share;
  return stage.microbatch_tokens * kCausalWork * stage_attention / L.tp /
         (peak_attention_tflops * kTera * attention_fraction * stack_efficiency(req, k));
}

/// Memory-bound kernels between the GEMMs (norms, residual adds, activation functions, rotary,
/// dropout, a materialised softmax) stream the activations: each byte the forward writes is
/// moved the stack's activation_traffic_passes times over forward and backward, and a full
/// recompute's forward writes it again. GEMM-shape efficiency cannot express this: it is bytes
/// per token, not FLOPs, so it weighs most on narrow models and on parts with many FLOPs per
/// byte of bandwidth (H100 ~295, A100 ~153).
double memory_bound_bytes_per_microbatch(const Request& req, const Layout& L,
                                         const TrainingJob& job, const StageWork& stage) {
  const double moe_layers_stage = job.params.moe_layers * stage.layer_share;
  const double written = stage_activation_bytes_written(
      req, L, stage.decoder_layers - moe_layers_stage, moe_layers_stage);
  const double recompute_passes =
      req.training.activation_checkpointing == Checkpointing::kFull ? 1 + (1 - kBackwardShare) : 1;
  return written * req.stack.activation_traffic_passes * recompute_passes;
}

/// The host launches every operator of the micro-batch; the GPU cannot finish before the last
/// launch (eager PyTorch ~10 us per op, compiled graphs far less): small models, short
/// sequences and eager LoRA adapters are launch-bound.
double host_launch_seconds_per_microbatch(const Request& req, const TrainingJob& job,
                                          const StageWork& stage) {
  return stage.layers * job.ops_per_layer * req.stack.dispatch_us_per_op * 1e-6;
}

/// QLoRA: the 4-bit base is dequantised to bf16 before each GEMM, in every pass over it
/// (forward, backward, and the recomputed forward): read 4.127 bits, write 16 per weight.
double qlora_dequantization_seconds_per_microbatch(const Request& req, const Layout& L,
                                                   const TrainingJob& job, const StageWork& stage,
                                                   double bandwidth_bytes_per_s) {
  if (req.task != Task::kQlora) return 0;
  const ParamCounts& c = job.params;
  const double base_bits = job.base_weight_bits;
  const double expert_linear = c.moe_layers * c.moe_linear_per_layer;
  const double linear_gpu =
      ((c.block_linear - expert_linear) + expert_linear / L.ep) * stage.layer_share / L.tp;
  const int passes = req.training.activation_checkpointing == Checkpointing::kFull ? 3 : 2;
  return passes * linear_gpu * (base_bits / 8 + 2) / bandwidth_bytes_per_s;
}

/// Offloaded activations: each checkpointed layer input goes to host RAM in the forward and
/// comes back in the backward, over the GPU's PCIe link, hidden behind the compute it can.
double activation_offload_seconds_per_microbatch(const Request& req, const Layout& L,
                                                 const Fabric& fabric,
                                                 const PerformanceConstants& k,
                                                 const StageWork& stage, double compute_s) {
  const TrainingSettings& t = req.training;
  if (!(t.offload_activations && t.activation_checkpointing == Checkpointing::kFull)) return 0;
  const double sp = (t.sequence_parallel && L.tp > 1) ? L.tp : 1;
  const double bytes = 2.0 * stage.layers * stage.microbatch_tokens * req.model.hidden *
                       (t.precision == Precision::kFp32 ? 4 : 2) / sp;
  const double pcie = fabric.pcie_gbps * k.pcie_host_efficiency * kGiga;
  return std::max(0.0, bytes / pcie - compute_s);
}

/// The optimizer step over this GPU's shard of the trainable parameters (bandwidth-bound).
double optimizer_seconds(const Request& req, const Layout& L, const Fabric& fabric,
                         const PerformanceConstants& k, const TrainingJob& job,
                         double bandwidth_bytes_per_s) {
  const TrainingSettings& t = req.training;
  const double trainable_gpu =
      job.trainable_params / (L.tp * L.pp) / (L.zero >= 1 ? L.zero_shards() : 1);
  const double opt_bytes = optimizer_step_bytes_per_param(t);
  if (t.offload_optimizer) {
    // ZeRO-Offload: fp32 gradients down and 16-bit weights up over PCIe, Adam on the CPU
    // sharing the host memory bandwidth with the server's other GPUs.
    const double pcie = fabric.pcie_gbps * k.pcie_host_efficiency * kGiga;
    const double host =
        k.host_memory_bandwidth_gbps * kGiga / std::min(L.count, fabric.gpus_per_node);
    return trainable_gpu * (4 + 2) / pcie + trainable_gpu * opt_bytes / host;
  }
  return trainable_gpu * opt_bytes / bandwidth_bytes_per_s;
}

/// DualPipe runs a forward chunk of one direction against a backward chunk of the other and
/// sends each one's all-to-alls and pipeline transfers while the other computes (DeepSeek-V3
/// report, sec. 3.2.1): only traffic beyond a micro-batch's compute waits. Seconds per
/// micro-batch, 0 without DualPipe.
struct OverlappedTraffic {
  double seconds = 0;
  double exposed_seconds = 0;
};
OverlappedTraffic dualpipe_overlapped_traffic(const MicrobatchSeconds& mb, bool dualpipe) {
  const double seconds = dualpipe ? mb.expert_parallel_s + mb.pipeline_p2p_s : 0;
  return {seconds, std::max(0.0, seconds - mb.compute_s())};
}

/// The data-parallel time compute does not hide: each micro-batch's traffic beyond its compute,
/// the step's gradient traffic beyond the last micro-batch's backward, the parameter gather
/// beyond the first micro-batch's forward, and what is never overlapped.
struct ExposedDataParallel {
  double per_microbatch_s = 0;
  double per_step_s = 0;
};
ExposedDataParallel exposed_data_parallel(const Request& req, const PerformanceConstants& k,
                                          const DataParallelSeconds& dp, double compute_s) {
  const double backward_last = compute_s * (is_adapter(req.task) ? 0.5 : kBackwardShare);
  const double forward_first = compute_s - backward_last;
  return {std::max(0.0, dp.per_microbatch_s - k.overlap_fraction * compute_s),
          std::max(0.0, dp.per_step_s - k.overlap_fraction * backward_last) +
              std::max(0.0, dp.param_gather_s - k.overlap_fraction * forward_first) +
              dp.per_step_unhidden_s};
}

/// The tensor-parallel traffic the GEMMs do not hide. Overlapped (Transformer Engine
/// userbuffers, PyTorch async TP), each all-gather and reduce-scatter goes in chunks, peer to
/// peer, while the GEMM beside it works on the chunk before: it needs sequence parallelism (no
/// all-reduce to split) and a TP group inside one server. Measured runs hide only part of it,
/// the stack's tp_overlap_hidden_share (the first and last chunks, smaller GEMMs, the SMs and
/// memory bandwidth the copies take), and never more than the GEMM time can cover.
double tensor_parallel_exposed_seconds(const Request& req, const PerformanceConstants& k,
                                       const GroupPlacement& place, const MicrobatchSeconds& mb) {
  const bool overlapped =
      req.parallelism.tp_comm_overlap && req.training.sequence_parallel && !place.tp_crosses;
  if (!overlapped) return mb.tensor_parallel_s;
  const double hidden = std::min(*req.stack.tp_overlap_hidden_share * mb.tensor_parallel_s,
                                 k.overlap_fraction * mb.gemm_s);
  return mb.tensor_parallel_s - hidden;
}

/// The stage-to-stage sends compute does not hide: under an interleaved schedule a stack that
/// overlaps them (Megatron-LM overlap_p2p_comm) posts the next chunk's sends and receives and
/// computes meanwhile; a plain 1F1B schedule waits for them.
double pipeline_p2p_exposed_seconds(const Request& req, const Layout& L,
                                    const PerformanceConstants& k, const MicrobatchSeconds& mb) {
  const bool overlapped = req.stack.pipeline_p2p_overlap && pipeline_chunks_per_stage(req, L) > 1 &&
                          !runs_dualpipe(req, L);
  return overlapped ? std::max(0.0, mb.pipeline_p2p_s - k.overlap_fraction * mb.compute_s())
                    : mb.pipeline_p2p_s;
}

/// The pipeline fill/drain bubble of a step, from one micro-batch's busy time: (pp-1)/(m+pp-1)
/// of the step for 1F1B (Narayanan et al. 2021), 1/v of that with v interleaved model chunks
/// per stage (ibid. sec. 2.2), DualPipe's (pp/2 - 1) stage pairs.
double pipeline_bubble_seconds(const Request& req, const Layout& L, bool dualpipe,
                               double busy_microbatch_s) {
  return dualpipe ? (L.pp / 2 - 1) * kDualPipeBubblePerStagePair * busy_microbatch_s
                  : (L.pp - 1) * busy_microbatch_s / pipeline_chunks_per_stage(req, L);
}

/// The step's compute terms: micro-batches back to back, each at least as long as its operator
/// launches, and the pipeline bubble of that busy time.
void fill_microbatch_terms(TrainingPerf& r, const Request& req, const Layout& L,
                           const MicrobatchSeconds& mb) {
  const double m_count = r.microbatches;
  const bool dualpipe = runs_dualpipe(req, L);
  const OverlappedTraffic overlapped = dualpipe_overlapped_traffic(mb, dualpipe);
  // What holds the GPU for one micro-batch: its compute and the traffic compute cannot hide.
  const double gpu_mb = mb.compute_s() + mb.tensor_parallel_exposed_s +
                        (dualpipe ? overlapped.exposed_seconds : mb.expert_parallel_s) +
                        mb.context_parallel_exposed_s + mb.dequantization_s +
                        mb.activation_offload_s;
  const double launch_mb = std::max(0.0, r.host_s_per_microbatch - gpu_mb);
  r.activation_offload_s = m_count * mb.activation_offload_s;
  r.compute_s = m_count * mb.kernels_s();
  r.memory_bound_s = m_count * mb.memory_bound_s;
  r.dequantization_s = m_count * mb.dequantization_s;
  r.launch_overhead_s = m_count * launch_mb;
  r.pipeline_bubble_s = pipeline_bubble_seconds(req, L, dualpipe, gpu_mb + launch_mb);
}

/// The step's traffic per parallel dimension, and the part of it compute does not hide.
void fill_communication_terms(TrainingPerf& r, const Request& req, const Layout& L,
                              const PerformanceConstants& k, const MicrobatchSeconds& mb,
                              const DataParallelSeconds& dp) {
  const double m_count = r.microbatches;
  const bool dualpipe = runs_dualpipe(req, L);
  const OverlappedTraffic overlapped = dualpipe_overlapped_traffic(mb, dualpipe);
  const ExposedDataParallel dp_exposed = exposed_data_parallel(req, k, dp, mb.compute_s());
  r.tensor_parallel_s = m_count * mb.tensor_parallel_s;
  r.tensor_parallel_exposed_s = m_count * mb.tensor_parallel_exposed_s;
  r.expert_parallel_s = m_count * mb.expert_parallel_s;
  r.context_parallel_s = m_count * mb.context_parallel_s;
  r.context_parallel_exposed_s = m_count * mb.context_parallel_exposed_s;
  r.pipeline_p2p_s = m_count * mb.pipeline_p2p_s;
  r.pipeline_p2p_exposed_s = m_count * mb.pipeline_p2p_exposed_s;
  r.data_parallel_s =
      m_count * dp.per_microbatch_s + dp.per_step_s + dp.param_gather_s + dp.per_step_unhidden_s;
  r.data_parallel_exposed_s = m_count * dp_exposed.per_microbatch_s + dp_exposed.per_step_s;
  r.overlapped_pipeline_traffic_s = m_count * overlapped.seconds;
  r.overlapped_pipeline_traffic_exposed_s = m_count * overlapped.exposed_seconds;
  r.exposed_communication_s = r.tensor_parallel_exposed_s + r.context_parallel_exposed_s +
                              r.data_parallel_exposed_s +
                              (dualpipe ? r.overlapped_pipeline_traffic_exposed_s
                                        : r.expert_parallel_s + r.pipeline_p2p_exposed_s);
}

/// The run at the step time: tokens per second, MFU, hours with the time failures cost, and
/// the storage read rate that feeds it.
void fill_run_totals(TrainingPerf& r, const Request& req, const TrainingJob& job, const Layout& L,
                     const PerformanceConstants& k) {
  const ModelArch& m = req.model;
  r.tokens_per_second = r.tokens_per_step / r.step_time_s;
  r.achieved_tflops_per_gpu = r.flops.model * r.tokens_per_second / L.count / kTera;
  r.mfu = r.achieved_tflops_per_gpu / r.peak_tflops;
  // A whole run loses time to interruptions: each GPU fails at a rate per hour, and every
  // failure costs the job a restart plus the progress since the last checkpoint (Llama 3: 419
  // unexpected interruptions in 54 days on 16,384 GPUs, over 90% effective training time).
  r.goodput = 1 / (1 + k.failures_per_gpu_hour * L.count * k.hours_lost_per_failure);
  // The run with its checkpoint saves, then its start-up: every GPU of the plan waits (and is
  // billed) through both.
  const double train_hours = r.tokens / r.tokens_per_second / kSecondsPerHour / r.goodput;
  r.checkpoints = checkpoint_writes(req, job.trainable_params, L, train_hours, k);
  r.startup = job_startup(L, checkpoint_bytes(req, job.params.total), k);
  r.hours = train_hours + (r.checkpoints.total_s() + r.startup.total_s()) / kSecondsPerHour;
  r.gpu_hours = r.hours * L.count;
  const double bytes_per_token = double(m.vocab) <= kUint16Vocab ? 2 : 4;
  r.storage_read_gbps_needed =
      r.tokens_per_second * bytes_per_token * k.storage_read_factor / kGiga;
}

}  // namespace

TrainingPerf estimate_training(const Request& req, const GpuSpec& gpu, const Layout& L,
                               const Fabric& fabric, const PerformanceConstants& k,
                               const TrainingJob& job, const GpuFractions& fractions) {
  TrainingPerf r;
  r.tokens = job.tokens;
  if (!req.stack.runs_on(gpu.software_stack)) {
    r.reason = req.stack.name + " has no " + gpu.software_stack + " backend";
    r.reason_code = "stack_not_on_platform";
    return r;
  }
  const std::optional<PeakRates> peaks = training_peaks(gpu, req.training.precision);
  if (!peaks) return without_rate(std::move(r), gpu, req.training.precision);
  r.available = true;
  r.peak_tflops = peaks->linear;
  r.matmul_fraction = fractions.matmul;  // measured at the training precision
  r.flops = job.flops;
  r.global_batch = global_batch_for(req, L, k, &r.batch_adjusted);
  r.microbatches = static_cast<int>(r.global_batch / (req.training.micro_batch_size * L.dp));
  r.tokens_per_step = static_cast<double>(r.global_batch) * tokens_per_example(req.training);

  // One micro-batch on the heaviest (last) pipeline stage, term by term.
  const StageWork stage = heaviest_stage(req, L);
  const double bandwidth_bytes_per_s =
      gpu.memory_bandwidth_tbps * kTera * k.memory_bandwidth_efficiency;
  r.memory_bandwidth_gbps = bandwidth_bytes_per_s / kGiga;
  r.gemm_efficiency = gemm_efficiency(req, gpu, L, k, job, peaks->linear, stage);
  r.memory_bound_bytes_per_microbatch = memory_bound_bytes_per_microbatch(req, L, job, stage);
  r.host_s_per_microbatch = host_launch_seconds_per_microbatch(req, job, stage);
  MicrobatchSeconds mb;
  mb.gemm_s = gemm_seconds_per_microbatch(req, L, job, stage, peaks->linear, fractions.matmul,
                                          r.gemm_efficiency);
  mb.attention_s = attention_seconds_per_microbatch(req, L, k, job, stage, peaks->attention,
                                                    fractions.attention);
  mb.memory_bound_s = r.memory_bound_bytes_per_microbatch / bandwidth_bytes_per_s;
  mb.dequantization_s =
      qlora_dequantization_seconds_per_microbatch(req, L, job, stage, bandwidth_bytes_per_s);
  mb.activation_offload_s =
      activation_offload_seconds_per_microbatch(req, L, fabric, k, stage, mb.compute_s());

  // Its traffic, per parallel dimension (engine/training_traffic.cpp), and the step's
  // data-parallel traffic.
  const GroupPlacement place = place_groups(L, fabric.gpus_per_node);
  const CollectiveSeconds tp =
      tensor_parallel_seconds_per_microbatch(req, L, fabric, k, place, stage);
  mb.tensor_parallel_s = tp.seconds;
  mb.tensor_parallel_exposed_s = tensor_parallel_exposed_seconds(req, k, place, mb);
  r.tp_busbw_gbps = tp.busbw_gbps;
  mb.expert_parallel_s =
      expert_parallel_seconds_per_microbatch(req, L, fabric, k, job, place, stage);
  const RingSeconds cp =
      context_parallel_seconds_per_microbatch(req, L, fabric, k, place, stage, mb.attention_s);
  mb.context_parallel_s = cp.seconds;
  mb.context_parallel_exposed_s = cp.exposed_seconds;
  r.cp_busbw_gbps = cp.busbw_gbps;
  mb.pipeline_p2p_s = pipeline_p2p_seconds_per_microbatch(req, L, fabric, k, place, stage);
  mb.pipeline_p2p_exposed_s = pipeline_p2p_exposed_seconds(req, L, k, mb);
  const DataParallelSeconds dp = data_parallel_seconds(req, L, fabric, k, job, place, stage);
  r.dp_busbw_gbps = dp.busbw_gbps;
  r.replica_busbw_gbps = dp.replica_busbw_gbps;
  r.shard_replica_s = dp.shard_replica_s;

  // The step: the micro-batches' compute and launches, the pipeline bubble, the traffic compute
  // does not hide, the optimizer. Summed in this order, always: floating-point addition is not
  // associative, and the golden results pin every bit.
  fill_microbatch_terms(r, req, L, mb);
  fill_communication_terms(r, req, L, k, mb, dp);
  r.optimizer_s = optimizer_seconds(req, L, fabric, k, job, bandwidth_bytes_per_s);
  r.step_time_s = r.compute_s + r.memory_bound_s + r.dequantization_s + r.launch_overhead_s +
                  r.activation_offload_s + r.pipeline_bubble_s + r.exposed_communication_s +
                  r.optimizer_s;
  fill_run_totals(r, req, job, L, k);
  // Under a power limit the peaks above run at the capped clock; MFU stays a share of the
  // datasheet peak, so that a cap shows as the utilisation it costs.
  if (gpu.power_limit) r.mfu *= gpu.power_limit->clock_fraction;
  return r;
}

}  // namespace advisor
