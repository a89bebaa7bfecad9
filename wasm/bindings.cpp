// SPDX-License-Identifier: MIT
// The only file that knows about JavaScript: JSON text in, JSON text out. No logic here;
// errors come back as {"error": {...}} text, never as C++ exceptions crossing into JS.
#include <emscripten/bind.h>

#include <string>

#include "api.hpp"
#include "validation_api.hpp"

namespace {

std::string advise(const std::string& request_json) { return advisor::advise_text(request_json); }

std::string advise_with_catalog(const std::string& request_json, const std::string& gpus_json,
                                const std::string& models_json) {
  return advisor::advise_with_catalog_text(request_json, {gpus_json, models_json, "", "", ""});
}

std::string advise_with_data(const std::string& request_json, const std::string& data_json) {
  return advisor::advise_with_data_text(request_json, data_json);
}

std::string advise_with_provider(const std::string& request_json, const std::string& provider_json) {
  return advisor::advise_with_provider_text(request_json, provider_json);
}

std::string validate_provider(const std::string& provider_json) {
  return advisor::provider_text(provider_json);
}

std::string catalog() {
  try {
    return advisor::catalog_text(advisor::builtin_catalog());
  } catch (const std::exception& e) {
    return advisor::error_envelope("catalog_invalid", e.what(), "").dump();
  }
}

std::string validation_scripts(const std::string& request_json) {
  return advisor::validation_scripts_text(request_json);
}

std::string validation_check(const std::string& request_json, const std::string& file_text,
                             const std::string& file_name) {
  return advisor::validation_check_text(request_json, file_text, file_name);
}

std::string version() { return "1"; }

}  // namespace

EMSCRIPTEN_BINDINGS(gpu_advisor) {
  emscripten::function("advise", &advise);
  emscripten::function("adviseWithCatalog", &advise_with_catalog);
  emscripten::function("adviseWithData", &advise_with_data);
  emscripten::function("adviseWithProvider", &advise_with_provider);
  emscripten::function("validateProvider", &validate_provider);
  emscripten::function("catalog", &catalog);
  emscripten::function("validationScripts", &validation_scripts);
  emscripten::function("validationCheck", &validation_check);
  emscripten::function("apiVersion", &version);
}
