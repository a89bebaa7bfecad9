// SPDX-License-Identifier: MIT
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "memory.hpp"

namespace advisor {

/// One catalog GPU judged for the request: does the job fit on one, and how many are needed
/// with the chosen sharding.
struct GpuOption {
  const GpuSpec* gpu = nullptr;
  MemoryEstimate on_one;             // the job on a single GPU
  bool fits_on_one = false;
  std::optional<Layout> min_layout;  // smallest count that fits; nullopt = none up to the limit
  MemoryEstimate at_min;
  std::string reason;                // why no count fits (when min_layout is empty)
};

/// Layout for `count` GPUs under the request's parallelism; nullopt if the count is not
/// compatible with pinned tp/pp (or no valid tensor-parallel size exists).
std::optional<Layout> layout_for_count(const Request& request, int count);

/// Judges every GPU in the catalog.
std::vector<GpuOption> evaluate_options(const Request& request, const Catalog& catalog);

/// True when `estimate` fits in the GPU's memory.
bool fits(const MemoryEstimate& estimate, const GpuSpec& gpu);

}  // namespace advisor
