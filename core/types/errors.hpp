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

/// ADVISOR_REQUIRE(ok, code, path, message): throws InputError(code, path, message) unless
/// `ok`. A macro, not a function, on purpose: the path and the message are built only when the
/// check fails; a function's arguments would cost every valid field their formatting and
/// allocations (most of parsing a request, when a require() function did it).
#define ADVISOR_REQUIRE(ok, code, path, message)                       \
  do {                                                                 \
    if (!(ok)) throw ::advisor::InputError((code), (path), (message)); \
  } while (false)

}  // namespace advisor
