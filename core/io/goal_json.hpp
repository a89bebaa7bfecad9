// SPDX-License-Identifier: MIT
// /goal of a request: what the recommendation looks for (objective, deadline, budget) and what
// the buyer accepts buying (the buying policy).
#pragma once
#include "io/json_value.hpp"
#include "types/request.hpp"

namespace advisor {

/// /goal (absent: the defaults). `task`: a deadline is a training run's.
GoalSettings read_goal(const JsonValue* goal, Task task);

}  // namespace advisor
