// SPDX-License-Identifier: MIT
#include "io/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/json_number.hpp"
#include "io/json_value.hpp"
#include "types/errors.hpp"

namespace advisor {

namespace {
// Integers a double holds exactly: beyond this a figure would silently lose digits.
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

/// json_plain_byte() of every byte. The writer skips runs of plain bytes with one table lookup
/// per byte (most of a result's text), and looks closer only at control bytes and UTF-8.
struct PlainBytes {
  bool plain[256] = {};
  constexpr PlainBytes() {
    for (int c = 0; c < 256; ++c) plain[c] = json_plain_byte(static_cast<char>(c));
  }
};
constexpr PlainBytes kPlain;

}  // namespace

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (depth_ > 0) {
    if (has_member_[depth_ - 1]) put(',');
    has_member_[depth_ - 1] = true;
  }
}

void JsonWriter::open(char bracket) {
  before_value();
  put(bracket);
  if (depth_ >= kMaxDepth) {
    refuse("nesting deeper than the writer allows");
    ++levels_past_max_;
    return;
  }
  has_member_[depth_] = false;
  keys_[depth_] = {};
  ++depth_;
}

void JsonWriter::close(char bracket) {
  put(bracket);
  if (levels_past_max_ > 0) {
    --levels_past_max_;
    return;
  }
  --depth_;
}

void JsonWriter::key(LiteralKey name) {
  before_value();
  keys_[depth_ - 1] = name.view();
  put('"');
  put(name.view());
  put("\":");
  after_key_ = true;
}

void JsonWriter::escaped_key(std::string_view name) {
  before_value();
  keys_[depth_ - 1] = name;
  string(name);
  put(':');
  after_key_ = true;
}

void JsonWriter::null() {
  before_value();
  put("null");
}

void JsonWriter::value(bool v) {
  before_value();
  put(v ? "true" : "false");
}

void JsonWriter::integer(std::int64_t v) {
  before_value();
  constexpr std::size_t kDigits = 24;  // -2^63 is 20 characters
  char* at = room(kDigits);
  commit(std::to_chars(at, at + kDigits, v).ptr);
}

void JsonWriter::value(double v) {
  if (!std::isfinite(v)) {
    refuse("non-finite value");
    null();
    return;
  }
  before_value();
  // Shortest round-trip digits (Grisu2) in the layout the result always had, written in place.
  constexpr std::size_t kDoubleRoom = 32;  // what format_double() asks for
  commit(format_double(room(kDoubleRoom), v));
}

void JsonWriter::raw(std::string_view json) {
  before_value();
  put(json);
}

void JsonWriter::bytes(double v) {
  if (!std::isfinite(v) || std::fabs(v) > kMaxExactInteger) {
    refuse("byte count out of range");
    null();
    return;
  }
  integer(static_cast<std::int64_t>(std::llround(v)));
}

void JsonWriter::value(std::string_view s) {
  before_value();
  string(s);
}

void JsonWriter::string(std::string_view s) {
  // Most strings are printable ASCII and valid UTF-8, copied as they are (one table lookup per
  // byte); the rest nlohmann/json escapes, invalid UTF-8 as U+FFFD, never invalid JSON.
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (kPlain.plain[c]) {
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_sequence(s, i) : 0; n > 0) {
      i += n;
    } else {
      break;
    }
  }
  if (i == s.size()) {
    put('"');
    put(s);
    put('"');
    return;
  }
  flush();
  nlohmann::detail::serializer<nlohmann::json> library(
      nlohmann::detail::output_adapter<char>(text_), ' ', nlohmann::json::error_handler_t::replace);
  library.dump(nlohmann::json(std::string(s)), false, false, 0);
}

void JsonWriter::refuse(const char* what) const {
  std::string path;
  for (int d = 0; d < depth_; ++d) {
    path += '/';
    path += keys_[d].empty() ? std::string_view("-") : keys_[d];
  }
  report_problem("internal_error", "", std::string("internal error: ") + what + " at " + path);
}

}  // namespace advisor
