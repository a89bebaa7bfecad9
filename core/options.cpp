// SPDX-License-Identifier: MIT
#include "options.hpp"

#include <algorithm>

namespace advisor {

namespace {
// Tensor parallelism stays inside one 8-GPU server by default: across servers its per-layer
// all-reduces would run over the much slower scale-out network (Narayanan et al. 2021, sec. 3.3).
constexpr int kMaxAutoTensorParallel = 8;
constexpr int kGpusPerServer = 8;

bool tp_valid(const ModelArch& m, int tp) {
  return m.heads % tp == 0 && (m.kv_heads % tp == 0 || tp % m.kv_heads == 0);
}

/// GPU counts a buyer would actually order: 1, 2, 4, then whole 8-GPU servers.
std::vector<int> candidate_counts(const Request& req, int max_count) {
  std::vector<int> counts;
  for (int n : {1, 2, 4}) counts.push_back(n);
  for (int n = kGpusPerServer; n <= max_count; n += kGpusPerServer) counts.push_back(n);
  std::vector<int> valid;
  for (int n : counts)
    if (n <= max_count && layout_for_count(req, n)) valid.push_back(n);
  return valid;
}
}  // namespace

std::optional<Layout> layout_for_count(const Request& req, int count) {
  const Parallelism& p = req.parallelism;
  const ModelArch& m = req.model;
  Layout L;
  L.count = count;
  if (is_training(req.task)) {
    L.tp = p.tp_pinned ? p.tp : 1;
    L.pp = p.pp_pinned ? p.pp : 1;
    L.zero = p.zero;
  } else {
    L.zero = 0;
    if (p.tp_pinned && p.pp_pinned) {
      L.tp = p.tp;
      L.pp = p.pp;
    } else if (p.tp_pinned) {
      L.tp = p.tp;
      if (count % L.tp != 0) return std::nullopt;
      L.pp = count / L.tp;
    } else if (p.pp_pinned) {
      L.pp = p.pp;
      if (count % L.pp != 0) return std::nullopt;
      L.tp = count / L.pp;
    } else {
      // Largest valid tensor-parallel size within one server; pipeline across servers.
      L.tp = 1;
      for (int tp = std::min(count, kMaxAutoTensorParallel); tp >= 1; --tp) {
        if (count % tp == 0 && tp_valid(m, tp)) {
          L.tp = tp;
          break;
        }
      }
      L.pp = count / L.tp;
    }
  }
  if (L.tp < 1 || L.pp < 1 || count % (L.tp * L.pp) != 0) return std::nullopt;
  if (!tp_valid(m, L.tp) || L.pp > m.layers) return std::nullopt;
  L.dp = count / (L.tp * L.pp);
  L.ep = p.ep;
  if (L.ep > 1 && L.dp % L.ep != 0) return std::nullopt;
  return L;
}

bool fits(const MemoryEstimate& e, const GpuSpec& gpu) { return e.total() <= gpu.memory_bytes(); }

std::vector<GpuOption> evaluate_options(const Request& req, const Catalog& catalog) {
  std::vector<GpuOption> out;
  const MemoryAssumptions& a = catalog.memory;
  const std::vector<int> counts = candidate_counts(req, a.max_gpus_searched);
  // Per-GPU bytes never grow with the count under a fixed sharding scheme (more data-parallel
  // ranks shard ZeRO state further; more tensor/pipeline ranks split weights), so the smallest
  // count that fits is found by bisection over the candidate counts.
  for (const GpuSpec& gpu : catalog.gpus) {
    GpuOption o;
    o.gpu = &gpu;
    Layout one;
    one.zero = is_training(req.task) ? req.parallelism.zero : 0;
    o.on_one = estimate_memory(req, one, a, false);
    o.fits_on_one = fits(o.on_one, gpu);
    if (counts.empty()) {
      o.reason = "no GPU count up to the search limit is compatible with the pinned tp/pp";
      out.push_back(o);
      continue;
    }
    auto estimate_at = [&](int n) { return estimate_memory(req, *layout_for_count(req, n), a, false); };
    const MemoryEstimate at_max = estimate_at(counts.back());
    if (!fits(at_max, gpu)) {
      const bool replicated = is_training(req.task) && req.parallelism.zero == 0 &&
                              !req.parallelism.tp_pinned && !req.parallelism.pp_pinned;
      o.reason = replicated
                     ? "with ZeRO-0 and no tensor/pipeline parallelism every GPU holds the whole "
                       "model and optimizer state: no count helps; use ZeRO-3, TP or PP"
                     : "does not fit even on " + std::to_string(counts.back()) +
                           " GPUs: one micro-batch's activations or the unsharded terms exceed "
                           "the card; shorten the sequence, enable checkpointing or pin TP/PP";
      out.push_back(o);
      continue;
    }
    std::size_t lo = 0, hi = counts.size() - 1;  // counts[hi] fits
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (fits(estimate_at(counts[mid]), gpu)) hi = mid; else lo = mid + 1;
    }
    o.min_layout = layout_for_count(req, counts[hi]);
    o.at_min = estimate_at(counts[hi]);
    out.push_back(o);
  }
  return out;
}

}  // namespace advisor
