// SPDX-License-Identifier: MIT
// performance.json "stacks", "protocols" and the serving and whole-run constants (issue 11).
#include "io/stack_json.hpp"

#include <algorithm>

#include "types/errors.hpp"
#include "types/limits.hpp"

namespace advisor {

namespace {

/// {"value": v, "basis", "source"} where v may be null, a boolean or a string (null after a
/// reported problem).
const JsonValue& sourced(FieldReader& r, const char* key) {
  static const JsonValue kNone;
  const JsonValue* object = r.raw(key);
  const std::string path = r.path_of(key);
  if (object == nullptr || !object->is_object()) {
    report_problem("missing_field", path,
                   path + " is required: {\"value\", \"basis\", \"source\"}");
    return kNone;
  }
  if (!object->contains("value")) {
    report_problem("missing_field", path + "/value", path + "/value is required");
    return kNone;
  }
  FieldReader a(*object, path);
  a.raw("value");
  a.string("basis");
  a.string("source");
  a.reject_unknown();
  return *object->find("value");
}

std::vector<std::string> strings(FieldReader& r, const char* key, bool allow_empty) {
  const JsonValue* list = r.raw(key);
  const std::string p = r.path_of(key);
  ADVISOR_REQUIRE(list != nullptr && list->is_array() && (allow_empty || !list->empty()),
                  "wrong_type", p, p + " must be an array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    ADVISOR_REQUIRE((*list)[i].is_string(), "wrong_type", p + "/" + std::to_string(i),
                    p + "/" + std::to_string(i) + " must be a string");
    out.push_back((*list)[i].string());
  }
  return out;
}

/// {"value": ["cuda", "rocm", "cann"], "basis", "source"}: the software stacks of the parts the
/// stack runs on (at least one).
std::vector<std::string> read_platforms(FieldReader& r) {
  const JsonValue& list = sourced(r, "platforms");
  const std::string p = r.path_of("platforms") + "/value";
  ADVISOR_REQUIRE(list.is_array() && !list.empty(), "wrong_type", p,
                  p + " must be a non-empty array of \"cuda\", \"rocm\" or \"cann\"");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonValue& v = list[i];
    const bool known =
        v.is_string() && (v.string() == "cuda" || v.string() == "rocm" || v.string() == "cann");
    ADVISOR_REQUIRE(known, "unknown_value", p + "/" + std::to_string(i),
                    p + "/" + std::to_string(i) + " must be \"cuda\", \"rocm\" or \"cann\"");
    out.push_back(v.string());
  }
  return out;
}

/// {"value", "below_memory_gib"?, "value_below"?, "basis", "source"}: a serving engine's token
/// budget per step, smaller on small GPUs where the engine says so.
void read_batch_budget(const JsonValue& j, const std::string& path, StackProfile& s) {
  constexpr double kMinTokens = 64, kMaxTokens = 1 << 20;  // a step of a few sequences .. 1M
  constexpr double kMaxMemoryGib = 4096;
  FieldReader b(j, path);
  s.max_batched_tokens = b.number("value", kMinTokens, kMaxTokens);
  s.max_batched_tokens_below_gib = b.number("below_memory_gib", 0, kMaxMemoryGib, 0.0);
  s.max_batched_tokens_below =
      b.number("value_below", kMinTokens, kMaxTokens, s.max_batched_tokens);
  b.string("basis");
  b.string("source");
  b.reject_unknown();
}

/// {"value": true | false, "basis", "source"}.
bool read_sourced_flag(FieldReader& r, const char* key) {
  const JsonValue& flag = sourced(r, key);
  if (!flag.is_boolean())
    return report_problem("wrong_type", r.path_of(key) + "/value",
                          r.path_of(key) + "/value must be true or false");
  return flag.boolean();
}

/// Whether the stack splits a MoE's routed experts over GPUs (optional; training and serving
/// stacks alike).
void read_expert_parallel(FieldReader& r, StackProfile& s) {
  if (r.raw("expert_parallel")) s.expert_parallel = read_sourced_flag(r, "expert_parallel");
}

