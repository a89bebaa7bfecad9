// SPDX-License-Identifier: MIT
#include "engine/model.hpp"

#include <algorithm>

#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {
// T5's relative position bias: one table of 32 buckets x heads in the first layer of each
// stack (transformers T5Config.relative_attention_num_buckets = 32).
constexpr double kRelativePositionBuckets = 32;
}  // namespace

std::int64_t q_width(const ModelArch& a) {
  if (a.mla) return std::int64_t{a.heads} * (a.mla->qk_nope_head_dim + a.mla->qk_rope_head_dim);
  return std::int64_t{a.heads} * a.head_dim;
}

std::int64_t kv_width(const ModelArch& a) {
  if (a.mla) return std::int64_t{a.heads} * (a.mla->qk_nope_head_dim + a.mla->qk_rope_head_dim);
  return std::int64_t{a.kv_heads} * a.head_dim;
}

std::int64_t attn_out_width(const ModelArch& a) {
  if (a.mla) return std::int64_t{a.heads} * a.mla->v_head_dim;
  return std::int64_t{a.heads} * a.head_dim;
}

std::int64_t kv_cache_elements_per_token_layer(const ModelArch& a) {
  // MLA caches the compressed KV latent plus the shared rope key (DeepSeek-V2 paper, sec. 2.1.2).
  if (a.mla) return std::int64_t{a.mla->kv_lora_rank} + a.mla->qk_rope_head_dim;
  return 2 * std::int64_t{a.kv_heads} * a.head_dim;
}

ParamCounts count_params(const ModelArch& a) {
  ParamCounts c;
  const double h = static_cast<double>(a.hidden);
  double attention_linear = 0;
  double attention_other = 0;
  if (a.mla) {
    const MlaSpec& m = *a.mla;
    const double qk_head = m.qk_nope_head_dim + m.qk_rope_head_dim;
    if (m.q_lora_rank > 0) {
      attention_linear += h * m.q_lora_rank + double(m.q_lora_rank) * a.heads * qk_head;
      attention_other += m.q_lora_rank;  // q latent norm
    } else {
      attention_linear += h * a.heads * qk_head;
    }
    attention_linear += h * (m.kv_lora_rank + m.qk_rope_head_dim) +
                        double(m.kv_lora_rank) * a.heads * (m.qk_nope_head_dim + m.v_head_dim);
    attention_other += m.kv_lora_rank;  // kv latent norm
    attention_linear += double(a.heads) * m.v_head_dim * h;
  } else {
    const double q = static_cast<double>(q_width(a));
    const double kv = static_cast<double>(kv_width(a));
    attention_linear = h * (q + 2 * kv) + q * h;
    if (a.attention_bias || a.linear_bias) attention_other += q + 2 * kv;
    if (a.linear_bias) attention_other += h;
  }
  c.attention_per_layer = attention_linear + attention_other;
  const double norm_params = a.layernorm ? 2 * h : h;  // LayerNorm has a bias, RMSNorm does not
  c.norms_per_layer = 2 * norm_params;

  const double matrices = a.mlp_gated ? 3 : 2;
  const double f = static_cast<double>(a.ffn_hidden);
  c.dense_mlp_per_layer = matrices * h * f + (a.linear_bias ? f + h : 0);

  if (a.moe) {
    const MoeSpec& m = *a.moe;
    const double expert = matrices * h * static_cast<double>(m.expert_ffn_hidden);
    c.moe_expert_per_layer = expert * m.experts;
    c.moe_shared_per_layer = expert * m.shared_experts + h * m.experts;  // + router
    c.dense_layers = std::min(m.dense_layers, a.layers);
    c.moe_layers = a.layers - c.dense_layers;
  } else {
    c.dense_layers = a.layers;
  }

  c.embedding = static_cast<double>(a.vocab) * h;
  if (a.position == "learned") c.embedding += static_cast<double>(a.max_position_embeddings) * h;
  c.lm_head = a.tied_embeddings ? 0 : static_cast<double>(a.vocab) * h;
  c.final_norm = norm_params;
  const double stacks = a.encoder_decoder() ? 2 : 1;
  if (a.position == "relative") c.embedding += stacks * kRelativePositionBuckets * a.heads;

  const double common = c.attention_per_layer + c.norms_per_layer;
  const double dense_block = common + c.dense_mlp_per_layer;
  const double moe_block = common + c.moe_shared_per_layer + c.moe_expert_per_layer;
  double encoder_decoder_extra = 0;
  if (a.encoder_decoder()) {
    // T5Stack: encoder layers are decoder layers without cross-attention; each decoder layer
    // attends to the encoder's output with its own q/k/v/o and a third norm. The encoder's
    // final norm sits with the embedding (the first thing the input meets).
    c.encoder_layers = a.encoder_layers;
    c.encoder_layer = dense_block;
    c.cross_attention_per_layer = c.attention_per_layer + norm_params;
    c.embedding += norm_params;
    encoder_decoder_extra =
        c.encoder_layers * c.encoder_layer + a.layers * c.cross_attention_per_layer;
  }
  c.total = c.dense_layers * dense_block + c.moe_layers * moe_block + c.embedding + c.lm_head +
            c.final_norm + encoder_decoder_extra;
  double active_moe_block = moe_block;
  if (a.moe && a.moe->experts > 0) {
    active_moe_block = common + c.moe_shared_per_layer +
                       c.moe_expert_per_layer * a.moe->experts_per_token / a.moe->experts;
  }
  c.active = c.dense_layers * dense_block + c.moe_layers * active_moe_block + c.embedding +
             c.lm_head + c.final_norm + encoder_decoder_extra;
  c.attention_linear_per_layer = attention_linear;
  c.dense_mlp_linear_per_layer = matrices * h * f;
  c.moe_linear_per_layer = a.moe ? matrices * h * static_cast<double>(a.moe->expert_ffn_hidden) *
                                       (a.moe->experts + a.moe->shared_experts)
                                 : 0;
  c.block_linear = a.layers * attention_linear + c.dense_layers * c.dense_mlp_linear_per_layer +
                   c.moe_layers * c.moe_linear_per_layer +
                   c.encoder_layers * (attention_linear + c.dense_mlp_linear_per_layer) +
                   (a.encoder_decoder() ? a.layers * attention_linear : 0);
  return c;
}

