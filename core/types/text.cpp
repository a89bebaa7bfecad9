// SPDX-License-Identifier: MIT
#include "types/text.hpp"

#include <cstdio>

#include "types/limits.hpp"
#include "types/units.hpp"

namespace advisor {

std::string format_number(double value) { return format_with("%.10g", value); }

std::string format_gib(double bytes) { return format_with("%.2f GiB", bytes / kBytesPerGib); }

std::string trimmed_decimal(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string s = buffer;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

std::string format_with(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

namespace {
/// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8_length(const std::string& text, std::size_t i) {
  auto byte = [&](std::size_t k) {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
  };
  auto in = [](unsigned b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  const unsigned c = byte(0);
  if (c < 0x80) return 1;
  if (in(c, 0xC2, 0xDF)) return in(byte(1), 0x80, 0xBF) ? 2 : 0;
  if (in(c, 0xE0, 0xEF)) {
    const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) ? 3 : 0;
  }
  if (in(c, 0xF0, 0xF4)) {
    const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) && in(byte(3), 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}
}  // namespace

std::string in_quotes(const std::string& text) {
  std::string out = "\"";
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (chars++ == limits::kMaxEchoedChars) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_length(text, i);
    char buffer[8];
    if (n == 0) {  // not UTF-8 (a file name from the command line): shown as a byte
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      out += buffer;
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7F) {
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else {
      out.append(text, i, n);
    }
    i += n;
  }
  return out + "\"";
}

namespace {
/// Whether the code point that the UTF-8 sequence at text[i] (length n) encodes is one that
/// must not reach a one-line text: C1 controls (U+0080-009F, NEL among them), U+2028/2029, the
/// bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069) and U+FEFF.
bool breaks_a_line(const std::string& text, std::size_t i, std::size_t n) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  if (n == 2) return b(0) == 0xC2 && b(1) < 0xA0;
  if (n != 3) return false;
  if (b(0) == 0xE2 && b(1) == 0x80) return b(2) >= 0xA8 && b(2) <= 0xAE;
  if (b(0) == 0xE2 && b(1) == 0x81) return b(2) >= 0xA6 && b(2) <= 0xA9;
  return b(0) == 0xEF && b(1) == 0xBB && b(2) == 0xBF;
}
}  // namespace

std::string one_line(const std::string& text, std::size_t max_chars) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++chars) {
    if (chars == max_chars) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    } else if (c < 0x20 || c == 0x7F || breaks_a_line(text, i, n)) {
      out += ' ';
      i += n;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

std::string valid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

std::string pointer_token(const std::string& key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

}  // namespace advisor
