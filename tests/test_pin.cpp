// SPDX-License-Identifier: MIT
// One plan, one set of figures (issue 25 item 6): /hardware pins deployment and facility,
// pinning the recommended plan gives the same answer, a pinned count is honoured.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "helpers.hpp"

using nlohmann::json;

namespace {

json advise_raw(const json& request) {
  bool ok = false;
  return json::parse(advisor::advise_text(request.dump(), &ok));
}

json advise_ok(const json& request) {
  const json out = advise_raw(request);
  INFO(out.dump().substr(0, 600));
  REQUIRE_FALSE(out.contains("error"));
  return out;
}

/// The error envelope's code and path of `request`.
std::pair<std::string, std::string> error_of(const json& request) {
  const json out = advise_raw(request);
  INFO(out.dump().substr(0, 600));
  REQUIRE(out.contains("error"));
  return {out["error"]["code"], out["error"]["path"]};
}

/// `request` with the recommendation's plan `best` pinned: GPU, count, deployment and place.
/// The pin replaces the request's own hardware and place; a layout the request stated for
/// other hardware is left to the advisor.
json pinned_to(json request, const json& best) {
  request["hardware"] = {{"gpu", best["gpu"]},
                         {"count", best["gpus"]},
                         {"deployment", best["deployment"]},
                         {"facility", best["facility"]}};
  if (request.contains("power")) request["power"].erase("facility");
  return request;
}

/// Whether pinning `best` moves the request's prices: its generic price keys and server
/// overrides describe the pinned GPU (api.md), so pinning another GPU gives them to that one.
bool moves_prices(const json& request, const json& best) {
  if (!request.contains("hardware") || request["hardware"]["gpu"] == best["gpu"]) return false;
  const json prices = request.value("cost", json::object()).value("prices", json::object());
  const json power = request.value("power", json::object());
  for (const char* key : {"gpu_purchase_cny", "rental_cny_per_gpu_hour",
                          "rental_monthly_cny_per_gpu", "server_platform_cny"})
    if (prices.contains(key)) return true;
  for (const char* key : {"gpus_per_server", "host_watts", "server_rack_units"})
    if (power.contains(key)) return true;
  return false;
}

bool close(const json& a, const json& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  const double x = a.get<double>(), y = b.get<double>();
  return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
}

}  // namespace

TEST_CASE("pinning the recommended plan of every golden request gives the same answer",
          "[pin][golden]") {
  const std::vector<std::filesystem::path> files = test::golden_requests();
  REQUIRE(files.size() > 20);
  for (const auto& file : files) {
    const json request = json::parse(test::read_file(file.string()));
    INFO(file.filename().string());
    const json first = advise_raw(request);
    if (first.contains("error") || first["recommendation"]["best"].is_null()) continue;
    const json& best = first["recommendation"]["best"];
    // Prices that follow the pin have no fixed point to test: the pinned GPU always has them.
    if (moves_prices(request, best)) continue;
    const json again = advise_ok(pinned_to(request, best));
    const json& same = again["recommendation"]["best"];
    REQUIRE(same.is_object());
    CHECK(same["gpu"] == best["gpu"]);
    CHECK(same["gpus"] == best["gpus"]);
    CHECK(same["deployment"] == best["deployment"]);
    CHECK(same["facility"] == best["facility"]);
    CHECK(close(same["hours"], best["hours"]));
    CHECK(close(same["cost"]["cny"], best["cost"]["cny"]));
    // The cost section prices that plan, at the recommendation's utilisation.
    const json& hw = again["cost"]["hardware"];
    CHECK(hw["deployment"] == best["deployment"]);
    CHECK(hw["facility"] == best["facility"]);
    if (best["deployment"] == "buy") {
      CHECK(hw["count"] == best["gpus"]);
      CHECK(close(again["cost"]["utilization"], best["cost"]["utilization"]));
    }
  }
}

TEST_CASE("a bought plan delivers the demand profile: never more than 100% busy", "[pin]") {
  for (const auto& file : test::golden_requests()) {
    const json request = json::parse(test::read_file(file.string()));
    const json r = advise_raw(request);
    if (r.contains("error") || r["recommendation"].is_null()) continue;
    INFO(file.filename().string());
    const json& rec = r["recommendation"];
    std::vector<json> plans = {rec["best"], rec["nearest"]};
    for (const json& u : rec["runners_up"]) plans.push_back(u["plan"]);
    for (const json& p : plans)
      if (p.is_object() && p["deployment"] == "buy")
        CHECK(p["cost"]["utilization"].get<double>() <= 1.0);
  }
}

