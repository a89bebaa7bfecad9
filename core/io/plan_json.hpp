// SPDX-License-Identifier: MIT
#pragma once
#include <string>

#include "io/json_writer.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"

namespace advisor {

/// The result document (API v1) for a plan, as text. A figure that is not finite or not
/// representable (a bug, never the user's input) is written as null and reported as an
/// internal_error problem (io/json_writer.hpp), which the API answers instead.
std::string plan_to_text(const Plan& plan, const Catalog& catalog);

/// The members of a model architecture object (result.model, catalog().models[]).
void write_arch_fields(JsonWriter& writer, const ModelArch& arch);

}  // namespace advisor
