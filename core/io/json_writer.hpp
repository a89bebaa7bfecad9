// SPDX-License-Identifier: MIT
// A streaming JSON writer: the result is written straight to text, with no document in between
// (no per-value allocation). Numbers and any string that needs escaping are printed by
// nlohmann/json's serializer (io/json_scalars.hpp): every figure reads back to the same double,
// and every character beyond ASCII is written as \uXXXX, so the whole text is ASCII.
// Non-finite numbers and integers beyond 2^53 are refused (an internal_error problem, the value
// written as null): the result promises finite, exact numbers.
//
// The writer owns its text and gathers it in a fixed block before appending the block to it
// (take() hands the text over): a result is ~20,000 small pieces (names, brackets, numbers),
// and std::string::append per piece (a capacity check, then memcpy, then the terminator) was
// most of the writer's time in WebAssembly, where memcpy is a plain function, not a builtin.
#pragma once
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace advisor {

/// Bytes that JSON lets through a string as they are: printable ASCII but the quote and the
/// backslash.
constexpr bool json_plain_byte(char c) {
  constexpr char kFirstPrintable = 0x20;
  constexpr char kDelete = 0x7F;
  return c >= kFirstPrintable && c < kDelete && c != '"' && c != '\\';
}

/// A member name written as a literal, checked when the writer's callers are compiled: it needs
/// no escaping, so it is copied as is (most of a result's ~3,500 names per advise(); the check
/// cost as much as the copy). Not a literal, or one that needs escaping: a compile error.
/// Not constexpr and never defined: a call in LiteralKey's consteval constructor fails the build.
void literal_member_name_needs_escaping();

class LiteralKey {
 public:
  /// Far under the writer's block (JsonWriter::key reserves the name's room in one piece).
  static constexpr std::size_t kMaxLiteralKeyBytes = 256;
  template <std::size_t N>
  consteval LiteralKey(const char (&name)[N]) : name_(name, N - 1) {  // NOLINT: implicit
    static_assert(N < kMaxLiteralKeyBytes, "a member name this long is not a literal name");
    for (const char c : name_)
      if (!json_plain_byte(c)) literal_member_name_needs_escaping();  // fails the build
  }
  std::string_view view() const { return name_; }

 private:
  std::string_view name_;
};

/// Any other name (computed, or a pointer): escaped as needed.
template <typename Name>
concept RuntimeKey = std::convertible_to<const Name&, std::string_view> && !std::is_array_v<Name>;

class JsonWriter {
 public:
  /// `expected_bytes`: room reserved for the whole text (one allocation when it is enough).
  explicit JsonWriter(std::size_t expected_bytes = 0) { text_.reserve(expected_bytes); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  /// The text written (the writer is left empty).
  std::string take() {
    flush();
    return std::move(text_);
  }

  // The members marked noinline are written at hundreds of call sites (~700 names): with LTO
  // the wasm build inlined a copy into each, 74 KB for key() alone and 30 KB more for the
  // values and brackets, at the same speed in Chromium (bench/RESULTS.md, 2026-12-05 night).
  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  /// The next member's name (inside an object). `name` must outlive the next value (a literal).
  [[gnu::noinline]] void key(LiteralKey name);
  template <RuntimeKey Name>
  void key(const Name& name) {
    escaped_key(name);
  }

  [[gnu::noinline]] void null();
  [[gnu::noinline]] void value(bool v);
  void value(int v) { integer(v); }
  void value(std::int64_t v) { integer(v); }
  void value(std::size_t v) { integer(static_cast<std::int64_t>(v)); }
  [[gnu::noinline]] void value(double v);
  [[gnu::noinline]] void value(std::string_view v);
  void value(const std::string& v) { value(std::string_view(v)); }
  void value(const char* v) { value(std::string_view(v)); }
  /// Already-serialised JSON text, inserted as one value.
  void raw(std::string_view json);
  /// A whole number of bytes (rounded); refused beyond 2^53 (not exact in a double).
  [[gnu::noinline]] void bytes(double v);
  template <typename T>
  void value(const std::optional<T>& v) {
    if (v)
      value(*v);
    else
      null();
  }

  template <typename T>
  void field(LiteralKey name, const T& v) {
    key(name);
    value(v);
  }
  template <RuntimeKey Name, typename T>
  void field(const Name& name, const T& v) {
    key(name);
    value(v);
  }
  void null_field(LiteralKey name) {
    key(name);
    null();
  }
  template <RuntimeKey Name>
  void null_field(const Name& name) {
    key(name);
    null();
  }

 private:
  static constexpr int kMaxDepth = 32;  // the result is far shallower
  [[gnu::noinline]] void open(char bracket);
  [[gnu::noinline]] void close(char bracket);
  void before_value();
  void escaped_key(std::string_view name);
  [[gnu::noinline]] void integer(std::int64_t v);
  void string(std::string_view s);      // quoted and escaped, no separator
  void refuse(const char* what) const;  // reports internal_error at the path written

  void put(char c) {
    if (used_ == kBlockBytes) flush();
    block_[used_++] = c;
  }
  void put(std::string_view s) {
    if (s.size() > kBlockBytes - used_) {
      flush();
      if (s.size() > kBlockBytes) {
        text_.append(s);
        return;
      }
    }
    // Pieces are mostly a few bytes: a plain loop, with none of append()'s growth path.
    char* to = block_.data() + used_;
    for (const char c : s) *to++ = c;
    used_ += s.size();
  }
  /// Where the next `n` bytes may be written in place (flushing first when fewer are left);
  /// commit() then takes what was written up to its end.
  char* room(std::size_t n) {
    if (n > kBlockBytes - used_) flush();
    return block_.data() + used_;
  }
  void commit(const char* end) { used_ = static_cast<std::size_t>(end - block_.data()); }
  void flush() {
    text_.append(block_.data(), used_);
    used_ = 0;
  }

  // A page of memory: ~25 appends of the block per 100 KB result, each a bulk copy.
  static constexpr std::size_t kBlockBytes = 4096;
  std::string text_;
  std::array<char, kBlockBytes> block_;
  std::size_t used_ = 0;
  int depth_ = 0;
  int levels_past_max_ = 0;  // brackets opened beyond kMaxDepth (after refusing them)
  std::array<bool, kMaxDepth> has_member_{};        // per level: a comma goes before the next
  std::array<std::string_view, kMaxDepth> keys_{};  // the path, for error messages
  bool after_key_ = false;
};

}  // namespace advisor
