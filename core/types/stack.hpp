// SPDX-License-Identifier: MIT
// The software stack a job runs on (request /stack, data/performance.json "stacks"): the terms
// of the memory and speed model that depend on it, each with one value and a source there.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "types/choices.hpp"

namespace advisor {

/// The token budget of a serving engine's step when its profile states none: vLLM's generic
/// SchedulerConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS (2048), the smallest the engines default to.
constexpr double kDefaultMaxBatchedTokens = 2048;

struct StackProfile {
  std::string id;    // hf_peft | llamafactory | unsloth | torchtune | fsdp_compile | fsdp_eager |
                     // deepspeed | megatron | vllm | sglang | tensorrt_llm | llama_cpp
  std::string name;  // shown in the assumption line
  bool serving = false;             // a serving engine (inference) rather than a training stack
  std::vector<Task> default_for;    // tasks for which this is the default stack
  std::vector<Task> common_for;     // tasks whose memory range (no stack named) spans it
  std::vector<std::string> source;  // where the profile's terms come from
  /// The accelerator software stacks it runs on (GpuSpec::software_stack: cuda | rocm | cann):
  /// Unsloth, torch.compile and TensorRT-LLM have no Ascend (CANN) backend, so a plan on an
  /// Ascend part cannot use them.
  std::vector<std::string> platforms;
  bool runs_on(const std::string& software_stack) const {
    for (const std::string& p : platforms)
      if (p == software_stack) return true;
    return false;
  }

  // ---- training
  /// Bytes per vocabulary entry per token that the loss keeps (bf16 logits, fp32 upcast,
  /// log-softmax saved for the backward, its gradient): 14 eager, less for chunked or compiled
  /// losses, 0 for a loss that never materialises the logits.
  double logits_bytes_per_element = 14;
  /// Accounting defaults (a request's /training/accounting overrides each).
  bool master_weights = true;
  double gradient_bytes = 2;
  double optimizer_state_bytes = 4;
  /// "selective" checkpointing: nullopt = Megatron's (recompute the attention core only, which
  /// saves nothing beyond FlashAttention); else the share of a layer's activations kept by
  /// PyTorch op-level selective checkpointing or every-other-layer checkpointing.
  std::optional<double> selective_keep_fraction;
  /// ZeRO/FSDP stage when the request gives none (/parallelism/zero; 3 otherwise): Megatron's
  /// distributed optimizer shards the optimizer states only (ZeRO-1).
  int default_zero = 3;
  /// The highest ZeRO stage the stack runs under pipeline parallelism: DeepSpeed's pipeline
  /// engine refuses ZeRO-2 and ZeRO-3 (3 where nothing is known against it).
  int max_zero_with_pp = 3;
  /// Activation checkpointing when the request gives none (nullopt: the task's default).
  std::optional<Checkpointing> default_checkpointing;
  /// Checkpointed layer inputs offloaded to host RAM by default (Unsloth's checkpointing).
  bool offload_activations = false;
  /// QLoRA: the weights that stay unquantised (embeddings, LM head, norms) are upcast to fp32
  /// (PEFT's prepare_model_for_kbit_training), 4 bytes instead of 2.
  bool kbit_fp32_other_weights = false;
  /// Host (CPU) time to launch one operator: eager PyTorch dispatch vs compiled graphs. A
  /// micro-batch cannot run faster than the launches of its operators.
  double dispatch_us_per_op = 10;
  /// Share of the fitted framework efficiency this stack reaches (fused kernels > 1).
  double efficiency_factor = 1;
  /// Times its memory-bound kernels (norms, residual adds, activation functions, rotary) move
  /// each activation byte a training forward writes, forward and backward together: eager
  /// operators each read and write their tensors, fused ones once (engine/training.cpp).
  double activation_traffic_passes = 0;
  /// With pipeline parallelism, ZeRO-3/FSDP weights are gathered once per step and kept for
  /// every micro-batch (torchtitan: reshard_after_forward off under PP), not per micro-batch.
  bool zero3_gather_once_per_step_with_pp = false;
  /// Data-parallel gradient buckets grow with the data-parallel size: elements per rank (0: a
  /// fixed 25 MB bucket, PyTorch DDP's bucket_cap_mb). Megatron-LM sizes buckets as
  /// max(40M, 1M x dp) elements so that ring reduce-scatters over many ranks stay
  /// bandwidth-bound.
  double dp_bucket_elements_per_rank = 0;
  /// Sequence-parallel tensor parallelism keeps, for the backward, the all-gathered (full
  /// sequence) input of the column-parallel layers (QKV, MLP up/gate, LM head), as PyTorch
  /// DTensor TP does (PrepareModuleInput to Replicate, then ColwiseParallel), instead of the
  /// 1/t shard that Megatron keeps and all-gathers again in the backward.
  bool tp_keeps_gathered_inputs = false;
  /// Tensor-parallel collectives run under the GEMMs beside them by default (Transformer
  /// Engine userbuffers, PyTorch async TP): the request's /parallelism/tp_comm_overlap when it
  /// states none.
  bool tp_comm_overlap = false;
  /// The share of that traffic its overlap hides, as measured runs of the stack show; nullopt:
  /// the stack cannot overlap it (a request asking is an error).
  std::optional<double> tp_overlap_hidden_share;
  /// Under an interleaved pipeline schedule (virtual stages > 1) the stage-to-stage sends run
  /// while the next chunk computes (Megatron-LM overlap_p2p_comm, on by default there).
  bool pipeline_p2p_overlap = false;
  /// Splits a MoE's routed experts over GPUs (expert parallelism: all-to-all dispatch and
  /// combine) for the model families it trains: Megatron-LM --expert-model-parallel-size,
  /// torchtitan expert_parallel_degree; serving engines with data-parallel attention (vLLM
  /// --enable-expert-parallel, SGLang --enable-dp-attention). The HF Trainer stacks run every
  /// expert on every rank.
  bool expert_parallel = false;

