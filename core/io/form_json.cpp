// SPDX-License-Identifier: MIT
#include "io/form_json.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <string_view>

#include "io/json_reader.hpp"
#include "io/request_json.hpp"
#include "types/errors.hpp"
#include "types/request.hpp"

namespace advisor {

namespace {

// The request the page starts from (a common first job: a full fine-tune of an 8B model).
constexpr Task kDefaultTask = Task::kFullFinetune;
constexpr const char* kDefaultPreset = "llama-3.1-8b";

// Inputs whose absence means "the advisor decides" (or "derived from other fields") although the
// parser falls back to a number while checking them.
constexpr std::string_view kAdvisorDecides[] = {
    "/parallelism/tp", "/parallelism/pp", "/model/kv_heads", "/model/head_dim",
    "/parallelism/ep",       // MoE training: expert parallelism where it is faster
    "/parallelism/zero",     // the stack's (Megatron's distributed optimizer: 1), else 3
    "/validation/registry",  // nvcr.io unless a mirror is given
    // Follow the precision (fp32 training has no master copy and fp32 gradients).
    "/training/accounting/master_weights", "/training/accounting/gradient_dtype",
    "/training/accounting/optimizer_state_dtype", "/training/accounting/fused_cross_entropy"};
// Inputs the advisor decides for one task only: a pretraining run without /hardware/count runs on
// the count it chooses (plan/plan.cpp); the other tasks on one GPU.
constexpr std::pair<std::string_view, Task> kAdvisorDecidesFor[] = {
    {"/hardware/count", Task::kPretrain}};
// Units a page formats and reads by (token counts in 亿/万, say).
constexpr std::pair<std::string_view, const char*> kUnits[] = {
    {"/training/tokens", "tokens"},
    {"/training/dataset_tokens", "tokens"},
    {"/training/sequence_length", "tokens"},
    {"/inference/prompt_tokens", "tokens"},
    {"/inference/output_tokens", "tokens"},
    {"/inference/max_model_len", "tokens"},
    // A cadence: a page reads "每周一次" or "2/week" as runs per month.
    {"/training/runs_per_month", "per_month"}};
/// Whether a field is an amount of yuan, by its name's unit (core/README.md rule 4: one unit per
/// suffix): `…_cny`, or a price `…cny_per_…`. A page reads "¥5万" or "50k" typed there as money.
bool in_yuan(std::string_view path) {
  const std::string_view name = path.substr(path.rfind('/') + 1);
  constexpr std::string_view kSuffix = "_cny";
  const bool suffix =
      name.size() > kSuffix.size() && name.substr(name.size() - kSuffix.size()) == kSuffix;
  return suffix || name.find("cny_per_") != std::string_view::npos;
}
/// Whether a field is a duration in hours (`…_hours`): a page reads "60天" or "2 weeks" typed
/// there.
bool in_hours(std::string_view path) {
  constexpr std::string_view kSuffix = "_hours", kGpuHours = "gpu_hours";  // GPU-hours: an amount
  const auto ends = [&](std::string_view x) {
    return path.size() > x.size() && path.substr(path.size() - x.size()) == x;
  };
  return ends(kSuffix) && !ends(kGpuHours);
}
// Fields of a catalog entry that a request may carry but a person does not type.
constexpr std::string_view kNotInputs[] = {"/schema",
                                           "/task",
                                           "/model/preset",
                                           "/model/id",
                                           "/model/family",
                                           "/model/source",
                                           "/model/as_of",
                                           "/model/params_total_b",
                                           "/model/params_active_b"};

/// An object of `members` (in key order, as every object).
JsonValue object_of(std::initializer_list<std::pair<const char*, JsonValue>> members) {
  JsonValue out = JsonValue::object();
  for (const auto& [key, value] : members) out.set(key, value);
  return out;
}

JsonValue array_of(const std::vector<std::string>& items) {
  JsonValue out = JsonValue::array();
  for (const std::string& item : items) out.push_back(item);
  return out;
}

/// Sets the member at JSON pointer `path` (no escapes in our paths), creating the objects on
/// the way.
void set_at(JsonValue& root, std::string_view path, JsonValue value) {
  JsonValue* at = &root;
  std::size_t begin = 1;
  for (std::size_t slash = path.find('/', begin); slash != std::string_view::npos;
       slash = path.find('/', begin)) {
    const std::string token(path.substr(begin, slash - begin));
    JsonValue* next = at->find(token);
    if (next == nullptr || next->is_null()) next = &at->set(token, JsonValue::object());
    at = next;
    begin = slash + 1;
  }
  at->set(std::string(path.substr(begin)), std::move(value));
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// The tasks an input applies to (the parser reads every section for every task; these say
/// which ones change the answer).
std::vector<Task> tasks_for(std::string_view path) {
  const std::vector<Task> training = {Task::kPretrain, Task::kFullFinetune, Task::kLora,
                                      Task::kQlora};
  if (path == "/training/lora_rank" || path == "/training/lora_targets")
    return {Task::kLora, Task::kQlora};
  if (path == "/training/base_quantization") return {Task::kQlora};
  if (starts_with(path, "/training/") || path == "/parallelism/zero" || path == "/parallelism/cp" ||
      path == "/parallelism/shard_group" || path == "/parallelism/tp_comm_overlap" ||
      path == "/cluster/storage_read_gbps" || path == "/goal/deadline_hours")
    return training;
  if (starts_with(path, "/inference/")) return {Task::kInference};
  return {Task::kPretrain, Task::kFullFinetune, Task::kLora, Task::kQlora, Task::kInference};
}

/// Requests that make the parser read every input once for `task`: the bare request, pinned
/// hardware, and a model given by its fields (with MoE and MLA blocks) beside a capacity section
/// (the two read fields of their own; one request parsed instead of two, for catalog()'s first
/// call at start-up).
std::vector<JsonValue> examples(Task task, const Catalog& catalog) {
  const JsonValue base = object_of(
      {{"schema", 1}, {"task", name_of(task)}, {"model", object_of({{"preset", kDefaultPreset}})}});
  std::vector<JsonValue> out = {base};
  if (!catalog.gpus.empty()) {
    JsonValue pinned = base;
    pinned.set("hardware", object_of({{"gpu", catalog.gpus.front().id}}));
    out.push_back(pinned);
  }
  JsonValue fields = base;
  fields.set(
      "model",
      object_of({{"name", "custom"},
                 {"layers", 2},
                 {"hidden", 64},
                 {"ffn_hidden", 128},
                 {"heads", 4},
                 {"vocab", 100},
                 {"moe",
                  object_of({{"experts", 4}, {"experts_per_token", 2}, {"expert_ffn_hidden", 32}})},
                 {"mla", object_of({{"kv_lora_rank", 16},
                                    {"qk_nope_head_dim", 16},
                                    {"qk_rope_head_dim", 8},
                                    {"v_head_dim", 16}})}}));
  fields.set("capacity", object_of({{"jobs_csv", "job,gpu_type,gpus,hours\nexample,any,1,1\n"}}));
  out.push_back(fields);
  return out;
}

std::vector<FieldSpec> fields_read(Task task, const Catalog& catalog) {
  FieldLog log;
  for (const JsonValue& example : examples(task, catalog)) {
    // An example the catalog cannot take (e.g. a provider catalog without the default preset)
    // is a problem of its own scope, not the caller's: the fields read are still recorded.
    std::optional<InputError> problem;
    in_own_scope([&] { return parse_request(example, catalog); }, problem);
  }
  return log.fields();
}

JsonValue stacks_by_task(const PerformanceConstants& k) {
  JsonValue out = JsonValue::object();
  for (const Named<Task>& task : kTaskNames) {
    std::vector<std::string> ids;
    for (const StackProfile& s : k.stacks)
      if (s.serving == (task.value == Task::kInference)) ids.push_back(s.id);
    out.set(task.name, array_of(ids));
  }
  return out;
}

}  // namespace

JsonValue task_list() {
  JsonValue out = JsonValue::array();
  for (const Named<Task>& t : kTaskNames) {
    out.push_back(object_of(
        {{"id", t.name}, {"training", is_training(t.value)}, {"adapter", is_adapter(t.value)}}));
  }
  return out;
}

JsonValue form_schema(const Catalog& catalog) {
  struct Entry {
    FieldSpec spec;
    std::map<std::string, JsonValue> default_by_task;
  };
  std::vector<Entry> entries;
  for (const Named<Task>& task : kTaskNames) {
    for (FieldSpec& f : fields_read(task.value, catalog)) {
      if (std::find(std::begin(kNotInputs), std::end(kNotInputs), f.path) != std::end(kNotInputs))
        continue;
      auto it = std::find_if(entries.begin(), entries.end(),
                             [&](const Entry& e) { return e.spec.path == f.path; });
      if (it == entries.end()) {
        entries.push_back({f, {}});
        it = entries.end() - 1;
      }
      it->default_by_task[task.name] = f.default_value;
      for (const auto& [path, decided] : kAdvisorDecidesFor)
        if (f.path == path && task.value == decided) it->default_by_task[task.name] = JsonValue();
    }
  }
  JsonValue out = JsonValue::array();
  for (Entry& e : entries) {
    const FieldSpec& f = e.spec;
    JsonValue j = object_of({{"path", f.path}, {"kind", f.kind}});
    if (!f.choices.empty()) j.set("choices", array_of(f.choices));
    // Choices that are catalog ids (checked against the catalog after reading).
    if (f.path == "/cost/site" || f.path == "/hardware/gpu") {
      JsonValue ids = JsonValue::array();
      if (f.path == "/cost/site") {
        for (const SiteDefaults& s : catalog.prices.sites) ids.push_back(s.id);
      } else {
        for (const GpuSpec& g : catalog.gpus) ids.push_back(g.id);
      }
      j.set("kind", "choice");
      j.set("choices", std::move(ids));
    }
    // A stack of the task's kind: the training stacks for the training tasks, the serving
    // engines for inference (the parser refuses the other kind at /stack).
    if (f.path == "/stack") j.set("choices_by_task", stacks_by_task(catalog.performance));
    if (f.min) j.set("min", *f.min);
    if (f.max) j.set("max", *f.max);
    if (f.exclusive_min) j.set("exclusive_min", true);
    for (const auto& [path, unit] : kUnits)
      if (f.path == path) j.set("unit", unit);
    if ((f.kind == "number" || f.kind == "integer") && in_yuan(f.path)) j.set("unit", "cny");
    if ((f.kind == "number" || f.kind == "integer") && in_hours(f.path)) j.set("unit", "hours");
    JsonValue tasks = JsonValue::array();
    for (Task t : tasks_for(f.path)) tasks.push_back(name_of(t));
    j.set("tasks", std::move(tasks));
    // The default of the default task, and the tasks where it differs (QLoRA's checkpointing).
    JsonValue fallback = e.default_by_task.count(name_of(kDefaultTask))
                             ? e.default_by_task[name_of(kDefaultTask)]
                             : e.default_by_task.begin()->second;
    for (std::string_view decides : kAdvisorDecides)
      if (f.path == decides) fallback = JsonValue();
    j.set("default", fallback);
    JsonValue differs = JsonValue::object();
    for (const auto& [task, value] : e.default_by_task)
      if (!(value == fallback) && !fallback.is_null()) differs.set(task, value);
    if (!differs.empty()) j.set("default_by_task", std::move(differs));
    out.push_back(std::move(j));
  }
  return out;
}

JsonValue default_request(const Catalog& catalog) {
  JsonValue request = object_of({{"schema", 1},
                                 {"task", name_of(kDefaultTask)},
                                 {"model", object_of({{"preset", kDefaultPreset}})}});
  for (const FieldSpec& f : fields_read(kDefaultTask, catalog)) {
    // The sections a request usually states; cost, power and capacity defaults come from the
    // price catalog and are listed in the result (cost.defaults_used) instead.
    const bool stated = starts_with(f.path, "/training/") || starts_with(f.path, "/inference/") ||
                        starts_with(f.path, "/parallelism/") || starts_with(f.path, "/cluster/");
    if (!stated) continue;
    JsonValue value = f.default_value;
    for (std::string_view decides : kAdvisorDecides)
      if (f.path == decides) value = JsonValue();
    set_at(request, f.path, std::move(value));
  }
  return request;
}

}  // namespace advisor
