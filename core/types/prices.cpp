// SPDX-License-Identifier: MIT
// Look-ups in the price catalog (io/prices_json.cpp reads it).
#include "types/prices.hpp"

#include "types/errors.hpp"

namespace advisor {

const PriceEntry& PriceCatalog::at(std::string_view key) const {
  auto it = scalars.find(key);
  if (it == scalars.end())
    throw InputError("catalog_invalid", "prices.json", "prices.json lacks " + std::string(key));
  return it->second;
}

const SiteDefaults* PriceCatalog::find_site(const std::string& id) const {
  for (const SiteDefaults& s : sites)
    if (s.id == id) return &s;
  return nullptr;
}

}  // namespace advisor
