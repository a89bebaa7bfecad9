// SPDX-License-Identifier: MIT
// Numbers and strings as every JSON text of the core prints them: by nlohmann::json's own
// serializer, not a formatter of ours. A double gets its shortest round-trip digits in the
// library's layout (it reads back to the same double); a string is quoted and escaped, every
// character beyond ASCII as \uXXXX (the whole text is ASCII) and a byte that is not UTF-8 as
// U+FFFD (never invalid JSON).
#pragma once

#include <string>
#include <string_view>

namespace advisor {

/// Finite `value` as the library prints a floating-point number ("1.0", "0.1", "1e+22"). The
/// view holds until the next call on this thread.
std::string_view json_number_text(double value);

/// `s` quoted and escaped as the library prints a string with ensure_ascii. The view holds until
/// the next call on this thread.
std::string_view json_string_text(std::string_view s);

}  // namespace advisor
