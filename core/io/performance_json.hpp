// SPDX-License-Identifier: MIT
// data/performance.json -> PerformanceConstants: the speed model's constants, each with its
// basis and source.
#pragma once
#include <string>

#include "types/perf_constants.hpp"

namespace advisor {

/// performance.json alone (errors name "performance.json/..." paths).
PerformanceConstants parse_performance(const std::string& text);

}  // namespace advisor
