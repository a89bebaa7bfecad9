// SPDX-License-Identifier: MIT
// The assumption lines shown under the serving speed figures (the training ones are in
// plan/speed_assumptions.cpp): each a code with its named figures; the words are in data/messages.
#include "plan/serving_assumptions.hpp"

#include <string>

#include "engine/serving.hpp"
#include "plan/speed_assumptions.hpp"
#include "plan/speed_results.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {
constexpr double kGiga = 1e9;

double num(std::int64_t v) { return static_cast<double>(v); }

}  // namespace

namespace {

/// The notes of a serving plan's speed, one builder per note, in the order the page shows them.
struct ServingNotes {
  const Request& req;
  const GpuSpec& gpu;
  const Layout& L;
  const Fabric& f;
  const InferencePerf& p;
  const PerformanceConstants& k;
  const InferenceSettings& inf = req.inference;
  const bool weight_only = weight_bits_for(inf.weight_format) < 16 && inf.weight_format != "fp8";
  std::vector<Note> out = {};

  /// One decode step: the bytes read, the compute, and what is added to it.
  void decode_step() {
    out.push_back(
        {"decode_step",
         {param("weight_gb", p.step.weight_bytes / kGiga),
          param("weight_format", inf.weight_format),
          param("kv_gb", p.step.kv_bytes / kGiga),
          param("kv_precision", inf.kv_cache_precision),
          param("concurrency", num(inf.concurrency)),
          param("bandwidth_share", k.memory_bandwidth_efficiency),
          param("bandwidth_tbps", gpu.memory_bandwidth_tbps),
          param("weight_only", flag(weight_only)),
          param("weight_factor", weight_only ? p.step.weight_stream_share : 1.0),
          param("dequant", flag(p.step.dequant_s > 0)),
          param("dequant_ops", dequant_ops_per_weight(weight_bits_for(inf.weight_format), k)),
          param("fp32_tflops", dequant_fp32_tflops(gpu, k)),
          param("fp32_assumed", flag(!gpu.fp32_tflops)),
          param("dequant_ms", p.step.dequant_s * 1e3),
          param("kv_factor", p.step.kv_read_share),
          param("memory_ms", p.step.memory_s * 1e3),
          param("compute_ms", p.step.compute_s * 1e3),
          param("tensor_parallel", flag(L.tp > 1)),
          param("communication_ms", p.step.communication_s * 1e3),
          param("kernel_floor", flag(p.step.launch_s > 0)),
          param("launch_ms", p.step.launch_s * 1e3),
          param("layers", req.model.layers),
          param("floor_us", p.step.layer_floor_us),
          param("host", flag(p.step.host_s > 0)),
          param("host_ms", p.step.host_s * 1e3),
          param("host_us", req.stack.host_us_per_sequence)}});
  }

  /// Expert-parallel serving (engine/layout expert_parallel_serving_layout): attention is
  /// data-parallel, so the decode step above is one GPU's share of the sequences.
  void expert_parallel() {
    if (L.ep > 1 && req.model.moe) {
      out.push_back({"serving_expert_parallel",
                     {param("ep", L.ep), param("dp", L.dp),
                      param("experts_per_gpu", num(req.model.moe->experts / L.ep)),
                      param("all_to_all_ms", p.step.communication_s * 1e3)}});
    }
  }

  /// The first token on an idle replica, and all prompts at once.
  void time_to_first_token() {
    out.push_back({"time_to_first_token",
                   {param("prompt_tokens", num(inf.prompt_tokens)),
                    param("concurrency", num(inf.concurrency)),
                    param("batch_prefill_s", p.batch_prefill_s)}});
  }

  /// The serving stack and the KV cache it sizes.
  void stack() {
    out.push_back({"serving_stack",
                   {param("stack", req.stack.name), param("stack_id", req.stack.id),
                    param("stack_given", flag(req.stack_given)),
                    param("gpu_memory_utilization", inf.perf.gpu_memory_utilization),
                    param("of_free_memory", flag(req.stack.kv_of_free_memory)),
                    param("kv_gib", p.kv_budget_bytes / (1024.0 * 1024 * 1024)),
                    param("max_concurrency", num(p.max_concurrency)),
                    param("max_model_len", num(p.max_model_len))}});
  }

  /// The fleet for /inference/target_users, or why there is none.
  void target() {
    if (inf.perf.target_users) {
      std::vector<ReasonParam> tp{param("target_users", num(*inf.perf.target_users))};
      if (p.gpus_needed) {
        tp.push_back(param("replica_gpus", L.count));
        tp.push_back(param("users_per_replica", num(p.users_per_replica)));
        tp.push_back(param("replicas", num(p.replicas)));
        tp.push_back(param("gpus_needed", num(*p.gpus_needed)));
      } else {
        tp.push_back(
            param("speed_limited", flag(p.target_note_code == "target_speed_unreachable")));
      }
      out.push_back({p.gpus_needed ? "serving_target" : "serving_target_unmet", std::move(tp)});
    }
  }

  /// A link whose bandwidth is not published.
  void link_unknown() { add_link_unknown(gpu, f, out); }
};

}  // namespace

std::vector<Note> inference_assumptions(const Request& req, const GpuSpec& gpu, const Layout& L,
                                        const Fabric& f, const InferencePerf& p,
                                        const PerformanceConstants& k) {
  ServingNotes notes{req, gpu, L, f, p, k};
  notes.decode_step();
  add_power_limit(gpu, k, notes.out);
  notes.expert_parallel();
  notes.time_to_first_token();
  notes.stack();
  notes.target();
  notes.link_unknown();
  return std::move(notes.out);
}

}  // namespace advisor
