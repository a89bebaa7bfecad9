// SPDX-License-Identifier: MIT
// Issue 12, item 4: properties that hold for every valid request, checked over thousands of
// random ones from a fixed seed (the same requests on every run and every machine):
//   - the memory breakdown sums to the total, within the band; lifetimes sum their years;
//   - more parameters never need less memory;
//   - more GPUs never need more memory per GPU under sharding (data or tensor parallel);
//   - a faster link never makes a slower step;
//   - the answer does not depend on the order of the GPU catalog (see the last test for what
//     the order is allowed to decide).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "api.hpp"
#include "engine/comm.hpp"
#include "engine/layout.hpp"
#include "engine/memory.hpp"
#include "engine/model.hpp"
#include "engine/training.hpp"
#include "helpers.hpp"
#include "types/errors.hpp"

namespace {

using nlohmann::json;

/// xorshift64*: the same sequence everywhere (std::*_distribution is not portable).
class Random {
 public:
  explicit Random(std::uint64_t seed) : s_(seed ? seed : 1) {}
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 2685821657736338717ULL;
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  std::uint64_t s_;
};

const advisor::Catalog& catalog() { return advisor::builtin_catalog(); }

std::vector<std::string> preset_ids() {
  std::vector<std::string> ids;
  for (const auto& m : catalog().models) ids.push_back(m.id);
  return ids;
}

std::vector<std::string> gpu_ids() {
  std::vector<std::string> ids;
  for (const auto& g : catalog().gpus) ids.push_back(g.id);
  return ids;
}

/// A custom architecture that satisfies every relation the reader checks.
json random_arch(Random& r) {
  const std::int64_t heads = r.pick(std::vector<std::int64_t>{8, 16, 32, 64});
  const std::int64_t head_dim = r.pick(std::vector<std::int64_t>{64, 128});
  json m = {{"layers", 2 + r.below(60)},
            {"hidden", heads * head_dim},
            {"ffn_hidden", heads * head_dim * (2 + r.below(3))},
            {"heads", heads},
            {"kv_heads", heads / r.pick(std::vector<std::int64_t>{1, 2, 4, 8})},
            {"head_dim", head_dim},
            {"vocab", 1000 + r.below(150000)}};
  if (r.chance(20)) {
    const std::int64_t experts = r.pick(std::vector<std::int64_t>{8, 16, 64});
    m["moe"] = {{"experts", experts},
                {"experts_per_token", 1 + r.below(4)},
                {"expert_ffn_hidden", 256 + r.below(2048)},
                {"dense_layers", r.below(2)}};
  }
  return m;
}

/// A random request of `task` (empty: any task).
json random_request(Random& r, std::string task = "") {
  static const std::vector<std::string> tasks = {"pretrain", "full_finetune", "lora", "qlora",
                                                 "inference"};
  if (task.empty()) task = r.pick(tasks);
  json q = {{"schema", 1}, {"task", task}};
  q["model"] = r.chance(70) ? json{{"preset", r.pick(preset_ids())}} : random_arch(r);
  if (task != "inference") {
    json t = json::object();
    if (r.chance(60)) t["sequence_length"] = r.pick(std::vector<int>{256, 1024, 2048, 4096, 8192});
    if (r.chance(40)) t["micro_batch_size"] = r.pick(std::vector<int>{1, 2, 4});
    if (r.chance(40))
      t["activation_checkpointing"] = r.pick(std::vector<std::string>{"none", "selective", "full"});
    if (r.chance(20))
      t["optimizer"] = r.pick(std::vector<std::string>{"adamw", "adamw_8bit", "sgd"});
    if (r.chance(20)) t["flash_attention"] = r.chance(50);
    if (r.chance(30)) t["tokens"] = r.pick(std::vector<double>{1e8, 1e9, 1e11});
    q["training"] = t;
    q["parallelism"] = {{"zero", r.below(4)}};
  } else {
    json inf = json::object();
    if (r.chance(40))
      inf["weight_format"] = r.pick(std::vector<std::string>{"bf16", "int8", "int4", "fp8"});
    if (r.chance(50)) inf["concurrency"] = r.pick(std::vector<int>{1, 8, 64});
    if (r.chance(40)) inf["prompt_tokens"] = r.pick(std::vector<int>{128, 2048, 8192});
    q["inference"] = inf;
  }
  if (r.chance(50))
    q["hardware"] = {{"gpu", r.pick(gpu_ids())},
                     {"count", r.pick(std::vector<int>{1, 2, 4, 8, 16})}};
  if (r.chance(30)) q["cost"] = {{"utilization", r.pick(std::vector<double>{0, 0.3, 0.7, 1})}};
  return q;
}

/// The request, or nullopt when the advisor refuses it (a random combination can be invalid).
std::optional<advisor::Request> parsed(const json& q) {
  try {
    return test::throwing([&] { return advisor::parse_request(test::value_of(q), catalog()); });
  } catch (const advisor::InputError&) {
    return std::nullopt;
  }
}

advisor::Layout layout(int count, int tp, int pp, int zero, int per_server = 8) {
  advisor::Layout L = test::layout(count, zero, tp, pp);
  L.gpus_per_server = per_server;
  return L;
}

bool tp_fits(const advisor::ModelArch& m, int tp) {
  return m.heads % tp == 0 && (m.kv_heads % tp == 0 || tp % m.kv_heads == 0);
}

}  // namespace

