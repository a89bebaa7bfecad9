// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "helpers.hpp"
#include "types/errors.hpp"

using advisor::InputError;

namespace {
advisor::Catalog parse_with_gpus(const std::string& gpus) {
  return advisor::parse_catalog(
      {gpus, test::data_file("models.json"), test::data_file("assumptions.json"), "", ""});
}
nlohmann::json gpus_doc() { return nlohmann::json::parse(test::data_file("gpus.json")); }
}  // namespace

TEST_CASE("every data file parses and validates", "[catalog]") {
  const auto c =
      advisor::parse_catalog({test::data_file("gpus.json"), test::data_file("models.json"),
                              test::data_file("assumptions.json"),
                              test::data_file("performance.json"), test::data_file("prices.json")});
  CHECK(c.gpus.size() >= 20);
  CHECK(c.models.size() >= 19);
  for (const auto& g : c.gpus) {
    INFO(g.id);
    CHECK(g.bf16_dense_tflops > 0);
    CHECK(!g.source.empty());
    CHECK(!g.as_of.empty());
  }
}

TEST_CASE("the catalog holds every GPU and model the product promises", "[catalog]") {
  const auto& c = advisor::builtin_catalog();
  for (const char* id :
       {"h100-sxm-80gb",   "h100-pcie-80gb", "h200-sxm-141gb", "h20-96gb",
        "h800-sxm-80gb",   "a100-sxm-80gb",  "a100-sxm-40gb",  "a100-pcie-80gb",
        "a800-sxm-80gb",   "l40s-48gb",      "l20-48gb",       "l4-24gb",
        "rtx4090-24gb",    "rtx4090d-24gb",  "rtx5090-32gb",   "rtx6000ada-48gb",
        "rtx4000ada-20gb", "b200-180gb",     "mi300x-192gb",   "ascend910b-64gb"}) {
    INFO(id);
    CHECK(c.find_gpu(id) != nullptr);
  }
  for (const char* id :
       {"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b",
        "llama-3.1-405b", "qwen2.5-0.5b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b",
        "qwen3-8b", "qwen3-32b", "qwen3-30b-a3b", "deepseek-v3", "mistral-7b", "gpt3-175b",
        "mpt-7b", "mpt-30b"}) {
    INFO(id);
    CHECK(c.find_model(id) != nullptr);
  }
}

TEST_CASE("vendor datasheet figures are the dense ones", "[catalog]") {
  const auto& c = advisor::builtin_catalog();
  // NVIDIA H100 SXM5 datasheet: 1,979 TFLOPS BF16 with sparsity -> 989.4 dense.
  CHECK(c.find_gpu("h100-sxm-80gb")->bf16_dense_tflops == Approx(989.4));
  CHECK_FALSE(c.find_gpu("a100-sxm-80gb")->fp8_dense_tflops.has_value());
  CHECK(c.find_gpu("h800-sxm-80gb")->scale_up_link.bidirectional_gbps.value() == Approx(400));
  CHECK_FALSE(c.find_gpu("rtx4090-24gb")->pcie_peer_to_peer);
}

TEST_CASE("a corrupt GPU catalog is rejected with the file and field named", "[catalog]") {
  SECTION("negative TDP") {
    auto doc = gpus_doc();
    doc["gpus"][3]["tdp_watts"] = -700;
    CHECK_THROWS_WITH(test::throwing([&] { return parse_with_gpus(doc.dump()); }),
                      Catch::Contains("gpus.json/gpus/3/tdp_watts") && Catch::Contains("-700"));
  }
  SECTION("missing memory") {
    auto doc = gpus_doc();
    doc["gpus"][0].erase("memory_gib");
    CHECK_THROWS_WITH(test::throwing([&] { return parse_with_gpus(doc.dump()); }),
                      Catch::Contains("gpus.json/gpus/0/memory_gib"));
  }
  SECTION("text where a number belongs") {
    auto doc = gpus_doc();
    doc["gpus"][1]["memory_bandwidth_tbps"] = "fast";
    CHECK_THROWS_WITH(test::throwing([&] { return parse_with_gpus(doc.dump()); }),
                      Catch::Contains("memory_bandwidth_tbps") && Catch::Contains("number"));
  }
  SECTION("duplicate id") {
    auto doc = gpus_doc();
    doc["gpus"][1]["id"] = doc["gpus"][0]["id"];
    CHECK_THROWS_WITH(test::throwing([&] { return parse_with_gpus(doc.dump()); }),
                      Catch::Contains("appears twice"));
  }
  SECTION("unknown key (a typo) is not ignored") {
    auto doc = gpus_doc();
    doc["gpus"][2]["tdp_wats"] = 300;
    CHECK_THROWS_WITH(test::throwing([&] { return parse_with_gpus(doc.dump()); }),
                      Catch::Contains("gpus.json/gpus/2/tdp_wats"));
  }
  SECTION("malformed JSON") {
    try {
      test::throwing([&] { return parse_with_gpus("{\"schema\": 1, \"gpus\": ["); });
      FAIL("expected an error");
    } catch (const InputError& e) {
      CHECK(e.code() == "malformed_json");
      CHECK(e.path() == "gpus.json");
    }
  }
  SECTION("absurd memory (bytes typed as GiB)") {
    auto doc = gpus_doc();
    doc["gpus"][0]["memory_gib"] = 85899345920.0;
    CHECK_THROWS_WITH(test::throwing([&] { return parse_with_gpus(doc.dump()); }),
                      Catch::Contains("memory_gib"));
  }
}
