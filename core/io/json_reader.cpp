// SPDX-License-Identifier: MIT
#include "io/json_reader.hpp"

#include <cmath>
#include <cstdio>

#include "types/errors.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {
std::string type_name(const JsonValue& j) { return j.type_name(); }
thread_local FieldLog* active_log = nullptr;

template <typename T>
JsonValue default_of(const std::optional<T>& v) {
  return v ? JsonValue(*v) : JsonValue();
}
}  // namespace

FieldLog::FieldLog() : previous_(active_log) { active_log = this; }
FieldLog::~FieldLog() { active_log = previous_; }

bool FieldLog::recording() { return active_log != nullptr; }

void FieldLog::note(FieldSpec spec) {
  if (active_log == nullptr) return;
  for (const FieldSpec& known : active_log->fields_)
    if (known.path == spec.path) return;
  active_log->fields_.push_back(std::move(spec));
}

FieldReader::FieldReader(const JsonValue& object, std::string path)
    : object_(object), path_(std::move(path)), seen_(object.size(), false) {
  if (!object_.is_object())  // then it reads as an empty object: every read its fallback
    report_problem("wrong_type", path_.empty() ? "/" : path_,
                   (path_.empty() ? std::string("the document") : path_) +
                       " must be a JSON object, got " + type_name(object_));
}

bool FieldReader::has(const char* key) const {
  const JsonValue* j = object_.find(key);
  return j != nullptr && !j->is_null();
}

// The reads below call it only for an error (through a lambda `p`): a valid read allocates
// nothing for its path.
std::string FieldReader::path_of(const char* key) const { return path_ + "/" + key; }

const JsonValue* FieldReader::find(const char* key) {
  if (!object_.is_object()) return nullptr;
  const std::size_t i = object_.index_of(key);
  if (i == JsonValue::npos) return nullptr;
  seen_[i] = true;
  return &object_[i];
}

double FieldReader::number(const char* key, double min, double max, std::optional<double> fallback,
                           bool exclusive_min) {
  if (FieldLog::recording())
    FieldLog::note({path_of(key), "number", min, max, exclusive_min, default_of(fallback), {}});
  const JsonValue* j = find(key);
  if (j == nullptr || j->is_null()) {
    if (!fallback.has_value()) {
      report_problem("missing_field", path_of(key), path_of(key) + " is required (a number)");
      return exclusive_min ? max : min;  // within the field's range, for the rest of the step
    }
    return *fallback;
  }
  const std::optional<double> value = nullable_number(key, min, max, exclusive_min);
  return value ? *value : (exclusive_min ? max : min);
}

std::optional<double> FieldReader::nullable_number(const char* key, double min, double max,
                                                   bool exclusive_min) {
  if (FieldLog::recording())
    FieldLog::note({path_of(key), "number", min, max, exclusive_min, {}, {}});
  const JsonValue* j = find(key);
  if (j == nullptr || j->is_null()) return std::nullopt;
  const auto p = [&] { return path_of(key); };
  ADVISOR_REQUIRE(j->is_number(), "wrong_type", p(),
                  p() + " must be a number, got " + type_name(*j));
  const double value = j->number();
  ADVISOR_REQUIRE(std::isfinite(value), "out_of_range", p(), p() + " must be a finite number");
  const bool above_min = exclusive_min ? value > min : value >= min;
  ADVISOR_REQUIRE(above_min && value <= max, "out_of_range", p(),
                  p() + " must be " + (exclusive_min ? "> " : ">= ") + format_number(min) +
                      " and <= " + format_number(max) + ", got " + format_number(value));
  return value;
}

std::int64_t FieldReader::integer(const char* key, std::int64_t min, std::int64_t max,
                                  std::optional<std::int64_t> fallback) {
  if (FieldLog::recording())
    FieldLog::note({path_of(key),
                    "integer",
                    static_cast<double>(min),
                    static_cast<double>(max),
                    false,
                    default_of(fallback),
                    {}});
  if (!has(key) && !fallback.has_value()) {
    report_problem("missing_field", path_of(key), path_of(key) + " is required (a whole number)");
    return min;  // within the field's range, for the rest of the step
  }
  const std::optional<std::int64_t> value = nullable_integer(key, min, max);
  if (value) return *value;
  return problem_reported() ? min : *fallback;
}

std::optional<std::int64_t> FieldReader::nullable_integer(const char* key, std::int64_t min,
                                                          std::int64_t max) {
  if (FieldLog::recording())
    FieldLog::note({path_of(key),
                    "integer",
                    static_cast<double>(min),
                    static_cast<double>(max),
                    false,
                    {},
                    {}});
  const JsonValue* j = find(key);
  if (j == nullptr || j->is_null()) return std::nullopt;
  const auto p = [&] { return path_of(key); };
  ADVISOR_REQUIRE(j->is_number(), "wrong_type", p(),
                  p() + " must be a whole number, got " + type_name(*j));
  const double value = j->number();
  ADVISOR_REQUIRE(std::isfinite(value) && std::floor(value) == value, "not_integer", p(),
                  p() + " must be a whole number, got " + format_number(value));
  ADVISOR_REQUIRE(value >= static_cast<double>(min) && value <= static_cast<double>(max),
                  "out_of_range", p(),
                  p() + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                      ", got " + format_number(value));
  return static_cast<std::int64_t>(value);
}

