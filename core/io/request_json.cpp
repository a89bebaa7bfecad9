// SPDX-License-Identifier: MIT
#include "io/request_json.hpp"

#include <algorithm>
#include <cmath>

#include "io/cost_settings_json.hpp"
#include "io/goal_json.hpp"
#include "io/hardware_json.hpp"
#include "io/json_reader.hpp"
#include "io/model_json.hpp"
#include "io/perf_settings_json.hpp"
#include "io/stack_variants_json.hpp"
#include "types/errors.hpp"
#include "types/perf_constants.hpp"
#include "types/request.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

// Upper bounds that are generous for any real job but keep every product finite.
constexpr std::int64_t kMaxSequenceLength = 10'000'000;
// An encoder-decoder's target tokens per example when the request does not say: T5's
// span-corruption ratio, 114 target tokens per 512 input tokens (Raffel et al. 2020 sec. 3.1.4;
// transformers' run_t5_mlm_flax.py compute_input_and_target_lengths).
constexpr double kDefaultTargetShare = 114.0 / 512.0;
constexpr std::int64_t kMaxMicroBatch = 1'000'000;
constexpr std::int64_t kMaxConcurrency = 1'000'000;
constexpr std::int64_t kMaxLoraRank = 65'536;
constexpr std::int64_t kMaxParallel = 4096;
// Megatron-LM's context parallelism splits a causal sequence into 2 x cp chunks and gives
// rank i chunks i and 2cp-1-i, so every rank has the same share of the unmasked scores
// (Megatron-LM docs, "context_parallel"; megatron/training/utils.py get_batch_on_this_cp_rank).
constexpr std::int64_t kContextParallelChunksPerRank = 2;
// A cadence above one run an hour is a service, not a job (and a month has ~730 hours).
constexpr double kMaxRunsPerMonth = 744;

const char* const kLoraTargetNames[] = {"q", "k", "v", "o", "gate", "up", "down"};

std::vector<std::string> lora_target_names(const JsonValue* j, const std::string& path,
                                           bool gated) {
  std::vector<std::string> all(std::begin(kLoraTargetNames), std::end(kLoraTargetNames));
  if (FieldLog::recording()) {
    // A preset name or a list of module names.
    FieldLog::note({path, "modules", {}, {}, false, "all_linear", all});
  }
  if (!gated) all.erase(std::remove(all.begin(), all.end(), "gate"), all.end());
  if (j == nullptr) return all;  // QLoRA paper: adapters on every linear layer
  if (j->is_string()) {
    const std::string s = j->string();
    if (s == "all_linear") return all;
    if (s == "attention") return {"q", "k", "v", "o"};
    return report_problem("unknown_value", path,
                          path +
                              " must be \"all_linear\", \"attention\" or a list of q,k,v,o,gate,"
                              "up,down; got \"" +
                              s + "\"");
  }
  ADVISOR_REQUIRE(
      j->is_array() && !j->empty(), "wrong_type", path,
      path + " must be \"all_linear\", \"attention\" or a non-empty list of module names");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < j->size(); ++i) {
    const std::string p = path + "/" + std::to_string(i);
    ADVISOR_REQUIRE((*j)[i].is_string(), "wrong_type", p, p + " must be a string");
    const std::string name = (*j)[i].string();
    if (std::find(all.begin(), all.end(), name) == all.end())
      return report_problem(
          "unknown_value", p,
          p + " must be one of q, k, v, o, gate, up, down (gate only for gated MLPs); got \"" +
              name + "\"");
    if (std::find(out.begin(), out.end(), name) != out.end())
      return report_problem("duplicate", p, p + " lists \"" + name + "\" twice");
    out.push_back(name);
  }
  return out;
}

LoraTargets parse_lora_targets(const JsonValue* j, const std::string& path, bool gated) {
  LoraTargets t{false, false, false, false, false, false, false};
  for (const std::string& name : lora_target_names(j, path, gated)) {
    t.q |= name == "q";
    t.k |= name == "k";
    t.v |= name == "v";
    t.o |= name == "o";
    t.gate |= name == "gate";
    t.up |= name == "up";
    t.down |= name == "down";
  }
  return t;
}