/// The tasks a list of the profile names (default_for, common_for): known, and of its kind.
std::vector<Task> stack_tasks(FieldReader& r, const char* key, bool serving) {
  std::vector<Task> out;
  const std::string p = r.path_of(key);
  for (const std::string& t : strings(r, key, true)) {
    const auto task = value_in(kTaskNames, t);
    if (!task.has_value())
      return report_problem("catalog_invalid", p, p + ": unknown task \"" + t + "\"");
    if ((*task == Task::kInference) != serving)
      return report_problem(
          "catalog_invalid", p,
          p + ": a " + (serving ? "serving" : "training") + " stack cannot be listed for " + t);
    out.push_back(*task);
  }
  return out;
}

StackProfile parse_stack(const JsonValue& j, const std::string& path) {
  FieldReader r(j, path);
  StackProfile s;
  s.id = r.string("id");
  if (s.id.empty())
    return report_problem("catalog_invalid", r.path_of("id"),
                          r.path_of("id") + " must not be empty");
  s.name = r.string("name");
  s.serving = r.choice("kind", {"training", "serving"}) == "serving";
  s.default_for = stack_tasks(r, "default_for", s.serving);
  // Optional: a provider's profile that names none is in no task's range.
  if (r.has("common_for")) s.common_for = stack_tasks(r, "common_for", s.serving);
  s.source = strings(r, "source", false);
  s.platforms = read_platforms(r);
  if (s.serving) {
    s.gpu_memory_utilization = read_sourced_value(r, "gpu_memory_utilization", 0.05, 1);
    const JsonValue& free = sourced(r, "kv_of_free_memory");
    if (!free.is_boolean())
      return report_problem("wrong_type", r.path_of("kv_of_free_memory") + "/value",
                            r.path_of("kv_of_free_memory") + "/value must be true or false");
    s.kv_of_free_memory = free.boolean();
    s.efficiency_factor = read_sourced_value(r, "efficiency_factor", 0.1, 3);
    if (const JsonValue* budget = r.object("max_batched_tokens"))
      read_batch_budget(*budget, r.path_of("max_batched_tokens"), s);
    if (r.raw("quantized_decode_bandwidth_factor"))
      s.quantized_decode_bandwidth_factor =
          read_sourced_value(r, "quantized_decode_bandwidth_factor", 0.1, 1);
    if (r.raw("kv_read_bandwidth_factor"))
      s.kv_read_bandwidth_factor = read_sourced_value(r, "kv_read_bandwidth_factor", 0.1, 1);
    if (r.raw("decode_layer_floor_us"))
      s.decode_layer_floor_us = read_sourced_value(r, "decode_layer_floor_us", 0, 1000);
    if (r.raw("host_us_per_sequence"))
      s.host_us_per_sequence = read_sourced_value(r, "host_us_per_sequence", 0, 10000);
    read_expert_parallel(r, s);
    r.reject_unknown();
    return s;
  }
  s.logits_bytes_per_element = read_sourced_value(r, "logits_bytes_per_element", 0, 64);
  {
    FieldReader a = required_object(r, "accounting");
    s.master_weights = a.boolean("master_weights");
    s.gradient_bytes = a.choice("gradient_dtype", {"bf16", "fp16", "fp32"}) == "fp32" ? 4 : 2;
    s.optimizer_state_bytes = a.choice("optimizer_state_dtype", {"fp32", "bf16"}) == "fp32" ? 4 : 2;
    a.string("basis");
    a.string("source");
    a.reject_unknown();
  }
  {
    const JsonValue& keep = sourced(r, "selective_keep_fraction");
    const std::string p = r.path_of("selective_keep_fraction") + "/value";
    if (!keep.is_null()) {
      ADVISOR_REQUIRE(keep.is_number() && keep.number() > 0 && keep.number() <= 1, "out_of_range",
                      p, p + " must be null (Megatron's selective recompute) or in (0, 1]");
      s.selective_keep_fraction = keep.number();
    }
  }
  {
    const JsonValue& ckpt = sourced(r, "default_checkpointing");
    const std::string p = r.path_of("default_checkpointing") + "/value";
    if (!ckpt.is_null()) {
      const auto c = ckpt.is_string() ? value_in(kCheckpointingNames, ckpt.string()) : std::nullopt;
      if (!c.has_value())
        return report_problem("unknown_value", p,
                              p + " must be null, \"none\", \"selective\" or \"full\"");
      s.default_checkpointing = *c;
    }
  }
  s.offload_activations = read_sourced_flag(r, "offload_activations");
  s.kbit_fp32_other_weights = read_sourced_flag(r, "kbit_fp32_other_weights");
  s.dispatch_us_per_op = read_sourced_value(r, "dispatch_us_per_op", 0, 1000);
  s.efficiency_factor = read_sourced_value(r, "efficiency_factor", 0.1, 3);
  s.activation_traffic_passes = read_sourced_value(r, "activation_traffic_passes", 0, 100);
  if (r.raw("default_zero"))
    s.default_zero = static_cast<int>(read_sourced_value(r, "default_zero", 0, 3));
  if (r.raw("max_zero_with_pp"))
    s.max_zero_with_pp = static_cast<int>(read_sourced_value(r, "max_zero_with_pp", 0, 3));
  if (r.raw("dp_bucket_elements_per_rank"))
    s.dp_bucket_elements_per_rank = read_sourced_value(r, "dp_bucket_elements_per_rank", 0, 1e9);
  s.zero3_gather_once_per_step_with_pp = read_sourced_flag(r, "zero3_gather_once_per_step_with_pp");
  s.tp_keeps_gathered_inputs = read_sourced_flag(r, "tp_keeps_gathered_inputs");
  if (r.raw("tp_overlap_hidden_share"))
    s.tp_overlap_hidden_share = read_sourced_value(r, "tp_overlap_hidden_share", 0, 1);
  if (r.raw("tp_comm_overlap")) s.tp_comm_overlap = read_sourced_flag(r, "tp_comm_overlap");
  ADVISOR_REQUIRE(!s.tp_comm_overlap || s.tp_overlap_hidden_share, "inconsistent",
                  r.path_of("tp_comm_overlap"),
                  r.path_of("tp_comm_overlap") + " needs tp_overlap_hidden_share");
  if (r.raw("pipeline_p2p_overlap"))
    s.pipeline_p2p_overlap = read_sourced_flag(r, "pipeline_p2p_overlap");
  read_expert_parallel(r, s);
  r.reject_unknown();
  return s;
}

