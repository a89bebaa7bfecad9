// SPDX-License-Identifier: MIT
// Writers of the result's power, cost and capacity sections (io/plan_json.cpp calls them).
#pragma once
#include "io/json_writer.hpp"
#include "types/plan.hpp"

namespace advisor {

void write_power(JsonWriter& w, const PowerResult& power);
void write_cost(JsonWriter& w, const CostResult& cost, const PriceCatalog& prices);
void write_capacity(JsonWriter& w, const CapacityResult& capacity);
/// An option row's "power" and "cost" members.
void write_option_power_cost(JsonWriter& w, const OptionPowerCost& option);

}  // namespace advisor
