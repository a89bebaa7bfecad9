// SPDX-License-Identifier: MIT
// The market as it is sold: hourly marketplaces rent one host, multi-node jobs rent whole nodes
// of a cluster offer for its minimum term, a workstation carries no IDC line of its own, and a
// second-hand card is owned for its shorter remaining life.
#include <catch2/catch.hpp>
#include <set>

#include "helpers.hpp"
#include "types/prices.hpp"

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

TEST_CASE("a workstation carries no IDC line, servers carry theirs", "[offers][cost]") {
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

TEST_CASE("a price older than six months before the catalog is marked stale", "[offers][cost]") {
  CHECK(advisor::older_than("2024-07", "2026-12-02", advisor::kStalePriceMonths));
  CHECK(advisor::older_than("2025", "2026-12-02", advisor::kStalePriceMonths));
  CHECK_FALSE(advisor::older_than("2026-06-02", "2026-12-02", advisor::kStalePriceMonths));
  CHECK_FALSE(advisor::older_than("2026", "2026-12-02", advisor::kStalePriceMonths));
  CHECK_FALSE(advisor::older_than("undated", "2026-12-02", advisor::kStalePriceMonths));
  // The H100's purchase price (2024) is stale in the table; a stated price is not.
  const json r = pinned("full_finetune", "llama-3.1-8b", "h100-sxm-80gb", 8);
  bool seen = false;
  for (const json& d : r["cost"]["defaults_used"]) {
    if (d["key"] != "gpus.h100-sxm-80gb.purchase") continue;
    seen = true;
    CHECK(d["stale"] == true);
  }
  CHECK(seen);
}

TEST_CASE("one buying policy decides what may be bought, the same way for every part",
          "[offers][recommend]") {
  // A job every 8-GPU server runs: with new + resale (the default), a second-hand A800 server
  // may be bought; new only, never; a grey-import H100 is bought only under "any".
  auto bought = [](const std::string& policy) {
    json patch = {{"training", {{"tokens", 5e8}}}};
    if (!policy.empty()) patch["goal"] = {{"buying_policy", policy}};
    const json r = test::advise_json(test::request("full_finetune", "llama-3.1-8b", patch));
    std::set<std::string> statuses;
    for (const json& p : r["recommendation"]["pareto"])
      if (p["deployment"] == "buy") statuses.insert(p["gpu"].get<std::string>());
    return std::make_pair(r, statuses);
  };
  const auto [fallback, by_default] = bought("");
  CHECK(fallback["recommendation"]["buying_policy"] == "new_and_resale");
  const auto [strict, new_only] = bought("new_only");
  for (const char* used : {"a800-sxm-80gb", "h800-sxm-80gb", "rtx3090-24gb", "v100-sxm-32gb"})
    CHECK(new_only.count(used) == 0);
  for (const char* grey : {"h100-sxm-80gb", "rtx4090-24gb"}) {
    CHECK(new_only.count(grey) == 0);
    CHECK(by_default.count(grey) == 0);
  }
  // Each plan says how its part is bought: serving DeepSeek-V3 to 50 users buys servers under
  // the default policy, new or second-hand, never a grey import; buying new only, it never buys
  // a used card.
  const json serving =
      json::parse(test::read_file(std::string(GPU_ADVISOR_TEST_DIR) +
                                  "/golden/inference_deepseek_v3_mla_b200_target.request.json"));
  const json used_best = test::advise_json(serving)["recommendation"]["best"];
  CHECK(used_best["deployment"] == "buy");
  CHECK((used_best["purchase_status"] == "new" || used_best["purchase_status"] == "second_hand"));
  json strict_serving = serving;
  strict_serving["goal"] = {{"buying_policy", "new_only"}};
  const json new_best = test::advise_json(strict_serving)["recommendation"]["best"];
  REQUIRE(new_best.is_object());
  CHECK_FALSE((new_best["deployment"] == "buy" && new_best["purchase_status"] != "new"));
  // The earlier switch is read as a policy; both at once is an error at the old one.
  bool ok = true;
  const json both = json::parse(advisor::advise_text(
      test::request("lora", "qwen2.5-7b",
                    {{"goal", {{"china_only", true}, {"buying_policy", "any"}}}})
          .dump(),
      &ok));
  CHECK_FALSE(ok);
  CHECK(both["error"]["path"] == "/goal/china_only");
}

namespace {

/// A pinned job under a provider catalog (the example's, with `offers` in place of its own).
json with_provider(const json& request, const json& offers) {
  json doc = json::parse(test::data_file("examples/provider-example.json"));
  if (!offers.is_null()) doc["offers"] = offers;
  bool ok = false;
  const std::string out = advisor::advise_with_provider_text(request.dump(), doc.dump(), &ok);
  INFO(out.substr(0, 1500));
  REQUIRE(ok);
  return json::parse(out);
}

json h800_job(int count, const std::string& deployment = "") {
  json hardware = {{"gpu", "h800-sxm-80gb"}, {"count", count}};
  if (!deployment.empty()) hardware["deployment"] = deployment;
  return test::request("pretrain", "llama-2-13b", {{"hardware", hardware}});
}

json h800_offer(const std::string& kind, const std::string& network) {
  json o = {{"gpu", "h800-sxm-80gb"},
            {"kind", kind},
            {"network", network},
            {"gpus_per_node", 8},
            {"count_available", 64}};
  if (kind == "hourly_marketplace") {
    o["price_cny_per_gpu_hour"] = 9.8;
    o["price_cny_per_gpu_month"] = 5500;
  } else {
    o["price_cny_per_node_month"] = 68000;
    o["minimum_term_months"] = 3;
  }
  return o;
}

}  // namespace

TEST_CASE("a provider's node-month InfiniBand package carries a 64-GPU job", "[offers][provider]") {
  // The example catalog's IDC package: 8x H800 nodes on InfiniBand NDR, 68,000 CNY per
  // node-month, 3 months at least, 64 GPUs.
  const json r = with_provider(h800_job(64, "rent_reserved"), nullptr);
  const json& reserved = r["cost"]["options"]["rent_reserved"];
  REQUIRE(reserved.is_object());
  CHECK(reserved["offer_kind"] == "idc_package");
  CHECK(reserved["gpus"] == 64);
  CHECK(reserved["minimum_term_months"] == 3);
  CHECK(reserved["cny_per_gpu_month"].get<double>() == Approx(68000.0 / 8));
  // The recommended plan (the search's count for the job, within the package's 8 nodes) names
  // the offer on its card; billed whole nodes for the longer of the run and the term.
  const json& best = r["recommendation"]["best"];
  REQUIRE(best.is_object());
  REQUIRE(best["deployment"] == "rent_reserved");
  const json& offer = best["cost"]["offer"];
  CHECK(offer["kind"] == "idc_package");
  CHECK(offer["billing"] == "node_month");
  CHECK(offer["minimum_term_months"] == 3);
  const int nodes = (best["gpus"].get<int>() + 7) / 8;
  CHECK(offer["billed_gpus"] == nodes * 8);
  const double months = std::max(3.0, std::ceil(best["hours"].get<double>() / 730));
  CHECK(best["cost"]["cny"].get<double>() == Approx(nodes * months * 68000));
  // The provider block names the package behind the plan.
  REQUIRE(r["provider"]["recommended_offer"].is_number());
  const json& used = r["provider"]["offers_used"];
  bool named = false;
  for (const json& o : used)
    if (o["offer"] == r["provider"]["recommended_offer"])
      named = o["kind"] == "idc_package" && o["price_cny_per_node_month"] == 68000;
  CHECK(named);
}

TEST_CASE("a provider's hourly marketplace offers carry no multi-node RDMA job",
          "[offers][provider]") {
  const json hourly = json::array({h800_offer("hourly_marketplace", "none")});
  const json cost = with_provider(h800_job(64), hourly)["cost"];
  CHECK(cost["options"]["rent"].is_null());
  CHECK(cost["options"]["rent_reserved"].is_null());
  CHECK(has_missing(cost, "rental_spans_hosts"));
  // One host's eight: rented by the hour from it, named as a marketplace host.
  const json host = with_provider(h800_job(8), hourly)["cost"];
  CHECK(host["options"]["rent"]["offer_kind"] == "marketplace_host");
  // A node-month package whose nodes talk over TCP rents one node, never a job across nodes.
  const json tcp = json::array({h800_offer("idc_package", "ethernet_25")});
  const json across = with_provider(h800_job(16), tcp)["cost"];
  CHECK(across["options"]["rent_reserved"].is_null());
  CHECK(has_missing(across, "rental_cluster_no_rdma"));
  const json one = with_provider(h800_job(8), tcp)["cost"]["options"]["rent_reserved"];
  REQUIRE(one.is_object());
  CHECK(one["offer_kind"] == "idc_package");
  // Nodes beyond the offer's count are not rented.
  json few = json::array({h800_offer("idc_package", "ib_ndr400")});
  few[0]["count_available"] = 32;
  const json short_of_nodes = with_provider(h800_job(64), few)["cost"];
  CHECK(short_of_nodes["options"]["rent_reserved"].is_null());
  CHECK(has_missing(short_of_nodes, "rental_cluster_too_few_nodes"));
}