/// performance.json "runs": whole-run terms (failures, start-up, checkpoint saves).
void read_runs(FieldReader& root, PerformanceConstants& k) {
  FieldReader w = required_object(root, "runs");
  k.failures_per_gpu_hour = read_sourced_value(w, "failures_per_gpu_hour", 0, 1);
  k.hours_lost_per_failure = read_sourced_value(w, "hours_lost_per_failure", 0, 1000);
  constexpr double kMaxImageGb = 1000, kMaxSeconds = 86400;
  constexpr double kMinRate = 0.001, kMaxRate = 100000;  // a rate is a divisor
  k.container_image_gb = read_sourced_value(w, "container_image_gb", 0, kMaxImageGb);
  k.image_pull_gbit_per_s = read_sourced_value(w, "image_pull_gbit_per_s", kMinRate, kMaxRate);
  k.checkpoint_read_gbyte_per_s =
      read_sourced_value(w, "checkpoint_read_gbyte_per_s", kMinRate, kMaxRate);
  k.warmup_s = read_sourced_value(w, "warmup_s", 0, kMaxSeconds);
  k.rendezvous_s_per_doubling = read_sourced_value(w, "rendezvous_s_per_doubling", 0, kMaxSeconds);
  constexpr double kMaxIntervalHours = 10000;
  k.checkpoint_interval_hours =
      read_sourced_value(w, "checkpoint_interval_hours", kMinRate, kMaxIntervalHours);
  k.checkpoint_write_gbyte_per_s =
      read_sourced_value(w, "checkpoint_write_gbyte_per_s", kMinRate, kMaxRate);
  w.reject_unknown();
}

}  // namespace

