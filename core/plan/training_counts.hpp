// SPDX-License-Identifier: MIT
// The counts a training search tries on one GPU: the minimum that fits, then doublings while
// they still pay.
#pragma once
#include <string>
#include <vector>

#include "engine/comm.hpp"
#include "engine/layout.hpp"
#include "engine/training.hpp"
#include "types/catalog.hpp"
#include "types/request.hpp"

namespace advisor {

/// The counts the training search tries on one GPU, each with the split it runs (for
/// pretraining the fastest fitting one, LayoutTable::fastest) and its speed: from `min_count`
/// (the smallest that fits), doublings while the job's global batch still allows the
/// data-parallel ranks (dp x micro-batch <= global batch: more would change the recipe, not the
/// hardware) and a doubling cuts the run by at least 10%, up to the search limit
/// (assumptions.json max_gpus_searched, at most 2^8 x the minimum). Counts where no split fits
/// are skipped. The recommendation prices each step; plan/plan.cpp chooses among them the count
/// of a pretraining run whose /hardware/count is not given.
struct TrainingCounts {
  struct Step {
    int count = 0;
    Layout layout;
    MemoryEstimate memory;
    TrainingPerf perf;
  };
  /// Why no further count was tried (kLowEfficiency: why plan.cpp's chosen count stops short
  /// of the last step).
  enum class Stop { kGlobalBatch, kSmallSaving, kSearchLimit, kUnavailable, kLowEfficiency };
  std::vector<Step> steps;
  Fabric fabric;  // the GPU's links, the same at every count (one server size)
  Stop stop = Stop::kSearchLimit;
  std::string unavailable_reason;  // kUnavailable: why no speed is estimated (steps empty)
};
TrainingCounts training_counts(const Request& request, const Catalog& catalog, const GpuSpec& gpu,
                               int min_count, LayoutTable& layouts);

}  // namespace advisor
