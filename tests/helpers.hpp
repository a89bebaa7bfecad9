// SPDX-License-Identifier: MIT
#pragma once
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "types/catalog.hpp"
#include "engine/memory.hpp"
#include "types/request.hpp"
#include "api.hpp"
#include "io/catalog_json.hpp"
#include "io/form_json.hpp"
#include "io/model_json.hpp"
#include "io/request_json.hpp"

namespace test {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string data_file(const char* name) {
  return read_file(std::string(GPU_ADVISOR_DATA_DIR) + "/" + name);
}

/// A request document: defaults for the task plus `patch` merged in.
inline nlohmann::json request(const std::string& task, const std::string& preset,
                              const nlohmann::json& patch = nlohmann::json::object()) {
  nlohmann::json j = {{"schema", 1}, {"task", task}, {"model", {{"preset", preset}}}};
  j.merge_patch(patch);
  return j;
}

inline advisor::Request parse(const nlohmann::json& j) {
  return advisor::parse_request(j, advisor::builtin_catalog());
}

inline advisor::Layout layout(int count, int zero, int tp = 1, int pp = 1) {
  advisor::Layout L;
  L.count = count;
  L.tp = tp;
  L.pp = pp;
  L.dp = count / (tp * pp);
  L.zero = zero;
  return L;
}

inline advisor::MemoryEstimate memory(const nlohmann::json& j, const advisor::Layout& L) {
  return advisor::estimate_memory(parse(j), L, advisor::builtin_catalog().memory, false);
}

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

}  // namespace test
