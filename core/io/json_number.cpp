// SPDX-License-Identifier: MIT
// Shortest round-trip formatting of a double in nlohmann::json's layout, by the library's own
// to_chars (Grisu2 digits; fixed notation for decimal exponents in (-4, 15], "1.0" for whole
// numbers, "1e+22" beyond), included from its header unmodified. A shortcut of our own for whole
// numbers was ~1.7% of advise() in wasm (bench/RESULTS.md, 2026-12-05 late): not worth a copy.
#include "io/json_number.hpp"

#include <cstddef>
#include <nlohmann/detail/conversions/to_chars.hpp>
#include <nlohmann/detail/macro_unscope.hpp>

namespace advisor {

char* format_double(char* first, double value) {
  constexpr std::size_t kRoom = 32;  // format_double's contract: the caller's buffer holds this
  return nlohmann::detail::to_chars(first, first + kRoom, value);
}

}  // namespace advisor
