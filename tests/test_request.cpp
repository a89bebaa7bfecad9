// SPDX-License-Identifier: MIT
#include <algorithm>
#include <catch2/catch.hpp>

#include "api.hpp"
#include "helpers.hpp"
#include "types/errors.hpp"

namespace {
/// Runs the whole API on text and returns the error envelope's fields.
nlohmann::json error_of_text(const std::string& text) {
  bool ok = true;
  const auto out = nlohmann::json::parse(advisor::advise_text(text, &ok));
  CHECK_FALSE(ok);
  REQUIRE(out.contains("error"));
  return out["error"];
}
nlohmann::json error_of(const nlohmann::json& j) { return error_of_text(j.dump()); }
}  // namespace

TEST_CASE("bad numbers are located errors, never clamped", "[request][errors]") {
  using nlohmann::json;
  struct Case {
    json patch;
    const char* path;
    const char* code;
  };
  const Case cases[] = {
      {{{"training", {{"sequence_length", -5}}}}, "/training/sequence_length", "out_of_range"},
      {{{"training", {{"sequence_length", 0}}}}, "/training/sequence_length", "out_of_range"},
      {{{"training", {{"sequence_length", 1e300}}}}, "/training/sequence_length", "out_of_range"},
      {{{"training", {{"sequence_length", 4096.5}}}}, "/training/sequence_length", "not_integer"},
      {{{"training", {{"sequence_length", "NaN"}}}}, "/training/sequence_length", "wrong_type"},
      {{{"training", {{"micro_batch_size", 1e12}}}}, "/training/micro_batch_size", "out_of_range"},
      {{{"training", {{"lora_rank", true}}}}, "/training/lora_rank", "wrong_type"},
      {{{"training", {{"precision", "bf17"}}}}, "/training/precision", "unknown_value"},
      {{{"training", {{"sequnce_length", 4096}}}}, "/training/sequnce_length", "unknown_field"},
      {{{"inference", {{"concurrency", -1}}}}, "/inference/concurrency", "out_of_range"},
      {{{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 0}}}}, "/hardware/count", "out_of_range"},
      {{{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 1e9}}}},
       "/hardware/count",
       "out_of_range"},
      {{{"parallelism", {{"zero", 4}}}}, "/parallelism/zero", "out_of_range"},
  };
  for (const auto& c : cases) {
    INFO(c.patch.dump());
    const auto e = error_of(test::request("full_finetune", "llama-2-7b", c.patch));
    CHECK(e["path"] == c.path);
    CHECK(e["code"] == c.code);
    CHECK(e["message"].get<std::string>().find(c.path) != std::string::npos);
  }
}

TEST_CASE("JSON itself can be bad", "[request][errors]") {
  CHECK(error_of_text("{\"schema\": 1, \"task\": ")["code"] == "malformed_json");
  CHECK(error_of_text("[1, 2]")["code"] == "wrong_type");
  CHECK(error_of_text("{\"schema\": 1, \"task\": \"lora\"}")["path"] == "/model");
  CHECK(error_of_text("{\"task\": \"lora\", \"model\": {\"preset\": \"llama-2-7b\"}}")["path"] ==
        "/schema");
  CHECK(
      error_of_text(
          "{\"schema\": 2, \"task\": \"lora\", \"model\": {\"preset\": \"llama-2-7b\"}}")["path"] ==
      "/schema");
  // NaN and Infinity are not JSON: the parser rejects them with a position.
  CHECK(error_of_text(R"({"schema": 1, "task": "lora", "model": {"preset": "llama-2-7b"},
                     "training": {"sequence_length": NaN}})")["code"] == "malformed_json");
}

TEST_CASE("unknown ids name what is known", "[request][errors]") {
  auto e = error_of(test::request("lora", "llama-9-7b"));
  CHECK(e["code"] == "unknown_preset");
  CHECK(e["path"] == "/model/preset");
  CHECK(e["message"].get<std::string>().find("llama-2-7b") != std::string::npos);
  e = error_of(test::request("lora", "llama-2-7b", {{"hardware", {{"gpu", "h100"}}}}));
  CHECK(e["code"] == "unknown_gpu");
  CHECK(e["path"] == "/hardware/gpu");
}

