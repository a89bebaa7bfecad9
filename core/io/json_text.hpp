// SPDX-License-Identifier: MIT
// JSON text to a document, strictly and with bounded work (io/json_text.cpp).
#pragma once
#include <cstddef>
#include <string>

#include "io/json_value.hpp"
#include "types/limits.hpp"

namespace advisor {

/// Parses JSON text strictly : malformed text is an InputError at `path` with
/// the parser's position; text over `max_bytes`, nesting beyond limits::kMaxNestingDepth, a NUL
/// byte, a duplicate key, a number beyond a double and an array over limits::kMaxArrayLength
/// are located errors that name the limit or the place. After a reported problem: null.
JsonValue parse_json_text(const std::string& text, const std::string& path,
                          std::size_t max_bytes = limits::kMaxRequestBytes);

}  // namespace advisor
