// SPDX-License-Identifier: MIT
#pragma once
#include <stdexcept>
#include <string>

namespace advisor {

/// A problem with what the user (or a catalog file) supplied. `path` is a JSON pointer to the
/// offending field ("/training/sequence_length", "gpus.json/gpus/3/tdp_watts") so every surface
/// (CLI, wasm, page) can say *where* the problem is, not just what it is.
class InputError : public std::runtime_error {
 public:
  InputError(std::string code, std::string path, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)), path_(std::move(path)) {}
  const std::string& code() const { return code_; }
  const std::string& path() const { return path_; }

 private:
  std::string code_;
  std::string path_;
};

// Checks throw at the call site, after the test (`if (!ok) throw InputError(...)`): a message
// built before the test, as a require(ok, ..., message) helper would, costs every valid field
// its formatting and allocations (most of parsing a request, before this was changed).

}  // namespace advisor
