// SPDX-License-Identifier: MIT
// Model architectures from JSON: catalog entries, a request's custom fields, a pasted Hugging
// Face config.json; and back to JSON for the result.
#include "io/model_json.hpp"

#include <algorithm>

#include "engine/model.hpp"
#include "io/json_reader.hpp"
#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {
// Largest sizes a field may take: far above any published model, low enough to keep products
// of them finite and meaningful. Absurd inputs are rejected, not clamped.
constexpr std::int64_t kMaxLayers = 2000;
constexpr std::int64_t kMaxWidth = 1'000'000;
constexpr std::int64_t kMaxHeads = 10'000;
constexpr std::int64_t kMaxVocab = 10'000'000;
constexpr std::int64_t kMaxContext = 100'000'000;
constexpr std::int64_t kMaxExperts = 100'000;
}  // namespace

ModelArch parse_model_fields(const JsonValue& j, const std::string& path, bool catalog_entry) {
  FieldReader r(j, path);
  ModelArch a;
  // Optional in a request; every key is required in a catalog entry.
  auto opt = [&](auto value) -> std::optional<decltype(value)> {
    if (catalog_entry) return std::nullopt;
    return value;
  };
  a.id = catalog_entry ? r.string("id") : r.string("id", std::string("custom"));
  a.name = r.string("name", opt(std::string("Custom model")));
  a.family = r.string("family", opt(std::string("custom")));
  a.layers = static_cast<int>(r.integer("layers", 1, kMaxLayers));
  a.encoder_layers = static_cast<int>(r.integer("encoder_layers", 0, kMaxLayers, std::int64_t{0}));
  a.hidden = r.integer("hidden", 1, kMaxWidth);
  a.ffn_hidden = r.integer("ffn_hidden", 1, kMaxWidth);
  a.heads = static_cast<int>(r.integer("heads", 1, kMaxHeads));
  a.kv_heads = static_cast<int>(r.integer("kv_heads", 1, kMaxHeads, opt(std::int64_t{a.heads})));
  if (problem_reported()) return {};  // the head size divides by what was read
  ADVISOR_REQUIRE(catalog_entry || a.hidden % a.heads == 0 || r.has("head_dim"), "inconsistent",
                  path + "/head_dim",
                  path + "/hidden is not divisible by heads: give head_dim explicitly");
  a.head_dim =
      static_cast<int>(r.integer("head_dim", 1, kMaxWidth, opt(std::int64_t{a.hidden / a.heads})));
  a.vocab = r.integer("vocab", 1, kMaxVocab);
  a.mlp_gated = r.choice("mlp", {"gated", "plain"}, opt(std::string("gated"))) == "gated";
  a.tied_embeddings = r.boolean("tied_embeddings", opt(false));
  a.attention_bias = r.boolean("attention_bias", opt(false));
  a.linear_bias = r.boolean("linear_bias", opt(false));
  a.position =
      r.choice("position", {"rope", "learned", "alibi", "relative"}, opt(std::string("rope")));
  a.max_position_embeddings =
      r.integer("max_position_embeddings", 1, kMaxContext, opt(std::int64_t{4096}));
  a.sliding_window = r.nullable_integer("sliding_window", 1, kMaxContext).value_or(0);
  a.layernorm =
      r.choice("norm", {"rmsnorm", "layernorm"}, opt(std::string("rmsnorm"))) == "layernorm";
  a.dropout = r.boolean("dropout", opt(false));
  if (const JsonValue* moe = r.object("moe")) {
    FieldReader m(*moe, r.path_of("moe"));
    MoeSpec s;
    s.experts = static_cast<int>(m.integer("experts", 1, kMaxExperts));
    s.experts_per_token = static_cast<int>(m.integer("experts_per_token", 1, kMaxExperts));
    s.shared_experts = static_cast<int>(m.integer("shared_experts", 0, kMaxExperts, 0));
    s.expert_ffn_hidden = m.integer("expert_ffn_hidden", 1, kMaxWidth);
    s.dense_layers = static_cast<int>(m.integer("dense_layers", 0, kMaxLayers, 0));
    m.reject_unknown();
    a.moe = s;
  } else if (catalog_entry) {
    if (!j.contains("moe"))
      return report_problem("missing_field", r.path_of("moe"),
                            r.path_of("moe") + " is required (an object or null)");
  }
  if (const JsonValue* mla = r.object("mla")) {
    FieldReader m(*mla, r.path_of("mla"));
    MlaSpec s;
    s.q_lora_rank = static_cast<int>(m.integer("q_lora_rank", 0, kMaxWidth, 0));
    s.kv_lora_rank = static_cast<int>(m.integer("kv_lora_rank", 1, kMaxWidth));
    s.qk_nope_head_dim = static_cast<int>(m.integer("qk_nope_head_dim", 1, kMaxWidth));
    s.qk_rope_head_dim = static_cast<int>(m.integer("qk_rope_head_dim", 0, kMaxWidth));
    s.v_head_dim = static_cast<int>(m.integer("v_head_dim", 1, kMaxWidth));
    m.reject_unknown();
    a.mla = s;
  } else if (catalog_entry) {
    if (!j.contains("mla"))
      return report_problem("missing_field", r.path_of("mla"),
                            r.path_of("mla") + " is required (an object or null)");
  }
  a.params_total_b_published = r.number("params_total_b", 0, 1e6, opt(0.0));
  a.params_active_b_published =
      r.number("params_active_b", 0, 1e6, opt(a.params_total_b_published));
  a.source = r.string("source", opt(std::string("user input")));
  a.as_of = r.string("as_of", opt(std::string("")));
  r.reject_unknown();
  validate_arch(a, path);
  return a;
}

