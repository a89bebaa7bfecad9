// SPDX-License-Identifier: MIT
#include "io/goal_json.hpp"

#include <optional>

#include "io/json_reader.hpp"
#include "types/errors.hpp"

namespace advisor {

namespace {
constexpr double kMaxDeadlineHours = 1e6;  // a century: beyond it a typo
constexpr double kMaxBudgetCny = 1e12;
constexpr double kMaxCalendarDays = 3650;  // ten years
}  // namespace

GoalSettings read_goal(const JsonValue* j, Task task) {
  const JsonValue empty = JsonValue::object();
  FieldReader r(j ? *j : empty, "/goal");
  GoalSettings g;
  g.objective = r.choice("objective", kObjectiveNames, g.objective);
  g.deadline_hours = r.nullable_number("deadline_hours", 0, kMaxDeadlineHours, true);
  g.budget_cny = r.nullable_number("budget_cny", 0, kMaxBudgetCny, true);
  g.done_within_days = r.nullable_number("done_within_days", 0, kMaxCalendarDays, true);
  // /goal/china_only (earlier API) reads as a policy: true = what mainland China sells, new or
  // resold; false = grey imports too. One of the two, not both.
  const std::optional<BuyingPolicy> policy = r.nullable_choice("buying_policy", kBuyingPolicyNames);
  ADVISOR_REQUIRE(!(policy && r.has("china_only")), "inconsistent", "/goal/china_only",
                  "/goal/china_only and /goal/buying_policy both say what may be bought: keep "
                  "/goal/buying_policy");
  if (policy)
    g.buying_policy = *policy;
  else if (r.has("china_only"))
    g.buying_policy = r.boolean("china_only") ? BuyingPolicy::kNewAndResale : BuyingPolicy::kAny;
  else
    r.raw("china_only");
  r.reject_unknown();
  ADVISOR_REQUIRE(
      !g.deadline_hours || is_training(task), "inconsistent", "/goal/deadline_hours",
      "/goal/deadline_hours is the time of a training run; for serving set the per-user "
      "speed target (/inference/target_tokens_per_second_per_user)");
  ADVISOR_REQUIRE(g.objective != Objective::kCheapestWithinDeadline || g.deadline_hours.has_value(),
                  "missing_field", "/goal/deadline_hours",
                  "/goal/deadline_hours is required with objective cheapest_within_deadline");
  ADVISOR_REQUIRE(g.objective != Objective::kFastestWithinBudget || g.budget_cny.has_value(),
                  "missing_field", "/goal/budget_cny",
                  "/goal/budget_cny is required with objective fastest_within_budget");
  return g;
}

}  // namespace advisor
