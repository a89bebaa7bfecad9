// SPDX-License-Identifier: MIT
#include "speed.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "comm.hpp"
#include "inference_perf.hpp"
#include "json_reader.hpp"
#include "perf_constants.hpp"
#include "training_perf.hpp"

namespace advisor {

namespace {

constexpr double kGiga = 1e9;
const int kScalingCounts[] = {1, 2, 4, 8, 16, 32, 64};
constexpr std::int64_t kMaxCurveConcurrency = 4096;
// Exposed communication above this share of the step earns a warning.
constexpr double kCommunicationBoundShare = 0.25;

/// A finite number, or null (a guard: every figure here is finite for valid input).
nlohmann::json num(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }


std::string fmt(const char* format, double value) {
  char b[64];
  std::snprintf(b, sizeof b, format, value);
  return b;
}

const char* link_label(const Fabric& f) {
  switch (f.intra) {
    case IntraLink::kNvSwitch: return "NVLink through NVSwitch";
    case IntraLink::kMesh: return "fully connected point-to-point links";
    case IntraLink::kBridge: return "NVLink bridges (pairs), PCIe beyond";
    case IntraLink::kPcieP2p: return "PCIe with peer-to-peer";
    case IntraLink::kPcieHost: return "PCIe through host memory (no peer-to-peer)";
  }
  return "?";
}

/// "nvlink" when the part's native link is NVLink-class, else "pcie".
bool has_nvlink_class(const GpuSpec& g) {
  return g.scale_up_link.topology != "none" && g.scale_up_link.bidirectional_gbps.has_value();
}

nlohmann::json training_summary(const TrainingPerf& t) {
  if (!t.available) return nullptr;
  return {{"tokens_per_second", num(t.tokens_per_second)},
          {"mfu", num(t.mfu)},
          {"hours", num(t.hours)},
          {"gpu_hours", num(t.gpu_hours)},
          {"step_time_s", num(t.step_time_s)}};
}

nlohmann::json inference_summary(const InferencePerf& p) {
  return {{"decode_tokens_per_second", num(p.decode_tokens_per_second)},
          {"per_user_tokens_per_second", num(p.per_user_tokens_per_second)},
          {"time_to_first_token_s", num(p.time_to_first_token_s)},
          {"max_concurrency", p.max_concurrency}};
}

nlohmann::json scaling_curve(const Request& req, const Catalog& catalog, const GpuSpec& gpu,
                             const PerformanceConstants& k) {
  nlohmann::json curve = nlohmann::json::array();
  ClusterSettings bridged = req.cluster;
  bridged.nvlink_bridges = true;  // the NVLink curve of bridge-capable cards has them fitted
  // For bridge-capable PCIe cards "nvlink" is the same chip on an NVSwitch baseboard (the
  // source's NVLink-vs-PCIe comparison); their own bridged pairs are a third line.
  const bool bridge_part = gpu.scale_up_link.topology == "bridge";
  const Fabric nvlink =
      make_fabric(gpu, bridged, k, bridge_part ? LinkChoice::kSwitched : LinkChoice::kNative);
  const Fabric bridge = make_fabric(gpu, bridged, k, LinkChoice::kNative);
  const Fabric pcie = make_fabric(gpu, req.cluster, k, LinkChoice::kPcie);
  for (int n : kScalingCounts) {
    MemoryEstimate e;
    const auto L = choose_layout(req, n, gpu, catalog.memory, &e);
    if (!L) continue;
    const bool fit = fits(e, gpu);
    auto point = [&](const char* link, const Fabric& f) {
      nlohmann::json p = {{"gpus", n}, {"link", link}, {"fits", fit}, {"tp", L->tp},
                          {"pp", L->pp}, {"dp", L->dp}};
      if (!fit) {
        p["hours"] = nullptr;
        p["tokens_per_second"] = nullptr;
        p["mfu"] = nullptr;
        return p;
      }
      const TrainingPerf t = estimate_training(req, gpu, *L, f, k);
      p["hours"] = t.available ? num(t.hours) : nlohmann::json();
      p["tokens_per_second"] = t.available ? num(t.tokens_per_second) : nlohmann::json();
      p["mfu"] = t.available ? num(t.mfu) : nlohmann::json();
      return p;
    };
    if (has_nvlink_class(gpu)) curve.push_back(point("nvlink", nvlink));
    if (has_nvlink_class(gpu) && bridge_part) curve.push_back(point("nvlink_bridge", bridge));
    curve.push_back(point("pcie", pcie));
  }
  return curve;
}

nlohmann::json concurrency_curve(const Request& req, const GpuSpec& gpu, const Layout& L,
                                 const Fabric& f, const PerformanceConstants& k,
                                 std::int64_t max_concurrency) {
  nlohmann::json curve = nlohmann::json::array();
  const ServingModel model(req, gpu, L, f, k);
  const double context = mean_decode_context(req);
  const std::int64_t top = std::min(
      kMaxCurveConcurrency, std::max<std::int64_t>({1, max_concurrency, req.inference.concurrency}));
  std::vector<std::int64_t> points;
  for (std::int64_t c = 1; c <= top; c *= 2) points.push_back(c);
  if (max_concurrency >= 1 && max_concurrency <= kMaxCurveConcurrency) points.push_back(max_concurrency);
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  for (std::int64_t c : points) {
    const DecodeStep s = model.decode(double(c), context);
    curve.push_back({{"concurrency", c},
                     {"decode_tokens_per_second", num(double(c) / s.step_s)},
                     {"per_user_tokens_per_second", num(1 / s.step_s)},
                     {"fits", c <= max_concurrency}});
  }
  return curve;
}

nlohmann::json interconnect_json(const GpuSpec& gpu, const Layout& L, const Fabric& f,
                                 const PerformanceConstants& k) {
  const int G = f.gpus_per_node;
  const int in_node = std::max(2, std::min(L.count, G));
  const GroupPlacement place = place_groups(L, G);
  const int all_per_node = std::min(L.count, G);
  nlohmann::json j;
  j["gpu"] = gpu.id;
  j["allreduce_bus_bandwidth_gbps"] =
      L.count > 1 ? num(group_busbw(f, L.count, all_per_node, k)) : nlohmann::json();
  j["intra_node"] = {{"kind", intra_link_name(f.intra)},
                     {"description", link_label(f)},
                     {"gpus", in_node},
                     {"busbw_gbps", num(intra_node_busbw(f, in_node, k))},
                     {"link_gbps_per_direction",
                      f.link_gbps > 0 ? num(f.link_gbps) : num(f.pcie_gbps)}};
  j["inter_node"] = {{"kind", f.network_id},
                     {"name", f.network_name},
                     {"gbps_per_gpu", num(f.network_gbps * 8)},
                     {"busbw_gbps", num(network_busbw(f, all_per_node))},
                     {"used", L.count > G},
                     {"chosen_by_advisor", f.network_auto}};
  j["data_parallel_busbw_gbps"] =
      L.dp > 1 ? num(group_busbw(f, L.dp, place.dp_per_node, k)) : nlohmann::json();
  j["tensor_parallel_busbw_gbps"] =
      L.tp > 1 ? num(group_busbw(f, L.tp, place.tp_per_node, k)) : nlohmann::json();
  j["gpus_per_node"] = G;
  return j;
}

std::vector<std::string> training_assumptions(const Request& req, const GpuSpec& gpu,
                                              const Layout& L, const Fabric& f,
                                              const TrainingPerf& t,
                                              const PerformanceConstants& k) {
  std::vector<std::string> out;
  const TrainingSettings& ts = req.training;
  out.push_back(
      "FLOPs per token (PaLM appendix B; causal attention not halved): model " +
      fmt("%.3g", t.flops.model / kGiga) + " GFLOP = forward " +
      fmt("%.3g", (t.flops.linear_forward + t.flops.attention_forward) / kGiga) + " (2 x " +
      fmt("%.3g", t.flops.linear_forward / 2 / kGiga) + " B matmul params incl. LM head, plus " +
      fmt("%.3g", t.flops.attention_forward / kGiga) + " attention at sequence " +
      std::to_string(ts.sequence_length) + ")" +
      (is_adapter(req.task) ? " + backward for input gradients only (frozen base) + LoRA terms"
                            : " x 3 (backward = 2 x forward)") +
      "; hardware " + fmt("%.3g", t.flops.hardware / kGiga) + " GFLOP with " +
      (ts.activation_checkpointing == "none" ? std::string("no")
                                             : ts.activation_checkpointing) +
      " recompute.");
  out.push_back(std::string("Peak: ") + fmt("%.1f", t.peak_tflops) + " dense " +
                (ts.precision == "fp8" ? "FP8 (attention core at 16-bit)" : ts.precision) +
                " TFLOPS x measured max achievable matmul fraction " +
                fmt("%.3f", t.matmul_fraction) + " x framework and GEMM-shape efficiency " +
                fmt("%.2f", t.gemm_efficiency) + " (" + std::to_string(ts.micro_batch_size) +
                " x " + std::to_string(ts.sequence_length) + " tokens per micro-batch, width " +
                std::to_string(req.model.hidden / L.tp) + ") = achieved " +
                fmt("%.0f", t.achieved_tflops_per_gpu) + " model TFLOPS per GPU (MFU " +
                fmt("%.1f%%", t.mfu * 100) + ").");
  out.push_back(token_budget_text(req, k));
  out.push_back("Global batch " + std::to_string(t.global_batch) + " sequences = " +
                std::to_string(t.microbatches) + " micro-batch(es) x " +
                std::to_string(ts.micro_batch_size) + " x data parallel " + std::to_string(L.dp) +
                (t.batch_adjusted ? " (rounded up from /training/global_batch_size)" : "") +
                (req.training.perf.global_batch_size ? "" : " (default; set "
                                                            "/training/global_batch_size)") +
                ".");
  std::string dp = "Inside a server: " + std::string(link_label(f)) +
                   (L.count > f.gpus_per_node
                        ? "; between servers: " + f.network_name +
                              (f.network_auto ? " (assumed; set /cluster)" : "")
                        : std::string("; one server")) +
                   ".";
  if (L.dp > 1) {
    dp += " Data parallel over " + std::to_string(L.dp) + " GPUs at " +
          fmt("%.0f", t.dp_busbw_gbps) + " GB/s bus bandwidth: " +
          (L.zero >= 3 ? "ZeRO-3 all-gathers the weights twice and reduce-scatters the gradients "
                         "every micro-batch (3 x parameter bytes)"
                       : L.zero == 2 ? "ZeRO-2 reduce-scatters gradients every micro-batch and "
                                       "all-gathers updated weights once per step"
                                     : "gradients are all-reduced once per step (2 x bytes)") +
          ", hidden behind up to " + fmt("%.0f%%", k.overlap_fraction * 100) +
          " of the compute; " + fmt("%.3g", t.data_parallel_exposed_s) + " s of " +
          fmt("%.3g", t.data_parallel_s) + " s per step exposed.";
  }
  out.push_back(dp);
  if (L.tp > 1) {
    out.push_back("Tensor parallel " + std::to_string(L.tp) + ": 4 all-reduces per layer per "
                  "micro-batch (2 forward, 2 backward; +2 with full recompute) of micro-batch x "
                  "sequence x hidden x 2 bytes at " + fmt("%.0f", t.tp_busbw_gbps) +
                  " GB/s, not overlapped (Megatron-LM).");
  }
  if (L.pp > 1) {
    out.push_back("Pipeline " + std::to_string(L.pp) + " stages, 1F1B: bubble (pp-1)/(m+pp-1) = " +
                  fmt("%.1f%%", 100.0 * (L.pp - 1) / (t.microbatches + L.pp - 1)) +
                  " of the step with m = " + std::to_string(t.microbatches) +
                  " micro-batches (no interleaving).");
  }
  if (req.task == Task::kQlora) {
    out.push_back("QLoRA: the " + ts.base_quantization + " base is dequantised to bf16 before "
                  "every GEMM in each forward, backward" +
                  std::string(ts.activation_checkpointing == "full" ? " and recomputed forward"
                                                                    : "") +
                  " pass (read 4-bit, write 16-bit) at " +
                  fmt("%.0f%%", k.memory_bandwidth_efficiency * 100) + " of " +
                  fmt("%.2f", gpu.memory_bandwidth_tbps) + " TB/s.");
  }
  out.push_back("Optimizer step: " + ts.optimizer + " update of this GPU's shard of the trainable "
                "parameters, memory-bandwidth-bound" +
                std::string(ts.offload_optimizer ? " (on the CPU, ZeRO-Offload, with PCIe copies)"
                                                 : "") +
                ".");
  if (!f.note.empty()) out.push_back(f.note + ".");
  return out;
}

std::vector<std::string> inference_assumptions(const Request& req, const GpuSpec& gpu,
                                               const Layout& L, const Fabric& f,
                                               const InferencePerf& p,
                                               const PerformanceConstants& k) {
  std::vector<std::string> out;
  const InferenceSettings& inf = req.inference;
  out.push_back("Decode step (bandwidth-bound unless the batch is large): read " +
                fmt("%.2f", p.step.weight_bytes / kGiga) + " GB of weights (" +
                inf.weight_format + ") and " + fmt("%.2f", p.step.kv_bytes / kGiga) +
                " GB of KV cache (" + inf.kv_cache_precision + ", " +
                std::to_string(inf.concurrency) + " sequences at a mean context of prompt + "
                "output/2) per GPU at " + fmt("%.0f%%", k.memory_bandwidth_efficiency * 100) +
                " of " + fmt("%.2f", gpu.memory_bandwidth_tbps) + " TB/s = " +
                fmt("%.2f", p.step.memory_s * 1e3) + " ms, vs compute " +
                fmt("%.2f", p.step.compute_s * 1e3) + " ms; the slower sets the step" +
                (L.tp > 1 ? ", plus " + fmt("%.2f", p.step.communication_s * 1e3) +
                                " ms of tensor-parallel all-reduces (2 per layer, " +
                                "latency-dominated)"
                          : std::string()) +
                ".");
  out.push_back("Time to first token: one prompt of " + std::to_string(inf.prompt_tokens) +
                " tokens prefilled on an idle replica (compute-bound); with all " +
                std::to_string(inf.concurrency) + " prompts at once the prefill takes " +
                fmt("%.3g", p.batch_prefill_s) + " s.");
  out.push_back("KV cache as vLLM sizes it: " + fmt("%.2f", inf.perf.gpu_memory_utilization) +
                " x memory - weights - activation peak - CUDA context/NCCL = " +
                fmt("%.2f", p.kv_budget_bytes / (1024.0 * 1024 * 1024)) + " GiB per GPU; " +
                std::to_string(p.max_concurrency) + " sequences of max_model_len " +
                std::to_string(p.max_model_len) + " fit.");
  if (inf.perf.target_users) {
    out.push_back(p.gpus_needed
                      ? "Target: " + std::to_string(*inf.perf.target_users) + " users; one " +
                            std::to_string(L.count) + "-GPU replica serves " +
                            std::to_string(p.users_per_replica) + " at the per-user target, so " +
                            std::to_string(p.replicas) + " replica(s) = " +
                            std::to_string(*p.gpus_needed) + " GPUs."
                      : "Target: " + p.target_note + ".");
  }
  if (!f.note.empty()) out.push_back(f.note + ".");
  return out;
}

nlohmann::json null_training(const Request& req, const PerformanceConstants& k) {
  nlohmann::json j = {{"tokens_per_second", nullptr}, {"mfu", nullptr},
                      {"hours", nullptr},             {"gpu_hours", nullptr},
                      {"step_time_s", nullptr},       {"breakdown", nullptr},
                      {"tokens", num(token_budget(req, k))},
                      {"gpu", nullptr},               {"scaling_curve", nlohmann::json::array()}};
  j["assumptions"] = {token_budget_text(req, k),
                      "No hardware pinned: speed is given per option (options[].training) at "
                      "its minimum GPU count; pin /hardware for the full breakdown."};
  return j;
}

nlohmann::json null_inference() {
  return {{"decode_tokens_per_second", nullptr},
          {"per_user_tokens_per_second", nullptr},
          {"time_to_first_token_s", nullptr},
          {"max_concurrency", nullptr},
          {"gpus_needed", nullptr},
          {"gpu", nullptr},
          {"concurrency_curve", nlohmann::json::array()},
          {"assumptions", {"No hardware pinned: speed is given per option (options[].inference) "
                           "at its minimum GPU count; pin /hardware for the full breakdown."}}};
}

}  // namespace

void add_speed_results(const Request& req, const Catalog& catalog, const Layout& L,
                       const MemoryEstimate& e, nlohmann::json& result, nlohmann::json& warnings) {
  const PerformanceConstants& k = performance_constants();
  const bool training = is_training(req.task);
  result["training"] = nullptr;
  result["inference"] = nullptr;
  result["interconnect"] = {{"allreduce_bus_bandwidth_gbps", nullptr},
                            {"intra_node", nullptr},
                            {"inter_node", nullptr}};
  if (!req.hardware) {
    if (training) result["training"] = null_training(req, k);
    else result["inference"] = null_inference();
    return;
  }
  check_global_batch(req, L);
  const GpuSpec& gpu = *catalog.find_gpu(req.hardware->gpu);
  const Fabric f = make_fabric(gpu, req.cluster, k);
  result["interconnect"] = interconnect_json(gpu, L, f, k);
  if (!f.note.empty()) warnings.push_back(warning_json("link_bandwidth_unknown", f.note, "/hardware/gpu"));
  if (training) {
    const TrainingPerf t = estimate_training(req, gpu, L, f, k);
    if (!t.available) {  // parse_request rejects these when hardware is pinned
      result["training"] = null_training(req, k);
      return;
    }
    nlohmann::json j = training_summary(t);
    j["tokens"] = num(t.tokens);
    j["gpu"] = gpu.id;
    j["breakdown"] = {{"compute_s", num(t.compute_s)},
                      {"exposed_communication_s", num(t.exposed_communication_s)},
                      {"pipeline_bubble_s", num(t.pipeline_bubble_s)},
                      {"dequantization_s", num(t.dequantization_s)},
                      {"optimizer_s", num(t.optimizer_s)}};
    j["communication"] = {{"data_parallel_s", num(t.data_parallel_s)},
                          {"data_parallel_exposed_s", num(t.data_parallel_exposed_s)},
                          {"tensor_parallel_s", num(t.tensor_parallel_s)},
                          {"pipeline_p2p_s", num(t.pipeline_p2p_s)},
                          {"expert_parallel_s", num(t.expert_parallel_s)}};
    j["global_batch_size"] = t.global_batch;
    j["microbatches_per_step"] = t.microbatches;
    j["tokens_per_step"] = num(t.tokens_per_step);
    j["flops_per_token"] = {{"model", num(t.flops.model)}, {"hardware", num(t.flops.hardware)}};
    j["achieved_tflops_per_gpu"] = num(t.achieved_tflops_per_gpu);
    j["peak_tflops"] = num(t.peak_tflops);
    j["matmul_fraction"] = num(t.matmul_fraction);
    j["storage_read_gbps_needed"] = num(t.storage_read_gbps_needed);
    j["storage_read_gbps"] =
        req.cluster.storage_read_gbps ? num(*req.cluster.storage_read_gbps) : nlohmann::json();
    j["assumptions"] = training_assumptions(req, gpu, L, f, t, k);
    j["scaling_curve"] = scaling_curve(req, catalog, gpu, k);
    result["training"] = j;
    if (req.cluster.storage_read_gbps &&
        t.storage_read_gbps_needed > *req.cluster.storage_read_gbps) {
      warnings.push_back(warning_json(
          "storage_starves_gpus",
          "the GPUs consume " + fmt("%.3g", t.tokens_per_second) + " tokens/s, which needs " +
              fmt("%.3g", t.storage_read_gbps_needed) + " GB/s of storage reads; the planned " +
              fmt("%.3g", *req.cluster.storage_read_gbps) + " GB/s would leave them waiting",
          "/cluster/storage_read_gbps"));
    }
    if (t.exposed_communication_s > kCommunicationBoundShare * t.step_time_s) {
      warnings.push_back(warning_json(
          "communication_bound",
          fmt("%.0f%%", 100 * t.exposed_communication_s / t.step_time_s) +
              " of each step waits on communication that compute cannot hide (" +
              std::string(link_label(f)) +
              "): a faster link, a larger micro-batch or less sharding would help",
          "/hardware"));
    }
    return;
  }
  const InferencePerf p = estimate_inference(req, gpu, L, e, f, k, catalog.memory);
  // GPUs for a target load: replicas of the pinned layout or, when one replica of it cannot give
  // a user the target speed, of the narrowest wider tensor-parallel replica inside a server.
  InferencePerf sized = p;
  Layout replica = L;
  if (req.inference.perf.target_users && !p.gpus_needed) {
    Request wide = req;
    wide.parallelism.tp_pinned = false;
    wide.parallelism.pp_pinned = false;
    for (int n = 2 * L.count; n <= kGpusPerServer; n *= 2) {
      const auto W = layout_for_count(wide, n);
      if (!W) continue;
      const MemoryEstimate we = estimate_memory(wide, *W, catalog.memory, false);
      const InferencePerf wp = estimate_inference(wide, gpu, *W, we, f, k, catalog.memory);
      if (wp.gpus_needed) {
        sized = wp;
        replica = *W;
        break;
      }
    }
  }
  nlohmann::json j = inference_summary(p);
  j["gpu"] = gpu.id;
  j["gpus_needed"] = sized.gpus_needed ? nlohmann::json(*sized.gpus_needed) : nlohmann::json();
  j["replicas"] = sized.gpus_needed ? nlohmann::json(sized.replicas) : nlohmann::json();
  j["users_per_replica"] =
      sized.gpus_needed ? nlohmann::json(sized.users_per_replica) : nlohmann::json();
  j["replica_layout"] = sized.gpus_needed ? nlohmann::json({{"count", replica.count},
                                                            {"tp", replica.tp},
                                                            {"pp", replica.pp}})
                                          : nlohmann::json();
  if (sized.gpus_needed && replica.count != L.count) {
    warnings.push_back(warning_json(
        "target_needs_wider_replicas",
        "one replica of the pinned " + std::to_string(L.count) + " GPU(s) cannot reach the "
        "per-user speed target; replicas of tensor parallel " + std::to_string(replica.tp) +
            " can: " + std::to_string(sized.replicas) + " replicas, " +
            std::to_string(*sized.gpus_needed) + " GPUs",
        "/inference/target_tokens_per_second_per_user"));
  }
  j["decode_step_s"] = num(p.step.step_s);
  j["decode_breakdown"] = {{"memory_s", num(p.step.memory_s)},
                           {"compute_s", num(p.step.compute_s)},
                           {"communication_s", num(p.step.communication_s)},
                           {"weight_bytes", num(p.step.weight_bytes)},
                           {"kv_cache_bytes", num(p.step.kv_bytes)}};
  j["bandwidth_bound"] = p.bandwidth_bound;
  j["batch_prefill_s"] = num(p.batch_prefill_s);
  j["sustained_output_tokens_per_second"] = num(p.sustained_output_tokens_per_second);
  j["kv_cache"] = {{"budget_bytes", num(p.kv_budget_bytes)},
                   {"bytes_per_token", num(p.kv_bytes_per_token)},
                   {"max_model_len", p.max_model_len},
                   {"gpu_memory_utilization", req.inference.perf.gpu_memory_utilization}};
  j["assumptions"] = inference_assumptions(req, gpu, L, f, p, k);
  j["concurrency_curve"] = concurrency_curve(req, gpu, L, f, k, p.max_concurrency);
  result["inference"] = j;
  if (req.inference.concurrency > p.max_concurrency) {
    warnings.push_back(warning_json(
        "kv_cache_overcommitted",
        "a serving engine with gpu_memory_utilization " +
            fmt("%.2f", req.inference.perf.gpu_memory_utilization) + " fits " +
            std::to_string(p.max_concurrency) + " sequences of " +
            std::to_string(p.max_model_len) + " tokens; " +
            std::to_string(req.inference.concurrency) + " would queue or be preempted",
        "/inference/concurrency"));
  }
  if (req.inference.perf.target_users && !sized.gpus_needed) {
    warnings.push_back(warning_json("target_unreachable", p.target_note,
                               "/inference/target_tokens_per_second_per_user"));
  }
}

void add_option_speed(const Request& req, const Catalog& catalog, const GpuOption& o,
                      nlohmann::json& j, nlohmann::json& result) {
  const PerformanceConstants& k = performance_constants();
  const bool training = is_training(req.task);
  j[training ? "training" : "inference"] = nullptr;
  j["allreduce_bus_bandwidth_gbps"] = nullptr;
  if (!o.min_layout) return;
  const GpuSpec& gpu = *o.gpu;
  const Layout& L = *o.min_layout;
  const Fabric f = make_fabric(gpu, req.cluster, k);
  if (L.count > 1) {
    j["allreduce_bus_bandwidth_gbps"] =
        num(group_busbw(f, L.count, std::min(L.count, f.gpus_per_node), k));
  }
  j["intra_node_link"] = intra_link_name(f.intra);
  const bool first = !req.hardware && result.contains(training ? "training" : "inference") &&
                     result[training ? "training" : "inference"].is_object() &&
                     result[training ? "training" : "inference"]["gpu"].is_null();
  if (training) {
    const TrainingPerf t = estimate_training(req, gpu, L, f, k);
    j["training"] = training_summary(t);
    if (!t.available) j["speed_note"] = t.reason;
    if (first && t.available) {
      nlohmann::json& r = result["training"];
      r["gpu"] = gpu.id;
      r["scaling_curve"] = scaling_curve(req, catalog, gpu, k);
    }
    return;
  }
  const InferencePerf p = estimate_inference(req, gpu, L, o.at_min, f, k, catalog.memory);
  j["inference"] = inference_summary(p);
  j["inference"]["gpus_needed"] = p.gpus_needed ? nlohmann::json(*p.gpus_needed)
                                                : nlohmann::json();
  if (first) {
    nlohmann::json& r = result["inference"];
    r["gpu"] = gpu.id;
    r["concurrency_curve"] = concurrency_curve(req, gpu, L, f, k, p.max_concurrency);
  }
}

}  // namespace advisor
