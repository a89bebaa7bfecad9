// SPDX-License-Identifier: MIT
// The core reports bad input as a value (core/types/errors.hpp); the tests read a direct call's
// problem the way Catch reads errors, as an exception thrown here, in code built with them.
#pragma once
#include <optional>
#include <type_traits>

#include "types/errors.hpp"

namespace test {

/// `step()`'s value; throws the first problem it reported, as an advisor::InputError.
template <typename Step>
auto throwing(Step&& step) {
  std::optional<advisor::InputError> problem;
  if constexpr (std::is_void_v<decltype(step())>) {
    advisor::in_own_scope(step, problem);
    if (problem) throw *problem;
  } else {
    auto value = advisor::in_own_scope(step, problem);
    if (problem) throw *problem;
    return value;
  }
}

}  // namespace test
