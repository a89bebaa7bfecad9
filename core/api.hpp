// SPDX-License-Identifier: MIT
// API v1, text in and text out: the only layer that loads the built-in data files. The CLI and
// the wasm binding call these; they never throw.
#pragma once
#include <memory>
#include <string>

#include "io/catalog_json.hpp"
#include "io/json_value.hpp"
#include "plan/plan.hpp"
#include "types/catalog.hpp"
#include "types/errors.hpp"

namespace advisor {

/// The catalog compiled into the program from data/ (parsed once, then shared read-only).
const Catalog& builtin_catalog();

/// API v1 over text. Never throws: bad input comes back as {"error": {"code", "message",
/// "path"}}. `ok` (optional) says which it was.
std::string advise_text(const std::string& request_text, const Catalog& catalog,
                        bool* ok = nullptr);
std::string advise_text(const std::string& request_text, bool* ok = nullptr);

/// Like advise_text with some of the five data files replaced (a provider's own GPUs, models,
/// assumptions, performance constants or prices; an empty text keeps the built-in file).
/// The replacements are untrusted: a bad one is a `catalog_invalid` error located in its file,
/// e.g. "prices.json/gpus/h100-sxm-80gb/rental".
std::string advise_with_catalog_text(const std::string& request_text, const CatalogTexts& data,
                                     bool* ok = nullptr);

/// As above, with the replacements in one JSON object {"gpus": …, "models": …, "assumptions": …,
/// "performance": …, "prices": …} (each a document or its text; any subset).
std::string advise_with_data_text(const std::string& request_text, const std::string& data_json,
                                  bool* ok = nullptr);

/// Like advise_text with a provider's catalog (data/provider.schema.json) folded into the
/// built-in data (or `base`'s replacements): rentals are the provider's offers, rack prices its
/// colocation packages, its own GPUs are added; the result carries a "provider" block. A bad
/// document is an error located in it ("/offers/2/price_cny_per_gpu_hour") with the field's
/// own code (the page validates it first with provider_text).
std::string advise_with_provider_text(const std::string& request_text,
                                      const std::string& provider_text, bool* ok = nullptr,
                                      const CatalogTexts& base = {});

/// Validates a provider document alone: {"provider": {name, url, as_of, currency, offers,
/// colocation, gpus_added}} or the error envelope.
std::string provider_text(const std::string& provider_text, bool* ok = nullptr);

/// {"error": {"code", "message", "path"}}
JsonValue error_envelope(const std::string& code, const std::string& message,
                         const std::string& path);

/// The one way an API v1 call answers: `answer()` returns the result text, reporting bad input
/// as a problem (types/errors.hpp); the first problem becomes the error envelope (its code and
/// path; internal_error for the writer's refusals). `ok` (optional) says which.
template <typename Answer>
std::string guarded(bool* ok, Answer&& answer) {
  const ProblemScope scope;
  std::string out = answer();
  if (ok) *ok = !scope.failed();
  if (!scope.failed()) return out;
  const InputError& e = scope.problem();
  return error_envelope(e.code(), e.what(), e.path()).dump();
}

/// Where a call's data comes from: the built-in files, some of them replaced (the CLI's --gpus
/// ..., adviseWithData) and a provider's catalog folded in (--provider, adviseWithProvider).
/// Every surface that answers for a plan (advice, validation scripts, the read-back) takes the
/// same source, so the scripts are for the plan on screen.
struct DataSource {
  CatalogTexts replaced;
  std::string provider;  // "" = none
};

/// The catalog of `source`: the built-in one when nothing is replaced; a provider's is cached
/// (the page sends the same document with every request). Reports a replaced file's problem as
/// catalog_invalid located in it, a provider document's with its field's own code; the catalog
/// it returns then is whatever was read (the step's answer is the problem).
std::shared_ptr<const Catalog> catalog_for(const DataSource& source);

/// advise_text on the catalog of `source` (the CLI's flags; the other advise_*_text calls are
/// this with one kind of source). `part`: the whole result, the result without its levers
/// (recommendation.levers empty, levers_later true), or {"levers": [...]} alone; the second
/// completed by the third is the first (the page's answer first, its levers after the frame).
std::string advise_text(const std::string& request_text, const DataSource& source,
                        bool* ok = nullptr, PlanPart part = PlanPart::kWhole);

/// The catalogs, the default request, the task list and the form schema, for the page's
/// pickers and form (JSON text).
std::string catalog_text(const Catalog& catalog);

}  // namespace advisor
