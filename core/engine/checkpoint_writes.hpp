// SPDX-License-Identifier: MIT
// The checkpoints a training run writes (issue 27 item 2): whole-run time that no step shows.
#pragma once

#include "engine/memory.hpp"
#include "types/perf_constants.hpp"
#include "types/request.hpp"

namespace advisor {

/// The run's saves of its training state (trainable weights, master weights, optimizer
/// states), one per interval of training and at least the final one. Saving is synchronous,
/// as HF Trainer, DeepSpeed's save_checkpoint and FSDP state dicts do by default: every GPU
/// waits while the servers write their shards at once (one server writes an unsharded state).
struct CheckpointWrites {
  double bytes = 0;   // one save
  double each_s = 0;  // one save's stall
  double count = 0;   // saves over the run
  double total_s() const { return count * each_s; }
  double total_hours() const { return total_s() / 3600; }
};

/// The saves of a run of `train_hours` (steps and failures, before start-up) on `layout`.
CheckpointWrites checkpoint_writes(const Request& request, double trainable_params,
                                   const Layout& layout, double train_hours,
                                   const PerformanceConstants& k);

}  // namespace advisor
