// SPDX-License-Identifier: MIT
// The assumption lines shown under the training and serving speed figures: each states a term of
// the model with the numbers that went into it (docs/speed.md). Each line is a code with its
// named figures (the page renders it in either language) and the English sentence as fallback.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "plan/speed_results.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {
constexpr double kGiga = 1e9;
constexpr double kGoodputShown = 0.995;  // goodput below this gets its own line

double num(std::int64_t v) { return static_cast<double>(v); }

/// A server class (engine/comm server_class) in words.
std::string server_class_words(std::string_view cls) {
  if (cls == "hgx_pcie5") return "PCIe Gen5 SXM/OAM baseboard";
  if (cls == "hgx_pcie4") return "PCIe Gen4 SXM/OAM baseboard";
  if (cls == "pcie_datacenter") return "data-centre PCIe card";
  if (cls == "workstation") return "workstation-card";
  if (cls == "geforce") return "GeForce";
  return std::string(cls);
}

/// How the token budget was chosen (engine/training token_budget_text), as a note.
Note token_budget_note(const Request& req, const PerformanceConstants& k) {
  const TrainingPerfSettings& p = req.training.perf;
  const double tokens = token_budget(req, k);
  std::string code = "token_budget_finetune_default";
  std::vector<ReasonParam> params{param("tokens", tokens)};
  if (p.tokens) {
    code = "token_budget_given";
  } else if (p.dataset_tokens) {
    code = "token_budget_epochs";
    params.push_back(param("epochs", p.epochs.value_or(1)));
    params.push_back(param("dataset_tokens", *p.dataset_tokens));
  } else if (req.task == Task::kPretrain) {
    code = "token_budget_pretrain_default";
    params.push_back(param("tokens_per_parameter", k.pretrain_tokens_per_parameter));
  }
  return {code, std::move(params), token_budget_text(req, k)};
}
}  // namespace

void add_link_unknown(const GpuSpec& gpu, const Fabric& f, std::vector<Note>& out) {
  if (!f.note.empty())
    out.push_back({"link_bandwidth_unknown",
                   {param("gpu", gpu.name), param("link", gpu.scale_up_link.name)},
                   f.note + "."});
}

Note unpinned_speed_note(bool training) {
  return {training ? "no_hardware_training" : "no_hardware_serving",
          {},
          std::string("No hardware pinned: speed is given per option (options[].") +
              (training
                   ? "training) at its minimum GPU count; pin /hardware for the full breakdown."
                   : "inference) at its minimum GPU count; pin /hardware for the full breakdown.")};
}

Note training_token_note(const Request& req, const PerformanceConstants& k) {
  return token_budget_note(req, k);
}

namespace {

/// The notes of a training plan's speed, one builder per note, in the order the page shows them.
struct TrainingNotes {
  const Request& req;
  const GpuSpec& gpu;
  const Layout& L;
  const Fabric& f;
  const TrainingPerf& t;
  const PerformanceConstants& k;
  const TrainingSettings& ts = req.training;
  const StackProfile& st = req.stack;
  // Gradients are reduced over data x context parallel (Layout::shard_ranks).
  const int dp_group = L.shard_ranks();
  std::vector<Note> out = {};

  /// FLOPs per token: the model's and what the hardware runs with recompute.
  void flops() {
    const char* recompute = ts.activation_checkpointing == Checkpointing::kNone
                                ? "none"
                                : name_of(ts.activation_checkpointing);
    out.push_back(
        {"training_flops",
         {param("model_gflop", t.flops.model / kGiga),
          param("forward_gflop", (t.flops.linear_forward + t.flops.attention_forward) / kGiga),
          param("matmul_params_b", t.flops.linear_forward / 2 / kGiga),
          param("attention_gflop", t.flops.attention_forward / kGiga),
          param("sequence", ts.sequence_length), param("adapter", flag(is_adapter(req.task))),
          param("hardware_gflop", t.flops.hardware / kGiga),
          param("recompute", std::string(recompute))},
         "FLOPs per token (PaLM appendix B; causal attention not halved): model " +
             format_with("%.3g", t.flops.model / kGiga) + " GFLOP = forward " +
             format_with("%.3g", (t.flops.linear_forward + t.flops.attention_forward) / kGiga) +
             " (2 x " + format_with("%.3g", t.flops.linear_forward / 2 / kGiga) +
             " B matmul params incl. LM head, plus " +
             format_with("%.3g", t.flops.attention_forward / kGiga) + " attention at sequence " +
             std::to_string(ts.sequence_length) + ")" +
             (is_adapter(req.task)
                  ? " + backward for input gradients only (frozen base) + LoRA terms"
                  : " x 3 (backward = 2 x forward)") +
             "; hardware " + format_with("%.3g", t.flops.hardware / kGiga) + " GFLOP with " +
             (ts.activation_checkpointing == Checkpointing::kNone
                  ? std::string("no")
                  : std::string(name_of(ts.activation_checkpointing))) +
             " recompute."});
  }

