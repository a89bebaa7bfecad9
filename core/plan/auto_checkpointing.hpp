// SPDX-License-Identifier: MIT
// The activation checkpointing the advisor turns on when a training request leaves it open:
// a GPU's plans run with full checkpointing where the job fits with room, or on fewer GPUs,
// only with it (a 7B LoRA on one 24 GB card), as practitioners turn that knob first. The
// recommendation's search and a pinned plan follow the same rule, so pinning a recommended
// plan gives its figures back.
#pragma once
#include <map>
#include <optional>
#include <string>

#include "engine/layout.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// The request with full activation checkpointing when the advisor may choose it: a training
/// task whose request neither states checkpointing nor already has it full. nullopt otherwise.
std::optional<Request> with_full_checkpointing(const Request& request);

/// Whether a GPU's judgement leaves checkpointing anything to gain: the job fits on one GPU
/// with room without it.
bool checkpointing_may_help(const GpuOption& plain);

/// Which of a GPU's plans the search prices, from the job judged without and with full
/// checkpointing: the plain job's; both (checkpointed fits on fewer GPUs, plain with room on
/// more); or only checkpointed (plain has no room, or does not fit, and checkpointed does).
enum class CheckpointingUse { kPlain, kBoth, kCheckpointed };
CheckpointingUse checkpointing_use(const GpuOption& plain, const GpuOption& checkpointed);

/// Pinned hardware with a count: whether the job runs there with full checkpointing because
/// it has room (or fits) at that count only with it. `checkpointed`: with_full_checkpointing().
bool pinned_needs_checkpointing(const Request& request, const Request& checkpointed,
                                const Catalog& catalog);

/// The job with full activation checkpointing, judged only for the GPUs the search asks about
/// (those checkpointing_may_help): built once for a recommendation and its calendar's second
/// search.
class CheckpointedJob {
 public:
  CheckpointedJob(Request checkpointed, const Catalog& catalog)
      : req_(std::move(checkpointed)),
        layouts_(req_, catalog.memory),
        judge_(req_, catalog, layouts_) {}
  CheckpointedJob(const CheckpointedJob&) = delete;  // holds references to its own members
  CheckpointedJob& operator=(const CheckpointedJob&) = delete;
  const Request& request() const { return req_; }
  LayoutTable& layouts() { return layouts_; }
  const OptionRow& row(const GpuSpec& gpu) {
    auto [it, added] = rows_.try_emplace(gpu.id);
    if (added) it->second.judged = judge_.judge(gpu);
    return it->second;
  }

 private:
  Request req_;
  LayoutTable layouts_;
  OptionJudge judge_;
  std::map<std::string, OptionRow> rows_;
};

}  // namespace advisor
