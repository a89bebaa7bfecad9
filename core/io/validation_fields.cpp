// SPDX-License-Identifier: MIT
#include "io/validation_fields.hpp"

#include <optional>

#include "io/json_text.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"

namespace advisor::validation::fields {

// Strictly, as every other JSON input (io/json_text.cpp): bounded size and depth, duplicate keys,
// NUL bytes, numbers beyond a double are located errors (fuzz regression number_overflow.json).
// Null after a reported problem.
JsonValue parse(const std::string& text, const std::string& file) {
  std::optional<InputError> problem;
  JsonValue doc = in_own_scope(
      [&] { return parse_json_text(text, "/" + file, limits::kMaxValidationResultBytes); },
      problem);
  if (!problem) return doc;
  // A cut-off file is the common case: it keeps the code the page words as such.
  if (problem->code() != "malformed_json") {
    record_problem(std::move(*problem));
    return {};
  }
  return report_problem("json_invalid", "/" + file,
                        std::string(problem->what()) + ": the file may be cut short");
}

/// The member `key`; null after reporting it missing (the type checks that follow report nothing
/// more: only the first problem is kept).
const JsonValue& field(const JsonValue& obj, const std::string& key, const std::string& path) {
  static const JsonValue kMissing;
  const JsonValue* v = obj.find(key);
  if (v == nullptr) {
    report_problem("catalog_invalid", path + "/" + key, "missing field " + key);
    return kMissing;
  }
  return *v;
}

/// The string member `key` of the object at `path`, "" when absent; a member of another type
/// is a located error (a hand-edited or damaged result file is input, never an internal error).
std::string text_or_empty(const JsonValue& obj, const char* key, const std::string& path) {
  const JsonValue* v = obj.find(key);
  if (v == nullptr) return "";
  if (!v->is_string())
    return report_problem("wrong_type", path + "/" + key,
                          path + "/" + key + " must be a string, not " + v->type_name());
  return v->string();
}

std::string str(const JsonValue& obj, const std::string& key, const std::string& path) {
  const JsonValue& v = field(obj, key, path);
  if (!v.is_string())
    return report_problem("catalog_invalid", path + "/" + key, key + " must be a string");
  return v.string();
}

std::string str_or_empty(const JsonValue& obj, const std::string& key, const std::string& path) {
  const JsonValue& v = field(obj, key, path);
  if (v.is_null()) return "";
  if (!v.is_string())
    return report_problem("catalog_invalid", path + "/" + key, key + " must be a string or null");
  return v.string();
}

double number(const JsonValue& obj, const std::string& key, const std::string& path) {
  const JsonValue& v = field(obj, key, path);
  if (!v.is_number())
    return report_problem("catalog_invalid", path + "/" + key, key + " must be a number");
  return v.number();
}

bool boolean(const JsonValue& obj, const std::string& key, const std::string& path) {
  const JsonValue& v = field(obj, key, path);
  if (!v.is_boolean())
    return report_problem("catalog_invalid", path + "/" + key, key + " must be true or false");
  return v.boolean();
}

std::vector<std::string> strings(const JsonValue& obj, const std::string& key,
                                 const std::string& path) {
  const JsonValue& v = field(obj, key, path);
  if (!v.is_array())
    return report_problem("catalog_invalid", path + "/" + key, key + " must be an array");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string())
      return report_problem("catalog_invalid", path + "/" + key + "/" + std::to_string(i),
                            "must be a string");
    out.push_back(v[i].string());
  }
  return out;
}

}  // namespace advisor::validation::fields
