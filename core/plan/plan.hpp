// SPDX-License-Identifier: MIT
// A validated request and a catalog -> the plan: layout, memory, speed, curves, power, cost,
// capacity, every catalog GPU judged, and the warnings. Typed in, typed out; no JSON here.
#pragma once
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// Runs every engine for `request` (already parsed) against `catalog`. Throws InputError for
/// checks that need the whole request and the catalog (located at the request field).
Plan make_plan(const Request& request, const Catalog& catalog);

}  // namespace advisor
