// SPDX-License-Identifier: MIT
// Plans that fit with room, with the knobs practitioners turn (issue 25 item 4): a training
// plan is chosen within planning_room_fraction of the card (and the top of its error band on
// the card) when any count or layout allows it; where the request leaves activation
// checkpointing to the advisor, a GPU gets full checkpointing when that is what gives the job
// room (a 7B LoRA on one 24 GB card); a plan without room says so on the recommendation.
#include <catch2/catch.hpp>

#include "api.hpp"
#include "helpers.hpp"

namespace {

using nlohmann::json;

double room_fraction() { return advisor::builtin_catalog().memory.planning_room_fraction; }

bool has_warning(const json& warnings, const char* code) {
  for (const json& w : warnings)
    if (w["code"] == code) return true;
  return false;
}

/// The memory of a plan the recommendation shows: within room, or its warning says why not.
void check_room(const json& plan, const json& result) {
  const double card = [&] {
    for (const json& o : result["options"])
      if (o["gpu"] == plan["gpu"]) return o["memory_bytes"].get<double>();
    return 0.0;
  }();
  REQUIRE(card > 0);
  const double share = plan["per_gpu_bytes"].get<double>() / card;
  INFO(plan["gpus"] << "x " << plan["gpu"] << " at " << share);
  if (share > room_fraction())
    CHECK((has_warning(plan["warnings"], "near_memory_limit") ||
           has_warning(plan["warnings"], "tight_fit")));
}

}  // namespace

TEST_CASE("a 7B LoRA on one 24 GB card runs with checkpointing the advisor turns on",
          "[room][checkpointing]") {
  const json pinned =
      test::request("lora", "qwen2.5-7b", {{"hardware", {{"gpu", "rtx4090-24gb"}, {"count", 1}}}});
  const json out = test::advise_json(pinned);
  CHECK(out["memory"]["fits"] == true);
  CHECK(out["memory"]["per_gpu_bytes"].get<double>() <=
        room_fraction() * out["memory"]["gpu_memory_bytes"].get<double>());
  CHECK(out["resolved_inputs"]["/training/activation_checkpointing"] == "full");
  bool said = false;
  for (const json& n : out["training"]["assumption_notes"])
    said = said || n["code"] == "checkpointing_chosen";
  CHECK(said);
  // Stated, the request is the user's: no checkpointing, no fit, said so.
  json none = pinned;
  none["training"]["activation_checkpointing"] = "none";
  const json plain = test::advise_json(none);
  CHECK(plain["memory"]["fits"] == false);
  CHECK(has_warning(plain["warnings"], "does_not_fit"));
}

TEST_CASE("the search offers a 24 GB card with checkpointing where it needs fewer GPUs",
          "[room][checkpointing]") {
  // Only 24 GB cards to choose from: one card with checkpointing beats two without on cost.
  json gpus = json::parse(test::data_file("gpus.json"));
  json kept = json::array();
  for (const json& g : gpus["gpus"])
    if (g["id"] == "rtx4090-24gb") kept.push_back(g);
  gpus["gpus"] = kept;
  const json request = test::request("lora", "qwen2.5-7b");
  const json out =
      json::parse(advisor::advise_with_data_text(request.dump(), json({{"gpus", gpus}}).dump()));
  INFO(out.dump().substr(0, 400));
  REQUIRE_FALSE(out.contains("error"));
  const json& best = out["recommendation"]["best"];
  REQUIRE(best.is_object());
  CHECK(best["gpus"] == 1);
  CHECK(best["full_checkpointing"] == true);
  CHECK(best["reasons"][0]["code"] == "fits_per_gpu_checkpointed");
  check_room(best, out);
  // The options table judges the card as the search runs it: one GPU, with checkpointing.
  const json& row = out["options"][0];
  CHECK(row["min_count"] == 1);
  CHECK(row["full_checkpointing"] == true);
  CHECK(row["per_gpu_bytes_at_min"] == best["per_gpu_bytes"]);
  CHECK(row["training"]["hours"].get<double>() == Approx(best["hours"].get<double>()));
  // Pinned back, the same plan and figures.
  json again = request;
  again["hardware"] = {{"gpu", best["gpu"]}, {"count", best["gpus"]}};
  const json pinned =
      json::parse(advisor::advise_with_data_text(again.dump(), json({{"gpus", gpus}}).dump()));
  REQUIRE_FALSE(pinned.contains("error"));
  CHECK(pinned["training"]["hours"].get<double>() == Approx(best["hours"].get<double>()));
  CHECK(pinned["memory"]["per_gpu_bytes"] == best["per_gpu_bytes"]);
}

