// SPDX-License-Identifier: MIT
// Jobs have start-up, billing units and a calendar (issue 25 item 2): every run pays its
// start-up on every GPU, a rental is billed in whole units, and "cheapest" without a deadline is
// the cheapest plan that finishes within the task's calendar, so a wide and short plan no longer
// looks free and a cheap plan no longer takes two years.
#include <catch2/catch.hpp>
#include <cmath>

#include "api.hpp"
#include "engine/checkpoint_writes.hpp"
#include "engine/cost.hpp"
#include "engine/job_startup.hpp"
#include "helpers.hpp"

namespace {

using nlohmann::json;

json lora(double tokens, const json& goal = json::object()) {
  return test::request("lora", "qwen2.5-7b", {{"training", {{"tokens", tokens}}}, {"goal", goal}});
}

}  // namespace

TEST_CASE("start-up: image, weights, warm-up and rendezvous, once per run",
          "[calendar][reference]") {
  const advisor::PerformanceConstants& k = advisor::builtin_catalog().performance;
  advisor::Layout one = test::layout(1, 0), four_servers = test::layout(32, 3);
  one.gpus_per_server = 8;
  four_servers.gpus_per_server = 8;
  const double weights = 15e9;  // a 7.5B model's bf16 checkpoint
  const advisor::JobStartup a = advisor::job_startup(one, weights, k);
  CHECK(a.image_pull_s == Approx(k.container_image_gb * 8 / k.image_pull_gbit_per_s));
  CHECK(a.weights_load_s == Approx(weights / (k.checkpoint_read_gbyte_per_s * 1e9)));
  CHECK(a.rendezvous_s == 0);  // one server waits for nobody
  const advisor::JobStartup b = advisor::job_startup(four_servers, weights, k);
  CHECK(b.rendezvous_s == Approx(2 * k.rendezvous_s_per_doubling));  // log2(4) doublings
  // Pretraining starts from random weights: nothing to load.
  const advisor::Request pretrain = test::parse(test::request("pretrain", "llama-3.1-8b"));
  CHECK(advisor::checkpoint_bytes(pretrain, 8e9) == 0);
  const advisor::Request finetune = test::parse(test::request("full_finetune", "llama-3.1-8b"));
  CHECK(advisor::checkpoint_bytes(finetune, 8e9) == 16e9);
}

// Issue 27 item 2: a run stops to save its state, once per interval and at the end.
TEST_CASE("checkpoint saves: the training state, written by the servers at once, per interval",
          "[calendar][reference]") {
  const advisor::PerformanceConstants& k = advisor::builtin_catalog().performance;
  const advisor::Request full = test::parse(test::request("full_finetune", "llama-3.1-8b"));
  advisor::Layout one = test::layout(8, 3), four = test::layout(32, 3), ddp = test::layout(16, 0);
  one.gpus_per_server = four.gpus_per_server = ddp.gpus_per_server = 8;
  // Mixed-precision AdamW: bf16 weights 2 + fp32 master 4 + two fp32 states 8 = 14 bytes.
  const advisor::CheckpointWrites a = advisor::checkpoint_writes(full, 8e9, one, 3.2, k);
  CHECK(a.bytes == Approx(8e9 * 14));
  CHECK(a.each_s == Approx(8e9 * 14 / (k.checkpoint_write_gbyte_per_s * 1e9)));
  CHECK(a.count == std::ceil(3.2 / k.checkpoint_interval_hours));
  // Sharded states are written by every server at once; a replicated one by a single server.
  CHECK(advisor::checkpoint_writes(full, 8e9, four, 3.2, k).each_s == Approx(a.each_s / 4));
  CHECK(advisor::checkpoint_writes(full, 8e9, ddp, 3.2, k).each_s == Approx(a.each_s));
  // A run shorter than the interval still saves its result once.
  CHECK(advisor::checkpoint_writes(full, 8e9, one, 0.01, k).count == 1);
  // The saves are in the run's hours: a LoRA saves only its adapters (seconds), a full
  // fine-tune its whole state.
  const json lora_run = test::advise_json(test::request(
      "lora", "llama-3.1-8b", {{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 8}}}}));
  const json full_run = test::advise_json(test::request(
      "full_finetune", "llama-3.1-8b", {{"hardware", {{"gpu", "h100-sxm-80gb"}, {"count", 8}}}}));
  CHECK(lora_run["training"]["checkpoint_write_s"].get<double>() < 10);
  const double full_s = full_run["training"]["checkpoint_write_s"].get<double>();
  CHECK(full_s > 100);
  CHECK(full_run["training"]["hours"].get<double>() * 3600 >
        full_s + full_run["training"]["startup_s"].get<double>());
}

