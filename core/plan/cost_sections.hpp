// SPDX-License-Identifier: MIT
// The sections of the power and cost results, one builder each (plan/cost_results.cpp calls
// them in order for the costed hardware and its resolved scenario): power, the priced
// deployments, the hybrid split, break-even and the 70% rule, the costs per GPU-hour, run and
// million tokens, electricity, and the site comparison.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine/cost_inputs.hpp"
#include "types/plan.hpp"

namespace advisor {

/// Twelve months of demand, GPU-hours each.
using MonthlyGpuHours = std::array<double, 12>;

/// result.power for `gpus` of `gpu` under scenario `s` and its power plan `p`; a server larger
/// than a rack (with the power limit that would fit it, where `k` models one) and an office
/// that cannot host the fleet are warned of.
PowerResult power_section(const GpuSpec& gpu, int gpus, const CostScenario& s, const PowerPlan& p,
                          const PerformanceConstants& k, std::vector<Warning>& warnings);

/// Buy, reserve and rent on demand, each priced when the scenario has its price, else a
/// missing price saying why (the catalog's "not offered", or no price). Returns the bought
/// fleet's electricity (empty when nothing is bought).
EnergyResult price_deployments(CostResult& cost, const Request& request, const PriceCatalog& prices,
                               const GpuSpec& gpu, int gpus, const CostScenario& s,
                               const PowerPlan& p);

/// The demand month by month the hybrid prices: the request's, else the job history's for
/// `gpu_id` (then `capacity` records that it priced the cost); nullopt when neither gives one.
std::optional<MonthlyGpuHours> demand_months(const CostRequest& request,
                                             std::optional<CapacityResult>& capacity,
                                             const std::string& gpu_id);

/// Own the base load, rent the bursts: the hybrid option and its split for `demand`, when there
/// are `months` and both a purchase and a rental price (else a missing price).
void price_hybrid(CostResult& cost, const std::optional<MonthlyGpuHours>& months,
                  const MonthlyGpuHours& demand, const CostScenario& s);

/// The priced deployment with the lowest lifetime cost.
std::optional<std::string> cheapest_deployment(const CostResult& cost);

/// A warning when the busiest month needs more than `gpus` deliver in a month.
void warn_demand_peak(std::vector<Warning>& warnings, const MonthlyGpuHours& demand, int gpus,
                      const CostRequest& request);

/// The utilisation from which buying pays, the year it does, and the source's ~70% rule.
void price_break_even(CostResult& cost, const CostScenario& s, int gpus, const PowerPlan& p);

/// Cost per GPU-hour, per run and per million tokens of each deployment. A run is priced with
/// the request's GPU-hours, else `training`'s; tokens with the request's tokens/s, else
/// `serving`'s decode rate (the speed model prices only pinned hardware).
void price_per_unit(CostResult& cost, const Request& request, const CostScenario& s, int gpus,
                    const MonthlyGpuHours& demand, const std::optional<TrainingResult>& training,
                    const std::optional<ServingResult>& serving);

/// result.cost.electricity: the tariff, each period's use, and what moving load to the valley
/// could save. `energy`: the fleet's yearly electricity at `utilization`.
ElectricityResult electricity_section(const CostScenario& s, const PowerPlan& p, double utilization,
                                      const EnergyResult& energy);

/// The same fleet bought at every site of the catalog, against the selected site's
/// `selected_yearly_cny`.
std::vector<SiteRow> compare_sites(const Request& request, const PriceCatalog& prices,
                                   const GpuSpec& gpu, int gpus, const CostScenario& s,
                                   double utilization, double selected_yearly_cny);

}  // namespace advisor