bool FieldReader::boolean(const char* key, std::optional<bool> fallback) {
  if (FieldLog::recording())
    FieldLog::note({path_of(key), "boolean", {}, {}, false, default_of(fallback), {}});
  const JsonValue* j = find(key);
  const auto p = [&] { return path_of(key); };
  if (j == nullptr || j->is_null()) {
    ADVISOR_REQUIRE(fallback.has_value(), "missing_field", p(),
                    p() + " is required (true or false)");
    return *fallback;
  }
  ADVISOR_REQUIRE(j->is_boolean(), "wrong_type", p(),
                  p() + " must be true or false, got " + type_name(*j));
  return j->boolean();
}

std::string FieldReader::string(const char* key, std::optional<std::string> fallback) {
  if (FieldLog::recording())
    FieldLog::note({path_of(key), "text", {}, {}, false, default_of(fallback), {}});
  const JsonValue* j = find(key);
  const auto p = [&] { return path_of(key); };
  if (j == nullptr || j->is_null()) {
    ADVISOR_REQUIRE(fallback.has_value(), "missing_field", p(), p() + " is required (a string)");
    return *fallback;
  }
  ADVISOR_REQUIRE(j->is_string(), "wrong_type", p(),
                  p() + " must be a string, got " + type_name(*j));
  return j->string();
}

std::string FieldReader::text(const char* key, std::size_t max_chars,
                              std::optional<std::string> fallback, bool lines) {
  const bool required = !fallback.has_value();
  const std::string v = string(key, std::move(fallback));
  const auto p = [&] { return path_of(key); };
  ADVISOR_REQUIRE(!required || !v.empty(), "missing_field", p(), p() + " must not be empty");
  std::size_t chars = 0;
  for (const char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if ((u & 0xC0) != 0x80) ++chars;
    ADVISOR_REQUIRE(
        (u >= 0x20 || (lines && c == '\n')) && u != 0x7F, "out_of_range", p(),
        p() + (lines ? " must be plain text without control characters (newlines allowed)"
                     : " must be one line of plain text, without control characters"));
  }
  ADVISOR_REQUIRE(chars <= max_chars, "limit_exceeded", p(),
                  p() + " has " + std::to_string(chars) + " characters; the limit is " +
                      std::to_string(max_chars));
  return v;
}

std::string FieldReader::choice(const char* key, std::initializer_list<const char*> allowed,
                                std::optional<std::string> fallback) {
  if (FieldLog::recording()) {
    FieldSpec spec{path_of(key), "choice", {}, {}, false, default_of(fallback), {}};
    for (const char* option : allowed) spec.choices.push_back(option);
    FieldLog::note(std::move(spec));
  }
  const std::string value = string(key, std::move(fallback));
  std::string list;
  for (const char* option : allowed) {
    if (value == option) return value;
    list += list.empty() ? "" : ", ";
    list += option;
  }
  unknown_value(key, list, value);
  return *allowed.begin();  // one of the allowed values, for the rest of the step
}

void FieldReader::unknown_value(const char* key, const std::string& allowed,
                                const std::string& got) const {
  report_problem("unknown_value", path_of(key),
                 path_of(key) + " must be one of: " + allowed + "; got " + in_quotes(got));
}

const JsonValue* FieldReader::object(const char* key) {
  const JsonValue* j = find(key);
  if (j == nullptr || j->is_null()) return nullptr;
  ADVISOR_REQUIRE(j->is_object(), "wrong_type", path_of(key),
                  path_of(key) + " must be a JSON object, got " + type_name(*j));
  return j;
}

const JsonValue* FieldReader::raw(const char* key) {
  const JsonValue* j = find(key);
  return (j == nullptr || j->is_null()) ? nullptr : j;
}

void FieldReader::reject_unknown() const {
  if (!object_.is_object()) return;                   // already reported
  for (std::size_t i = 0; i < object_.size(); ++i) {  // key order: the first in it is named
    if (!seen_[i]) {
      const std::string& key = object_.key(i);
      const std::string p = path_ + "/" + pointer_token(key);
      // A long key is echoed shortened (the path keeps it whole: it locates the field).
      const std::string shown =
          key.size() <= limits::kMaxEchoedChars ? p : path_ + "/" + in_quotes(key);
      report_problem("unknown_field", p, shown + " is not a known field here (check its spelling)");
      return;
    }
  }
}

FieldReader required_object(FieldReader& r, const char* key) {
  static const JsonValue kEmpty = JsonValue::object();
  const JsonValue* o = r.object(key);
  if (o == nullptr) {  // reported unless absent; the reads of the empty object report nothing more
    if (!problem_reported())
      report_problem("missing_field", r.path_of(key), r.path_of(key) + " is required");
    o = &kEmpty;
  }
  return FieldReader(*o, r.path_of(key));
}

double read_sourced_value(FieldReader& r, const char* key, double min, double max,
                          std::string* basis) {
  FieldReader a = required_object(r, key);
  const double value = a.number("value", min, max);
  const std::string text = a.string("basis");
  a.string("source");
  a.reject_unknown();
  if (basis != nullptr) *basis = text;
  return value;
}
}  // namespace advisor
