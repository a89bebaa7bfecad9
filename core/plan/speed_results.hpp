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

/// The note for a link whose bandwidth is not published (make_fabric's note), appended to `out`
/// when there is one: training and serving say it alike.
void add_link_unknown(const GpuSpec& gpu, const Fabric& f, std::vector<Note>& out);

/// The assumption lines as codes with parameters (plan/speed_assumptions.cpp for training,
/// plan/serving_assumptions.cpp for serving).
std::vector<Note> training_assumptions(const Request& request, const GpuSpec& gpu,
                                       const Layout& layout, const Fabric& fabric,
                                       const TrainingPerf& perf, const PerformanceConstants& k);
std::vector<Note> inference_assumptions(const Request& request, const GpuSpec& gpu,
                                        const Layout& layout, const Fabric& fabric,
                                        const InferencePerf& perf, const PerformanceConstants& k);
/// Without pinned hardware: where the speed figures are (training or serving).
Note unpinned_speed_note(bool training);
/// How the run's token budget was chosen.
Note training_token_note(const Request& request, const PerformanceConstants& k);

}  // namespace advisor
