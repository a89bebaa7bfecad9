// SPDX-License-Identifier: MIT
#include "targets.hpp"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "api.hpp"
#include "check_result.hpp"
#include "io/catalog_json.hpp"
#include "script_shape.hpp"
#include "validation_api.hpp"

namespace fuzz {

namespace {

/// `text` as a JSON string literal (invalid UTF-8 replaced, as a browser would).
std::string json_string(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

const char* const kTasks[] = {"pretrain", "full_finetune", "lora", "qlora", "inference"};

}  // namespace

void advise(const std::string& input) {
  require_valid_answer(advisor::advise_text(input), input, "advise");
}

void advise_with_data(const std::string& input) {
  const std::size_t at = input.find(kDataSeparator);
  const std::string request = input.substr(0, at);
  const std::string data = at == std::string::npos
                               ? std::string()
                               : input.substr(at + std::string(kDataSeparator).size());
  require_valid_answer(advisor::advise_with_data_text(request, data), input, "advise_with_data");
}

void jobs_csv(const std::string& input) {
  const std::string request =
      R"({"schema": 1, "task": "inference", "model": {"preset": "llama-3.1-8b"},)"
      R"( "hardware": {"gpu": "l40s-48gb", "count": 1}, "capacity": {"jobs_csv": )" +
      json_string(input) + "}}";
  require_valid_answer(advisor::advise_text(request), input, "jobs_csv");
}

void hf_config(const std::string& input) {
  const unsigned first = input.empty() ? 0 : static_cast<unsigned char>(input[0]);
  const std::string config = (first & 1) == 0 ? json_string(input) : input;
  const std::string request = std::string(R"({"schema": 1, "task": ")") + kTasks[first / 2 % 5] +
                              R"(", "model": {"hf_config": )" + config + "}}";
  require_valid_answer(advisor::advise_text(request), input, "hf_config");
}

void validation(const std::string& input) {
  static const std::string request =
      R"({"schema": 1, "task": "full_finetune", "model": {"preset": "llama-3.1-8b"},)"
      R"( "hardware": {"gpu": "h100-sxm-80gb", "count": 8}})";
  const bool json = !input.empty() && input[0] == '{';
  require_valid_answer(advisor::validation_check_text(
                           request, input, json ? "validation-result.json" : "nvidia-smi.csv"),
                       input, "validation", Api::kValidation);
}

void provider(const std::string& input) {
  // A provider's document against one of the golden-like requests (the first byte picks which).
  static const std::string requests[] = {
      R"({"schema": 1, "task": "full_finetune", "model": {"preset": "llama-3.1-8b"}})",
      R"({"schema": 1, "task": "inference", "model": {"preset": "qwen2.5-72b"}, "inference": {"target_users": 50}})",
      R"({"schema": 1, "task": "pretrain", "model": {"preset": "llama-2-13b"}, "hardware": {"gpu": "h100-sxm-80gb", "count": 16}})"};
  const unsigned first = input.empty() ? 0 : static_cast<unsigned char>(input[0]);
  const std::string& request = requests[first % 3];
  require_valid_answer(advisor::advise_with_provider_text(request, input), input, "provider",
                       Api::kProvider);
  require_valid_answer(advisor::provider_text(input), input, "provider_text", Api::kProvider);
}

namespace {

/// A request whose scripts carry `text` in one of the fields that reach them: a custom model's
/// name, a pasted config's _name_or_path, or (with the provider document `provider`) the name of
/// a provider's part that replaces a built-in one.
struct ScriptRequest {
  std::string request;
  std::string provider;
};

const char* const kPinned = R"(, "hardware": {"gpu": "h100-sxm-80gb", "count": 8}})";

ScriptRequest custom_model_name(const std::string& text) {
  return {
      R"({"schema": 1, "task": "lora", "model": {"name": )" + json_string(text) +
          R"(, "layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32, "kv_heads": 8, "vocab": 128256})" +
          kPinned,
      ""};
}

