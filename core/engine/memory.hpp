// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

#include "engine/weight_formats.hpp"
#include "types/catalog.hpp"
#include "types/note.hpp"
#include "types/request.hpp"

namespace advisor {

/// How a job is laid out over `count` GPUs: count = dp x tp x pp x cp.
struct Layout {
  int count = 1;
  int tp = 1;
  int pp = 1;
  int dp = 1;  // data-parallel replicas: each takes its own sequences of the global batch
  int cp = 1;  // context parallel: the GPUs one sequence is split over (ring attention)
  int ep = 1;
  int zero = 0;
  int gpus_per_server = 1;  // GPUs in one server (engine/cost_scenario gpus_per_server())
  int servers() const { return (count + gpus_per_server - 1) / gpus_per_server; }
  /// GPUs holding the same weights: the gradient reduction and ZeRO/FSDP sharding run over
  /// them. Context-parallel ranks see different tokens of the same sequences, so Megatron's
  /// distributed optimizer and FSDP shard and reduce across dp x cp (Megatron-LM
  /// parallel_state: the "data-parallel group with context parallel").
  int shard_ranks() const { return dp * cp; }
  /// Hybrid sharding (FSDP HYBRID_SHARD / HSDP, ZeRO++ hpZ): the request's shard group, 0 when
  /// ZeRO shards over all of shard_ranks().
  int shard_group = 0;
  /// Ranks one ZeRO/FSDP shard set is spread over: the stated shard group, else shard_ranks().
  int zero_shards() const { return shard_group > 0 ? shard_group : shard_ranks(); }
  /// Copies of each shard set (1 without a shard group): the gradient shards are all-reduced
  /// across them once per step.
  int shard_replicas() const { return shard_ranks() / zero_shards(); }
};

/// Whether `layout` runs the request's DualPipe schedule: asked for (/parallelism/
/// pipeline_schedule, training only) and the layout has pipeline stages to pair (the job's
/// memory on one GPU, say, has none).
inline bool runs_dualpipe(const Request& req, const Layout& layout) {
  return layout.pp > 1 && req.parallelism.schedule == PipelineSchedule::kDualPipe;
}

/// One line of "why this many bytes": the term, what was assumed, and the switch that moves it.
struct MemoryAssumption {
  std::string term;  // weights | gradients | optimizer | activations | kv_cache | overhead | band
  std::string text;  // the English sentence
  std::string code;  // the sentence as a code with parameters (engine/memory_explain.cpp)
  std::vector<ReasonParam> params;
};

/// Memory of the most loaded GPU (the heaviest pipeline stage), in bytes.
struct MemoryEstimate {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double activations = 0;
  double kv_cache = 0;
  double overhead = 0;
  double band_low = 0;  // plausible range of the total, see assumptions.json
  double band_high = 0;
  double host_ram_per_node = 0;  // CPU offload: bytes of host memory per 8-GPU server
  double params_on_gpu = 0;      // parameters held by this GPU (before ZeRO-3 sharding)
  double trainable_params = 0;   // whole model
  int heaviest_stage = 0;        // pipeline stage index the figures describe
  std::vector<MemoryAssumption> assumptions;  // filled when explain = true

  double total() const {
    return weights + gradients + optimizer + activations + kv_cache + overhead;
  }
};

/// What the optimizer keeps per trainable parameter: the one home of these counts (memory and
/// the optimizer step's traffic both read it). Mixed-precision AdamW: 2 states x 4 B + 4 B
/// fp32 master = 12 B (ZeRO paper sec. 3.1); 8-bit AdamW: 2 x 1 B (bitsandbytes; the
/// block-wise absmax is noise); SGD with momentum: 1 state.
struct OptimizerState {
  int states = 2;
  double bytes_per_state = 4;
  double master_bytes = 4;  // fp32 master copy of the weights (0 without one, or in fp32)
  double bytes_per_param() const { return states * bytes_per_state + master_bytes; }
};
OptimizerState optimizer_state(const TrainingSettings& training);

/// Bits per weight of the frozen linear layers (QLoRA's quantised base; else the training
/// precision's: 16, or 32 in fp32).
double base_weight_bits(const TrainingSettings& training);
/// Bytes per weight of an adapter run's unquantised frozen weights (embeddings, head, norms):
/// 4 in fp32 training, and under QLoRA through PEFT (prepare_model_for_kbit_training upcasts
/// them to fp32); else 2.
double adapter_other_weight_bytes(const Request& request);

/// Trainable parameters of the whole model for the task (all of them, or the LoRA adapters).
double trainable_params(const Request& request);

/// Training weight bytes per parameter: fp8 training (Transformer Engine) keeps bf16 weights
/// plus an fp8 copy for the GEMMs.
double training_weight_bytes(Precision precision);

/// QLoRA through PEFT (the stack's kbit_fp32_other_weights: prepare_model_for_kbit_training
/// casts embeddings and norms to fp32): the embedding output is fp32 and so is the residual
/// stream each layer passes on (bitsandbytes' 4-bit layers return their input's dtype;
/// Transformers warns "The input hidden states seems to be silently casted in float32"), so the
/// layer inputs that checkpointing keeps take 4 bytes per value.
bool fp32_residual_stream(const Request& request);

/// True when the gradients and the activations never peak together: one micro-batch per
/// optimizer step (the request's global batch is micro-batch x data parallel), no pipeline and
/// gradients freed after each step (PyTorch's zero_grad(set_to_none=True), the default since
/// 2.0). The backward frees each layer's activations as it allocates that layer's gradients, so
/// the peak holds the larger of (activations + the LM head's gradient) and all gradients.
bool gradients_apart_from_activations(const Request& request, const Layout& layout);

/// Memory per GPU for `layout`. `explain` adds human-readable assumptions (slower).
MemoryEstimate estimate_memory(const Request& request, const Layout& layout,
                               const MemoryAssumptions& assumptions, bool explain);

}  // namespace advisor
