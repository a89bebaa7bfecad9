// SPDX-License-Identifier: MIT
#include "api.hpp"

#include "io/json_reader.hpp"
#include "io/form_json.hpp"
#include "io/model_json.hpp"
#include "io/plan_json.hpp"
#include "io/request_json.hpp"
#include "plan/plan.hpp"
#include "types/errors.hpp"

namespace advisor {

namespace {

constexpr const char* kDataFiles[] = {"gpus", "models", "assumptions", "performance", "prices"};

/// The replacement texts of {"gpus": …, …}: a document is re-serialised, a string taken as is.
CatalogTexts read_data_overrides(const std::string& data_json) {
  CatalogTexts texts;
  if (data_json.empty()) return texts;
  const nlohmann::json doc = parse_json_text(data_json, "data");
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
  return {{"error", {{"code", code}, {"message", message}, {"path", path}}}};
}

nlohmann::json advise(const nlohmann::json& document, const Catalog& catalog) {
  const Request request = parse_request(document, catalog);
  return plan_to_json(make_plan(request, catalog), catalog);
}

std::string advise_text(const std::string& request_text, const Catalog& catalog, bool* ok) {
  nlohmann::json out;
  bool success = false;
  try {
    out = advise(parse_json_text(request_text, ""), catalog);
    success = true;
  } catch (const InputError& e) {
    out = error_envelope(e.code(), e.what(), e.path());
  } catch (const std::exception& e) {
    out = error_envelope("internal_error", e.what(), "");
  }
  if (ok) *ok = success;
  return out.dump();
}

std::string advise_text(const std::string& request_text, bool* ok) {
  try {
    return advise_text(request_text, builtin_catalog(), ok);
  } catch (const InputError& e) {  // a corrupt built-in catalog
    if (ok) *ok = false;
    return error_envelope(e.code(), e.what(), e.path()).dump();
  }
}

std::string advise_with_catalog_text(const std::string& request_text, const CatalogTexts& data,
                                     bool* ok) {
  Catalog catalog;
  try {
    catalog = parse_catalog(data);
  } catch (const InputError& e) {
    return catalog_error(e, ok);
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
  }
  return advise_with_catalog_text(request_text, texts, ok);
}

nlohmann::json catalog_summary(const Catalog& catalog) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const GpuSpec& g : catalog.gpus) {
    gpus.push_back({{"id", g.id},
                    {"name", g.name},
                    {"vendor", g.vendor},
                    {"memory_gib", g.memory_gib},
                    {"china_status", g.china_availability.status}});
  }
  nlohmann::json models = nlohmann::json::array();
  for (const ModelArch& m : catalog.models) {
    nlohmann::json j = arch_to_json(m);
    j["params_total_b"] = m.params_total_b_published;
    j["params_active_b"] = m.params_active_b_published;
    models.push_back(j);
  }
  return {{"gpus", gpus},
          {"models", models},
          {"gpus_as_of", catalog.gpus_as_of},
          {"models_as_of", catalog.models_as_of},
          {"default_request", default_request(catalog)},
          {"tasks", task_list()},
          {"form", form_schema(catalog)}};
}

}  // namespace advisor
