// SPDX-License-Identifier: MIT
#include "plan/stack_range.hpp"

#include <algorithm>

#include "types/text.hpp"

namespace advisor {

namespace {

/// `job` (a copy of `req`) as `v`'s stack runs it: the training terms the stack sets by default
/// (request_json read_training), except a checkpointing the advisor or a lever changed.
void run_under(Request& job, const Request& req, const StackVariants& all, const StackVariant& v) {
  job.stack = v.stack;
  job.parallelism.zero = v.zero;
  TrainingSettings& t = job.training;
  t.accounting = v.training.accounting;
  t.offload_activations = v.training.offload_activations;
  t.checkpointing_stated = v.training.checkpointing_stated;
  t.activation_checkpointing = req.training.activation_checkpointing == all.parsed_checkpointing
                                   ? v.training.activation_checkpointing
                                   : req.training.activation_checkpointing;
}

/// Whether the stack can run the layout's sharding: Megatron's distributed optimizer is ZeRO-1
/// (no stage 3), DeepSpeed's pipeline engine refuses ZeRO-2/3.
bool runs_layout(const StackVariant& v, const Layout& layout) {
  if (layout.zero > std::max(v.zero, v.stack.default_zero)) return false;
  return layout.pp == 1 || layout.zero <= v.stack.max_zero_with_pp;
}

}  // namespace

std::vector<StackMemory> memory_across_stacks(const Request& req, const Layout& layout,
                                              double own_bytes, const GpuSpec* gpu,
                                              const MemoryAssumptions& assumptions) {
  std::vector<StackMemory> out;
  if (!req.other_stacks || req.other_stacks->variants.empty()) return out;
  Request job = req;  // one copy, re-stacked for each variant
  job.other_stacks = nullptr;
  for (const StackVariant& v : req.other_stacks->variants) {
    if ((gpu && !v.stack.runs_on(gpu->software_stack)) || !runs_layout(v, layout)) continue;
    run_under(job, req, *req.other_stacks, v);
    out.push_back(
        {v.stack.id, v.stack.name, estimate_memory(job, layout, assumptions, false).total()});
  }
  // Last among equals: a named stack says more than "not named" (heaviest_stack and the note
  // name the first entry at each end of the range).
  out.push_back({req.stack.id, req.stack.name, own_bytes});
  std::stable_sort(out.begin(), out.end(), [](const StackMemory& a, const StackMemory& b) {
    return a.per_gpu_bytes < b.per_gpu_bytes;
  });
  return out;
}

const StackMemory& heaviest_stack(const std::vector<StackMemory>& across_stacks) {
  auto top = across_stacks.end() - 1;
  while (top != across_stacks.begin() && (top - 1)->per_gpu_bytes == top->per_gpu_bytes) --top;
  return *top;
}

std::optional<MemoryAssumption> stack_range_note(const std::vector<StackMemory>& across_stacks) {
  if (across_stacks.size() < 2) return std::nullopt;
  const StackMemory& low = across_stacks.front();
  const StackMemory& high = heaviest_stack(across_stacks);
  return MemoryAssumption{
      "stack_range",
      "No stack named: " + format_gib(low.per_gpu_bytes) + " (" + low.stack_name + ") to " +
          format_gib(high.per_gpu_bytes) + " (" + high.stack_name +
          ") across the stacks teams run this job on; name yours (/stack) for one figure",
      "stack_range",
      {param("low_bytes", low.per_gpu_bytes), param("low_stack", low.stack_name),
       param("low_stack_id", low.stack_id), param("high_bytes", high.per_gpu_bytes),
       param("high_stack", high.stack_name), param("high_stack_id", high.stack_id)}};
}

}  // namespace advisor
