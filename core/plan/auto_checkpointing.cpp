// SPDX-License-Identifier: MIT
#include "plan/auto_checkpointing.hpp"

namespace advisor {

std::optional<Request> with_full_checkpointing(const Request& req) {
  if (!is_training(req.task) || req.training.checkpointing_stated ||
      req.training.activation_checkpointing == Checkpointing::kFull)
    return std::nullopt;
  Request out = req;
  out.training.activation_checkpointing = Checkpointing::kFull;
  return out;
}

bool checkpointing_may_help(const GpuOption& plain) {
  return !plain.min_layout || plain.min_layout->count > 1 || plain.tight_at_min;
}

CheckpointingUse checkpointing_use(const GpuOption& plain, const GpuOption& checkpointed) {
  if (!checkpointed.min_layout) return CheckpointingUse::kPlain;
  if (!plain.min_layout) return CheckpointingUse::kCheckpointed;
  if (plain.tight_at_min && !checkpointed.tight_at_min) return CheckpointingUse::kCheckpointed;
  if (checkpointed.tight_at_min && !plain.tight_at_min) return CheckpointingUse::kPlain;
  return checkpointed.min_layout->count < plain.min_layout->count ? CheckpointingUse::kBoth
                                                                  : CheckpointingUse::kPlain;
}

bool pinned_needs_checkpointing(const Request& req, const Request& checkpointed,
                                const Catalog& catalog) {
  const GpuSpec& gpu = *catalog.find_gpu(req.hardware->gpu);
  const int count = req.hardware->count;
  const int per_server = gpus_per_server(req, catalog, gpu, count);
  MemoryEstimate plain_memory, checkpointed_memory;
  LayoutTable plain(req, catalog.memory);
  if (!plain.choose(count, gpu, per_server, &plain_memory)) return false;
  if (plain.roomy(plain_memory, gpu)) return false;
  LayoutTable with(checkpointed, catalog.memory);
  if (!with.choose(count, gpu, per_server, &checkpointed_memory)) return false;
  return with.roomy(checkpointed_memory, gpu) ||
         (fits(checkpointed_memory, gpu) && !fits(plain_memory, gpu));
}

}  // namespace advisor
