// SPDX-License-Identifier: MIT
// The check's memory and interconnect items, measured against the plan (internal to
// core/validation; validation/check.cpp calls them in the source's order).
#pragma once
#include "validation/check_builder.hpp"

namespace advisor::validation::items {

void memory_items(const ValidationPlan& p, const Measurements& m, Builder& b);
void interconnect_items(const ValidationPlan& p, const Measurements& m, Builder& b);

}  // namespace advisor::validation::items
