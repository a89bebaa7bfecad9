// SPDX-License-Identifier: MIT
// A budget bounds what the user would pay for the plan (issue 25 item 3): a bought plan's
// purchase, a rental's run (training) or month (serving); never the job's amortised share of
// owning the cards.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "helpers.hpp"

using nlohmann::json;

namespace {

/// Every plan the recommendation shows: best, runners-up, levers, nearest.
std::vector<json> shown_plans(const json& rec) {
  std::vector<json> out;
  if (rec["best"].is_object()) out.push_back(rec["best"]);
  for (const auto& u : rec["runners_up"]) out.push_back(u["plan"]);
  for (const auto& l : rec["levers"]) out.push_back(l["plan"]);
  if (rec["nearest"].is_object()) out.push_back(rec["nearest"]);
  return out;
}

double outlay(const json& plan) { return plan["outlay_cny"].get<double>(); }

/// The plan's reason of `code`, or null.
json reason_of(const json& plan, const std::string& code) {
  for (const auto& r : plan["reasons"])
    if (r["code"] == code) return r;
  return nullptr;
}

/// The request pinned to `plan`'s hardware, place and deployment (the cost section prices it).
json pinned_to(json job, const json& plan) {
  job["hardware"] = {{"gpu", plan["gpu"]}, {"count", plan["gpus"]}};
  if (plan["deployment"] == "buy") job["power"]["facility"] = plan["facility"];
  return job;
}

}  // namespace

TEST_CASE("a LoRA job with a CNY 50 budget never buys a cluster", "[recommend][budget]") {
  json job = test::request("lora", "qwen2.5-7b");
  // Without a budget some bought plan's share of owning the cards is under CNY 50 while buying
  // them costs far more: the case a budget read as the job's share got wrong.
  const json free = test::advise_json(job)["recommendation"];
  bool cheap_share_dear_purchase = false;
  for (const json& p : shown_plans(free)) {
    if (p["deployment"] == "buy" && p["cost"]["cny"].get<double>() < 50 && outlay(p) > 1e4)
      cheap_share_dear_purchase = true;
  }
  CHECK(cheap_share_dear_purchase);

  job["goal"] = {{"budget_cny", 50}};
  const json r = test::advise_json(job);
  const json& rec = r["recommendation"];
  CHECK(rec["objective"] == "fastest_within_budget");
  REQUIRE(rec["best"].is_object());
  for (const json& p : shown_plans(rec)) {
    INFO(p.dump().substr(0, 300));
    CHECK(outlay(p) <= 50);
    // No purchase of cards fits CNY 50: every plan shown is rented, its outlay its run.
    CHECK(p["deployment"] != "buy");
    CHECK(p["outlay_basis"] == "per_run");
    CHECK_FALSE((p["gpu"] == "h100-sxm-80gb" && p["servers"].get<int>() > 1 && outlay(p) > 1e6));
    // The card says what the budget was compared with.
    const json within = reason_of(p, "within_budget");
    REQUIRE(within.is_object());
    CHECK(within["step"] == "cost");
    CHECK(within["params"]["outlay_cny"].get<double>() == Approx(outlay(p)));
    CHECK(within["params"]["outlay_basis"] == "per_run");
    CHECK(within["params"]["budget_cny"].get<double>() == 50);
  }
  // GPUs only bought (no rental price) or whose runs cost more are rejected for the budget,
  // with their least outlay against it.
  bool over = false;
  for (const auto& x : rec["rejected"]) {
    if (x["reason"]["code"] != "over_budget") continue;
    over = true;
    const json& params = x["reason"]["params"];
    CHECK(params["outlay_cny"].get<double>() > 50);
    CHECK(params["budget_cny"].get<double>() == 50);
    CHECK(std::set<std::string>{"purchase", "per_run"}.count(params["outlay_basis"]) == 1);
    CHECK(params["gpus"].get<int>() >= 1);
    CHECK(params.contains("deployment"));
  }
  CHECK(over);
}

TEST_CASE("a bought plan's outlay is its purchase, a rental's its run or month",
          "[recommend][budget]") {
  // An office runner-up is bought; the best LoRA plan is rented.
  const json job = test::request("lora", "qwen2.5-7b");
  const json rec = test::advise_json(job)["recommendation"];
  int bought = 0, rented = 0;
  for (const json& p : shown_plans(rec)) {
    INFO(p.dump().substr(0, 300));
    if (p["deployment"] == "buy") {
      ++bought;
      CHECK(p["outlay_basis"] == "purchase");
      // The purchase the cost section prices for the same hardware at the same place.
      const json pinned = test::advise_json(pinned_to(job, p));
      CHECK(outlay(p) == Approx(pinned["cost"]["options"]["buy"]["capex_cny"].get<double>()));
      CHECK(outlay(p) > p["cost"]["cny"].get<double>());
    } else {
      ++rented;
      CHECK(p["outlay_basis"] == "per_run");
      CHECK(outlay(p) == Approx(p["cost"]["cny"].get<double>()));
    }
  }
  CHECK(bought > 0);
  CHECK(rented > 0);
  // Serving: a rented fleet's month.
  const json serving = test::advise_json(test::request(
      "inference", "qwen2.5-7b", {{"inference", {{"target_users", 20}}}}))["recommendation"];
  for (const json& p : shown_plans(serving)) {
    if (p["deployment"] == "buy") {
      CHECK(p["outlay_basis"] == "purchase");
    } else {
      CHECK(p["outlay_basis"] == "per_month");
      CHECK(outlay(p) == Approx(p["cost"]["cny"].get<double>()));
    }
  }
  // No budget: no budget reason.
  for (const json& p : shown_plans(rec)) CHECK(reason_of(p, "within_budget").is_null());
}

