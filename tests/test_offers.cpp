// SPDX-License-Identifier: MIT
// The market as it is sold: hourly marketplaces rent one host, multi-node jobs rent whole nodes
// of a cluster offer for its minimum term, a workstation carries no IDC line of its own, and a
// second-hand card is owned for its shorter remaining life.
#include <catch2/catch.hpp>

#include "helpers.hpp"

namespace {

using nlohmann::json;

json pinned(const std::string& task, const std::string& preset, const std::string& gpu, int count,
            const json& more = json::object()) {
  json patch = {{"hardware", {{"gpu", gpu}, {"count", count}}}};
  patch.merge_patch(more);
  return test::advise_json(test::request(task, preset, patch));
}

const json* line_item(const json& option, const std::string& name) {
  for (const json& item : option["line_items"])
    if (item["name"] == name) return &item;
  return nullptr;
}

bool has_missing(const json& cost, const std::string& code) {
  for (const json& m : cost["missing_prices"])
    if (m["code"] == code) return true;
  return false;
}

}  // namespace

TEST_CASE("a multi-node job is not rented from single-host hourly offers", "[offers]") {
  // 16 A800s: the marketplaces rent one host of up to 8, and no A800 cluster offer is listed.
  const json a800 = pinned("pretrain", "llama-2-13b", "a800-sxm-80gb", 16)["cost"];
  CHECK(a800["options"]["rent"].is_null());
  CHECK(a800["options"]["rent_reserved"].is_null());
  CHECK(has_missing(a800, "rental_spans_hosts"));
  // Eight fit one host: rented by the hour from it.
  const json host = pinned("pretrain", "llama-2-13b", "a800-sxm-80gb", 8)["cost"];
  CHECK(host["options"]["rent"]["offer_kind"] == "marketplace_host");
  CHECK_FALSE(has_missing(host, "rental_spans_hosts"));
}

TEST_CASE("a cluster offer rents whole nodes per node-month for its minimum term", "[offers]") {
  // 12 H800s: two 8-GPU nodes of the listed IDC package, at its node-month price.
  const json r = pinned("pretrain", "llama-2-13b", "h800-sxm-80gb", 12);
  const json& reserved = r["cost"]["options"]["rent_reserved"];
  REQUIRE(reserved.is_object());
  CHECK(reserved["offer_kind"] == "idc_package");
  CHECK(reserved["gpus"] == 16);
  CHECK(reserved["minimum_term_months"].get<int>() >= 1);
  CHECK(r["cost"]["options"]["rent"].is_null());
  // The plan of a short run pays the minimum term: nodes x term x node-month.
  const json best = r["recommendation"]["best"];
  REQUIRE(best.is_object());
  if (best["deployment"] == "rent_reserved") {
    const json& offer = best["cost"]["offer"];
    CHECK(offer["kind"] == "idc_package");
    CHECK(offer["billing"] == "node_month");
    CHECK(offer["billed_gpus"] == 16);
    const int term = offer["minimum_term_months"].get<int>();
    const double months = std::max<double>(term, std::ceil(best["hours"].get<double>() / 730));
    CHECK(best["cost"]["cny"].get<double>() ==
          Approx(16 * months * reserved["cny_per_gpu_month"].get<double>()));
  }
}

TEST_CASE("every rented plan across hosts comes from a multi-node offer", "[offers]") {
  const json r = test::advise_json(
      test::request("pretrain", "llama-3.1-70b", {{"training", {{"tokens", 2e11}}}}));
  std::vector<json> plans = {r["recommendation"]["best"]};
  for (const json& x : r["recommendation"]["runners_up"]) plans.push_back(x["plan"]);
  for (const json& p : plans) {
    if (!p.is_object() || p["deployment"] == "buy") continue;
    INFO(p.dump().substr(0, 400));
    const json& offer = p["cost"]["offer"];
    REQUIRE(offer.is_object());
    if (p["gpus"].get<int>() > 8) CHECK(offer["kind"] != "marketplace_host");
  }
}

TEST_CASE("a workstation carries no IDC line; servers carry theirs", "[offers][cost]") {
  const json one = pinned("lora", "qwen2.5-7b", "rtx4090-24gb", 1)["cost"]["options"]["buy"];
  const json* line = line_item(one, "network");
  REQUIRE(line != nullptr);
  CHECK((*line)["yearly_cny"].get<double>() == 0);
  CHECK((*line)["basis_code"] == "no_line_workstation");
  // Two 8-GPU servers: the line is sized per server.
  const json two = pinned("pretrain", "llama-2-13b", "l40s-48gb", 16)["cost"]["options"]["buy"];
  const json* per_server = line_item(two, "network");
  REQUIRE(per_server != nullptr);
  CHECK((*per_server)["basis_params"]["mbps"].get<double>() == Approx(2 * 20));
  // A stated line is the line.
  const json stated = pinned("lora", "qwen2.5-7b", "rtx4090-24gb", 1,
                             {{"cost", {{"network_mbps", 50}}}})["cost"]["options"]["buy"];
  CHECK((*line_item(stated, "network"))["basis_params"]["mbps"].get<double>() == 50);
}

TEST_CASE("a second-hand card is owned for its shorter remaining life", "[offers][cost]") {
  const json used = pinned("full_finetune", "llama-3.1-8b", "a800-sxm-80gb", 8)["cost"];
  const json fresh = pinned("full_finetune", "llama-3.1-8b", "h100-sxm-80gb", 8)["cost"];
  CHECK(used["life_years"] == 3);
  CHECK(fresh["life_years"] == 5);
  CHECK(used["options"]["buy"]["yearly_cny"].size() == 3);
  // The request's life is the life, whatever the card.
  const json stated = pinned("full_finetune", "llama-3.1-8b", "a800-sxm-80gb", 8,
                             {{"cost", {{"life_years", 4}}}})["cost"];
  CHECK(stated["life_years"] == 4);
}
