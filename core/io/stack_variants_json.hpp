// SPDX-License-Identifier: MIT
// The request as each other common stack would run it (no /stack named): the parse side of the
// memory range across stacks (plan/stack_range).
#pragma once
#include <memory>

#include "io/json_value.hpp"
#include "types/perf_constants.hpp"
#include "types/request.hpp"

namespace advisor {

/// No /stack named (training): the request under each other stack common for its task, for
/// the memory range. A stack under which the request has a located problem (a stated ZeRO stage it
/// cannot run with pipeline stages, say) is left out of the range.
std::shared_ptr<const StackVariants> other_stacks(const JsonValue& document, const Request& req,
                                                  const PerformanceConstants& k);

}  // namespace advisor
