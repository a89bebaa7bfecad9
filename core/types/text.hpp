// SPDX-License-Identifier: MIT
// Numbers as text for messages and assumption lines (one formatting rule for the whole core).
#pragma once
#include <string>

namespace advisor {

/// Shortest form that round-trips what the user typed ("%.10g").
std::string format_number(double value);

/// "12.34 GiB".
std::string format_gib(double bytes);

/// `value` with at most `decimals` decimals and no trailing zeros: 26.562, 700, 0.8 ("-0" is 0).
std::string trimmed_decimal(double value, int decimals);

/// printf-style formatting of one number, e.g. fmt("%.3g", x).
std::string format_with(const char* format, double value);

/// A user's text as it is echoed in a message: in double quotes, control characters escaped
/// as \u00XX (a NUL no longer cuts the message), at most limits::kMaxEchoedChars characters
/// (the rest elided with "..."; a UTF-8 sequence is never split).
std::string in_quotes(const std::string& text);

/// `text` as one line of at most `max_chars` characters, for a comment in a generated script
/// or a single-line label: every control character (C0, DEL, C1), line or paragraph separator
/// and bidirectional override (which could make a reader see other code than runs) becomes a
/// space, bytes that are not UTF-8 become U+FFFD, and a longer text is cut at a character
/// boundary with "...". The result can never end a comment, in bash or in Python.
std::string one_line(const std::string& text, std::size_t max_chars);

/// `text` with every byte that does not belong to well-formed UTF-8 replaced by U+FFFD, so that
/// it can be written as a JSON string.
std::string valid_utf8(const std::string& text);

/// One JSON Pointer reference token (RFC 6901): "~" as "~0", "/" as "~1".
std::string pointer_token(const std::string& key);

}  // namespace advisor
