// SPDX-License-Identifier: MIT
#include "plan/plan_warnings.hpp"

#include <string>

#include "plan/speed_results.hpp"
#include "plan/stack_range.hpp"
#include "types/text.hpp"

namespace advisor {

Warning tight_fit_warning(double band_high_bytes, double gpu_memory_bytes) {
  return {"tight_fit",
          "fits by the estimate, but the upper end of the error band "
          "exceeds the card: expect out-of-memory risk, and near the ceiling "
          "PyTorch's caching allocator frees and retries (or a paged optimizer "
          "pages to host RAM), which can run several times slower than shown",
          "/hardware",
          {param("band_high_bytes", band_high_bytes), param("gpu_memory_bytes", gpu_memory_bytes)}};
}

std::optional<Warning> memory_room_warning(const Request& req, double per_gpu_bytes,
                                           double band_high_bytes, double gpu_memory_bytes,
                                           double room_fraction) {
  if (band_high_bytes > gpu_memory_bytes)
    return tight_fit_warning(band_high_bytes, gpu_memory_bytes);
  if (!is_training(req.task) || per_gpu_bytes <= room_fraction * gpu_memory_bytes)
    return std::nullopt;
  return Warning{
      "near_memory_limit",
      "uses " + format_with("%.0f", 100 * per_gpu_bytes / gpu_memory_bytes) +
          "% of the card's memory, above the " + format_with("%.0f", 100 * room_fraction) +
          "% a plan is given room within: a longer batch, an evaluation or a "
          "checkpoint save can run out of memory; nothing roomier fits here",
      "/hardware",
      {param("per_gpu_bytes", per_gpu_bytes), param("gpu_memory_bytes", gpu_memory_bytes),
       param("share", per_gpu_bytes / gpu_memory_bytes), param("room_share", room_fraction)}};
}

std::optional<Warning> heavier_stack_warning(const std::vector<StackMemory>& across_stacks,
                                             double gpu_memory_bytes) {
  if (across_stacks.empty() || across_stacks.back().per_gpu_bytes <= gpu_memory_bytes)
    return std::nullopt;
  const StackMemory& heaviest = heaviest_stack(across_stacks);
  return Warning{"heavier_stack_does_not_fit",
                 "run with " + heaviest.stack_name + " the plan needs more memory per GPU than " +
                     "the card has: name the stack you run (/stack)",
                 "/stack",
                 {param("stack", heaviest.stack_name), param("stack_id", heaviest.stack_id),
                  param("per_gpu_bytes", heaviest.per_gpu_bytes),
                  param("gpu_memory_bytes", gpu_memory_bytes)}};
}

Warning no_peer_to_peer_warning(const GpuSpec& gpu) {
  return {"no_peer_to_peer",
          gpu.name + " has no PCIe peer-to-peer: GPU-to-GPU traffic goes through host memory",
          "/hardware/gpu",
          {param("gpu", gpu.name)}};
}

Warning non_cuda_stack_warning(const GpuSpec& gpu) {
  return {"non_cuda_stack",
          gpu.name + " runs " + gpu.software_stack +
              ", not CUDA: framework overheads may differ from this estimate",
          "/hardware/gpu",
          {param("gpu", gpu.name), param("platform", gpu.software_stack)}};
}

Warning communication_bound_warning(double share, const Fabric& f) {
  return {"communication_bound",
          format_with("%.0f%%", 100 * share) +
              " of each step waits on communication that compute cannot hide (" +
              std::string(link_label(f)) +
              "): a faster link, a larger micro-batch or less sharding would help",
          "/hardware",
          {param("share", share), param("link", intra_link_name(f.intra))}};
}

std::optional<Warning> no_rdma_warning(const GpuSpec& gpu, const AcrossServers& a) {
  if (a.servers <= 1 || a.rdma) return std::nullopt;
  Warning w{"no_rdma_across_servers",
            std::to_string(a.servers) + " servers of " + gpu.name + " exchange gradients over " +
                std::string(a.network) + ": NCCL's TCP sockets, not RDMA" +
                (a.assumed ? std::string(" (what such servers are sold with)") : std::string()) +
                "; communication leaves " +
                format_with("%.0f%%", 100 * a.exposed_communication_share) +
                " of each step waiting. Keep the job in one server, or state an RDMA network "
                "in /cluster/inter_node_network if the servers have one",
            "/cluster/inter_node_network",
            {param("gpu", gpu.name), param("servers", a.servers),
             param("network", std::string(a.network)), param("network_assumed", flag(a.assumed)),
             param("share", a.exposed_communication_share)}};
  if (a.assumed && !a.server_class.empty())
    w.params.push_back(param("server_class", std::string(a.server_class)));
  return w;
}

std::vector<Warning> candidate_warnings(const CandidatePlan& p, const Request& req,
                                        const std::vector<StackMemory>& across_stacks) {
  std::vector<Warning> out;
  const GpuSpec& gpu = *p.gpu;
  if (auto w = memory_room_warning(req, p.per_gpu_bytes, p.band_high_bytes, p.gpu_memory_bytes,
                                   p.room_fraction))
    out.push_back(std::move(*w));
  if (p.per_gpu_bytes <= p.gpu_memory_bytes)
    if (auto w = heavier_stack_warning(across_stacks, p.gpu_memory_bytes))
      out.push_back(std::move(*w));
  if (!gpu.pcie_peer_to_peer && p.gpus > 1) out.push_back(no_peer_to_peer_warning(gpu));
  if (gpu.software_stack != "cuda") out.push_back(non_cuda_stack_warning(gpu));
  if (is_training(req.task) && p.hours) {
    if (p.exposed_communication_share > kCommunicationBoundShare) {
      Fabric f;  // the words need the link only
      f.intra = p.intra;
      out.push_back(communication_bound_warning(p.exposed_communication_share, f));
    }
    const AcrossServers across{p.servers,      p.network_rdma, p.network_assumed,
                               p.network_name, p.server_class, p.exposed_communication_share};
    if (auto w = no_rdma_warning(gpu, across)) out.push_back(std::move(*w));
  }
  return out;
}

}  // namespace advisor
