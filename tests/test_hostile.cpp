// SPDX-License-Identifier: MIT
// Issue 12: hostile input never breaks it. Each probe of the issue, kept as a regression test:
// a located error (code, JSON pointer, the limit named) or a sane result; never a crash, an
// internal_error, a wrapped integer or a non-finite figure.
#include <catch2/catch.hpp>
#include <string>

#include "api.hpp"
#include "helpers.hpp"
#include "types/checked.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

namespace {

using nlohmann::json;

// A request without its closing brace: members are appended.
const char* const kBase =
    R"({"schema": 1, "task": "pretrain", "model": {"preset": "llama-3.1-8b"})";

/// The error of an answer (it must be one), as {code, message, path}.
json error_in(const std::string& answer) {
  const json out = json::parse(answer);
  INFO(answer.substr(0, 400));
  REQUIRE(out.contains("error"));
  CHECK(out["error"]["code"] != "internal_error");
  return out["error"];
}

json error_of_text(const std::string& text) {
  bool ok = true;
  const std::string answer = advisor::advise_text(text, &ok);
  CHECK_FALSE(ok);
  return error_in(answer);
}

json error_of(const json& request) { return error_of_text(request.dump()); }

json patched(json j, const json& patch) {
  j.merge_patch(patch);
  return j;
}

json with(const std::string& member_json) {
  return json::parse(std::string(kBase) + ", " + member_json + "}");
}

std::string nested(const std::string& open, const std::string& close, int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += open;
  for (int i = 0; i < depth; ++i) s += close;
  return s;
}

}  // namespace

