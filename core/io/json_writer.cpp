// SPDX-License-Identifier: MIT
#include "io/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "io/json_number.hpp"
#include "io/json_value.hpp"

namespace advisor {

namespace {
// Integers a double holds exactly: beyond this a figure would silently lose digits.
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53
constexpr char kHex[] = "0123456789abcdef";

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
    if (has_member_[depth_ - 1]) out_ += ',';
    has_member_[depth_ - 1] = true;
  }
}

void JsonWriter::open(char bracket) {
  before_value();
  if (depth_ >= kMaxDepth) refuse("nesting deeper than the writer allows");
  out_ += bracket;
  has_member_[depth_] = false;
  keys_[depth_] = {};
  ++depth_;
}

void JsonWriter::close(char bracket) {
  --depth_;
  out_ += bracket;
}

void JsonWriter::key(LiteralKey name) {
  before_value();
  keys_[depth_ - 1] = name.view();
  out_ += '"';
  out_.append(name.view());
  out_.append("\":");
  after_key_ = true;
}

void JsonWriter::escaped_key(std::string_view name) {
  before_value();
  keys_[depth_ - 1] = name;
  string(name);
  out_ += ':';
  after_key_ = true;
}

void JsonWriter::null() {
  before_value();
  out_ += "null";
}

void JsonWriter::value(bool v) {
  before_value();
  out_ += v ? "true" : "false";
}

void JsonWriter::integer(std::int64_t v) {
  before_value();
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  out_.append(buffer, static_cast<std::size_t>(end - buffer));
}

void JsonWriter::value(double v) {
  if (!std::isfinite(v)) refuse("non-finite value");
  before_value();
  char buffer[64];
  // Shortest round-trip digits (Grisu2) in the layout the result always had.
  const char* end = format_double(buffer, v);
  out_.append(buffer, static_cast<std::size_t>(end - buffer));
}

void JsonWriter::raw(std::string_view json) {
  before_value();
  out_.append(json);
}

void JsonWriter::bytes(double v) {
  if (!std::isfinite(v) || std::fabs(v) > kMaxExactInteger) refuse("byte count out of range");
  integer(static_cast<std::int64_t>(std::llround(v)));
}

void JsonWriter::value(std::string_view s) {
  before_value();
  string(s);
}

void JsonWriter::string(std::string_view s) {
  out_ += '"';
  std::size_t run = 0;  // start of the pending run of characters that need no escaping
  const std::size_t size = s.size();
  for (std::size_t i = 0; i < size;) {
    while (i < size && kPlain.plain[static_cast<unsigned char>(s[i])]) ++i;
    if (i == size) break;
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    if (c >= 0x80 && (n = utf8_sequence(s, i)) > 0) {
      i += n;  // valid UTF-8 stays in the run
      continue;
    }
    out_.append(s.data() + run, i - run);
    if (c == '"' || c == '\\') {
      out_ += '\\';
      out_ += static_cast<char>(c);
    } else if (c == '\n') {
      out_ += "\\n";
    } else if (c == '\t') {
      out_ += "\\t";
    } else if (c == '\r') {
      out_ += "\\r";
    } else if (c < 0x80) {
      out_ += "\\u00";
      out_ += kHex[c >> 4];
      out_ += kHex[c & 0xF];
    } else {
      out_ += "\\ufffd";  // not UTF-8: the replacement character, never invalid JSON
    }
    run = ++i;
  }
  out_.append(s.data() + run, s.size() - run);
  out_ += '"';
}

void JsonWriter::refuse(const char* what) const {
  std::string path;
  for (int d = 0; d < depth_; ++d) {
    path += '/';
    path += keys_[d].empty() ? std::string_view("-") : keys_[d];
  }
  throw std::runtime_error(std::string("internal error: ") + what + " at " + path);
}

}  // namespace advisor
