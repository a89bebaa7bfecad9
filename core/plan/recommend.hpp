// SPDX-License-Identifier: MIT
// The answer: one recommended plan for the job (GPU, count, layout, deployment, place, time and
// this job's cost), runners-up that each win on something, the time-vs-cost Pareto front, memory
// levers that let a cheaper card fit, and why every other GPU was rejected — reasoned in the
// source's order: memory, interconnect, compute, power, cost.
#pragma once
#include <string>
#include <vector>

#include "engine/comm.hpp"
#include "engine/layout.hpp"
#include "engine/training.hpp"
#include "plan/auto_checkpointing.hpp"
#include "plan/search.hpp"
#include "plan/search_prices.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// Searches GPU x count (the minimum, then doublings) x deployment (buy, rent, reserved) x
/// place (office when it can host, else an IDC) for the request's goal. `options` are the
/// request's judged options (plan/fleet judge_options). `with_levers`: also try the memory
/// levers (each a further search). `prices`: the cost inputs resolved for `request` and
/// `catalog`, shared with the option rows' costs (plan/plan.cpp). `layouts`: the table of
/// `request` that judged `options` (the search reads the same layouts' memory again).
/// `checkpointed`: the request with full activation checkpointing (plan/auto_checkpointing),
/// when the caller also judges options with it; nullptr: made here when the request allows it.
Recommendation recommend(const Request& request, const Catalog& catalog,
                         const std::vector<OptionRow>& options, SearchPrices& prices,
                         LayoutTable& layouts, bool with_levers = true,
                         CheckpointedJob* checkpointed = nullptr);

}  // namespace advisor
