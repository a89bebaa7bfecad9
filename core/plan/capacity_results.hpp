// SPDX-License-Identifier: MIT
#pragma once
#include <array>
#include <optional>
#include <string>

#include "types/catalog.hpp"
#include "types/plan.hpp"

namespace advisor {

/// result.capacity for the request's job history (located errors for names not in the catalog).
CapacityResult plan_capacity_section(const CostRequest& request, const PriceCatalog& prices,
                                     const Catalog& catalog);

/// The months of `gpu_id` in a dated history as one year, for the hybrid plan (nullopt when
/// the history is undated or has no jobs on it).
std::optional<std::array<double, 12>> demand_from_capacity(const CapacityResult& capacity,
                                                           const std::string& gpu_id);

}  // namespace advisor