ScriptRequest config_name(const std::string& text) {
  return {
      R"({"schema": 1, "task": "full_finetune", "model": {"hf_config": {"_name_or_path": )" +
          json_string(text) +
          R"(, "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,)"
          R"( "num_key_value_heads": 8, "num_hidden_layers": 32, "vocab_size": 128256}})" +
          kPinned,
      ""};
}

ScriptRequest provider_gpu_name(const std::string& text) {
  static const nlohmann::json h100 = [] {
    const nlohmann::json catalog = nlohmann::json::parse(advisor::builtin_gpus_json());
    for (const auto& g : catalog["gpus"])
      if (g["id"] == "h100-sxm-80gb") return g;
    std::abort();
  }();
  nlohmann::json part = h100;
  part["name"] = nlohmann::json::parse(json_string(text));
  const nlohmann::json provider = {
      {"schema", 1},
      {"name", "Fuzz provider"},
      {"as_of", "2026-12-01"},
      {"currency", "CNY"},
      {"gpus", {part}},
      {"offers", {{{"gpu", "h100-sxm-80gb"}, {"price_cny_per_gpu_hour", 12.0}}}}};
  return {
      std::string(R"({"schema": 1, "task": "lora", "model": {"preset": "llama-3.1-8b"})") + kPinned,
      provider.dump()};
}

using ScriptField = ScriptRequest (*)(const std::string&);
const ScriptField kScriptFields[] = {custom_model_name, config_name, provider_gpu_name};

/// The generated files of `r` as {name: text}, or null when the request is refused (a located
/// error, which must itself be a valid answer).
nlohmann::json script_files(const ScriptRequest& r, const std::string& input) {
  const std::string answer = advisor::validation_scripts_text(r.request, {{}, r.provider});
  require_valid_answer(answer, input, "scripts", Api::kValidation);
  const nlohmann::json j = nlohmann::json::parse(answer);
  if (j.contains("error")) return nullptr;
  nlohmann::json files = nlohmann::json::object();
  for (const auto& f : j["files"]) files[f["name"].get<std::string>()] = f["text"];
  return files;
}

[[noreturn]] void shape_changed(const std::string& input, const std::string& file,
                                const std::string& text) {
  std::fprintf(
      stderr,
      "\nscripts: %s has another command structure for input (%zu bytes): %.2000s\n%.4000s\n",
      file.c_str(), input.size(), input.c_str(), text.c_str());
  std::abort();
}

}  // namespace

void scripts(const std::string& input) {
  const unsigned first = input.empty() ? 0 : static_cast<unsigned char>(input[0]);
  const std::string text = input.empty() ? std::string() : input.substr(1);
  const std::size_t which = first % std::size(kScriptFields);
  static nlohmann::json benign[std::size(kScriptFields)];
  if (benign[which].is_null())
    benign[which] = script_files(kScriptFields[which]("Benign Model 7B"), input);
  if (benign[which].is_null()) std::abort();  // the harness's own request must give scripts
  const nlohmann::json files = script_files(kScriptFields[which](text), input);
  if (files.is_null()) return;
  for (const auto& [name, expected] : benign[which].items()) {
    if (!files.contains(name)) shape_changed(input, name, "(missing)");
    const std::string got = files[name].get<std::string>();
    const bool python = name.size() > 3 && name.compare(name.size() - 3, 3, ".py") == 0;
    const bool shell = name.size() > 3 && name.compare(name.size() - 3, 3, ".sh") == 0;
    if ((python && python_shape(got) != python_shape(expected.get<std::string>())) ||
        (shell && shell_shape(got) != shell_shape(expected.get<std::string>())))
      shape_changed(input, name, got);
  }
}

Target target_named(const std::string& name) {
  if (name == "scripts") return scripts;
  if (name == "advise") return advise;
  if (name == "data") return advise_with_data;
  if (name == "jobs_csv") return jobs_csv;
  if (name == "hf_config") return hf_config;
  if (name == "validation") return validation;
  if (name == "provider") return provider;
  return nullptr;
}

}  // namespace fuzz