TEST_CASE("a rental bills whole units, at least one", "[calendar][reference]") {
  CHECK(advisor::billed_gpu_hours(70.0 / 60, 8, 1) == 16);  // 70 minutes on 8 GPUs
  CHECK(advisor::billed_gpu_hours(0.01, 64, 1) == 64);  // a minute and a half still pays an hour
  CHECK(advisor::billed_gpu_hours(3, 2, 1) == 6);       // exactly three hours: three
  CHECK(advisor::billed_gpu_hours(70.0 / 60, 8, 1.0 / 60) ==
        Approx(70.0 / 60 * 8));  // by the minute
}

TEST_CASE("a rented plan's cost is its billed hours, its hours include the start-up",
          "[calendar]") {
  // Rented by the hour (the fastest plan of all is a 16-GPU cluster offer billed by the
  // node-month).
  json request = lora(2e7, {{"objective", "fastest"}});
  request["hardware"] = {{"gpu", "h100-sxm-80gb"}, {"deployment", "rent"}};
  const json out = test::advise_json(request);
  const json& best = out["recommendation"]["best"];
  REQUIRE(best["deployment"] == "rent");
  const double hours = best["hours"].get<double>();
  const int gpus = best["gpus"].get<int>();
  // Seconds of training on many GPUs: the start-up is most of the run, and it bills an hour each.
  CHECK(hours * 3600 > 300);
  CHECK(best["cost"]["cny"].get<double>() ==
        Approx(std::ceil(hours) * gpus * best["cost"]["cny_per_gpu_hour"].get<double>()));
}

TEST_CASE("cheapest without a deadline is the cheapest within the task's calendar", "[calendar]") {
  const json a = test::advise_json(lora(2e7))["recommendation"];
  REQUIRE(a["calendar"].is_object());
  CHECK(a["calendar"]["hours"] == 72);
  CHECK(a["calendar"]["met"] == true);
  CHECK(a["best"]["hours"].get<double>() <= 72);
  CHECK(a["objective"] == "cheapest");
  const json pretrain = test::advise_json(
      test::request("pretrain", "qwen2.5-7b", {{"training", {{"tokens", 1e12}}}}));
  CHECK(pretrain["recommendation"]["calendar"]["hours"] == 720);
  CHECK(pretrain["recommendation"]["best"]["hours"].get<double>() <= 720);
  // A deadline, a budget or "fastest" state the bound themselves: no calendar.
  CHECK(test::advise_json(lora(2e7, {{"deadline_hours", 10}}))["recommendation"]["calendar"]
            .is_null());
  CHECK(test::advise_json(lora(2e7, {{"objective", "fastest"}}))["recommendation"]["calendar"]
            .is_null());
}

TEST_CASE("when no plan finishes within the calendar, the cheapest of all, said so", "[calendar]") {
  json prices = json::parse(test::data_file("prices.json"));
  prices["planning"]["calendar_hours_adapter"]["value"] =
      1;  // an hour: no 5e10-token LoRA makes it
  const json out = json::parse(
      advisor::advise_with_data_text(lora(5e10).dump(), json({{"prices", prices}}).dump()));
  INFO(out.dump().substr(0, 300));
  const json& r = out["recommendation"];
  REQUIRE(r["best"].is_object());
  CHECK(r["calendar"]["met"] == false);
  CHECK(r["best"]["hours"].get<double>() > 1);
  CHECK(r["no_plan"].is_null());
}
