// SPDX-License-Identifier: MIT
// Security review of the new surfaces (bounded parsing, echo limits, a provider's own parts, the
// validation API on the provider's catalog, job CSVs): each defect found, kept as a regression
// test that failed before its fix.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <numeric>
#include <random>
#include <string>

#include "api.hpp"
#include "helpers.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "validation_api.hpp"

namespace {

using nlohmann::json;

json answer_of(const std::string& text) { return json::parse(text); }

/// The error of an answer (it must be one): "code path".
std::string error_code_path(const std::string& answer) {
  const json j = json::parse(answer);
  INFO(answer.substr(0, 300));
  REQUIRE(j.contains("error"));
  return j["error"]["code"].get<std::string>() + " " + j["error"]["path"].get<std::string>();
}

std::string message_of(const std::string& answer) {
  return json::parse(answer)["error"]["message"].get<std::string>();
}

/// `objects` objects of `keys` members each, the keys in the given order.
std::string many_keys(int objects, int keys, const std::string& order) {
  std::vector<int> k(static_cast<std::size_t>(keys));
  std::iota(k.begin(), k.end(), 0);
  if (order == "descending") std::reverse(k.begin(), k.end());
  if (order == "random") std::shuffle(k.begin(), k.end(), std::mt19937(7));
  std::string s = "{";
  for (int o = 0; o < objects; ++o) {
    s += (o ? ",\"o" : "\"o") + std::to_string(o) + "\":{";
    for (std::size_t i = 0; i < k.size(); ++i)
      s += (i ? ",\"k" : "\"k") + std::to_string(k[i]) + "\":1";
    s += "}";
  }
  return s + "}";
}

const char* const kProviderHead =
    R"({"schema": 1, "name": "Test IDC", "as_of": "2026-12-01", "currency": "CNY", )";

/// A provider document whose own part is data/gpus.json's `id` with `patch` merged in.
std::string provider_with_part(const std::string& id, const json& patch) {
  json part;
  const json catalog = json::parse(test::data_file("gpus.json"));
  for (const json& g : catalog["gpus"])
    if (g["id"] == id) part = g;
  part.merge_patch(patch);
  json doc = json::parse(std::string(kProviderHead) + R"("offers": []})");
  doc["gpus"] = json::array({part});
  doc["offers"] = json::array({{{"gpu", part["id"]}, {"price_cny_per_gpu_hour", 9.5}}});
  return doc.dump();
}

}  // namespace

