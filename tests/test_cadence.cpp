// SPDX-License-Identifier: MIT
// A job cadence (issue 25 item 2): "每周一次" is /training/runs_per_month = 52/12. Cards
// reserved by the month or bought are busy only for those runs, so a month of having them is
// paid by that many runs: a rare job is rented, a frequent one may pay for its own cards. The
// cost section takes the cadence as the year's demand, so its utilisation is the plan's.
#include <catch2/catch.hpp>
#include <cmath>

#include "api.hpp"
#include "helpers.hpp"

namespace {

using nlohmann::json;

constexpr double kHoursPerMonth = 730;
constexpr double kWeekly = 52.0 / 12;

json lora(std::optional<double> runs) {
  json j = test::request("lora", "qwen2.5-7b", {{"training", {{"tokens", 2e8}}}});
  if (runs) j["training"]["runs_per_month"] = *runs;
  return j;
}

}  // namespace

TEST_CASE("a cadence is a number of runs a month, located when wrong", "[cadence]") {
  for (const json bad : {json(0), json(-1), json(1e4), json("weekly")}) {
    json j = lora(std::nullopt);
    j["training"]["runs_per_month"] = bad;
    const json out = json::parse(advisor::advise_text(j.dump()));
    REQUIRE(out.contains("error"));
    CHECK(out["error"]["path"] == "/training/runs_per_month");
  }
  const json schema = test::to_nlohmann(advisor::form_schema(advisor::builtin_catalog()));
  bool found = false;
  for (const json& f : schema)
    if (f["path"] == "/training/runs_per_month") found = f["unit"] == "per_month";
  CHECK(found);
}

TEST_CASE("owned cards are busy for the cadence's runs only", "[cadence]") {
  const json out = test::advise_json(lora(kWeekly));
  const json& r = out["recommendation"];
  CHECK(r["runs_per_month"].get<double>() == Approx(kWeekly));
  CHECK(test::advise_json(lora(std::nullopt))["recommendation"]["runs_per_month"].is_null());
  int owned = 0;
  for (const json& u : r["runners_up"]) {
    const json& p = u["plan"];
    if (p["deployment"] != "buy") continue;
    ++owned;
    CHECK(p["cost"]["utilization"].get<double>() ==
          Approx(kWeekly * p["hours"].get<double>() / kHoursPerMonth));
  }
  CHECK(owned > 0);  // the office runner-up buys its cards
}

TEST_CASE("buy or rent follows the cadence, the cost section prices the plan alike", "[cadence]") {
  // Four RTX 4000 Ada bought for the office, pinned: a run once a quarter pays for months of
  // owning them; twice a day keeps them ~86% busy and a run costs a fifth of renting them.
  auto pinned = [](double runs) {
    json j = lora(runs);
    j["hardware"] = {{"gpu", "rtx4000ada-20gb"}, {"count", 4}};
    j["power"] = {{"facility", "office"}};
    return test::advise_json(j);
  };
  const json rare = pinned(0.25), often = pinned(60);
  const json& rare_run = rare["cost"]["cost_per_run_cny"];
  const json& often_run = often["cost"]["cost_per_run_cny"];
  CHECK(rare_run["buy"].get<double>() > rare_run["rent"].get<double>());
  CHECK(often_run["buy"].get<double>() < often_run["rent"].get<double>());
  const double hours = often["training"]["hours"].get<double>();
  CHECK(often["cost"]["utilization"].get<double>() == Approx(60 * hours / kHoursPerMonth));
  // The recommendation's plan for the same cards, place and cadence: the same cost per run.
  bool found = false;
  for (const json& u : often["recommendation"]["runners_up"]) {
    const json& p = u["plan"];
    if (p["gpu"] != "rtx4000ada-20gb" || p["gpus"] != 4 || p["deployment"] != "buy" ||
        p["facility"] != "office")
      continue;
    found = true;
    CHECK(p["cost"]["cny"].get<double>() == Approx(often_run["buy"].get<double>()));
    CHECK(p["cost"]["utilization"].get<double>() ==
          Approx(often["cost"]["utilization"].get<double>()));
  }
  CHECK(found);
  // A rare job is rented when nothing is pinned.
  CHECK(test::advise_json(lora(0.25))["recommendation"]["best"]["deployment"] == "rent");
}

TEST_CASE("a cadence whose runs overflow the month is not kept on one set of cards", "[cadence]") {
  const json busy = test::advise_json(lora(120))["recommendation"];
  REQUIRE(busy["best"].is_object());
  for (const json& u : busy["runners_up"]) {
    const json& p = u["plan"];
    if (p["deployment"] != "rent") CHECK(120 * p["hours"].get<double>() <= kHoursPerMonth + 1e-9);
  }
}

TEST_CASE("a plan at a cadence says what it costs a month", "[cadence]") {
  const json out = test::advise_json(lora(kWeekly));
  const json& rec = out["recommendation"];
  REQUIRE(rec["best"].is_object());
  auto check = [](const json& plan) {
    INFO(plan["gpu"] << " " << plan["deployment"]);
    REQUIRE(plan["cost"].contains("per_month_cny"));
    CHECK(plan["cost"]["per_month_cny"].get<double>() ==
          Approx(plan["cost"]["cny"].get<double>() * kWeekly));
  };
  check(rec["best"]);
  for (const json& u : rec["runners_up"]) check(u["plan"]);
  // Without a cadence there is no month to speak of.
  CHECK_FALSE(test::advise_json(lora(std::nullopt))["recommendation"]["best"]["cost"].contains(
      "per_month_cny"));
}
