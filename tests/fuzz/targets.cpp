// SPDX-License-Identifier: MIT
#include "targets.hpp"

#include <nlohmann/json.hpp>

#include "api.hpp"
#include "check_result.hpp"
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
  const std::string data =
      at == std::string::npos ? std::string() : input.substr(at + std::string(kDataSeparator).size());
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
  require_valid_answer(advisor::advise_with_provider_text(request, input), input, "provider", Api::kProvider);
  require_valid_answer(advisor::provider_text(input), input, "provider_text", Api::kProvider);
}

Target target_named(const std::string& name) {
  if (name == "advise") return advise;
  if (name == "data") return advise_with_data;
  if (name == "jobs_csv") return jobs_csv;
  if (name == "hf_config") return hf_config;
  if (name == "validation") return validation;
  if (name == "provider") return provider;
  return nullptr;
}

}  // namespace fuzz
