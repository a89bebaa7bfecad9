// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>
#include <cmath>

#include "api.hpp"
#include "helpers.hpp"

namespace {
nlohmann::json advise(const nlohmann::json& j) {
  bool ok = false;
  auto out = nlohmann::json::parse(advisor::advise_text(j.dump(), &ok));
  INFO(out.dump());
  REQUIRE(ok);
  return out;
}
const nlohmann::json& option(const nlohmann::json& result, const std::string& gpu) {
  for (const auto& o : result["options"])
    if (o["gpu"] == gpu) return o;
  FAIL("no option for " << gpu);
  return result;
}
void check_no_nonfinite(const nlohmann::json& j) {
  if (j.is_number_float()) CHECK(std::isfinite(j.get<double>()));
  if (j.is_structured())
    for (const auto& v : j) check_no_nonfinite(v);
}
}  // namespace

TEST_CASE("the result carries the API v1 fields", "[advise]") {
  const auto r = advise(test::request("full_finetune", "llama-3.1-8b"));
  CHECK(r["schema"] == 1);
  const auto& m = r["memory"];
  CHECK(m["per_gpu_bytes"].is_number_integer());
  std::int64_t sum = 0;
  for (const char* k :
       {"weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"}) {
    INFO(k);
    REQUIRE(m["breakdown_bytes"].contains(k));
    sum += m["breakdown_bytes"][k].get<std::int64_t>();
  }
  // The total is the sum of its terms (each rounded to a byte).
  CHECK(std::abs(sum - m["per_gpu_bytes"].get<std::int64_t>()) <= 6);
  CHECK(m["assumptions"].size() >= 5);
  CHECK(r["options"].size() == advisor::builtin_catalog().gpus.size());
  CHECK(r["warnings"].is_array());
  check_no_nonfinite(r);
}

TEST_CASE("minimum GPU counts follow the sharding", "[advise]") {
  // Llama-3.1-70B full fine-tune, 16 bytes/param = 1.13 TB of state: ZeRO-3 over 16 x 80 GB
  // leaves ~70 GB per GPU for state; with the activations that has no room (planning_room_
  // fraction), so two-way tensor parallel inside the server splits them, or a third server.
  const auto r = advise(test::request("full_finetune", "llama-3.1-70b",
                                      {{"training", {{"activation_checkpointing", "full"}}}}));
  const auto& h100 = option(r, "h100-sxm-80gb");
  CHECK_FALSE(h100["fits_on_one"].get<bool>());
  CHECK(h100["min_layout"]["tp"].get<int>() <= 2);  // at most a little tensor parallel
  CHECK(h100["per_gpu_bytes_at_min"].get<double>() <=
        advisor::builtin_catalog().memory.planning_room_fraction *
            h100["memory_bytes"].get<double>());
  CHECK(h100["verdict"] == "needs_multiple");
  CHECK(h100["min_count"].get<int>() >= 16);
  CHECK(h100["min_count"].get<int>() <= 24);
  CHECK(h100["per_gpu_bytes_at_min"].get<double>() <= h100["memory_bytes"].get<double>());
  // A bigger card never needs more of itself than a smaller card of the same kind.
  CHECK(option(r, "h200-sxm-141gb")["min_count"].get<int>() <= h100["min_count"].get<int>());

  // ZeRO-0 with TP and PP pinned to 1 replicates everything: no count helps.
  const auto z0 = advise(test::request("full_finetune", "llama-3.1-70b",
                                       {{"parallelism", {{"zero", 0}, {"tp", 1}, {"pp", 1}}}}));
  CHECK(option(z0, "h100-sxm-80gb")["verdict"] == "does_not_fit");
  CHECK(option(z0, "h100-sxm-80gb")["reason"].get<std::string>().find("ZeRO") != std::string::npos);
}

TEST_CASE("training adds tensor parallel when activations outgrow data parallel", "[advise]") {
  // Llama-3.1-8B, 4096 x 2 tokens, no checkpointing: ~44 GiB of activations per GPU that ZeRO
  // cannot shard; tensor + sequence parallel within the server can.
  const auto r =
      advise(test::request("full_finetune", "llama-3.1-8b",
                           {{"training", {{"sequence_length", 4096}, {"micro_batch_size", 2}}}}));
  const auto& l40s = option(r, "l40s-48gb");
  REQUIRE(l40s["min_count"].is_number());
  CHECK(l40s["min_count"].get<int>() <= 8);
  CHECK(l40s["min_layout"]["tp"].get<int>() > 1);
}

TEST_CASE("inference picks tensor parallel within a server", "[advise]") {
  const auto r = advise(test::request("inference", "llama-3.1-70b"));
  const auto& l40s = option(r, "l40s-48gb");
  CHECK(l40s["min_count"] == 4);  // 141 GB of bf16 weights over 4 x 48 GB
  CHECK(l40s["min_layout"]["tp"] == 4);
  // 131 GiB of weights fit on 141 GiB, but vLLM's 0.9 x 141 GiB leaves no room for one
  // sequence's KV cache: a serving plan that holds no sequence does not fit.
  CHECK(option(r, "h200-sxm-141gb")["min_count"] == 2);
}