namespace {
// Reads an HF config key that may be absent; HF configs carry many keys we do not need, so
// unknown keys are allowed here (unlike our own schema).
std::int64_t hf_int(const JsonValue& j, const std::string& path, const char* key, std::int64_t min,
                    std::int64_t max, std::optional<std::int64_t> fallback) {
  FieldReader r(j, path);
  return r.integer(key, min, max, fallback);
}
bool hf_bool(const JsonValue& j, const std::string& path, const char* key, bool fallback) {
  FieldReader r(j, path);
  return r.boolean(key, fallback);
}

/// A pasted config's identity: "custom", its model type, and its _name_or_path for a name.
ModelArch pasted_arch(FieldReader& root, const std::string& type) {
  ModelArch a;
  a.id = "custom";
  a.family = type;
  a.name = root.string("_name_or_path", std::string("Pasted config.json (") + type + ")");
  if (a.name.empty()) a.name = "Pasted config.json (" + type + ")";
  a.source = "pasted config.json";
  return a;
}

/// T5, mT5 (mT0) and UMT5 configs: an encoder-decoder with its own key names (T5Config).
ModelArch parse_t5_config(const JsonValue& j, const std::string& path, const std::string& type) {
  FieldReader root(j, path);
  ModelArch a = pasted_arch(root, type);
  a.encoder_layers = static_cast<int>(hf_int(j, path, "num_layers", 1, kMaxLayers, {}));
  a.layers = static_cast<int>(
      hf_int(j, path, "num_decoder_layers", 1, kMaxLayers, std::int64_t{a.encoder_layers}));
  a.hidden = hf_int(j, path, "d_model", 1, kMaxWidth, {});
  a.ffn_hidden = hf_int(j, path, "d_ff", 1, kMaxWidth, {});
  a.heads = static_cast<int>(hf_int(j, path, "num_heads", 1, kMaxHeads, {}));
  a.kv_heads = a.heads;
  a.head_dim = static_cast<int>(hf_int(j, path, "d_kv", 1, kMaxWidth, {}));
  a.vocab = hf_int(j, path, "vocab_size", 1, kMaxVocab, {});
  // T5Config's defaults: tied embeddings, a ReLU MLP ("gated-gelu" in T5 v1.1, mT5, FLAN-T5).
  a.tied_embeddings = hf_bool(j, path, "tie_word_embeddings", true);
  a.mlp_gated = root.string("feed_forward_proj", std::string("relu")).rfind("gated-", 0) == 0;
  a.position = "relative";
  a.max_position_embeddings = hf_int(j, path, "n_positions", 1, kMaxContext, std::int64_t{512});
  a.layernorm = false;  // T5LayerNorm: a scale, no mean, no bias
  a.dropout = root.number("dropout_rate", 0, 1, 0.1) > 0;
  ArchKeys keys;
  keys.layers = "num_decoder_layers";
  keys.encoder_layers = "num_layers";
  keys.heads = "num_heads";
  keys.kv_heads = "num_heads";
  keys.max_position_embeddings = "n_positions";
  validate_arch(a, path, keys);
  return a;
}
}  // namespace

