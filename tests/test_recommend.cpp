// SPDX-License-Identifier: MIT
// The recommendation (issue 8): its properties, and that pinning the answer reproduces it.
#include <catch2/catch.hpp>

#include "helpers.hpp"

using nlohmann::json;

namespace {

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
      test::request("pretrain", "llama-2-13b",
                    {{"training", {{"tokens", 3e11}, {"sequence_length", 4096}}}}),
      test::request("inference", "qwen2.5-72b",
                    {{"inference",
                      {{"weight_format", "int4"},
                       {"target_users", 50},
                       {"target_tokens_per_second_per_user", 20}}}}),
  };
  return list;
}

}  // namespace

TEST_CASE("the answer names a plan for common jobs, with reasons in the source's order",
          "[recommend]") {
  for (const json& job : jobs()) {
    INFO(job.dump());
    const json r = test::advise_json(job);
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
    const json r = test::advise_json(job);
    const json& best = r["recommendation"]["best"];
    json pinned = job;
    pinned["hardware"] = {{"gpu", best["gpu"]}, {"count", best["gpus"]}};
    const json p = test::advise_json(pinned);
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
    for (const std::string& drop :
         {chosen, std::string(full.gpus.front().id == chosen ? full.gpus.back().id
                                                             : full.gpus.front().id)}) {
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
  json job = test::request("pretrain", "llama-2-13b",
                           {{"training", {{"tokens", 3e11}, {"sequence_length", 4096}}}});
  std::size_t previous = 0;
  for (double deadline : {200.0, 400.0, 800.0, 1600.0, 1e5}) {
    job["goal"] = {{"deadline_hours", deadline}};
    const json r = test::advise_json(job);
    const std::size_t n = r["recommendation"]["pareto"].size();
    CHECK(n >= previous);
    previous = n;
    if (r["recommendation"]["best"].is_object())
      CHECK(r["recommendation"]["best"]["hours"].get<double>() <= deadline);
  }
  previous = 0;
  for (double budget : {1e4, 1e5, 1e6, 1e7}) {
    job["goal"] = {{"budget_cny", budget}};
    const json r = test::advise_json(job);
    const std::size_t n = r["recommendation"]["pareto"].size();
    CHECK(n >= previous);
    previous = n;
    // The budget bounds the outlay (a purchase, a run), not the job's share of owning cards.
    if (r["recommendation"]["best"].is_object())
      CHECK(r["recommendation"]["best"]["outlay_cny"].get<double>() <= budget);
  }
}

TEST_CASE("an impossible goal names the nearest plan, never an empty answer", "[recommend]") {
  json job = test::request("pretrain", "llama-3.1-70b", {{"training", {{"tokens", 2e12}}}});
  job["goal"] = {{"deadline_hours", 0.01}};
  const json r = test::advise_json(job);
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

TEST_CASE("pretraining without /hardware/count runs on the count the search reaches",
          "[recommend][hardware_count]") {
  // Issue 11: a model card states the GPU and the GPU-hours, not the count.
  const json job = test::request("pretrain", "llama-2-13b",
                                 {{"training", {{"tokens", 3e11}, {"sequence_length", 4096}}},
                                  {"hardware", {{"gpu", "h100-sxm-80gb"}}}});
  const json r = test::advise_json(job);
  const int gpus = r["memory"]["layout"]["count"].get<int>();
  CHECK(gpus > 1);
  const json& note = r["training"]["assumption_notes"][0];
  CHECK(note["code"] == "hardware_count_chosen");
  CHECK(note["params"]["gpus"].get<int>() == gpus);
  CHECK(note["params"]["min_gpus"].get<int>() <= gpus);
  CHECK(r["resolved_inputs"]["/hardware/count"].get<int>() == gpus);
  CHECK(r["cost"]["hardware"]["count"].get<int>() == gpus);
  // The rule: data parallel x micro-batch within the global batch, and the next doubling either
  // exceeds it or keeps less than 80% scaling efficiency (or lies past the search limit).
  const json& layout = r["memory"]["layout"];
  const json& perf = r["training"];
  CHECK(layout["dp"].get<int>() * note["params"]["micro_batch"].get<int>() <=
        note["params"]["global_batch"].get<int>());
  json pinned = job;
  pinned["hardware"]["count"] = gpus;
  const json same = test::advise_json(pinned);
  CHECK(same["training"]["gpu_hours"].get<double>() == Approx(perf["gpu_hours"].get<double>()));
  for (const auto& n : same["training"]["assumption_notes"])
    CHECK(n["code"] != "hardware_count_chosen");
  const std::string stop = note["params"]["stop"].get<std::string>();
  CHECK(note["params"]["deadline"] == 0);
  if (stop == "low_efficiency" || stop == "small_saving") {
    pinned["hardware"]["count"] = 2 * gpus;
    const json doubled = test::advise_json(pinned);
    const double efficiency =
        perf["gpu_hours"].get<double>() / doubled["training"]["gpu_hours"].get<double>();
    CHECK(efficiency < note["params"]["min_efficiency"].get<double>());
  } else {
    CHECK(stop == "global_batch");
  }
}

TEST_CASE("a pretraining count chosen without a deadline stops where a doubling stops paying",
          "[recommend][hardware_count]") {
  // LLaMA-1 33B (arXiv 2302.13971 Table 2): 1.4T tokens in 4M-token batches; the paper states
  // the GPU-hours, not the count. On A100s doubling past the batch-fed count buys a third less
  // time for 50% more GPU-hours; with a deadline the advisor takes that doubling.
  json job = test::request(
      "pretrain", "llama-2-13b",
      {{"training", {{"tokens", 1.4e12}, {"sequence_length", 2048}, {"global_batch_size", 2048}}},
       {"hardware", {{"gpu", "a100-sxm-80gb"}}}});
  job["model"] = {
      {"layers", 60},        {"hidden", 6656},          {"heads", 52},    {"kv_heads", 52},
      {"ffn_hidden", 17920}, {"vocab", 32000},          {"mlp", "gated"}, {"position", "rope"},
      {"norm", "rmsnorm"},   {"tied_embeddings", false}};
  const json r = test::advise_json(job);
  const json& note = r["training"]["assumption_notes"][0];
  REQUIRE(note["code"] == "hardware_count_chosen");
  CHECK(note["params"]["stop"] == "low_efficiency");
  CHECK(note["params"]["next_efficiency"].get<double>() < 0.8);
  const int gpus = note["params"]["gpus"].get<int>();
  json urgent = job;
  urgent["goal"] = {{"deadline_hours", 24}};
  const json fast = test::advise_json(urgent);
  const json& fast_note = fast["training"]["assumption_notes"][0];
  CHECK(fast_note["params"]["deadline"] == 1);
  CHECK(fast_note["params"]["gpus"].get<int>() > gpus);
  CHECK(fast["training"]["hours"].get<double>() < r["training"]["hours"].get<double>());
}

TEST_CASE("fine-tuning and serving without /hardware/count stay on one GPU",
          "[recommend][hardware_count]") {
  for (const json& job :
       {test::request("lora", "qwen2.5-7b", {{"hardware", {{"gpu", "rtx4090-24gb"}}}}),
        test::request("qlora", "llama-3.1-8b", {{"hardware", {{"gpu", "rtx4090-24gb"}}}}),
        test::request("full_finetune", "qwen2.5-7b", {{"hardware", {{"gpu", "h100-sxm-80gb"}}}}),
        test::request("inference", "qwen2.5-7b", {{"hardware", {{"gpu", "rtx4090-24gb"}}}})}) {
    INFO(job.dump());
    const json r = test::advise_json(job);
    CHECK(r["memory"]["layout"]["count"] == 1);
    CHECK_FALSE(r["resolved_inputs"].contains("/hardware/count"));
    for (const char* sec : {"training", "inference"}) {
      if (!r[sec].is_object()) continue;
      for (const auto& n : r[sec]["assumption_notes"]) CHECK(n["code"] != "hardware_count_chosen");
    }
  }
}

TEST_CASE("pretraining that fits no count up to the limit is a located error",
          "[recommend][hardware_count]") {
  const json job =
      test::request("pretrain", "llama-3.1-405b",
                    {{"training", {{"sequence_length", 131072}, {"micro_batch_size", 64}}},
                     {"hardware", {{"gpu", "rtx4090-24gb"}}}});
  bool ok = true;
  const json out = json::parse(advisor::advise_text(job.dump(), &ok));
  CHECK_FALSE(ok);
  INFO(out.dump());
  CHECK(out.dump().find("/hardware/count") != std::string::npos);
}

TEST_CASE(
    "pretraining without a count turns full checkpointing on only when nothing fits without it",
    "[recommend][hardware_count]") {
  // Llama 3.1 405B at 8k tokens: under PyTorch TP one micro-batch's activations fit an H100 at no
  // count without checkpointing; the model card states neither the count nor the recipe.
  const json job = test::request("pretrain", "llama-3.1-405b",
                                 {{"training", {{"tokens", 1.56e13}, {"sequence_length", 8192}}},
                                  {"hardware", {{"gpu", "h100-sxm-80gb"}}}});
  const json r = test::advise_json(job);
  const json& note = r["training"]["assumption_notes"][0];
  CHECK(note["code"] == "hardware_count_chosen");
  CHECK(note["params"]["full_checkpointing"] == 1);
  CHECK(r["resolved_inputs"]["/training/activation_checkpointing"] == "full");
  CHECK(r["memory"]["per_gpu_bytes"].get<double>() <=
        r["memory"]["gpu_memory_bytes"].get<double>());
  // Stated checkpointing is kept (and then nothing fits: the located error).
  json stated = job;
  stated["training"]["activation_checkpointing"] = "none";
  bool ok = true;
  const json out = json::parse(advisor::advise_text(stated.dump(), &ok));
  CHECK_FALSE(ok);
  CHECK(out["error"]["path"] == "/hardware/count");
  // A model that fits without it keeps the stack's choice.
  const json small =
      test::advise_json(test::request("pretrain", "llama-2-13b",
                                      {{"training", {{"tokens", 3e11}, {"sequence_length", 4096}}},
                                       {"hardware", {{"gpu", "h100-sxm-80gb"}}}}));
  CHECK(small["training"]["assumption_notes"][0]["params"]["full_checkpointing"] == 0);
}
