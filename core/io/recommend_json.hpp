// SPDX-License-Identifier: MIT
#pragma once
#include <string>

#include "io/json_writer.hpp"
#include "types/plan.hpp"

namespace advisor {

/// {name: number | text, ...}: the figures of a reason or a warning.
void write_params(JsonWriter& w, const std::vector<ReasonParam>& params);
/// {code, params, text}: one line of the result in a form each language can render.
void write_note(JsonWriter& w, const Note& note);
/// One warning: {code, params, message, path}.
void write_warning(JsonWriter& w, const Warning& warning);

/// result.recommendation (docs/api.md "Recommendation").
/// "risks": [{code, reason, params, message}] (a plan's, or the pinned GPU's).
void write_risks(JsonWriter& w, const std::vector<Risk>& risks);
void write_recommendation(JsonWriter& w, const Recommendation& r);
/// "levers": [{lever, path, value, trade_off, time_ratio, cost_ratio, plan}] (a key and its list).
void write_levers(JsonWriter& w, const std::vector<Lever>& levers);
/// {"levers": [...]}: the recommendation's levers alone, as plan_to_text writes them (what a
/// result made with PlanPart::kAnswer lacks; make_plan with PlanPart::kLevers gives them).
std::string levers_to_text(const Plan& plan);

}  // namespace advisor
