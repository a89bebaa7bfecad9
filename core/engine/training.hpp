// SPDX-License-Identifier: MIT
// Training time: compute from FLOPs per token over the achievable matmul rate, plus the
// communication that compute cannot hide, the pipeline bubble, QLoRA dequantisation and the
// optimizer step. docs/speed.md derives every term.
#pragma once
#include <cstdint>
#include <string>

#include "engine/checkpoint_writes.hpp"
#include "engine/comm.hpp"
#include "engine/flops.hpp"
#include "engine/job_startup.hpp"
#include "engine/memory.hpp"
#include "types/perf_constants.hpp"

namespace advisor {

/// Tokens the run trains on: /training/tokens, epochs x dataset_tokens, or the default
/// (pretraining: 20 tokens per parameter; fine-tuning: 100 M tokens).
double token_budget(const Request& request, const PerformanceConstants& k);

/// Global batch (sequences per optimizer step) for a layout: the request's, rounded up to a
/// multiple of micro-batch x data parallel (`adjusted` says so), or the default.
std::int64_t global_batch_for(const Request& request, const Layout& layout,
                              const PerformanceConstants& k, bool* adjusted);

/// Roofline efficiency of a GEMM with M = `tokens` rows, K and N = `width` and `ffn_width`:
/// it moves 2(MK + KN + MN) bytes for 2MNK FLOPs, so when it also waits on that traffic it
/// reaches 1 / (1 + R (1/M + 1/K + 1/N)) of the peak, with R = peak FLOP/s / DRAM bytes/s (the
/// part's ridge point; x 1/2 for FP8 operands, which are half the bytes). Small batches and narrow
/// (tensor-parallel) layers run far below peak, and more so on parts with a high ridge (H100: 295
/// FLOP/B vs A100: 153).
double gemm_shape_efficiency(double tokens, double width, double ffn_width, double ridge);

/// Operators one decoder layer launches per micro-batch (forward + backward; LoRA adapters and
/// a full recompute add theirs): the host-side floor of a micro-batch is this x the stack's
/// dispatch time per operator.
double ops_per_layer(const Request& request);

/// Share of a token's matmul FLOPs in routed experts (0 for dense models).
double expert_matmul_share(const ModelArch& model);

struct TrainingPerf {
  bool available = false;
  std::string reason;  // when not available (no FP8 on the part, ...)
  // no_fp8_rate | no_fp32_rate | stack_not_on_platform (the GPU is the option's)
  std::string reason_code;
  double tokens = 0;  // budget
  std::int64_t global_batch = 0;
  bool batch_adjusted = false;
  int microbatches = 0;  // per step per data-parallel rank
  double tokens_per_step = 0;
  double step_time_s = 0;
  double tokens_per_second = 0;
  double mfu = 0;
  double hours = 0;
  double gpu_hours = 0;
  // Per-step breakdown (sums to step_time_s).
  double compute_s = 0;       // GEMMs and attention kernels
  double memory_bound_s = 0;  // norms, residual adds, activation functions: bytes, not FLOPs
  double exposed_communication_s = 0;
  double pipeline_bubble_s = 0;
  double dequantization_s = 0;
  double launch_overhead_s = 0;     // micro-batches waiting on the host's operator launches
  double activation_offload_s = 0;  // offloaded activations' PCIe traffic compute cannot hide
  double optimizer_s = 0;
  double memory_bound_bytes_per_microbatch = 0;  // what the memory-bound kernels stream
  double memory_bandwidth_gbps = 0;              // achievable DRAM bandwidth they stream it at
  double host_s_per_microbatch = 0;              // host time to launch one micro-batch's operators
  double goodput = 1;            // share of a run's wall-clock that trains (failures and restarts)
  JobStartup startup;            // before the first step, in `hours` (engine/job_startup)
  CheckpointWrites checkpoints;  // the run's saves, in `hours` (engine/checkpoint_writes)
  // Communication detail per step (total traffic time, exposed or not).
  double data_parallel_s = 0;
  double data_parallel_exposed_s = 0;
  double tensor_parallel_s = 0;
  double tensor_parallel_exposed_s = 0;  // what the GEMMs do not hide (TP overlap)
  double pipeline_p2p_s = 0;
  double pipeline_p2p_exposed_s = 0;  // what compute does not hide (interleaved, stack overlaps)
  double expert_parallel_s = 0;
  // DualPipe (Parallelism::dualpipe): the expert all-to-alls and pipeline transfers sent while
  // the other direction computes, and the part longer than that compute.
  double overlapped_pipeline_traffic_s = 0;
  double overlapped_pipeline_traffic_exposed_s = 0;
  // Context parallel: the ring's K/V (forward) and K/V + dK/dV (backward) exchange per step,
  // and the part the attention kernels running beside it do not hide.
  double context_parallel_s = 0;
  double context_parallel_exposed_s = 0;
  double cp_busbw_gbps = 0;
  double dp_busbw_gbps = 0;
  // Hybrid sharding (Layout::shard_group with replicas): the once-per-step all-reduce of each
  // rank's gradient shard across the replicas (part of data_parallel_s), and its bus bandwidth.
  double shard_replica_s = 0;
  double replica_busbw_gbps = 0;
  double tp_busbw_gbps = 0;
  TokenFlops flops;
  double peak_tflops = 0;              // dense peak at the precision used
  double matmul_fraction = 0;          // MAMF of the part
  double gemm_efficiency = 0;          // framework x shape
  double achieved_tflops_per_gpu = 0;  // model FLOPs per second per GPU
  double storage_read_gbps_needed = 0;
};

/// What estimate_training reads of the request alone (no GPU, count or split changes it): a
/// search that times many counts and splits of one request works it out once.
struct TrainingJob {
  double tokens = 0;  // token_budget()
  TokenFlops flops;   // training_flops_per_token()
  ParamCounts params;
  double trainable_params = 0;
  double expert_share = 0;  // expert_matmul_share()
  double ops_per_layer = 0;
  double base_weight_bits = 0;
};
TrainingJob training_job(const Request& request, const PerformanceConstants& k);

/// The part's measured shares of its peak (performance.json) at the training precision: its
/// GEMMs' (the FP8 figure for fp8 training, else the 16-bit one) and FlashAttention's. Looked
/// up once per GPU: a search estimates every count and candidate split of a GPU with them.
struct GpuFractions {
  double matmul = 0;
  double attention = 0;
};
GpuFractions gpu_fractions(const GpuSpec& gpu, const PerformanceConstants& k, Precision precision);

/// A floor under estimate_training()'s gpu_hours for `request` on `gpu` at any count and
/// layout: the run's FLOPs at the part's peak x measured fractions x the stack's efficiency,
/// as if every GEMM ran at full shape efficiency and nothing else took time (memory-bound
/// kernels, communication, bubbles, launches, the optimizer and failures only add to it). 0
/// when no positive floor is safe (no rate at the precision, a non-positive rate or fraction).
/// A search skips parts whose cheapest conceivable run cannot beat the plan it already has.
double gpu_hours_floor(const Request& request, const GpuSpec& gpu, const PerformanceConstants& k,
                       const TrainingJob& job, const GpuFractions& fractions);

/// Training speed of `request` on `count` GPUs of `gpu` laid out as `layout` over `fabric`.
TrainingPerf estimate_training(const Request& request, const GpuSpec& gpu, const Layout& layout,
                               const Fabric& fabric, const PerformanceConstants& k);
/// The same, with the request's training_job() already worked out.
TrainingPerf estimate_training(const Request& request, const GpuSpec& gpu, const Layout& layout,
                               const Fabric& fabric, const PerformanceConstants& k,
                               const TrainingJob& job);
/// The same, with the GPU's gpu_fractions() at the request's precision looked up too.
TrainingPerf estimate_training(const Request& request, const GpuSpec& gpu, const Layout& layout,
                               const Fabric& fabric, const PerformanceConstants& k,
                               const TrainingJob& job, const GpuFractions& fractions);

}  // namespace advisor
