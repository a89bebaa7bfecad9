// SPDX-License-Identifier: MIT
// The memory range across the software stacks a team may run the job on, when the request names
// none (issue 27 item 3): the same plan and layout, each stack's logits, optimizer, gradient and
// activation terms.
#pragma once
#include <optional>
#include <vector>

#include "engine/memory.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// The plan's memory per GPU under each stack common for the task (data/performance.json
/// common_for) that runs on `gpu` (null: any) and can run the layout's ZeRO stage, the
/// request's own stack among them, lightest first (equal figures in catalog order, the request's
/// own last). Empty when the request names its stack or
/// is not training. `own_bytes`: the request's own estimate on `layout`.
std::vector<StackMemory> memory_across_stacks(const Request& req, const Layout& layout,
                                              double own_bytes, const GpuSpec* gpu,
                                              const MemoryAssumptions& assumptions);

/// The first of the heaviest entries of `across_stacks` (non-empty, lightest first): equal
/// figures are in catalog order with the request's own last, so a named stack is named.
const StackMemory& heaviest_stack(const std::vector<StackMemory>& across_stacks);

/// "No stack named: X GiB (lightest) to Y GiB (heaviest)": the memory note (term stack_range)
/// under the headline figure; nullopt with fewer than two stacks.
std::optional<MemoryAssumption> stack_range_note(const std::vector<StackMemory>& across_stacks);

}  // namespace advisor