void parse_stack_sections(FieldReader& root, PerformanceConstants& k) {
  {
    const JsonValue* list = root.raw("protocols");
    const std::string p = root.path_of("protocols");
    ADVISOR_REQUIRE_OR_RETURN(list != nullptr && list->is_array() && !list->empty(), "wrong_type",
                              p, p + " must be a non-empty array");
    for (std::size_t i = 0; i < list->size(); ++i) {
      FieldReader r((*list)[i], p + "/" + std::to_string(i));
      CollectiveProtocol c;
      c.name = r.string("name");
      c.base_latency_us = r.number("base_latency_us", 0, 1e4);
      FieldReader h = required_object(r, "hop_latency_us");
      c.hop_latency_us[static_cast<int>(Hop::kNvlink)] = h.number("nvlink", 0, 1e4);
      c.hop_latency_us[static_cast<int>(Hop::kPcie)] = h.number("pcie", 0, 1e4);
      c.hop_latency_us[static_cast<int>(Hop::kNetwork)] = h.number("network", 0, 1e4);
      h.reject_unknown();
      c.bandwidth_fraction = r.number("bandwidth_fraction", 0.01, 1);
      c.tree_base_latency_us = r.number("tree_base_latency_us", 0, 1e4);
      FieldReader th = required_object(r, "tree_hop_latency_us");
      c.tree_hop_latency_us[static_cast<int>(Hop::kNvlink)] = th.number("nvlink", 0, 1e4);
      c.tree_hop_latency_us[static_cast<int>(Hop::kPcie)] = th.number("pcie", 0, 1e4);
      c.tree_hop_latency_us[static_cast<int>(Hop::kNetwork)] = th.number("network", 0, 1e4);
      th.reject_unknown();
      r.string("basis");
      r.string("source");
      r.reject_unknown();
      k.protocols.push_back(c);
    }
  }
  {
    FieldReader s = required_object(root, "serving");
    k.int8_dequant_ops_per_weight = read_sourced_value(s, "int8_dequant_ops_per_weight", 0, 100);
    k.int4_dequant_ops_per_weight = read_sourced_value(s, "int4_dequant_ops_per_weight", 0, 100);
    k.unstated_fp32_tflops_per_memory_tbps =
        read_sourced_value(s, "unstated_fp32_tflops_per_memory_tbps", 0.1, 1000);
    k.kv_read_bandwidth_factor = read_sourced_value(s, "kv_read_bandwidth_factor", 0.05, 1.5);
    k.decode_layer_floor_us = read_sourced_value(s, "decode_layer_floor_us", 0, 1000);
    s.reject_unknown();
  }
  read_runs(root, k);
  {
    const JsonValue* list = root.raw("stacks");
    const std::string p = root.path_of("stacks");
    ADVISOR_REQUIRE_OR_RETURN(list != nullptr && list->is_array() && !list->empty(), "wrong_type",
                              p, p + " must be a non-empty array");
    ADVISOR_REQUIRE_OR_RETURN(
        list->size() <= limits::kMaxCatalogStacks, "limit_exceeded", p,
        p + " has " + std::to_string(list->size()) + " stacks, more than the " +
            std::to_string(limits::kMaxCatalogStacks) + " the advisor accepts");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string item = p + "/" + std::to_string(i);
      StackProfile s = parse_stack((*list)[i], item);
      ADVISOR_REQUIRE_OR_RETURN(k.find_stack(s.id) == nullptr, "catalog_invalid", item + "/id",
                                item + "/id \"" + s.id + "\" appears twice");
      k.stacks.push_back(std::move(s));
    }
    for (Task t :
         {Task::kPretrain, Task::kFullFinetune, Task::kLora, Task::kQlora, Task::kInference}) {
      ADVISOR_REQUIRE_OR_RETURN(k.default_stack(t) != nullptr, "catalog_invalid", p,
                                p + ": no stack is the default for " + std::string(name_of(t)));
      const auto defaults =
          std::count_if(k.stacks.begin(), k.stacks.end(), [&](const StackProfile& s) {
            return std::find(s.default_for.begin(), s.default_for.end(), t) != s.default_for.end();
          });
      ADVISOR_REQUIRE_OR_RETURN(
          defaults == 1, "catalog_invalid", p,
          p + ": more than one stack is the default for " + std::string(name_of(t)));
    }
  }
}

const StackProfile* PerformanceConstants::find_stack(const std::string& id) const {
  for (const StackProfile& s : stacks)
    if (s.id == id) return &s;
  return nullptr;
}

const StackProfile* PerformanceConstants::default_stack(Task task) const {
  for (const StackProfile& s : stacks)
    if (std::find(s.default_for.begin(), s.default_for.end(), task) != s.default_for.end())
      return &s;
  return nullptr;
}

}  // namespace advisor
