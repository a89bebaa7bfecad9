// SPDX-License-Identifier: MIT
// Errors as values. The core is built without C++ exceptions (-fno-exceptions natively, no
// -fwasm-exceptions in wasm): unwinding cost the module 15% of its size and advise() 3-9% of
// its speed (bench/RESULTS.md, 2026-12-05 late). Code that finds a problem reports it and returns
// a harmless value; its callers run on to the end of the step, whose owner asks the scope.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace advisor {

/// A problem with what the user (or a catalog file) supplied. `path` is a JSON pointer to the
/// offending field ("/training/sequence_length", "gpus.json/gpus/3/tdp_watts") so every surface
/// (CLI, wasm, page) can say *where* the problem is, not just what it is. The core never throws
/// it (see ProblemScope); code built with exceptions (the tests, the CLI's own checks) may.
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

/// The first problem found by one step (reading a request, a catalog, a provider document;
/// answering a request). While a scope is open, every problem reported on this thread lands in
/// the innermost one; only the first is kept, the one an exception would have carried. A report
/// with no scope open is a bug: the core stops (std::abort) rather than lose it.
class ProblemScope {
 public:
  ProblemScope();
  ~ProblemScope();
  ProblemScope(const ProblemScope&) = delete;
  ProblemScope& operator=(const ProblemScope&) = delete;

  bool failed() const { return problem_.has_value(); }
  const InputError& problem() const { return *problem_; }
  /// The problem, leaving the scope without one (a caller that answers it another way).
  std::optional<InputError> take();

 private:
  friend void record_problem(InputError problem);
  friend bool problem_reported();
  std::optional<InputError> problem_;
  ProblemScope* outer_;
};

/// What `return report_problem(...)` gives the caller: the value-initialised result of the
/// return type (0, "", nullptr, an empty struct). Not for a function that returns an optional:
/// std::optional<T> is built from it as an engaged T{}; write `return std::nullopt` there.
/// Callers never act on it: they reach the end of their step, or ask problem_reported() first
/// where going on would do real work.
struct Failed {
  template <typename T>
  operator T() const {  // NOLINT: implicit on purpose
    return T{};
  }
};

/// Records `problem` in the innermost open scope unless it already holds one.
void record_problem(InputError problem);

/// record_problem(InputError(code, path, message)), for `return report_problem(...);`.
Failed report_problem(std::string code, std::string path, const std::string& message);

/// Whether the innermost open scope holds a problem: a step asks before doing work with what it
/// has read (a search over a request that did not parse).
bool problem_reported();

/// Runs `step` in a scope of its own: returns its value, and its first problem in `problem`
/// (nullopt when none), reported no further (the caller reports it, reworded, or answers it).
template <typename Step>
auto in_own_scope(Step&& step, std::optional<InputError>& problem) {
  ProblemScope scope;
  if constexpr (std::is_void_v<decltype(step())>) {
    step();
    problem = scope.take();
  } else {
    auto value = step();
    problem = scope.take();
    return value;
  }
}

/// A broken promise of the code itself (a script body it does not hold, a third place to own
/// cards): no input reaches it, so it is no problem to report; the core stops with `what`.
[[noreturn]] void broken_invariant(const std::string& what);

/// `read()` of a data file built into the module (`file` names it): the tests read those files,
/// so a problem in one is a broken build, not input, and a static must not keep what a failed
/// read left.
template <typename Read>
auto read_builtin(const char* file, Read&& read) {
  std::optional<InputError> problem;
  auto value = in_own_scope(read, problem);
  if (problem)
    broken_invariant(std::string("the built-in ") + file + " does not read: " + problem->what() +
                     " (" + problem->path() + ")");
  return value;
}

/// ADVISOR_REQUIRE(ok, code, path, message): unless `ok`, reports InputError(code, path,
/// message) and returns a value-initialised result (`return {}`: nullopt for an optional) from
/// the enclosing function. A macro, not a function, on purpose: the path and the message are
/// built only when the check fails; a function's arguments would cost every valid field their
/// formatting and allocations (most of parsing a request, when a require() function did it).
#define ADVISOR_REQUIRE(ok, code, path, message)            \
  do {                                                      \
    if (!(ok)) {                                            \
      ::advisor::report_problem((code), (path), (message)); \
      return {};                                            \
    }                                                       \
  } while (false)

/// ADVISOR_REQUIRE for a function that returns nothing.
#define ADVISOR_REQUIRE_OR_RETURN(ok, code, path, message)  \
  do {                                                      \
    if (!(ok)) {                                            \
      ::advisor::report_problem((code), (path), (message)); \
      return;                                               \
    }                                                       \
  } while (false)

}  // namespace advisor