  /// The achieved matmul rate: peak x measured fraction x framework and GEMM-shape efficiency.
  void peak() {
    out.push_back(
        {"training_peak",
         {param("peak_tflops", t.peak_tflops),
          param("precision",
                std::string(ts.precision == Precision::kFp8 ? "fp8_mixed" : name_of(ts.precision))),
          param("matmul_fraction", t.matmul_fraction), param("gemm_efficiency", t.gemm_efficiency),
          param("micro_batch", ts.micro_batch_size),
          // Tokens of a micro-batch on one GPU: 1/cp of each sequence under context
          // parallelism.
          param("sequence", ts.sequence_length / L.cp),
          param("width", num(req.model.hidden / L.tp)),
          param("achieved_tflops", t.achieved_tflops_per_gpu), param("mfu_share", t.mfu)},
         std::string("Peak: ") + format_with("%.1f", t.peak_tflops) + " dense " +
             (ts.precision == Precision::kFp8 ? "FP8 (attention core at 16-bit)"
                                              : name_of(ts.precision)) +
             " TFLOPS x measured max achievable matmul fraction " +
             format_with("%.3f", t.matmul_fraction) + " x framework and GEMM-shape efficiency " +
             format_with("%.2f", t.gemm_efficiency) + " (" + std::to_string(ts.micro_batch_size) +
             " x " + std::to_string(ts.sequence_length / L.cp) + " tokens per micro-batch, width " +
             std::to_string(req.model.hidden / L.tp) + ") = achieved " +
             format_with("%.0f", t.achieved_tflops_per_gpu) + " model TFLOPS per GPU (MFU " +
             format_with("%.1f%%", t.mfu * 100) + ")."});
  }

  /// The memory-bound kernels' share of the step.
  void memory_bound() {
    const double memory_bound_ms = t.microbatches > 0 ? t.memory_bound_s / t.microbatches * 1e3 : 0;
    const double memory_bound_gb = t.memory_bound_bytes_per_microbatch / kGiga;
    const double memory_bound_share = t.step_time_s > 0 ? t.memory_bound_s / t.step_time_s : 0;
    out.push_back(
        {"training_memory_bound",
         {param("passes", st.activation_traffic_passes),
          param("gb_per_microbatch", memory_bound_gb),
          param("bandwidth_gbps", t.memory_bandwidth_gbps),
          param("ms_per_microbatch", memory_bound_ms), param("step_share", memory_bound_share)},
         "Memory-bound kernels (norms, residual adds, activation functions, rotary): the stack "
         "moves each activation byte the forward writes " +
             format_with("%.3g", st.activation_traffic_passes) +
             " times = " + format_with("%.3g", memory_bound_gb) + " GB per micro-batch at " +
             format_with("%.0f", t.memory_bandwidth_gbps) +
             " GB/s = " + format_with("%.3g", memory_bound_ms) + " ms (" +
             format_with("%.1f%%", memory_bound_share * 100) + " of the step)."});
  }

  /// The stack's efficiency and the host's launch time per micro-batch.
  void stack() {
    out.push_back(
        {"training_stack",
         {param("stack", st.name), param("stack_id", st.id),
          param("stack_given", flag(req.stack_given)),
          param("task", std::string(name_of(req.task))), param("efficiency", st.efficiency_factor),
          param("ops_per_layer", ops_per_layer(req)), param("dispatch_us", st.dispatch_us_per_op),
          param("host_ms", t.host_s_per_microbatch * 1e3),
          param("launch_wait_s", t.launch_overhead_s)},
         "Stack: " + st.name + " (" +
             (req.stack_given ? std::string("/stack")
                              : "default for " + std::string(name_of(req.task)) + "; set /stack") +
             "): framework efficiency x" + format_with("%.2f", st.efficiency_factor) +
             "; the host launches " + format_with("%.0f", ops_per_layer(req)) +
             " operators per layer per micro-batch at " +
             format_with("%.1f", st.dispatch_us_per_op) + " us each = " +
             format_with("%.3g", t.host_s_per_microbatch * 1e3) + " ms per micro-batch" +
             (t.launch_overhead_s > 0
                  ? ", longer than its GPU work: " + format_with("%.3g", t.launch_overhead_s) +
                        " s per step waits on launches"
                  : std::string(", hidden behind the GPU work")) +
             "."});
  }

