// SPDX-License-Identifier: MIT
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "api.hpp"
#include "engine/memory.hpp"
#include "io/catalog_json.hpp"
#include "io/form_json.hpp"
#include "io/json_reader.hpp"
#include "io/model_json.hpp"
#include "io/request_json.hpp"
#include "throwing.hpp"
#include "types/catalog.hpp"
#include "types/request.hpp"

namespace test {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Every golden request (tests/golden/*.request.json), sorted by name.
inline std::vector<std::filesystem::path> golden_requests() {
  std::vector<std::filesystem::path> out;
  const std::string suffix = ".request.json";
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(GPU_ADVISOR_TEST_DIR) + "/golden")) {
    const std::string name = e.path().filename().string();
    if (name.size() > suffix.size() && name.ends_with(suffix)) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
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

/// A test's nlohmann document as the core's own JSON value (the core does not use nlohmann).
inline advisor::JsonValue value_of(const nlohmann::json& j) {
  return advisor::parse_json_text(j.dump(), "", std::size_t{1} << 30);
}

/// A core JSON value (a form schema, a default request) as nlohmann, to inspect.
inline nlohmann::json to_nlohmann(const advisor::JsonValue& j) {
  return nlohmann::json::parse(j.dump());
}

inline advisor::Request parse(const nlohmann::json& j) {
  return advisor::parse_request(value_of(j), advisor::builtin_catalog());
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

/// The result of a request that must be answered (the test stops at an error, showing it).
inline nlohmann::json advise_json(const nlohmann::json& request) {
  bool ok = false;
  nlohmann::json out = nlohmann::json::parse(advisor::advise_text(request.dump(), &ok));
  INFO(out.dump().substr(0, 400));
  REQUIRE(ok);
  return out;
}

}  // namespace test