TEST_CASE("/hardware/deployment and /hardware/facility are read and checked", "[pin][request]") {
  json job = test::request("lora", "qwen2.5-7b", {{"hardware", {{"gpu", "rtx4090-24gb"}}}});
  job["hardware"]["deployment"] = "lease";
  CHECK(error_of(job) ==
        std::pair<std::string, std::string>{"unknown_value", "/hardware/deployment"});
  job["hardware"]["deployment"] = "rent";
  job["hardware"]["facility"] = "attic";
  CHECK(error_of(job) ==
        std::pair<std::string, std::string>{"unknown_value", "/hardware/facility"});
  // A rented card is in the provider's data centre.
  job["hardware"]["facility"] = "office";
  CHECK(error_of(job) == std::pair<std::string, std::string>{"inconsistent", "/hardware/facility"});
  // The pinned place and /power/facility must agree.
  job["hardware"]["deployment"] = "buy";
  job["power"] = {{"facility", "idc"}};
  CHECK(error_of(job) == std::pair<std::string, std::string>{"inconsistent", "/hardware/facility"});
  job["power"] = {{"facility", "office"}};
  const json r = advise_ok(job);
  CHECK(r["power"]["facility"] == "office");
  CHECK(r["cost"]["hardware"]["deployment"] == "buy");
  CHECK(r["cost"]["hardware"]["facility"] == "office");
}

TEST_CASE("a pinned deployment and place are the only ones the recommendation considers", "[pin]") {
  json job = test::request("lora", "qwen2.5-7b",
                           {{"hardware", {{"gpu", "rtx4090-24gb"}, {"deployment", "buy"}}}});
  for (const char* facility : {"office", "idc"}) {
    job["hardware"]["facility"] = facility;
    const json r = advise_ok(job);
    const json& rec = r["recommendation"];
    REQUIRE(rec["best"].is_object());
    CHECK(rec["best"]["deployment"] == "buy");
    CHECK(rec["best"]["facility"] == facility);
    for (const json& u : rec["runners_up"]) CHECK(u["plan"]["deployment"] == "buy");
    CHECK(r["power"]["facility"] == facility);
  }
  job["hardware"]["deployment"] = "rent";
  job["hardware"].erase("facility");
  const json r = advise_ok(job);
  CHECK(r["recommendation"]["best"]["deployment"] == "rent");
  CHECK(r["cost"]["hardware"]["deployment"] == "rent");
}

TEST_CASE("a stated /power/facility is where every bought plan is placed", "[pin]") {
  // A small LoRA: without a stated place the search also prices buying for the office.
  json job = test::request("lora", "qwen2.5-7b", {{"goal", {{"objective", "cheapest"}}}});
  auto bought_places = [](const json& r) {
    std::set<std::string> places;
    const json& rec = r["recommendation"];
    auto add = [&](const json& p) {
      if (p["deployment"] == "buy") places.insert(p["facility"].get<std::string>());
    };
    add(rec["best"]);
    for (const json& u : rec["runners_up"]) add(u["plan"]);
    return places;
  };
  for (const char* facility : {"idc", "office"}) {
    job["power"]["facility"] = facility;
    const std::set<std::string> places = bought_places(advise_ok(job));
    INFO(facility);
    CHECK(places.count(facility == std::string("idc") ? "office" : "idc") == 0);
  }
}

TEST_CASE("an impossible pin is a located error, never another plan", "[pin]") {
  // Eight H100s in one server draw more than an office rack gives.
  json job = test::request(
      "full_finetune", "llama-3.1-8b",
      {{"hardware",
        {{"gpu", "h100-sxm-80gb"}, {"count", 8}, {"deployment", "buy"}, {"facility", "office"}}}});
  CHECK(error_of(job) == std::pair<std::string, std::string>{"unsupported", "/hardware/facility"});
  // A part with no rental price cannot be pinned rented.
  job =
      test::request("lora", "qwen2.5-7b",
                    {{"hardware", {{"gpu", "b200-180gb"}, {"count", 2}, {"deployment", "rent"}}}});
  CHECK(error_of(job) ==
        std::pair<std::string, std::string>{"unsupported", "/hardware/deployment"});
}