TEST_CASE("invariant: the breakdown sums to the total, inside the band, years sum to the lifetime",
          "[invariant]") {
  Random r(1201);
  int results = 0;
  for (int i = 0; i < 600; ++i) {
    const json q = random_request(r);
    const json out = json::parse(advisor::advise_text(q.dump()));
    INFO(q.dump());
    REQUIRE(out.is_object());
    if (out.contains("error")) {
      CHECK(out["error"]["code"] != "internal_error");
      continue;
    }
    ++results;
    const json& m = out["memory"];
    std::int64_t sum = 0;
    for (const auto& [term, bytes] : m["breakdown_bytes"].items()) sum += bytes.get<std::int64_t>();
    // Each term is rounded to whole bytes on its own: the sum is within one byte per term.
    CHECK(std::llabs(sum - m["per_gpu_bytes"].get<std::int64_t>()) <= 6);
    CHECK(m["band_bytes"]["low"].get<std::int64_t>() <= m["per_gpu_bytes"].get<std::int64_t>() + 6);
    CHECK(m["band_bytes"]["high"].get<std::int64_t>() >=
          m["per_gpu_bytes"].get<std::int64_t>() - 6);
    for (const json& o : out["options"]) {
      if (!o["min_count"].is_null() && o.contains("per_gpu_bytes_at_min"))
        CHECK(o["per_gpu_bytes_at_min"].get<double>() <= o["memory_bytes"].get<double>());
    }
    if (out.contains("cost") && out["cost"].is_object() && out["cost"].contains("options")) {
      for (const auto& [name, option] : out["cost"]["options"].items()) {
        if (!option.is_object() || !option.contains("yearly_cny")) continue;
        double years = 0;
        for (const json& y : option["yearly_cny"]) years += y.get<double>();
        const double lifetime = option["lifetime_cny"].get<double>();
        CHECK(years == Approx(lifetime).epsilon(1e-9).margin(1e-6));
        CHECK(option["cumulative_cny"].back().get<double>() ==
              Approx(lifetime).epsilon(1e-9).margin(1e-6));
      }
    }
  }
  CHECK(results > 300);
}

TEST_CASE("invariant: more parameters never need less memory", "[invariant]") {
  Random r(1202);
  int checked = 0;
  for (int i = 0; i < 1500; ++i) {
    json q = random_request(r, r.chance(50) ? "inference" : "full_finetune");
    q["model"] = random_arch(r);
    const auto base = parsed(q);
    if (!base) continue;
    // Grow one size by a step that keeps the architecture valid.
    json bigger = q;
    switch (r.below(4)) {
      case 0:
        bigger["model"]["layers"] = q["model"]["layers"].get<int>() + 1 + r.below(8);
        break;
      case 1:
        bigger["model"]["ffn_hidden"] =
            q["model"]["ffn_hidden"].get<int>() + 64 * (1 + r.below(32));
        break;
      case 2:
        bigger["model"]["vocab"] = q["model"]["vocab"].get<int>() + 1 + r.below(50000);
        break;
      default:
        bigger["model"]["head_dim"] = q["model"]["head_dim"].get<int>() * 2;
        bigger["model"]["hidden"] = q["model"]["hidden"].get<int>() * 2;
    }
    const auto grown = parsed(bigger);
    if (!grown) continue;
    // (A dense MLP that no layer uses, with every layer MoE, keeps the count.)
    REQUIRE(advisor::count_params(grown->model).total >= advisor::count_params(base->model).total);
    const int tp = tp_fits(base->model, 2) && tp_fits(grown->model, 2) && r.chance(50) ? 2 : 1;
    const advisor::Layout L =
        layout(tp * (1 + static_cast<int>(r.below(4))), tp, 1,
               base->task == advisor::Task::kInference ? 0 : base->parallelism.zero);
    const auto& a = catalog().memory;
    INFO(q.dump() << " -> " << bigger.dump());
    CHECK(advisor::estimate_memory(*grown, L, a, false).total() >=
          advisor::estimate_memory(*base, L, a, false).total());
    ++checked;
  }
  CHECK(checked > 1000);
}

TEST_CASE("invariant: more GPUs never need more memory per GPU under sharding", "[invariant]") {
  Random r(1203);
  int checked = 0;
  const auto& a = catalog().memory;
  for (int i = 0; i < 1500; ++i) {
    const auto req = parsed(random_request(r));
    if (!req) continue;
    const bool training = req->task != advisor::Task::kInference;
    const int zero = training ? req->parallelism.zero : 0;
    INFO(i);
    // Data parallel from 2 GPUs up (one GPU has no communication buffers to add).
    int tp = 1;
    for (int t : {8, 4, 2})
      if (tp == 1 && tp_fits(req->model, t) && r.chance(30)) tp = t;
    double previous = -1;
    for (int dp = 2; dp <= 64; dp *= 2) {
      const double bytes =
          advisor::estimate_memory(*req, layout(dp * tp, tp, 1, zero), a, false).total();
      if (previous >= 0) CHECK(bytes <= previous * (1 + 1e-12));
      previous = bytes;
    }
    // Tensor parallel at a fixed data-parallel size.
    previous = -1;
    for (int t = 1; t <= 8; t *= 2) {
      if (!tp_fits(req->model, t)) break;
      const double bytes =
          advisor::estimate_memory(*req, layout(2 * t, t, 1, zero), a, false).total();
      if (previous >= 0) CHECK(bytes <= previous * (1 + 1e-12));
      previous = bytes;
    }
    ++checked;
  }
  CHECK(checked > 1000);
}