TEST_CASE("issue 12 #1: deep nesting is refused before parsing, located", "[hostile]") {
  // ~131,000 levels crashed the native parse; ~9,000 threw a RangeError out of the wasm module.
  for (int depth : {65, 9'000, 131'000}) {
    const std::string text =
        R"({"schema": 1, "task": "pretrain", "model": {"preset": "llama-3.1-8b"}, "power": )" +
        nested("[", "]", depth) + "}";
    const json e = error_of_text(text);
    CHECK(e["code"] == "limit_exceeded");
    CHECK(e["path"].get<std::string>().rfind("/power/0/0/0", 0) == 0);
    CHECK(e["message"].get<std::string>().find("64 levels") != std::string::npos);
  }
  // Spaces between a key and its colon, and escapes in the key, still name the key.
  CHECK(error_of_text("{\"po\\u0077er\" \n : " + nested("[", "]", 70) + "}")["path"]
            .get<std::string>()
            .rfind("/power/0/0", 0) == 0);
  // The element's index and each level's own key, after other members and elements.
  CHECK(error_of_text(R"({"x": "]", "power": {"a": 1, "b": [0, "[", )" + nested("[", "]", 70) +
                      "]}}")["path"]
            .get<std::string>()
            .rfind("/power/b/2/0/0", 0) == 0);
  // Objects, inside strings (brackets in strings do not count) and in the pasted config.json.
  CHECK(error_of_text(R"({"a": )" + nested(R"({"b": )", "}", 70) + "}")["code"] ==
        "limit_exceeded");
  const json ok_deep = json::parse(advisor::advise_text(
      with(
          R"("cost": {"site": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["})")
          .dump()));
  CHECK(ok_deep["error"]["path"] == "/cost/site");  // an unknown site, not a nesting error
  const json hf =
      error_of(patched(json::parse(R"({"schema": 1, "task": "lora", "model": {"hf_config": ""}})"),
                       {{"model", {{"hf_config", nested("[", "]", 100)}}}}));
  CHECK(hf["code"] == "limit_exceeded");
  CHECK(hf["path"].get<std::string>().rfind("/model/hf_config/0/0", 0) == 0);
  // A request of the limit's depth is read (and then refused for what it says, not its shape).
  CHECK(error_of_text(with(R"("zz": )" + nested("[", "]", 63)).dump())["code"] == "unknown_field");
  // After many hostile calls the default request still works (the wasm module used to break).
  for (int i = 0; i < 50; ++i) error_of_text(nested("[", "]", 20'000));
  bool ok = false;
  advisor::advise_text(kBase + std::string("}"), &ok);
  CHECK(ok);
}

TEST_CASE("issue 12 #2: 1e400 in a provider catalog is a located catalog error", "[hostile]") {
  const std::string request = kBase + std::string("}");
  std::string prices = test::data_file("prices.json");
  const std::string key = "\"value\": ";
  const std::size_t at = prices.find(key);
  REQUIRE(at != std::string::npos);
  prices.replace(at + key.size(), prices.find_first_of(",}", at) - at - key.size(), "1e400");
  bool ok = true;
  const json e =
      error_in(advisor::advise_with_data_text(request, R"({"prices": )" + prices + "}", &ok));
  CHECK_FALSE(ok);
  CHECK(e["code"] == "catalog_invalid");
  CHECK(e["path"].get<std::string>().rfind("data/prices/", 0) == 0);
  // The same file as text (the CLI's --prices, the wasm module's adviseWithCatalog).
  advisor::CatalogTexts texts;
  texts.prices = prices;
  const json e2 = error_in(advisor::advise_with_catalog_text(request, texts, &ok));
  CHECK(e2["code"] == "catalog_invalid");
  CHECK(e2["path"].get<std::string>().rfind("prices.json/", 0) == 0);
  texts = {};
  texts.gpus = R"({"schema": 1, "as_of": "x", "gpus": [{"id": "x", "tdp_watts": -1e999}]})";
  CHECK(error_in(advisor::advise_with_catalog_text(request, texts))["path"] ==
        "gpus.json/gpus/0/tdp_watts");
}

TEST_CASE("issue 12 #3: 1e400 anywhere in a request is out_of_range at its field", "[hostile]") {
  const json e = error_of_text(std::string(kBase) + R"(, "training": {"tokens": 1e400}})");
  CHECK(e["code"] == "out_of_range");
  CHECK(e["path"] == "/training/tokens");
  CHECK(error_of_text(std::string(kBase) + R"(, "zz": [1, -1e400]})")["path"] == "/zz/1");
  CHECK(error_of_text("1e400")["path"] == "/");
}

TEST_CASE("issue 12 #4: values inside the ranges never overflow", "[hostile]") {
  // 40 jobs of 100,000 GPUs x 1,000,000 h: cards_needed was -2147483648.
  json jobs = json::array();
  for (int i = 0; i < 40; ++i)
    jobs.push_back({{"job", "j"}, {"gpu_type", "h100"}, {"gpus", 100000}, {"hours", 1000000}});
  json e = error_of(patched(with(R"("capacity": {})"), {{"capacity", {{"jobs", jobs}}}}));
  CHECK(e["code"] == "out_of_range");
  CHECK(e["path"] == "/capacity/jobs");
  // office_rack_kw 1e-308: racks_per_server was -2147483648 (now below the 0.1 kW floor).
  e = error_of(with(R"("hardware": {"gpu": "h100-sxm-80gb", "count": 8},
                       "power": {"facility": "office", "office_rack_kw": 1e-308})"));
  CHECK(e["path"] == "/power/office_rack_kw");
  // sequence 10^7 x micro-batch 10^6: per_gpu_bytes was -9223372036854775808.
  e = error_of(with(R"("training": {"sequence_length": 10000000, "micro_batch_size": 1000000})"));
  CHECK(e["code"] == "out_of_range");
  CHECK(e["path"] == "/training/micro_batch_size");
  CHECK(e["message"].get<std::string>().find("2^53") != std::string::npos);
  // The KV cache of a million sequences of 2 x 10^7 tokens.
  e = error_of(
      json::parse(R"({"schema": 1, "task": "inference", "model": {"preset": "llama-3.1-8b"},
      "inference": {"concurrency": 1000000, "prompt_tokens": 10000000, "output_tokens": 10000000}})"));
  CHECK(e["path"] == "/inference/concurrency");
  // 10^9 users at 120k-token contexts: a fleet of 10^9 GPUs wrapped into negative servers.
  bool ok = false;
  const json fleet = json::parse(advisor::advise_text(
      R"({"schema": 1, "task": "inference", "model": {"preset": "llama-3.1-70b"},
          "inference": {"target_users": 1000000000, "prompt_tokens": 100000, "output_tokens": 20000},
          "hardware": {"gpu": "h100-sxm-80gb", "count": 2}})",
      &ok));
  CHECK(ok);
  CHECK(fleet["options"][0]["reason"].get<std::string>().find("100000") != std::string::npos);
  // A model whose fields are each in range but whose size is absurd.
  e = error_of(json::parse(R"({"schema": 1, "task": "pretrain", "model": {"layers": 2000,
      "hidden": 1000000, "ffn_hidden": 1000000, "heads": 10000, "vocab": 10000000}})"));
  CHECK(e["code"] == "out_of_range");
  CHECK(e["path"] == "/model");
  // The checked conversion itself.
  CHECK(advisor::checked_int(3.0, "/x", "n") == 3);
  CHECK_THROWS_AS(test::throwing([&] { return advisor::checked_int(1e10, "/x", "n"); }),
                  advisor::InputError);
  CHECK_THROWS_AS(test::throwing([&] { return advisor::checked_int(-1, "/x", "n"); }),
                  advisor::InputError);
  CHECK_THROWS_AS(test::throwing([&] { return advisor::checked_int64(std::nan(""), "/x", "n"); }),
                  advisor::InputError);
  CHECK_THROWS_AS(test::throwing([&] { return advisor::checked_finite(1e308 * 10, "/x", "n"); }),
                  advisor::InputError);
  try {
    test::throwing([&] { return advisor::checked_int(1e300, "/capacity/jobs", "cards"); });
  } catch (const advisor::InputError& err) {
    CHECK(err.path() == "/capacity/jobs");
    CHECK(std::string(err.what()).find("2147483647") != std::string::npos);
  }
}

