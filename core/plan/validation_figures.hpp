// SPDX-License-Identifier: MIT
// The plan's figures the validation scripts check (core/validation/plan.hpp PlanFigures), taken
// from the typed plan of a request with pinned hardware.
#pragma once
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"
#include "validation/check.hpp"
#include "validation/plan.hpp"

namespace advisor {

/// `plan` must be for `request` with pinned hardware.
validation::PlanFigures validation_figures(const Request& request, const Catalog& catalog,
                                           const Plan& plan);

/// The catalog facts of a GPU the validation needs.
validation::GpuFacts validation_gpu_facts(const GpuSpec& gpu);

/// What a run costs per GPU-hour and how many GPU-hours the plan predicts (for the read-back's
/// cost line): the rent price when there is one, else the amortised purchase.
validation::CostInputs validation_cost_inputs(const Plan& plan);

}  // namespace advisor
