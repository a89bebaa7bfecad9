// SPDX-License-Identifier: MIT
// Checked arithmetic at the boundary between real-valued models and integer results: every
// float-to-integer conversion and every figure that a tiny or huge input could push past what a
// double or an int holds goes through these, so a hostile input is a located InputError naming
// the input that caused it, never undefined behaviour, a wrapped integer or an infinity. A
// failed check reports the problem (types/errors.hpp) and returns a value within its limits.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor {

/// `value` if finite; else out_of_range at `path` ("<what> is not a finite number ...").
// Paths and names are views: the checks run in the hot loops of the search, and a literal
// passed as a std::string would be built (and often allocated) on every call, not just on error.
inline double checked_finite(double value, std::string_view path, std::string_view what) {
  if (std::isfinite(value)) return value;
  report_problem("out_of_range", std::string(path),
                 std::string(what) + " is beyond the range of numbers the advisor computes with (" +
                     format_number(value) + "); check " + std::string(path));
  return 0;  // finite, for the rest of the step
}

/// Whether `value` is finite and in [min, max] (so that a cast to Int is defined and exact).
template <typename Int>
bool in_integer_range(double value, Int min, Int max) {
  return std::isfinite(value) && value >= static_cast<double>(min) &&
         value <= static_cast<double>(max);
}

/// `value` (already rounded as the caller wants: std::ceil, std::floor, std::round) as an
/// integer in [min, max]; out_of_range at `path` otherwise, naming the limit. A non-finite value
/// is refused the same way (a cast of it would be undefined behaviour).
template <typename Int>
Int checked_integer(double value, Int min, Int max, std::string_view path, std::string_view what) {
  static_assert(std::is_integral_v<Int>);
  if (in_integer_range(value, min, max)) return static_cast<Int>(value);
  report_problem("out_of_range", std::string(path),
                 std::string(what) + " would be " + format_number(value) + ", outside the limit [" +
                     std::to_string(min) + ", " + std::to_string(max) + "]; check " +
                     std::string(path));
  // Within the limit, for the rest of the step; not 0 where the limit allows (callers divide
  // by counts).
  return min > 0 || max < 1 ? min : Int{1};
}

/// checked_integer into an int, with [0, INT_MAX] as the default range.
inline int checked_int(double value, std::string_view path, std::string_view what, int min = 0,
                       int max = std::numeric_limits<int>::max()) {
  return checked_integer<int>(value, min, max, path, what);
}

/// checked_int whose path is assembled by `path()` (a std::string) only for the error: for
/// paths built from parts in code that every GPU of every search runs.
template <typename PathFn>
int checked_int_at(double value, PathFn&& path, std::string_view what, int min = 0,
                   int max = std::numeric_limits<int>::max()) {
  if (in_integer_range(value, min, max)) return static_cast<int>(value);
  return checked_int(value, path(), what, min, max);
}

/// checked_integer into an int64, with [0, 2^53] as the default range (exact in a double).
inline std::int64_t checked_int64(double value, std::string_view path, std::string_view what,
                                  std::int64_t min = 0, std::int64_t max = std::int64_t{1} << 53) {
  return checked_integer<std::int64_t>(value, min, max, path, what);
}

}  // namespace advisor