TEST_CASE("issue 12 #5: no non-finite value escapes, the input is named", "[hostile]") {
  json e = error_of(with(R"("hardware": {"gpu": "h100-sxm-80gb", "count": 8},
                            "cost": {"utilization": 1e-308})"));
  CHECK(e["path"] == "/cost/utilization");
  e = error_of(with(R"("hardware": {"gpu": "h100-sxm-80gb", "count": 16},
                       "cluster": {"inter_node_gbps_per_gpu": 1e-308})"));
  CHECK(e["path"] == "/cluster/inter_node_gbps_per_gpu");
  e = error_of(with(R"("cluster": {"inter_node_gbit_per_s_per_gpu": 1e-308})"));
  CHECK(e["path"] == "/cluster/inter_node_gbit_per_s_per_gpu");
  e = error_of(with(R"("hardware": {"gpu": "h100-sxm-80gb", "count": 8},
                       "cost": {"tokens_per_second": 1e-308})"));
  CHECK(e["path"] == "/cost/tokens_per_second");
  e = error_of(with(R"("hardware": {"gpu": "h100-sxm-80gb", "count": 8},
                       "power": {"rack_kw": 1e-308})"));
  CHECK(e["path"] == "/power/rack_kw");
  e = error_of(with(R"("capacity": {"jobs_csv": "job,gpu_type,gpus,hours\nx,h100,1,1",
                                    "target_utilization": 1e-308})"));
  CHECK(e["path"] == "/capacity/target_utilization");
  // Utilisation 0 is allowed (no cost per GPU-hour); the smallest positive value is 1e-4.
  bool ok = false;
  advisor::advise_text(with(R"("hardware": {"gpu": "h100-sxm-80gb", "count": 8},
                               "cost": {"utilization": 0})")
                           .dump(),
                       &ok);
  CHECK(ok);
  advisor::advise_text(with(R"("hardware": {"gpu": "h100-sxm-80gb", "count": 8},
                               "cost": {"utilization": 0.0001})")
                           .dump(),
                       &ok);
  CHECK(ok);
}

TEST_CASE("issue 12 #6: output size is bounded by limits that are named", "[hostile]") {
  // 50 job types over 0001-01 .. 9999-12: 216 MB of output before.
  json jobs = json::array();
  for (int i = 0; i < 50; ++i)
    for (const char* m : {"0001-01", "9999-12"})
      jobs.push_back({{"job", "j"},
                      {"gpu_type", "t" + std::to_string(i)},
                      {"gpus", 1},
                      {"hours", 1},
                      {"month", m}});
  json e = error_of(patched(with(R"("capacity": {})"), {{"capacity", {{"jobs", jobs}}}}));
  CHECK(e["code"] == "limit_exceeded");
  CHECK(e["path"] == "/capacity/jobs/1/month");
  CHECK(e["message"].get<std::string>().find("120") != std::string::npos);
  // 120 months exactly is fine; 121 is not (CSV, dates).
  const std::string header = "job,gpu_type,gpus,hours,date\n";
  bool ok = false;
  advisor::advise_text(
      patched(with(R"("capacity": {})"), {{"capacity",
                                           {{"jobs_csv", header + "a,h100,1,1,2020-01-05\n"
                                                                  "b,h100,1,1,2029-12-31\n"}}}})
          .dump(),
      &ok);
  CHECK(ok);
  e = error_of(
      patched(with(R"("capacity": {})"), {{"capacity",
                                           {{"jobs_csv", header + "a,h100,1,1,2020-01-05\n"
                                                                  "b,h100,1,1,2030-01-01\n"}}}}));
  CHECK(e["path"] == "/capacity/jobs_csv/row 3/date");
  // More GPU types than the limit.
  std::string csv = "job,gpu_type,gpus,hours\n";
  for (std::size_t i = 0; i <= advisor::limits::kMaxJobGpuTypes; ++i)
    csv += "j,type" + std::to_string(i) + ",1,1\n";
  e = error_of(patched(with(R"("capacity": {})"), {{"capacity", {{"jobs_csv", csv}}}}));
  CHECK(e["code"] == "limit_exceeded");
  CHECK(e["path"] == "/capacity/jobs_csv/row 66/gpu_type");
  // More rows than the limit.
  csv = "job,gpu_type,gpus,hours\n";
  for (std::size_t i = 0; i <= advisor::limits::kMaxJobRows; ++i) csv += "j,h100,1,1\n";
  e = error_of(patched(with(R"("capacity": {})"), {{"capacity", {{"jobs_csv", csv}}}}));
  CHECK(e["code"] == "limit_exceeded");
  CHECK(e["path"] == "/capacity/jobs_csv/row 10002");
  // Any array over 10,000 elements, and a request over 1 MiB.
  std::string many = "[";
  for (int i = 0; i < 10'001; ++i) many += i ? ",0" : "0";
  e = error_of_text(std::string(kBase) + R"(, "zz": )" + many + "]}");
  CHECK(e["code"] == "limit_exceeded");
  CHECK(e["path"] == "/zz");
  e = error_of_text(std::string(kBase) + R"(, "zz": ")" + std::string(2 << 20, 'x') + "\"}");
  CHECK(e["code"] == "limit_exceeded");
  CHECK(e["message"].get<std::string>().find("1 MiB") != std::string::npos);
}

TEST_CASE("issue 12 #9: pasted config.json errors name the user's keys", "[hostile]") {
  const json base = json::parse(R"({"model_type": "llama", "num_hidden_layers": 2,
      "hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 8, "vocab_size": 100})");
  for (bool as_text : {false, true}) {
    json config = base;
    config["num_key_value_heads"] = 5;
    json request = {{"schema", 1},
                    {"task", "lora"},
                    {"model", {{"hf_config", as_text ? json(config.dump()) : config}}}};
    json e = error_of(request);
    CHECK(e["code"] == "inconsistent");
    CHECK(e["path"] == "/model/hf_config/num_key_value_heads");
    config = base;
    config["hidden_size"] = 1;
    config["num_attention_heads"] = 2;  // head_dim would be 0
    request["model"]["hf_config"] = as_text ? json(config.dump()) : config;
    e = error_of(request);
    CHECK(e["path"] == "/model/hf_config/num_attention_heads");
  }
  json moe = base;
  moe["model_type"] = "mixtral";
  moe["num_local_experts"] = 2;
  moe["num_experts_per_tok"] = 3;
  CHECK(error_of({{"schema", 1}, {"task", "lora"}, {"model", {{"hf_config", moe}}}})["path"] ==
        "/model/hf_config/num_experts_per_tok");
  moe["model_type"] = "qwen2_moe";
  moe["num_experts"] = 4;
  moe["num_experts_per_tok"] = 2;
  moe["moe_intermediate_size"] = 32;
  moe["mlp_only_layers"] = {0, 1, 2};
  CHECK(error_of({{"schema", 1}, {"task", "lora"}, {"model", {{"hf_config", moe}}}})["path"] ==
        "/model/hf_config/mlp_only_layers");
}

TEST_CASE("issue 12 #10: unknown-key paths are JSON pointers (~0, ~1)", "[hostile]") {
  json e = error_of_text(std::string(kBase) + R"(, "a~b/c": 1})");
  CHECK(e["code"] == "unknown_field");
  CHECK(e["path"] == "/a~0b~1c");
  e = error_of(with(R"("cost": {"prices": {"gpus": {"x/y~z": {}}}})"));
  CHECK(e["path"] == "/cost/prices/gpus/x~1y~0z");
  CHECK(advisor::pointer_token("~/~") == "~0~1~0");
}

TEST_CASE("issue 12 #11: strict parsing (duplicate keys, NUL bytes, \\u0000 in messages)",
          "[hostile]") {
  json e = error_of_text(R"({"schema": 1, "task": "pretrain", "task": "lora",
                             "model": {"preset": "llama-3.1-8b"}})");
  CHECK(e["code"] == "duplicate");
  CHECK(e["path"] == "/task");
  e = error_of_text(std::string(kBase) +
                    R"(, "training": {"sequence_length": 10, "sequence_length": 20}})");
  CHECK(e["path"] == "/training/sequence_length");
  // Bytes after a NUL were ignored.
  e = error_of_text(std::string(kBase) + "}" + std::string(1, '\0') + "garbage");
  CHECK(e["code"] == "malformed_json");
  CHECK(e["message"].get<std::string>().find("NUL") != std::string::npos);
  // A message echoing "pre\u0000train" keeps everything after the NUL, escaped.
  e = error_of_text(R"({"schema": 1, "task": "pre\u0000train", "model": {"preset": "x"}})");
  CHECK(e["code"] == "unknown_value");
  CHECK(e["message"].get<std::string>().find("pre\\u0000train") != std::string::npos);
  // Echoes are bounded and stay valid UTF-8.
  const std::string echoed = advisor::in_quotes(std::string(1000, 'x') + "\xff");
  CHECK(echoed.size() < 100);
  CHECK(advisor::in_quotes("a\xff") == "\"a\\xff\"");
  CHECK(advisor::in_quotes("\xe4\xb8\xad") == "\"\xe4\xb8\xad\"");
}