TEST_CASE("pinned hardware reports fit and warnings", "[advise]") {
  auto r = advise(test::request("full_finetune", "llama-3.1-8b",
                                {{"hardware", {{"gpu", "l40s-48gb"}, {"count", 2}}}}));
  CHECK(r["memory"]["layout"]["gpu"] == "l40s-48gb");
  CHECK(r["memory"]["layout"]["count"] == 2);
  // 2 x 48 GB cannot hold 16 bytes/param of 8B under ZeRO-3 data parallel alone plus
  // activations; the advisor picks the layout that fits: tensor parallel 2.
  CHECK(r["memory"]["layout"]["tp"].get<int>() * r["memory"]["layout"]["dp"].get<int>() == 2);
  CHECK(r["memory"]["fits"].is_boolean());
  r = advise(test::request("qlora", "llama-2-70b",
                           {{"hardware", {{"gpu", "rtx4090-24gb"}, {"count", 1}}}}));
  CHECK(r["memory"]["fits"] == false);
  bool warned = false;
  for (const auto& w : r["warnings"]) warned = warned || w["code"] == "does_not_fit";
  CHECK(warned);
}

TEST_CASE("a provider catalog replaces the built-in one, and is validated", "[advise][catalog]") {
  auto gpus = nlohmann::json::parse(test::data_file("gpus.json"));
  gpus["gpus"] = nlohmann::json::array({gpus["gpus"][0]});
  bool ok = false;
  auto out = nlohmann::json::parse(advisor::advise_with_catalog_text(
      test::request("lora", "llama-2-7b").dump(), {gpus.dump()}, &ok));
  CHECK(ok);
  CHECK(out["options"].size() == 1);
  gpus["gpus"][0]["name"] = 42;
  out = nlohmann::json::parse(advisor::advise_with_catalog_text(
      test::request("lora", "llama-2-7b").dump(), {gpus.dump()}, &ok));
  CHECK_FALSE(ok);
  CHECK(out["error"]["code"] == "catalog_invalid");
  CHECK(out["error"]["path"] == "gpus.json/gpus/0/name");
}

TEST_CASE("a provider's own prices replace the built-in ones and move the cost",
          "[advise][catalog][cost]") {
  nlohmann::json request = test::request("lora", "llama-3.1-8b");
  request["hardware"] = {{"gpu", "h100-sxm-80gb"}, {"count", 8}};
  bool ok = false;
  const auto builtin = nlohmann::json::parse(advisor::advise_text(request.dump(), &ok));
  REQUIRE(ok);
  auto prices = nlohmann::json::parse(test::data_file("prices.json"));
  auto& rental = prices["gpus"]["h100-sxm-80gb"]["rental"];
  REQUIRE(rental.is_object());
  const double builtin_rate = builtin["cost"]["options"]["rent"]["cny_per_gpu_hour"].get<double>();
  rental["value"] = 3.0;
  rental["currency"] = "CNY";
  rental["unit"] = "CNY per GPU-hour";
  const auto provider = nlohmann::json::parse(advisor::advise_with_data_text(
      request.dump(), nlohmann::json({{"prices", prices}}).dump(), &ok));
  REQUIRE(ok);
  CHECK(provider["cost"]["options"]["rent"]["cny_per_gpu_hour"].get<double>() == Approx(3.0));
  CHECK(provider["cost"]["options"]["rent"]["cny_per_gpu_hour"].get<double>() !=
        Approx(builtin_rate));
  // A bad provider price is located in its own file, not in the request.
  rental["value"] = -1;
  const auto bad = nlohmann::json::parse(advisor::advise_with_data_text(
      request.dump(), nlohmann::json({{"prices", prices}}).dump(), &ok));
  CHECK_FALSE(ok);
  CHECK(bad["error"]["code"] == "catalog_invalid");
  CHECK(bad["error"]["path"].get<std::string>().rfind("prices.json/gpus/h100-sxm-80gb/rental", 0) ==
        0);
  // Unknown data files are refused, not ignored.
  const auto unknown = nlohmann::json::parse(
      advisor::advise_with_data_text(request.dump(), R"({"price": {}})", &ok));
  CHECK_FALSE(ok);
  CHECK(unknown["error"]["path"] == "data/price");
}

TEST_CASE("every preset and task gives a finite result", "[advise][property]") {
  for (const auto& m : advisor::builtin_catalog().models) {
    for (const char* task : {"pretrain", "full_finetune", "lora", "qlora", "inference"}) {
      // Serving an encoder-decoder is a located error (test_encoder_decoder.cpp).
      if (m.encoder_decoder() && std::string(task) == "inference") continue;
      INFO(m.id << " " << task);
      const auto r = advise(test::request(task, m.id));
      check_no_nonfinite(r);
      CHECK(r["memory"]["per_gpu_bytes"].get<double>() > 0);
    }
  }
}

TEST_CASE("one GPUs-per-server per answer: layout, power and interconnect agree",
          "[advise][servers]") {
  // 16x H100 on 4-GPU boards: 4 servers everywhere, and 4 GPUs inside each server's links.
  nlohmann::json request = test::request("pretrain", "llama-2-13b");
  request["hardware"] = {{"gpu", "h100-sxm-80gb"}, {"count", 16}};
  request["power"] = {{"gpus_per_server", 4}};
  bool ok = false;
  const auto out = nlohmann::json::parse(advisor::advise_text(request.dump(), &ok));
  REQUIRE(ok);
  CHECK(out["memory"]["layout"]["servers"] == 4);
  CHECK(out["power"]["servers"] == 4);
  CHECK(out["power"]["gpus_per_server"] == 4);
  CHECK(out["interconnect"]["gpus_per_node"] == 4);
  CHECK(out["interconnect"]["inter_node"]["used"] == true);
  // The catalog's 8-GPU platform when the request says nothing.
  request.erase("power");
  const auto plain = nlohmann::json::parse(advisor::advise_text(request.dump(), &ok));
  REQUIRE(ok);
  CHECK(plain["memory"]["layout"]["servers"] == 2);
  CHECK(plain["power"]["servers"] == 2);
  CHECK(plain["interconnect"]["gpus_per_node"] == 8);
}