TEST_CASE("invariant: a faster link never makes a slower step", "[invariant]") {
  Random r(1204);
  int checked = 0;
  const auto& k = catalog().performance;
  for (int i = 0; i < 1500; ++i) {
    json q =
        random_request(r, r.pick(std::vector<std::string>{"pretrain", "full_finetune", "lora"}));
    const double rate = r.pick(std::vector<double>{1, 25, 100, 200, 400});
    q["cluster"] = {{"inter_node_gbit_per_s_per_gpu", rate}};
    const auto slow = parsed(q);
    q["cluster"]["inter_node_gbit_per_s_per_gpu"] = rate * (2 + r.below(4));
    const auto fast = parsed(q);
    if (!slow || !fast) continue;
    const advisor::GpuSpec& gpu = catalog().gpus[r.below(catalog().gpus.size())];
    const int per_server = 8;
    const int count = r.pick(std::vector<int>{8, 16, 32, 64});
    int tp = 1;
    for (int t : {8, 4, 2})
      if (tp == 1 && tp_fits(slow->model, t) && r.chance(30)) tp = t;
    const advisor::Layout L = layout(count, tp, 1, slow->parallelism.zero, per_server);
    const advisor::TrainingPerf a = advisor::estimate_training(
        *slow, gpu, L, advisor::make_fabric(gpu, slow->cluster, k, per_server), k);
    const advisor::TrainingPerf b = advisor::estimate_training(
        *fast, gpu, L, advisor::make_fabric(gpu, fast->cluster, k, per_server), k);
    if (!a.available) continue;
    INFO(q.dump() << " on " << gpu.id << " x" << count << " tp " << tp);
    CHECK(b.step_time_s <= a.step_time_s * (1 + 1e-12));
    // A faster scale-up link inside the server, likewise.
    if (gpu.scale_up_link.bidirectional_gbps) {
      advisor::GpuSpec faster = gpu;
      faster.scale_up_link.bidirectional_gbps = *gpu.scale_up_link.bidirectional_gbps * 2;
      const advisor::TrainingPerf c = advisor::estimate_training(
          *slow, faster, L, advisor::make_fabric(faster, slow->cluster, k, per_server), k);
      CHECK(c.step_time_s <= a.step_time_s * (1 + 1e-12));
    }
    ++checked;
  }
  CHECK(checked > 1000);
}

TEST_CASE("invariant: the answer does not depend on the order of the GPU catalog", "[invariant]") {
  Random r(1205);
  json gpus = json::parse(test::data_file("gpus.json"));
  std::vector<json> list(gpus["gpus"].begin(), gpus["gpus"].end());
  for (std::size_t i = list.size() - 1; i > 0; --i) std::swap(list[i], list[r.below(i + 1)]);
  gpus["gpus"] = list;
  advisor::CatalogTexts shuffled;
  shuffled.gpus = gpus.dump();
  // Lists in catalog order are compared as sets (sorted by GPU).
  auto by_gpu = [](json& list) {
    if (!list.is_array()) return;
    std::vector<json> items(list.begin(), list.end());
    std::stable_sort(items.begin(), items.end(),
                     [](const json& a, const json& b) { return a["gpu"] < b["gpu"]; });
    list = items;
  };
  // What the catalog's order legitimately decides is left out (reported in issue 12's notes):
  // without pinned hardware, the GPU whose speed and cost figures are shown (the first fitting
  // option, or the first of equally cheap ones); the recommendation ranks costs within 2% as
  // equal, so its runners-up follow the scan order.
  auto canonical = [&](json out, bool pinned) {
    if (out.contains("options")) by_gpu(out["options"]);
    out.erase("recommendation");
    if (!pinned) {
      for (const char* section : {"training", "inference", "interconnect", "power", "cost",
                                  "resolved_inputs", "warnings"})
        out.erase(section);
    }
    return out;
  };
  int compared = 0;
  for (int i = 0; i < 150; ++i) {
    const json q = random_request(r);
    const bool pinned = q.contains("hardware");
    const json a = canonical(json::parse(advisor::advise_text(q.dump())), pinned);
    const json b =
        canonical(json::parse(advisor::advise_with_catalog_text(q.dump(), shuffled)), pinned);
    INFO(q.dump());
    INFO(json::diff(a, b).dump().substr(0, 1500));
    CHECK(a == b);
    ++compared;
  }
  CHECK(compared == 150);
}
