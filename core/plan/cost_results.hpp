// SPDX-License-Identifier: MIT
// Power, cost and capacity for a request (docs/cost.md): which hardware to cost, every deployment
// priced, break-even, cost per run and per million tokens, sites, the hybrid split; typed results
// only (io/plan_json.cpp writes them).
#pragma once
#include <optional>
#include <vector>

#include "plan/search_prices.hpp"
#include "types/plan.hpp"

namespace advisor {

struct PowerCostSections {
  std::optional<PowerResult> power;
  std::optional<CostResult> cost;
  std::optional<CapacityResult> capacity;
  std::vector<Warning> warnings;
};

/// Power, cost and capacity for the request. With pinned hardware the fleet is `layout.count`
/// of the pinned GPU, and a run is priced with `training` GPU-hours and tokens with `serving`
/// decode tokens/s (the speed model's, unless the request gives them). Without pinned hardware
/// the recommended plan's hardware is costed (else the fitting option with the lowest lifetime
/// cost).
/// `fleet_gpus`: the pinned GPU's serving fleet for a target load (costed instead of the layout).
PowerCostSections plan_power_and_cost(const Request& request, const Catalog& catalog,
                                      const Layout& layout, std::optional<int> fleet_gpus,
                                      const std::optional<TrainingResult>& training,
                                      const std::optional<ServingResult>& serving,
                                      const std::vector<OptionRow>& options,
                                      const CandidatePlan* recommended);

/// Compact power and cost for `gpus` of `gpu` (one row of result.options); a run is priced with
/// the request's GPU-hours, else `option_gpu_hours` (the option's own speed model). `prices`
/// holds the cost inputs resolved for `request` and `catalog` (shared with the search).
OptionPowerCost option_power_cost(const Request& request, const Catalog& catalog,
                                  const GpuSpec& gpu, int gpus,
                                  std::optional<double> option_gpu_hours, SearchPrices& prices);

}  // namespace advisor
