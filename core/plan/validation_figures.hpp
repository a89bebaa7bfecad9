// SPDX-License-Identifier: MIT
// The plan's figures the validation scripts check (core/validation/plan.hpp PlanFigures), taken
// from the typed plan of a request with pinned hardware.
#pragma once
#include <map>
#include <string>

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

/// The part's expectations: its data/validation.json entry when there is one, else derived from
/// the catalog (names and topology recorded from the first box). Either way the product class
/// and ECC come from gpus.json "product", so a GeForce card is never expected to have ECC,
/// NVLink or forward compatibility, and a part without CUDA is marked unsupported.
validation::PartFacts validation_part_facts(
    const GpuSpec& gpu, const std::map<std::string, validation::PartFacts>& parts);

/// What a run costs per GPU-hour and how many GPU-hours the plan predicts (for the read-back's
/// cost line): the rent price when there is one, else the amortised purchase.
validation::CostInputs validation_cost_inputs(const Plan& plan);

}  // namespace advisor
