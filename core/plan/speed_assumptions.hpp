// SPDX-License-Identifier: MIT
// The assumption lines under the training speed figures (plan/speed_assumptions.cpp), each a
// code with its named figures; the words are data/messages assume.<code>.
#pragma once
#include <vector>

#include "engine/comm.hpp"
#include "types/plan.hpp"

namespace advisor {

/// The note for a link whose bandwidth is not published (make_fabric's note), appended to `out`
/// when there is one: training and serving say it alike.
void add_link_unknown(const GpuSpec& gpu, const Fabric& f, std::vector<Note>& out);

/// The note for a part under a power limit (GpuSpec::power_limit), appended to `out` when it is:
/// its limit, its TDP and the clock the model gives it, for training and serving alike.
void add_power_limit(const GpuSpec& gpu, const PerformanceConstants& k, std::vector<Note>& out);

/// The training assumption lines, in the order the page shows them.
std::vector<Note> training_assumptions(const Request& request, const GpuSpec& gpu,
                                       const Layout& layout, const Fabric& fabric,
                                       const TrainingPerf& perf, const PerformanceConstants& k);
/// Without pinned hardware: where the speed figures are (training or serving).
Note unpinned_speed_note(bool training);
/// How the run's token budget was chosen.
Note training_token_note(const Request& request, const PerformanceConstants& k);

}  // namespace advisor
