// SPDX-License-Identifier: MIT
#include "engine/layout.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

#include "engine/comm.hpp"
#include "engine/cost_scenario.hpp"
#include "engine/training.hpp"
#include "types/checked.hpp"

namespace advisor {

namespace {
// Tensor parallelism stays inside one 8-GPU server: across servers its per-layer all-reduces
// would run over the much slower scale-out network (Narayanan et al. 2021, sec. 3.3).
constexpr int kMaxAutoTensorParallel = 8;
// Pipeline depths tried automatically for training (powers of two, as Megatron users pick).
constexpr int kAutoPipelineStages[] = {1, 2, 4, 8, 16, 32, 64};
constexpr int kAutoTensorParallel[] = {1, 2, 4, 8};
// Expert-parallel sizes tried for MoE training when the request leaves /parallelism/ep open:
// powers of two that divide the experts and the data-parallel group, up to DeepSeek-V3's 64
// (its report: EP 64 across 8 servers; Megatron-LM's MoE recipes use 8-64).
constexpr int kAutoExpertParallel[] = {1, 2, 4, 8, 16, 32, 64};

/// A few expert-parallel sizes held inline: asked for at every count of every search (a heap
/// list here was a third of a fine-tune's allocations).
struct ExpertParallelSizes {
  int sizes[std::size(kAutoExpertParallel)] = {};
  std::size_t n = 0;
  const int* begin() const { return sizes; }
  const int* end() const { return sizes + n; }
  std::size_t size() const { return n; }
};

/// The expert-parallel sizes the search tries: the request's when stated (or for a dense model,
/// serving, or a stack without expert parallelism), else each of kAutoExpertParallel dividing
/// the experts (make_layout checks the data-parallel group).
ExpertParallelSizes expert_parallel_sizes(const Request& req) {
  const ModelArch& m = req.model;
  ExpertParallelSizes out;
  if (req.parallelism.ep_pinned || !is_training(req.task) || !m.moe || m.moe->experts < 2 ||
      !req.stack.expert_parallel) {
    out.sizes[out.n++] = req.parallelism.ep;
    return out;
  }
  for (int ep : kAutoExpertParallel)
    if (ep <= m.moe->experts && m.moe->experts % ep == 0) out.sizes[out.n++] = ep;
  return out;
}

bool tp_valid(const ModelArch& m, int tp) {
  return m.heads % tp == 0 && (m.kv_heads % tp == 0 || tp % m.kv_heads == 0);
}

/// Completes and checks a layout; nullopt when the split is impossible for the model.
std::optional<Layout> make_layout(const Request& req, int count, int gpus_per_server, int tp,
                                  int pp, int ep) {
  const ModelArch& m = req.model;
  // Context parallelism is the request's (parse_request allows it for training only).
  const int cp = is_training(req.task) ? req.parallelism.cp : 1;
  if (tp < 1 || pp < 1 || count % (tp * pp * cp) != 0) return std::nullopt;
  if (!tp_valid(m, tp) || pp > m.layers) return std::nullopt;
  if (pp > 1 && m.encoder_decoder()) return std::nullopt;  // modelled on one stage
  // A stack that refuses ZeRO-2/3 with pipelines (DeepSpeed) gets no pipeline under them.
  if (pp > 1 && is_training(req.task) && req.parallelism.zero > req.stack.max_zero_with_pp)
    return std::nullopt;
  Layout L;
  L.count = count;
  L.tp = tp;
  L.pp = pp;
  L.cp = cp;
  L.dp = count / (tp * pp * cp);
  L.zero = is_training(req.task) ? req.parallelism.zero : 0;
  L.ep = ep;
  L.gpus_per_server = gpus_per_server;
  // Megatron forms the expert-parallel groups from the data- and context-parallel ranks.
  if (L.ep > 1 && L.shard_ranks() % L.ep != 0) return std::nullopt;
  // A stated hybrid-sharding group must divide dp x cp (parse_request checks a given count;
  // a searched count whose dp x cp it does not divide is no candidate, like cp).
  if (is_training(req.task) && req.parallelism.shard_group > 0) {
    if (L.shard_ranks() % req.parallelism.shard_group != 0) return std::nullopt;
    L.shard_group = req.parallelism.shard_group;
  }
  return L;
}

/// Gives `take` each candidate layout of `count` GPUs in candidate_layouts()'s order, until
/// `take` returns false; returns how many it was given.
template <typename Take>
int for_each_candidate_layout(const Request& req, int count, int gpus_per_server, Take take) {
  const Parallelism& p = req.parallelism;
  int given = 0;
  bool stopped = false;
  const ExpertParallelSizes eps = expert_parallel_sizes(req);
  // Each split without expert parallelism first, then with more of it.
  auto add = [&](int tp, int pp) {
    for (int ep : eps) {
      if (stopped) return;
      if (auto L = make_layout(req, count, gpus_per_server, tp, pp, ep)) {
        ++given;
        stopped = !take(*L);
      }
    }
  };
  if (p.tp_pinned && p.pp_pinned) {
    add(p.tp, p.pp);
  } else if (!is_training(req.task)) {
    // Serving: one model replica over all the GPUs, the largest valid tensor-parallel size
    // inside a server, pipeline stages across servers.
    if (p.tp_pinned) {
      if (count % p.tp == 0) add(p.tp, count / p.tp);
    } else if (p.pp_pinned) {
      if (count % p.pp == 0) add(count / p.pp, p.pp);
    } else {
      for (int tp = std::min(count, kMaxAutoTensorParallel); tp >= 1 && given == 0; --tp) {
        if (count % tp == 0) add(tp, count / tp);
      }
    }
  } else {
    // Training: data parallel first; tensor parallel (with sequence parallelism it also
    // shards activations) inside a server; then pipeline stages.
    for (int pp : kAutoPipelineStages) {
      if (p.pp_pinned && pp != p.pp) continue;
      for (int tp : kAutoTensorParallel) {
        if (p.tp_pinned && tp != p.tp) continue;
        add(tp, pp);
      }
    }
    if (p.tp_pinned && !p.pp_pinned && given == 0) add(p.tp, 1);
    if (p.pp_pinned && !p.tp_pinned && given == 0) add(1, p.pp);
  }
  return given;
}

/// Whether `count` GPUs have any candidate layout (stops at the first: candidate_counts() asks
/// for every count up to the search limit).
bool has_candidate_layout(const Request& req, int count, int gpus_per_server) {
  return for_each_candidate_layout(req, count, gpus_per_server,
                                   [](const Layout&) { return false; }) > 0;
}

/// GPU counts a buyer would actually order: 1, 2, 4, then whole servers.
std::vector<int> candidate_counts(const Request& req, int max_count, int gpus_per_server) {
  std::vector<int> valid;
  // Unpinned training always admits pure data parallel (unless EP must divide it).
  const bool any_count = is_training(req.task) && !req.parallelism.tp_pinned &&
                         !req.parallelism.pp_pinned && req.parallelism.ep == 1 &&
                         req.parallelism.cp == 1 && req.parallelism.shard_group == 0;
  auto consider = [&](int n) {
    if (n <= max_count && (any_count || has_candidate_layout(req, n, gpus_per_server)))
      valid.push_back(n);
  };
  for (int n : {1, 2, 4})
    if (n < gpus_per_server) consider(n);
  for (int n = gpus_per_server; n <= max_count; n += gpus_per_server) consider(n);
  return valid;
}

/// Room for every candidate of a count at once: each training split (a search lists ~100
/// counts' candidates per advise()); serving has one at most.
std::size_t candidate_room(const Request& req) {
  return is_training(req.task) ? std::size(kAutoPipelineStages) * std::size(kAutoTensorParallel) *
                                     expert_parallel_sizes(req).size()
                               : 1;
}

}  // namespace

std::vector<Layout> candidate_layouts(const Request& req, int count, int gpus_per_server) {
  std::vector<Layout> out;
  out.reserve(candidate_room(req));
  for_each_candidate_layout(req, count, gpus_per_server, [&](const Layout& L) {
    out.push_back(L);
    return true;
  });
  return out;
}

std::optional<Layout> layout_for_count(const Request& req, int count, int gpus_per_server) {
  const std::vector<Layout> layouts = candidate_layouts(req, count, gpus_per_server);
  if (layouts.empty()) return std::nullopt;
  return layouts.front();
}

std::optional<Layout> expert_parallel_serving_layout(const Request& req, int count,
                                                     int gpus_per_server) {
  const ModelArch& m = req.model;
  const Parallelism& p = req.parallelism;
  if (req.task != Task::kInference || !m.moe || !req.stack.expert_parallel || count < 2 ||
      count > gpus_per_server || m.moe->experts % count != 0 || p.tp_pinned || p.pp_pinned ||
      p.ep_pinned)
    return std::nullopt;
  return make_layout(req, count, gpus_per_server, 1, 1, count);
}

bool fits(const MemoryEstimate& e, const GpuSpec& gpu) { return e.total() <= gpu.memory_bytes(); }

bool roomy(const Request& req, const MemoryEstimate& e, const GpuSpec& gpu,
           const MemoryAssumptions& a) {
  if (!is_training(req.task)) return fits(e, gpu);
  return e.total() <= a.planning_room_fraction * gpu.memory_bytes() &&
         e.band_high <= gpu.memory_bytes();
}

std::vector<LayoutTable::Sized>& LayoutTable::sized(int count, int gpus_per_server) {
  auto [it, added] = by_count_and_server_.try_emplace({count, gpus_per_server});
  if (added) {
    std::vector<Sized>& out = it->second;
    out.reserve(candidate_room(request_));
    for_each_candidate_layout(request_, count, gpus_per_server, [&](const Layout& L) {
      out.push_back({L, std::nullopt});
      return true;
    });
  }
  return it->second;
}

const MemoryEstimate& LayoutTable::memory_of(Sized& candidate) {
  if (!candidate.memory)
    candidate.memory = estimate_memory(request_, candidate.layout, assumptions_, false);
  return *candidate.memory;
}

std::optional<Layout> LayoutTable::choose(int count, const GpuSpec& gpu, int gpus_per_server,
                                          MemoryEstimate* estimate) {
  const Sized* best = nullptr;
  const Sized* first_fit = nullptr;
  for (Sized& s : sized(count, gpus_per_server)) {
    const MemoryEstimate& e = memory_of(s);
    if (roomy(e, gpu)) {
      first_fit = &s;
      break;
    }
    if (!first_fit && fits(e, gpu)) first_fit = &s;
    if (!best || e.total() < best->memory->total()) best = &s;
  }
  if (first_fit) best = first_fit;
  if (!best) return std::nullopt;
  if (estimate) *estimate = *best->memory;
  return best->layout;
}

std::optional<Layout> choose_layout(const Request& req, int count, const GpuSpec& gpu,
                                    int gpus_per_server, const MemoryAssumptions& a,
                                    MemoryEstimate* estimate) {
  return LayoutTable(req, a).choose(count, gpu, gpus_per_server, estimate);
}

std::optional<Layout> LayoutTable::fastest(int count, const GpuSpec& gpu, int gpus_per_server,
                                           const PerformanceConstants& k,
                                           MemoryEstimate* estimate) {
  MemoryEstimate first_memory;
  std::optional<Layout> first = choose(count, gpu, gpus_per_server, &first_memory);
  if (estimate) *estimate = first_memory;
  // Pretraining stacks (Megatron, torchtitan) tune the 3D split; fine-tuning stacks
  // (Transformers/PEFT, TRL, LLaMA-Factory) run data parallel + ZeRO unless memory forces a
  // split, which choose_layout's order already gives. Both split a MoE's experts over GPUs
  // (expert parallelism) where that is faster: fine-tuning on the split memory chose.
  const Parallelism& p = request_.parallelism;
  const bool pretrain = request_.task == Task::kPretrain && !(p.tp_pinned && p.pp_pinned);
  const bool experts = expert_parallel_sizes(request_).size() > 1;
  if (!first || !(pretrain || experts)) return first;
  const Fabric f = make_fabric(gpu, request_.cluster, k, gpus_per_server);
  const TrainingJob& job = this->job(k);
  const GpuFractions fractions = gpu_fractions(gpu, k, request_.training.precision);
  const Sized* best = nullptr;
  double best_rate = 0;
  // The first choice has room: so must the fastest.
  const bool room = roomy(first_memory, gpu);
  for (Sized& s : sized(count, gpus_per_server)) {
    if (!pretrain && (s.layout.tp != first->tp || s.layout.pp != first->pp)) continue;
    const MemoryEstimate& e = memory_of(s);
    if (!(room ? roomy(e, gpu) : fits(e, gpu))) continue;
    const TrainingPerf t = estimate_training(request_, gpu, s.layout, f, k, job, fractions);
    if (!t.available) return first;
    // Strictly faster only: between equals the earlier (simpler) split stays.
    if (!best || t.tokens_per_second > best_rate * (1 + 1e-9)) {
      best = &s;
      best_rate = t.tokens_per_second;
    }
  }
  if (!best) return first;
  if (estimate) *estimate = *best->memory;
  return best->layout;
}

const TrainingJob& LayoutTable::job(const PerformanceConstants& k) {
  if (!job_ || job_constants_ != &k) {
    job_ = training_job(request_, k);
    job_constants_ = &k;
  }
  return *job_;
}

std::optional<Layout> choose_fastest_layout(const Request& req, int count, const GpuSpec& gpu,
                                            int gpus_per_server, const MemoryAssumptions& a,
                                            const PerformanceConstants& k) {
  return LayoutTable(req, a).fastest(count, gpu, gpus_per_server, k, nullptr);
}

int gpus_per_server(const Request& req, const Catalog& catalog, const GpuSpec& gpu, int gpus) {
  const bool pinned = req.hardware && req.hardware->gpu == gpu.id;
  return gpus_per_server(req.cost, catalog.prices, gpu, pinned, gpus);
}

int largest_gpus_per_server(const Catalog& catalog) {
  int largest = 1;
  for (const auto& [form_factor, platform] : catalog.prices.platforms)
    largest =
        std::max(largest, checked_int(platform.gpus_per_server.value,
                                      "prices.json/platforms/" + form_factor + "/gpus_per_server",
                                      "GPUs per server"));
  return largest;
}

std::vector<GpuOption> evaluate_options(const Request& req, const Catalog& catalog) {
  std::vector<const GpuSpec*> all;
  for (const GpuSpec& g : catalog.gpus) all.push_back(&g);
  return evaluate_options(req, catalog, all);
}

std::vector<GpuOption> evaluate_options(const Request& req, const Catalog& catalog,
                                        const std::vector<const GpuSpec*>& gpus) {
  LayoutTable layouts(req, catalog.memory);
  return evaluate_options(req, catalog, gpus, layouts);
}

std::vector<GpuOption> evaluate_options(const Request& req, const Catalog& catalog,
                                        const std::vector<const GpuSpec*>& gpus,
                                        LayoutTable& layouts) {
  std::vector<GpuOption> out;
  out.reserve(gpus.size());
  OptionJudge judge(req, catalog, layouts);
  for (const GpuSpec* gpu : gpus) out.push_back(judge.judge(*gpu));
  return out;
}

GpuOption OptionJudge::judge(const GpuSpec& gpu) {
  const Request& req = request_;
  const MemoryAssumptions& a = catalog_.memory;
  // Per-GPU bytes never grow with the count under a fixed sharding scheme (more data-parallel
  // ranks shard ZeRO state further; more tensor/pipeline ranks split weights and activations),
  // so the smallest count that fits is found by bisection over the candidate counts.
  const int per_server = gpus_per_server(req, catalog_, gpu);
  auto known = counts_by_server_size_.find(per_server);
  if (known == counts_by_server_size_.end()) {
    known = counts_by_server_size_
                .emplace(per_server, candidate_counts(req, a.max_gpus_searched, per_server))
                .first;
  }
  const std::vector<int>& counts = known->second;
  GpuOption o;
  o.gpu = &gpu;
  Layout one;
  one.gpus_per_server = per_server;
  one.zero = is_training(req.task) ? req.parallelism.zero : 0;
  o.on_one = estimate_memory(req, one, a, false);
  o.fits_on_one = fits(o.on_one, gpu);
  if (counts.empty()) {
    o.reason = "no GPU count up to the search limit is compatible with the pinned tp/pp";
    o.reason_code = "no_compatible_count";
    return o;
  }
  MemoryEstimate e;
  auto fits_at = [&](int n) {
    return layouts_.choose(n, gpu, per_server, &e).has_value() && fits(e, gpu);
  };
  if (!fits_at(counts.back())) {
    const bool replicated = is_training(req.task) && req.parallelism.zero == 0 &&
                            req.parallelism.tp_pinned && req.parallelism.pp_pinned;
    o.reason_code = replicated ? "replicated_zero0" : "does_not_fit_at_max";
    o.reason_gpus = counts.back();
    o.reason = replicated
                   ? "with ZeRO-0 and the pinned TP/PP every data-parallel rank holds the same "
                     "share of the model and optimizer state: no count helps; use ZeRO-3 or "
                     "more TP/PP"
                   : "does not fit even on " + std::to_string(counts.back()) +
                         " GPUs: one micro-batch's activations or the unsharded terms exceed "
                         "the card; shorten the sequence, enable checkpointing or quantise";
    return o;
  }
  // The smallest count that fits with room when the largest does; else the smallest that fits.
  auto roomy_at = [&](int n) { return fits_at(n) && layouts_.roomy(e, gpu); };
  const bool room = roomy_at(counts.back());
  std::size_t lo = 0, hi = counts.size() - 1;  // counts[hi] fits (with room when `room`)
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (room ? roomy_at(counts[mid]) : fits_at(counts[mid]))
      hi = mid;
    else
      lo = mid + 1;
  }
  o.min_layout = layouts_.choose(counts[hi], gpu, per_server, &o.at_min);
  o.tight_at_min = !layouts_.roomy(o.at_min, gpu);
  return o;
}

}  // namespace advisor
