// SPDX-License-Identifier: MIT
// JSON -> CostRequest: the request's power, cost and capacity sections, and the job-history CSV
// the capacity plan reads.
#pragma once
#include <string>
#include <vector>

#include "io/json_value.hpp"
#include "types/catalog.hpp"
#include "types/cost_settings.hpp"

namespace advisor {

/// Parses {"power": ..., "cost": ..., "capacity": ...} (each optional) strictly: ranges are
/// checked, never clamped; unknown fields are errors; paths are JSON pointers ("/cost/life_years",
/// "/capacity/jobs_csv/row 3/hours"). `catalog` checks GPU ids in /cost/prices/gpus.
CostRequest parse_cost_request(const JsonValue& sections, const Catalog& catalog);

/// Parses job-history CSV text (header row naming job, gpu_type, gpus, hours and optionally
/// month or date). `path` is the CSV field's pointer; errors name "row N" (the header is row 1)
/// and the column.
std::vector<JobRow> parse_jobs_csv(const std::string& text, const std::string& path, bool* dated);

}  // namespace advisor
