// SPDX-License-Identifier: MIT
#include "types/errors.hpp"

#include <cstdio>
#include <cstdlib>

namespace advisor {

namespace {
thread_local ProblemScope* innermost = nullptr;
}  // namespace

ProblemScope::ProblemScope() : outer_(innermost) { innermost = this; }
ProblemScope::~ProblemScope() { innermost = outer_; }

std::optional<InputError> ProblemScope::take() {
  std::optional<InputError> out = std::move(problem_);
  problem_.reset();
  return out;
}

void record_problem(InputError problem) {
  if (innermost == nullptr) {
    std::fprintf(stderr, "gpu-advisor: a problem reported with no step to answer it: %s (%s)\n",
                 problem.what(), problem.path().c_str());
    std::abort();
  }
  if (!innermost->problem_) innermost->problem_.emplace(std::move(problem));
}

Failed report_problem(std::string code, std::string path, const std::string& message) {
  record_problem(InputError(std::move(code), std::move(path), message));
  return {};
}

void broken_invariant(const std::string& what) {
  std::fprintf(stderr, "gpu-advisor: internal error: %s\n", what.c_str());
  std::abort();
}

bool problem_reported() { return innermost != nullptr && innermost->problem_.has_value(); }

}  // namespace advisor
