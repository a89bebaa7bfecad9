// SPDX-License-Identifier: MIT
// Speed for a request (docs/speed.md): result.training, result.inference, result.interconnect
// and each option's speed, as typed results.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "engine/comm.hpp"
#include "plan/fleet.hpp"
#include "types/plan.hpp"

namespace advisor {

struct SpeedSections {
  std::optional<TrainingResult> training;          // training tasks
  std::optional<ServingResult> inference;          // inference
  std::optional<InterconnectResult> interconnect;  // pinned hardware only
  std::vector<Warning> warnings;
};

/// Speed of the pinned hardware at `layout` (`at_layout` its memory; `fleet` the pinned GPU's
/// fleet for the serving load, when serving); without pinned hardware
/// the figures are null and fill_option_speed gives the curves of the first option that fits.
SpeedSections plan_speed(const Request& request, const Catalog& catalog, const Layout& layout,
                         const MemoryEstimate& at_layout, const ServingFleetPlan* fleet);

/// The option's speed at its minimum layout (`row.judged`). Without pinned hardware, the first
/// option that fits also provides the scaling / concurrency curve in `speed`.
void fill_option_speed(const Request& request, const Catalog& catalog, OptionRow& row,
                       SpeedSections& speed);

/// Short name and description of the link inside a server.
const char* link_label(const Fabric& fabric);

}  // namespace advisor
