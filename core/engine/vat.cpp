// SPDX-License-Identifier: MIT
#include "engine/vat.hpp"

namespace advisor {

double vat_of(double amount_cny, double rate, bool deductible) {
  return deductible ? amount_cny * rate : amount_cny * rate / (1 + rate);
}

double without_vat(double price_cny, double rate) { return price_cny / (1 + rate); }

double line_vat_rate(std::string_view item_name, std::string_view basis_code, const VatTerms& v) {
  if (item_name == "hardware" || item_name == "spares_and_failures") return v.hardware_rate;
  if (item_name == "electricity") return v.electricity_rate;
  if (item_name == "financing_interest") return 0;
  if (item_name == "operations") return basis_code == "staff" ? 0 : v.hardware_rate;
  return v.services_rate;
}

double option_vat_cny(const OptionCost& c, const VatTerms& v) {
  const double years = static_cast<double>(c.yearly_cny.size());
  double vat = vat_of(c.capex_cny, v.hardware_rate, v.deductible);
  for (const LineItem& i : c.line_items) {
    if (i.name == "hardware") continue;  // the purchase's VAT: on the capex above
    vat += vat_of(i.yearly_cny * years, line_vat_rate(i.name, i.code, v), v.deductible);
  }
  return vat;
}

}  // namespace advisor
