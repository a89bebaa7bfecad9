// SPDX-License-Identifier: MIT
// Look-ups in the price catalog (io/prices_json.cpp reads it).
#include "types/prices.hpp"

#include <cctype>

#include "types/errors.hpp"

namespace advisor {

namespace {

/// "YYYY", "YYYY-MM" or "YYYY-MM-DD" as a count of months (a year alone: its December, the
/// latest it can mean); nullopt for anything else ("undated").
std::optional<int> month_index(std::string_view date) {
  auto digits = [&](std::size_t at, std::size_t n) -> std::optional<int> {
    if (date.size() < at + n) return std::nullopt;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(date[i]))) return std::nullopt;
      v = v * 10 + (date[i] - '0');
    }
    return v;
  };
  const std::optional<int> year = digits(0, 4);
  if (!year) return std::nullopt;
  constexpr int kMonths = 12;
  if (date.size() == 4) return *year * kMonths + (kMonths - 1);
  const std::optional<int> month = date[4] == '-' ? digits(5, 2) : std::nullopt;
  if (!month || *month < 1 || *month > kMonths) return std::nullopt;
  return *year * kMonths + (*month - 1);
}

}  // namespace

bool older_than(std::string_view as_of, std::string_view reference, int months) {
  const std::optional<int> a = month_index(as_of), r = month_index(reference);
  return a && r && *r - *a > months;
}

const PriceEntry& PriceCatalog::at(std::string_view key) const {
  auto it = scalars.find(key);
  if (it == scalars.end()) {
    report_problem("catalog_invalid", "prices.json", "prices.json lacks " + std::string(key));
    static const PriceEntry kAbsent;  // a value of 0, for the rest of the step
    return kAbsent;
  }
  return it->second;
}

const SiteDefaults* PriceCatalog::find_site(const std::string& id) const {
  for (const SiteDefaults& s : sites)
    if (s.id == id) return &s;
  return nullptr;
}

}  // namespace advisor
