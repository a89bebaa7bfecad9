// SPDX-License-Identifier: MIT
#include "engine/checkpoint_writes.hpp"

#include <algorithm>
#include <cmath>

#include "engine/memory.hpp"

namespace advisor {

namespace {
constexpr double kGiga = 1e9;
}  // namespace

CheckpointWrites checkpoint_writes(const Request& req, double trainable_params, const Layout& L,
                                   double train_hours, const PerformanceConstants& k) {
  CheckpointWrites w;
  const TrainingSettings& t = req.training;
  w.bytes = trainable_params *
            (training_weight_bytes(t.precision) + optimizer_state(t).bytes_per_param());
  // Sharded states (ZeRO/FSDP) are written by every server at once; a replicated one by one.
  const double writers = L.zero >= 1 ? static_cast<double>(L.servers()) : 1.0;
  w.each_s = w.bytes / (writers * k.checkpoint_write_gbyte_per_s * kGiga);
  const bool valid =
      std::isfinite(train_hours) && train_hours > 0 && k.checkpoint_interval_hours > 0;
  w.count = valid ? std::max(1.0, std::ceil(train_hours / k.checkpoint_interval_hours)) : 0;
  return w;
}

}  // namespace advisor
