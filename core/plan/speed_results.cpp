// SPDX-License-Identifier: MIT
#include "plan/speed_results.hpp"

#include <algorithm>
#include <cmath>

#include "plan/plan_warnings.hpp"
#include "plan/serving_assumptions.hpp"
#include "plan/speed_assumptions.hpp"
#include "plan/validate.hpp"
#include "types/text.hpp"
#include "types/units.hpp"

namespace advisor {

namespace {

const int kScalingCounts[] = {1, 2, 4, 8, 16, 32, 64};
constexpr std::int64_t kMaxCurveConcurrency = 4096;

/// "nvlink" when the part's native link is NVLink-class, else "pcie".
bool has_nvlink_class(const GpuSpec& g) {
  return g.scale_up_link.topology != "none" && g.scale_up_link.bidirectional_gbps.has_value();
}

std::vector<ScalingPoint> scaling_curve(const Request& req, const Catalog& catalog,
                                        const GpuSpec& gpu) {
  const PerformanceConstants& k = catalog.performance;
  std::vector<ScalingPoint> curve;
  ClusterSettings bridged = req.cluster;
  bridged.nvlink_bridges = true;  // the NVLink curve of bridge-capable cards has them fitted
  // For bridge-capable PCIe cards "nvlink" is the same chip on an NVSwitch baseboard (the
  // source's NVLink-vs-PCIe comparison); their own bridged pairs are a third line.
  const bool bridge_part = gpu.scale_up_link.topology == "bridge";
  const int per_server = gpus_per_server(req, catalog, gpu);
  const Fabric nvlink = make_fabric(gpu, bridged, k, per_server,
                                    bridge_part ? LinkChoice::kSwitched : LinkChoice::kNative);
  const Fabric bridge = make_fabric(gpu, bridged, k, per_server, LinkChoice::kNative);
  const Fabric pcie = make_fabric(gpu, req.cluster, k, per_server, LinkChoice::kPcie);
  for (int n : kScalingCounts) {
    MemoryEstimate e;
    const auto L = choose_layout(req, n, gpu, per_server, catalog.memory, &e);
    if (!L) continue;
    const bool fit = fits(e, gpu);
    auto point = [&](const char* link, const Fabric& f) {
      ScalingPoint p{n, link, fit, L->tp, L->pp, L->dp, {}, {}, {}};
      if (!fit) return p;
      const TrainingPerf t = estimate_training(req, gpu, *L, f, k);
      if (t.available) {
        p.hours = t.hours;
        p.tokens_per_second = t.tokens_per_second;
        p.mfu = t.mfu;
      }
      return p;
    };
    if (has_nvlink_class(gpu)) curve.push_back(point("nvlink", nvlink));
    if (has_nvlink_class(gpu) && bridge_part) curve.push_back(point("nvlink_bridge", bridge));
    curve.push_back(point("pcie", pcie));
  }
  return curve;
}

std::vector<ConcurrencyPoint> concurrency_curve(const Request& req, const GpuSpec& gpu,
                                                const Layout& L, const Fabric& f,
                                                const PerformanceConstants& k,
                                                std::int64_t max_concurrency) {
  std::vector<ConcurrencyPoint> curve;
  const ServingModel model(req, gpu, L, f, k);
  const double context = mean_decode_context(req);
  const std::int64_t top =
      std::min(kMaxCurveConcurrency,
               std::max<std::int64_t>({1, max_concurrency, req.inference.concurrency}));
  std::vector<std::int64_t> points;
  for (std::int64_t c = 1; c <= top; c *= 2) points.push_back(c);
  if (max_concurrency >= 1 && max_concurrency <= kMaxCurveConcurrency)
    points.push_back(max_concurrency);
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  for (std::int64_t c : points) {
    const DecodeStep s = model.decode(double(c), context);
    curve.push_back({c, double(c) / s.step_s, 1 / s.step_s, c <= max_concurrency});
  }
  return curve;
}

InterconnectResult interconnect(const GpuSpec& gpu, const Layout& L, const Fabric& f,
                                const PerformanceConstants& k) {
  const int G = f.gpus_per_node;
  const int in_node = std::max(2, std::min(L.count, G));
  const GroupPlacement place = place_groups(L, G);
  const int all_per_node = std::min(L.count, G);
  InterconnectResult j;
  j.gpu = gpu.id;
  // Large-message all-reduce as NCCL runs it: the ring, or NVLS on Hopper/Blackwell NVSwitch.
  if (L.count > 1) {
    j.allreduce_bus_bandwidth_gbps = allreduce_busbw(f, L.count, all_per_node, k);
    j.allreduce_ring_busbw_gbps = group_busbw(f, L.count, all_per_node, k);
    if (const double nvls = nvls_busbw(f, L.count, all_per_node, k); nvls > 0)
      j.allreduce_nvls_busbw_gbps = nvls;
  }
  j.intra_node = {intra_link_name(f.intra), link_label(f), in_node, intra_node_busbw(f, in_node, k),
                  f.link_gbps > 0 ? f.link_gbps : f.pcie_gbps};
  InterNodeLink& n = j.inter_node;
  n.kind = std::string(f.network_id);
  n.name = network_label(f);
  n.gbit_per_s_per_gpu = f.network_gbps * kBitsPerByte;
  n.busbw_gbps = network_busbw(f, all_per_node);
  n.used = L.count > G;
  n.chosen_by_advisor = f.network_auto;
  n.rdma = f.network_rdma;
  if (f.network_gbit_per_s_per_server > 0)
    n.gbit_per_s_per_server = f.network_gbit_per_s_per_server;
  if (f.network_auto && !f.server_class.empty()) n.server_class = std::string(f.server_class);
  if (L.shard_ranks() > 1)
    j.data_parallel_busbw_gbps = group_busbw(f, L.shard_ranks(), place.dp_per_node, k);
  if (L.tp > 1) j.tensor_parallel_busbw_gbps = group_busbw(f, L.tp, place.tp_per_node, k);
  j.gpus_per_node = G;
  if (L.count > 1) {
    for (double bytes = 1024; bytes <= 4.3e9; bytes *= 4)
      j.allreduce_curve.push_back({bytes, allreduce_busbw_at(bytes, L.count, all_per_node, f, k)});
  }
  return j;
}

TrainingResult unpinned_training(const Request& req, const PerformanceConstants& k) {
  TrainingResult r;
  r.tokens = token_budget(req, k);
  r.assumptions = {training_token_note(req, k), unpinned_speed_note(true)};
  return r;
}

ServingResult unpinned_serving(const Request& req) {
  ServingResult r;
  r.gpu_memory_utilization = req.inference.perf.gpu_memory_utilization;
  r.assumptions = {unpinned_speed_note(false)};
  return r;
}

}  // namespace

const char* link_label(const Fabric& f) {
  switch (f.intra) {
    case IntraLink::kNvSwitch:
      return "NVLink through NVSwitch";
    case IntraLink::kMesh:
      return "fully connected point-to-point links";
    case IntraLink::kBridge:
      return "NVLink bridges (pairs), PCIe beyond";
    case IntraLink::kPcieP2p:
      return "PCIe with peer-to-peer";
    case IntraLink::kPcieHost:
      return "PCIe through host memory (no peer-to-peer)";
  }
  return "?";
}

namespace {

/// The pinned training plan's speed section and the warnings it earns (storage that starves the
/// GPUs, communication-bound steps, no RDMA across servers).
void training_speed(const Request& req, const Catalog& catalog, const GpuSpec& gpu, const Layout& L,
                    const Fabric& f, SpeedSections& out) {
  const PerformanceConstants& k = catalog.performance;
  const TrainingPerf t = estimate_training(req, gpu, L, f, k);
  if (!t.available) {  // validate_speed rejects these when hardware is pinned
    out.training = unpinned_training(req, k);
    return;
  }
  TrainingResult& r = out.training.emplace();
  r.perf = t;
  r.tokens = t.tokens;
  r.gpu = gpu.id;
  r.storage_read_gbps = req.cluster.storage_read_gbps;
  r.assumptions = training_assumptions(req, gpu, L, f, t, k);
  r.scaling_curve = scaling_curve(req, catalog, gpu);
  if (req.cluster.storage_read_gbps &&
      t.storage_read_gbps_needed > *req.cluster.storage_read_gbps) {
    out.warnings.push_back(
        {"storage_starves_gpus",
         "the GPUs consume " + format_with("%.3g", t.tokens_per_second) +
             " tokens/s, which needs " + format_with("%.3g", t.storage_read_gbps_needed) +
             " GB/s of storage reads; the planned " +
             format_with("%.3g", *req.cluster.storage_read_gbps) + " GB/s would leave them waiting",
         "/cluster/storage_read_gbps",
         {param("tokens_per_second", t.tokens_per_second),
          param("needed_gbps", t.storage_read_gbps_needed),
          param("planned_gbps", *req.cluster.storage_read_gbps)}});
  }
  const double exposed_share = t.step_time_s > 0 ? t.exposed_communication_s / t.step_time_s : 0;
  if (exposed_share > kCommunicationBoundShare)
    out.warnings.push_back(communication_bound_warning(exposed_share, f));
  const int servers = (L.count + f.gpus_per_node - 1) / std::max(1, f.gpus_per_node);
  const AcrossServers across{servers,        f.network_rdma, f.network_auto,
                             f.network_name, f.server_class, exposed_share};
  if (auto w = no_rdma_warning(gpu, across)) out.warnings.push_back(std::move(*w));
}

/// The pinned serving plan's speed section, its fleet for the target load, and the warnings it
/// earns (a fleet larger than the pinned count, an overcommitted KV cache, an unreachable target).
void serving_speed(const Request& req, const Catalog& catalog, const GpuSpec& gpu, const Layout& L,
                   const MemoryEstimate& e, const Fabric& f, const ServingFleetPlan* fleet,
                   SpeedSections& out) {
  const PerformanceConstants& k = catalog.performance;
  const InferencePerf p = estimate_inference(req, gpu, L, e, f, k, catalog.memory);
  ServingResult& r = out.inference.emplace();
  r.perf = p;
  r.gpu = gpu.id;
  r.gpu_memory_utilization = req.inference.perf.gpu_memory_utilization;
  // The fleet for the target load (plan/fleet): the same answer the options table gives.
  if (fleet && fleet->feasible && req.inference.perf.target_users) {
    r.fleet = *fleet;
    if (req.hardware->count < fleet->gpus) {
      out.warnings.push_back(
          {"target_needs_more_gpus",
           "the target load needs " + std::to_string(fleet->gpus) + " GPUs (" +
               std::to_string(fleet->replicas) + " replicas of " +
               std::to_string(fleet->replica.count) + "); " + std::to_string(req.hardware->count) +
               " are pinned",
           "/hardware/count",
           {param("gpus_needed", static_cast<double>(fleet->gpus)),
            param("replicas", static_cast<double>(fleet->replicas)),
            param("replica_gpus", fleet->replica.count), param("pinned", req.hardware->count)}});
    }
  }
  r.assumptions = inference_assumptions(req, gpu, L, f, p, k);
  r.concurrency_curve = concurrency_curve(req, gpu, L, f, k, p.max_concurrency);
  if (req.inference.concurrency > p.max_concurrency) {
    out.warnings.push_back(
        {"kv_cache_overcommitted",
         "a serving engine with gpu_memory_utilization " +
             format_with("%.2f", req.inference.perf.gpu_memory_utilization) + " fits " +
             std::to_string(p.max_concurrency) + " sequences of " +
             std::to_string(p.max_model_len) + " tokens; " +
             std::to_string(req.inference.concurrency) + " would queue or be preempted",
         "/inference/concurrency",
         {param("gpu_memory_utilization", req.inference.perf.gpu_memory_utilization),
          param("max_concurrency", static_cast<double>(p.max_concurrency)),
          param("max_model_len", static_cast<double>(p.max_model_len)),
          param("concurrency", static_cast<double>(req.inference.concurrency))}});
  }
  if (req.inference.perf.target_users && (!fleet || !fleet->feasible)) {
    out.warnings.push_back({"target_unreachable",
                            fleet ? fleet->note : p.target_note,
                            "/inference/target_tokens_per_second_per_user",
                            {param("gpu", gpu.name)}});
  }
}

}  // namespace

SpeedSections plan_speed(const Request& req, const Catalog& catalog, const Layout& L,
                         const MemoryEstimate& e, const ServingFleetPlan* fleet) {
  const PerformanceConstants& k = catalog.performance;
  const bool training = is_training(req.task);
  SpeedSections out;
  if (!req.hardware) {
    if (training)
      out.training = unpinned_training(req, k);
    else
      out.inference = unpinned_serving(req);
    return out;
  }
  if (auto rounded = check_global_batch(req, L))
    out.warnings.push_back(
        {"global_batch_rounded",
         *rounded,
         "/training/global_batch_size",
         {param("requested", static_cast<double>(*req.training.perf.global_batch_size)),
          param("sequences_per_pass", static_cast<double>(req.training.micro_batch_size * L.dp))}});
  const GpuSpec& gpu = *catalog.find_gpu(req.hardware->gpu);
  const Fabric f = make_fabric(gpu, req.cluster, k, L.gpus_per_server);
  out.interconnect = interconnect(gpu, L, f, k);
  if (!f.note.empty())
    out.warnings.push_back(
        {"link_bandwidth_unknown", f.note, "/hardware/gpu", {param("gpu", gpu.name)}});
  if (training)
    training_speed(req, catalog, gpu, L, f, out);
  else
    serving_speed(req, catalog, gpu, L, e, f, fleet, out);
  return out;
}

void fill_option_speed(const Request& req, const Catalog& catalog, OptionRow& row,
                       SpeedSections& speed) {
  const PerformanceConstants& k = catalog.performance;
  const GpuOption& o = row.judged;
  if (!o.min_layout) return;
  const GpuSpec& gpu = *o.gpu;
  const Layout& L = *o.min_layout;
  const Fabric f = make_fabric(gpu, req.cluster, k, L.gpus_per_server);
  if (L.count > 1) {
    row.allreduce_bus_bandwidth_gbps =
        allreduce_busbw(f, L.count, std::min(L.count, f.gpus_per_node), k);
  }
  row.intra_node_link = intra_link_name(f.intra);
  if (is_training(req.task)) {
    const TrainingPerf t = estimate_training(req, gpu, L, f, k);
    row.training = t;
    TrainingResult* r = speed.training ? &*speed.training : nullptr;
    if (!req.hardware && r && !r->gpu && t.available) {
      r->gpu = gpu.id;
      r->scaling_curve = scaling_curve(req, catalog, gpu);
    }
    return;
  }
  const InferencePerf p = estimate_inference(req, gpu, L, o.at_min, f, k, catalog.memory);
  row.inference = p;
  ServingResult* r = speed.inference ? &*speed.inference : nullptr;
  if (!req.hardware && r && !r->gpu) {
    r->gpu = gpu.id;
    r->concurrency_curve = concurrency_curve(req, gpu, L, f, k, p.max_concurrency);
  }
}

}  // namespace advisor
