// SPDX-License-Identifier: MIT
// Serving at its load (engine/serving_load): users in request loops under continuous batching
// with chunked prefill. The approximation's reference points (one user on an idle replica is the
// plain prefill and decode; more users, longer prompts and no prefix cache only slow each user),
// and realistic loads: 50, 200 and 500 users with long prompts, sized for per-user speed and
// first-token targets, with one cost per million tokens per plan.
#include <catch2/catch.hpp>

#include "api.hpp"
#include "engine/comm.hpp"
#include "engine/layout.hpp"
#include "engine/serving.hpp"
#include "engine/serving_load.hpp"
#include "helpers.hpp"

namespace {

using nlohmann::json;

struct Replica {
  advisor::Request request;
  const advisor::GpuSpec* gpu;
  advisor::Layout layout;
  advisor::Fabric fabric;
};

/// One replica of `preset` on `count` GPUs with tensor parallelism over them.
Replica replica(const std::string& preset, const std::string& gpu, int count,
                const json& inference) {
  const advisor::Catalog& c = advisor::builtin_catalog();
  json j = test::request("inference", preset, {{"inference", inference}});
  Replica r{test::parse(j), c.find_gpu(gpu), test::layout(count, 0, count), {}};
  r.fabric = advisor::make_fabric(*r.gpu, r.request.cluster, c.performance, 8);
  return r;
}

advisor::ServingAtLoad at(const Replica& r, std::int64_t users) {
  const advisor::ServingModel m(r.request, *r.gpu, r.layout, r.fabric,
                                advisor::builtin_catalog().performance);
  return advisor::serving_at_load(m, r.request, *r.gpu, users);
}

json serve(int users, int prompt, int output, const json& extra = json::object()) {
  json inference = {{"prompt_tokens", prompt},
                    {"output_tokens", output},
                    {"target_users", users},
                    {"target_tokens_per_second_per_user", 20}};
  inference.merge_patch(extra);
  return test::request("inference", "llama-3.1-8b", {{"inference", inference}});
}

}  // namespace

TEST_CASE("one user on an idle replica: the plain prefill, then about the idle decode speed",
          "[serving][load]") {
  const Replica r = replica("llama-3.1-8b", "h100-sxm-80gb", 1,
                            {{"prompt_tokens", 1500}, {"output_tokens", 300}});
  const advisor::ServingModel m(r.request, *r.gpu, r.layout, r.fabric,
                                advisor::builtin_catalog().performance);
  const advisor::ServingAtLoad one = advisor::serving_at_load(m, r.request, *r.gpu, 1);
  CHECK(one.time_to_first_token_s == Approx(m.prefill_s(1, 1500)));
  CHECK(one.time_to_first_token_p90_s == Approx(one.time_to_first_token_s));
  // Its own prompt's 1,500 tokens are spread over the cycle: the stream is about an idle decode
  // step (its share of a step in flight is O/(O + 1) of one, hence the 1%).
  const double idle = 1 / m.decode(1, advisor::mean_decode_context(r.request)).step_s;
  CHECK(one.per_user_tokens_per_second <= idle * 1.01);
  CHECK(one.per_user_tokens_per_second > 0.8 * idle);
}

TEST_CASE("more users, longer prompts and no prefix cache only slow each user", "[serving][load]") {
  const Replica r = replica("llama-3.1-8b", "h100-sxm-80gb", 1,
                            {{"prompt_tokens", 1500}, {"output_tokens", 300}});
  double last_tps = 1e9, last_ttft = 0;
  for (std::int64_t users : {1, 8, 32, 64, 128, 200}) {
    const advisor::ServingAtLoad l = at(r, users);
    INFO(users << " users: " << l.per_user_tokens_per_second << " tok/s, TTFT "
               << l.time_to_first_token_s);
    CHECK(l.per_user_tokens_per_second <= last_tps);
    CHECK(l.time_to_first_token_s >= last_ttft * 0.999);
    CHECK(l.time_to_first_token_p90_s >= l.time_to_first_token_s);
    CHECK(l.output_tokens_per_second == Approx(l.per_user_output_tokens_per_second * users));
    last_tps = l.per_user_tokens_per_second;
    last_ttft = l.time_to_first_token_s;
  }
  // 200 users with 1,500-token prompts: most of what a step computes is prompt (the issue's
  // ~300 TFLOP/s of prefill), and each user streams far slower than alone.
  const advisor::ServingAtLoad busy = at(r, 200);
  CHECK(busy.prefill_share > 0.7);
  CHECK(busy.per_user_tokens_per_second < 0.5 * at(r, 1).per_user_tokens_per_second);
  const Replica cached =
      replica("llama-3.1-8b", "h100-sxm-80gb", 1,
              {{"prompt_tokens", 1500}, {"output_tokens", 300}, {"prefix_cache_share", 0.8}});
  CHECK(at(cached, 200).per_user_tokens_per_second > busy.per_user_tokens_per_second);
  CHECK(at(cached, 200).prompt_tokens_prefilled == Approx(300));
}

TEST_CASE("the engine's step budget and the Poisson quantile", "[serving][load][reference]") {
  const advisor::Catalog& c = advisor::builtin_catalog();
  const advisor::Request vllm = test::parse(test::request("inference", "llama-3.1-8b"));
  CHECK(advisor::step_token_budget(vllm.stack, *c.find_gpu("h100-sxm-80gb")) ==
        8192);  // vLLM >= 70 GB
  CHECK(advisor::step_token_budget(vllm.stack, *c.find_gpu("rtx4090-24gb")) == 2048);
  CHECK(advisor::poisson_quantile(0, 0.9) == 0);
  CHECK(advisor::poisson_quantile(1, 0.5) == 1);  // P(0) = 0.368, P(<= 1) = 0.736
  CHECK(advisor::poisson_quantile(1, 0.9) == 2);  // P(<= 2) = 0.920
  CHECK(advisor::poisson_quantile(100, 0.5) == 100);
}

