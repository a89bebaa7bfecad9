// SPDX-License-Identifier: MIT
// Numbers as text for messages and assumption lines (one formatting rule for the whole core).
#pragma once
#include <string>

namespace advisor {

/// Shortest form that round-trips what the user typed ("%.10g").
std::string format_number(double value);

/// "12.34 GiB".
std::string format_gib(double bytes);

/// printf-style formatting of one number, e.g. fmt("%.3g", x).
std::string format_with(const char* format, double value);

}  // namespace advisor
