// SPDX-License-Identifier: MIT
#pragma once
#include "io/json_reader.hpp"
#include "types/perf_constants.hpp"

namespace advisor {

/// Reads performance.json's "protocols", "serving", "runs" and "stacks" sections into `k`
/// (located errors at performance.json/...); every task must have a default stack.
void parse_stack_sections(FieldReader& root, PerformanceConstants& k);

}  // namespace advisor
