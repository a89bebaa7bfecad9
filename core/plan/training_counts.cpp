// SPDX-License-Identifier: MIT
// The counts a training search tries on one GPU (plan/recommend.hpp training_counts): the
// minimum that fits, then doublings while they still pay.
#include "plan/training_counts.hpp"

#include <optional>

#include "engine/comm.hpp"
#include "plan/recommend.hpp"

namespace advisor {

namespace {

// Counts tried per GPU for training: its minimum, then doublings (the scaling curve flattens
// long before 2^8 x the minimum; a deadline rarely needs more).
constexpr int kCountDoublings = 8;
// More GPUs are worth trying while doubling them still cuts the run time by this share (a
// scaling efficiency above ~55%); past it the extra cards mostly wait on communication.
constexpr double kWorthwhileSpeedup = 0.1;

}  // namespace

TrainingCounts training_counts(const Request& req, const Catalog& catalog, const GpuSpec& gpu,
                               int min_count, LayoutTable& layouts) {
  TrainingCounts out;
  const PerformanceConstants& k = catalog.performance;
  const int per_server = gpus_per_server(req, catalog, gpu);
  const int max_count = catalog.memory.max_gpus_searched;
  std::optional<double> previous_hours;
  Layout one;
  const std::int64_t job_batch = global_batch_for(req, one, k, nullptr);
  out.fabric = make_fabric(gpu, req.cluster, k, per_server);
  const Fabric& f = out.fabric;
  const TrainingJob& job = layouts.job(k);
  const GpuFractions fractions = gpu_fractions(gpu, k, req.training.precision);
  out.stop = TrainingCounts::Stop::kSearchLimit;
  int n = min_count;
  out.steps.reserve(kCountDoublings + 1);
  for (int step = 0; step <= kCountDoublings && n <= max_count; ++step, n *= 2) {
    MemoryEstimate e;
    // Pretraining: the split a team would tune for speed (choose_fastest_layout).
    const auto L = layouts.fastest(n, gpu, per_server, k, &e);
    if (!L || !fits(e, gpu)) continue;
    // Data parallelism ends where the job's global batch does: more ranks would change the
    // recipe (the batch), not just the hardware. And doubling that saves little is not tried.
    const bool past_global_batch = step > 0 && L->dp * req.training.micro_batch_size > job_batch;
    // Once a count has a speed every count has one (it depends on the part's rates, not on the
    // layout): the batch's end needs no estimate of the count it stops at.
    if (past_global_batch && !out.steps.empty()) {
      out.stop = TrainingCounts::Stop::kGlobalBatch;
      break;
    }
    // Timed in place (a step is ~600 bytes, and a search times ~300 per advise()); a count the
    // search stops at is dropped again.
    TrainingCounts::Step& s = out.steps.emplace_back();
    const TrainingPerf& t = s.perf = estimate_training(req, gpu, *L, f, k, job, fractions);
    if (!t.available) {
      out.unavailable_reason = t.reason;
      out.steps.clear();
      out.stop = TrainingCounts::Stop::kUnavailable;
      return out;
    }
    const bool small_saving =
        step > 0 && previous_hours && t.hours > *previous_hours * (1 - kWorthwhileSpeedup);
    if (past_global_batch || small_saving) {
      out.stop = past_global_batch ? TrainingCounts::Stop::kGlobalBatch
                                   : TrainingCounts::Stop::kSmallSaving;
      out.steps.pop_back();
      break;
    }
    previous_hours = t.hours;
    s.count = n;
    s.layout = *L;
    s.memory = std::move(e);
  }
  return out;
}

}  // namespace advisor
