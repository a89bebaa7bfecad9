// SPDX-License-Identifier: MIT
// Activation bytes of one transformer layer (Korthikanti et al. 2022 generalised): the per-layer
// terms that engine/memory.cpp sums over a pipeline stage's layers.
#include "engine/activations.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model.hpp"

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

ActivationInputs activation_inputs(const Request& req, const Layout& L) {
  const TrainingSettings& t = req.training;
  ActivationInputs in;
  // Context parallelism: each rank holds 1/cp of every sequence's tokens (and of the logits);
  // with FlashAttention every stored tensor is linear in the tokens.
  // An encoder-decoder's decoder layers (and its logits) see the target tokens.
  in.sequence_length = req.model.encoder_decoder() ? static_cast<double>(t.target_length)
                                                   : static_cast<double>(t.sequence_length) / L.cp;
  in.micro_batch = static_cast<double>(t.micro_batch_size);
  in.tp = L.tp;
  in.sequence_parallel = t.sequence_parallel;
  in.gathered_inputs = req.stack.tp_keeps_gathered_inputs;
  in.flash_attention = t.flash_attention;
  // "selective": Megatron's recompute of the attention core, unless the stack checkpoints
  // selectively another way (PyTorch op-level policies, every other layer): then it keeps a
  // share of each layer's activations (engine/memory.cpp).
  in.recompute_attention =
      t.activation_checkpointing == Checkpointing::kSelective && !req.stack.selective_keep_fraction;
  in.bytes_per_value = t.precision == Precision::kFp32 ? 4 : 2;
  return in;
}

double stage_activation_bytes_written(const Request& req, const Layout& L, double dense_layers,
                                      double moe_layers) {
  const ModelArch& m = req.model;
  ActivationInputs in = activation_inputs(req, L);
  // Every tensor the forward produces, whether or not checkpointing keeps it.
  in.recompute_attention = false;
  double bytes = dense_layers * layer_activation_bytes(m, in);
  if (moe_layers > 0) {
    ActivationInputs moe_in = in;
    moe_in.moe_layer = true;
    bytes += moe_layers * layer_activation_bytes(m, moe_in);
  }
  if (m.encoder_decoder()) {
    const double source_length = static_cast<double>(req.training.sequence_length);
    bytes += dense_layers * cross_attention_activation_bytes(m, in, source_length);
    ActivationInputs source = in;
    source.sequence_length = source_length;
    bytes += m.encoder_layers * layer_activation_bytes(m, source);
  }
  return bytes;
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
