// SPDX-License-Identifier: MIT
// The field reads of the validation files (data/ngc.json, data/validation.json, a result file):
// each a located problem when the field is missing or of another type, reported under the
// codes the page words for these files (catalog_invalid, wrong_type, json_invalid).
#pragma once
#include <string>
#include <vector>

#include "io/json_value.hpp"

namespace advisor::validation::fields {

/// `text` as JSON of `file`, strictly (io/json_text.cpp's limits); null after a reported problem.
JsonValue parse(const std::string& text, const std::string& file);
/// The member `key` of `obj` (at `path`); null after reporting it missing.
const JsonValue& field(const JsonValue& obj, const std::string& key, const std::string& path);
/// The string member `key`, "" when absent.
std::string text_or_empty(const JsonValue& obj, const char* key, const std::string& path);
std::string str(const JsonValue& obj, const std::string& key, const std::string& path);
/// A string or null ("").
std::string str_or_empty(const JsonValue& obj, const std::string& key, const std::string& path);
double number(const JsonValue& obj, const std::string& key, const std::string& path);
bool boolean(const JsonValue& obj, const std::string& key, const std::string& path);
std::vector<std::string> strings(const JsonValue& obj, const std::string& key,
                                 const std::string& path);

}  // namespace advisor::validation::fields
