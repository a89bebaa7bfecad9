// SPDX-License-Identifier: MIT
#include "plan/fleet.hpp"

#include "engine/comm.hpp"
#include "engine/layout.hpp"

namespace advisor {

namespace {

bool holds_a_sequence(const Request& req, const Catalog& catalog, const GpuSpec& gpu,
                      const Layout& L, const MemoryEstimate& e) {
  const Fabric f = make_fabric(gpu, req.cluster, catalog.performance, L.gpus_per_server);
  return estimate_inference(req, gpu, L, e, f, catalog.performance, catalog.memory)
             .max_concurrency >= 1;
}

/// Every catalog GPU judged by memory. Serving needs more than the weights: room for one
/// sequence's KV cache at max_model_len, and a fleet for the load (plan/fleet); a GPU whose
/// smallest layout has no room uses its fleet's replica, or does not fit.
}  // namespace

std::vector<OptionRow> judge_options(const Request& req, const Catalog& catalog,
                                     LayoutTable& layouts) {
  std::vector<const GpuSpec*> all;
  all.reserve(catalog.gpus.size());
  for (const GpuSpec& g : catalog.gpus) all.push_back(&g);
  return judge_options(req, catalog, all, layouts);
}

std::vector<OptionRow> judge_options(const Request& req, const Catalog& catalog,
                                     const std::vector<const GpuSpec*>& gpus,
                                     LayoutTable& layouts) {
  std::vector<OptionRow> rows;
  rows.reserve(gpus.size());  // one row per GPU: moved in once, never again by regrowth
  for (GpuOption& o : evaluate_options(req, catalog, gpus, layouts)) {
    OptionRow row;
    if (req.task == Task::kInference && o.min_layout) {
      ServingFleetPlan fleet = fleet_for_load(req, catalog, *o.gpu, *o.min_layout);
      if (!fleet.feasible) {
        o.reason = fleet.note;
        o.reason_code = fleet.note_code;
        o.min_layout.reset();
      } else if (fleet.replica.count != o.min_layout->count &&
                 !holds_a_sequence(req, catalog, *o.gpu, *o.min_layout, o.at_min)) {
        // The memory minimum holds no sequence: the smallest replica that does.
        o.min_layout = fleet.replica;
        o.at_min = estimate_memory(req, fleet.replica, catalog.memory, false);
        o.tight_at_min = o.at_min.band_high > o.gpu->memory_bytes();
      }
      row.fleet = std::move(fleet);
      row.fleet_for_target = req.inference.perf.target_users.has_value();
    }
    row.judged = std::move(o);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::int64_t users_to_serve(const Request& req) {
  return req.inference.perf.target_users.value_or(req.inference.concurrency);
}

namespace {

/// A fleet of `L` replicas for `users`, or why not (no room for a sequence, the targets not
/// met, more GPUs than the advisor plans for): feasible == false with the note.
ServingFleetPlan fleet_of(const Request& req, const Catalog& catalog, const GpuSpec& gpu,
                          const Layout& L, const Fabric& f, std::int64_t users) {
  ServingFleetPlan candidate;
  const MemoryEstimate e = estimate_memory(req, L, catalog.memory, false);
  const InferencePerf p =
      estimate_inference(req, gpu, L, e, f, catalog.performance, catalog.memory);
  candidate.replica = L;
  candidate.perf = p;
  if (p.users_per_replica < 1) {
    candidate.note = p.target_note, candidate.note_code = p.target_note_code;
    return candidate;
  }
  candidate.users_per_replica = p.users_per_replica;
  candidate.replicas = p.replicas;
  candidate.gpus = candidate.replicas * L.count;
  // A fleet is costed and laid out in int counts: beyond the largest count a request may pin
  // (10^9 users at long contexts asked for 4 x 10^9 GPUs, which wrapped to negative racks).
  if (candidate.gpus > kMaxGpuCount) {
    candidate.note = "serving " + std::to_string(users) + " users needs " +
                     std::to_string(candidate.gpus) + " GPUs of this kind, more than the " +
                     std::to_string(kMaxGpuCount) + " the advisor plans for";
    candidate.note_code = "fleet_too_large";
    return candidate;
  }
  candidate.feasible = true;
  return candidate;
}

}  // namespace

ServingFleetPlan fleet_for_load(const Request& req, const Catalog& catalog, const GpuSpec& gpu,
                                const Layout& smallest) {
  ServingFleetPlan best;
  if (!req.stack.runs_on(gpu.software_stack)) {
    best.note = req.stack.name + " has no " + gpu.software_stack + " backend";
    best.note_code = "stack_not_on_platform";
    return best;
  }
  const Fabric f = make_fabric(gpu, req.cluster, catalog.performance, smallest.gpus_per_server);
  const std::int64_t users = users_to_serve(req);
  // Wider replicas choose their own tensor/pipeline split.
  Request wide = req;
  wide.parallelism.tp_pinned = false;
  wide.parallelism.pp_pinned = false;
  auto consider = [&](const Request& r, const Layout& L) {
    ServingFleetPlan candidate = fleet_of(r, catalog, gpu, L, f, users);
    if (!candidate.feasible) {
      if (best.note.empty()) best.note = candidate.note, best.note_code = candidate.note_code;
      return;
    }
    const bool fewer = !best.feasible || candidate.gpus < best.gpus ||
                       (candidate.gpus == best.gpus && candidate.replicas < best.replicas);
    if (fewer) best = std::move(candidate);
  };
  for (int n = smallest.count; n == smallest.count || n <= smallest.gpus_per_server; n *= 2) {
    const bool first = n == smallest.count;
    std::optional<Layout> L = first ? std::optional<Layout>(smallest)
                                    : layout_for_count(wide, n, smallest.gpus_per_server);
    if (L) consider(first ? req : wide, *L);
    // A MoE may serve more users per GPU with its experts split and attention data-parallel
    // (no KV cache replicated over tensor-parallel ranks): taken only when the fleet is smaller.
    if (std::optional<Layout> ep = expert_parallel_serving_layout(req, n, smallest.gpus_per_server))
      consider(req, *ep);
  }
  return best;
}

}  // namespace advisor
