// SPDX-License-Identifier: MIT
// The check's compute, power and cost items, measured against the plan (internal to
// core/validation; validation/check.cpp calls them in the source's order).
#pragma once
#include "validation/check_builder.hpp"

namespace advisor::validation::items {

void compute_items(const ValidationPlan& p, const Measurements& m, Builder& b);
void power_items(const ValidationPlan& p, const Measurements& m, Builder& b);
void cost_items(const ValidationPlan& p, const Measurements& m, const CostInputs& c, Builder& b);

}  // namespace advisor::validation::items
