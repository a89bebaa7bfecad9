// SPDX-License-Identifier: MIT
#pragma once
#include <string>

#include "io/json_writer.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"

namespace advisor {

/// The result document (API v1) for a plan, as text. Throws std::runtime_error if a figure is
/// not finite or not representable (a bug, never the user's input: the caller reports it as
/// internal_error).
std::string plan_to_text(const Plan& plan, const Catalog& catalog);

/// {"levers": [...]}: the recommendation's levers alone, as plan_to_text writes them (what a
/// result made with PlanPart::kAnswer lacks; make_plan with PlanPart::kLevers gives them).
std::string levers_to_text(const Plan& plan);

/// The members of a model architecture object (result.model, catalog().models[]).
void write_arch_fields(JsonWriter& writer, const ModelArch& arch);

}  // namespace advisor
