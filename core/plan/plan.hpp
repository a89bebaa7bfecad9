// SPDX-License-Identifier: MIT
// A validated request and a catalog -> the plan: layout, memory, speed, curves, power, cost,
// capacity, every catalog GPU judged, and the warnings. Typed in, typed out; no JSON here.
#pragma once
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// What make_plan computes. The levers' what-if searches are a third to half of a call: the page
/// asks for the answer first and the levers after the frame that shows it (docs/loading.md).
/// kAnswer: everything but recommendation.levers (levers_later set); kLevers: the recommendation
/// with its levers, nothing after it (only its levers are to be read). kAnswer's result with
/// kLevers' levers is kWhole's (tests/test_plan_parts.cpp).
enum class PlanPart { kWhole, kAnswer, kLevers };

/// Runs every engine for `request` (already parsed) against `catalog`. Reports an InputError
/// (types/errors.hpp) for checks that need the whole request and the catalog (located at the
/// request field); the plan then stops at its next stage and is not an answer.
Plan make_plan(const Request& request, const Catalog& catalog, PlanPart part = PlanPart::kWhole);

}  // namespace advisor