TEST_CASE("a budget of a purchase buys within it, over every plan, the nearest says by how much",
          "[recommend][budget]") {
  json job = test::request("lora", "qwen2.5-7b", {{"goal", {{"objective", "cheapest"}}}});
  // A budget large enough to buy one workstation: a bought plan within it qualifies.
  job["goal"]["budget_cny"] = 2e5;
  const json rec = test::advise_json(job)["recommendation"];
  REQUIRE(rec["best"].is_object());
  int bought = 0;
  for (const json& p : shown_plans(rec)) {
    CHECK(outlay(p) <= 2e5);
    if (p["deployment"] == "buy") ++bought;
  }
  CHECK(bought > 0);  // the China-purchasable runner-up: a workstation within CNY 200,000

  // Below every plan's outlay: nothing qualifies, the nearest plan and why.
  job["goal"]["budget_cny"] = 0.01;
  const json none = test::advise_json(job)["recommendation"];
  CHECK(none["best"].is_null());
  REQUIRE(none["nearest"].is_object());
  const json& why = none["no_plan"];
  CHECK(why["code"] == "no_plan_meets_goal");
  CHECK(why["params"]["nearest_outlay_cny"].get<double>() == Approx(outlay(none["nearest"])));
  CHECK(why["params"]["nearest_outlay_basis"] == none["nearest"]["outlay_basis"]);
  // The nearest is the plan that needs the least money.
  const json over = reason_of(none["nearest"], "outlay_over_budget");
  REQUIRE(over.is_object());
  CHECK(over["params"]["budget_cny"].get<double>() == 0.01);
  for (const auto& x : none["rejected"]) {
    const std::string code = x["reason"]["code"];
    if (code == "over_budget")
      CHECK(x["reason"]["params"]["outlay_cny"].get<double>() >= outlay(none["nearest"]));
  }
}

TEST_CASE("a deadline and a budget each met by some plans but never both say so",
          "[recommend][budget]") {
  // Pretraining: the fast plans need many GPUs (over a small budget), the cheap ones are slow.
  json job = test::request("pretrain", "llama-2-13b",
                           {{"training", {{"tokens", 3e11}, {"sequence_length", 4096}}}});
  const json free = test::advise_json(job)["recommendation"];
  REQUIRE(free["best"].is_object());
  const double hours = free["best"]["hours"].get<double>();
  // A fifth of the cheapest plan's time, and a budget below the cost of every plan that makes
  // it (an outlay is never below its plan's cost; the fastest plans at each cost are on the
  // front): a GPU's many-card plans make the deadline, its few-card plans the budget, none both.
  double fast_cost = std::numeric_limits<double>::infinity();
  for (const auto& p : free["pareto"])
    if (p["hours"].get<double>() <= hours * 0.2)
      fast_cost = std::min(fast_cost, p["cost_cny"].get<double>());
  REQUIRE(std::isfinite(fast_cost));
  const double cost = fast_cost * 0.9;
  job["goal"] = {{"deadline_hours", hours * 0.2}, {"budget_cny", cost}};
  const json r = test::advise_json(job)["recommendation"];
  INFO(r["rejected"].dump().substr(0, 600));
  int both = 0;
  for (const auto& x : r["rejected"]) {
    if (x["reason"]["code"] != "deadline_and_budget") continue;
    ++both;
    CHECK(x["reason"]["params"]["deadline_hours"].get<double>() == Approx(hours * 0.2));
    CHECK(x["reason"]["params"]["budget_cny"].get<double>() == Approx(cost));
  }
  CHECK(both > 0);
}

TEST_CASE("amounts of yuan are marked for the page", "[form][budget]") {
  const json schema = test::to_nlohmann(advisor::form_schema(advisor::builtin_catalog()));
  std::map<std::string, json> form;
  for (const auto& e : schema) form[e["path"].get<std::string>()] = e;
  for (const char* path :
       {"/goal/budget_cny", "/cost/prices/gpu_purchase_cny", "/cost/prices/rental_cny_per_gpu_hour",
        "/cost/prices/electricity_flat_cny_per_kwh"}) {
    INFO(path);
    REQUIRE(form.count(path) == 1);
    CHECK(form[path]["unit"] == "cny");
  }
  for (const char* path : {"/cost/utilization", "/goal/deadline_hours", "/training/tokens"})
    CHECK(form[path].value("unit", "") != "cny");
}