ModelArch parse_hf_config(const JsonValue& j, const std::string& path) {
  FieldReader root(j, path);
  const std::string type = root.string("model_type");
  if (type == "t5" || type == "mt5" || type == "umt5") return parse_t5_config(j, path, type);
  static const char* kSupported[] = {"llama", "mistral",   "mixtral",     "qwen2",      "qwen2_moe",
                                     "qwen3", "qwen3_moe", "deepseek_v3", "deepseek_v2"};
  bool supported = false;
  for (const char* s : kSupported) supported = supported || type == s;
  if (!supported)
    return report_problem(
        "unsupported_model_type", path + "/model_type",
        path + "/model_type " + in_quotes(type) +
            " is not supported; supported: llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, "
            "qwen3_moe, deepseek_v2, deepseek_v3, t5, mt5, umt5 (or give the architecture "
            "fields instead)");
  ModelArch a = pasted_arch(root, type);
  a.layers = static_cast<int>(hf_int(j, path, "num_hidden_layers", 1, kMaxLayers, {}));
  a.hidden = hf_int(j, path, "hidden_size", 1, kMaxWidth, {});
  a.ffn_hidden = hf_int(j, path, "intermediate_size", 1, kMaxWidth, {});
  a.heads = static_cast<int>(hf_int(j, path, "num_attention_heads", 1, kMaxHeads, {}));
  a.kv_heads =
      static_cast<int>(hf_int(j, path, "num_key_value_heads", 1, kMaxHeads, std::int64_t{a.heads}));
  if (problem_reported()) return {};  // the head size divides by what was read
  // Without head_dim, Transformers uses hidden_size / num_attention_heads: it must be whole
  // (and not 0, which hidden_size 1 with 2 heads would give).
  if (!root.has("head_dim") && a.hidden % a.heads != 0) {
    const std::string p = path + "/num_attention_heads";
    return report_problem("inconsistent", p,
                          p + " (" + std::to_string(a.heads) + ") does not divide " + path +
                              "/hidden_size (" + std::to_string(a.hidden) +
                              "): the head size would not be whole; give " + path + "/head_dim");
  }
  a.head_dim =
      static_cast<int>(hf_int(j, path, "head_dim", 1, kMaxWidth, std::int64_t{a.hidden / a.heads}));
  a.vocab = hf_int(j, path, "vocab_size", 1, kMaxVocab, {});
  a.tied_embeddings = hf_bool(j, path, "tie_word_embeddings", false);
  a.max_position_embeddings =
      hf_int(j, path, "max_position_embeddings", 1, kMaxContext, std::int64_t{4096});
  a.mlp_gated = true;
  a.position = "rope";
  a.layernorm = false;
  a.dropout = false;
  a.attention_bias =
      type == "qwen2" || type == "qwen2_moe" || hf_bool(j, path, "attention_bias", false);
  // Qwen2/3 configs carry a sliding_window value but switch it off with use_sliding_window.
  const bool sliding_on = (type == "mistral" || type == "mixtral")
                              ? true
                              : hf_bool(j, path, "use_sliding_window", false);
  if (const JsonValue* window = j.find("sliding_window");
      sliding_on && window && !window->is_null()) {
    a.sliding_window = hf_int(j, path, "sliding_window", 1, kMaxContext, {});
  }
  // Errors name the config.json keys the user pasted.
  ArchKeys keys;
  keys.layers = "num_hidden_layers";
  keys.heads = "num_attention_heads";
  keys.kv_heads = "num_key_value_heads";
  keys.experts_per_token = "num_experts_per_tok";
  keys.max_position_embeddings = "max_position_embeddings";
  if (type == "mixtral") {
    keys.experts = "num_local_experts";
    MoeSpec m;
    m.experts = static_cast<int>(hf_int(j, path, "num_local_experts", 1, kMaxExperts, {}));
    m.experts_per_token =
        static_cast<int>(hf_int(j, path, "num_experts_per_tok", 1, kMaxExperts, {}));
    m.expert_ffn_hidden = a.ffn_hidden;
    a.moe = m;
  } else if (type == "qwen2_moe" || type == "qwen3_moe") {
    keys.experts = "num_experts";
    keys.dense_layers = "mlp_only_layers";
    MoeSpec m;
    m.experts = static_cast<int>(hf_int(j, path, "num_experts", 1, kMaxExperts, {}));
    m.experts_per_token =
        static_cast<int>(hf_int(j, path, "num_experts_per_tok", 1, kMaxExperts, {}));
    m.expert_ffn_hidden = hf_int(j, path, "moe_intermediate_size", 1, kMaxWidth, {});
    const std::int64_t shared =
        hf_int(j, path, "shared_expert_intermediate_size", 0, kMaxWidth, std::int64_t{0});
    if (problem_reported()) return {};  // divides by what was read
    // Qwen2-MoE's one shared expert is wider than a routed one: count it in expert units.
    m.shared_experts =
        shared > 0 ? static_cast<int>((shared + m.expert_ffn_hidden - 1) / m.expert_ffn_hidden) : 0;
    if (const JsonValue* dense = j.find("mlp_only_layers"); dense && dense->is_array()) {
      m.dense_layers = static_cast<int>(dense->size());
    }
    a.moe = m;
  } else if (type == "deepseek_v3" || type == "deepseek_v2") {
    keys.experts = "n_routed_experts";
    keys.dense_layers = "first_k_dense_replace";
    MoeSpec m;
    m.experts = static_cast<int>(hf_int(j, path, "n_routed_experts", 1, kMaxExperts, {}));
    m.experts_per_token =
        static_cast<int>(hf_int(j, path, "num_experts_per_tok", 1, kMaxExperts, {}));
    m.shared_experts =
        static_cast<int>(hf_int(j, path, "n_shared_experts", 0, kMaxExperts, std::int64_t{0}));
    m.expert_ffn_hidden = hf_int(j, path, "moe_intermediate_size", 1, kMaxWidth, {});
    m.dense_layers =
        static_cast<int>(hf_int(j, path, "first_k_dense_replace", 0, kMaxLayers, std::int64_t{0}));
    a.moe = m;
    MlaSpec l;
    l.q_lora_rank = static_cast<int>(hf_int(j, path, "q_lora_rank", 0, kMaxWidth, std::int64_t{0}));
    l.kv_lora_rank = static_cast<int>(hf_int(j, path, "kv_lora_rank", 1, kMaxWidth, {}));
    l.qk_nope_head_dim = static_cast<int>(hf_int(j, path, "qk_nope_head_dim", 1, kMaxWidth, {}));
    l.qk_rope_head_dim = static_cast<int>(hf_int(j, path, "qk_rope_head_dim", 0, kMaxWidth, {}));
    l.v_head_dim = static_cast<int>(hf_int(j, path, "v_head_dim", 1, kMaxWidth, {}));
    a.mla = l;
    a.kv_heads = a.heads;
    a.head_dim = l.qk_nope_head_dim + l.qk_rope_head_dim;
  }
  validate_arch(a, path, keys);
  return a;
}

}  // namespace advisor
