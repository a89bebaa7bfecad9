// SPDX-License-Identifier: MIT
#include "types/text.hpp"

#include <cstdio>

#include "types/units.hpp"

namespace advisor {

std::string format_number(double value) { return format_with("%.10g", value); }

std::string format_gib(double bytes) { return format_with("%.2f GiB", bytes / kBytesPerGib); }

std::string format_with(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace advisor
