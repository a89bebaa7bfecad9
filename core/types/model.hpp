// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace advisor {

/// Mixture-of-experts layout (DeepSeek-V3, Qwen3-MoE, Mixtral).
struct MoeSpec {
  int experts = 0;                     // routed experts per MoE layer
  int experts_per_token = 0;           // routed experts each token visits (top-k)
  int shared_experts = 0;              // always-on experts per MoE layer
  std::int64_t expert_ffn_hidden = 0;  // intermediate size of one expert
  int dense_layers = 0;                // leading layers with a dense MLP instead of experts
};

/// Multi-head latent attention (DeepSeek-V2/V3): K and V are cached as one compressed latent.
struct MlaSpec {
  int q_lora_rank = 0;  // 0 = queries projected directly from the hidden state
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
};

/// A transformer's architecture, as published in its config: decoder-only, or an
/// encoder-decoder (T5, mT5/mT0, FLAN-T5) when encoder_layers > 0.
struct ModelArch {
  std::string id;  // preset id, or "custom"
  std::string name;
  std::string family;
  int layers = 0;  // decoder layers
  /// Encoder layers of an encoder-decoder (0: decoder-only). The encoder has the decoder's
  /// widths; each decoder layer adds cross-attention over the encoder's output (T5Stack).
  int encoder_layers = 0;
  std::int64_t hidden = 0;
  std::int64_t ffn_hidden = 0;  // dense MLP intermediate size
  int heads = 0;
  int kv_heads = 0;  // < heads means grouped-query attention
  int head_dim = 0;
  std::int64_t vocab = 0;
  bool mlp_gated = true;  // SwiGLU (3 matrices) vs GELU (2)
  bool tied_embeddings = false;
  bool attention_bias = false;    // bias on q/k/v projections (Qwen2)
  bool linear_bias = false;       // bias on every linear layer (GPT-3)
  std::string position = "rope";  // rope | learned | alibi | relative (T5's bucketed bias)
  std::int64_t max_position_embeddings = 0;
  std::int64_t sliding_window = 0;  // 0 = full attention
  bool layernorm = false;           // LayerNorm (weight+bias) vs RMSNorm (weight)
  bool dropout = false;             // dropout layers active in training
  std::optional<MoeSpec> moe;
  std::optional<MlaSpec> mla;
  double params_total_b_published = 0;  // 0 when not known (custom model)
  double params_active_b_published = 0;
  std::string source;
  std::string as_of;

  bool encoder_decoder() const { return encoder_layers > 0; }
};

/// Parameter counts derived from the architecture (not the published figure).
struct ParamCounts {
  double attention_per_layer = 0;  // q/k/v/o (+ MLA latents, biases)
  double norms_per_layer = 0;
  double dense_mlp_per_layer = 0;   // dense layers' MLP
  double moe_expert_per_layer = 0;  // routed experts of one MoE layer (all of them)
  double moe_shared_per_layer = 0;  // shared experts + router of one MoE layer
  double embedding = 0;             // input embedding (+ learned positions)
  double lm_head = 0;               // 0 when tied
  double final_norm = 0;
  int dense_layers = 0;
  int moe_layers = 0;
  /// Encoder-decoder: one encoder layer (attention, MLP, norms), and what each decoder layer
  /// adds for cross-attention (its q/k/v/o and norm); the encoder's final norm and relative
  /// position tables are in `embedding`.
  int encoder_layers = 0;
  double encoder_layer = 0;
  double cross_attention_per_layer = 0;
  double total = 0;
  double active = 0;  // per token: routed experts counted top-k of n
  /// Weights inside linear (matmul) layers: what 4-/8-bit quantisers convert.
  double attention_linear_per_layer = 0;
  double dense_mlp_linear_per_layer = 0;
  double moe_linear_per_layer = 0;  // routed + shared experts of one MoE layer
  double block_linear = 0;          // all layers
};

/// The keys a model's fields were read from, so that an error names the key the user wrote:
/// our own names for a preset or custom fields, config.json's for a pasted Hugging Face config
/// (num_key_value_heads, num_experts_per_tok, ...). Relative to the model object's path.
struct ArchKeys {
  std::string layers = "layers";
  std::string encoder_layers = "encoder_layers";
  std::string heads = "heads";
  std::string kv_heads = "kv_heads";
  std::string experts = "moe/experts";
  std::string experts_per_token = "moe/experts_per_token";
  std::string dense_layers = "moe/dense_layers";
  std::string max_position_embeddings = "max_position_embeddings";
};

}  // namespace advisor
