// SPDX-License-Identifier: MIT
#pragma once
#include "io/json_writer.hpp"
#include "types/plan.hpp"

namespace advisor {

/// result.recommendation (docs/api.md "Recommendation").
void write_recommendation(JsonWriter& w, const Recommendation& r);

}  // namespace advisor
