// SPDX-License-Identifier: MIT
#include "check_result.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

namespace fuzz {

namespace {

using nlohmann::json;

// Every code the text API documents (docs/api.md, "Error codes"); unreadable_file is the CLI's.
const std::set<std::string> kCodes = {
    "malformed_json", "wrong_type",      "missing_field",          "out_of_range",
    "not_integer",    "unknown_field",   "unknown_value",          "unknown_preset",
    "unknown_gpu",    "inconsistent",    "unsupported_model_type", "unsupported",
    "duplicate",      "catalog_invalid", "missing_column",         "bad_csv",
    "bad_date",       "limit_exceeded"};

// Figures that are credits or margins and may be negative (as may any *difference*).
const std::set<std::string> kSigned = {"headroom_bytes", "difference_vs_selected_cny_per_year",
                                       "yearly_cny"};

// Per-GPU memory sizes in the options (those under /memory are all whole).
const std::set<std::string> kMemorySizes = {"memory_bytes", "per_gpu_bytes_on_one",
                                            "per_gpu_bytes_at_min"};

// Sentences the advisor writes around its figures (names and ids echo the user's text).
const std::set<std::string> kSentences = {"text",
                                          "message",
                                          "reason",
                                          "note",
                                          "assumptions",
                                          "hardware_reason",
                                          "seventy_percent_rule_note",
                                          "basis"};

bool catalog_path(const std::string& p) {
  for (const char* file : {"gpus.json", "models.json", "assumptions.json", "performance.json",
                           "prices.json", "data"}) {
    const std::string f = file;
    if (p == f || p.rfind(f + "/", 0) == 0) return true;
  }
  return false;
}

std::string check_numbers(const json& j, const std::string& key, const std::string& path) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string e = check_numbers(*it, it.key(), path + "/" + it.key());
      if (!e.empty()) return e;
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      std::string e = check_numbers(j[i], key, path + "/" + std::to_string(i));
      if (!e.empty()) return e;
    }
  } else if (j.is_string() && kSentences.count(key) != 0) {
    // A non-finite figure printed into a sentence ("inf s of inf s") is as wrong as in a number.
    const std::string& text = j.get_ref<const std::string&>();
    for (const char* word : {"inf", "nan", "-nan"}) {
      for (std::size_t at = text.find(word); at != std::string::npos;
           at = text.find(word, at + 1)) {
        const std::size_t end = at + std::strlen(word);
        const bool start_ok = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
        const bool end_ok =
            end == text.size() || !std::isalnum(static_cast<unsigned char>(text[end]));
        if (start_ok && end_ok) return path + " prints a non-finite figure: " + text.substr(0, 200);
      }
    }
  } else if (j.is_number()) {
    const double v = j.get<double>();
    const bool difference = key.find("difference") != std::string::npos;
    if (v < 0 && kSigned.count(key) == 0 && !difference) return path + " is negative: " + j.dump();
    // Memory sizes are whole bytes (traffic per step, e.g. decode_breakdown, need not be).
    const bool bytes = key.size() > 6 && key.compare(key.size() - 6, 6, "_bytes") == 0;
    const bool memory = path.rfind("/memory/", 0) == 0 || kMemorySizes.count(key) != 0;
    if (bytes && memory && !j.is_number_integer()) return path + " is not a whole number of bytes";
  }
  return {};
}

}  // namespace

std::string check_answer(const std::string& answer, Api api) {
  json j;
  try {
    j = json::parse(answer);
  } catch (const json::exception& e) {
    return std::string("the answer is not JSON: ") + e.what();
  }
  if (!j.is_object()) return "the answer is not an object";
  if (j.contains("error")) {
    if (j.size() != 1) return "an error envelope with other members";
    const json& e = j["error"];
    if (!e.is_object() || e.size() != 3 || !e.contains("code") || !e.contains("message") ||
        !e.contains("path"))
      return "the error is not {code, message, path}";
    if (!e["code"].is_string() || !e["message"].is_string() || !e["path"].is_string())
      return "the error's members are not strings";
    const std::string code = e["code"], message = e["message"], path = e["path"];
    if (code == "internal_error") return "internal_error: " + message;
    const bool snake =
        !code.empty() && code.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos;
    if (api == Api::kAdvise ? kCodes.count(code) == 0 : !snake)
      return "undocumented error code " + code + ": " + message;
    if (message.empty()) return "an empty error message";
    if (!path.empty() && path[0] != '/' && !catalog_path(path))
      return "the error path is not a JSON pointer: " + path;
    return {};
  }
  if (api == Api::kValidation) return {};
  if (api == Api::kProvider && !j.contains("schema")) return {};  // provider_text's summary
  if (!j.contains("schema") || j["schema"] != 1) return "a result without schema 1";
  return check_numbers(j, "", "");
}

void require_valid_answer(const std::string& answer, const std::string& input, const char* target,
                          Api api) {
  const std::string problem = check_answer(answer, api);
  if (problem.empty()) return;
  std::fprintf(stderr, "\n%s: %s\ninput (%zu bytes): %.2000s\nanswer: %.2000s\n", target,
               problem.c_str(), input.size(), input.c_str(), answer.c_str());
  std::abort();
}

}  // namespace fuzz
