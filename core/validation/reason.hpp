// SPDX-License-Identifier: MIT
// A reason a person can act on: a stable code, its parameters, and an English fallback sentence.
// Surfaces translate by code and fill in the parameters; the sentence is for logs and the CLI.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace advisor::validation {

struct Reason {
  std::string code;                                         // e.g. "nvlink_inactive"
  std::vector<std::pair<std::string, std::string>> params;  // e.g. {{"gpu","3"},{"link","11"}}
  std::string message;                                      // "link 11 inactive on GPU 3"

  /// The value of parameter `key`, or "" when absent.
  const std::string& param(const std::string& key) const {
    static const std::string none;
    for (const auto& p : params)
      if (p.first == key) return p.second;
    return none;
  }
};

}  // namespace advisor::validation
