// SPDX-License-Identifier: MIT
#include "api.hpp"

#include "io/json_reader.hpp"
#include "io/form_json.hpp"
#include "io/plan_json.hpp"
#include "io/request_json.hpp"
#include "plan/plan.hpp"
#include "types/errors.hpp"
#include "types/limits.hpp"
#include "types/text.hpp"

namespace advisor {

namespace {

constexpr const char* kDataFiles[] = {"gpus", "models", "assumptions", "performance", "prices"};

/// The replacement texts of {"gpus": …, …}: a document is re-serialised, a string taken as is.
CatalogTexts read_data_overrides(const std::string& data_json) {
  CatalogTexts texts;
  if (data_json.empty()) return texts;
  const nlohmann::json doc = parse_json_text(data_json, "data", limits::kMaxDataBytes);
  FieldReader r(doc, "data");
  std::string* targets[] = {&texts.gpus, &texts.models, &texts.assumptions, &texts.performance,
                            &texts.prices};
  for (std::size_t i = 0; i < std::size(kDataFiles); ++i) {
    const nlohmann::json* j = r.raw(kDataFiles[i]);
    if (j == nullptr || j->is_null()) continue;
    *targets[i] = j->is_string() ? j->get<std::string>() : j->dump();
    require(!targets[i]->empty(), "catalog_invalid", r.path_of(kDataFiles[i]),
            r.path_of(kDataFiles[i]) + " is empty");
  }
  r.reject_unknown();
  return texts;
}

std::string catalog_error(const InputError& e, bool* ok) {
  if (ok) *ok = false;
  const std::string code = e.code() == "malformed_json" ? e.code() : "catalog_invalid";
  return error_envelope(code, e.what(), e.path()).dump();
}

}  // namespace

const Catalog& builtin_catalog() {
  static const Catalog catalog = parse_catalog(CatalogTexts{});
  return catalog;
}

nlohmann::json error_envelope(const std::string& code, const std::string& message,
                              const std::string& path) {
  // Writable whatever a message echoes (a file name, a raw key): never a second exception.
  return {{"error",
           {{"code", code}, {"message", valid_utf8(message)}, {"path", valid_utf8(path)}}}};
}

std::string advise_text(const std::string& request_text, const Catalog& catalog, bool* ok) {
  std::string out;
  bool success = false;
  try {
    const Request request = parse_request(parse_json_text(request_text, ""), catalog);
    out = plan_to_text(make_plan(request, catalog), catalog);
    success = true;
  } catch (const InputError& e) {
    out = error_envelope(e.code(), e.what(), e.path()).dump();
  } catch (const std::exception& e) {
    out = error_envelope("internal_error", e.what(), "").dump();
  }
  if (ok) *ok = success;
  return out;
}

std::string advise_text(const std::string& request_text, bool* ok) {
  try {
    return advise_text(request_text, builtin_catalog(), ok);
  } catch (const InputError& e) {  // a corrupt built-in catalog
    if (ok) *ok = false;
    return error_envelope(e.code(), e.what(), e.path()).dump();
  } catch (const std::exception& e) {  // never throws: not even out of memory crosses into JS
    if (ok) *ok = false;
    return error_envelope("internal_error", e.what(), "").dump();
  }
}

std::string advise_with_catalog_text(const std::string& request_text, const CatalogTexts& data,
                                     bool* ok) {
  Catalog catalog;
  try {
    catalog = parse_catalog(data);
  } catch (const InputError& e) {
    return catalog_error(e, ok);
  } catch (const std::exception& e) {  // never throws (a provider's data is untrusted)
    if (ok) *ok = false;
    return error_envelope("internal_error", e.what(), "").dump();
  }
  return advise_text(request_text, catalog, ok);
}

std::string advise_with_data_text(const std::string& request_text, const std::string& data_json,
                                  bool* ok) {
  CatalogTexts texts;
  try {
    texts = read_data_overrides(data_json);
  } catch (const InputError& e) {
    return catalog_error(e, ok);
  } catch (const std::exception& e) {
    if (ok) *ok = false;
    return error_envelope("internal_error", e.what(), "").dump();
  }
  return advise_with_catalog_text(request_text, texts, ok);
}

std::string catalog_text(const Catalog& catalog) {
  std::string out;
  JsonWriter w(out);
  w.begin_object();
  w.key("gpus");
  w.begin_array();
  for (const GpuSpec& g : catalog.gpus) {
    w.begin_object();
    w.field("id", g.id);
    w.field("name", g.name);
    w.field("vendor", g.vendor);
    w.field("memory_gib", g.memory_gib);
    w.field("china_status", g.china_availability.status);
    w.end_object();
  }
  w.end_array();
  w.key("models");
  w.begin_array();
  for (const ModelArch& m : catalog.models) {
    w.begin_object();
    write_arch_fields(w, m);
    w.field("params_total_b", m.params_total_b_published);
    w.field("params_active_b", m.params_active_b_published);
    w.end_object();
  }
  w.end_array();
  w.field("gpus_as_of", catalog.gpus_as_of);
  w.field("models_as_of", catalog.models_as_of);
  w.key("default_request");
  w.raw(default_request(catalog).dump());
  w.key("tasks");
  w.raw(task_list().dump());
  w.key("form");
  w.raw(form_schema(catalog).dump());
  w.end_object();
  return out;
}

}  // namespace advisor