TEST_CASE("impossible layouts are located errors", "[request][errors]") {
  // Llama-2-7B has 32 heads and 32 layers.
  auto e = error_of(test::request("pretrain", "llama-2-7b", {{"parallelism", {{"tp", 3}}}}));
  CHECK(e["path"] == "/parallelism/tp");
  e = error_of(test::request("pretrain", "llama-2-7b", {{"parallelism", {{"tp", 64}}}}));
  CHECK(e["path"] == "/parallelism/tp");
  e = error_of(test::request("pretrain", "llama-2-7b", {{"parallelism", {{"pp", 33}}}}));
  CHECK(e["path"] == "/parallelism/pp");
  e = error_of(test::request(
      "pretrain", "llama-2-7b",
      {{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 6}}}, {"parallelism", {{"tp", 4}}}}));
  CHECK(e["path"] == "/hardware/count");
  e = error_of(test::request("pretrain", "llama-2-7b", {{"parallelism", {{"ep", 2}}}}));
  CHECK(e["path"] == "/parallelism/ep");
  e = error_of(test::request(
      "full_finetune", "llama-2-7b",
      {{"training", {{"cpu_offload", {{"parameters", true}}}}}, {"parallelism", {{"zero", 2}}}}));
  CHECK(e["path"] == "/training/cpu_offload/parameters");
}

TEST_CASE("custom architecture fields are validated", "[request][errors]") {
  nlohmann::json j = {{"schema", 1},
                      {"task", "inference"},
                      {"model",
                       {{"layers", 32},
                        {"hidden", 4096},
                        {"ffn_hidden", 11008},
                        {"heads", 32},
                        {"kv_heads", 5},
                        {"vocab", 32000}}}};
  auto e = error_of(j);
  CHECK(e["path"] == "/model/kv_heads");
  j["model"]["kv_heads"] = 8;
  j["model"]["layers"] = -1;
  CHECK(error_of(j)["path"] == "/model/layers");
  j["model"]["layers"] = 32;
  bool ok = false;
  const auto out = nlohmann::json::parse(advisor::advise_text(j.dump(), &ok));
  CHECK(ok);
  CHECK(out["model"]["input"] == "fields");
}

TEST_CASE("a pasted config.json may come as text or as an object", "[request]") {
  const std::string cfg =
      R"({"model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864,
          "num_attention_heads": 14, "num_key_value_heads": 2, "num_hidden_layers": 24,
          "vocab_size": 151936, "tie_word_embeddings": true, "max_position_embeddings": 32768})";
  for (const nlohmann::json& hf : {nlohmann::json(cfg), nlohmann::json::parse(cfg)}) {
    nlohmann::json j = {{"schema", 1}, {"task", "inference"}, {"model", {{"hf_config", hf}}}};
    bool ok = false;
    const auto out = nlohmann::json::parse(advisor::advise_text(j.dump(), &ok));
    REQUIRE(ok);
    CHECK(out["model"]["params"]["total"].get<double>() / 1e9 == Approx(0.494).epsilon(0.01));
  }
  nlohmann::json bad = {{"schema", 1}, {"task", "inference"}, {"model", {{"hf_config", "{oops"}}}};
  const auto e = error_of(bad);
  CHECK(e["code"] == "malformed_json");
  CHECK(e["path"] == "/model/hf_config");
}

