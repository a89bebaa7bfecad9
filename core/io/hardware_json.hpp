// SPDX-License-Identifier: MIT
// /hardware: the GPU a request pins, its count, how and where it is had, its power limit.
#pragma once
#include <optional>

#include "io/json_value.hpp"
#include "types/request.hpp"

namespace advisor {

struct Catalog;

/// /hardware: the pinned GPU, its count, and where and how it is had (nullopt when absent).
std::optional<Hardware> read_hardware(const JsonValue* hw, const Catalog& catalog);

/// A pinned facility is where the cost section and the recommendation place bought cards:
/// written into the request's /power/facility before that section is read (the two must agree).
void pin_facility(const std::optional<Hardware>& hw, JsonValue& cost_sections);

}  // namespace advisor
