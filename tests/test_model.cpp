// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "engine/model.hpp"
#include "helpers.hpp"
#include "types/errors.hpp"
#include "types/model.hpp"

using advisor::count_params;

TEST_CASE("parameter counts derived from each preset match the published totals", "[model]") {
  for (const auto& m : advisor::builtin_catalog().models) {
    INFO(m.id);
    const auto c = count_params(m);
    // Published totals are rounded (and sometimes exclude small tensors): within 3%.
    CHECK(c.total / 1e9 == Approx(m.params_total_b_published).epsilon(0.03));
    CHECK(c.active / 1e9 == Approx(m.params_active_b_published).epsilon(0.03));
  }
}

TEST_CASE("MoE presets: total versus active parameters", "[model]") {
  const auto& cat = advisor::builtin_catalog();
  // DeepSeek-V3 technical report: 671B total, 37B activated per token.
  const auto v3 = count_params(*cat.find_model("deepseek-v3"));
  CHECK(v3.total / 1e9 == Approx(671).epsilon(0.01));
  CHECK(v3.active / 1e9 == Approx(37).epsilon(0.03));
  CHECK(v3.moe_layers == 58);
  // Qwen3-30B-A3B model card: 30.5B total, 3.3B activated.
  const auto q = count_params(*cat.find_model("qwen3-30b-a3b"));
  CHECK(q.total / 1e9 == Approx(30.5).epsilon(0.01));
  CHECK(q.active / 1e9 == Approx(3.3).epsilon(0.03));
}

TEST_CASE("KV cache per token follows GQA and MLA", "[model][kv]") {
  const auto& cat = advisor::builtin_catalog();
  // Llama-3.1-8B: 8 KV heads x 128 dims x (K and V) = 2048 elements per layer per token.
  CHECK(advisor::kv_cache_elements_per_token_layer(*cat.find_model("llama-3.1-8b")) == 2048);
  // Llama-2-7B has no GQA: 32 x 128 x 2 = 8192, four times as much.
  CHECK(advisor::kv_cache_elements_per_token_layer(*cat.find_model("llama-2-7b")) == 8192);
  // DeepSeek-V3 MLA: kv_lora_rank 512 + rope key 64.
  CHECK(advisor::kv_cache_elements_per_token_layer(*cat.find_model("deepseek-v3")) == 576);
}

TEST_CASE("pasted Hugging Face config.json files resolve to the same architecture", "[model][hf]") {
  const auto& cat = advisor::builtin_catalog();
  SECTION("Llama 3.1 8B") {
    const auto j = nlohmann::json::parse(R"({
      "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
      "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32,
      "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
      "rope_theta": 500000.0, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})");
    const auto a = advisor::parse_hf_config(test::value_of(j), "/model/hf_config");
    CHECK(count_params(a).total == Approx(count_params(*cat.find_model("llama-3.1-8b")).total));
  }
  SECTION("Qwen3 MoE") {
    const auto j = nlohmann::json::parse(R"({
      "model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144,
      "moe_intermediate_size": 768, "num_attention_heads": 32, "num_key_value_heads": 4,
      "head_dim": 128, "num_hidden_layers": 48, "num_experts": 128, "num_experts_per_tok": 8,
      "vocab_size": 151936, "tie_word_embeddings": false, "mlp_only_layers": [],
      "max_position_embeddings": 40960, "use_sliding_window": false, "sliding_window": null})");
    const auto a = advisor::parse_hf_config(test::value_of(j), "/model/hf_config");
    CHECK(count_params(a).total == Approx(count_params(*cat.find_model("qwen3-30b-a3b")).total));
    CHECK(a.sliding_window == 0);
  }
  SECTION("DeepSeek-V3") {
    const auto j = nlohmann::json::parse(R"({
      "model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
      "moe_intermediate_size": 2048, "num_attention_heads": 128, "num_key_value_heads": 128,
      "num_hidden_layers": 61, "n_routed_experts": 256, "n_shared_experts": 1,
      "num_experts_per_tok": 8, "first_k_dense_replace": 3, "q_lora_rank": 1536,
      "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
      "vocab_size": 129280, "max_position_embeddings": 163840, "tie_word_embeddings": false})");
    const auto a = advisor::parse_hf_config(test::value_of(j), "/model/hf_config");
    CHECK(count_params(a).total == Approx(count_params(*cat.find_model("deepseek-v3")).total));
  }
  SECTION("Mixtral 8x7B: 46.7B total, 12.9B active (Mistral AI)") {
    const auto j = nlohmann::json::parse(R"({
      "model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
      "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,
      "num_local_experts": 8, "num_experts_per_tok": 2, "vocab_size": 32000,
      "sliding_window": null, "max_position_embeddings": 32768})");
    const auto c = count_params(advisor::parse_hf_config(test::value_of(j), "/model/hf_config"));
    CHECK(c.total / 1e9 == Approx(46.7).epsilon(0.01));
    CHECK(c.active / 1e9 == Approx(12.9).epsilon(0.01));
  }
  SECTION("Mistral 7B v0.1 keeps its 4096-token sliding window") {
    const auto j = nlohmann::json::parse(R"({
      "model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
      "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,
      "vocab_size": 32000, "sliding_window": 4096, "max_position_embeddings": 32768})");
    CHECK(advisor::parse_hf_config(test::value_of(j), "/model/hf_config").sliding_window == 4096);
  }
  SECTION("an unsupported family is a located error") {
    const auto j = nlohmann::json::parse(R"({"model_type": "bert", "hidden_size": 512})");
    CHECK_THROWS_WITH(test::throwing([&] {
                        return advisor::parse_hf_config(test::value_of(j), "/model/hf_config");
                      }),
                      Catch::Contains("/model/hf_config/model_type"));
  }
  SECTION("a missing key is a located error") {
    const auto j = nlohmann::json::parse(R"({"model_type": "llama", "hidden_size": 4096})");
    CHECK_THROWS_WITH(test::throwing([&] {
                        return advisor::parse_hf_config(test::value_of(j), "/model/hf_config");
                      }),
                      Catch::Contains("/model/hf_config/num_hidden_layers"));
  }
}
