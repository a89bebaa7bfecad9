// SPDX-License-Identifier: MIT
// A provider catalog (data/provider.schema.json) -> a Catalog whose rental prices are the
// provider's offers, whose rack prices are its colocation packages and whose GPUs include its
// own parts; and the result's "provider" block. The document is untrusted: every field is
// checked, sizes and texts are bounded, errors are located ("/offers/2/price_cny_per_gpu_hour").
#pragma once
#include <string>

#include "io/catalog_json.hpp"
#include "io/json_writer.hpp"
#include "types/catalog.hpp"
#include "types/plan.hpp"

namespace advisor {

/// The built-in data files (or `base`'s replacements) with the provider's document folded in.
/// Reports a problem located in the document ("/offers/0/gpu", "/gpus/1/tdp_watts"); the catalog
/// returned then holds what was read, its provider set.
Catalog catalog_with_provider(const std::string& provider_text, const CatalogTexts& base = {});

/// result.provider: who priced the plan, as of when, and which offers and packages it used.
void write_provider(JsonWriter& w, const ProviderCatalog& provider, const Plan& plan);

/// {"provider": {name, url, as_of, currency, offers, colocation, gpus_added}}: what the page
/// shows once a document is accepted.
std::string provider_summary_text(const ProviderCatalog& provider);

}  // namespace advisor