ModelArch resolve_model(const JsonValue* j, const Catalog& catalog, std::string* source) {
  if (j == nullptr)
    return report_problem(
        "missing_field", "/model",
        "/model is required: {\"preset\": id}, the architecture fields, or {\"hf_config\": {...}}");
  ADVISOR_REQUIRE(j->is_object(), "wrong_type", "/model", "/model must be a JSON object");
  if (j->contains("preset")) {
    FieldReader r(*j, "/model");
    const std::string id = r.string("preset");
    r.reject_unknown();
    const ModelArch* m = catalog.find_model(id);
    if (m == nullptr)
      return report_problem(
          "unknown_preset", "/model/preset",
          "/model/preset " + in_quotes(id) +
              " is not in the model catalog; known: " + known_ids(catalog.models));
    *source = "preset";
    return *m;
  }
  if (j->contains("hf_config")) {
    FieldReader r(*j, "/model");
    const JsonValue* raw = r.raw("hf_config");
    r.reject_unknown();
    if (raw == nullptr)
      return report_problem("missing_field", "/model/hf_config", "/model/hf_config is empty");
    // Accept both a parsed object and the pasted text.
    const JsonValue parsed =
        raw->is_string() ? parse_json_text(raw->string(), "/model/hf_config") : *raw;
    if (problem_reported()) return {};  // text that is no JSON: no config to read
    *source = "hf_config";
    return parse_hf_config(parsed, "/model/hf_config");
  }
  *source = "fields";
  return parse_model_fields(*j, "/model", false);
}

void read_accounting(FieldReader& t, TrainingSettings& s, const StackProfile& stack) {
  const bool fp32 = s.precision == Precision::kFp32;
  const JsonValue* j = t.object("accounting");
  const JsonValue empty = JsonValue::object();
  FieldReader a(j ? *j : empty, t.path_of("accounting"));
  // Defaults: the stack's recipe (pure-bf16 torchtune keeps no fp32 master and bf16 states;
  // Megatron keeps fp32 main gradients).
  s.accounting.master_weights = a.boolean("master_weights", !fp32 && stack.master_weights);
  const std::string grad =
      a.choice("gradient_dtype", {"bf16", "fp16", "fp32"},
               std::string(fp32 || stack.gradient_bytes == 4 ? "fp32" : "bf16"));
  s.accounting.gradient_bytes = grad == "fp32" ? 4 : 2;
  const std::string states =
      a.choice("optimizer_state_dtype", {"fp32", "bf16"},
               std::string(stack.optimizer_state_bytes == 4 ? "fp32" : "bf16"));
  s.accounting.optimizer_state_bytes = states == "fp32" ? 4 : 2;
  s.accounting.fused_cross_entropy = a.boolean("fused_cross_entropy", false);
  // Bytes the loss keeps per vocabulary entry per token: the stack's unless the request says
  // how its own loss code keeps the logits (a fused loss keeps none).
  const double logits_bytes =
      a.number("logits_bytes_per_element", 0, 64, stack.logits_bytes_per_element);
  s.accounting.logits_bytes_per_element = s.accounting.fused_cross_entropy ? 0 : logits_bytes;
  a.reject_unknown();
  ADVISOR_REQUIRE_OR_RETURN(!(fp32 && s.accounting.master_weights), "inconsistent",
                            a.path_of("master_weights"),
                            a.path_of("master_weights") +
                                " makes no sense with fp32 training (weights are already "
                                "fp32); set it to false");
}

/// /stack: a catalog stack of the task's kind (training or serving); absent = the task's
/// default (performance.json "default_for"), which the result names in resolved_inputs.
StackProfile read_stack(FieldReader& root, Task task, const PerformanceConstants& k, bool* given) {
  const bool serving = task == Task::kInference;
  std::vector<std::string> ids;
  for (const StackProfile& s : k.stacks) ids.push_back(s.id);
  if (FieldLog::recording()) FieldLog::note({"/stack", "choice", {}, {}, false, {}, ids});
  *given = root.has("stack");
  if (!*given) {
    root.raw("stack");
    return *k.default_stack(task);
  }
  const std::string id = root.string("stack");
  const StackProfile* s = k.find_stack(id);
  if (s == nullptr) {
    std::string list;
    for (const std::string& i : ids) list += (list.empty() ? "" : ", ") + i;
    root.unknown_value("stack", list, id);
    return {};  // reported; no profile to check the task against
  }
  ADVISOR_REQUIRE(
      s->serving == serving, "inconsistent", "/stack",
      "/stack \"" + id + "\" is a " + (s->serving ? "serving engine" : "training stack") +
          "; task " + name_of(task) + " needs a " +
          (serving ? "serving engine (vllm, sglang, tensorrt_llm, llama_cpp)" : "training stack"));
  return *s;
}

}  // namespace

