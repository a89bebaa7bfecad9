// SPDX-License-Identifier: MIT
// The memory estimate's assumptions, one per term (engine/memory_explain.cpp).
#pragma once
#include "engine/memory.hpp"

namespace advisor {

/// Fills `estimate.assumptions`: one line per term, as a code with parameters and in English.
void explain_memory(const Request& request, const Layout& layout, const MemoryAssumptions& a,
                    MemoryEstimate& estimate);

}  // namespace advisor