TEST_CASE("the form schema is the parser's own record: defaults parse, ranges are enforced",
          "[request][form]") {
  const auto& catalog = advisor::builtin_catalog();
  const nlohmann::json form = test::to_nlohmann(advisor::form_schema(catalog));
  REQUIRE(form.size() > 60);
  // The default request, derived from the same defaults, is a valid request.
  const nlohmann::json defaults = test::to_nlohmann(advisor::default_request(catalog));
  bool ok = false;
  advisor::advise_text(defaults.dump(), &ok);
  CHECK(ok);
  for (const auto& f : form) {
    const std::string path = f["path"];
    INFO(path);
    CHECK(!f["tasks"].empty());
    if (f["kind"] == "choice") CHECK(!f["choices"].empty());
    // One past the top of the range is refused, located at the field itself.
    if (!f.contains("max") || path.rfind("/model/", 0) == 0 || path.rfind("/capacity/", 0) == 0)
      continue;
    nlohmann::json request = {
        {"schema", 1}, {"task", f["tasks"][0]}, {"model", {{"preset", "llama-3.1-8b"}}}};
    if (path.rfind("/hardware/", 0) == 0) request["hardware"] = {{"gpu", "h100-sxm-80gb"}};
    const double max = f["max"];
    request[nlohmann::json::json_pointer(path)] = f["kind"] == "integer" ? max + 1 : max * 2 + 1;
    const auto out = nlohmann::json::parse(advisor::advise_text(request.dump(), &ok));
    CHECK_FALSE(ok);
    CHECK(out["error"]["path"] == path);
  }
}

TEST_CASE("the form offers each task the stacks of its kind, every one of them accepted",
          "[request][form][stack]") {
  const auto& catalog = advisor::builtin_catalog();
  const nlohmann::json form = test::to_nlohmann(advisor::form_schema(catalog));
  const auto stack = std::find_if(form.begin(), form.end(),
                                  [](const nlohmann::json& f) { return f["path"] == "/stack"; });
  REQUIRE(stack != form.end());
  CHECK((*stack)["default"].is_null());  // the task's default stack: the advisor's
  const auto& by_task = (*stack)["choices_by_task"];
  CHECK(by_task["inference"] == nlohmann::json({"vllm", "sglang", "tensorrt_llm", "llama_cpp"}));
  for (const auto& [task, ids] : by_task.items()) {
    REQUIRE(!ids.empty());
    for (const auto& id : ids) {
      INFO(task << " " << id);
      bool ok = false;
      advisor::advise_text(test::request(task, "llama-3.1-8b", {{"stack", id}}).dump(), &ok);
      CHECK(ok);
    }
  }
}

TEST_CASE("context parallelism is checked where it is stated",
          "[request][errors][context_parallel]") {
  using nlohmann::json;
  const json pretrain_h100 = {{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 16}}}};
  auto with = [&](json patch, const char* task = "pretrain") {
    json j = test::request(task, "llama-3.1-8b", pretrain_h100);
    j.merge_patch(patch);
    return j;
  };
  struct Case {
    json request;
    const char* code;
    const char* needle;  // a phrase the message must hold
  };
  const Case cases[] = {
      // The sequence must split into 2 x cp load-balanced chunks.
      {with({{"training", {{"sequence_length", 8192 + 4}}}, {"parallelism", {{"cp", 4}}}}),
       "inconsistent", "2 x cp = 8"},
      // tp x pp x cp must divide the count.
      {with({{"parallelism", {{"cp", 8}, {"tp", 4}}}}), "inconsistent",
       "must divide /hardware/count"},
      // Training only.
      {with({{"parallelism", {{"cp", 2}}}}, "inference"), "inconsistent", "training only"},
      // Ring attention runs in FlashAttention-style kernels.
      {with({{"training", {{"flash_attention", false}}}, {"parallelism", {{"cp", 2}}}}),
       "inconsistent", "flash_attention"},
      {with({{"parallelism", {{"cp", 0}}}}), "out_of_range", "/parallelism/cp"},
  };
  for (const auto& c : cases) {
    INFO(c.request.dump());
    const auto e = error_of(c.request);
    CHECK(e["path"] == "/parallelism/cp");
    CHECK(e["code"] == c.code);
    CHECK(e["message"].get<std::string>().find(c.needle) != std::string::npos);
  }
  // Stated and valid: the layout shows it, dp = count / (tp x pp x cp).
  bool ok = false;
  const auto out = json::parse(advisor::advise_text(
      with({{"training", {{"sequence_length", 65536}}}, {"parallelism", {{"cp", 4}, {"tp", 2}}}})
          .dump(),
      &ok));
  REQUIRE(ok);
  CHECK(out["memory"]["layout"]["cp"] == 4);
  CHECK(out["memory"]["layout"]["dp"] == 2);
  // Without cp the layout has no cp field (the result reads as before cp existed).
  const auto plain = json::parse(advisor::advise_text(with(json::object()).dump(), &ok));
  REQUIRE(ok);
  CHECK_FALSE(plain["memory"]["layout"].contains("cp"));
}

