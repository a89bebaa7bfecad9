// SPDX-License-Identifier: MIT
// Shortest round-trip formatting of a double in nlohmann::json's layout: its own to_chars
// (Grisu2 digits; fixed notation for decimal exponents in (-4, 15], "1.0" for whole numbers,
// "1e+22" beyond), included from the library's header unmodified.
#include "io/json_number.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/detail/conversions/to_chars.hpp>
#include <nlohmann/detail/macro_unscope.hpp>

namespace advisor {

namespace {

// Whole numbers below 10^15 print as their integer and ".0": the text nlohmann's to_chars gives
// them (n <= 15 digits: fixed notation), ~10x cheaper than its digit generation.
constexpr double kMaxFastWhole = 1e15;
constexpr std::size_t kRoom = 32;  // format_double's contract: the caller's buffer holds this

}  // namespace

char* format_double(char* first, double value) {
  const double magnitude = std::fabs(value);
  if (magnitude != 0 && magnitude < kMaxFastWhole &&
      static_cast<double>(static_cast<std::int64_t>(value)) == value) {
    first = std::to_chars(first, first + kRoom, static_cast<std::int64_t>(value)).ptr;
    *first++ = '.';
    *first++ = '0';
    return first;
  }
  return nlohmann::detail::to_chars(first, first + kRoom, value);
}

}  // namespace advisor