TEST_CASE("50, 200 and 500 users with long prompts: every user gets the target at the load",
          "[serving][load]") {
  for (int users : {50, 200, 500}) {
    const json out = test::advise_json(serve(users, 1500, 300));
    const json& best = out["recommendation"]["best"];
    INFO(users << " users: " << best.dump().substr(0, 600));
    CHECK(best["users"] == users);
    CHECK(best["per_user_tokens_per_second"].get<double>() >= 20);
    CHECK(best["time_to_first_token_p90_s"].get<double>() >=
          best["time_to_first_token_s"].get<double>());
    // One cost per million tokens: the month's cost over the month's output at the load.
    const double month_tokens = best["output_tokens_per_second"].get<double>() * 3600 * 730;
    CHECK(best["cost"]["per_million_tokens_cny"].get<double>() ==
          Approx(best["cost"]["cny"].get<double>() / month_tokens * 1e6).epsilon(0.01));
  }
}

TEST_CASE("a first-token target sizes the fleet too", "[serving][load]") {
  const json pinned = {{"hardware", {{"gpu", "l40s-48gb"}, {"count", 1}}}};
  json loose = serve(200, 4000, 300);
  loose.merge_patch(pinned);
  json tight = loose;
  tight["inference"]["target_time_to_first_token_s"] = 0.5;
  const json a = test::advise_json(loose)["inference"], b = test::advise_json(tight)["inference"];
  INFO(a["at_load"].dump() << "\n" << b["at_load"].dump());
  CHECK(b["at_load"]["time_to_first_token_p90_s"].get<double>() <= 0.5);
  CHECK(b["users_per_replica"].get<int>() <= a["users_per_replica"].get<int>());
  CHECK(b["replicas"].get<int>() >= a["replicas"].get<int>());
  // Refused where the fields say why.
  json orphan = test::request("inference", "llama-3.1-8b",
                              {{"inference", {{"target_time_to_first_token_s", 1}}}});
  CHECK(json::parse(advisor::advise_text(orphan.dump()))["error"]["path"] ==
        "/inference/target_users");
  json all_cached = serve(10, 1000, 100, {{"prefix_cache_share", 1}});
  CHECK(json::parse(advisor::advise_text(all_cached.dump()))["error"]["path"] ==
        "/inference/prefix_cache_share");
}

TEST_CASE("a MoE is served with expert parallelism where that needs fewer replicas",
          "[serving][load][moe]") {
  // 200 users of Qwen3-30B-A3B on PCIe L40S: attention data-parallel and the 128 experts split
  // over one server's 8 GPUs serve them all in one replica; tensor parallelism needs two.
  json job = test::request("inference", "qwen3-30b-a3b",
                           {{"inference",
                             {{"prompt_tokens", 1500},
                              {"output_tokens", 500},
                              {"target_users", 200},
                              {"target_tokens_per_second_per_user", 20}}},
                            {"hardware", {{"gpu", "l40s-48gb"}, {"count", 8}}}});
  const json out = test::advise_json(job);
  const json& L = out["memory"]["layout"];
  CHECK(L["ep"] == 8);
  CHECK(L["dp"] == 8);
  CHECK(L["tp"] == 1);
  bool said = false;
  for (const json& n : out["inference"]["assumption_notes"])
    said = said || n["code"] == "serving_expert_parallel";
  CHECK(said);
  const json& at = out["inference"]["at_load"];
  CHECK(at["per_user_tokens_per_second"].get<double>() >= 20);

  // Each GPU keeps only its own sequences' KV cache: the replica holds more sequences than the
  // same GPUs with tensor parallelism, which replicate nothing but split every head.
  const advisor::Catalog& c = advisor::builtin_catalog();
  const advisor::Request req = test::parse(job);
  const advisor::GpuSpec& gpu = *c.find_gpu("l40s-48gb");
  const std::optional<advisor::Layout> ep = advisor::expert_parallel_serving_layout(req, 8, 8);
  const std::optional<advisor::Layout> tp = advisor::layout_for_count(req, 8, 8);
  REQUIRE(ep);
  REQUIRE(tp);
  const advisor::Fabric f = advisor::make_fabric(gpu, req.cluster, c.performance, 8);
  auto max_sequences = [&](const advisor::Layout& l) {
    const advisor::MemoryEstimate e = advisor::estimate_memory(req, l, c.memory, false);
    return advisor::estimate_inference(req, gpu, l, e, f, c.performance, c.memory).max_concurrency;
  };
  CHECK(max_sequences(*ep) > max_sequences(*tp));

  // A stated tensor-parallel size, a dense model or a stack without expert parallelism: none.
  json pinned = job;
  pinned["parallelism"]["tp"] = 8;
  CHECK_FALSE(advisor::expert_parallel_serving_layout(test::parse(pinned), 8, 8));
  json dense = job;
  dense["model"]["preset"] = "qwen2.5-32b";
  CHECK_FALSE(advisor::expert_parallel_serving_layout(test::parse(dense), 8, 8));
  json llama_cpp = job;
  llama_cpp["stack"] = "llama_cpp";
  CHECK_FALSE(advisor::expert_parallel_serving_layout(test::parse(llama_cpp), 8, 8));
}