TEST_CASE("full fine-tunes of 14B and 32B are recommended with room", "[room]") {
  for (const char* preset : {"qwen2.5-14b", "qwen2.5-32b"}) {
    const json out = test::advise_json(test::request("full_finetune", preset));
    const json& r = out["recommendation"];
    REQUIRE(r["best"].is_object());
    const json& best = r["best"];
    INFO(preset << ": " << best["gpus"] << "x " << best["gpu"]);
    CHECK_FALSE(has_warning(best["warnings"], "tight_fit"));
    CHECK_FALSE(has_warning(best["warnings"], "near_memory_limit"));
    check_room(best, out);
    for (const json& u : r["runners_up"]) check_room(u["plan"], out);
  }
}

TEST_CASE("a plan above the room share says so, pinned and recommended", "[room]") {
  // Llama 3.1 8B full fine-tune on one H200 with checkpointing stated: 16 bytes per parameter
  // of state (~120 GiB) and 4096-token activations: ~93% of the card, the band still on it.
  json request = test::request(
      "full_finetune", "llama-3.1-8b",
      {{"training", {{"activation_checkpointing", "full"}, {"sequence_length", 4096}}},
       {"hardware", {{"gpu", "h200-sxm-141gb"}, {"count", 1}}}});
  const json pinned = test::advise_json(request);
  const double share = pinned["memory"]["per_gpu_bytes"].get<double>() /
                       pinned["memory"]["gpu_memory_bytes"].get<double>();
  REQUIRE(share > room_fraction());
  REQUIRE(pinned["memory"]["band_bytes"]["high"].get<double>() <=
          pinned["memory"]["gpu_memory_bytes"].get<double>());
  CHECK(has_warning(pinned["warnings"], "near_memory_limit"));
  // Only H200s to choose from: two cards have room, so the search never recommends one.
  request.erase("hardware");
  request["goal"] = {{"china_only", false}};  // H200s are bought abroad or rented
  json gpus = json::parse(test::data_file("gpus.json"));
  json kept = json::array();
  for (const json& g : gpus["gpus"])
    if (g["id"] == "h200-sxm-141gb") kept.push_back(g);
  gpus["gpus"] = kept;
  const json out =
      json::parse(advisor::advise_with_data_text(request.dump(), json({{"gpus", gpus}}).dump()));
  REQUIRE_FALSE(out.contains("error"));
  const json& best = out["recommendation"]["best"];
  REQUIRE(best.is_object());
  CHECK(best["gpus"].get<int>() >= 2);
  CHECK_FALSE(has_warning(best["warnings"], "near_memory_limit"));
  // Out of range: a located error, not a clamp.
  json assumptions = json::parse(test::data_file("assumptions.json"));
  assumptions["memory"]["planning_room_fraction"]["value"] = 1.5;
  const json bad = json::parse(
      advisor::advise_with_data_text(request.dump(), json({{"assumptions", assumptions}}).dump()));
  REQUIRE(bad.contains("error"));
  CHECK(bad["error"]["path"].get<std::string>().find("planning_room_fraction") !=
        std::string::npos);
}

TEST_CASE("a stated micro-batch above one is offered as a lever, never lowered silently",
          "[room][levers]") {
  auto lever = [](const json& out, const char* name) -> const json* {
    for (const json& l : out["recommendation"]["levers"])
      if (l["lever"] == name) return &l;
    return nullptr;
  };
  // Selective recompute keeps the micro-batch's activations in play: the lever finds cards.
  json job = test::request("full_finetune", "llama-3.1-8b",
                           {{"training",
                             {{"micro_batch_size", 2},
                              {"sequence_length", 8192},
                              {"activation_checkpointing", "selective"}}},
                            {"hardware", {{"gpu", "l40s-48gb"}, {"count", 2}}}});
  const json with = test::advise_json(job);
  const json* l = lever(with, "micro_batch_1");
  REQUIRE(l != nullptr);
  CHECK((*l)["path"] == "/training/micro_batch_size");
  CHECK((*l)["value"] == "1");
  CHECK((*l)["trade_off"] == "smaller_gemms");
  // At the default of one sequence there is nothing to lower.
  job["training"].erase("micro_batch_size");
  CHECK(lever(test::advise_json(job), "micro_batch_1") == nullptr);
}
