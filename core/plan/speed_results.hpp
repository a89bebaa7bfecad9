// SPDX-License-Identifier: MIT
// The speed part of the result document: result.training, result.inference,
// result.interconnect and the per-option speed fields (docs/speed.md, docs/api.md).
#pragma once
#include <nlohmann/json.hpp>

#include "catalog.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "request.hpp"

namespace advisor {

/// Fills result["training"], result["inference"] and result["interconnect"] for the pinned
/// hardware (`layout`, `at_layout`); without pinned hardware their figures are null and the
/// curves are filled later by add_option_speed for the first GPU that fits.
void add_speed_results(const Request& request, const Catalog& catalog, const Layout& layout,
                       const MemoryEstimate& at_layout, nlohmann::json& result,
                       nlohmann::json& warnings);

/// Fills option["training"] or option["inference"] and option["allreduce_bus_bandwidth_gbps"]
/// at the option's minimum layout (null when nothing fits). Without pinned hardware, the first
/// option that fits also provides the scaling / concurrency curve in `result`.
void add_option_speed(const Request& request, const Catalog& catalog, const GpuOption& option,
                      nlohmann::json& option_json, nlohmann::json& result);

}  // namespace advisor
