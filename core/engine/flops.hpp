// SPDX-License-Identifier: MIT
// FLOPs per token of a decoder-only transformer (and of an encoder-decoder, per token of its
// source + target).
//
// Convention (PaLM, Chowdhery et al. 2022, appendix B): a matmul of a token with a d_in x d_out
// weight costs 2 d_in d_out FLOPs; attention adds 2 x 2 x s x d_attn per layer per token for
// QK^T and AV, counted over the full s x s score matrix (causal masking is NOT halved), as
// llm-foundry, Megatron and PaLM report MFU. The embedding lookup costs nothing; the LM head is a
// full matmul (also when tied to the embedding).
#pragma once

#include "types/model.hpp"
#include "types/request.hpp"

namespace advisor {

/// Matmul weights one token passes through in a forward pass: attention projections, the dense
/// MLPs, the router and the top-k routed + shared experts of MoE layers, and the LM head.
double active_matmul_params(const ModelArch& model);

/// Forward attention-core FLOPs per token summed over layers, for a context of `context` tokens
/// (QK^T and AV, full matrix; a sliding window caps the span).
double attention_forward_flops(const ModelArch& model, double context);

struct TokenFlops {
  double linear_forward = 0;     // 2 x active matmul params (blocks + LM head)
  double head_forward = 0;       // of which the LM head
  double attention_forward = 0;  // attention core, all layers
  double lora_forward = 0;       // LoRA adapters (2 x active adapter params)
  // Per token of training (forward + backward), before and after recomputation.
  double model = 0;               // MFU numerator ("model FLOPs")
  double hardware = 0;            // what the GPUs execute, with activation recompute
  double hardware_linear = 0;     // of which in weight GEMMs (run at FP8 under fp8 training)
  double hardware_attention = 0;  // of which in the attention core (and LoRA adapters)
};

/// Tokens one training example counts: its sequence, plus an encoder-decoder's target tokens
/// (the decoder's; the sequence is then the encoder's input). Throughput, budgets and steps
/// count these.
double tokens_per_example(const TrainingSettings& training);

/// Training FLOPs per token for the request (task, LoRA, recompute, sequence length).
/// Full training: backward = 2 x forward. LoRA/QLoRA: the frozen base needs input gradients
/// only (1 x forward for its GEMMs; the attention core still needs 2 x), adapters 3 x.
/// Recompute: "full" re-runs the forward, "selective" the attention core.
TokenFlops training_flops_per_token(const Request& request);

}  // namespace advisor
