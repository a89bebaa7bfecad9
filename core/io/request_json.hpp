// SPDX-License-Identifier: MIT
// JSON -> Request: every request section read strictly (ranges checked, never clamped; unknown
// fields are errors; every error names the field's JSON pointer).
#pragma once
#include <string>
#include <vector>

#include "io/json_reader.hpp"
#include "io/json_value.hpp"
#include "types/catalog.hpp"
#include "types/request.hpp"

namespace advisor {

/// Parses and validates a request document against the catalog (preset and GPU ids).
Request parse_request(const JsonValue& document, const Catalog& catalog);

void read_training_perf(FieldReader& training, TrainingPerfSettings& out);
void read_inference_perf(FieldReader& inference, InferencePerfSettings& out);
ClusterSettings read_cluster(const JsonValue* cluster);

/// Parses {"power": ..., "cost": ..., "capacity": ...} (each optional) strictly: ranges are
/// checked, never clamped; unknown fields are errors; paths are JSON pointers ("/cost/life_years",
/// "/capacity/jobs_csv/row 3/hours"). `catalog` checks GPU ids in /cost/prices/gpus.
CostRequest parse_cost_request(const JsonValue& sections, const Catalog& catalog);

/// Parses job-history CSV text (header row naming job, gpu_type, gpus, hours and optionally
/// month or date). `path` is the CSV field's pointer; errors name "row N" (the header is row 1)
/// and the column.
std::vector<JobRow> parse_jobs_csv(const std::string& text, const std::string& path, bool* dated);

}  // namespace advisor
