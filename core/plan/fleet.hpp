// SPDX-License-Identifier: MIT
// How many GPUs of one type serve the request's load: replicas of one replica layout. One
// function for the options table, the pinned plan and the recommendation, so they agree.
#pragma once
#include <optional>
#include <string>

#include "engine/layout.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// The smallest fleet of `gpu` that serves the load: /inference/target_users at the per-user
/// speed target when given, else /inference/concurrency sequences. Replica layouts from
/// `smallest_replica` GPUs up to one server (tensor parallel) are tried; the fleet with the
/// fewest GPUs wins (fewer replicas on a tie).

ServingFleetPlan fleet_for_load(const Request& request, const Catalog& catalog, const GpuSpec& gpu,
                                const Layout& smallest_replica);

/// Every catalog GPU judged by memory; for serving, with its fleet for the load (a GPU whose
/// smallest layout holds no sequence's KV cache uses its fleet's replica, or does not fit).
/// `layouts`: a table of `request`, kept for the search that judges the same layouts again.
std::vector<OptionRow> judge_options(const Request& request, const Catalog& catalog,
                                     LayoutTable& layouts);
std::vector<OptionRow> judge_options(const Request& request, const Catalog& catalog,
                                     const std::vector<const GpuSpec*>& gpus, LayoutTable& layouts);

/// Users the load asks for: target_users, else the concurrency.
std::int64_t users_to_serve(const Request& request);

}  // namespace advisor
