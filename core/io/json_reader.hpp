// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "io/json_text.hpp"
#include "io/json_value.hpp"
#include "types/choices.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

namespace advisor {

/// What a reader asked of one field: its JSON pointer, kind, range, default and choices. While a
/// FieldLog is open, every FieldReader records its reads in it, so the page's form schema is
/// the parser's own record: one home for each field's range, default and choices.
struct FieldSpec {
  std::string path;
  std::string kind;  // integer | number | boolean | choice | text
  std::optional<double> min, max;
  bool exclusive_min = false;
  JsonValue default_value;  // null: none (the advisor decides, or the field is required)
  std::vector<std::string> choices;
};

class FieldLog {
 public:
  FieldLog();  // records the reads of this thread until destroyed
  ~FieldLog();
  FieldLog(const FieldLog&) = delete;
  FieldLog& operator=(const FieldLog&) = delete;
  const std::vector<FieldSpec>& fields() const { return fields_; }
  static bool recording();  // a log is open on this thread
  /// Records `spec` unless its path is known (the first, most specific read wins).
  static void note(FieldSpec spec);

 private:
  std::vector<FieldSpec> fields_;
  FieldLog* previous_;
};

/// "a, b, c": the API names of an enum's table, for an error message.
template <typename E, std::size_t N>
std::string names_of(const Named<E> (&table)[N]) {
  std::string list;
  for (const Named<E>& n : table) list += (list.empty() ? "" : ", ") + std::string(n.name);
  return list;
}

/// Strict, located reads from one JSON object. Every read names the field's JSON pointer in its
/// error, and `reject_unknown()` turns a typo ("sequnce_length") into an error instead of a
/// silently ignored field. Ranges are checked, never clamped. A read that fails reports the
/// problem (types/errors.hpp) and returns a value within the field's limits (its fallback, its
/// minimum, an allowed choice), so the rest of the step can run to its end harmlessly.
class FieldReader {
 public:
  /// `path` is the JSON pointer of `object` itself ("" for the document root).
  FieldReader(const JsonValue& object, std::string path);

  bool has(const char* key) const;
  std::string path_of(const char* key) const;  // out of line: called at every read site
  const std::string& path() const { return path_; }

  /// A finite number in [min, max] (min excluded when `exclusive_min`); `fallback` when absent.
  double number(const char* key, double min, double max, std::optional<double> fallback = {},
                bool exclusive_min = false);
  /// Like number(), but JSON null is allowed and returned as nullopt.
  std::optional<double> nullable_number(const char* key, double min, double max,
                                        bool exclusive_min = false);
  /// A whole number in [min, max].
  std::int64_t integer(const char* key, std::int64_t min, std::int64_t max,
                       std::optional<std::int64_t> fallback = {});
  std::optional<std::int64_t> nullable_integer(const char* key, std::int64_t min, std::int64_t max);
  bool boolean(const char* key, std::optional<bool> fallback = {});
  std::string string(const char* key, std::optional<std::string> fallback = {});
  /// A text someone else wrote that the page or a script shows: at most `max_chars` characters,
  /// no control characters (a newline only where `lines`), not empty unless `fallback` is given.
  std::string text(const char* key, std::size_t max_chars, std::optional<std::string> fallback = {},
                   bool lines = false);
  /// One of `allowed`; the error lists them.
  std::string choice(const char* key, std::initializer_list<const char*> allowed,
                     std::optional<std::string> fallback = {});
  /// One of an enum's API names (types/choices.hpp); `fallback` when absent.
  template <typename E, std::size_t N>
  E choice(const char* key, const Named<E> (&table)[N],
           std::type_identity_t<std::optional<E>> fallback = {}) {
    std::optional<std::string> fallback_name;
    if (fallback) fallback_name = name_in(table, *fallback);
    if (FieldLog::recording()) {
      FieldSpec spec{path_of(key), "choice", {}, {}, false, {}, {}};
      if (fallback_name) spec.default_value = *fallback_name;
      for (const Named<E>& n : table) spec.choices.push_back(n.name);
      FieldLog::note(std::move(spec));
    }
    const std::string value = string(key, fallback_name);
    if (auto v = value_in(table, value)) return *v;
    if (!problem_reported()) unknown_value(key, names_of(table), value);
    return table[0].value;  // one of the allowed values, for the rest of the step
  }
  /// Like choice(), but absent or JSON null is nullopt: no default (the advisor decides).
  template <typename E, std::size_t N>
  std::optional<E> nullable_choice(const char* key, const Named<E> (&table)[N]) {
    if (FieldLog::recording()) {
      FieldSpec spec{path_of(key), "choice", {}, {}, false, {}, {}};
      for (const Named<E>& n : table) spec.choices.push_back(n.name);
      FieldLog::note(std::move(spec));
    }
    const JsonValue* j = raw(key);  // marks a null member as read too
    if (j == nullptr || j->is_null()) return std::nullopt;
    const std::string value = string(key);
    if (auto v = value_in(table, value)) return *v;
    if (!problem_reported()) unknown_value(key, names_of(table), value);
    return std::nullopt;
  }
  /// The member `key` if present (must be an object), else nullptr.
  const JsonValue* object(const char* key);
  /// The member `key` if present (any type), else nullptr. Marks it as read.
  const JsonValue* raw(const char* key);
  /// Reports unknown_value naming the allowed values.
  void unknown_value(const char* key, const std::string& allowed, const std::string& got) const;
  /// Reports unknown_field for the first member that no read asked for.
  void reject_unknown() const;

 private:
  const JsonValue* find(const char* key);
  const JsonValue& object_;
  std::string path_;
  std::vector<bool> seen_;  // per member of object_: a read asked for it
};

/// The member object `key` of `r` (required), as a reader.
FieldReader required_object(FieldReader& r, const char* key);

/// Reads a sourced constant {"value": x, "basis": "...", "source": "..."} (data/*.json): the
/// value in [min, max]; `basis` receives the basis text when not null.
double read_sourced_value(FieldReader& r, const char* key, double min, double max,
                          std::string* basis = nullptr);

/// The ids of a catalog list for an error message: the first kListedIds, then how many more (a
/// provider's catalog may hold a thousand parts).
template <typename Item>
inline std::string known_ids(const std::vector<Item>& items) {
  constexpr std::size_t kListedIds = 40;
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < kListedIds; ++i)
    out += (i ? ", " : "") + items[i].id;
  if (items.size() > kListedIds)
    out += " and " + std::to_string(items.size() - kListedIds) + " more";
  return out;
}

}  // namespace advisor
