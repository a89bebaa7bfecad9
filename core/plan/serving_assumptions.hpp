// SPDX-License-Identifier: MIT
// The assumption lines under the serving speed figures (plan/serving_assumptions.cpp), each a
// code with its named figures; the words are data/messages assume.<code>.
#pragma once
#include <vector>

#include "engine/comm.hpp"
#include "types/plan.hpp"

namespace advisor {

/// The serving assumption lines, in the order the page shows them.
std::vector<Note> inference_assumptions(const Request& request, const GpuSpec& gpu,
                                        const Layout& layout, const Fabric& fabric,
                                        const InferencePerf& perf, const PerformanceConstants& k);

}  // namespace advisor
