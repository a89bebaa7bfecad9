// SPDX-License-Identifier: MIT
// A training job's start-up: the time from "run it" to its first useful step, paid once per run
// by every GPU of the plan (and billed on a rental). Without it, a wide and short plan (64 GPUs
// for a minute and a half) looks as cheap as a narrow one while its servers spend longer pulling
// the image and loading weights than training. docs/speed.md §1.3.
#pragma once
#include "engine/memory.hpp"
#include "types/perf_constants.hpp"
#include "types/request.hpp"

namespace advisor {

struct JobStartup {
  double image_pull_s = 0;    // the container, pulled on every server at once
  double weights_load_s = 0;  // the base model's weights read on each server (fine-tunes)
  double warmup_s = 0;        // CUDA/NCCL set-up, first batches, first compiled graphs
  double rendezvous_s = 0;    // scheduling all servers to start together
  double total_s() const { return image_pull_s + weights_load_s + warmup_s + rendezvous_s; }
};

/// The start-up of `request` on `layout`; `weight_bytes` is the base model's checkpoint (0 when
/// pretraining starts from random weights).
JobStartup job_startup(const Layout& layout, double weight_bytes, const PerformanceConstants& k);

/// The bytes of the checkpoint a training job loads: the base weights at 16 bits for a
/// fine-tune (the published checkpoints' precision), nothing for pretraining from scratch.
double checkpoint_bytes(const Request& request, double total_params);

}  // namespace advisor