  /// Where the token budget comes from.
  void token_budget() { out.push_back(token_budget_note(req, k)); }

  /// Failures and restarts in the whole-run hours (only when they cost something).
  void goodput() {
    if (t.goodput < kGoodputShown) {
      out.push_back(
          {"training_goodput",
           {param("failures_per_gpu_hour", k.failures_per_gpu_hour), param("gpus", L.count),
            param("hours_lost", k.hours_lost_per_failure), param("goodput_share", t.goodput)},
           "Whole-run hours include failures: " + format_with("%.3g", k.failures_per_gpu_hour) +
               " interruptions per GPU-hour x " + std::to_string(L.count) + " GPUs x " +
               format_with("%.2g", k.hours_lost_per_failure) +
               " h lost each (Llama 3 paper) leaves " + format_with("%.1f%%", t.goodput * 100) +
               " goodput."});
    }
  }

  /// Start-up before the first step.
  void startup() {
    if (t.startup.total_s() > 0) {
      const JobStartup& u = t.startup;
      out.push_back(
          {"training_startup",
           {param("startup_s", u.total_s()), param("image_pull_s", u.image_pull_s),
            param("weights_load_s", u.weights_load_s), param("warmup_s", u.warmup_s),
            param("rendezvous_s", u.rendezvous_s), param("servers", L.servers())},
           "Start-up before the first step, in the hours and paid by every GPU: image pull " +
               format_with("%.0f", u.image_pull_s) + " s, weights load " +
               format_with("%.0f", u.weights_load_s) + " s, warm-up " +
               format_with("%.0f", u.warmup_s) + " s, rendezvous of " +
               std::to_string(L.servers()) + " server(s) " + format_with("%.0f", u.rendezvous_s) +
               " s = " + format_with("%.1f", u.total_s() / 60) + " min (performance.json runs)."});
    }
  }

  /// The global batch as micro-batches x micro-batch x data parallel.
  void global_batch() {
    out.push_back(
        {"training_global_batch",
         {param("global_batch", num(t.global_batch)), param("microbatches", num(t.microbatches)),
          param("micro_batch", ts.micro_batch_size), param("dp", L.dp),
          param("rounded", flag(t.batch_adjusted)),
          param("defaulted", flag(!req.training.perf.global_batch_size))},
         "Global batch " + std::to_string(t.global_batch) +
             " sequences = " + std::to_string(t.microbatches) + " micro-batch(es) x " +
             std::to_string(ts.micro_batch_size) + " x data parallel " + std::to_string(L.dp) +
             (t.batch_adjusted ? " (rounded up from /training/global_batch_size)" : "") +
             (req.training.perf.global_batch_size ? ""
                                                  : " (default; set "
                                                    "/training/global_batch_size)") +
             "."});
  }

  /// The links inside and between servers, and the data-parallel traffic over them.
  void links() {
    std::string dp =
        "Inside a server: " + std::string(link_label(f)) +
        (L.count > f.gpus_per_node
             ? "; between servers: " + network_label(f) +
                   (f.network_auto ? " (assumed: what a " + server_class_words(f.server_class) +
                                         " server is sold with; set /cluster)"
                                   : "")
             : std::string("; one server")) +
        ".";
    if (dp_group > 1) {
      dp += " Data parallel over " + std::to_string(dp_group) + " GPUs" +
            (L.cp > 1
                 ? " (" + std::to_string(L.dp) + " x context parallel " + std::to_string(L.cp) + ")"
                 : std::string()) +
            " at " + format_with("%.0f", t.dp_busbw_gbps) + " GB/s bus bandwidth: " +
            (L.zero >= 3 ? "ZeRO-3 all-gathers the weights twice and reduce-scatters the gradients "
                           "every micro-batch (3 x parameter bytes)"
             : L.zero == 2 ? "ZeRO-2 reduce-scatters gradients every micro-batch and "
                             "all-gathers updated weights once per step"
                           : "gradients are all-reduced once per step (2 x bytes)") +
            ", hidden behind up to " + format_with("%.0f%%", k.overlap_fraction * 100) +
            " of the compute; " + format_with("%.3g", t.data_parallel_exposed_s) + " s of " +
            format_with("%.3g", t.data_parallel_s) + " s per step exposed.";
    }
    out.push_back(
        {"training_links",
         {param("link", std::string(intra_link_name(f.intra))),
          param("multi_server", flag(L.count > f.gpus_per_node)),
          param("network", network_label(f)), param("network_assumed", flag(f.network_auto)),
          param("rdma", flag(f.network_rdma)), param("data_parallel", flag(dp_group > 1)),
          param("dp", dp_group), param("dp_busbw_gbps", t.dp_busbw_gbps),
          param("sharding", std::string(L.zero >= 3   ? "zero3"
                                        : L.zero == 2 ? "zero2"
                                                      : "allreduce")),
          param("overlap_share", k.overlap_fraction), param("exposed_s", t.data_parallel_exposed_s),
          param("dp_s", t.data_parallel_s)},
         dp});
    if (f.network_auto && !f.server_class.empty())
      out.back().params.push_back(param("server_class", std::string(f.server_class)));
  }

