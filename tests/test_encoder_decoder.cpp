// SPDX-License-Identifier: MIT
// Encoder-decoder models (T5, mT5/mT0, FLAN-T5): parameters, adapters, FLOPs, memory and the
// located errors for what is not modelled.
#include <catch2/catch.hpp>

#include "engine/flops.hpp"
#include "engine/model.hpp"
#include "helpers.hpp"

using nlohmann::json;

namespace {
// bigscience/mt0-large (mT5-large): the model PEFT's README prints parameters for.
const json kMt0Large = {{"name", "mt0-large"},
                        {"encoder_layers", 24},
                        {"layers", 24},
                        {"hidden", 1024},
                        {"ffn_hidden", 2816},
                        {"heads", 16},
                        {"head_dim", 64},
                        {"vocab", 250112},
                        {"position", "relative"},
                        {"dropout", true},
                        {"max_position_embeddings", 512}};

json error_of(const json& request) {
  bool ok = true;
  const auto out = json::parse(advisor::advise_text(request.dump(), &ok));
  CHECK_FALSE(ok);
  REQUIRE(out.contains("error"));
  return out["error"];
}
}  // namespace

TEST_CASE("encoder-decoder parameters and LoRA adapters match PEFT's printed counts",
          "[model][encoder_decoder]") {
  // PEFT README: LoraConfig(task_type=SEQ_2_SEQ_LM, r=8) on bigscience/mt0-large prints
  // "trainable params: 2359296 || all params: 1231940608": the base is 1,229,581,312 (the
  // shared embedding counted once, untied LM head, T5's relative position tables), and rank 8
  // on q and v of the encoder's self-attention and the decoder's self- and cross-attention is
  // 144 modules x 8 x (1024 + 1024).
  const auto req = test::parse({{"schema", 1},
                                {"task", "lora"},
                                {"model", kMt0Large},
                                {"training", {{"lora_rank", 8}, {"lora_targets", {"q", "v"}}}}});
  CHECK(advisor::count_params(req.model).total == 1229581312.0);
  CHECK(advisor::trainable_params(req) == 2359296.0);
  // T0 3B (T5 v1.1 XL): 24 + 24 layers of width 2048, gated-GELU MLP 5120, 32128 tokens.
  const auto& t0 = *advisor::builtin_catalog().find_model("t0-3b");
  CHECK(advisor::count_params(t0).total == 2849757184.0);
}

TEST_CASE("a pasted T5 config.json is the preset's architecture", "[model][hf][encoder_decoder]") {
  const auto j = json::parse(R"({
    "architectures": ["T5ForConditionalGeneration"], "model_type": "t5", "d_model": 2048,
    "d_ff": 5120, "d_kv": 64, "num_heads": 32, "num_layers": 24, "num_decoder_layers": 24,
    "vocab_size": 32128, "feed_forward_proj": "gated-gelu", "tie_word_embeddings": false,
    "dropout_rate": 0.1, "relative_attention_num_buckets": 32, "is_encoder_decoder": true})");
  const auto a = advisor::parse_hf_config(test::value_of(j), "/model/hf_config");
  CHECK(a.encoder_layers == 24);
  CHECK(a.mlp_gated);
  CHECK(advisor::count_params(a).total ==
        advisor::count_params(*advisor::builtin_catalog().find_model("t0-3b")).total);
}

TEST_CASE("an encoder-decoder costs what a decoder of half its layers does per token",
          "[speed][encoder_decoder]") {
  // Raffel et al. 2020 sec. 3.2.2: an encoder-decoder of L + L layers has about the FLOPs of
  // an L-layer decoder-only model, each token passing one stack. With as many target as input
  // tokens the weight FLOPs per token are those of the blocks and the head once.
  const auto req = test::parse(
      test::request("full_finetune", "t0-3b",
                    {{"training", {{"sequence_length", 512}, {"target_length", 512}}}}));
  const auto f = advisor::training_flops_per_token(req);
  const auto c = advisor::count_params(req.model);
  const double head = static_cast<double>(req.model.vocab * req.model.hidden);
  CHECK(f.linear_forward == Approx(c.block_linear + head));
  CHECK(f.model - 3 * f.attention_forward == Approx(3 * (c.block_linear + head)));
  CHECK(advisor::tokens_per_example(req.training) == 1024);
}

TEST_CASE("encoder-decoder memory: the 16 bytes per parameter and target-length activations",
          "[memory][encoder_decoder]") {
  auto request = [](std::int64_t target) {
    return test::request("full_finetune", "t0-3b",
                         {{"training", {{"sequence_length", 512}, {"target_length", target}}}});
  };
  const auto short_target = test::memory(request(64), test::layout(1, 0));
  const auto long_target = test::memory(request(512), test::layout(1, 0));
  const double params = advisor::count_params(test::parse(request(64)).model).total;
  CHECK(short_target.weights + short_target.gradients + short_target.optimizer ==
        Approx(16 * params));
  // The decoder's layers, its cross-attention and the logits grow with the target tokens.
  CHECK(long_target.activations > 1.5 * short_target.activations);
  // Unstated, the target is T5's span-corruption share of the input: 114 per 512.
  CHECK(test::parse(test::request("lora", "t0-3b", {{"training", {{"sequence_length", 512}}}}))
            .training.target_length == 114);
}

TEST_CASE("what encoder-decoders cannot do is a located error", "[request][encoder_decoder]") {
  const json on_h100 = {{"gpu", "h100-sxm-80gb"}, {"count", 8}};
  json pipeline = test::request("full_finetune", "flan-t5-xxl");
  pipeline["hardware"] = on_h100;
  pipeline["parallelism"] = {{"pp", 2}};
  json context = test::request("pretrain", "flan-t5-xl");
  context["hardware"] = on_h100;
  context["parallelism"] = {{"cp", 2}};
  json target_on_decoder = test::request("lora", "llama-3.1-8b");
  target_on_decoder["training"] = {{"target_length", 128}};
  json experts = test::request("lora", "llama-3.1-8b");
  experts["model"] = kMt0Large;
  experts["model"]["moe"] = {{"experts", 4}, {"experts_per_token", 2}, {"expert_ffn_hidden", 32}};
  const std::pair<json, const char*> cases[] = {
      {test::request("inference", "flan-t5-xl"), "/task"},
      {pipeline, "/parallelism/pp"},
      {context, "/parallelism/cp"},
      {target_on_decoder, "/training/target_length"},
      {experts, "/model/encoder_layers"},
  };
  for (const auto& [request, path] : cases) {
    INFO(request.dump());
    const auto e = error_of(request);
    CHECK(e["code"] == "inconsistent");
    CHECK(e["path"] == path);
  }
}
