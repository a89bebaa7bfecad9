// SPDX-License-Identifier: MIT
#include "io/form_json.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <string_view>

#include "io/json_reader.hpp"
#include "io/request_json.hpp"
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
    "/validation/registry",  // nvcr.io unless a mirror is given
    // Follow the precision (fp32 training has no master copy and fp32 gradients).
    "/training/accounting/master_weights", "/training/accounting/gradient_dtype",
    "/training/accounting/optimizer_state_dtype", "/training/accounting/fused_cross_entropy"};
// Inputs the advisor decides for one task only: a pretraining run without /hardware/count runs on
// the count it chooses (plan/plan.cpp); the other tasks on one GPU.
constexpr std::pair<std::string_view, Task> kAdvisorDecidesFor[] = {{"/hardware/count", Task::kPretrain}};
// Units a page formats by (token counts in 亿/万, say).
constexpr std::pair<std::string_view, const char*> kUnits[] = {
    {"/training/tokens", "tokens"},        {"/training/dataset_tokens", "tokens"},
    {"/training/sequence_length", "tokens"}, {"/inference/prompt_tokens", "tokens"},
    {"/inference/output_tokens", "tokens"}, {"/inference/max_model_len", "tokens"}};
// Fields of a catalog entry that a request may carry but a person does not type.
constexpr std::string_view kNotInputs[] = {"/schema", "/task", "/model/preset", "/model/id",
                                           "/model/family", "/model/source", "/model/as_of",
                                           "/model/params_total_b", "/model/params_active_b"};

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
      path == "/cluster/storage_read_gbps" || path == "/goal/deadline_hours")
    return training;
  if (starts_with(path, "/inference/")) return {Task::kInference};
  return {Task::kPretrain, Task::kFullFinetune, Task::kLora, Task::kQlora, Task::kInference};
}

/// Requests that make the parser read every input once for `task`: the bare request, pinned
/// hardware, a model given by its fields (with MoE and MLA blocks) and a capacity section.
std::vector<nlohmann::json> examples(Task task, const Catalog& catalog) {
  const nlohmann::json base = {{"schema", 1}, {"task", name_of(task)}, {"model", {{"preset", kDefaultPreset}}}};
  std::vector<nlohmann::json> out = {base};
  if (!catalog.gpus.empty()) {
    nlohmann::json pinned = base;
    pinned["hardware"] = {{"gpu", catalog.gpus.front().id}};
    out.push_back(pinned);
  }
  nlohmann::json fields = base;
  fields["model"] = {{"name", "custom"}, {"layers", 2}, {"hidden", 64}, {"ffn_hidden", 128},
                     {"heads", 4}, {"vocab", 100},
                     {"moe", {{"experts", 4}, {"experts_per_token", 2}, {"expert_ffn_hidden", 32}}},
                     {"mla", {{"kv_lora_rank", 16}, {"qk_nope_head_dim", 16},
                              {"qk_rope_head_dim", 8}, {"v_head_dim", 16}}}};
  out.push_back(fields);
  nlohmann::json capacity = base;
  capacity["capacity"] = {{"jobs_csv", "job,gpu_type,gpus,hours\nexample,any,1,1\n"}};
  out.push_back(capacity);
  return out;
}

std::vector<FieldSpec> fields_read(Task task, const Catalog& catalog) {
  FieldLog log;
  for (const nlohmann::json& example : examples(task, catalog)) {
    try {
      parse_request(example, catalog);
    } catch (const std::exception&) {
      // An example the catalog cannot take (e.g. a provider catalog without the default
      // preset): the fields read before the error are still recorded.
    }
  }
  return log.fields();
}

}  // namespace

nlohmann::json task_list() {
  nlohmann::json out = nlohmann::json::array();
  for (const Named<Task>& t : kTaskNames) {
    out.push_back({{"id", t.name}, {"training", is_training(t.value)}, {"adapter", is_adapter(t.value)}});
  }
  return out;
}

nlohmann::json form_schema(const Catalog& catalog) {
  struct Entry {
    FieldSpec spec;
    std::map<std::string, nlohmann::json> default_by_task;
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
        if (f.path == path && task.value == decided) it->default_by_task[task.name] = nullptr;
    }
  }
  nlohmann::json out = nlohmann::json::array();
  for (Entry& e : entries) {
    const FieldSpec& f = e.spec;
    nlohmann::json j = {{"path", f.path}, {"kind", f.kind}};
    if (!f.choices.empty()) j["choices"] = f.choices;
    // Choices that are catalog ids (checked against the catalog after reading).
    if (f.path == "/cost/site" || f.path == "/hardware/gpu") {
      nlohmann::json ids = nlohmann::json::array();
      if (f.path == "/cost/site") {
        for (const SiteDefaults& s : catalog.prices.sites) ids.push_back(s.id);
      } else {
        for (const GpuSpec& g : catalog.gpus) ids.push_back(g.id);
      }
      j["kind"] = "choice";
      j["choices"] = std::move(ids);
    }
    if (f.min) j["min"] = *f.min;
    if (f.max) j["max"] = *f.max;
    if (f.exclusive_min) j["exclusive_min"] = true;
    for (const auto& [path, unit] : kUnits)
      if (f.path == path) j["unit"] = unit;
    nlohmann::json tasks = nlohmann::json::array();
    for (Task t : tasks_for(f.path)) tasks.push_back(name_of(t));
    j["tasks"] = tasks;
    // The default of the default task, and the tasks where it differs (QLoRA's checkpointing).
    nlohmann::json fallback = e.default_by_task.count(name_of(kDefaultTask))
                                  ? e.default_by_task[name_of(kDefaultTask)]
                                  : e.default_by_task.begin()->second;
    for (std::string_view decides : kAdvisorDecides)
      if (f.path == decides) fallback = nullptr;
    j["default"] = fallback;
    nlohmann::json differs = nlohmann::json::object();
    for (const auto& [task, value] : e.default_by_task)
      if (value != fallback && !j["default"].is_null()) differs[task] = value;
    if (!differs.empty()) j["default_by_task"] = differs;
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json default_request(const Catalog& catalog) {
  nlohmann::json request = {{"schema", 1}, {"task", name_of(kDefaultTask)},
                            {"model", {{"preset", kDefaultPreset}}}};
  for (const FieldSpec& f : fields_read(kDefaultTask, catalog)) {
    // The sections a request usually states; cost, power and capacity defaults come from the
    // price catalog and are listed in the result (cost.defaults_used) instead.
    const bool stated = starts_with(f.path, "/training/") || starts_with(f.path, "/inference/") ||
                        starts_with(f.path, "/parallelism/") || starts_with(f.path, "/cluster/");
    if (!stated) continue;
    nlohmann::json value = f.default_value;
    for (std::string_view decides : kAdvisorDecides)
      if (f.path == decides) value = nullptr;
    request[nlohmann::json::json_pointer(f.path)] = value;
  }
  return request;
}

}  // namespace advisor
