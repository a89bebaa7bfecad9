// SPDX-License-Identifier: MIT
#include "io/json_scalars.hpp"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

namespace advisor {

namespace {

// One serializer and its buffers per thread: made per value, they cost advise() 18-27% more
// (bench/RESULTS.md, 2026-12-05 late). It prints one of its two values (kept apart, so that a
// string's buffer is reused) into `printed`, which the caller copies where it writes.
struct LibraryPrinter {
  std::string printed;
  nlohmann::json number = 0.0;
  nlohmann::json text = std::string();
  nlohmann::detail::serializer<nlohmann::json> serializer{
      nlohmann::detail::output_adapter<char>(printed), ' ',
      nlohmann::json::error_handler_t::replace};

  std::string_view print(const nlohmann::json& value) {
    printed.clear();
    serializer.dump(value, /*pretty_print=*/false, /*ensure_ascii=*/true, 0);
    return printed;
  }
};

LibraryPrinter& printer() {
  thread_local LibraryPrinter p;
  return p;
}

}  // namespace

std::string_view json_number_text(double value) {
  LibraryPrinter& p = printer();
  p.number.get_ref<double&>() = value;
  return p.print(p.number);
}

namespace {

// The strings that need escaping are few and the same from call to call: the catalogs' sources
// and notes, with characters beyond ASCII (44 of a default answer's ~1,300 strings). The library
// prints each such character with snprintf, ~6% of advise()'s instructions (bench/RESULTS.md,
// 2026-12-05 night), so each string is escaped once per thread and its text kept. Bounded: past
// kMaxRememberedBytes (a provider's catalog can bring any number of names) it starts afresh.
constexpr std::size_t kMaxRememberedBytes = std::size_t{1} << 20;

struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct EscapedTexts {
  std::unordered_map<std::string, std::string, TextHash, std::equal_to<>> by_text;
  std::size_t bytes = 0;
};

EscapedTexts& escaped_texts() {
  thread_local EscapedTexts texts;
  return texts;
}

}  // namespace

std::string_view json_string_text(std::string_view s) {
  LibraryPrinter& p = printer();
  // Only text beyond ASCII is remembered: the rest (a quote, a control byte, and every string of
  // a JsonValue dump, which has no plain-ASCII path of its own) the library escapes at once.
  const bool beyond_ascii =
      std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  if (!beyond_ascii) {
    p.text.get_ref<std::string&>().assign(s);
    return p.print(p.text);
  }
  EscapedTexts& known = escaped_texts();
  if (const auto it = known.by_text.find(s); it != known.by_text.end()) return it->second;
  p.text.get_ref<std::string&>().assign(s);
  const std::string_view printed = p.print(p.text);
  if (known.bytes + s.size() + printed.size() > kMaxRememberedBytes) {
    known.by_text.clear();
    known.bytes = 0;
  }
  known.bytes += s.size() + printed.size();
  return known.by_text.emplace(std::string(s), std::string(printed)).first->second;
}

}  // namespace advisor