  /// Hybrid sharding, when the request states a shard group.
  void shard_group() {
    if (L.shard_group > 0 && dp_group > 1) {
      // Only when the request states a shard group, so other answers read as before.
      const GroupPlacement place = place_groups(L, f.gpus_per_node);
      out.push_back(
          {"training_shard_group",
           {param("shard_group", L.zero_shards()), param("replicas", L.shard_replicas()),
            param("shard_busbw_gbps", t.dp_busbw_gbps),
            param("shard_cross_server", flag(L.zero_shards() > place.shard_per_node)),
            param("replica_cross_server", flag(place.replica_crosses)),
            param("replica_busbw_gbps", t.replica_busbw_gbps),
            param("replica_s", t.shard_replica_s)},
           "Hybrid sharding: weights, gradients and optimizer states sharded over groups of " +
               std::to_string(L.zero_shards()) + " GPUs" +
               (L.zero_shards() > place.shard_per_node ? " (across servers)"
                                                       : " (inside a server)") +
               ", replicated " + std::to_string(L.shard_replicas()) +
               " times (FSDP HYBRID_SHARD, ZeRO++ hpZ)" +
               (L.shard_replicas() > 1
                    ? "; each GPU's gradient shard is all-reduced across the replicas once per "
                      "step" +
                          std::string(place.replica_crosses ? " over the network" : "") + " at " +
                          format_with("%.0f", t.replica_busbw_gbps) +
                          " GB/s: " + format_with("%.3g", t.shard_replica_s) + " s per step."
                    : ".")});
    }
  }

  /// Tensor-parallel all-reduces.
  void tensor_parallel() {
    if (L.tp > 1) {
      out.push_back(
          {"training_tensor_parallel",
           {param("tp", L.tp), param("tp_busbw_gbps", t.tp_busbw_gbps)},
           "Tensor parallel " + std::to_string(L.tp) +
               ": 4 all-reduces per layer per "
               "micro-batch (2 forward, 2 backward; +2 with full recompute) of micro-batch x "
               "sequence x hidden x 2 bytes at " +
               format_with("%.0f", t.tp_busbw_gbps) + " GB/s, not overlapped (Megatron-LM)."});
    }
  }

  /// Context-parallel ring traffic.
  void context_parallel() {
    if (L.cp > 1) {
      out.push_back(
          {"training_context_parallel",
           {param("cp", L.cp), param("local_tokens", num(ts.sequence_length / L.cp)),
            param("cross_server", flag(place_groups(L, f.gpus_per_node).cp_crosses)),
            param("cp_busbw_gbps", t.cp_busbw_gbps), param("cp_s", t.context_parallel_s),
            param("exposed_s", t.context_parallel_exposed_s)},
           "Context parallel " + std::to_string(L.cp) + ": each GPU takes " +
               std::to_string(ts.sequence_length / L.cp) +
               " tokens of every sequence (2 x cp load-balanced causal chunks); per layer "
               "the ring passes each chunk's K and V to the other ranks in the forward and "
               "K, V, dK, dV in the backward (x2; a recompute repeats the forward) " +
               (place_groups(L, f.gpus_per_node).cp_crosses ? "across servers"
                                                            : "inside a server") +
               " at " + format_with("%.0f", t.cp_busbw_gbps) +
               " GB/s, overlapped with the attention of the chunk in hand (Ring Attention, "
               "Liu et al. 2023; Megatron-LM): " +
               format_with("%.3g", t.context_parallel_exposed_s) + " s of " +
               format_with("%.3g", t.context_parallel_s) + " s per step exposed."});
    }
  }

