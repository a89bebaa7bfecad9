// SPDX-License-Identifier: MIT
// Market data from China (issue 11): usable memory as the driver reports it, power limits from
// public nvidia-smi output, the parts Shenzhen teams run, CNY rentals from Chinese platforms,
// end-of-life parts priced second-hand, "not offered" stated, and a provider's own extra GPU.
#include <catch2/catch.hpp>

#include "helpers.hpp"
#include "io/prices_json.hpp"
#include "types/errors.hpp"

namespace {

nlohmann::json advise_ok(const nlohmann::json& j, const std::string& data = "") {
  bool ok = false;
  const std::string out = data.empty() ? advisor::advise_text(j.dump(), &ok)
                                       : advisor::advise_with_data_text(j.dump(), data, &ok);
  auto r = nlohmann::json::parse(out);
  INFO(r.dump().substr(0, 1500));
  REQUIRE(ok);
  return r;
}

nlohmann::json pinned(const std::string& task, const std::string& preset, const std::string& gpu,
                      int count = 1) {
  return test::request(task, preset, {{"hardware", {{"gpu", gpu}, {"count", count}}}});
}

constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace

TEST_CASE("usable memory is what nvidia-smi reports, not the nominal size", "[market][catalog]") {
  const auto& c = advisor::builtin_catalog();
  // L40S and L20 with ECC on: 46,068 MiB = 44.99 GiB (not 48); H100 80GB: 81,559 MiB.
  CHECK(c.find_gpu("l40s-48gb")->memory_bytes() == Approx(46068 * kMiB));
  CHECK(c.find_gpu("l20-48gb")->memory_bytes() == Approx(46068 * kMiB));
  CHECK(c.find_gpu("h100-sxm-80gb")->memory_bytes() == Approx(81559 * kMiB));
  CHECK(c.find_gpu("rtx4090-24gb")->memory_bytes() == Approx(24564 * kMiB));
  for (const auto& g : c.gpus) {
    INFO(g.id);
    CHECK_FALSE(g.memory_usable_basis.empty());  // sourced, or says it is not
    if (g.memory_usable_mib) {
      // The driver never reports more than the nominal size (plus rounding), and ECC and
      // reservations take at most ~8%.
      CHECK(*g.memory_usable_mib <= g.memory_gib * 1024 * 1.05);
      CHECK(*g.memory_usable_mib >= g.memory_gib * 1024 * 0.90);
    } else {
      CHECK(g.memory_bytes() == Approx(g.memory_gib * test::kGiB));
    }
  }
  // The fit follows: an L40S's 45 GiB, not 48.
  const auto r = advise_ok(pinned("inference", "llama-3.1-8b", "l40s-48gb"));
  CHECK(r["memory"]["gpu_memory_bytes"].get<double>() == Approx(46068 * kMiB));
}

TEST_CASE("power limits follow public nvidia-smi output", "[market][catalog]") {
  const auto& c = advisor::builtin_catalog();
  CHECK(c.find_gpu("l20-48gb")->tdp_watts == 350);  // not the 275 W of spec sites
  CHECK(c.find_gpu("h20-96gb")->tdp_watts == 500);  // every public output shows 500 W
  CHECK(c.find_gpu("rtx3090-24gb")->tdp_watts == 350);
  CHECK(c.find_gpu("a10-24gb")->tdp_watts == 150);
  CHECK(c.find_gpu("t4-16gb")->tdp_watts == 70);
}

TEST_CASE("the parts Shenzhen teams run, with data-sheet figures", "[market][catalog]") {
  const auto& c = advisor::builtin_catalog();
  struct Part {
    const char* id;
    double memory_gib, bandwidth_tbps, bf16_dense, fp16_dense;
  };
  // Dense tensor rates with FP32 accumulate (data sheets print sparse figures at 2x; GeForce
  // cards print FP16-accumulate at 2x).
  for (const Part& p :
       {Part{"rtx3090-24gb", 24, 0.936, 71, 71}, Part{"rtx3090ti-24gb", 24, 1.008, 80, 80},
        Part{"rtxa6000-48gb", 48, 0.768, 154.8, 154.8},
        Part{"v100-sxm-32gb", 32, 0.9, 15.7, 125},  // no BF16 tensor cores
        Part{"a10-24gb", 24, 0.6, 125, 125}, Part{"a30-24gb", 24, 0.933, 165, 165},
        Part{"a40-48gb", 48, 0.696, 149.7, 149.7},
        Part{"t4-16gb", 16, 0.32, 8.1, 65},  // no BF16 on Turing
        Part{"rtx4080-16gb", 16, 0.7168, 97.5, 97.5},
        Part{"rtx4080super-16gb", 16, 0.736, 104.4, 104.4}, Part{"h20-141gb", 141, 4.8, 148, 148},
        Part{"rtxpro6000-96gb", 96, 1.792, 503.8, 503.8}}) {
    INFO(p.id);
    const advisor::GpuSpec* g = c.find_gpu(p.id);
    REQUIRE(g != nullptr);
    CHECK(g->memory_gib == p.memory_gib);
    CHECK(g->memory_bandwidth_tbps == Approx(p.bandwidth_tbps));
    CHECK(g->bf16_dense_tflops == Approx(p.bf16_dense));
    CHECK(g->fp16_dense_tflops == Approx(p.fp16_dense));
    CHECK(g->source.size() >= 2);
  }
  CHECK_FALSE(c.find_gpu("rtx3090-24gb")->pcie_peer_to_peer);  // GeForce
  CHECK(c.find_gpu("rtx3090-24gb")->scale_up_link.topology == "bridge");
  CHECK_FALSE(c.find_gpu("a100-sxm-80gb")->fp8_dense_tflops.has_value());
  // The H20 needs a US licence since April 2025: no longer "china-specific".
  CHECK(c.find_gpu("h20-96gb")->china_availability.status == "license-required");
  CHECK(c.find_gpu("h20-96gb")->china_availability.summary.find("April 2025") != std::string::npos);
}

TEST_CASE("every part has a rent and a buy price, or says it is not offered", "[market][data]") {
  const auto& c = advisor::builtin_catalog();
  for (const auto& g : c.gpus) {
    INFO(g.id);
    auto it = c.prices.gpus.find(g.id);
    REQUIRE(it != c.prices.gpus.end());
    const advisor::GpuPrices& p = it->second;
    CHECK((p.purchase_cny.has_value() || !p.purchase_not_offered.empty()));
    CHECK((p.rental_cny_per_gpu_hour.has_value() || !p.rental_not_offered.empty()));
    if (p.rental_cny_per_gpu_hour) {
      // Rentals are Chinese CNY listings, never converted US list prices.
      CHECK(p.rental_cny_per_gpu_hour->original_currency.empty());
      CHECK(p.rental_cny_per_gpu_hour->unit == "CNY per GPU-hour");
    }
  }
  // AutoDL's list (2026-09-24): RTX 4090 1.98, 3090 1.39, A800-80G 5.88, H800 10.50 CNY/h.
  CHECK(c.prices.gpus.at("rtx4090-24gb").rental_cny_per_gpu_hour->value == Approx(1.98));
  CHECK(c.prices.gpus.at("rtx3090-24gb").rental_cny_per_gpu_hour->value == Approx(1.39));
  CHECK(c.prices.gpus.at("a800-pcie-80gb").rental_cny_per_gpu_hour->value == Approx(5.88));
  CHECK(c.prices.gpus.at("h800-sxm-80gb").rental_cny_per_gpu_hour->value == Approx(10.5));
  // The H20 is not rented at the H800's price (a sixth of its compute): no dated listing was found.
  CHECK_FALSE(c.prices.gpus.at("h20-96gb").rental_cny_per_gpu_hour.has_value());
  CHECK_FALSE(c.prices.gpus.at("h20-96gb").rental_not_offered.empty());
  // Production stopped in 2025-08: no new H20 to buy, and no dated second-hand price.
  CHECK_FALSE(c.prices.gpus.at("h20-96gb").purchase_not_offered.empty());
  CHECK_FALSE(c.prices.gpus.at("h20-141gb").purchase_not_offered.empty());
  // End-of-life parts are bought second-hand.
  for (const char* id : {"a800-sxm-80gb", "a800-pcie-80gb", "h800-sxm-80gb", "h800-pcie-80gb",
                         "rtx3090-24gb", "v100-sxm-32gb"}) {
    INFO(id);
    CHECK(c.prices.gpus.at(id).purchase_cny->unit == "CNY per GPU (second-hand)");
  }
  CHECK_FALSE(c.prices.gpus.at("b200-180gb").purchase_not_offered.empty());
}

TEST_CASE("a part not offered says so in the cost", "[market][cost]") {
  const auto r = advise_ok(pinned("lora", "qwen2.5-7b", "h100-pcie-80gb"));
  bool said = false;
  for (const auto& m : r["cost"]["missing_prices"]) {
    if (m["option"] == "rent") {
      CHECK(m["reason"].get<std::string>().find("not offered for rent") != std::string::npos);
      CHECK(m["override_path"] == "/cost/prices/rental_cny_per_gpu_hour");
      said = true;
    }
  }
  CHECK(said);
}

TEST_CASE("prices.json: a not_offered entry must say why", "[market][data]") {
  auto doc = nlohmann::json::parse(test::data_file("prices.json"));
  doc["gpus"]["b200-180gb"]["rental"]["not_offered"] = "";
  try {
    test::throwing([&] { return advisor::parse_price_catalog(doc.dump()); });
    FAIL("accepted an empty reason");
  } catch (const advisor::InputError& e) {
    CHECK(e.path() == "prices.json/gpus/b200-180gb/rental/not_offered");
  }
}

TEST_CASE("one custom GPU added without replacing the catalog", "[market][catalog][api]") {
  // A provider's gpus.json with "additions": the built-in parts plus these.
  nlohmann::json custom = nlohmann::json::parse(test::data_file("gpus.json"))["gpus"][0];
  custom["id"] = "h100-sxm-80gb-500w";
  custom["name"] = "H100 SXM 80GB capped at 500 W";
  custom["tdp_watts"] = 500;
  const nlohmann::json gpus = {{"schema", 1}, {"as_of", "2026-12-02"}, {"additions", {custom}}};
  const std::string data = nlohmann::json{{"gpus", gpus}}.dump();
  const auto r = advise_ok(pinned("lora", "qwen2.5-7b", "h100-sxm-80gb-500w"), data);
  CHECK(r["memory"]["gpu_memory_bytes"].get<double>() == Approx(81559 * kMiB));
  // The built-in parts are all still there.
  const auto all = advise_ok(test::request("lora", "qwen2.5-7b"), data);
  CHECK(all["options"].size() == advisor::builtin_catalog().gpus.size() + 1);
  // An addition with a built-in id replaces that part.
  custom["id"] = "l20-48gb";
  custom["name"] = "my L20";
  const nlohmann::json replace = {
      {"gpus", {{"schema", 1}, {"as_of", "2026-12-02"}, {"additions", {custom}}}}};
  const auto one = advise_ok(test::request("lora", "qwen2.5-7b"), replace.dump());
  CHECK(one["options"].size() == advisor::builtin_catalog().gpus.size());
}
