// SPDX-License-Identifier: MIT
#include "io/validation_sections_json.hpp"

#include <cctype>

#include "io/validation_fields.hpp"
#include "types/errors.hpp"

namespace advisor::validation {
namespace {

using json = JsonValue;

/// "Pass", "PASS", "Skip", "SKIPPED", "Warn", "Warning", "Fail", "Failed" -> pass, skip, warn,
/// fail; other words (DCGM 4's "Not Run") lowered as they are.
std::string status_word(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* w : {"pass", "fail", "warn", "skip"})
    if (s.rfind(w, 0) == 0) return w;
  return s;
}

std::string text_of(const json* v) {
  if (v == nullptr || v->is_null()) return "";
  if (v->is_string()) return v->string();
  if (v->is_number()) return v->dump();
  return "";
}

/// The first warning's text: DCGM 3 {"warning": "..."}, DCGM 4 {"message": "..."}, or a string.
std::string first_warning(const json& result) {
  const json* w = result.find("warnings");
  if (w == nullptr || !w->is_array() || w->empty()) return "";
  const json& first = (*w)[0];
  if (first.is_string()) return first.string();
  if (!first.is_object()) return "";
  const std::string text = text_of(first.find("warning"));
  return text.empty() ? text_of(first.find("message")) : text;
}

/// DCGM 3's gpu_ids ("1", "0,1,2" or 1), DCGM 4's entity ids ({"entity_group": "GPU",
/// "entity_id": 1}).
std::string gpus_of(const json& result) {
  std::string ids = text_of(result.find("gpu_ids"));
  if (ids.empty()) ids = text_of(result.find("gpu_id"));
  if (ids.empty()) ids = text_of(result.find("entity_id"));
  return ids;
}

void read_tests(const json& tests, const std::string& category, std::vector<DcgmTestResult>& out) {
  if (!tests.is_array()) return;
  for (const json& t : tests.elements()) {
    if (!t.is_object()) continue;  // DCGM 3 puts null between the deployment tests
    const std::string name = text_of(t.find("name"));
    const json* results = t.find("results");
    bool any = false;
    if (results != nullptr && results->is_array())
      for (const json& r : results->elements()) {
        if (!r.is_object() || !r.contains("status")) continue;
        out.push_back(
            {category, name, status_word(text_of(r.find("status"))), gpus_of(r), first_warning(r)});
        any = true;
      }
    const json* summary = t.find("test_summary");  // DCGM 4: the test's verdict over its GPUs
    if (!any && summary != nullptr && summary->is_object())
      out.push_back({category, name, status_word(text_of(summary->find("status"))), "", ""});
  }
}

}  // namespace

std::vector<ScriptCheck> read_script_checks(const json& doc, const std::string& base) {
  std::vector<ScriptCheck> out;
  const json* checks = doc.find("checks");
  if (checks == nullptr || !checks->is_array()) return out;
  for (std::size_t i = 0; i < checks->size(); ++i) {
    const json& c = (*checks)[i];
    if (!c.is_object()) continue;
    const std::string at = base + "/checks/" + std::to_string(i);
    out.push_back({fields::text_or_empty(c, "script", at), fields::text_or_empty(c, "status", at),
                   fields::text_or_empty(c, "area", at), fields::text_or_empty(c, "check", at),
                   fields::text_or_empty(c, "expected", at),
                   fields::text_or_empty(c, "measured", at), fields::text_or_empty(c, "code", at),
                   fields::text_or_empty(c, "detail", at)});
  }
  return out;
}

std::vector<DcgmTestResult> read_dcgm_json(const json& doc, const std::string& path) {
  const json* root = doc.is_object() ? doc.find("DCGM GPU Diagnostic") : nullptr;
  if (root == nullptr && doc.is_object()) root = doc.find("DCGM Diagnostic");
  ADVISOR_REQUIRE(root != nullptr && root->is_object(), "bad_value", path,
                  "dcgm must be the JSON of dcgmi diag -j (a \"DCGM GPU Diagnostic\" object)");
  std::vector<DcgmTestResult> out;
  if (const json* cats = root->find("test_categories"); cats && cats->is_array())
    for (const json& c : cats->elements())
      if (c.is_object())
        if (const json* tests = c.find("tests"))
          read_tests(*tests, text_of(c.find("category")), out);
  if (const json* tests = root->find("tests")) read_tests(*tests, "", out);
  return out;
}

}  // namespace advisor::validation