TEST_CASE("a pinned count is the count every section computes", "[pin]") {
  // B200 ships on baseboards: 2 pinned are 2 everywhere, or refused at /hardware/count.
  for (const char* task : {"lora", "inference"}) {
    json job = test::request(task, "qwen2.5-7b",
                             {{"hardware", {{"gpu", "b200-180gb"}, {"count", 2}}},
                              {"cost", {{"prices", {{"rental_cny_per_gpu_hour", 40}}}}}});
    INFO(task);
    const json r = advise_ok(job);
    CHECK(r["memory"]["layout"]["count"] == 2);
    CHECK(r["cost"]["hardware"]["count"] == 2);
    CHECK(r["power"]["gpus"] == 2);
  }
  // Bought, the boards are whole: a pinned purchase of 2 is refused at the count, and with the
  // deployment left open the buy option's 4 cards are said.
  json job = test::request("lora", "qwen2.5-7b",
                           {{"hardware", {{"gpu", "b200-180gb"}, {"count", 2}}},
                            {"cost", {{"prices", {{"gpu_purchase_cny", 300000}}}}},
                            {"goal", {{"china_only", false}}}});
  const json open = advise_ok(job);
  bool said = false;
  for (const json& w : open["warnings"]) said = said || w["code"] == "whole_board_purchase";
  CHECK(said);
  job["hardware"]["deployment"] = "buy";
  CHECK(error_of(job) == std::pair<std::string, std::string>{"inconsistent", "/hardware/count"});
  job["hardware"]["count"] = 4;
  CHECK(advise_ok(job)["cost"]["hardware"]["count"] == 4);
}

TEST_CASE("without a pin the cost section prices the recommended plan where it runs", "[pin]") {
  // A LoRA team whose yearly demand is ~4 cards' worth: the answer buys cards for the office.
  json job = json::parse(test::read_file(std::string(GPU_ADVISOR_TEST_DIR) +
                                         "/golden/cost_capacity_hybrid.request.json"));
  job.erase("hardware");
  job.erase("power");
  const json r = advise_ok(job);
  const json& best = r["recommendation"]["best"];
  REQUIRE(best["deployment"] == "buy");
  REQUIRE(best["facility"] == "office");
  const json& cost = r["cost"];
  CHECK(cost["hardware"]["gpu"] == best["gpu"]);
  CHECK(cost["hardware"]["count"] == best["gpus"]);
  CHECK(cost["hardware"]["facility"] == "office");
  CHECK(r["power"]["facility"] == "office");
  CHECK(close(cost["utilization"], best["cost"]["utilization"]));
  CHECK(best["cost"]["utilization"].get<double>() <= 1.0);
  // Owning them in the office pays: the cost section does not move them to an IDC.
  CHECK(cost["cheapest_option"] == "buy");
}

TEST_CASE("unpinned, the sections describe the recommended plan as pinning it does",
          "[pin][sections]") {
  for (const json& request :
       {test::request("full_finetune", "qwen2.5-14b"), test::request("lora", "qwen2.5-7b"),
        test::request("inference", "qwen2.5-72b",
                      {{"inference", {{"target_users", 50}, {"prompt_tokens", 1500}}}})}) {
    const json out = advise_ok(request);
    const json& best = out["recommendation"]["best"];
    REQUIRE(best.is_object());
    INFO(request.dump() << " -> " << best["gpus"] << "x " << best["gpu"]);
    REQUIRE(out["sections_describe"].is_object());
    CHECK(out["sections_describe"]["gpu"] == best["gpu"]);
    CHECK(out["sections_describe"]["gpus"] == best["gpus"]);
    CHECK(out["memory"]["layout"]["gpu"] == best["gpu"]);
    json pinned = request;
    pinned["hardware"] = {{"gpu", best["gpu"]}, {"count", best["gpus"]}};
    const json again = advise_ok(pinned);
    CHECK(again["sections_describe"].is_null());
    CHECK(out["memory"]["per_gpu_bytes"] == again["memory"]["per_gpu_bytes"]);
    CHECK(out["memory"]["fits"] == again["memory"]["fits"]);
    if (best.contains("hours") && !best["hours"].is_null()) {
      CHECK(out["training"]["hours"].get<double>() == Approx(best["hours"].get<double>()));
      CHECK(out["training"]["hours"] == again["training"]["hours"]);
    }
  }
}
