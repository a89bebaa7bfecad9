// SPDX-License-Identifier: MIT
#include "io/json_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "io/json_scalars.hpp"
#include "types/errors.hpp"

namespace advisor {

namespace {
// Integers a double holds exactly: beyond this a figure would silently lose digits.
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53
// What a member name adds around itself: a comma, two quotes and a colon.
constexpr std::size_t kKeyFrame = 4;

/// json_plain_byte() of every byte. The writer skips runs of plain bytes with one table lookup
/// per byte (most of a result's text), and looks closer only at control bytes and UTF-8.
struct PlainBytes {
  bool plain[256] = {};
  constexpr PlainBytes() {
    for (int c = 0; c < 256; ++c) plain[c] = json_plain_byte(static_cast<char>(c));
  }
};
constexpr PlainBytes kPlain;

/// `s` in quotes at `at` (room for s.size() + 2 bytes); the end of what was written.
char* quoted_at(char* at, std::string_view s) {
  *at++ = '"';
  std::memcpy(at, s.data(), s.size());
  at += s.size();
  *at++ = '"';
  return at;
}

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
  // One reservation for the separator, the quoted name and the colon: most of a result's
  // pieces are names (~3,500 per advise()), and piece by piece they cost twice as much.
  const std::string_view n = name.view();
  char* at = room(n.size() + kKeyFrame);
  bool& has_member = has_member_[depth_ - 1];
  if (has_member) *at++ = ',';
  has_member = true;
  keys_[depth_ - 1] = n;
  at = quoted_at(at, n);
  *at++ = ':';
  commit(at);
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
  // Shortest round-trip digits in the library's layout (io/json_scalars.hpp).
  put(json_number_text(v));
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
  // Printable ASCII without quotes or backslashes, most of a result's strings, is copied as it
  // is (one table lookup per byte); anything else goes to the library (io/json_scalars.hpp:
  // invalid UTF-8 as U+FFFD, every character beyond ASCII as \uXXXX): the text is ASCII, so the
  // page's TextDecoder and JSON.parse take their one-byte paths. A default request's answer, 105 KB
  // with ~250 characters beyond ASCII, decoded in 16 against 252 us in Chromium (bench/RESULTS.md,
  // 2026-12-05 evening).
  if (std::all_of(s.begin(), s.end(),
                  [](char c) { return kPlain.plain[static_cast<unsigned char>(c)]; })) {
    if (s.size() + 2 <= kBlockBytes) {
      commit(quoted_at(room(s.size() + 2), s));  // in one piece, like key()
    } else {
      put('"');
      put(s);
      put('"');
    }
    return;
  }
  put(json_string_text(s));
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
