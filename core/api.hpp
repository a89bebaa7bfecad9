// SPDX-License-Identifier: MIT
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "catalog.hpp"

namespace advisor {

/// API v1 in the core: a parsed request document to the result document. Throws InputError
/// for bad input (the callers below turn it into the error envelope).
nlohmann::json advise(const nlohmann::json& request, const Catalog& catalog);

/// API v1 over text, for the CLI and the wasm binding. Never throws: bad input comes back as
/// {"error": {"code", "message", "path"}}. `ok` (optional) says which it was.
std::string advise_text(const std::string& request_text, const Catalog& catalog,
                        bool* ok = nullptr);
std::string advise_text(const std::string& request_text, bool* ok = nullptr);

/// Like advise_text, with provider-supplied catalog texts (untrusted: validated first; an
/// empty string keeps the built-in file).
std::string advise_with_catalog_text(const std::string& request_text, const std::string& gpus_json,
                                     const std::string& models_json, bool* ok = nullptr);

/// {"error": {"code", "message", "path"}}
nlohmann::json error_envelope(const std::string& code, const std::string& message,
                              const std::string& path);

/// The built-in catalogs and the default request, for the page's pickers and editors.
nlohmann::json catalog_summary(const Catalog& catalog);

}  // namespace advisor
