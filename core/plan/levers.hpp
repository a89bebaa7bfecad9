// SPDX-License-Identifier: MIT
// The settings a recommendation offers as levers: each changes the request one way that
// trades speed or precision for memory (checkpointing, one sequence per micro-batch, an 8-bit
// optimizer, LoRA or QLoRA, quantised weights or KV cache), and the search prices the changed job
// on cheaper cards.
#pragma once
#include <cstddef>

#include "types/request.hpp"

namespace advisor {

/// The request with one memory lever applied, or nothing when it does not apply.
struct LeverChange {
  const char* lever;
  const char* path;
  const char* value;
  const char* trade_off;
  bool (*apply)(Request&);
};

constexpr std::size_t kLeverCount = 8;
/// In the order the recommendation lists them.
extern const LeverChange kLevers[kLeverCount];

}  // namespace advisor
