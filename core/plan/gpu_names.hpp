// SPDX-License-Identifier: MIT
// GPU names as people write them ("A800", "H800", "4090D", "H100 80G", "NVIDIA L40S") matched
// to catalog ids.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "types/catalog.hpp"

namespace advisor {

struct GpuNameMatch {
  const GpuSpec* gpu = nullptr;  // the match (the first in catalog order when several fit)
  std::vector<const GpuSpec*> alternatives;  // other parts the name fits equally well
};

/// Matches `name` to a catalog GPU: by id or display name, else by its words (every word of
/// the name appears in the part's id or name, "RTX"/"NVIDIA"/"GeForce" ignored, "80G" = "80GB"),
/// else as a part of the id ("910B" in "ascend910b-64gb").
GpuNameMatch match_gpu_name(std::string_view name, const Catalog& catalog);

/// The catalog ids closest to `name` (edit distance), at most `count`.
std::vector<std::string> close_gpu_names(std::string_view name, const Catalog& catalog,
                                         std::size_t count = 3);

}  // namespace advisor
