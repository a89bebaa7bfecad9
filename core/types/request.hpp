// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "types/catalog.hpp"
#include "types/choices.hpp"
#include "types/cost_settings.hpp"
#include "types/model.hpp"
#include "types/perf_settings.hpp"

namespace advisor {

inline const char* task_name(Task task) { return name_of(task); }
inline bool is_training(Task task) { return task != Task::kInference; }
/// LoRA or QLoRA: frozen base, small trainable adapters.
inline bool is_adapter(Task task) { return task == Task::kLora || task == Task::kQlora; }

/// The linear layers LoRA adapters are attached to (q, k, v, o projections and the MLP's
/// gate, up, down).
struct LoraTargets {
  bool q = true, k = true, v = true, o = true, gate = true, up = true, down = true;
  int count() const { return q + k + v + o + gate + up + down; }
};

/// How training state is counted. Peers disagree by up to 2.5x on the same job because they
/// pick these differently; the advisor shows and lets the user switch each one.
struct Accounting {
  bool master_weights = true;        // fp32 master copy of trainable weights (mixed precision)
  double gradient_bytes = 2;         // per trainable parameter: 2 (bf16/fp16) or 4 (fp32)
  double optimizer_state_bytes = 4;  // per optimizer state element: 4 (fp32) or 2 (bf16)
  bool fused_cross_entropy = false;  // chunked/fused loss: no full fp32 logits tensor
  /// Bytes the loss keeps per vocabulary entry per token: the stack's, 0 with a fused loss.
  double logits_bytes_per_element = 14;
};

struct TrainingSettings {
  Precision precision = Precision::kBf16;  // compute and weight dtype
  Optimizer optimizer = Optimizer::kAdamW;
  std::int64_t sequence_length = 2048;  // an encoder-decoder's input (encoder) tokens
  /// Decoder (target) tokens per example of an encoder-decoder; 0 for a decoder-only model.
  std::int64_t target_length = 0;
  std::int64_t micro_batch_size = 1;  // sequences per GPU per forward pass
  Checkpointing activation_checkpointing = Checkpointing::kNone;  // QLoRA: full
  // Set by the request or the stack's default (not the task's): a pretraining run on a count the
  // advisor chooses may turn full checkpointing on when nothing fits without it (plan/plan.cpp).
  bool checkpointing_stated = false;
  bool flash_attention = true;
  bool sequence_parallel = true;  // Megatron sequence parallelism when tp > 1
  int lora_rank = 16;
  LoraTargets lora_targets;  // the linear layers that get adapters
  BaseQuantization base_quantization = BaseQuantization::kNone;  // QLoRA: nf4
  bool offload_optimizer = false;   // ZeRO-Offload: optimizer states (and grads) in host RAM
  bool offload_parameters = false;  // ZeRO-Infinity: weights in host RAM (ZeRO-3 only)
  /// Checkpointed layer inputs kept in host RAM and brought back for the backward (Unsloth's
  /// offloaded gradient checkpointing, torchtune enable_activation_offloading).
  bool offload_activations = false;
  /// The optimizer steps each parameter as soon as its gradient is ready in the backward pass
  /// and frees that gradient (torchtune optimizer_in_bwd, PyTorch's
  /// register_post_accumulate_grad_hook): the GPU holds one tensor's gradient, not all of them.
  bool optimizer_in_backward = false;
  Accounting accounting;
  TrainingPerfSettings perf;
  /// The job's cadence: runs of it each month ("每周一次" = 52/12). Absent: one run, and
  /// owned cards are busy the cost inputs' utilisation. Given: owned or reserved cards are
  /// busy only for these runs, so a month of owning them is paid by this many runs.
  std::optional<double> runs_per_month;
};

struct InferenceSettings {
  std::string weight_format = "bf16";       // bf16 | fp16 | fp8 | int8 | int4 | nf4
  std::string kv_cache_precision = "bf16";  // bf16 | fp16 | fp8 | int8
  std::int64_t concurrency = 1;             // sequences decoded together
  std::int64_t prompt_tokens = 1024;
  std::int64_t output_tokens = 512;
  /// Share of each prompt already in the engine's prefix cache (a shared system prompt, the
  /// earlier turns of a chat): not recomputed, still held as context. 0 = none.
  double prefix_cache_share = 0;
  /// The service answers customers: a plan on risky parts (plan/plan_risks) is flagged and a
  /// data-centre alternative named. On unless the request says otherwise.
  bool customer_facing = true;
  InferencePerfSettings perf;
};

struct Parallelism {
  int zero = 3;  // ZeRO / FSDP stage over the data-parallel group, 0-3
  int tp = 1;    // tensor parallel
  int pp = 1;    // pipeline stages
  int ep = 1;    // expert parallel (MoE)
  // Context parallel (ring attention; Megatron --context-parallel-size, torchtitan
  // context_parallel_degree): each sequence is split into cp chunks on cp GPUs. Stated by the
  // request, never chosen by the advisor.
  int cp = 1;
  // Hybrid sharding (PyTorch FSDP ShardingStrategy.HYBRID_SHARD, FSDP2 HSDP with torchtitan
  // data_parallel_shard_degree, DeepSpeed ZeRO++ hpZ / MiCS): ZeRO state is sharded inside
  // groups of this many ranks and replicated across the groups. 0: one group over all of
  // dp x cp (the ZeRO default). Stated by the request, never chosen by the advisor.
  int shard_group = 0;
  // Tensor-parallel collectives under the GEMMs beside them (Megatron --tp-comm-overlap with
  // Transformer Engine userbuffers, NeMo / Megatron-Bridge performance recipes; torchtitan
  // async TP). Absent: the stack's default.
  bool tp_comm_overlap = false;
  bool tp_pinned = false;  // false: the advisor picks tp (inference) when searching counts
  bool pp_pinned = false;
  bool ep_pinned = false;  // false: MoE training tries expert parallelism (engine/layout)
  int virtual_stages = 1;  // interleaved 1F1B: model chunks per pipeline stage (Megatron vp)
  PipelineSchedule schedule = PipelineSchedule::k1F1B;  // a layout runs it: runs_dualpipe()
};

struct Hardware {
  std::string gpu;
  int count = 1;
  // False when /hardware/count is absent: pretraining then runs on the count the advisor
  // chooses (plan/plan.cpp), every other task on one GPU.
  bool count_given = true;
  // /hardware/deployment and /hardware/facility: the plan is bought, rented or reserved, in the
  // office or a data centre, as pinned; absent, the advisor decides (plan/recommend.cpp).
  std::optional<Deployment> deployment;
  std::optional<Facility> facility;
  // /hardware/power_limit_w: every GPU of the plan capped at this board power (nvidia-smi -pl);
  // absent, at its TDP.
  std::optional<double> power_limit_w;
  /// Whether a plan of deployment `d` at `f` is another than the one pinned (a rental's place
  /// is the provider's data centre).
  bool excludes(Deployment d, Facility f) const {
    return (deployment && *deployment != d) || (facility && *facility != f);
  }
};

/// /goal: what the recommendation looks for.
struct GoalSettings {
  Objective objective = Objective::kAuto;
  std::optional<double> deadline_hours;  // training: hours per run at most
  // Calendar days from today by which the job must be done (training: the lead time to get the
  // GPUs plus the run) or the service live (serving: the lead time): a plan later is ruled out.
  std::optional<double> done_within_days;
  // What the user would pay for the plan at most: a bought plan's purchase, a rental's run
  // (training) or month (serving). CandidatePlan::outlay_cny is compared with it.
  std::optional<double> budget_cny;
  BuyingPolicy buying_policy = BuyingPolicy::kNewAndResale;
};

/// /validation: what the generated validation scripts assume about the servers.
struct ValidationSettings {
  std::optional<std::string> host_driver;  // "550.54.15": picks the newest NGC tag it runs
  std::optional<std::string> ngc_tag;      // pin a tag instead
  std::string registry = "nvcr.io";        // a mirror (Harbor) for teams in mainland China
  double burnin_hours = 10;                // the source asks for 10 h or more
  int sample_interval_s = 10;              // nvidia-smi CSV interval
};

/// The request's training settings as another stack would run it (no /stack named): its
/// defaults where the request says nothing (the memory range across stacks, plan/stack_range).
struct StackVariant {
  StackProfile stack;
  TrainingSettings training;
  int zero = 3;  // /parallelism/zero as stated, else the stack's default
};
struct StackVariants {
  // The checkpointing the request's own stack was parsed with: a plan that runs another (the
  // advisor turned full checkpointing on) runs it under every stack.
  Checkpointing parsed_checkpointing = Checkpointing::kNone;
  std::vector<StackVariant> variants;  // the task's common stacks but the request's own
};

/// A validated request (API v1). Every field has been range-checked; paths in errors are JSON
/// pointers into the request document.
struct Request {
  Task task = Task::kFullFinetune;
  ModelArch model;
  std::string model_source;  // preset | fields | hf_config
  TrainingSettings training;
  InferenceSettings inference;
  Parallelism parallelism;
  std::optional<Hardware> hardware;
  ClusterSettings cluster;
  CostRequest cost;  // the power, cost and capacity sections, validated
  GoalSettings goal;
  ValidationSettings validation;
  StackProfile stack;        // /stack: the framework or serving engine (its profile's terms)
  bool stack_given = false;  // false: the task's default stack
  std::shared_ptr<const StackVariants> other_stacks;  // training without /stack, else null
};

/// Largest count a request may pin (far beyond any single training cluster we plan for).
constexpr int kMaxGpuCount = 100'000;

}  // namespace advisor
