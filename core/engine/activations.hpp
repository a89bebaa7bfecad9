// SPDX-License-Identifier: MIT
// Activation bytes of one transformer layer (Korthikanti et al. 2022 generalised): the per-layer
// terms engine/memory.cpp sums over a pipeline stage's layers, the bytes a stage's forward
// writes (engine/training.cpp's memory-bound kernels) and what a context-parallel ring passes.
#pragma once
#include "engine/memory.hpp"

namespace advisor {

/// Activation bytes of one transformer layer for one micro-batch, per GPU (Korthikanti et al.
/// 2022, generalised to GQA, gated MLPs, MoE and FlashAttention). Exposed for tests.
struct ActivationInputs {
  double sequence_length = 0;
  double micro_batch = 0;
  int tp = 1;
  bool sequence_parallel = true;
  /// The QKV and MLP inputs are kept all-gathered (full sequence) under sequence parallelism
  /// (the stack's tp_keeps_gathered_inputs).
  bool gathered_inputs = false;
  bool flash_attention = true;
  bool recompute_attention = false;  // selective recompute (Korthikanti sec. 4.2)
  double bytes_per_value = 2;
  bool moe_layer = false;
};
double layer_activation_bytes(const ModelArch& model, const ActivationInputs& in);
/// What one decoder layer's cross-attention adds for `in.sequence_length` target tokens
/// attending to `source_length` encoder tokens (encoder-decoder models).
double cross_attention_activation_bytes(const ModelArch& model, const ActivationInputs& in,
                                        double source_length);

/// The activation inputs of `request` laid out as `layout` (a decoder layer's tokens per
/// micro-batch and TP rank, precision, FlashAttention, what TP shards).
ActivationInputs activation_inputs(const Request& request, const Layout& layout);
/// Bytes of the activation tensors one micro-batch's forward writes on one GPU of a pipeline
/// stage with these layers (an encoder-decoder's encoder and cross-attention included), whether
/// or not checkpointing keeps them: what the memory-bound kernels (norms, residual adds,
/// activation functions, rotary, dropout, a materialised softmax) stream (engine/training.cpp).
double stage_activation_bytes_written(const Request& request, const Layout& layout,
                                      double dense_layers, double moe_layers);

/// Elements of K and V of one token in one layer on one tensor-parallel rank: what a
/// context-parallel ring passes between ranks (GQA's KV heads, replicated when tp exceeds them).
double ring_kv_elements_per_token(const ModelArch& model, int tp);

}  // namespace advisor