TrainingSettings read_training(const JsonValue* j, Task task, const ModelArch& model,
                               const StackProfile& stack) {
  const JsonValue empty = JsonValue::object();
  FieldReader t(j ? *j : empty, "/training");
  // Defaults are the member initializers (types/request.hpp), except QLoRA's, which trains
  // with full checkpointing on an NF4 base as the QLoRA paper does.
  TrainingSettings s;
  const bool qlora = task == Task::kQlora;
  s.precision = t.choice("precision", kPrecisionNames, s.precision);
  s.optimizer = t.choice("optimizer", kOptimizerNames, s.optimizer);
  s.sequence_length = t.integer("sequence_length", 1, kMaxSequenceLength, s.sequence_length);
  const std::optional<std::int64_t> target =
      t.nullable_integer("target_length", 1, kMaxSequenceLength);
  if (model.encoder_decoder()) {
    s.target_length = target.value_or(static_cast<std::int64_t>(
        std::ceil(static_cast<double>(s.sequence_length) * kDefaultTargetShare)));
  } else if (target) {
    return report_problem("inconsistent", t.path_of("target_length"),
                          t.path_of("target_length") +
                              " applies to encoder-decoder models (/model/encoder_layers > 0); a "
                              "decoder-only model's tokens are /training/sequence_length");
  }
  s.micro_batch_size = t.integer("micro_batch_size", 1, kMaxMicroBatch, s.micro_batch_size);
  s.activation_checkpointing =
      t.choice("activation_checkpointing", kCheckpointingNames,
               qlora ? Checkpointing::kFull
                     : stack.default_checkpointing.value_or(s.activation_checkpointing));
  s.checkpointing_stated = t.has("activation_checkpointing") || stack.default_checkpointing;
  s.flash_attention = t.boolean("flash_attention", s.flash_attention);
  s.optimizer_in_backward = t.boolean("optimizer_in_backward", s.optimizer_in_backward);
  s.sequence_parallel = t.boolean("sequence_parallel", s.sequence_parallel);
  s.lora_rank = static_cast<int>(t.integer("lora_rank", 1, kMaxLoraRank, s.lora_rank));
  s.lora_targets =
      parse_lora_targets(t.raw("lora_targets"), t.path_of("lora_targets"), model.mlp_gated);
  s.base_quantization = t.choice("base_quantization", kBaseQuantizationNames,
                                 qlora ? BaseQuantization::kNf4 : s.base_quantization);
  ADVISOR_REQUIRE(s.base_quantization == BaseQuantization::kNone || qlora, "inconsistent",
                  t.path_of("base_quantization"),
                  t.path_of("base_quantization") +
                      " applies to QLoRA only (a quantised base cannot be trained in full)");
  ADVISOR_REQUIRE(!qlora || s.base_quantization != BaseQuantization::kNone, "inconsistent",
                  t.path_of("base_quantization"),
                  t.path_of("base_quantization") + " must be nf4 or int8 for QLoRA");
  const JsonValue* offload = t.object("cpu_offload");
  const JsonValue none = JsonValue::object();
  FieldReader o(offload ? *offload : none, t.path_of("cpu_offload"));
  s.offload_optimizer = o.boolean("optimizer", s.offload_optimizer);
  s.offload_parameters = o.boolean("parameters", s.offload_parameters);
  s.offload_activations = o.boolean("activations", stack.offload_activations);
  o.reject_unknown();
  read_accounting(t, s, stack);
  read_training_perf(t, s.perf);
  s.runs_per_month = t.nullable_number("runs_per_month", 0, kMaxRunsPerMonth, true);
  t.reject_unknown();
  if (s.sequence_length > model.max_position_embeddings && model.position == "learned") {
    return report_problem("out_of_range", "/training/sequence_length",
                          "/training/sequence_length " + std::to_string(s.sequence_length) +
                              " exceeds the model's learned position table (" +
                              std::to_string(model.max_position_embeddings) + ")");
  }
  return s;
}

