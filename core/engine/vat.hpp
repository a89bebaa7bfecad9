// SPDX-License-Identifier: MIT
// Value-added tax (增值税) in the cost model: the rates of goods and services, the VAT inside a
// VAT-inclusive price (含税, how Chinese sellers quote) or on top of an ex-VAT one, and the VAT
// of an option's cash (docs/cost.md "VAT").
#pragma once
#include <string_view>

#include "engine/cost.hpp"

namespace advisor {

/// The rates (prices.json vat) and whether the buyer recovers input VAT.
struct VatTerms {
  double hardware_rate = 0.13;     // goods: GPUs, servers, spare parts
  double electricity_rate = 0.13;  // electricity is a good
  double services_rate = 0.06;     // colocation, bandwidth, rental, data transfer
  bool deductible = false;         // a general VAT payer: costs count without their VAT
};

/// The VAT of an amount at `rate`: inside it (r / (1 + r) of a VAT-inclusive amount) when not
/// deductible, else on top of it (r x an ex-VAT amount, paid and recovered). Both are the same
/// tax on the same purchase: 100,000 CNY inclusive holds 11,504 CNY at 13%.
double vat_of(double amount_cny, double rate, bool deductible);

/// A VAT-inclusive price without its VAT: price / (1 + rate).
double without_vat(double price_cny, double rate);

/// The VAT rate of a cost line (engine/cost line item names): goods for hardware, spares and
/// operations priced as a share of the capex (they follow the capex's price), electricity for
/// power, services for the rest; 0 for staff wages and financing interest (a loan's input VAT
/// is not deductible: it stays in the rate as charged).
double line_vat_rate(std::string_view item_name, std::string_view basis_code, const VatTerms& v);

/// The VAT in an option's lifetime cash: the purchase's on the capex, each running line's on
/// its yearly amount x the years. The residual's resale is not taxed here.
double option_vat_cny(const OptionCost& c, const VatTerms& v);

}  // namespace advisor