void validate_arch(const ModelArch& a, const std::string& path, const ArchKeys& keys) {
  // After a problem the fields may hold any fallback (0 heads): nothing to check or count.
  if (problem_reported()) return;
  const std::string heads = path + "/" + keys.heads;
  const std::string kv_heads = path + "/" + keys.kv_heads;
  ADVISOR_REQUIRE_OR_RETURN(a.kv_heads <= a.heads, "inconsistent", kv_heads,
                            kv_heads + " (" + std::to_string(a.kv_heads) + ") must not exceed " +
                                heads + " (" + std::to_string(a.heads) + ")");
  ADVISOR_REQUIRE_OR_RETURN(a.heads % a.kv_heads == 0, "inconsistent", kv_heads,
                            kv_heads + " (" + std::to_string(a.kv_heads) + ") must divide " +
                                heads + " (" + std::to_string(a.heads) + ")");
  if (a.moe) {
    const std::string per_token = path + "/" + keys.experts_per_token;
    ADVISOR_REQUIRE_OR_RETURN(a.moe->experts_per_token <= a.moe->experts, "inconsistent", per_token,
                              per_token + " (" + std::to_string(a.moe->experts_per_token) +
                                  ") must not exceed " + path + "/" + keys.experts + " (" +
                                  std::to_string(a.moe->experts) + ")");
    const std::string dense = path + "/" + keys.dense_layers;
    ADVISOR_REQUIRE_OR_RETURN(a.moe->dense_layers <= a.layers, "inconsistent", dense,
                              dense + " (" + std::to_string(a.moe->dense_layers) +
                                  ") must not exceed " + path + "/" + keys.layers + " (" +
                                  std::to_string(a.layers) + ")");
  }
  if (a.encoder_decoder() && (a.moe || a.mla)) {
    const std::string p = path + "/" + keys.encoder_layers;
    report_problem("inconsistent", p,
                   p + ": encoder-decoder models are modelled with dense layers and "
                       "multi-head attention (T5); experts or latent attention are not");
    return;
  }
  if (a.position == "learned") {
    const std::string p = path + "/" + keys.max_position_embeddings;
    ADVISOR_REQUIRE_OR_RETURN(a.max_position_embeddings > 0, "missing_field", p,
                              p + " is required for learned positions");
  }
  // Every field may be in range while their product is absurd (2,000 layers of width 10^6):
  // such a model would overflow the byte counts, so it is refused here, located at the model.
  const double params = count_params(a).total;
  ADVISOR_REQUIRE_OR_RETURN(
      params <= limits::kMaxParameters, "out_of_range", path,
      path + " describes " + format_with("%.3g", params) + " parameters; the limit is " +
          format_with("%.0e", limits::kMaxParameters) +
          " (50x the largest published model): check layers, hidden sizes, vocab and experts");
}

}  // namespace advisor
