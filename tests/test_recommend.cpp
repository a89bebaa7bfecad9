// SPDX-License-Identifier: MIT
// The recommendation (issue 8): its properties, and that pinning the answer reproduces it.
#include <catch2/catch.hpp>

#include "helpers.hpp"

using nlohmann::json;

namespace {

json advise_json(const json& request) {
  bool ok = false;
  const json out = json::parse(advisor::advise_text(request.dump(), &ok));
  INFO(out.dump().substr(0, 400));
  REQUIRE(ok);
  return out;
}

json advise_with(const json& request, const advisor::Catalog& catalog) {
  bool ok = false;
  const json out = json::parse(advisor::advise_text(request.dump(), catalog, &ok));
  REQUIRE(ok);
  return out;
}

double best_cost(const json& r) { return r["recommendation"]["best"]["cost"]["cny"].get<double>(); }

const std::vector<json>& jobs() {
  static const std::vector<json> list = {
      test::request("lora", "qwen2.5-7b"),
      test::request("full_finetune", "qwen2.5-14b"),
      test::request("pretrain", "llama-2-13b", {{"training", {{"tokens", 3e11}, {"sequence_length", 4096}}}}),
      test::request("inference", "qwen2.5-72b",
                    {{"inference", {{"weight_format", "int4"}, {"target_users", 50},
                                    {"target_tokens_per_second_per_user", 20}}}}),
  };
  return list;
}

}  // namespace

TEST_CASE("the answer names a plan for common jobs, with reasons in the source's order",
          "[recommend]") {
  for (const json& job : jobs()) {
    INFO(job.dump());
    const json r = advise_json(job);
    const json& best = r["recommendation"]["best"];
    REQUIRE(best.is_object());
    CHECK(best["cost"]["cny"].get<double>() > 0);
    CHECK(best["cost"]["basis"] == (job["task"] == "inference" ? "per_month" : "per_run"));
    const std::vector<std::string> order = {"memory", "interconnect", "compute", "power", "cost"};
    REQUIRE(best["reasons"].size() == order.size());
    for (std::size_t i = 0; i < order.size(); ++i) CHECK(best["reasons"][i]["step"] == order[i]);
  }
}

TEST_CASE("pinning the recommended plan reproduces it", "[recommend]") {
  for (const json& job : jobs()) {
    INFO(job.dump());
    const json r = advise_json(job);
    const json& best = r["recommendation"]["best"];
    json pinned = job;
    pinned["hardware"] = {{"gpu", best["gpu"]}, {"count", best["gpus"]}};
    const json p = advise_json(pinned);
    // The same verdict (it fits) and, for serving, the same fleet.
    CHECK(p["memory"]["fits"] == true);
    if (job["task"] == "inference") {
      CHECK(p["inference"]["gpus_needed"] == best["gpus"]);
    } else {
      CHECK(p["memory"]["layout"]["count"] == best["gpus"]);
    }
    CHECK(p["cost"]["hardware"]["count"] == best["gpus"]);
    for (const auto& w : p["warnings"]) CHECK(w["code"] != "target_needs_more_gpus");
  }
}

TEST_CASE("removing a GPU never lowers the best cost", "[recommend][property]") {
  const advisor::Catalog& full = advisor::builtin_catalog();
  for (const json& job : jobs()) {
    INFO(job.dump());
    const double cost = best_cost(advise_with(job, full));
    const std::string chosen = advise_with(job, full)["recommendation"]["best"]["gpu"];
    // Without the chosen part the answer costs at least as much; without another, the same.
    for (const std::string& drop : {chosen, std::string(full.gpus.front().id == chosen ? full.gpus.back().id : full.gpus.front().id)}) {
      advisor::Catalog fewer = full;
      fewer.gpus.erase(std::remove_if(fewer.gpus.begin(), fewer.gpus.end(),
                                      [&](const advisor::GpuSpec& g) { return g.id == drop; }),
                       fewer.gpus.end());
      const json r = advise_with(job, fewer);
      if (r["recommendation"]["best"].is_null()) continue;
      CHECK(best_cost(r) >= cost * (1 - 1e-9));
    }
  }
}

TEST_CASE("a looser deadline or a larger budget never removes a plan", "[recommend][property]") {
  json job = test::request("pretrain", "llama-2-13b", {{"training", {{"tokens", 3e11}, {"sequence_length", 4096}}}});
  std::size_t previous = 0;
  for (double deadline : {200.0, 400.0, 800.0, 1600.0, 1e5}) {
    job["goal"] = {{"deadline_hours", deadline}};
    const json r = advise_json(job);
    const std::size_t n = r["recommendation"]["pareto"].size();
    CHECK(n >= previous);
    previous = n;
    if (r["recommendation"]["best"].is_object())
      CHECK(r["recommendation"]["best"]["hours"].get<double>() <= deadline);
  }
  previous = 0;
  for (double budget : {1e4, 1e5, 1e6, 1e7}) {
    job["goal"] = {{"budget_cny", budget}};
    const json r = advise_json(job);
    const std::size_t n = r["recommendation"]["pareto"].size();
    CHECK(n >= previous);
    previous = n;
    if (r["recommendation"]["best"].is_object()) CHECK(best_cost(r) <= budget);
  }
}

TEST_CASE("an impossible goal names the nearest plan, never an empty answer", "[recommend]") {
  json job = test::request("pretrain", "llama-3.1-70b", {{"training", {{"tokens", 2e12}}}});
  job["goal"] = {{"deadline_hours", 0.01}};
  const json r = advise_json(job);
  CHECK(r["recommendation"]["best"].is_null());
  REQUIRE(r["recommendation"]["no_plan"].is_object());
  CHECK(r["recommendation"]["no_plan"]["code"] == "no_plan_meets_goal");
  CHECK(r["recommendation"]["nearest"].is_object());
  // A zero budget is refused at the field.
  job["goal"] = {{"budget_cny", 0}};
  bool ok = true;
  const json bad = json::parse(advisor::advise_text(job.dump(), &ok));
  CHECK_FALSE(ok);
  CHECK(bad["error"]["path"] == "/goal/budget_cny");
}
