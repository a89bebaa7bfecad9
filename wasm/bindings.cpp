// SPDX-License-Identifier: MIT
// The only file that knows about JavaScript: JSON text in, JSON text out. No logic here;
// errors come back as {"error": {...}} text, never as C++ exceptions crossing into JS.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <utility>
#include <vector>

#include "api.hpp"
#if !GPU_ADVISOR_ANSWER_ONLY
#include "validation_api.hpp"
#endif

namespace {

// Every answer reaches JavaScript as a string decoded by TextDecoder straight from the module's
// memory: a std::string return would first be copied into a fresh buffer and scanned byte by
// byte in JS (~10% of a call for a 95 KB result).
emscripten::val text(const std::string& s) {
  static const emscripten::val decoder = emscripten::val::global("TextDecoder").new_();
  return decoder.call<emscripten::val>(
      "decode", emscripten::val(emscripten::typed_memory_view(s.size(), s.data())));
}

emscripten::val advise(const std::string& request_json) {
  return text(advisor::advise_text(request_json));
}

emscripten::val advise_with_catalog(const std::string& request_json, const std::string& gpus_json,
                                    const std::string& models_json) {
  return text(
      advisor::advise_with_catalog_text(request_json, {gpus_json, models_json, "", "", ""}));
}

emscripten::val advise_with_data(const std::string& request_json, const std::string& data_json) {
  return text(advisor::advise_with_data_text(request_json, data_json));
}

emscripten::val advise_with_provider(const std::string& request_json,
                                     const std::string& provider_json) {
  return text(advisor::advise_with_provider_text(request_json, provider_json));
}

// The page's answer first and its levers after the frame that shows it (api.hpp PlanPart):
// the same result as advise / adviseWithProvider in two calls. provider_json "" = none.
emscripten::val advise_answer(const std::string& request_json, const std::string& provider_json) {
  return text(
      advisor::advise_text(request_json, {{}, provider_json}, nullptr, advisor::PlanPart::kAnswer));
}

emscripten::val advise_levers(const std::string& request_json, const std::string& provider_json) {
  return text(
      advisor::advise_text(request_json, {{}, provider_json}, nullptr, advisor::PlanPart::kLevers));
}

emscripten::val validate_provider(const std::string& provider_json) {
  return text(advisor::provider_text(provider_json));
}

emscripten::val catalog() {
  return text(
      advisor::guarded(nullptr, [] { return advisor::catalog_text(advisor::builtin_catalog()); }));
}

#if !GPU_ADVISOR_ANSWER_ONLY
// The validation entry points: in the whole module only (CMakeLists.txt, gpu_advisor_answer).
emscripten::val validation_scripts(const std::string& request_json) {
  return text(advisor::validation_scripts_text(request_json));
}

emscripten::val validation_check(const std::string& request_json, const std::string& file_text,
                                 const std::string& file_name) {
  return text(advisor::validation_check_text(request_json, file_text, file_name));
}

// Under a provider's catalog, the scripts and the read-back are for the plan adviseWithProvider
// gives (the same document).
emscripten::val validation_scripts_with_provider(const std::string& request_json,
                                                 const std::string& provider_json) {
  return text(advisor::validation_scripts_text(request_json, {{}, provider_json}));
}

emscripten::val validation_check_with_provider(const std::string& request_json,
                                               const std::string& provider_json,
                                               const std::string& file_text,
                                               const std::string& file_name) {
  return text(
      advisor::validation_check_text(request_json, file_text, file_name, {{}, provider_json}));
}

// A cluster's result files, one per server: names[i] is texts[i]'s file name.
std::vector<std::pair<std::string, std::string>> named(const emscripten::val& names,
                                                       const emscripten::val& texts) {
  const auto n = emscripten::vecFromJSArray<std::string>(names);
  const auto t = emscripten::vecFromJSArray<std::string>(texts);
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < n.size() && i < t.size(); ++i) out.emplace_back(n[i], t[i]);
  return out;
}

emscripten::val validation_check_servers(const std::string& request_json,
                                         const emscripten::val& names,
                                         const emscripten::val& texts) {
  return text(advisor::validation_check_servers_text(request_json, named(names, texts)));
}

emscripten::val validation_check_servers_with_provider(const std::string& request_json,
                                                       const std::string& provider_json,
                                                       const emscripten::val& names,
                                                       const emscripten::val& texts) {
  return text(advisor::validation_check_servers_text(request_json, named(names, texts),
                                                     {{}, provider_json}));
}

#endif

emscripten::val version() { return text("1"); }

}  // namespace

EMSCRIPTEN_BINDINGS(gpu_advisor) {
  emscripten::function("advise", &advise);
  emscripten::function("adviseWithCatalog", &advise_with_catalog);
  emscripten::function("adviseWithData", &advise_with_data);
  emscripten::function("adviseWithProvider", &advise_with_provider);
  emscripten::function("adviseAnswer", &advise_answer);
  emscripten::function("adviseLevers", &advise_levers);
  emscripten::function("validateProvider", &validate_provider);
  emscripten::function("catalog", &catalog);
#if !GPU_ADVISOR_ANSWER_ONLY
  emscripten::function("validationScripts", &validation_scripts);
  emscripten::function("validationCheck", &validation_check);
  emscripten::function("validationScriptsWithProvider", &validation_scripts_with_provider);
  emscripten::function("validationCheckWithProvider", &validation_check_with_provider);
  emscripten::function("validationCheckServers", &validation_check_servers);
  emscripten::function("validationCheckServersWithProvider",
                       &validation_check_servers_with_provider);
#endif
  emscripten::function("apiVersion", &version);
}