namespace {

InferenceSettings read_inference(const JsonValue* j, const StackProfile& stack) {
  const JsonValue empty = JsonValue::object();
  FieldReader r(j ? *j : empty, "/inference");
  InferenceSettings s;
  if (stack.serving) s.perf.gpu_memory_utilization = stack.gpu_memory_utilization;
  s.weight_format = r.choice("weight_format",
                             {"bf16", "fp16", "fp8", "int8", "int4", "nf4", "gguf_q8_0",
                              "gguf_q6_k", "gguf_q5_1", "gguf_q5_0", "gguf_q5_k_m", "gguf_q4_1",
                              "gguf_q4_0", "gguf_q4_k_m", "gguf_q3_k_m", "gguf_q2_k"},
                             std::string("bf16"));
  s.kv_cache_precision =
      r.choice("kv_cache_precision", {"bf16", "fp16", "fp8", "int8"}, std::string("bf16"));
  s.concurrency = r.integer("concurrency", 1, kMaxConcurrency, 1);
  s.prompt_tokens = r.integer("prompt_tokens", 1, kMaxSequenceLength, 1024);
  s.output_tokens = r.integer("output_tokens", 1, kMaxSequenceLength, 512);
  // A prompt is never all cache: its last position is computed to yield the first token.
  constexpr double kMaxPrefixCacheShare = 0.99;
  s.prefix_cache_share = r.number("prefix_cache_share", 0, kMaxPrefixCacheShare, 0.0);
  s.customer_facing = r.boolean("customer_facing", true);
  read_inference_perf(r, s.perf);
  r.reject_unknown();
  return s;
}

ValidationSettings read_validation(const JsonValue* j) {
  const JsonValue empty = JsonValue::object();
  FieldReader r(j ? *j : empty, "/validation");
  ValidationSettings v;
  // Versions and registry names are short, plain text (they are pasted into shell scripts,
  // quoted, but nobody needs more than this).
  auto plain = [&](const char* key, std::size_t max) -> std::optional<std::string> {
    if (!r.has(key)) {
      r.raw(key);
      if (FieldLog::recording())
        FieldLog::note({r.path_of(key), "text", {}, {}, false, nullptr, {}});
      return std::nullopt;
    }
    const std::string s = r.string(key);
    const bool ok = !s.empty() && s.size() <= max &&
                    s.find_first_not_of(
                        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789._-/:") == std::string::npos;
    if (!ok) {
      report_problem("out_of_range", r.path_of(key),
                     r.path_of(key) + " must be 1-" + std::to_string(max) +
                         " characters of letters, digits and . _ - / :");
      return std::nullopt;  // not `return report_problem()`: an optional of Failed is engaged
    }
    return s;
  };
  v.host_driver = plain("host_driver", 32);
  v.ngc_tag = plain("ngc_tag", 16);
  if (auto registry = plain("registry", 200)) v.registry = *registry;
  v.burnin_hours = r.number("burnin_hours", 10, 1000, v.burnin_hours);
  v.sample_interval_s =
      static_cast<int>(r.integer("sample_interval_s", 1, 3600, v.sample_interval_s));
  r.reject_unknown();
  return v;
}

void check_parallel_against_model(const Parallelism& p, const ModelArch& m) {
  ADVISOR_REQUIRE_OR_RETURN(m.heads % p.tp == 0, "inconsistent", "/parallelism/tp",
                            "/parallelism/tp " + std::to_string(p.tp) +
                                " must divide the attention heads (" + std::to_string(m.heads) +
                                ")");
  ADVISOR_REQUIRE_OR_RETURN(m.kv_heads % p.tp == 0 || p.tp % m.kv_heads == 0, "inconsistent",
                            "/parallelism/tp",
                            "/parallelism/tp " + std::to_string(p.tp) +
                                " must divide, or be a multiple of, the KV "
                                "heads (" +
                                std::to_string(m.kv_heads) + ")");
  ADVISOR_REQUIRE_OR_RETURN(p.pp <= m.layers, "inconsistent", "/parallelism/pp",
                            "/parallelism/pp " + std::to_string(p.pp) +
                                " exceeds the model's layers (" + std::to_string(m.layers) + ")");
  if (p.ep > 1) {
    ADVISOR_REQUIRE_OR_RETURN(m.moe.has_value(), "inconsistent", "/parallelism/ep",
                              "/parallelism/ep > 1 needs a mixture-of-experts model");
    ADVISOR_REQUIRE_OR_RETURN(m.moe->experts % p.ep == 0, "inconsistent", "/parallelism/ep",
                              "/parallelism/ep " + std::to_string(p.ep) +
                                  " must divide the experts (" + std::to_string(m.moe->experts) +
                                  ")");
  }
}

/// A stated pipeline under a ZeRO stage the stack cannot run with one (DeepSpeed's pipeline
/// engine refuses ZeRO-2 and ZeRO-3); the layout search skips such splits (engine/layout.cpp).
void check_pipeline_zero(const Request& req) {
  const Parallelism& p = req.parallelism;
  if (!is_training(req.task) || p.pp == 1 || p.zero <= req.stack.max_zero_with_pp) return;
  report_problem("inconsistent", "/parallelism/zero",
                 "/parallelism/zero " + std::to_string(p.zero) + ": the " + req.stack.id +
                     " stack runs pipeline parallelism (/parallelism/pp " + std::to_string(p.pp) +
                     ") with ZeRO stage " + std::to_string(req.stack.max_zero_with_pp) +
                     " at most (DeepSpeed's pipeline engine refuses ZeRO-2 and ZeRO-3)");
}

/// Encoder-decoder models (T5) are modelled for training on one pipeline stage: serving them
/// (encoder once, decoder per token with a cross-attention cache) and splitting the two stacks
/// over pipeline stages or a sequence over context-parallel ranks are not.
void check_encoder_decoder(const Request& req) {
  if (!req.model.encoder_decoder()) return;
  ADVISOR_REQUIRE_OR_RETURN(
      is_training(req.task), "inconsistent", "/task",
      "/task inference: serving encoder-decoder models (/model/encoder_layers > 0) is not "
      "modelled; training is");
  ADVISOR_REQUIRE_OR_RETURN(req.parallelism.pp <= 1, "inconsistent", "/parallelism/pp",
                            "/parallelism/pp " + std::to_string(req.parallelism.pp) +
                                ": encoder-decoder models are modelled on one pipeline stage "
                                "(tensor and data parallel)");
  ADVISOR_REQUIRE_OR_RETURN(req.parallelism.cp <= 1, "inconsistent", "/parallelism/cp",
                            "/parallelism/cp " + std::to_string(req.parallelism.cp) +
                                ": context parallelism is modelled for decoder-only models");
}

/// Context parallelism splits each training sequence over cp GPUs (ring attention).
/// Megatron's load-balanced causal split cuts the sequence into 2 x cp chunks (rank i takes
/// chunks i and 2cp-1-i), so the length must divide into them; the ring runs inside
/// FlashAttention-style kernels (Transformer Engine, PyTorch SDPA), which never hold the s x s
/// scores; serving here has no context-parallel prefill model.
void check_context_parallel(const Request& req) {
  const int cp = req.parallelism.cp;
  if (cp == 1) return;
  const std::string what = "/parallelism/cp " + std::to_string(cp);
  ADVISOR_REQUIRE_OR_RETURN(is_training(req.task), "inconsistent", "/parallelism/cp",
                            what +
                                ": context parallelism is modelled for training only; serving "
                                "splits the model (tp, pp), not the sequence");
  const std::int64_t chunks = kContextParallelChunksPerRank * cp;
  ADVISOR_REQUIRE_OR_RETURN(
      req.training.sequence_length % chunks == 0, "inconsistent", "/parallelism/cp",
      what + " needs /training/sequence_length (" + std::to_string(req.training.sequence_length) +
          ") divisible by 2 x cp = " + std::to_string(chunks) +
          " (load-balanced causal chunks, Megatron-LM context parallelism)");
  ADVISOR_REQUIRE_OR_RETURN(req.training.flash_attention, "inconsistent", "/parallelism/cp",
                            what +
                                " needs /training/flash_attention: ring attention runs in "
                                "FlashAttention-style kernels");
}

/// DualPipe (DeepSeek-V3 report, sec. 3.2.1) feeds micro-batches from both ends of the pipeline:
/// rank i holds stage i and stage pp-1-i, so the stages pair up only for an even pp, which the
/// request states (the advisor's own layouts use 1F1B); interleaved chunks are another schedule.
void check_pipeline_schedule(const Request& req) {
  const Parallelism& pl = req.parallelism;
  if (pl.schedule != PipelineSchedule::kDualPipe) return;
  constexpr const char* path = "/parallelism/pipeline_schedule";
  ADVISOR_REQUIRE_OR_RETURN(is_training(req.task), "inconsistent", path,
                            "/parallelism/pipeline_schedule \"dualpipe\" is a training schedule; "
                            "serving runs no backward pass to overlap");
  ADVISOR_REQUIRE_OR_RETURN(pl.pp_pinned && pl.pp >= 2 && pl.pp % 2 == 0, "inconsistent", path,
                            "/parallelism/pipeline_schedule \"dualpipe\" needs an even pipeline "
                            "size stated in /parallelism/pp (rank i holds stages i and pp-1-i)");
  ADVISOR_REQUIRE_OR_RETURN(pl.virtual_stages <= 1, "inconsistent", path,
                            "/parallelism/pipeline_schedule \"dualpipe\" runs two directions, not "
                            "interleaved chunks: leave /parallelism/virtual_stages at 1");
}

/// Hybrid sharding (FSDP HYBRID_SHARD, ZeRO++ hpZ) shards ZeRO state inside a group and
/// replicates across groups: it needs ZeRO sharding and a training job.
void check_shard_group(const Request& req) {
  const int g = req.parallelism.shard_group;
  if (g == 0) return;
  const std::string what = "/parallelism/shard_group " + std::to_string(g);
  ADVISOR_REQUIRE_OR_RETURN(is_training(req.task), "inconsistent", "/parallelism/shard_group",
                            what +
                                ": hybrid sharding shards training state (weights, gradients, "
                                "optimizer); serving holds no such state");
  ADVISOR_REQUIRE_OR_RETURN(req.parallelism.zero != 0, "inconsistent", "/parallelism/shard_group",
                            what +
                                " needs ZeRO sharding (/parallelism/zero >= 1): with zero = 0 "
                                "every rank holds everything");
}

}  // namespace

Request parse_request(const JsonValue& document, const Catalog& catalog) {
  FieldReader root(document, "");
  Request req;
  root.integer("schema", 1, 1);
  req.task = root.choice("task", kTaskNames);
  req.model = resolve_model(root.raw("model"), catalog, &req.model_source);
  // The sections below are read against the model: none there, none read (the form's record,
  // FieldLog, keeps the fields read before the problem, as when it stopped the parse).
  if (problem_reported()) return req;
  req.stack = read_stack(root, req.task, catalog.performance, &req.stack_given);
  req.training = read_training(root.object("training"), req.task, req.model, req.stack);
  req.inference = read_inference(root.object("inference"), req.stack);

  req.hardware = read_hardware(root.object("hardware"), catalog);

  const JsonValue empty = JsonValue::object();
  const JsonValue* par = root.object("parallelism");
  FieldReader p(par ? *par : empty, "/parallelism");
  req.parallelism.zero =
      static_cast<int>(p.integer("zero", 0, 3, std::int64_t{req.stack.default_zero}));
  req.parallelism.tp_pinned = p.has("tp");
  req.parallelism.pp_pinned = p.has("pp");
  req.parallelism.tp = static_cast<int>(p.integer("tp", 1, kMaxParallel, 1));
  req.parallelism.pp = static_cast<int>(p.integer("pp", 1, kMaxParallel, 1));
  req.parallelism.ep_pinned = p.has("ep");
  req.parallelism.ep = static_cast<int>(p.integer("ep", 1, kMaxParallel, 1));
  req.parallelism.virtual_stages = static_cast<int>(p.integer("virtual_stages", 1, 64, 1));
  req.parallelism.schedule =
      p.choice("pipeline_schedule", kPipelineScheduleNames, PipelineSchedule::k1F1B);
  req.parallelism.cp = static_cast<int>(p.integer("cp", 1, kMaxParallel, 1));
  if (auto g = p.nullable_integer("shard_group", 1, kMaxParallel))
    req.parallelism.shard_group = static_cast<int>(*g);
  req.parallelism.tp_comm_overlap = p.boolean("tp_comm_overlap", req.stack.tp_comm_overlap);
  ADVISOR_REQUIRE(!req.parallelism.tp_comm_overlap || req.stack.tp_overlap_hidden_share,
                  "inconsistent", "/parallelism/tp_comm_overlap",
                  "/parallelism/tp_comm_overlap: the " + req.stack.id +
                      " stack does not overlap tensor-parallel traffic with compute (its profile "
                      "has no tp_overlap_hidden_share)");
  p.reject_unknown();
  req.cluster = read_cluster(root.object("cluster"));
  JsonValue cost_sections = JsonValue::object();
  for (const char* key : {"power", "cost", "capacity"})
    if (const JsonValue* section = root.raw(key)) cost_sections.set(key, *section);
  pin_facility(req.hardware, cost_sections);
  req.cost = parse_cost_request(cost_sections, catalog);
  req.cost.around_the_clock = req.task == Task::kInference;
  req.goal = read_goal(root.object("goal"), req.task);
  req.validation = read_validation(root.object("validation"));
  root.reject_unknown();
  // The checks below divide by what was read: after a problem it may be any fallback (0).
  if (problem_reported()) return req;

  check_parallel_against_model(req.parallelism, req.model);
  if (req.parallelism.virtual_stages > 1) {
    const Parallelism& pl = req.parallelism;
    ADVISOR_REQUIRE(pl.pp > 1, "inconsistent", "/parallelism/virtual_stages",
                    "/parallelism/virtual_stages needs pipeline parallelism (/parallelism/pp > 1)");
    ADVISOR_REQUIRE(req.model.layers >= pl.pp * pl.virtual_stages, "inconsistent",
                    "/parallelism/virtual_stages",
                    "/parallelism/virtual_stages " + std::to_string(pl.virtual_stages) + " x pp " +
                        std::to_string(pl.pp) + " exceeds the model's layers (" +
                        std::to_string(req.model.layers) + "): each model chunk needs a layer");
  }
  check_pipeline_schedule(req);
  check_context_parallel(req);
  check_shard_group(req);
  check_encoder_decoder(req);
  check_pipeline_zero(req);
  const TrainingSettings& ts = req.training;
  if (ts.offload_parameters) {
    if (req.parallelism.zero != 3)
      return report_problem(
          "inconsistent", "/training/cpu_offload/parameters",
          "/training/cpu_offload/parameters needs ZeRO stage 3 (/parallelism/zero = 3)");
  }
  // A pretraining run without /hardware/count gets a count compatible with tp x pp (chosen in
  // plan/plan.cpp); the other tasks run on one GPU and are checked as if it were given.
  if (req.hardware && (req.hardware->count_given || req.task != Task::kPretrain)) {
    const int model_parallel = req.parallelism.tp * req.parallelism.pp;
    ADVISOR_REQUIRE(req.hardware->count % model_parallel == 0, "inconsistent", "/hardware/count",
                    "/hardware/count " + std::to_string(req.hardware->count) +
                        " must be a multiple of tp x pp (" + std::to_string(model_parallel) + ")");
    const int cp = req.parallelism.cp;
    ADVISOR_REQUIRE(req.hardware->count % (model_parallel * cp) == 0, "inconsistent",
                    "/parallelism/cp",
                    "/parallelism/cp " + std::to_string(cp) + ": tp x pp x cp (" +
                        std::to_string(model_parallel * cp) + ") must divide /hardware/count (" +
                        std::to_string(req.hardware->count) + ")");
    // Megatron builds the expert-parallel groups out of the data- and context-parallel ranks.
    const int dp_cp = req.hardware->count / model_parallel;
    const int g = req.parallelism.shard_group;
    if (g > 0 && !(dp_cp % g == 0))
      return report_problem("inconsistent", "/parallelism/shard_group",
                            "/parallelism/shard_group " + std::to_string(g) +
                                " must divide the data-parallel size (" + std::to_string(dp_cp) +
                                (cp > 1 ? " with context parallel" : "") +
                                "): ZeRO shards inside groups of that many ranks and replicates "
                                "across them");
    ADVISOR_REQUIRE(dp_cp % req.parallelism.ep == 0 || req.parallelism.ep == 1, "inconsistent",
                    "/parallelism/ep",
                    "/parallelism/ep " + std::to_string(req.parallelism.ep) +
                        " must divide the data-parallel size (" + std::to_string(dp_cp) +
                        (cp > 1 ? " with context parallel" : "") + ")");
  }
  // The form's schema (FieldLog) records the request's own fields once.
  if (is_training(req.task) && !req.stack_given && !FieldLog::recording() && !problem_reported())
    req.other_stacks = other_stacks(document, req, catalog.performance);
  return req;
}

}  // namespace advisor
