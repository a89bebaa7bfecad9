// SPDX-License-Identifier: MIT
// JSON -> the speed model's settings of a request: /training's and /inference's, and /cluster.
#pragma once
#include "io/json_reader.hpp"
#include "io/json_value.hpp"
#include "types/perf_settings.hpp"

namespace advisor {

/// The speed model's settings of /training (token budget, global batch, ...) into `out`.
void read_training_perf(FieldReader& training, TrainingPerfSettings& out);
/// The speed model's settings of /inference (load, lengths, ...) into `out`.
void read_inference_perf(FieldReader& inference, InferencePerfSettings& out);
/// /cluster (the network between servers, ...); `cluster` may be absent (null).
ClusterSettings read_cluster(const JsonValue* cluster);

}  // namespace advisor