TEST_CASE("100k keys in any order parse in bounded time, a find is a binary search",
          "[security][json]") {
  // Each object was a sorted vector grown by insertion: 10,000 keys in descending order moved
  // ~5*10^7 strings per object (a 1 MiB request took 82 s natively).
  for (const std::string order : {"ascending", "descending", "random"}) {
    const std::string text = many_keys(10, 10'000, order);
    const auto start = std::chrono::steady_clock::now();
    const advisor::JsonValue v = advisor::parse_json_text(text, "", 4 << 20);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(order << ": " << seconds << " s (bench/bench_native --json-keys reports it)");
    CHECK(seconds < 2.0);  // ~0.05 s here; the quadratic insert took minutes
    REQUIRE(v.size() == 10);
    CHECK(v.find("o3")->find("k9999")->number() == 1);
    CHECK(v.find("o3")->find("k10000") == nullptr);
  }
}

TEST_CASE("an object over the member limit or a key over the key limit is a located error",
          "[security][json]") {
  const std::string wide =
      many_keys(1, static_cast<int>(advisor::limits::kMaxObjectMembers) + 1, "descending");
  try {
    test::throwing([&] { return advisor::parse_json_text("{\"a\":" + wide + "}", "", 4 << 20); });
    FAIL("no error");
  } catch (const advisor::InputError& e) {
    CHECK(e.code() == "limit_exceeded");
    CHECK(e.path() == "/a/o0");
  }
  const std::string long_key(advisor::limits::kMaxKeyBytes + 1, 'k');
  try {
    test::throwing(
        [&] { return advisor::parse_json_text("{\"model\": {\"" + long_key + "\": 1}}", ""); });
    FAIL("no error");
  } catch (const advisor::InputError& e) {
    CHECK(e.code() == "limit_exceeded");
    CHECK(e.path() == "/model");
    CHECK(std::string(e.what()).size() < 300);
  }
  // The first repeated key in the text's order is the one named, as before.
  try {
    test::throwing(
        [&] { return advisor::parse_json_text(R"({"z": 1, "b": 2, "z": 3, "b": 4})", ""); });
    FAIL("no error");
  } catch (const advisor::InputError& e) {
    CHECK(e.code() + " " + e.path() == "duplicate /z");
  }
}

TEST_CASE("every echoed text obeys the echo limit", "[security][echo]") {
  const std::string huge(100'000, 'x');
  const auto bounded = [](const std::string& answer) {
    INFO(answer.substr(0, 200));
    // The echo is cut at limits::kMaxEchoedChars; the message may list the catalog's ids.
    CHECK(message_of(answer).find(std::string(advisor::limits::kMaxEchoedChars + 1, 'x')) ==
          std::string::npos);
    CHECK(message_of(answer).size() < 2'000);
    CHECK(json::parse(answer)["error"]["path"].get<std::string>().size() < 400);
  };
  bounded(advisor::advise_text(test::request("lora", huge).dump()));
  bounded(advisor::advise_text(
      test::request("lora", "qwen2.5-7b", {{"hardware", {{"gpu", huge}}}}).dump()));
  // A key at the key limit is echoed shortened; its path keeps it whole (it locates the field).
  const std::string key(advisor::limits::kMaxKeyBytes, 'q');
  const std::string answer =
      advisor::advise_text(test::request("lora", "qwen2.5-7b", {{"model", {{key, 1}}}}).dump());
  CHECK(error_code_path(answer) == "unknown_field /model/" + key);
  CHECK(message_of(answer).size() < 200);
}

TEST_CASE("a provider's own parts obey its text limits", "[security][provider]") {
  const std::string h100 = "h100-sxm-80gb";
  CHECK(error_code_path(advisor::provider_text(provider_with_part(
            h100, {{"name", std::string(3'900'000, 'N')}}))) == "limit_exceeded /gpus/0/name");
  CHECK(error_code_path(advisor::provider_text(provider_with_part(
            h100, {{"name", "H100\nrm -rf /"}}))) == "out_of_range /gpus/0/name");
  CHECK(error_code_path(advisor::provider_text(provider_with_part(
            h100, {{"notes", std::string(5'000, 'n')}}))) == "limit_exceeded /gpus/0/notes");
  CHECK(error_code_path(advisor::provider_text(
            provider_with_part(h100, {{"id", "My H100; rm"}}))) == "out_of_range /gpus/0/id");
  // Notes may run over lines; a one-line label may not.
  CHECK(answer_of(advisor::provider_text(
                      provider_with_part(h100, {{"id", "acme-h100"}, {"notes", "a\nb"}})))
            .contains("provider"));
}

TEST_CASE("a provider part that replaces a built-in part's specs is said so",
          "[security][provider]") {
  const std::string replacing =
      provider_with_part("h100-sxm-80gb", {{"name", "FAKE H100"}, {"memory_gib", 4096}});
  const json summary = answer_of(advisor::provider_text(replacing))["provider"];
  CHECK(summary["gpus_added"] == json::array({"h100-sxm-80gb"}));
  CHECK(summary["gpus_replaced"] == json::array({"h100-sxm-80gb"}));
  const json added =
      answer_of(advisor::provider_text(provider_with_part("h100-sxm-80gb", {{"id", "acme-h100"}})));
  CHECK(added["provider"]["gpus_replaced"] == json::array());
  const std::string request = test::request("lora", "qwen2.5-7b").dump();
  const json result = answer_of(advisor::advise_with_provider_text(request, replacing));
  CHECK(result["provider"]["gpus_replaced"] == json::array({"h100-sxm-80gb"}));
}

TEST_CASE("validation scripts and the read-back are for the plan on screen under a provider",
          "[security][provider]") {
  // Before: validationScripts rebuilt the plan from the built-in catalog, so a provider's answer
  // (its offers, its prices) and the scripts named different GPUs.
  const std::string provider = test::data_file("examples/provider-example.json");
  const json request = test::request("lora", "qwen2.5-7b");
  const json advice = answer_of(advisor::advise_with_provider_text(request.dump(), provider));
  REQUIRE(advice.contains("recommendation"));
  const json& best = advice["recommendation"]["best"];
  const advisor::DataSource source{{}, provider};
  const json scripts = answer_of(advisor::validation_scripts_text(request.dump(), source));
  REQUIRE(scripts.contains("files"));
  json pinned = request;
  pinned["hardware"] = {{"gpu", best["gpu"]},
                        {"count", best["gpus"]},
                        {"deployment", best["deployment"]},
                        {"facility", best["facility"]}};
  CHECK(answer_of(advisor::validation_scripts_text(pinned.dump(), source)) == scripts);
  const std::string summary_script = [&] {
    for (const json& f : scripts["files"])
      if (f["name"] == "90_summary.sh") return f["text"].get<std::string>();
    return std::string();
  }();
  CHECK(summary_script.find("GPU_ID=" + best["gpu"].get<std::string>() + "\n") !=
        std::string::npos);
  // The read-back compares with the same plan: the plan's own id is accepted.
  const std::string result = json({{"schema", 1},
                                   {"kind", "gpu-advisor-validation-result"},
                                   {"plan_id", scripts["plan_id"]},
                                   {"gpu_id", best["gpu"]},
                                   {"measured", json::object()}})
                                 .dump();
  bool ok = false;
  advisor::validation_check_text(request.dump(), result, "validation-result.json", source, &ok);
  CHECK(ok);
}

TEST_CASE("job CSVs: a byte order mark, CR-only lines, impossible dates", "[security][capacity]") {
  const auto with_csv = [](const std::string& csv) {
    return test::request("inference", "llama-3.1-8b",
                         {{"hardware", {{"gpu", "l40s-48gb"}, {"count", 1}}},
                          {"capacity", {{"jobs_csv", csv}}}})
        .dump();
  };
  bool ok = false;
  advisor::advise_text(
      with_csv("\xEF\xBB\xBFjob,gpu_type,gpus,hours,date\na,L40S,1,10,2026-01-05\n"), &ok);
  CHECK(ok);  // Excel's BOM no longer hides the "job" column
  const json cr = answer_of(advisor::advise_text(
      with_csv("job,gpu_type,gpus,hours,month\ra,L40S,1,10,2026-01\rb,L40S,2,5,2026-02\r"), &ok));
  REQUIRE(ok);
  CHECK(cr.dump().find("2026-02") != std::string::npos);  // both rows read, not "no rows"
  CHECK(error_code_path(advisor::advise_text(
            with_csv("job,gpu_type,gpus,hours,date\na,L40S,1,10,2026-02-30\n"))) ==
        "bad_date /capacity/jobs_csv/row 2/date");
  CHECK(error_code_path(advisor::advise_text(
            with_csv("job,gpu_type,gpus,hours,date\na,L40S,1,10,2025-02-29\n"))) ==
        "bad_date /capacity/jobs_csv/row 2/date");
  advisor::advise_text(with_csv("job,gpu_type,gpus,hours,date\na,L40S,1,10,2024-02-29\n"), &ok);
  CHECK(ok);
}
