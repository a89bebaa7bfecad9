// SPDX-License-Identifier: MIT
// data/prices.json -> PriceCatalog: power, facility and cost defaults, each with its unit,
// basis, source and date (USD prices converted at the catalog's rate).
#pragma once
#include <string>

#include "types/prices.hpp"

namespace advisor {

/// prices.json alone (errors name "prices.json/..." paths).
PriceCatalog parse_price_catalog(const std::string& text);

}  // namespace advisor