TEST_CASE("a hybrid-sharding group is checked where it is stated",
          "[request][errors][shard_group]") {
  using nlohmann::json;
  const json h100_16 = {{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 16}}}};
  auto with = [&](json patch, const char* task = "pretrain") {
    json j = test::request(task, "llama-3.1-8b", h100_16);
    j.merge_patch(patch);
    return j;
  };
  struct Case {
    json request;
    const char* code;
    const char* needle;
  };
  const Case cases[] = {
      // It must divide dp x cp: 16 / (tp 2) = 8 data-parallel ranks.
      {with({{"parallelism", {{"tp", 2}, {"shard_group", 16}}}}), "inconsistent",
       "must divide the data-parallel size (8)"},
      {with({{"parallelism", {{"shard_group", 3}}}}), "inconsistent", "data-parallel size (16)"},
      // dp x cp: cp 2 leaves 16 ranks with context parallel, 6 does not divide them.
      {with({{"training", {{"sequence_length", 8192}}},
             {"parallelism", {{"cp", 2}, {"shard_group", 6}}}}),
       "inconsistent", "with context parallel"},
      {with({{"parallelism", {{"zero", 0}, {"shard_group", 4}}}}), "inconsistent", "zero >= 1"},
      {with({{"parallelism", {{"shard_group", 2}}}}, "inference"), "inconsistent", "serving"},
      {with({{"parallelism", {{"shard_group", 0}}}}), "out_of_range", "/parallelism/shard_group"},
  };
  for (const auto& c : cases) {
    INFO(c.request.dump());
    const auto e = error_of(c.request);
    CHECK(e["path"] == "/parallelism/shard_group");
    CHECK(e["code"] == c.code);
    CHECK(e["message"].get<std::string>().find(c.needle) != std::string::npos);
  }
  // null is the default (shard over all of dp x cp); a valid group shows in the layout.
  bool ok = false;
  const auto null_group = json::parse(
      advisor::advise_text(with({{"parallelism", {{"shard_group", nullptr}}}}).dump(), &ok));
  REQUIRE(ok);
  CHECK_FALSE(null_group["memory"]["layout"].contains("shard_group"));
  const auto out =
      json::parse(advisor::advise_text(with({{"parallelism", {{"shard_group", 8}}}}).dump(), &ok));
  REQUIRE(ok);
  CHECK(out["memory"]["layout"]["shard_group"] == 8);
}

TEST_CASE("a stated shard group is kept when the advisor picks the count",
          "[request][shard_group]") {
  // Pretraining without /hardware/count: every count searched keeps dp x cp a multiple of 8.
  auto j = test::request(
      "pretrain", "llama-3.1-8b",
      {{"hardware", {{"gpu", "h100-sxm-80gb"}}}, {"parallelism", {{"shard_group", 8}}}});
  bool ok = false;
  const auto out = nlohmann::json::parse(advisor::advise_text(j.dump(), &ok));
  REQUIRE(ok);
  const auto& L = out["memory"]["layout"];
  CHECK(L["shard_group"] == 8);
  CHECK((L["dp"].get<int>() * L.value("cp", 1)) % 8 == 0);
  // The recommendation's count search keeps it too (never chooses one itself).
  j.erase("hardware");
  const auto rec = nlohmann::json::parse(advisor::advise_text(j.dump(), &ok));
  REQUIRE(ok);
  const auto& best = rec["recommendation"]["best"]["layout"];
  CHECK(best["shard_group"] == 8);
  CHECK(best["dp"].get<int>() % 8 == 0);
  auto plain = j;
  plain.erase("parallelism");
  const auto none = nlohmann::json::parse(advisor::advise_text(plain.dump(), &ok));
  REQUIRE(ok);
  CHECK_FALSE(none["recommendation"]["best"]["layout"].contains("shard_group"));
}
