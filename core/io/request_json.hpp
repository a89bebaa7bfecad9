// SPDX-License-Identifier: MIT
// JSON -> Request: every request section read strictly (ranges checked, never clamped; unknown
// fields are errors; every error names the field's JSON pointer).
#pragma once
#include <string>
#include <vector>

#include "io/json_reader.hpp"
#include "io/json_value.hpp"
#include "types/catalog.hpp"
#include "types/request.hpp"

namespace advisor {

/// Parses and validates a request document against the catalog (preset and GPU ids). After a
/// reported problem (types/errors.hpp) the request is partial: ask problem_reported() before
/// using it.
Request parse_request(const JsonValue& document, const Catalog& catalog);

/// /training read under `stack` (its defaults where the request is silent); `training` may be
/// null (an absent section).
TrainingSettings read_training(const JsonValue* training, Task task, const ModelArch& model,
                               const StackProfile& stack);

}  // namespace advisor
