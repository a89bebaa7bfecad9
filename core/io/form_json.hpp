// SPDX-License-Identifier: MIT
// The request form as data, for a page that renders without knowing the domain: every input
// the request accepts, with its kind, choices, range, default and the tasks it applies to, and
// the default request derived from the same defaults.
#pragma once
#include "io/json_value.hpp"
#include "types/catalog.hpp"

namespace advisor {

/// [{"path", "kind", "choices"?, "min"?, "max"?, "exclusive_min"?, "default", "default_by_task"?,
///   "tasks"}] — recorded from the request parser itself (io/json_reader FieldLog), so ranges,
/// defaults and choices have one home: the code that enforces them.
JsonValue form_schema(const Catalog& catalog);

/// [{"id", "training", "adapter"}] for every task.
JsonValue task_list();

/// The request the page starts from: the default task and model, and every default the form
/// schema lists for that task (null where the advisor decides).
JsonValue default_request(const Catalog& catalog);

}  // namespace advisor
