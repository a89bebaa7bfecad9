// SPDX-License-Identifier: MIT
#include "engine/flops.hpp"

#include <algorithm>

#include "engine/memory.hpp"
#include "engine/model.hpp"

namespace advisor {

double active_matmul_params(const ModelArch& m) {
  const ParamCounts c = count_params(m);
  const double h = static_cast<double>(m.hidden);
  double moe_active = 0;
  if (m.moe) {
    const double matrices = m.mlp_gated ? 3 : 2;
    moe_active = matrices * h * static_cast<double>(m.moe->expert_ffn_hidden) *
                     (m.moe->experts_per_token + m.moe->shared_experts) +
                 h * m.moe->experts;  // router
  }
  const double head = static_cast<double>(m.vocab) * h;
  return m.layers * c.attention_linear_per_layer + c.dense_layers * c.dense_mlp_linear_per_layer +
         c.moe_layers * moe_active + head;
}

double attention_forward_flops(const ModelArch& m, double context) {
  const double span =
      m.sliding_window > 0 ? std::min(context, static_cast<double>(m.sliding_window)) : context;
  // QK^T: 2 x span x q_width; AV: 2 x span x (value width) per token per layer.
  return m.layers * 2.0 * span * static_cast<double>(q_width(m) + attn_out_width(m));
}

double tokens_per_example(const TrainingSettings& t) {
  return static_cast<double>(t.sequence_length + t.target_length);
}

namespace {
/// An encoder-decoder's forward FLOPs per token, averaged over an example's source (S) and
/// target (T) tokens: the encoder's layers run on S tokens; the decoder's layers, the
/// cross-attention's Q and output projections and the LM head on T; the cross-attention's K/V
/// projections on the encoder's S outputs. Attention spans: S for the encoder (bidirectional),
/// T for the decoder's self-attention, S for its cross-attention.
void encoder_decoder_forward(const ModelArch& m, const TrainingSettings& t, TokenFlops& f) {
  const ParamCounts c = count_params(m);
  const double S = static_cast<double>(t.sequence_length);
  const double T = static_cast<double>(t.target_length);
  const double h = static_cast<double>(m.hidden);
  const double q = static_cast<double>(q_width(m)), o = static_cast<double>(attn_out_width(m));
  const double kv = static_cast<double>(kv_width(m));
  const double layer = c.attention_linear_per_layer + c.dense_mlp_linear_per_layer;
  const double head = static_cast<double>(m.vocab) * h;
  const double tokens = S + T;
  const double encoder = c.encoder_layers * layer * S;
  const double decoder = m.layers * ((layer + h * q + o * h) * T + 2 * h * kv * S);
  f.linear_forward = 2 * (encoder + decoder + head * T) / tokens;
  f.head_forward = 2 * head * T / tokens;
  f.attention_forward =
      2 * (q + o) * (c.encoder_layers * S * S + m.layers * (T * T + T * S)) / tokens;
}
}  // namespace

TokenFlops training_flops_per_token(const Request& req) {
  const ModelArch& m = req.model;
  const TrainingSettings& t = req.training;
  TokenFlops f;
  if (m.encoder_decoder()) {
    encoder_decoder_forward(m, t, f);
  } else {
    f.linear_forward = 2 * active_matmul_params(m);
    f.head_forward = 2 * static_cast<double>(m.vocab) * static_cast<double>(m.hidden);
    f.attention_forward = attention_forward_flops(m, static_cast<double>(t.sequence_length));
  }
  const bool adapter = is_adapter(req.task);
  if (adapter) {
    // Adapters on routed experts are active for top-k of n experts, like the experts.
    const ParamCounts c = count_params(m);
    const double active_share = c.total > 0 ? c.active / c.total : 1;
    f.lora_forward = 2 * trainable_params(req) * active_share;
  }
  const double linear_backward = adapter ? f.linear_forward : 2 * f.linear_forward;
  const double attention_backward = 2 * f.attention_forward;
  const double lora_backward = 2 * f.lora_forward;
  f.model = f.linear_forward + linear_backward + f.attention_forward + attention_backward +
            f.lora_forward + lora_backward;
  double recompute_linear = 0, recompute_attention = 0;
  if (t.activation_checkpointing == Checkpointing::kFull) {
    recompute_linear = f.linear_forward - f.head_forward;  // the loss is not checkpointed
    recompute_attention = f.attention_forward + f.lora_forward;
  } else if (t.activation_checkpointing == Checkpointing::kSelective) {
    recompute_attention = f.attention_forward;
  }
  f.hardware_linear = f.linear_forward + linear_backward + recompute_linear;
  f.hardware_attention = f.attention_forward + attention_backward + f.lora_forward + lora_backward +
                         recompute_attention;
  f.hardware = f.hardware_linear + f.hardware_attention;
  return f;
}

}  // namespace advisor