  // ---- serving
  /// Share of the card's memory the engine takes (vLLM gpu_memory_utilization, SGLang
  /// mem_fraction_static); with kv_of_free_memory, the share of what is left after the weights
  /// and activations (TensorRT-LLM kv_cache_free_gpu_mem_fraction).
  double gpu_memory_utilization = 0.9;
  bool kv_of_free_memory = false;
  /// Tokens one engine step takes under continuous batching (vLLM max_num_batched_tokens,
  /// SGLang chunked_prefill_size, TensorRT-LLM max_num_tokens): each running decode counts one,
  /// prompt chunks fill the rest. Engines size it by GPU memory: `max_batched_tokens_below`
  /// applies on GPUs with less than `max_batched_tokens_below_gib` GiB.
  double max_batched_tokens = kDefaultMaxBatchedTokens;
  double max_batched_tokens_below_gib = 0;
  double max_batched_tokens_below = kDefaultMaxBatchedTokens;
  /// Decode kernels of this engine where they differ from the fitted defaults
  /// (performance.json constants): the share of the bf16 streaming rate at which quantised
  /// weights stream (1: the GEMV dequantises in registers at no bandwidth cost, llama.cpp's
  /// MMVQ), the share at which the KV cache is read (1: one contiguous cache, not paged
  /// blocks), and the fixed time per layer per decode step.
  std::optional<double> quantized_decode_bandwidth_factor;
  std::optional<double> kv_read_bandwidth_factor;
  std::optional<double> decode_layer_floor_us;
  /// Host time per running sequence per engine step: what a Python engine spends between GPU
  /// steps on each sequence (scheduling, sampling, detokenizing, stop checks) where it does not
  /// overlap the GPU. 0: none beyond the kernels (a C++ runtime, or not measured).
  double host_us_per_sequence = 0;
};

}  // namespace advisor
