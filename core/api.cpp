// SPDX-License-Identifier: MIT
#include "api.hpp"

#include <memory>
#include <mutex>

#include "engine/power_limit.hpp"
#include "io/form_json.hpp"
#include "io/json_reader.hpp"
#include "io/plan_json.hpp"
#include "io/provider_json.hpp"
#include "io/recommend_json.hpp"
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
  const JsonValue doc = parse_json_text(data_json, "data", limits::kMaxDataBytes);
  FieldReader r(doc, "data");
  std::string* targets[] = {&texts.gpus, &texts.models, &texts.assumptions, &texts.performance,
                            &texts.prices};
  for (std::size_t i = 0; i < std::size(kDataFiles); ++i) {
    const JsonValue* j = r.raw(kDataFiles[i]);
    if (j == nullptr || j->is_null()) continue;
    *targets[i] = j->is_string() ? j->string() : j->dump();
    ADVISOR_REQUIRE(!targets[i]->empty(), "catalog_invalid", r.path_of(kDataFiles[i]),
                    r.path_of(kDataFiles[i]) + " is empty");
  }
  r.reject_unknown();
  return texts;
}

/// `read()` (a replaced data file's reading), whose problem is reported as catalog_invalid (or
/// malformed_json), located in its file.
template <typename Read>
auto as_catalog_problem(Read&& read) {
  std::optional<InputError> problem;
  auto value = in_own_scope(read, problem);
  if (problem)
    report_problem(problem->code() == "malformed_json" ? problem->code() : "catalog_invalid",
                   problem->path(), problem->what());
  return value;
}

/// The catalog of the last provider document (the page sends the same one with every request:
/// parsing it and the five data files again would cost more than the advice).
std::shared_ptr<const Catalog> provider_catalog(const std::string& text, const CatalogTexts& base) {
  static std::mutex mutex;
  static std::string last_text;
  static CatalogTexts last_base;
  static std::shared_ptr<const Catalog> last;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto same = [](const CatalogTexts& a, const CatalogTexts& b) {
    return a.gpus == b.gpus && a.models == b.models && a.assumptions == b.assumptions &&
           a.performance == b.performance && a.prices == b.prices;
  };
  if (!last || last_text != text || !same(last_base, base)) {
    last.reset();
    std::optional<InputError> problem;
    auto read = in_own_scope(
        [&] { return std::make_shared<const Catalog>(catalog_with_provider(text, base)); },
        problem);
    if (problem) {  // not kept: the same document must meet the same problem again
      record_problem(*problem);
      return read;
    }
    last = std::move(read);
    last_text = text;
    last_base = base;
  }
  return last;
}

bool replaces_any(const CatalogTexts& t) {
  return !(t.gpus.empty() && t.models.empty() && t.assumptions.empty() && t.performance.empty() &&
           t.prices.empty());
}

/// The answer to one request on one catalog ("" after a reported problem).
std::string advise_on(const std::string& request_text, const Catalog& catalog,
                      PlanPart part = PlanPart::kWhole) {
  if (problem_reported()) return {};  // the catalog's own
  const Request request = parse_request(parse_json_text(request_text, ""), catalog);
  if (problem_reported()) return {};
  const std::shared_ptr<const Catalog> capped = catalog_at_power_limit(request, catalog);
  const Catalog& used = capped ? *capped : catalog;
  const Plan plan = make_plan(request, used, part);
  if (problem_reported()) return {};
  return part == PlanPart::kLevers ? levers_to_text(plan) : plan_to_text(plan, used);
}

}  // namespace

const Catalog& builtin_catalog() {
  static const Catalog catalog =
      read_builtin("catalog", [] { return parse_catalog(CatalogTexts{}); });
  return catalog;
}

JsonValue error_envelope(const std::string& code, const std::string& message,
                         const std::string& path) {
  // Writable whatever a message echoes (a file name, a raw key): never a second problem.
  JsonValue error = JsonValue::object();
  error.set("code", code);
  error.set("message", valid_utf8(message));
  error.set("path", valid_utf8(path));
  JsonValue envelope = JsonValue::object();
  envelope.set("error", std::move(error));
  return envelope;
}

std::shared_ptr<const Catalog> catalog_for(const DataSource& source) {
  if (!source.provider.empty()) return provider_catalog(source.provider, source.replaced);
  if (!replaces_any(source.replaced))  // the built-in one, never freed: no ownership to share
    return std::shared_ptr<const Catalog>(std::shared_ptr<const Catalog>(), &builtin_catalog());
  return std::make_shared<const Catalog>(
      as_catalog_problem([&] { return parse_catalog(source.replaced); }));
}

std::string advise_text(const std::string& request_text, const Catalog& catalog, bool* ok) {
  return guarded(ok, [&] { return advise_on(request_text, catalog); });
}

std::string advise_text(const std::string& request_text, bool* ok) {
  return guarded(ok, [&] { return advise_on(request_text, builtin_catalog()); });
}

std::string advise_text(const std::string& request_text, const DataSource& source, bool* ok,
                        PlanPart part) {
  return guarded(ok, [&] { return advise_on(request_text, *catalog_for(source), part); });
}

std::string advise_with_catalog_text(const std::string& request_text, const CatalogTexts& data,
                                     bool* ok) {
  return advise_text(request_text, DataSource{data, ""}, ok);
}

std::string advise_with_data_text(const std::string& request_text, const std::string& data_json,
                                  bool* ok) {
  return guarded(ok, [&] {
    const CatalogTexts texts = as_catalog_problem([&] { return read_data_overrides(data_json); });
    if (problem_reported()) return std::string();
    return advise_on(request_text, *catalog_for({texts, ""}));
  });
}

std::string advise_with_provider_text(const std::string& request_text,
                                      const std::string& provider_text, bool* ok,
                                      const CatalogTexts& base) {
  return guarded(ok, [&] {
    // The document is read even when empty: an empty text is its own located error.
    return advise_on(request_text, *provider_catalog(provider_text, base));
  });
}

std::string provider_text(const std::string& text, bool* ok) {
  return guarded(ok, [&] {
    const std::shared_ptr<const Catalog> catalog = provider_catalog(text, {});
    return problem_reported() ? std::string() : provider_summary_text(*catalog->provider);
  });
}

std::string catalog_text(const Catalog& catalog) {
  JsonWriter w;
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
  return w.take();
}

}  // namespace advisor
