// SPDX-License-Identifier: MIT
// Activation bytes of one transformer layer (Korthikanti et al. 2022 generalised): the per-layer
// terms that engine/memory.cpp sums over a pipeline stage's layers.
#include <algorithm>
#include <cmath>

#include "engine/memory.hpp"

namespace advisor {

namespace {
// Dropout masks are stored one byte per element (Korthikanti et al. 2022, sec. 4.1).
constexpr double kDropoutMaskBytes = 1;
// FlashAttention keeps one fp32 log-sum-exp per query row and head for the backward pass
// (Dao et al. 2022, Algorithm 2) instead of the s x s score matrix.
constexpr double kSoftmaxStatBytes = 4;
}  // namespace

double layer_activation_bytes(const ModelArch& m, const ActivationInputs& in) {
  const double a = in.bytes_per_value;
  const double sb = in.sequence_length * in.micro_batch;
  const double h = static_cast<double>(m.hidden);
  const double t = in.tp;
  // Tensors every TP rank holds in full unless sequence parallelism shards them
  // (Korthikanti et al. 2022, eq. 2 vs eq. 4).
  double replicated = 2 * a * sb * h;  // inputs of the two norms
  // Inputs of the QKV projection and of the MLP: sharded with sequence parallelism unless the
  // stack keeps them all-gathered (PyTorch DTensor TP), then held in full on every TP rank.
  double gathered = 2 * a * sb * h;
  if (m.dropout) replicated += 2 * kDropoutMaskBytes * sb * h;  // attention and MLP dropout
  if (m.mla) {
    replicated += a * sb * (m.mla->q_lora_rank + m.mla->kv_lora_rank + m.mla->qk_rope_head_dim);
  }
  double sharded = a * sb * static_cast<double>(q_width(m) + 2 * kv_width(m))  // Q, K, V
                   + a * sb * static_cast<double>(attn_out_width(m));  // input of output proj.
  const double scores = in.micro_batch * m.heads * in.sequence_length * in.sequence_length;
  if (in.flash_attention) {
    sharded += kSoftmaxStatBytes * in.micro_batch * m.heads * in.sequence_length;
  } else if (!in.recompute_attention) {
    sharded += a * scores;                                              // softmax output
    if (m.dropout) sharded += kDropoutMaskBytes * scores + a * scores;  // mask, dropout output
  }
  const double matrices = m.mlp_gated ? 3 : 2;  // gate, up, act(gate)*up  |  fc1 out, act out
  if (in.moe_layer && m.moe) {
    const double routed = m.moe->experts_per_token + m.moe->shared_experts;
    sharded += matrices * a * sb * static_cast<double>(m.moe->expert_ffn_hidden) * routed;
    replicated += a * sb * h * m.moe->experts_per_token;  // tokens permuted to their experts
  } else {
    sharded += matrices * a * sb * static_cast<double>(m.ffn_hidden);
  }
  const double replicated_divisor = (in.sequence_parallel && t > 1) ? t : 1;
  if (!in.gathered_inputs) {
    replicated += gathered;
    gathered = 0;
  }
  return replicated / replicated_divisor + gathered + sharded / t;
}

double cross_attention_activation_bytes(const ModelArch& m, const ActivationInputs& in,
                                        double source_length) {
  // T5LayerCrossAttention: the decoder's tokens query the encoder's output. Its norm's input
  // and the output's dropout mask are per target token; Q and the attention output per target
  // token; K and V per source token; the scores target x source (one statistic per query row
  // under FlashAttention). The encoder's output (the K/V projections' input) is shared by every
  // decoder layer and counted once per micro-batch by the caller.
  const double a = in.bytes_per_value;
  const double b = in.micro_batch;
  const double target = in.sequence_length;
  const double h = static_cast<double>(m.hidden);
  double replicated = a * b * target * h;
  if (m.dropout) replicated += kDropoutMaskBytes * b * target * h;
  double sharded = a * b *
                   (target * static_cast<double>(q_width(m) + attn_out_width(m)) +
                    source_length * 2 * static_cast<double>(kv_width(m)));
  const double scores = b * m.heads * target * source_length;
  if (in.flash_attention) {
    sharded += kSoftmaxStatBytes * b * m.heads * target;
  } else if (!in.recompute_attention) {
    sharded += a * scores;
    if (m.dropout) sharded += kDropoutMaskBytes * scores + a * scores;
  }
  const double replicated_divisor = (in.sequence_parallel && in.tp > 1) ? in.tp : 1;
  return replicated / replicated_divisor + sharded / in.tp;
}

double ring_kv_elements_per_token(const ModelArch& m, int tp) {
  if (m.mla) {
    // MLA attends with full per-head keys and values, split over the TP ranks by head.
    return static_cast<double>(kv_width(m) + attn_out_width(m)) / tp;
  }
  const double kv_heads_here = std::ceil(double(m.kv_heads) / tp);  // replicated if tp > kv
  return 2 * kv_heads_here * m.head_dim;
}

}  // namespace advisor
