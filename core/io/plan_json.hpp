// SPDX-License-Identifier: MIT
#pragma once
#include <nlohmann/json.hpp>

#include "types/catalog.hpp"
#include "types/plan.hpp"

namespace advisor {

/// The result document (API v1) for a plan. Throws std::runtime_error if a figure is not finite
/// (a bug, never the user's input: the caller reports it as internal_error).
nlohmann::json plan_to_json(const Plan& plan, const Catalog& catalog);

/// {"code", "message", "path"}: one entry of a result's warnings[].
nlohmann::json warning_json(const Warning& warning);

}  // namespace advisor
