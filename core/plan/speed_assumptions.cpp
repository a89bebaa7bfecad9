// SPDX-License-Identifier: MIT
// The assumption lines shown under the training and serving speed figures: each states a term of
// the model with the numbers that went into it (docs/speed.md). Each line is a code with its
// named figures only: its words, in each language, are in data/messages (assume.<code>).
#include "plan/speed_assumptions.hpp"

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

/// How the token budget was chosen, as a note.
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
  return {code, std::move(params)};
}
}  // namespace

void add_link_unknown(const GpuSpec& gpu, const Fabric& f, std::vector<Note>& out) {
  if (!f.note.empty())
    out.push_back({"link_bandwidth_unknown",
                   {param("gpu", gpu.name), param("link", gpu.scale_up_link.name)}});
}

void add_power_limit(const GpuSpec& gpu, const PerformanceConstants& k, std::vector<Note>& out) {
  if (!gpu.power_limit) return;
  out.push_back({"power_limit",
                 {param("gpu", gpu.name), param("limit_w", gpu.tdp_watts),
                  param("tdp_w", gpu.power_limit->tdp_watts),
                  param("clock_share", gpu.power_limit->clock_fraction),
                  param("static_share", k.power_limit_static_fraction),
                  param("exponent", k.power_limit_dynamic_exponent)}});
}

Note unpinned_speed_note(bool training) {
  return {training ? "no_hardware_training" : "no_hardware_serving", {}};
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
          param("recompute", std::string(recompute))}});
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
          param("achieved_tflops", t.achieved_tflops_per_gpu), param("mfu_share", t.mfu)}});
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
          param("ms_per_microbatch", memory_bound_ms), param("step_share", memory_bound_share)}});
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
          param("launch_wait_s", t.launch_overhead_s)}});
  }

  /// Where the token budget comes from.
  void token_budget() { out.push_back(token_budget_note(req, k)); }

  /// Failures and restarts in the whole-run hours (only when they cost something).
  void goodput() {
    if (t.goodput < kGoodputShown) {
      out.push_back(
          {"training_goodput",
           {param("failures_per_gpu_hour", k.failures_per_gpu_hour), param("gpus", L.count),
            param("hours_lost", k.hours_lost_per_failure), param("goodput_share", t.goodput)}});
    }
  }

  /// The checkpoint saves in the whole-run hours.
  void checkpoints() {
    const CheckpointWrites& c = t.checkpoints;
    if (c.total_s() <= 0) return;
    out.push_back(
        {"training_checkpoints",
         {param("saves", c.count), param("each_s", c.each_s), param("total_h", c.total_hours()),
          param("bytes", c.bytes), param("interval_h", k.checkpoint_interval_hours),
          param("write_gbps", k.checkpoint_write_gbyte_per_s),
          param("servers", L.zero >= 1 ? L.servers() : 1)}});
  }

  /// Start-up before the first step.
  void startup() {
    if (t.startup.total_s() > 0) {
      const JobStartup& u = t.startup;
      out.push_back({"training_startup",
                     {param("startup_s", u.total_s()), param("image_pull_s", u.image_pull_s),
                      param("weights_load_s", u.weights_load_s), param("warmup_s", u.warmup_s),
                      param("rendezvous_s", u.rendezvous_s), param("servers", L.servers())}});
    }
  }

  /// The global batch as micro-batches x micro-batch x data parallel.
  void global_batch() {
    out.push_back(
        {"training_global_batch",
         {param("global_batch", num(t.global_batch)), param("microbatches", num(t.microbatches)),
          param("micro_batch", ts.micro_batch_size), param("dp", L.dp),
          param("rounded", flag(t.batch_adjusted)),
          param("defaulted", flag(!req.training.perf.global_batch_size))}});
  }

  /// The links inside and between servers, and the data-parallel traffic over them.
  void links() {
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
          param("dp_s", t.data_parallel_s)}});
    if (f.network_auto && !f.server_class.empty())
      out.back().params.push_back(param("server_class", std::string(f.server_class)));
  }

  /// Hybrid sharding, when the request states a shard group.
  void shard_group() {
    if (L.shard_group > 0 && dp_group > 1) {
      // Only when the request states a shard group, so other answers read as before.
      const GroupPlacement place = place_groups(L, f.gpus_per_node);
      out.push_back({"training_shard_group",
                     {param("shard_group", L.zero_shards()), param("replicas", L.shard_replicas()),
                      param("shard_busbw_gbps", t.dp_busbw_gbps),
                      param("shard_cross_server", flag(L.zero_shards() > place.shard_per_node)),
                      param("replica_cross_server", flag(place.replica_crosses)),
                      param("replica_busbw_gbps", t.replica_busbw_gbps),
                      param("replica_s", t.shard_replica_s)}});
    }
  }

  /// Tensor-parallel all-reduces.
  void tensor_parallel() {
    if (L.tp > 1) {
      out.push_back(
          {"training_tensor_parallel",
           {param("tp", L.tp), param("tp_busbw_gbps", t.tp_busbw_gbps),
            param("overlapped", flag(t.tensor_parallel_exposed_s != t.tensor_parallel_s)),
            param("overlap_requested", flag(req.parallelism.tp_comm_overlap)),
            param("hidden_share", req.stack.tp_overlap_hidden_share.value_or(0)),
            param("overlap_share", k.overlap_fraction),
            param("exposed_s", t.tensor_parallel_exposed_s), param("tp_s", t.tensor_parallel_s)}});
    }
  }

  /// Context-parallel ring traffic.
  void context_parallel() {
    if (L.cp > 1) {
      out.push_back({"training_context_parallel",
                     {param("cp", L.cp), param("local_tokens", num(ts.sequence_length / L.cp)),
                      param("cross_server", flag(place_groups(L, f.gpus_per_node).cp_crosses)),
                      param("cp_busbw_gbps", t.cp_busbw_gbps), param("cp_s", t.context_parallel_s),
                      param("exposed_s", t.context_parallel_exposed_s)}});
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
                      param("exposed_s", t.overlapped_pipeline_traffic_exposed_s)}});
    } else if (L.pp > 1) {
      const int vp = req.parallelism.virtual_stages;
      out.push_back(
          {"training_pipeline",
           {param("pp", L.pp), param("virtual_stages", vp),
            param("bubble_share", (L.pp - 1.0) / (vp * t.microbatches + L.pp - 1)),
            param("microbatches", num(t.microbatches)),
            param("p2p_overlapped", flag(t.pipeline_p2p_exposed_s != t.pipeline_p2p_s)),
            param("p2p_exposed_s", t.pipeline_p2p_exposed_s), param("p2p_s", t.pipeline_p2p_s)}});
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
            param("bandwidth_tbps", gpu.memory_bandwidth_tbps)}});
    }
  }

  /// The optimizer step.
  void optimizer() {
    out.push_back({"training_optimizer",
                   {param("optimizer", std::string(name_of(ts.optimizer))),
                    param("offload", flag(ts.offload_optimizer))}});
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
  add_power_limit(gpu, k, notes.out);
  notes.memory_bound();
  notes.stack();
  notes.token_budget();
  notes.goodput();
  notes.checkpoints();
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
