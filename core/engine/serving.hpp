// SPDX-License-Identifier: MIT
// Serving speed: prefill is compute-bound, decode is bound by reading the weights and the KV
// cache once per step (a roofline: the slower of memory and compute), plus tensor-parallel
// all-reduces that are latency-dominated at decode sizes. Serving memory follows vLLM: the KV
// cache gets gpu_memory_utilization x memory minus weights, activation peak and non-torch
// overhead. docs/speed.md derives every term.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "engine/comm.hpp"
#include "engine/memory.hpp"
#include "types/perf_constants.hpp"

namespace advisor {

struct DecodeStep {
  double step_s = 0;           // one token for every sequence in the batch
  double memory_s = 0;         // weights + KV cache read at the achievable bandwidth
  double compute_s = 0;        // matmuls + attention at the achievable matmul rate
  double communication_s = 0;  // tensor-parallel all-reduces + pipeline sends
  double launch_s = 0;         // per-layer kernel floor (layers x decode_layer_floor_us)
  double host_s = 0;           // the engine's host time: sequences x host_us_per_sequence
  double weight_bytes = 0;     // read per GPU per step
  double kv_bytes = 0;
  double dequant_s = 0;  // weight-only kernels: dequantising the weights read (CUDA cores)
  // The kernel terms used (the stack's where it states them, else the fitted constants).
  double weight_stream_share = 1;  // weights' share of the bf16 streaming rate (dequant-bound)
  double kv_read_share = 1;        // KV-cache reads' share of it
  double layer_floor_us = 0;       // fixed time per layer per step
};

/// A model served on one layout of one GPU type: everything that does not change with load.
class ServingModel {
 public:
  ServingModel(const Request& request, const GpuSpec& gpu, const Layout& layout,
               const Fabric& fabric, const PerformanceConstants& k);
  /// One decode step with `batch` sequences at `context` tokens of context each.
  DecodeStep decode(double batch, double context) const;
  /// Prefill of `sequences` prompts of `prompt_tokens` each (chunked, as serving engines do).
  double prefill_s(double sequences, double prompt_tokens) const;
  /// Expert-parallel dispatch and combine of `tokens` (those of the busiest attention rank) for
  /// every MoE layer: 0 without expert parallelism.
  double expert_all_to_all_s(double tokens) const;
  /// Sequences on the busiest attention data-parallel rank when the replica holds `sequences`:
  /// the replica's for a tensor-parallel layout (one rank).
  double busiest_rank_sequences(double sequences) const;
  /// KV-cache bytes per token of context on the most loaded GPU.
  double kv_bytes_per_token() const { return kv_bytes_per_token_; }
  double peak_tflops() const { return peak_tflops_; }
  double matmul_fraction() const { return mamf_; }
  /// Attention data-parallel ranks of the replica, each with its own scheduler and token
  /// budget: layout.dp (expert-parallel serving, DP attention), 1 for a tensor-parallel one.
  int attention_ranks() const { return layout_.dp; }

 private:
  const Request& req_;
  const GpuSpec& gpu_;
  Layout layout_;
  const Fabric& fabric_;
  const PerformanceConstants& k_;
  double peak_tflops_ = 0, mamf_ = 0;
  double dense_weight_bytes_ = 0;  // per TP rank, all layers, without routed experts
  double expert_bytes_ = 0;        // one routed expert of one layer, per GPU
  int moe_layers_ = 0;
  double matmul_flops_token_ = 0;  // per TP rank, forward, without the LM head
  double head_flops_token_ = 0;
  double kv_bytes_per_token_ = 0;      // heaviest stage
  double kv_bytes_per_token_all_ = 0;  // per TP rank, all layers
  double tp_busbw_ = 0;
  int tp_per_node_ = 1;
  bool pp_crosses_ = false;
  int ep_per_node_ = 1;  // expert-parallel ranks per server (all-to-all)
  // Weight-only quantised formats: the stack's own streaming share where it states one, else
  // the CUDA-core time to dequantise each weight read (per TP rank; 0 for 16-bit and W8A8).
  std::optional<double> stack_weight_share_;
  double dense_quantized_weights_ = 0;   // per TP rank, all layers, without routed experts
  double expert_quantized_weights_ = 0;  // one routed expert of one layer, per GPU
  double quantized_bits_ = 16;
  double dequant_s_per_weight_ = 0;  // ops per weight / the part's FP32 rate
};

/// A replica at its load (engine/serving_load.hpp): users each in a loop of requests, served
/// with continuous batching and chunked prefill.
struct ServingAtLoad {
  std::int64_t users = 0;                        // per replica, each in a request loop
  double prompt_tokens_prefilled = 0;            // per request, after the prefix cache
  double step_tokens_budget = 0;                 // the engine's tokens per step
  double decode_tokens_per_step = 0;             // users whose answer is streaming, on average
  double prefill_tokens_per_step = 0;            // prompt tokens a step carries, on average
  double prefill_steps_per_request = 0;          // steps from a prompt's arrival to its first token
  double step_s = 0;                             // one engine step at this load
  double prefill_share = 0;                      // of a step's compute, the prompts' share
  double per_user_tokens_per_second = 0;         // while an answer streams: 1 / step
  double time_to_first_token_s = 0;              // median
  double time_to_first_token_p90_s = 0;          // tail: prompts that arrive together share a step
  double output_tokens_per_second = 0;           // the replica's sustained output
  double per_user_output_tokens_per_second = 0;  // a user's output over whole requests
};

struct InferencePerf {
  bool available = true;
  std::string reason;
  DecodeStep step;  // at the request's concurrency and mean context
  double decode_tokens_per_second = 0;
  double per_user_tokens_per_second = 0;
  double time_to_first_token_s = 0;               // one prompt on an idle replica
  double batch_prefill_s = 0;                     // all `concurrency` prompts
  double sustained_output_tokens_per_second = 0;  // including the prefill work
  bool bandwidth_bound = true;
  double kv_budget_bytes = 0;     // per GPU (vLLM-style)
  double kv_bytes_per_token = 0;  // per GPU
  std::int64_t max_model_len = 0;
  std::int64_t max_concurrency = 0;
  std::optional<std::int64_t> gpus_needed;
  std::int64_t replicas = 0;
  std::int64_t users_per_replica = 0;
  std::string target_note;       // why no GPU count meets the target
  std::string target_note_code;  // no_kv_room | target_speed_unreachable
  /// The replica at the load this layout's fleet gives it: the load (target_users, else
  /// concurrency) over `replicas`.
  ServingAtLoad at_load;
};

/// Serving speed of `request` on `layout`; `at_layout` is the memory estimate for it.
InferencePerf estimate_inference(const Request& request, const GpuSpec& gpu, const Layout& layout,
                                 const MemoryEstimate& at_layout, const Fabric& fabric,
                                 const PerformanceConstants& k, const MemoryAssumptions& a);

/// Mean context over the output: prompt + output / 2.
double mean_decode_context(const Request& request);

/// CUDA-core operations a weight-only kernel spends on each `bits`-per-weight weight it reads
/// (unpack, convert to 16 bits, scale): the fitted int4 and int8 values, linear in the bits
/// between them and down to none at 16 bits.
double dequant_ops_per_weight(double bits, const PerformanceConstants& k);

/// The FP32 rate those operations run at: the part's, or for a part that states none (Ascend)
/// its memory bandwidth times the lowest FP32-per-byte ratio of the parts that do.
double dequant_fp32_tflops(const GpuSpec& gpu, const PerformanceConstants& k);

}  // namespace advisor
