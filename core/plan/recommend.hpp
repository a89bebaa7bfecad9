// SPDX-License-Identifier: MIT
// The answer: one recommended plan for the job (GPU, count, layout, deployment, place, time and
// this job's cost), runners-up that each win on something, the time-vs-cost Pareto front, memory
// levers that let a cheaper card fit, and why every other GPU was rejected — reasoned in the
// source's order: memory, interconnect, compute, power, cost.
#pragma once
#include <string>
#include <vector>

#include "engine/comm.hpp"
#include "engine/layout.hpp"
#include "engine/training.hpp"
#include "plan/search_prices.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// Searches GPU x count (the minimum, then doublings) x deployment (buy, rent, reserved) x
/// place (office when it can host, else an IDC) for the request's goal. `options` are the
/// request's judged options (plan/fleet judge_options). `with_levers`: also try the memory
/// levers (each a further search). `prices`: the cost inputs resolved for `request` and
/// `catalog`, shared with the option rows' costs (plan/plan.cpp). `layouts`: the table of
/// `request` that judged `options` (the search reads the same layouts' memory again).
Recommendation recommend(const Request& request, const Catalog& catalog,
                         const std::vector<OptionRow>& options, SearchPrices& prices,
                         LayoutTable& layouts, bool with_levers = true);

/// The counts the training search tries on one GPU, each with the split it runs (for
/// pretraining the fastest fitting one, LayoutTable::fastest) and its speed: from `min_count`
/// (the smallest that fits), doublings while the job's global batch still allows the
/// data-parallel ranks (dp x micro-batch <= global batch: more would change the recipe, not the
/// hardware) and a doubling cuts the run by at least 10%, up to the search limit
/// (assumptions.json max_gpus_searched, at most 2^8 x the minimum). Counts where no split fits
/// are skipped. The recommendation prices each step; plan/plan.cpp takes the last one as the
/// count of a pretraining run whose /hardware/count is not given.
struct TrainingCounts {
  struct Step {
    int count = 0;
    Layout layout;
    MemoryEstimate memory;
    TrainingPerf perf;
  };
  /// Why no further count was tried.
  enum class Stop { kGlobalBatch, kSmallSaving, kSearchLimit, kUnavailable };
  std::vector<Step> steps;
  Fabric fabric;  // the GPU's links, the same at every count (one server size)
  Stop stop = Stop::kSearchLimit;
  std::string unavailable_reason;  // kUnavailable: why no speed is estimated (steps empty)
};
TrainingCounts training_counts(const Request& request, const Catalog& catalog, const GpuSpec& gpu,
                               int min_count, LayoutTable& layouts);

/// True when a part is sold new in mainland China without a US licence.
bool china_purchasable(const GpuSpec& gpu);

}  // namespace advisor
