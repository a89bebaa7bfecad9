// SPDX-License-Identifier: MIT
// Numbers as the advisor's JSON texts print them (io/json_number.cpp): shortest round-trip digits
// in nlohmann::json's layout, so every figure reads back to the same double.
#pragma once

namespace advisor {

/// Writes finite `value` at `first` (at least 32 bytes of room); returns the end. Not terminated.
char* format_double(char* first, double value);

}  // namespace advisor