  /// The pipeline schedule and its bubble.
  void pipeline() {
    if (runs_dualpipe(req, L)) {
      // The bubble in stage pairs of two-thirds of a micro-batch (engine/training.cpp).
      const double bubble = t.pipeline_bubble_s / t.step_time_s;
      out.push_back({"training_pipeline_dualpipe",
                     {param("pp", L.pp), param("bubble_share", bubble),
                      param("microbatches", num(t.microbatches)),
                      param("overlapped_s", t.overlapped_pipeline_traffic_s),
                      param("exposed_s", t.overlapped_pipeline_traffic_exposed_s)},
                     "Pipeline " + std::to_string(L.pp) +
                         " stages, DualPipe (DeepSeek-V3): micro-batches enter from both ends, "
                         "bubble (pp/2-1)(F&B+B-3W) = " +
                         format_with("%.1f%%", 100 * bubble) +
                         " of the step with m = " + std::to_string(t.microbatches) +
                         " micro-batches; expert all-to-alls and pipeline transfers (" +
                         format_with("%.3g", t.overlapped_pipeline_traffic_s) +
                         " s per step) run while the other direction computes, " +
                         format_with("%.3g", t.overlapped_pipeline_traffic_exposed_s) +
                         " s exposed."});
    } else if (L.pp > 1) {
      const int vp = req.parallelism.virtual_stages;
      out.push_back(
          {"training_pipeline",
           {param("pp", L.pp), param("virtual_stages", vp),
            param("bubble_share", (L.pp - 1.0) / (vp * t.microbatches + L.pp - 1)),
            param("microbatches", num(t.microbatches))},
           "Pipeline " + std::to_string(L.pp) + " stages, " +
               (vp > 1 ? "interleaved 1F1B with " + std::to_string(vp) +
                             " model chunks per stage: bubble (pp-1)/(v m + pp-1) = "
                       : std::string("1F1B: bubble (pp-1)/(m+pp-1) = ")) +
               format_with("%.1f%%", 100.0 * (L.pp - 1) / (vp * t.microbatches + L.pp - 1)) +
               " of the step with m = " + std::to_string(t.microbatches) + " micro-batches" +
               (vp > 1 ? "" : " (set /parallelism/virtual_stages to interleave)") + "."});
    }
  }

  /// QLoRA's dequantisation traffic.
  void qlora() {
    if (req.task == Task::kQlora) {
      out.push_back(
          {"training_qlora_dequant",
           {param("base", std::string(name_of(ts.base_quantization))),
            param("recompute_full", flag(ts.activation_checkpointing == Checkpointing::kFull)),
            param("bandwidth_share", k.memory_bandwidth_efficiency),
            param("bandwidth_tbps", gpu.memory_bandwidth_tbps)},
           "QLoRA: the " + std::string(name_of(ts.base_quantization)) +
               " base is dequantised to bf16 before "
               "every GEMM in each forward, backward" +
               std::string(ts.activation_checkpointing == Checkpointing::kFull
                               ? " and recomputed forward"
                               : "") +
               " pass (read 4-bit, write 16-bit) at " +
               format_with("%.0f%%", k.memory_bandwidth_efficiency * 100) + " of " +
               format_with("%.2f", gpu.memory_bandwidth_tbps) + " TB/s."});
    }
  }

  /// The optimizer step.
  void optimizer() {
    out.push_back(
        {"training_optimizer",
         {param("optimizer", std::string(name_of(ts.optimizer))),
          param("offload", flag(ts.offload_optimizer))},
         "Optimizer step: " + std::string(name_of(ts.optimizer)) +
             " update of this GPU's shard of the trainable "
             "parameters, memory-bandwidth-bound" +
             std::string(ts.offload_optimizer ? " (on the CPU, ZeRO-Offload, with PCIe copies)"
                                              : "") +
             "."});
  }

  /// A link whose bandwidth is not published.
  void link_unknown() { add_link_unknown(gpu, f, out); }
};

}  // namespace

std::vector<Note> training_assumptions(const Request& req, const GpuSpec& gpu, const Layout& L,
                                       const Fabric& f, const TrainingPerf& t,
                                       const PerformanceConstants& k) {
  TrainingNotes notes{req, gpu, L, f, t, k};
  notes.flops();
  notes.peak();
  notes.memory_bound();
  notes.stack();
  notes.token_budget();
  notes.goodput();
  notes.startup();
  notes.global_batch();
  notes.links();
  notes.shard_group();
  notes.tensor_parallel();
  notes.context_parallel();
  notes.pipeline();
  notes.qlora();
  notes.optimizer();
  notes.link_unknown();
  return std::move(notes.out);
}

}  // namespace advisor
