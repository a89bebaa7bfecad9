// SPDX-License-Identifier: MIT
// The warnings a plan's hardware earns, built in one place: result.warnings for the pinned
// hardware (plan/plan.cpp, plan/speed_results.cpp) and recommendation plans' warnings[] for the
// plans the recommendation shows, so a plan says the same thing pinned or recommended.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "engine/comm.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"
#include "types/request.hpp"

namespace advisor {

/// Exposed communication above this share of a training step earns communication_bound.
constexpr double kCommunicationBoundShare = 0.25;

/// A plan that fits under the request's stack but not under a heavier common one (no /stack
/// named; `across_stacks` lightest first, plan/stack_range): name the stack.
std::optional<Warning> heavier_stack_warning(const std::vector<StackMemory>& across_stacks,
                                             double gpu_memory_bytes);

/// Fits by the estimate, not by the top of its error band: out-of-memory risk.
Warning tight_fit_warning(double band_high_bytes, double gpu_memory_bytes);
/// The memory warning a fitting plan earns: tight_fit when the top of the error band exceeds
/// the card, else near_memory_limit when a training plan is above `room_fraction` of it.
std::optional<Warning> memory_room_warning(const Request& request, double per_gpu_bytes,
                                           double band_high_bytes, double gpu_memory_bytes,
                                           double room_fraction);
/// GeForce: GPU-to-GPU traffic through host memory.
Warning no_peer_to_peer_warning(const GpuSpec& gpu);
/// Not CUDA (ROCm, CANN): framework overheads may differ.
Warning non_cuda_stack_warning(const GpuSpec& gpu);
/// A training step that waits on communication for `share` of its time over `link`.
Warning communication_bound_warning(double share, const Fabric& f);

/// What no_rdma_across_servers needs of a plan: its servers and the network between them.
struct AcrossServers {
  int servers = 1;
  bool rdma = true;
  bool assumed = false;           // the network the server class is sold with
  std::string_view network;       // its name (performance.json networks)
  std::string_view server_class;  // when assumed
  double exposed_communication_share = 0;
};
/// A training plan across servers whose network has no RDMA (TCP sockets): what GeForce and
/// workstation servers are sold with. nullopt when it does not apply.
std::optional<Warning> no_rdma_warning(const GpuSpec& gpu, const AcrossServers& across);

/// The warnings of a recommendation's plan (memory, interconnect, compute, in that order).
/// `across_stacks`: the plan's memory under the task's common stacks (no stack named), as
/// pinning it shows them (plan/stack_range).
std::vector<Warning> candidate_warnings(const CandidatePlan& plan, const Request& request,
                                        const std::vector<StackMemory>& across_stacks);

}  // namespace advisor
