// SPDX-License-Identifier: MIT
// A part run under a power limit (nvidia-smi -pl): the clock it sustains, and its spec there
// (docs/speed.md 1.6).
#pragma once
#include <memory>
#include <optional>

#include "engine/power.hpp"
#include "types/catalog.hpp"

namespace advisor {

struct PerformanceConstants;
struct Request;

/// The clock a part sustains under a limit of `limit_watts`, as a share of its clock at its TDP
/// `tdp_watts`. Board power at full load is a static share the clock does not move plus the
/// cores' dynamic power ~ clock^exponent, so clock = ((limit/TDP - static) / (1 - static))^(1 /
/// exponent): 1 at the TDP. An approximation: the public measurements it is checked against
/// disagree among themselves and differ from it by up to 16 points (docs/speed.md 1.6).
double clock_fraction_at_power_limit(double limit_watts, double tdp_watts,
                                     const PerformanceConstants& k);

/// `gpu` capped at `limit_watts`: the limit is its TDP and its compute peaks run at the clock the
/// limit leaves. Memory bandwidth and links stay as they are: a limit lowers the core clock.
GpuSpec gpu_at_power_limit(const GpuSpec& gpu, double limit_watts, const PerformanceConstants& k);

/// The highest whole-watt limit per GPU at which `server` (its GPUs at the limit, their cooling
/// share and its host) draws at most `budget_watts`: what /hardware/power_limit_w would make a
/// server fit a rack. nullopt when the server fits at its GPUs' present watts, or needs a limit
/// below the lowest modelled (min_fraction_of_tdp of the part's own TDP `tdp_watts`).
std::optional<double> power_limit_to_fit(double budget_watts, const ServerPowerInputs& server,
                                         double tdp_watts, const PerformanceConstants& k);

/// The catalog a request is answered on when it sets /hardware/power_limit_w: a copy whose pinned
/// GPU is `gpu_at_power_limit`, so speed, power, cost and validation see one part. nullptr when
/// the request sets no limit (answer on `catalog` itself).
std::shared_ptr<const Catalog> catalog_at_power_limit(const Request& req, const Catalog& catalog);

}  // namespace advisor
