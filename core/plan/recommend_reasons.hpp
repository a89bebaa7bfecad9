// SPDX-License-Identifier: MIT
// The recommendation's reasons: codes with named figures, in the source's order (memory,
// interconnect, compute, power, cost), and the English sentence each stands for.
#pragma once
#include <string>
#include <vector>

#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// Why `plan` answers the request, one reason per step of the source's order.
std::vector<Reason> explain(const CandidatePlan& plan, const Request& request);

/// Why `runner` (which wins on `wins_on`) was not chosen over `best`.
Reason reason_why_not(const CandidatePlan& runner, const CandidatePlan& best,
                      const std::string& wins_on);

/// Why no count of a GPU fits (engine/layout.hpp GpuOption): its code and largest count tried
/// travel as parameters, so the page words it in the user's language.
Reason reason_memory_rejected(const std::string& why, const std::string& why_code, int gpus);
Reason reason_unavailable(const std::string& why, const std::string& why_code = "");
Reason reason_no_price(const GpuSpec& gpu, PurchaseStatus status, BuyingPolicy policy);
/// No plan could be priced: the provider offers fewer GPUs than a plan needs, else no price.
Reason reason_not_offered(const GpuSpec& gpu, const PriceCatalog& prices, BuyingPolicy policy);
/// Calendar days from order to done: the plan's lead time plus its run (hours / 24); a serving
/// plan's lead time alone (the service is live then).
double calendar_days(const CandidatePlan& plan);

/// Why every plan of one GPU misses the goal: the deadline (`fastest` misses it), else the
/// calendar (`earliest`, the plan done soonest, is past /goal/done_within_days), else the
/// budget (`least_outlay`, the plan that needs the least money, is over it), else the two
/// together.
Reason reason_goal_missed(const CandidatePlan& fastest, const CandidatePlan& earliest,
                          const CandidatePlan& least_outlay, const GoalSettings& goal);
Reason reason_no_plan(const CandidatePlan& nearest, const GoalSettings& goal);
Reason reason_nothing_fits();
/// The request's stack has no backend for the GPU's software stack (Unsloth on Ascend's CANN).
Reason reason_stack_unsupported(const GpuSpec& gpu, const StackProfile& stack);

}  // namespace advisor
